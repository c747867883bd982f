"""CLI commands of the normalization contract: normalize, explain, contract, lint."""

from __future__ import annotations

import sys

import click

from sadame.cli._output import echo_json
from sadame.normalize import PRESETS, contract_info, explain, normalize

_PRESET = click.Choice(sorted(PRESETS))


def _read_text(text: str | None) -> str:
    if text is None or text == "-":
        return sys.stdin.read()
    return text


@click.command(
    "normalize",
    epilog="Example:\n\n    sadame normalize --preset judge 'ｷｬｯｼｭ？'   # => きゃっしゅ",
)
@click.argument("text", required=False)
@click.option("--preset", "-p", type=_PRESET, required=True, help="Named preset of the contract.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON with input, preset and output.")
def normalize_command(text: str | None, preset: str, as_json: bool) -> None:
    """Normalize TEXT (or standard input) with a preset."""
    source = _read_text(text)
    result = normalize(source, preset=preset)
    if as_json:
        echo_json({"text": source, "preset": preset, "normalized": result})
    else:
        click.echo(result)


@click.command(
    "explain",
    epilog="Example:\n\n    sadame explain --preset judge 'ＣＳＳ？'",
)
@click.argument("text", required=False)
@click.option("--preset", "-p", type=_PRESET, required=True, help="Named preset of the contract.")
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


@click.command("contract", epilog="Example:\n\n    sadame contract --json")
@click.option("--json", "as_json", is_flag=True, help="Print versions and per-preset digests as JSON.")
def contract_command(as_json: bool) -> None:
    """Print the contract fingerprint: equal fingerprints normalize identically."""
    info = contract_info()
    if as_json:
        echo_json(info.to_dict())
    else:
        click.echo(info.fingerprint)


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
    cli.add_command(normalize_command)
    cli.add_command(explain_command)
    cli.add_command(contract_command)
