"""CLI commands of sadame.judge: judge, answer, rules (lint/test/coverage/schema), play.

TABLE is a path to a ``.yaml``/``.json`` table or pack, or the name of a bundled
one (``engineering``, ``faq-routing``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TextIO

import click

from sadame.cli._output import echo_json
from sadame.judge import Judge, JudgeError, PuzzlePack, RuleTable, check_answer
from sadame.judge.authoring import lint_table, load_questions, probe_table, run_questions
from sadame.judge.authoring._import import import_seed_rules
from sadame.judge.authoring._questions import render_questions
from sadame.judge.authoring._tools import coverage, run_examples
from sadame.judge.engine._loader import (
    PACK_FORMAT,
    PACK_FORMAT2,
    PACK_FORMAT3,
    TABLE_FORMAT,
    TABLE_FORMAT2,
    bundled_names,
    resolve_table,
    table_schema,
)
from sadame.judge.engine._natural import DEFAULT_POLICY, POLICIES
from sadame.judge.game import play
from sadame.judge.game._messages import answer_feedback

__all__ = ["register", "rules_group"]


def _load(source: str) -> RuleTable | PuzzlePack:
    try:
        return resolve_table(source)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None


def _target(loaded: RuleTable | PuzzlePack, puzzle: str | None) -> Judge:
    try:
        if isinstance(loaded, PuzzlePack):
            if puzzle is None:
                raise click.UsageError(f"{loaded.name} is a puzzle pack: choose one with --puzzle "
                                       f"({', '.join(loaded.puzzles)})")
            return Judge(loaded.puzzle(puzzle))
        if puzzle is not None:
            raise click.UsageError(f"{loaded.name} is a rule table, not a puzzle pack: drop --puzzle")
        return Judge(loaded)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None


@click.command("judge", epilog="Example:\n\n    sadame judge engineering --puzzle rainy-lunch-server '雨の日は関係ある？'")
@click.argument("table")
@click.argument("question")
@click.option("--puzzle", "-p", help="Puzzle id (required when TABLE is a puzzle pack).")
def judge_command(table: str, question: str, puzzle: str | None) -> None:
    """Judge QUESTION against TABLE and print the verdict as JSON."""
    echo_json(_target(_load(table), puzzle).ask(question).to_dict())


@click.command("answer", epilog="Example:\n\n    sadame answer engineering --puzzle rainy-lunch-server 'あなたの推理'")
@click.argument("table")
@click.argument("answer")
@click.option("--puzzle", "-p", required=True, help="Puzzle id.")
def answer_command(table: str, answer: str, puzzle: str) -> None:
    """Check ANSWER against a puzzle's solution groups and print JSON (partial credit included)."""
    judge = _target(_load(table), puzzle)
    assert judge.puzzle is not None
    check = check_answer(answer, judge.puzzle.solution)
    echo_json({**check.to_dict(), "feedback": answer_feedback(check)})


@click.group("rules", epilog="Example:\n\n    sadame rules lint engineering")
def rules_group() -> None:
    """Tools for rule-table authors: lint, test, coverage, schema."""


@rules_group.command("lint", epilog="Example:\n\n    sadame rules lint my-table.yaml --json")
@click.argument("table")
@click.option("--json", "as_json", is_flag=True, help="Print findings as JSON.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
def lint_command(table: str, as_json: bool, strict: bool) -> None:
    """Report unreachable rules, duplicate and useless words, overlapping solution groups.

    Exit code 1 when there are errors (or warnings, with --strict).
    """
    report = lint_table(_load(table))
    if as_json:
        echo_json(report.to_dict())
    else:
        for finding in report.findings:
            click.echo(finding.render())
        click.echo(f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)")
    if report.errors or (strict and report.warnings):
        sys.exit(1)


@rules_group.command("test", epilog="Example:\n\n    sadame rules test engineering --min-right 0.9 --max-wrong 0.02")
@click.argument("table")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--min-right", type=click.FloatRange(0, 1), default=0.9, show_default=True,
              help="Fail a puzzle whose natural questions are right less often than this.")
