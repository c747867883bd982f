"""CLI commands of sadame.quote: ``sadame quote verify``, ``check`` and ``eval``.

They run the library's gates (:func:`sadame.quote.quote_list_gate`,
:func:`sadame.quote.claims_gate`, :func:`sadame.quote.run_eval`) and the checker
(:func:`sadame.quote.check_output`, the same call as the web page): the command line
checks quotes exactly as production code does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from sadame.cli._output import PRESET_NAME
from sadame.quote import CheckResult, GateReport, check_output, claims_gate, quote_list_gate, run_eval
from sadame.quote._check import CHECK_DEADLINE_SECONDS
from sadame.quote._errors import EvalFileError
from sadame.quote._eval import EvalReport

__all__ = ["quote_group", "register"]


def _safe(text: str) -> str:
    """``text`` printable on any UTF-8 terminal: lone surrogates become ``\\udXXX``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _echo(text: str = "") -> None:
    click.echo(_safe(text))


def _echo_json(data: Any) -> None:
    _echo(json.dumps(data, ensure_ascii=False, indent=2))


def _read_source(path: Path, hint: str = "--source") -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise click.BadParameter(
            f"{path} is not valid UTF-8 (byte {exc.start}): {exc.reason}", param_hint=hint
        ) from None
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror}", param_hint=hint) from None


def _quotes_from(args: tuple[str, ...]) -> list[str]:
    """The QUOTE arguments, with ``-`` replaced by the lines of standard input."""
    quotes: list[str] = []
    for arg in args:
        if arg == "-":
            quotes.extend(sys.stdin.read().splitlines())
        else:
            quotes.append(arg)
    return quotes


def _print_quotes(report: GateReport) -> None:
    for item in report.items:
        r = item.to_dict()
        where = f"{r['span']['start']}-{r['span']['end']}" if r["span"] else "-"
        line = f"[{r['status']}] {where} {r['quote']!r}"
        if r["span"] and r["span"]["text"] != r["quote"]:
            line += f" -> {r['span']['text']!r}"
        if r["occurrences"] > 1:
            line += f" ({r['occurrences']} occurrences)"
        if r["score"] is not None:
            line += f" score={r['score']}"
        if r["reason"]:
            line += f"  # {r['reason']}"
        _echo(line)


def _print_claims(report: GateReport) -> None:
    for item in report.items:
        r = item.to_dict()
        _echo(f"[{r['status']}] {r['claim']!r}" + (f"  # {r['reason']}" if r["reason"] else ""))
        for n in r["numbers"]:
            mark = "ok" if n["grounded"] else "NG"
            where = ", ".join(f"{s['start']}-{s['end']} {s['text']!r}" for s in n["spans"]) or (
                "in the source only in another context" if n["context_differs"] else "not in source"
            )
            _echo(f"    {mark} {n['text']!r} = {n['value']} ({n['kind']}): {where}")


def _summary_line(report: GateReport) -> str:
    s = report.summary
    counts = ", ".join(f"{k} {v}" for k, v in s.counts.items() if v)
    rate = "-" if s.verified_rate is None else f"{s.verified_rate:.0%}"
    return f"{report.gate}: {s.verified}/{s.total} verified ({rate}); {counts or 'nothing checked'}"



#: ``--source FILE``: the text the quotes are checked against (every quote command takes it).
_SOURCE = click.option(
    "--source",
    "-s",
    "source_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The source text file (UTF-8).",
)

@click.group("quote", epilog="Example:\n\n    sadame quote verify --source adr.md '安定性: 不足'")
def quote_group() -> None:
    """Verify quotes and ground numbers against their source text."""


@quote_group.command(
    "verify",
    epilog=(
        "Example:\n\n    sadame quote verify --source adr.md '安定性: 不足' --claim '売上は1億2000万円'\n\n"
        "    printf '安定性: 不足\\n存在しない引用\\n' | sadame quote verify -s adr.md - --json"
    ),
)
@_SOURCE
@click.argument("quotes", nargs=-1)
@click.option("--claim", "-c", "claims", multiple=True, help="A claim whose numbers to ground (repeatable).")
@click.option(
    "--preset",
    "-p",
    type=PRESET_NAME,
    default="quote",
    show_default=True,
    help="Preset the quotes are compared under.",
)
@click.option(
    "--fuzzy", is_flag=True, help="Report the best approximate alignment of quotes not found verbatim."
)
@click.option(
    "--threshold",
    type=click.FloatRange(0, 100),
    default=None,
    help="With --fuzzy: a fuzzy score at or above this counts as verified.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the gate reports as JSON.")
def verify_command(
    source_path: Path,
    quotes: tuple[str, ...],
    claims: tuple[str, ...],
    preset: str,
    fuzzy: bool,
    threshold: float | None,
    as_json: bool,
) -> None:
    """Check that each QUOTE appears in the source (``-`` reads one quote per line
    from standard input). Exits 1 when any quote or claim is not verified."""
    if threshold is not None and not fuzzy:
        raise click.UsageError("--threshold needs --fuzzy")
    quote_list = _quotes_from(quotes)
    if not quote_list and not claims:
        raise click.UsageError("give at least one QUOTE (or - for standard input) or --claim")
    source = _read_source(source_path)
    reports: list[GateReport] = []
    if quote_list:
        reports.append(
            quote_list_gate(preset=preset, fuzzy=fuzzy, threshold=threshold).check(source, quote_list)
        )
    if claims:
        reports.append(claims_gate().check(source, list(claims)))
    if as_json:
        _echo_json({"source": str(source_path), "reports": [r.to_dict() for r in reports]})
    else:
        for report in reports:
            (_print_quotes if report.kind == "quotes" else _print_claims)(report)
        for report in reports:
            _echo(_summary_line(report))
    if not all(r.summary.verified == r.summary.total for r in reports):
        sys.exit(1)


