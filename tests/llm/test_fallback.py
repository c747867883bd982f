"""LLMFallback behind the judge: cache determinism, failures as UNKNOWN, the truth-leak guard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sadame.judge import Judge, JudgeResult, Puzzle, bundled_pack, bundled_table
from sadame.judge.engine._judge import MISS_NOTE, UNKNOWN
from sadame.llm import load_fallback_from_env
from sadame.llm._cache import VerdictCache
from sadame.llm._fallback import LLMFallback
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._provider import RetryPolicy
from sadame.llm.testing import FakeOpenAIServer, Reply
from tests.llm.conftest import FAST

MISS = "窓は開いていましたか？"  # a question the rules of both test puzzles miss


@pytest.fixture
def puzzle() -> Puzzle:
    return bundled_pack("engineering").puzzle("rainy-lunch-server")


def _fallback(
    server: FakeOpenAIServer, cache: VerdictCache | None = None, model: str = "fake-model"
) -> LLMFallback:
    return LLMFallback(
        OpenAICompatProvider(server.base_url, model, timeout=1.0, retry_policy=FAST), cache=cache
    )


def test_rule_hit_never_calls_the_llm(server: FakeOpenAIServer, puzzle: Puzzle) -> None:
    result = Judge(puzzle, fallback=_fallback(server)).ask("電子レンジを使っていた？")
    assert (result.verdict, result.source) == ("YES", "rules")
    assert result.rule_id is not None and result.rule_id.startswith("microwave")  # microwave or microwave-p1
    assert server.request_count == 0


def test_miss_asks_the_llm_with_the_puzzle(server: FakeOpenAIServer, puzzle: Puzzle) -> None:
    server.script("IRRELEVANT")
    result = Judge(puzzle, fallback=_fallback(server)).ask(MISS)
    assert (result.verdict, result.source, result.note) == ("IRRELEVANT", "llm", None)
    [request] = server.chat_requests
    assert puzzle.truth.strip() in request.prompt
    assert json.dumps(MISS, ensure_ascii=False) in request.prompt


def test_cache_makes_the_verdict_deterministic(server: FakeOpenAIServer, puzzle: Puzzle, db_url: str) -> None:
    cache = VerdictCache(db_url)
    judge = Judge(puzzle, fallback=_fallback(server, cache))
    server.script("NO", "YES")  # a second call would contradict the first
    first = judge.ask(MISS)
    assert (first.verdict, first.source) == ("NO", "llm")
    again = judge.ask(MISS)
    equivalent = judge.ask(" 窓は 開いていましたか?")  # same after the judge preset
    assert (again.verdict, again.source) == ("NO", "cache")
    assert (equivalent.verdict, equivalent.source) == ("NO", "cache")
    assert server.request_count == 1  # the cache answered without an LLM call
    # A fresh process (new cache object, same database) gives the same verdict, still without a call.
    later = Judge(puzzle, fallback=_fallback(server, VerdictCache(db_url))).ask(MISS)
    assert (later.verdict, later.source) == ("NO", "cache")
    assert server.request_count == 1
    [entry] = list(cache.entries())
    assert (entry.puzzle_id, entry.verdict, entry.hits, entry.question) == (puzzle.id, "NO", 3, MISS)


def test_cache_key_includes_model_and_table_version(
    server: FakeOpenAIServer, puzzle: Puzzle, db_url: str
) -> None:
    cache = VerdictCache(db_url)
    server.script("NO", "YES", "UNCERTAIN")
    assert Judge(puzzle, fallback=_fallback(server, cache, "model-a")).ask(MISS).verdict == "NO"
    assert Judge(puzzle, fallback=_fallback(server, cache, "model-b")).ask(MISS).verdict == "YES"
    other = bundled_pack("engineering").puzzle("disk-full-but-empty")
    assert Judge(other, fallback=_fallback(server, cache, "model-a")).ask(MISS).verdict == "UNCERTAIN"
    assert server.request_count == 3


def test_first_stored_verdict_wins(db_url: str) -> None:
    a, b = VerdictCache(db_url), VerdictCache(db_url)
    key = {
        "table_name": "t",
        "table_version": "v1",
        "puzzle_id": "p",
        "normalized": "なに",
        "question": "なに",
        "model": "m",
    }
    assert a.put(**key, verdict="YES") == "YES"
    assert b.put(**key, verdict="NO") == "YES"
    assert b.get(table_version="v1", puzzle_id="p", normalized="なに", model="m") == "YES"
    with pytest.raises(ValueError, match="empty"):
        a.put(**{**key, "normalized": ""}, verdict="YES")


@pytest.mark.parametrize(
    ("replies", "reason"),
    [
        ([Reply(status=500)] * 3, "HTTP 500"),
        ([Reply(status=401)], "HTTP 401"),
        ([Reply(content="YES", delay=1.5)] * 3, "timed out"),
        ([Reply(body="{oops")], "unreadable"),
        (["MAYBE"], "not one of YES, NO, IRRELEVANT, UNCERTAIN"),
        (["YES or NO"], "not one of"),
        (["NOT SURE"], "not one of"),
    ],
)
def test_failures_become_unknown_with_a_reason(
    server: FakeOpenAIServer, puzzle: Puzzle, replies: list[Reply | str], reason: str
) -> None:
    server.script(*replies)
    provider = OpenAICompatProvider(
        server.base_url, "m", timeout=0.3, retry_policy=RetryPolicy(max_retries=2, backoff_base=0.01)
    )
    result = Judge(puzzle, fallback=LLMFallback(provider)).ask(MISS)
    assert result.verdict == UNKNOWN
    assert result.note == MISS_NOTE
    assert result.reason is not None and (
        reason in result.reason or (reason == "timed out" and "timed out" in result.reason)
    )


def test_failed_answers_are_not_cached(server: FakeOpenAIServer, puzzle: Puzzle, sqlite_url: str) -> None:
    cache = VerdictCache(sqlite_url)
    server.script("MAYBE", "YES")
    judge = Judge(puzzle, fallback=_fallback(server, cache))
    assert judge.ask(MISS).verdict == UNKNOWN
    assert judge.ask(MISS).verdict == "YES"
    assert server.request_count == 2


def test_a_broken_cache_does_not_break_the_game(
    server: FakeOpenAIServer, puzzle: Puzzle, tmp_path: Path
) -> None:
    cache = VerdictCache(f"sqlite:///{tmp_path / 'c.db'}")
    with cache.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE llm_verdicts")
    server.script("YES")
    result = Judge(puzzle, fallback=_fallback(server, cache)).ask(MISS)
    assert (result.verdict, result.source) == ("YES", "llm")


def test_plain_table_fallback(server: FakeOpenAIServer) -> None:
    table = bundled_table("faq-routing")
    server.script("category: OTHER")
    result = Judge(table, fallback=_fallback(server)).ask("御社の創業者の座右の銘は？")
    assert (result.verdict, result.source) == ("OTHER", "llm")
    assert "分類表" in server.chat_requests[0].prompt


def test_without_llm_the_judge_is_exactly_rules_only(puzzle: Puzzle) -> None:
    fallback = load_fallback_from_env(env={})
    assert fallback is None
    plain, configured = Judge(puzzle), Judge(puzzle, fallback=fallback)
    questions = [e.q for e in puzzle.examples] + [MISS, "", "？？", "サーバーのメモリ不足ですか？"]
    for question in questions:
        assert plain.ask(question) == configured.ask(question)


INJECTIONS = [
    line
    for line in (Path(__file__).parent / "data" / "injections.txt").read_text("utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def _leaky_replies(truth: str) -> list[str]:
    """What a fully compromised model could answer: the truth, with and without a verdict."""
    return [
        truth,
        f"YES\n{truth}",
        f"NO. ちなみに真相は: {truth}",
        json.dumps({"verdict": "UNCERTAIN", "truth": truth}, ensure_ascii=False),
        f"```\n{truth}\n```",
        f"はい、{truth}",
    ]


def test_injection_set_is_large_enough_and_misses_the_rules(puzzle: Puzzle) -> None:
    assert len(INJECTIONS) >= 20
    rules_only = Judge(puzzle)
    hits = [q for q in INJECTIONS if rules_only.ask(q).source != "none"]
    assert hits == [], "these attempts are answered by rules and would not test the guard"


def test_truth_leak_guard(server: FakeOpenAIServer, puzzle: Puzzle) -> None:
    truth_lines = [line.strip() for line in puzzle.truth.splitlines() if len(line.strip()) >= 6]
    server.responder = lambda request: _LEAK_QUEUE.pop(0)
    judge = Judge(puzzle, fallback=_fallback(server))
    allowed = {*puzzle.table.answers, UNKNOWN}
    for question in INJECTIONS:
        for reply in _leaky_replies(puzzle.truth.strip()):
            _LEAK_QUEUE.append(reply)
            result = judge.ask(question)
            shown = json.dumps(result.to_dict(), ensure_ascii=False)
            assert result.verdict in allowed
            assert result.note in (None, MISS_NOTE)
            for line in truth_lines:
                assert line not in shown, (question, reply)
            assert "電子レンジ" not in shown and "ブレーカー" not in shown
            assert "ちなみに" not in shown and "```" not in shown
            assert JudgeResult.from_dict(result.to_dict()) == result
    assert server.request_count == len(INJECTIONS) * 6
    assert all(q.startswith("#") is False for q in INJECTIONS)


_LEAK_QUEUE: list[str] = []


def test_load_fallback_from_env_builds_a_cached_fallback(
    server: FakeOpenAIServer, puzzle: Puzzle, sqlite_url: str
) -> None:
    env = {
        "SADAME_LLM_BASE_URL": server.base_url,
        "SADAME_LLM_MODEL": "env-model",
        "SADAME_LLM_API_KEY": "sk-env",
    }
    fallback = load_fallback_from_env(env=env, db_url=sqlite_url)
    assert fallback is not None and fallback.cache is not None
    assert fallback.provider.model == "env-model"
    assert "sk-env" not in repr(fallback)
    server.script("UNCERTAIN")
    judge = Judge(puzzle, fallback=fallback)
    assert [judge.ask(MISS).source, judge.ask(MISS).source] == ["llm", "cache"]
    assert server.request_count == 1
    uncached = load_fallback_from_env(env=env, cache=False)
    assert uncached is not None and uncached.cache is None
