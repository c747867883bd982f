"""Every CLI command's --help ends with an example (the docs site's CLI reference documents every
command: tests/docs/test_site.py)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from sadame.cli import cli


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
def test_help_ends_with_an_example(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    tail = result.output.rstrip().splitlines()[-3:]
    assert any("Example" in line for line in result.output.splitlines()), result.output
    assert any("sadame " in line for line in tail), f"help of {' '.join(path)} does not end with an example"
