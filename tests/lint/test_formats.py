"""``sadame lint --format sarif|github``: the formats code scanning and GitHub Actions read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.lint import Violation
from sadame.lint._formats import github_annotations, sarif_report

BAD = "import unicodedata\nunicodedata.normalize('NFKC', s)\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.sadame.lint]\nallowed = []\n", "utf-8")
    (tmp_path / "bad.py").write_text(BAD, "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_sarif_has_one_result_per_violation_with_its_location(project: Path) -> None:
    result = CliRunner().invoke(cli, ["lint", "--format", "sarif", "bad.py"])
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "sadame lint"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["SDM001", "SDM000"]
    (found,) = run["results"]
    assert found["ruleId"] == "SDM001" and found["level"] == "error"
    location = found["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].endswith("bad.py")
    assert location["region"] == {"startLine": 2, "startColumn": 1}


def test_github_format_prints_workflow_commands(project: Path) -> None:
    result = CliRunner().invoke(cli, ["lint", "--format", "github", "bad.py"])
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith("::error file=") and "bad.py,line=2,col=1,title=SDM001::" in line


def test_github_escapes_what_would_break_a_workflow_command() -> None:
    text = github_annotations([Violation("a,b:c.py", 1, 2, "SDM000", "50% off\nnext line")])
    assert text == "::error file=a%2Cb%3Ac.py,line=1,col=2,title=SDM000::50%25 off%0Anext line"


def test_a_clean_run_is_an_empty_sarif_run() -> None:
    assert sarif_report([])["runs"][0]["results"] == []  # type: ignore[index]
