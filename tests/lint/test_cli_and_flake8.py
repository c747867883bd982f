"""``sadame lint`` and the flake8 plugin, each run for real as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PYPROJECT = '[tool.sadame.lint]\nallowed = ["contract/*.py"]\n'
BAD = "from unicodedata import normalize as n\nprint(n('NFKC', 'ｱ'))\n"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (tmp_path / "contract").mkdir()
    (tmp_path / "contract" / "core.py").write_text(BAD, "utf-8")
    (tmp_path / "feature.py").write_text(BAD, "utf-8")
    (tmp_path / "clean.py").write_text("from sadame.normalize import normalize\n", "utf-8")
    return tmp_path


def test_our_own_source_tree_passes() -> None:
    result = run([str(BIN / "sadame"), "lint", "src"], REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert "0 violation(s)" in result.stderr


def test_cli_reports_violations_with_exit_1(project: Path) -> None:
    result = run([str(BIN / "sadame"), "lint", "."], project)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [line.split(": SDM001 ")[0] for line in lines] == ["feature.py:1:1", "feature.py:2:7"]
    assert "1 exempt" in result.stderr


def test_cli_clean_file_exits_0(project: Path) -> None:
    result = run([str(BIN / "sadame"), "lint", "clean.py", "contract"], project)
    assert result.returncode == 0, result.stdout


def test_cli_json(project: Path) -> None:
    result = run([str(BIN / "sadame"), "lint", "--json", "feature.py"], project)
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False
    assert [(v["line"], v["col"], v["code"]) for v in data["violations"]] == [
        (1, 1, "SDM001"),
        (2, 7, "SDM001"),
    ]


def test_cli_explicit_config(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    other = tmp_path_factory.mktemp("cfg") / "pyproject.toml"
    other.write_text('[tool.sadame.lint]\nallowed = ["*.py"]\n', "utf-8")
    # root of the explicit config is its own directory, so feature.py is not under it
    result = run([str(BIN / "sadame"), "lint", "--config", str(other), "feature.py"], project)
    assert result.returncode == 1
    result = run(
        [str(BIN / "sadame"), "lint", "--config", str(project / "pyproject.toml"), "contract"], project
    )
    assert result.returncode == 0


def test_cli_bad_input_exits_2_with_a_message(project: Path) -> None:
    result = run([str(BIN / "sadame"), "lint", "missing_dir"], project)
    assert result.returncode == 2
    assert "no such file or directory: missing_dir" in result.stderr
    (project / "pyproject.toml").write_text("[tool.sadame.lint]\nallowed = 3\n", "utf-8")
    result = run([str(BIN / "sadame"), "lint", "."], project)
    assert result.returncode == 2
    assert "must be a list" in result.stderr


def test_cli_syntax_error_is_reported_not_a_traceback(project: Path) -> None:
    (project / "broken.py").write_text("def f(:\n", "utf-8")
    result = run([str(BIN / "sadame"), "lint", "broken.py"], project)
    assert result.returncode == 1
    assert result.stdout.startswith("broken.py:1:")
    assert "SDM000" in result.stdout
    assert "Traceback" not in result.stderr


def test_flake8_plugin_reports_sdm001(project: Path) -> None:
    result = run(
        [str(BIN / "flake8"), "--select", "SDM", "feature.py", "contract/core.py", "clean.py"], project
    )
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stdout
    assert lines[0].startswith("feature.py:1:1: SDM001 ")
    assert lines[1].startswith("feature.py:2:7: SDM001 ")
    assert "contract/core.py" not in result.stdout  # the allowed module is exempt


def test_flake8_plugin_is_registered() -> None:
    result = run([str(BIN / "flake8"), "--version"], REPO)
    assert result.returncode == 0
    assert "sadame" in result.stdout


def test_flake8_plugin_with_a_broken_config_says_so(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.sadame.lint]\nallowed = 3\n", "utf-8")
    result = run([str(BIN / "flake8"), "--select", "SDM", "clean.py"], project)
    assert result.returncode == 1
    assert "clean.py:1:1: SDM000 cannot read [tool.sadame.lint]" in result.stdout
