"""Lazy subcommands: ``sadame --help`` imports no feature, and its help lines are the
commands' own."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from sadame.cli import cli
from sadame.cli._lazy import LAZY_COMMANDS

HEAVY = ("sadame.judge", "sadame.quote", "sadame.track", "sadame.web", "sadame.db", "jsonschema", "yaml",
         "sqlalchemy", "fastapi")


def _loaded_after(args: list[str]) -> list[str]:
    code = (
        "import sys\nfrom sadame.cli import main\nsys.argv = ['sadame', *sys.argv[1:]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"import json\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          input="ｷｬｯｼｭ")
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def test_help_and_normalize_import_no_feature() -> None:
    assert _loaded_after(["--help"]) == []
    assert _loaded_after(["normalize", "--preset", "judge"]) == []
    assert "sadame.judge" in _loaded_after(["rules", "--help"])


def test_static_help_lines_match_the_commands() -> None:
    for name, (_modules, help_line) in LAZY_COMMANDS.items():
        command = cli.commands[name]
        assert command.get_short_help_str(limit=300) == help_line, name
    assert sorted(cli.commands) == sorted(LAZY_COMMANDS)
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0 and all(name in result.output for name in LAZY_COMMANDS)
