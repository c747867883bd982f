"""Every CLI command is documented in the README and its --help ends with an example."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sadame.cli import cli

_ROOT = Path(__file__).resolve().parents[2]
# README.md is assembled from docs/guide (scripts/assemble_readme.sh): a command documented in a
# guide page counts before the README is regenerated.
README = "\n".join(p.read_text(encoding="utf-8") for p in [_ROOT / "README.md", *sorted((_ROOT / "docs" / "guide").glob("*.md"))])


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        if isinstance(command, click.Group):
            found.extend(_commands(command, path))
        else:
            found.append(path)
    return found


COMMANDS = _commands(cli)


def test_there_are_commands_for_every_feature() -> None:
    top = {path[0] for path in COMMANDS}
    assert {"normalize", "explain", "contract", "lint", "judge", "answer", "play", "rules", "quote",
            "track", "serve"} <= top


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_command_is_documented_in_the_readme(path: tuple[str, ...]) -> None:
    assert f"sadame {' '.join(path)}" in README, f"`sadame {' '.join(path)}` is not in README.md"


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_help_ends_with_an_example(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    tail = result.output.rstrip().splitlines()[-3:]
    assert any("Example" in line for line in result.output.splitlines()), result.output
    assert any("sadame " in line for line in tail), f"help of {' '.join(path)} does not end with an example"
