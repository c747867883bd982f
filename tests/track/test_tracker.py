"""Tracker.ingest and friends, on a fresh SQLite and a fresh PostgreSQL database each."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from sadame.track import IllegalTransition, IssueNotFound, StaticMatcher, Tracker, issue_id
from sadame.track import _transaction as tracker_module
from sadame.track._errors import InvalidInsight, SessionConflict
from sadame.track._lifecycle import rebuild
from sadame.track._matching import MatchCandidate, MatchResult
from sadame.track._views import TrackerConfig
from tests.track._helpers import snapshot, tracker

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(n: int) -> datetime:
    return T0 + timedelta(days=n)


def statuses(t: Tracker, user: str = "u") -> dict[str, str]:
    return {v.title: v.status for v in t.list_issues(user)}


def assert_history_rebuilds(t: Tracker, user: str = "u") -> None:
    for view in t.list_issues(user, include_merged=True):
        events = [e.to_dict() for e in t.show(user, view.issue_id).events]
        assert rebuild(events) == view.status, (view.title, events)


def test_the_seed_progress_comparison(db_url: str) -> None:
    t = tracker(db_url)
    r1 = t.ingest("u", "s1", ["改善ポイント：安定性が不足している", "動作後のリカバリーが遅い",
                              "前回より安定性が向上しています"], at=at(1))
    assert [e.key for e in r1.new] == ["insufficient_control::stability_issue"]
    assert [e.key for e in r1.deferred] == ["timing_delay"]  # K = 1: kept, not shown
    assert [(e.reason, e.text) for e in r1.filtered] == [("positive", "前回より安定性が向上しています")]
    r2 = t.ingest("u", "s2", ["不足しているのは安定性です", "集中が切れる"], at=at(2))
    assert [e.tier for e in r2.remaining] == ["exact"]
    assert [e.key for e in r2.new] == ["attention_issue"]
    assert r2.improvements == []  # the deferred timing finding was never shown: not an "improvement"
    titles = statuses(t)
    assert titles["改善ポイント：安定性が不足している"[7:]] == "open"  # title without the label
    assert titles["動作後のリカバリーが遅い"] == "candidate"
    assert_history_rebuilds(t)


def test_title_is_set_once_and_truncated(db_url: str) -> None:
    t = tracker(db_url)
    long = "安定性が不足している" + "あ" * 120
    t.ingest("u", "s1", [long], at=at(1))
    t.ingest("u", "s2", ["不足しているのは安定性です"], at=at(2))
    [view] = t.list_issues("u")
    assert view.title == long[:97] + "..." and len(view.title) == 100
    assert view.occurrence_count == 2


def test_ingest_is_idempotent_per_session(db_url: str) -> None:
    t = tracker(db_url)
    first = t.ingest("u", "s1", ["安定性が不足している", "集中が切れる"], at=at(1))
    before = list(t.export())
    again = t.ingest("u", "s1", ["安定性が不足している", "集中が切れる"], at=at(5))
    assert again.replayed and not first.replayed
    assert {**again.to_dict(), "replayed": False} == first.to_dict()
    assert list(t.export()) == before


def test_lifecycle_through_ingest(db_url: str) -> None:
    t = tracker(db_url, config=TrackerConfig(miss_sessions_to_resolve=2, candidate_expiry_sessions=3,
                                             max_new_per_session=5))
    t.ingest("u", "s1", ["安定性が不足している", "見落としがある", {"text": "タイミングが遅い", "confidence": 0.95}],
             at=at(1))
    assert statuses(t) == {"安定性が不足している": "candidate", "見落としがある": "candidate",
                           "タイミングが遅い": "open"}
    t.ingest("u", "s2", ["安定性が不足している"], at=at(2))
    assert statuses(t)["安定性が不足している"] == "open"
    t.ingest("u", "s3", ["安定性が不足している"], at=at(3))
    r4 = t.ingest("u", "s4", ["安定性が不足している"], at=at(4))  # timing missed s2, s3 -> resolved at s3
    assert statuses(t)["タイミングが遅い"] == "resolved"
    assert [tr.event for tr in r4.transitions] == ["expire"]  # 見落とし: candidate unseen for 3 sessions
    assert statuses(t)["見落としがある"] == "expired"
    r5 = t.ingest("u", "s5", ["タイミングが遅い"], at=at(5))
    assert [e.key for e in r5.regressions] == ["timing_delay"]
    assert statuses(t)["タイミングが遅い"] == "open"
    assert t.timeline("u")[-1] == {"session_id": "s5", "at": at(5).isoformat(timespec="microseconds"),
                                   "new": 0, "open": 2, "resolved": 0, "regressions": 1}
    assert_history_rebuilds(t)


def test_ignored_is_sticky_and_detections_are_still_recorded(db_url: str) -> None:
    t = tracker(db_url)
    r = t.ingest("u", "s1", ["安定性が不足している"], at=at(1))
    iid = r.new[0].issue_id
    view = t.ignore("u", iid, actor="alice", reason="わかっている")
    assert view.status == "ignored"
    for n in range(2, 6):
        r = t.ingest("u", f"s{n}", [{"text": "安定性が不足している", "confidence": 1.0}], at=at(n))
        assert [e.issue_id for e in r.ignored] == [iid] and not r.remaining
    detail = t.show("u", iid)
    assert detail.issue.status == "ignored" and detail.issue.occurrence_count == 5
    assert len(detail.detections) == 5
    assert [(e.event, e.actor, e.reason) for e in detail.events][-1] == ("ignore", "alice", "わかっている")
    with pytest.raises(IllegalTransition, match="'ignored'"):
        t.ignore("u", iid)
    assert t.reopen("u", iid).status == "open"
    with pytest.raises(IllegalTransition, match="'open'"):
        t.reopen("u", iid)
    assert_history_rebuilds(t)


def test_unknown_issue_is_a_clear_error(db_url: str) -> None:
    t = tracker(db_url)
    with pytest.raises(InvalidInsight, match="unknown status 'bogus'"):
        t.list_issues("u", "bogus")
    with pytest.raises(IssueNotFound, match="no issue"):
        t.show("u", "0" * 40)
    with pytest.raises(IssueNotFound):
        t.ignore("u", "0" * 40)


def test_users_and_tenants_are_isolated(db_url: str) -> None:
    a = tracker(db_url, tenant="acme")
    b = tracker(db_url, tenant="globex")
    ra = a.ingest("u", "s1", ["安定性が不足している"], at=at(1))
    a.ingest("v", "s1", ["集中が切れる"], at=at(1))
    rb = b.ingest("u", "s1", ["安定性が不足している"], at=at(1))
    assert not rb.replayed and rb.new[0].status == "candidate"
    assert ra.new[0].issue_id == rb.new[0].issue_id  # same key, same id, separate issues
    a.ingest("u", "s2", ["安定性が不足している"], at=at(2))
    assert [v.status for v in a.list_issues("u")] == ["open"]
    assert [v.status for v in b.list_issues("u")] == ["candidate"]
    assert [v.key for v in a.list_issues("v")] == ["attention_issue"]
    assert a.users() == ["u", "v"] and b.users() == ["u"]
    assert all(row["tenant_id"] == "globex" for row in b.export())
    with pytest.raises(IssueNotFound):
        b.show("v", issue_id("attention_issue"))


def test_semantic_matcher_links_only_above_threshold(db_url: str) -> None:
    matcher = StaticMatcher({"最初の反応に時間": ("timing_delay", 0.85), "動き出しがもたつく": ("timing_delay", 0.5)})
    t = tracker(db_url, matcher=matcher)
    r1 = t.ingest("u", "s1", ["操作の開始が遅い"], at=at(1))
    r2 = t.ingest("u", "s2", ["最初の反応に時間がかかっている", "動き出しがもたつく"], at=at(2))
    assert r2.remaining[0].issue_id == r1.new[0].issue_id
    assert (r2.remaining[0].tier, r2.remaining[0].link_confidence) == ("semantic", 0.85)
    assert r2.new[0].tier == "new"  # 0.5 < 0.78: a new issue
    dets = t.show("u", r1.new[0].issue_id).detections
    assert [(d.tier, d.link_confidence) for d in dets] == [("new", None), ("semantic", 0.85)]


class _Broken:
    def match(self, text: str, candidates: Sequence[MatchCandidate], *, purpose: str) -> MatchResult | None:
        raise RuntimeError("API down")


class _Slow:
    def match(self, text: str, candidates: Sequence[MatchCandidate], *, purpose: str) -> MatchResult | None:
        time.sleep(2)
        return MatchResult(candidates[0].issue_id, 1.0)


class _Liar:
    def match(self, text: str, candidates: Sequence[MatchCandidate], *, purpose: str) -> MatchResult | None:
        return MatchResult("f" * 40, 0.99)


@pytest.mark.parametrize(("matcher", "warning"), [(_Broken(), "API down"), (_Slow(), "timed out"),
                                                  (_Liar(), "unknown issue")])
def test_matcher_failure_means_new_issue_never_a_failed_ingest(db_url: str, matcher: object, warning: str) -> None:
    t = tracker(db_url, matcher=matcher, config=TrackerConfig(matcher_timeout=0.2))
    t.ingest("u", "s1", ["操作の開始が遅い"], at=at(1))
    r = t.ingest("u", "s2", ["最初の反応に時間がかかっている"], at=at(2))
    assert r.new[0].tier == "new"
    assert any(warning in w for w in r.warnings)


def test_confident_improvement_resolves(db_url: str) -> None:
    matcher = StaticMatcher({"安定してきた": ("insufficient_control::stability_issue", 0.95),
                             "リズムが整った": ("timing_delay", 0.8)})
    t = tracker(db_url, matcher=matcher, config=TrackerConfig(max_new_per_session=2))
    r1 = t.ingest("u", "s1", ["安定性が不足している", "タイミングが遅い"], at=at(1))
    r2 = t.ingest("u", "s2", [{"text": "体幹が安定してきた", "kind": "improvement"},
                              {"text": "リズムが整った", "kind": "improvement"}], at=at(2))
    resolved = [e for e in r2.improvements if e.source == "improvement" and e.issue_id]
    assert [e.issue_id for e in resolved] == [r1.new[0].issue_id]
    assert [tr.event for tr in r2.transitions] == ["improve"]
    assert statuses(t) == {"安定性が不足している": "resolved", "タイミングが遅い": "candidate"}


@pytest.mark.parametrize(
    ("insights", "message"),
    [("安定性", "list"), ([1], "string or an object"), ([{"text": "x", "confidence": 2}], "confidence"),
     ([{"text": "x", "kind": "praise"}], "kind"), ([{"body": "x"}], "unknown field"),
     (["x" * 10_001], "longer"), (["\ud800"], "surrogate"), ([{"confidence": 0.5}], "text is required")],
)
def test_bad_input_is_a_clear_error_and_writes_nothing(db_url: str, insights: object, message: str) -> None:
    t = tracker(db_url)
    with pytest.raises(InvalidInsight, match=message):
        t.ingest("u", "s1", insights, at=at(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidInsight, match="user_id"):
        t.ingest("", "s1", ["x"])
    assert list(t.export()) == []


def test_empty_texts_are_filtered_not_issues(db_url: str) -> None:
    t = tracker(db_url)
    r = t.ingest("u", "s1", ["", "課題：", "、。"], at=at(1))
    assert [e.reason for e in r.filtered] == ["empty", "empty", "empty"]
    assert t.list_issues("u") == []


def test_a_crash_mid_session_leaves_nothing(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    t = tracker(db_url, config=TrackerConfig(retries=1))
    t.ingest("u", "s1", ["安定性が不足している"], at=at(1))
    before = list(t.export())
    original = tracker_module.Transaction.flush

    def flush_then_crash(self: tracker_module.Transaction) -> None:
        original(self)
        raise RuntimeError("power cut")

    monkeypatch.setattr(tracker_module.Transaction, "flush", flush_then_crash)
    with pytest.raises(RuntimeError, match="power cut"):
        t.ingest("u", "s2", ["安定性が不足している", "集中が切れる"], at=at(2))
    monkeypatch.undo()
    assert list(t.export()) == before
    assert not t.ingest("u", "s2", ["集中が切れる"], at=at(2)).replayed


def test_export_is_json_ready(db_url: str) -> None:
    t = tracker(db_url)
    t.ingest("u", "s1", ["安定性が不足している"], at=at(1))
    rows = list(t.export())
    assert {r["type"] for r in rows} >= {"session", "issue", "key", "detection", "event"}
    for row in rows:
        assert json.loads(json.dumps(row, ensure_ascii=False)) == row


def test_history_cost_does_not_grow(db_url: str) -> None:
    """Old, quiet issues are never touched again: an ingest reads only what it needs."""
    t = tracker(db_url, config=TrackerConfig(max_new_per_session=50))
    t.ingest("u", "s0", [f"古い課題{n}" for n in range(50)], at=at(0))
    t.ingest("u", "s1", ["安定性が不足している"], at=at(1))
    r = t.ingest("u", "s2", ["安定性が不足している"], at=at(2))
    assert not any(tr.event == "expire" for tr in r.transitions)
    r = t.ingest("u", "s3", ["安定性が不足している"], at=at(3))
    assert sum(tr.event == "expire" for tr in r.transitions) == 50
    r = t.ingest("u", "s4", ["安定性が不足している"], at=at(4))
    assert r.transitions == []


def test_first_ingest_pins_the_ruleset_for_the_tenant(db_url: str) -> None:
    from pathlib import Path

    from sadame.track import load_ruleset

    v2 = load_ruleset(Path(__file__).parent / "data" / "ruleset-v2.yaml")
    tracker(db_url, ruleset=v2, tenant="pinned").ingest("u", "s1", ["バランスが崩れている"], at=at(1))
    assert Tracker(db_url, tenant="pinned").ruleset.version == v2.version
    assert Tracker(db_url, tenant="other").ruleset.name == "coaching-ja"  # the bundled default


def test_public_names_are_exported() -> None:
    import sadame.track as track

    for name in track.__all__:
        assert getattr(track, name) is not None, name
    for name in ("Tracker", "IssueMatcher", "StaticMatcher", "load_ruleset", "default_ruleset", "issue_key", "issue_id", "is_positive",
                 "TrackError", "IssueNotFound", "IllegalTransition"):
        assert name in track.__all__, name


def _stream(sessions: int) -> list[dict[str, object]]:
    texts = ["踏み込みが弱い", "集中が切れる", "握力が足りない", "姿勢が崩れる", "語尾が曖昧"]
    return [{"user_id": f"u{n % 4}", "session_id": f"s{n // 4}",
             "insights": [texts[n % 5], texts[(n // 2) % 5], f"新しい指摘{n}", {"text": texts[(n + 2) % 5],
                                                                          "confidence": 0.9}],
             "at": f"2026-02-{1 + n // 4:02d}T09:00:00+00:00"} for n in range(sessions)]


def test_batched_ingest_stores_what_one_session_a_transaction_stores(db_url: str) -> None:
    lines = _stream(26)
    lines.insert(9, dict(lines[3]))  # a session given twice in the stream: replayed inside its batch
    one, many = tracker(db_url, tenant="one"), tracker(db_url, tenant="many")
    first = [r.to_dict() for r in one.ingest_many(lines)]
    batched = [r.to_dict() for r in many.ingest_many(lines, batch=7)]
    assert first == batched and [r["replayed"] for r in batched].count(True) == 1
    assert [snapshot(one, f"u{n}") for n in range(4)] == [snapshot(many, f"u{n}") for n in range(4)]
    assert [r.to_dict() for r in many.ingest_many(lines, batch=100)] == [{**r, "replayed": True} for r in batched]
    one.close()
    many.close()


def test_a_conflict_or_a_bad_session_in_a_batch_keeps_the_sessions_before_it(db_url: str) -> None:
    t = tracker(db_url)
    t.ingest("u1", "s1", ["集中が切れる"])
    lines: list[object] = [{"user_id": "u2", "session_id": "a", "insights": ["集中が切れる"]},
                           {"user_id": "u1", "session_id": "s1", "insights": ["別の指摘"]},
                           {"user_id": "u3", "session_id": "b", "insights": ["集中が切れる"]}]
    seen = []
    with pytest.raises(SessionConflict, match="session 2: session 's1'"):
        for report in t.ingest_many(lines, batch=10):
            seen.append(report.session_id)
    assert seen == ["a"] and t.users() == ["u1", "u2"]  # the batch was rolled back, then "a" stored alone
    with pytest.raises(InvalidInsight, match="session 2: insights"):
        list(t.ingest_many([{"user_id": "u4", "session_id": "c", "insights": []},
                            {"user_id": "u5", "session_id": "d", "insights": "text"}], batch=10))
    assert t.users() == ["u1", "u2", "u4"]
    t.close()


def test_a_config_or_matcher_set_on_the_tracker_applies_to_the_next_session(db_url: str) -> None:
    t = tracker(db_url, config=TrackerConfig(max_new_per_session=1))
    assert len(t.ingest("u", "s1", ["集中が切れる", "タイミングが遅い"]).new) == 1
    t.config = TrackerConfig(max_new_per_session=2)  # the ingest settings are kept between sessions
    assert len(t.ingest("u", "s2", ["フォームが崩れる", "視線が下がる"]).new) == 2
    t.matcher = StaticMatcher({"踏み込みが甘い": ("attention_issue", 0.95)})
    linked = t.ingest("u", "s3", ["踏み込みが甘い"])
    assert not linked.new and linked.remaining and linked.remaining[0].tier == "semantic"
    t.close()


def test_a_tracker_that_read_the_ruleset_before_another_migrated_keys_the_next_session_by_the_new_one(
        db_url: str) -> None:
    from sadame.track import issue_key, load_ruleset

    seed = load_ruleset("seed-example")
    stale = Tracker(db_url, tenant="mig")  # the bundled default, pinned by its first ingest
    assert stale.ingest("u", "s1", ["集中が切れる"]).new[0].key == "attention_issue"
    other = Tracker(db_url, tenant="mig")
    other.migrate(seed, apply=True)
    other.close()
    report = stale.ingest("u", "s2", ["踏み込みが弱い"])  # keyed before the first read found the change
    assert report.ruleset_version == seed.version
    assert report.new[0].key == issue_key("踏み込みが弱い", seed) == "insufficient_control"
    assert stale.show("u", report.new[0].issue_id).keys == [{"key": "insufficient_control", "kind": "primary"}]
    stale.close()


def test_a_session_of_many_findings_is_stored_whole_through_the_chunked_inserts(db_url: str) -> None:
    from sadame.db._raw import INSERT_CHUNK

    t = tracker(db_url, config=TrackerConfig(max_new_per_session=1000))
    texts = [f"過去の指摘{n}番" for n in range(INSERT_CHUNK + 101)]  # more rows than any chunk, on both databases
    report = t.ingest("u", "s1", texts)
    assert len(report.new) == len(texts) and t.count_issues("u") == len(texts)
    issues = t.list_issues("u")
    assert sorted(i.title for i in issues) == sorted(texts)
    assert [i.issue_id for i in issues] == sorted(i.issue_id for i in issues)  # inserted in the rows' order (by id)
    detail = t.show("u", next(i.issue_id for i in issues if i.title == texts[-1]))
    assert [d.position for d in detail.detections] == [len(texts) - 1] and len(detail.events) == 1
    t.close()
