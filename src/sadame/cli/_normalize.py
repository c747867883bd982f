"""CLI commands of the normalization contract: normalize, explain, contract, lint."""

from __future__ import annotations

import json
import sys

import click

from sadame.cli._output import PRESET_NAME, echo_json
from sadame.normalize import explain, normalize
from sadame.normalize._fingerprint import contract_info


def _read_text(text: str | None) -> str:
    if text is None or text == "-":
        return sys.stdin.read()
    return text


@click.command(
    "normalize",
    epilog=(
        "Standard input (no TEXT, or TEXT '-') is read whole as ONE text: its line breaks are part of\n"
        "the text, and a preset that folds whitespace (judge, issue, quote) joins the lines. With\n"
        "--lines each line (of TEXT or of standard input) is normalized on its own and printed on\n"
        "its own line, so N lines in give N lines out.\n\n"
        "Example:\n\n\b\n    sadame normalize --preset judge 'ｷｬｯｼｭ？'   # => きゃっしゅ\n"
        "    sadame normalize --preset issue --lines < findings.txt"
    ),
)
@click.argument("text", required=False)
@click.option("--preset", "-p", type=PRESET_NAME, required=True, help="Named preset of the contract.")
@click.option("--lines", "by_line", is_flag=True,
              help="Normalize each line on its own (one result per line; --json: one object per line).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON with input, preset and output.")
def normalize_command(text: str | None, preset: str, by_line: bool, as_json: bool) -> None:
    """Normalize TEXT (or standard input) with a preset."""
    source = _read_text(text)
    pieces = source.splitlines() if by_line else [source]
    for piece in pieces:
        result = normalize(piece, preset=preset)
        record = {"text": piece, "preset": preset, "normalized": result}
        if as_json and by_line:
            click.echo(json.dumps(record, ensure_ascii=False))  # JSON lines
        elif as_json:
            echo_json(record)
        else:
            click.echo(result)


@click.command(
    "explain",
    epilog="Example:\n\n    sadame explain --preset judge 'ＣＳＳ？'",
)
@click.argument("text", required=False)
@click.option("--preset", "-p", type=PRESET_NAME, required=True, help="Named preset of the contract.")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
def explain_command(text: str | None, preset: str, as_json: bool) -> None:
    """Show which steps of a preset changed TEXT, and how."""
    result = explain(_read_text(text), preset=preset)
    if as_json:
        echo_json(result.to_dict())
        return
    for step in result.steps:
        click.echo(f"{step.step:>15}: {step.before!r} -> {step.after!r}")
    click.echo(f"{'result':>15}: {result.result!r}")


@click.group(
    "contract",
    invoke_without_command=True,
    epilog="Example:\n\n    sadame contract --json\n    sadame contract diff --from decoration --to quote cases.jsonl",
)
@click.option("--json", "as_json", is_flag=True,
              help="Print versions, per-preset digests and the analyzer's versions (SudachiPy, dictionary) as JSON.")
@click.pass_context
def contract_command(ctx: click.Context, as_json: bool) -> None:
    """Print the contract fingerprint: equal fingerprints normalize identically."""
    if ctx.invoked_subcommand is not None:
        return
    info = contract_info()
    if as_json:
        from sadame.lang._analyzer import analyzer_versions  # only here: `sadame normalize` stays light

        # Natural mode and the tracker's meaning also depend on the analyzer and its dictionary.
        echo_json({**info.to_dict(), "analyzer": analyzer_versions()})
    else:
        click.echo(info.fingerprint)


_FAIL_ON_HELP = "Exit 1 when any of these changes occur (comma-separated): {}."


@contract_command.command(
    "diff",
    epilog=(
        "Example:\n\n    sadame contract diff --from decoration --to quote evals/quote/cases.jsonl "
        "--fail-on missing\n"
        "    sadame contract diff --from matching=seed --to matching=natural my-pack.yaml\n"
        "    sadame contract diff --from ruleset=seed-example --to ruleset=coach.yaml export.jsonl"
    ),
)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--from", "before", required=True, help="Before: a preset (quote, decoration@nc1), matching=, ruleset=.")
@click.option("--to", "after", required=True, help="After: the same kinds of setting as --from.")
@click.option("--fail-on", default="", help="Kinds of change that fail the run: missing, ungrounded, flipped, "
              "unanswered, dropped, merged, split, renamed, span.")
@click.option("--examples", default=5, show_default=True, type=click.IntRange(0, 1000),
              help="Examples shown per kind of change and file.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--markdown", is_flag=True, help="Print the report as Markdown (for a review or a changelog).")
def contract_diff_command(
    files: tuple[str, ...], before: str, after: str, fail_on: str, examples: int, as_json: bool, markdown: bool
) -> None:
    """List every outcome of FILES that changes between --from and --to: quote status and span,
    judge verdicts, tracker keys merged or split."""
    from sadame.review import ReviewError, contract_diff
    from sadame.review._report import WORSE_KINDS

    wanted = {name.strip() for name in fail_on.split(",") if name.strip()}
    unknown = sorted(wanted - set(WORSE_KINDS))
    if unknown:
        raise click.BadParameter(f"unknown kind(s) {', '.join(unknown)}; choose from {', '.join(WORSE_KINDS)}",
                                 param_hint="--fail-on")
    try:
        report = contract_diff(files, before, after)
    except (ReviewError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(report.to_json(examples))
    else:
        click.echo(report.to_markdown(examples) if markdown else report.to_text(examples))
    worse = report.worse(wanted)
    if worse:
        click.echo(f"worse by --fail-on: {', '.join(worse)}", err=True)
        raise SystemExit(1)


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
    cli.add_command(normalize_command)
    cli.add_command(explain_command)
    cli.add_command(contract_command)
