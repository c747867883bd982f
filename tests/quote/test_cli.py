"""``sadame quote verify`` and ``sadame quote eval`` through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sadame.cli import cli

EVAL_SET = Path(__file__).resolve().parents[2] / "evals" / "quote" / "cases.jsonl"


def _source(tmp_path: Path) -> Path:
    path = tmp_path / "adr.md"
    path.write_text("- **安定性**: 不足している。\n売上は１億２０００万円。\n", encoding="utf-8")
    return path


def test_verify_prints_status_and_original_span(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["quote", "verify", "-s", str(_source(tmp_path)), "安定性: 不足"])
    assert result.exit_code == 0, result.output
    assert "[normalized] 0-13 '安定性: 不足' -> '- **安定性**: 不足'" not in result.output
    assert "[normalized] 2-13" in result.output and "'**安定性**: 不足'" in result.output
    assert "1/1 verified" in result.output


def test_verify_exits_1_when_a_quote_is_missing(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["quote", "verify", "-s", str(_source(tmp_path)), "安定性", "無い引用"])
    assert result.exit_code == 1
    assert "[missing]" in result.output


def test_verify_json_quotes_from_stdin_and_claims(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["quote", "verify", "-s", str(_source(tmp_path)), "-", "--claim", "売上は120,000,000円", "--json"],
        input="安定性\n\n(\n",
    )
    data = json.loads(result.output)
    quotes, claims = data["reports"]
    assert [i["status"] for i in quotes["items"]] == ["exact", "invalid", "missing"]
    assert claims["items"][0]["status"] == "grounded"
    assert claims["items"][0]["numbers"][0]["spans"][0]["text"] == "１億２０００万円"
    assert result.exit_code == 1


def test_verify_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    source = _source(tmp_path)
    assert runner.invoke(cli, ["quote", "verify", "-s", str(source)]).exit_code == 2
    assert runner.invoke(cli, ["quote", "verify", "-s", str(source), "--threshold", "80", "x"]).exit_code == 2
    binary = tmp_path / "bin.md"
    binary.write_bytes(b"\xff\xfe\x00abc")
    result = runner.invoke(cli, ["quote", "verify", "-s", str(binary), "abc"])
    assert result.exit_code == 2 and "not valid UTF-8" in result.output


def test_a_lone_surrogate_argument_is_refused_in_one_line_naming_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["quote", "verify", "-s", str(_source(tmp_path)), "\ud800"])
    assert result.exit_code == 1
    assert "not valid UTF-8" in result.output and "\\ud800" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_eval_command_on_the_shipped_set() -> None:
    result = CliRunner().invoke(cli, ["quote", "eval", str(EVAL_SET)])
    assert result.exit_code == 0, result.output
    assert "| cases | passed | expectations | met |" in result.output


def test_eval_command_fails_on_unmet_expectations_and_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"source": "本文", "quotes": [{"text": "本文", "expect": "missing"}]}) + "\n")
    result = CliRunner().invoke(cli, ["quote", "eval", str(path)])
    assert result.exit_code == 1 and "FAIL line 1" in result.output
    path.write_text("{oops\n")
    result = CliRunner().invoke(cli, ["quote", "eval", str(path)])
    assert result.exit_code == 2 and "invalid JSON" in result.output


def test_help_ends_with_example() -> None:
    for args in (["quote", "--help"], ["quote", "verify", "--help"], ["quote", "eval", "--help"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0 and "Example:" in result.output
