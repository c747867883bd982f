"""``sadame normalize``: standard input is one text; ``--lines`` normalizes line by line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sadame.cli import cli


def test_standard_input_is_one_text() -> None:
    result = CliRunner().invoke(cli, ["normalize", "-p", "judge"], input="ｷｬｯｼｭ？\nＣＳＳ\n")
    assert result.exit_code == 0
    assert result.output == "きゃっしゅcss\n"  # judge folds the line break away, as documented


def test_lines_gives_one_result_per_line() -> None:
    result = CliRunner().invoke(cli, ["normalize", "-p", "judge", "--lines"], input="ｷｬｯｼｭ？\n\nＣＳＳ\n")
    assert result.exit_code == 0
    assert result.output.splitlines() == ["きゃっしゅ", "", "css"]


def test_lines_with_json_prints_json_lines() -> None:
    result = CliRunner().invoke(cli, ["normalize", "-p", "issue", "--lines", "--json", "課題：A\n課題：B"])
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [r["normalized"] for r in records] == ["課題:a", "課題:b"]
    assert records[0] == {"text": "課題：A", "preset": "issue", "normalized": "課題:a"}


def test_python_dash_m_sadame_is_the_cli() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "sadame", "normalize", "-p", "judge", "ｷｬｯｼｭ？"],
                         capture_output=True, text=True, check=True)
    assert out.stdout == "きゃっしゅ\n"
