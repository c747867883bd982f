"""The CLI: ``sadame llm check``, ``sadame rules suggest``, ``sadame track eval-matcher``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sadame.cli import cli
from sadame.judge import Judge, bundled_pack, parse_table
from sadame.llm._cache import VerdictCache
from sadame.llm._fallback import LLMFallback
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm.testing import FakeOpenAIServer, Reply
from tests.llm.conftest import FAST

ROOT = Path(__file__).resolve().parents[2]
PAIRS = str(ROOT / "evals" / "matcher" / "pairs.jsonl")


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "BASE_URL",
        "MODEL",
        "API_KEY",
        "PROVIDER",
        "CONFIG",
        "TIMEOUT",
        "MAX_RETRIES",
        "CONCURRENCY",
    ):
        monkeypatch.delenv(f"SADAME_LLM_{name}", raising=False)


def _env(server: FakeOpenAIServer, **extra: str) -> dict[str, str]:
    return {
        "SADAME_LLM_BASE_URL": server.base_url,
        "SADAME_LLM_MODEL": "fake-model",
        "SADAME_LLM_MAX_RETRIES": "0",
        **extra,
    }


def test_llm_check_not_configured() -> None:
    result = CliRunner().invoke(cli, ["llm", "check"])
    assert result.exit_code == 2
    assert "not configured" in result.output


def test_llm_check_ok_and_never_prints_the_key(server: FakeOpenAIServer) -> None:
    server.script("OK")
    result = CliRunner().invoke(
        cli, ["llm", "check", "--json"], env=_env(server, SADAME_LLM_API_KEY="sk-cli-secret")
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] is True and data["model"] == "fake-model" and data["reply"] == "OK"
    assert "sk-cli-secret" not in result.output
    assert server.chat_requests[0].headers["Authorization"] == "Bearer sk-cli-secret"


def test_llm_check_failing(server: FakeOpenAIServer) -> None:
    server.default = Reply(status=503)
    result = CliRunner().invoke(cli, ["llm", "check"], env=_env(server, SADAME_LLM_API_KEY="sk-cli-secret"))
    assert result.exit_code == 1
    assert "HTTP 503" in result.output and "sk-cli-secret" not in result.output


def test_llm_check_bad_config_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        cli, ["llm", "check"], env={"SADAME_LLM_BASE_URL": "http://x", "SADAME_LLM_TIMEOUT": "x"}
    )
    assert result.exit_code == 1
    assert "MODEL" in result.output or "timeout" in result.output


@pytest.mark.slow
def test_rules_suggest_closes_the_loop(server: FakeOpenAIServer, db_url: str) -> None:
    """LLM verdicts -> cache -> suggested rules -> pasted into the table -> answered by rules."""
    pack = bundled_pack("engineering")
    puzzle = pack.puzzle("rainy-lunch-server")
    fallback = LLMFallback(
        OpenAICompatProvider(server.base_url, "fake-model", retry_policy=FAST), cache=VerdictCache(db_url)
    )
    judge = Judge(puzzle, fallback=fallback)
    server.script("NO", "IRRELEVANT")
    assert judge.ask("窓は開いていましたか？").source == "llm"
    assert judge.ask("社長は関わっていますか？").source == "llm"
    assert judge.ask("窓は開いていましたか").source == "cache"

    result = CliRunner().invoke(cli, ["rules", "suggest", "engineering", "--db", db_url])
    assert result.exit_code == 0, result.output
    snippet = result.output
    assert "# puzzle: rainy-lunch-server" in snippet
    assert "asked 2 time(s)" in snippet
    rules = yaml.safe_load(snippet)
    assert [r["answer"] for r in rules] == ["NO", "IRRELEVANT"]

    raw = yaml.safe_load(Path(pack.source or "").read_text(encoding="utf-8")) if pack.source else None
    assert raw is not None
    target = next(p for p in raw["puzzles"] if p["id"] == puzzle.id)
    target["rules"] = rules + target["rules"]
    learned = parse_table(raw).puzzle(puzzle.id)  # type: ignore[union-attr]
    for question, verdict in [("窓は開いていましたか？", "NO"), ("社長は関わっていますか？", "IRRELEVANT")]:
        answer = Judge(learned).ask(question)
        assert (answer.verdict, answer.source) == (verdict, "rules")

    as_json = CliRunner().invoke(cli, ["rules", "suggest", "engineering", "--db", db_url, "--json"])
    assert [s["asked"] for s in json.loads(as_json.output)] == [2, 1]


def test_rules_suggest_empty_and_unknown_table(sqlite_url: str) -> None:
    result = CliRunner().invoke(cli, ["rules", "suggest", "faq-routing", "--db", sqlite_url])
    assert result.exit_code == 0 and "no cached LLM verdicts" in result.output
    missing = CliRunner().invoke(cli, ["rules", "suggest", "no-such-table", "--db", sqlite_url])
    assert missing.exit_code == 1 and "no bundled pack or table" in missing.output


def test_eval_matcher_rules_only() -> None:
    result = CliRunner().invoke(cli, ["track", "eval-matcher", PAIRS])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("| rules-only"))
    assert row.split("|")[4].strip() == "0"  # FP
    assert row.rstrip(" |").endswith("0.000")  # false-merge rate


def test_eval_matcher_with_llm(server: FakeOpenAIServer) -> None:
    server.default = json.dumps({"matchType": "new", "issueId": None, "confidence": 0.2})
    result = CliRunner().invoke(cli, ["track", "eval-matcher", PAIRS, "--llm", "--json"], env=_env(server))
    assert result.exit_code == 0, result.output
    scores = {s["method"]: s for s in json.loads(result.output)["scores"]}
    assert set(scores) == {"rules-only", "llm:fake-model", "rules+llm:fake-model"}
    assert scores["llm:fake-model"]["tp"] == 0 and scores["llm:fake-model"]["fp"] == 0
    assert scores["rules+llm:fake-model"]["tp"] == scores["rules-only"]["tp"]
    assert server.request_count == json.loads(result.output)["pairs"]


def test_eval_matcher_errors(tmp_path: Path) -> None:
    no_llm = CliRunner().invoke(cli, ["track", "eval-matcher", PAIRS, "--llm"])
    assert no_llm.exit_code == 1 and "needs a configured LLM" in no_llm.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n", encoding="utf-8")
    broken = CliRunner().invoke(cli, ["track", "eval-matcher", str(bad)])
    assert broken.exit_code == 1 and "bad.jsonl: invalid JSON" in broken.output and "(line 1," in broken.output


@pytest.mark.parametrize("command", [["llm", "check"], ["rules", "suggest"], ["track", "eval-matcher"]])
def test_help_ends_with_an_example(command: list[str]) -> None:
    result = CliRunner().invoke(cli, [*command, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output


def test_eval_matcher_with_an_explicit_ruleset() -> None:
    source = str(ROOT / "src" / "sadame" / "data" / "rulesets" / "seed-example.yaml")
    result = CliRunner().invoke(cli, ["track", "eval-matcher", PAIRS, "--ruleset", source, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ruleset"].startswith("seed-example@")
    missing = CliRunner().invoke(cli, ["track", "eval-matcher", PAIRS, "--ruleset", "/nonexistent.yaml"])
    assert missing.exit_code == 1