@click.option("--max-wrong", type=click.FloatRange(0, 1), default=0.02, show_default=True,
              help="Fail a puzzle whose natural questions are wrong more often than this.")
@click.option("--policy", type=click.Choice(POLICIES), default=DEFAULT_POLICY, show_default=True,
              help="How natural mode settles rules with different verdicts.")
@click.option("--questions", "questions_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Judge these questions (format sadame.questions/1) instead of the table's own.")
def test_command(table: str, as_json: bool, min_right: float, max_wrong: float, policy: str,
                 questions_file: Path | None) -> None:
    """Run the table's examples (and answer_examples) and its natural questions.

    Prints right / wrong / no verdict per puzzle, the totals and the negation /
    suggestion subset. Exit 1 on a failing example, or a puzzle under --min-right
    right or over --max-wrong wrong.
    """
    loaded = _load(table)
    report = run_examples(loaded)
    try:
        held_out = load_questions(questions_file) if questions_file else None
        questions = run_questions(loaded, policy, held_out)  # type: ignore[arg-type]
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None
    failing = questions.failing(min_right, max_wrong)
    if as_json:
        echo_json({**report.to_dict(), "ok": report.ok and not failing,
                   "questions": questions.to_dict(min_right, max_wrong)})
    else:
        for failure in report.failures:
            click.echo(failure.render())
        click.echo(f"{report.total - len(report.failures)}/{report.total} example(s) passed")
        if questions.total.total:
            click.echo(render_questions(questions, min_right, max_wrong))
    if not report.ok or failing:
        sys.exit(1)


