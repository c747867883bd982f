"""CLI command of sadame.lint: ``sadame lint PATH...`` (rule SDM001)."""

from __future__ import annotations

import click

from sadame.cli._output import echo_json
from sadame.lint import lint_paths
from sadame.lint._config import LintError
from sadame.lint._formats import FORMATS, github_annotations, sarif_report

__all__ = ["lint_command", "register"]


@click.command(
    "lint",
    epilog=(
        "Exit status: 0 clean, 1 violations (or unparsable files), 2 bad configuration or paths.\n\n"
        "Example:\n\n\b\n    sadame lint src tests\n    sadame lint --json --config pyproject.toml src\n"
        "    sadame lint --format sarif src > sadame.sarif   # or --format github in a workflow"
    ),
)
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False, path_type=str),
    default=None,
    help="pyproject.toml to read [tool.sadame.lint] from (default: nearest one upward from the cwd).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report (files, violations) as JSON (= --format json).")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: path:line:col: CODE message; json; sarif (SARIF 2.1.0, for code scanning); "
                   "github (::error annotations in a GitHub Actions log).")
def lint_command(paths: tuple[str, ...], config_file: str | None, as_json: bool, output_format: str) -> None:
    """Report every use of unicodedata.normalize outside the allowed modules (SDM001)."""
    try:
        report = lint_paths(paths, config_file=config_file)
    except LintError as exc:
        click.echo(f"sadame lint: {exc}", err=True)
        raise SystemExit(2) from None
    if as_json or output_format == "json":
        echo_json(report.to_dict())
    elif output_format == "sarif":
        echo_json(sarif_report(report.violations))
    elif output_format == "github":
        if report.violations:
            click.echo(github_annotations(report.violations))
    else:
        for violation in report.violations:
            click.echo(violation.format())
        click.echo(
            f"sadame lint: {report.files_checked} file(s) checked, {report.files_exempt} exempt, "
            f"{len(report.violations)} violation(s)",
            err=True,
        )
    if not report.ok:
        raise SystemExit(1)


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
    cli.add_command(lint_command)