def _print_check(result: CheckResult) -> None:
    for q in result.quotes:
        r = q.result
        where = q.position or "-"
        line = f"#{q.number} [{r.status}] {where} {r.quote!r}"
        if r.span and r.span.text != r.quote:
            line += f" -> {r.span.text!r}"
        if r.occurrences > 1:
            line += f" ({r.occurrences}{'+' if r.truncated else ''} occurrences)"
        if r.reason:
            line += f"  # {r.reason}"
        _echo(line)
        if q.nearest is not None:
            hint = q.nearest
            _echo(f"    nearest passage (a hint, not verified; {hint.score}%) {q.nearest_position} {hint.span.text!r}")
    numbers = result.numbers
    for n in numbers.numbers:
        mark = "ok" if n.grounded else "NG"
        note = "  # in the source only in another context" if n.context_differs else ""
        _echo(f"  {mark} {n.mention.text!r} = {n.mention.value} ({n.mention.category}){note}")
    s = result.summary
    _echo(
        f"quotes: {s['verified']}/{s['total']} verified; numbers: {s['numbers_grounded']}/{s['numbers']} grounded"
        + ("; more numbers not listed" if numbers.truncated else "")
        + (f"; {s['unchecked']} more quotes past the cap of {s['max_quotes']} not checked" if s["unchecked"] else "")
    )
    if s.get("timed_out"):
        _echo(f"時間内に確認できなかった引用が {s['timed_out']:,} 件あります（1 回の確認は {CHECK_DEADLINE_SECONDS:g} 秒まで）。")


@quote_group.command(
    "check",
    epilog=(
        "Example:\n\n    sadame quote check --source minutes.md answer.txt\n\n"
        "    llm-run prompt.txt | sadame quote check -s minutes.md - --json"
    ),
)
@_SOURCE
@click.argument("output_path", metavar="OUTPUT_FILE", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option(
    "--preset", "-p", type=PRESET_NAME, default="quote", show_default=True,
    help="Preset the quotes are compared under.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (the web API's /check answer).")
def check_command(source_path: Path, output_path: Path, preset: str, as_json: bool) -> None:
    """Find the quotes of an LLM's OUTPUT_FILE (「」, "…", > block quotes, JSON
    evidence_spans; - reads standard input), verify them against the source and ground
    its numbers. Exits 1 when a quote is not verified or a number is not grounded."""
    source = _read_source(source_path)
    output = sys.stdin.read() if str(output_path) == "-" else _read_source(output_path, "OUTPUT_FILE")
    result = check_output(source, output, preset)
    if as_json:
        _echo_json(result.to_dict())
    else:
        _print_check(result)
    summary = result.summary
    if summary["verified"] < summary["total"] or result.numbers.status in ("partial", "ungrounded"):
        sys.exit(1)


def _print_eval(report: EvalReport, verbose: bool) -> None:
    for case in report.cases:
        if case.passed and not verbose:
            continue
        _echo(f"{'PASS' if case.passed else 'FAIL'} {case.case.id} (line {case.case.line})")
        for failure in case.failures:
            _echo(f"    {failure}")
    s = report.summary()
    _echo()
    _echo("| cases | passed | expectations | met |")
    _echo("|---:|---:|---:|---:|")
    _echo(f"| {s['cases']} | {s['cases_passed']} | {s['expectations']} | {s['expectations_met']} |")
    _echo()
    statuses = {
        **{f"quote {k}": v for k, v in s["quotes"].items()},
        **{f"claim {k}": v for k, v in s["claims"].items()},
    }
    f = s["faithfulness"]
    if f["faithful"] or f["near_misses"]:
        _echo("| faithful quotes | found | near misses | false finds | right | wrong | no answer |")
        _echo("|---:|---:|---:|---:|---:|---:|---:|")
        _echo(
            f"| {f['faithful']} | {f['faithful_found']} | {f['near_misses']} | {f['false_finds']} "
            f"| {f['right']} | {f['wrong']} | {f['no_answer']} |"
        )
        _echo()
    _echo("| status | count |")
    _echo("|---|---:|")
    for name, count in statuses.items():
        _echo(f"| {name} | {count} |")


@quote_group.command("eval", epilog="Example:\n\n    sadame quote eval evals/quote/cases.jsonl")
@click.argument(
    "cases_path", metavar="CASES.jsonl", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--json", "as_json", is_flag=True, help="Print every case's gate reports as JSON.")
@click.option("--verbose", "-v", is_flag=True, help="List passing cases too.")
def eval_command(cases_path: Path, as_json: bool, verbose: bool) -> None:
    """Run an evaluation file through the production gates; print per-case results
    and a summary table. Exits 1 when any expectation is not met."""
    try:
        report = run_eval(cases_path)
    except EvalFileError as exc:
        raise click.BadParameter(str(exc), param_hint="CASES.jsonl") from None
    if as_json:
        _echo_json(report.to_dict())
    else:
        _print_eval(report, verbose)
    if not report.passed:
        sys.exit(1)


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
    cli.add_command(quote_group)