def _read_questions(path: Path, puzzle: str | None, is_pack: bool) -> list[tuple[str | None, str]]:
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{path}: cannot read questions: {exc}") from None
    questions: list[tuple[str | None, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pid, tab, text = line.partition("\t")
        if is_pack and tab:
            questions.append((pid.strip(), text))
        elif is_pack and puzzle is None:
            raise click.ClickException(
                f"{path}:{number}: a pack needs --puzzle or lines of the form 'puzzle-id<TAB>question'"
            )
        else:
            questions.append((puzzle, line))
    return questions


@rules_group.command(
    "coverage",
    epilog="Example:\n\n    sadame rules coverage faq-routing questions.txt",
)
@click.argument("table")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--puzzle", "-p", help="Puzzle id for lines without one (packs only).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def coverage_command(table: str, questions: Path, puzzle: str | None, as_json: bool) -> None:
    """Judge every line of QUESTIONS and show which rules fired how often, and which never did.

    Blank lines and lines starting with # are skipped. For a puzzle pack, lines are
    'puzzle-id<TAB>question', or pass --puzzle for lines without an id.
    """
    loaded = _load(table)
    items = _read_questions(questions, puzzle, isinstance(loaded, PuzzlePack))
    try:
        report = coverage(loaded, items)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json(report.to_dict())
        return
    click.echo(f"{report.questions} question(s): {report.questions - report.misses} hit, {report.misses} missed")
    for pid, rule, count in report.counts:
        where = f"{pid} " if pid else ""
        click.echo(f"{count:>6}  {where}{rule.label} -> {rule.answer}")
    never = report.never_fired
    click.echo(f"{len(never)} rule(s) never fired")


@rules_group.command("probe", epilog="Example:\n\n    sadame rules probe everyday --puzzle clock-tower-slow-in-summer")
@click.argument("table")
@click.option("--puzzle", "puzzles", multiple=True, help="Probe only this puzzle (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def probe_command(table: str, puzzles: tuple[str, ...], as_json: bool) -> None:
    """Mutate the details of each true question (number, unit, date, season, direction, actor,
    frequency, negation, cause) and list every mutated question still answered YES; exit 1 if any."""
    loaded = _load(table)
    try:
        report = probe_table(loaded, puzzles or None)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json(report.to_dict())
    else:
        for finding in report.findings:
            click.echo(finding.render())
        click.echo(f"{report.questions} true question(s), {report.mutations} mutation(s), "
                   f"{len(report.findings)} confirmed")
    if report.findings:
        sys.exit(1)


@rules_group.command("schema", epilog="Example:\n\n    sadame rules schema --pack --format 2 > puzzles.schema.json")
@click.option("--pack", is_flag=True, help=f"The puzzle-pack schema ({PACK_FORMAT}) instead of {TABLE_FORMAT}.")
@click.option("--format", "version", type=click.Choice(["1", "2", "3"]), default="1", show_default=True,
              help=f"Format version (2: {TABLE_FORMAT2} / {PACK_FORMAT2}, with natural matching; "
                   f"3: {PACK_FORMAT3}, packs with facts).")
def schema_command(pack: bool, version: str) -> None:
    """Print the JSON Schema of rule tables (or puzzle packs) for editors."""
    formats = {("1", False): TABLE_FORMAT, ("1", True): PACK_FORMAT,
               ("2", False): TABLE_FORMAT2, ("2", True): PACK_FORMAT2, ("3", True): PACK_FORMAT3}
    if (version, pack) not in formats:
        raise click.UsageError("format 3 is a puzzle-pack format: add --pack")
    click.echo(json.dumps(table_schema(formats[version, pack]), ensure_ascii=False, indent=2))


@rules_group.command("import", epilog="Example:\n\n    sadame rules import engine.mjs --name my-faq -o my-faq.yaml")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="Table name (default: from the file name).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the table here (default: standard output).")
def import_command(file: Path, name: str | None, output: Path | None) -> None:
    """Convert seed-style rules ({any, not, a, note}) into a sadame table.

    FILE is a JSON array of rule objects, or JavaScript with `const RULES = [...]`.
    The table keeps the seed's matching (sadame.rules/1), so it judges identically.
    """
    try:
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{file}: cannot read: {exc}") from None
    table_name = name or _table_name(file)
    try:
        table, dumped = import_seed_rules(text, table_name)
    except JudgeError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    if output is None:
        click.echo(dumped, nl=False)
        return
    try:
        output.write_text(dumped, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"{output}: cannot write: {exc.strerror or exc}") from None
    click.echo(f"wrote {output}: {len(table.rules)} rule(s), answers {', '.join(table.answers)}", err=True)


def _table_name(file: Path) -> str:
    stem = re.sub(r"[^a-z0-9-]+", "-", file.stem.lower()).strip("-")
    return stem or "imported"


@click.command("play", epilog="Example:\n\n    sadame play                      # every bundled pack\n\n    sadame play engineering --progress ~/.sadame-play.json")
@click.argument("packs", nargs=-1)
@click.option("--puzzle", "-p", help="Start directly on this puzzle.")
@click.option("--progress", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep solved / given-up / in-progress puzzles in this JSON file between runs.")
def play_command(packs: tuple[str, ...], puzzle: str | None, progress: Path | None) -> None:
    """Play the lateral-thinking puzzles of PACKS (default: every bundled pack) in the terminal (Japanese UI).

    The list shows each puzzle's difficulty and your progress; filter it with
    /pack and /status. In a puzzle: /hint, /answer, /giveup, /again, /list.
    """
    loaded = [_load(name) for name in packs or bundled_names()]
    for name, each in zip(packs, loaded, strict=False):
        if not isinstance(each, PuzzlePack):
            raise click.ClickException(f"{name} is a rule table, not a puzzle pack")
    stdin: TextIO = sys.stdin

    def read_line(prompt: str) -> str | None:
        click.echo(prompt, nl=False)
        line: str = stdin.readline()
        if not line:
            click.echo()
            return None
        if not stdin.isatty():
            click.echo(line.rstrip("\n"))
        return line.rstrip("\r\n")

    try:
        play([p for p in loaded if isinstance(p, PuzzlePack)], read_line, click.echo, puzzle_id=puzzle,
             progress=progress)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
    cli.add_command(judge_command)
    cli.add_command(answer_command)
    cli.add_command(rules_group)
    cli.add_command(play_command)
