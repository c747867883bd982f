"""LLMMatcher: schema-validated JSON, candidates as the only pool, any error means "new"."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from sadame.llm import LLMMatcher
from sadame.llm._matcher import parse_match
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm.testing import FakeOpenAIServer, Reply
from sadame.track import IssueMatcher, Tracker, default_ruleset, issue_id, issue_key
from sadame.track._matching import MatchCandidate, MatchResult
from tests.llm.conftest import FAST

RS = default_ruleset()


def _cand(title: str, status: str = "open") -> MatchCandidate:
    key = issue_key(title, RS)
    return MatchCandidate(issue_id=issue_id(key), title=title, key=key, status=status)


A = _cand("サーブ時のボールの投げ上げ位置が一定しない")
B = _cand("バックハンドで打点が遅れる")


def _matcher(server: FakeOpenAIServer) -> LLMMatcher:
    return LLMMatcher(OpenAICompatProvider(server.base_url, "fake-model", timeout=1.0, retry_policy=FAST))


def test_implements_the_tracker_protocol(server: FakeOpenAIServer) -> None:
    assert isinstance(_matcher(server), IssueMatcher)


def test_existing_match_with_confidence(server: FakeOpenAIServer) -> None:
    server.script(json.dumps({"matchType": "existing", "issueId": A.issue_id, "confidence": 0.93}))
    result = _matcher(server).match("テニスのサーブでトスが毎回ずれている", [A, B], purpose="detection")
    assert result == MatchResult(A.issue_id, 0.93)
    [request] = server.chat_requests
    assert request.json["response_format"] == {"type": "json_object"}
    assert request.json["temperature"] == 0
    assert A.issue_id in request.prompt and B.title in request.prompt
    assert "only pool" in request.prompt


def test_no_candidates_means_no_call(server: FakeOpenAIServer) -> None:
    assert _matcher(server).match("何か", [], purpose="detection") is None
    assert server.request_count == 0


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps({"matchType": "new", "issueId": None, "confidence": 0.9}),
        json.dumps({"matchType": "existing", "issueId": "0" * 40, "confidence": 0.99}),  # not a candidate
        json.dumps({"matchType": "existing", "confidence": 0.99}),  # no issueId
        json.dumps({"matchType": "existing", "issueId": None, "confidence": 0.99}),
        json.dumps({"matchType": "existing", "issueId": "A", "confidence": 1.5}),
        json.dumps({"matchType": "existing", "issueId": "A", "confidence": "high"}),
        json.dumps({"matchType": "existing", "issueId": "A", "confidence": True}),
        json.dumps({"matchType": "same", "issueId": "A", "confidence": 0.9}),
        json.dumps(["existing", "A", 0.9]),
        "existing A 0.9",
        "{broken",
        "",
    ],
)
def test_invalid_answers_mean_new_issue(server: FakeOpenAIServer, reply: str) -> None:
    server.script(reply.replace('"A"', json.dumps(A.issue_id)))
    assert _matcher(server).match("トスが安定しない", [A, B], purpose="detection") is None


def test_fenced_json_and_prose_are_read(server: FakeOpenAIServer) -> None:
    body = json.dumps({"matchType": "existing", "issueId": B.issue_id, "confidence": 0.8})
    assert parse_match(f"```json\n{body}\n```", [B.issue_id]) == (B.issue_id, 0.8)
    assert parse_match(f"Here you go: {body} hope it helps", [B.issue_id]) == (B.issue_id, 0.8)


@pytest.mark.parametrize(
    "failure", [Reply(status=500), Reply(status=429), Reply(body="<html>"), Reply(content="x", delay=2)]
)
def test_provider_errors_mean_new_issue(server: FakeOpenAIServer, failure: Reply) -> None:
    server.default = failure
    matcher = LLMMatcher(OpenAICompatProvider(server.base_url, "m", timeout=0.3, retry_policy=FAST))
    assert matcher.match("トスが安定しない", [A], purpose="improvement") is None


def test_candidate_pool_is_bounded(server: FakeOpenAIServer) -> None:
    pool = [_cand(f"課題その{i}") for i in range(10)]
    server.script(json.dumps({"matchType": "existing", "issueId": pool[9].issue_id, "confidence": 0.99}))
    matcher = LLMMatcher(OpenAICompatProvider(server.base_url, "m", retry_policy=FAST), max_candidates=5)
    assert matcher.match("課題", pool, purpose="detection") is None  # pool[9] was not offered
    assert pool[9].issue_id not in server.chat_requests[0].prompt


def test_tracker_links_through_the_llm_only_above_threshold(server: FakeOpenAIServer, db_url: str) -> None:
    """The tracker asks the matcher on a key miss and applies 0.78 itself."""
    first = "テニスのサーブでトスが毎回ずれている"
    tracker = Tracker(db_url, matcher=_matcher(server))
    tracker.ingest("u1", "s1", [first], at=datetime(2026, 1, 1, tzinfo=UTC))
    [existing] = tracker.list_issues("u1")

    def answer(confidence: float) -> str:
        return json.dumps({"matchType": "existing", "issueId": existing.issue_id, "confidence": confidence})

    server.script(answer(0.95))
    tracker.ingest(
        "u1", "s2", ["サーブ時のボールの投げ上げ位置が一定しない"], at=datetime(2026, 1, 2, tzinfo=UTC)
    )
    assert len(tracker.list_issues("u1")) == 1  # linked, not a new issue
    server.script(answer(0.5))
    tracker.ingest("u1", "s3", ["フォアハンドで打点が体に近すぎる"], at=datetime(2026, 1, 3, tzinfo=UTC))
    assert len(tracker.list_issues("u1")) == 2  # low confidence: a new issue
    assert server.request_count == 2


def test_load_matcher_from_env(server: FakeOpenAIServer) -> None:
    from sadame.llm import load_matcher_from_env

    assert load_matcher_from_env(env={}) is None
    matcher = load_matcher_from_env(env={"SADAME_LLM_BASE_URL": server.base_url, "SADAME_LLM_MODEL": "m"})
    assert matcher is not None and matcher.name == "llm:m"
