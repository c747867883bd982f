"""Regression tests for the lifecycle defects of issue 12, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sadame.track import IssueNotFound, SessionConflict, StaticMatcher, issue_id
from sadame.track._errors import InvalidInsight
from sadame.track._lifecycle import rebuild
from sadame.track._views import SessionReport, TrackerConfig
from tests.track._helpers import snapshot, tracker

T0 = datetime(2026, 1, 1, tzinfo=UTC)
WIDE = TrackerConfig(max_new_per_session=5)


def at(n: int) -> datetime:
    return T0 + timedelta(days=n)


def _listed_ids(report: SessionReport) -> list[str]:
    lists = (report.new, report.remaining, report.improvements, report.deferred, report.ignored, report.duplicates)
    return [e.issue_id for entries in lists for e in entries if e.issue_id is not None]


def test_unmerge_restores_statuses_after_detections_through_the_alias(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "気が散る"], at=at(1))
    target, source = issue_id("attention_issue"), issue_id("気が散る")
    t.merge("u", target, [source])
    t.ingest("u", "s2", ["気が散る"], at=at(2))  # the merged issue opens through the alias
    assert t.show("u", target).issue.status == "open"
    t.unmerge("u", target)
    views = {v.issue_id: v.status for v in t.list_issues("u")}
    # the detection went back to the source, which was seen twice; the target was seen once
    assert views == {target: "candidate", source: "open"}
    for iid in views:
        assert rebuild([e.to_dict() for e in t.show("u", iid).events]) == views[iid]


def test_merge_then_unmerge_without_sessions_is_an_identity(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "タイミングが遅い"], at=at(1))
    t.ingest("u", "s2", ["集中が切れる"], at=at(2))
    before = snapshot(t, "u")
    t.merge("u", issue_id("timing_delay"), [issue_id("attention_issue")])
    t.unmerge("u", issue_id("timing_delay"))
    assert snapshot(t, "u") == before


def test_an_issue_linked_by_alias_is_not_also_an_improvement(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "気が散る"], at=at(1))
    t.merge("u", issue_id("attention_issue"), [issue_id("気が散る")])
    t.ingest("u", "s2", ["集中が切れる"], at=at(2))
    r = t.ingest("u", "s3", ["気が散る"], at=at(3))  # alias of the issue seen in s2
    assert [e.tier for e in r.remaining] == ["alias"]
    assert r.improvements == []
    assert len(_listed_ids(r)) == len(set(_listed_ids(r)))


def test_an_issue_linked_by_the_matcher_is_not_also_an_improvement(db_url: str) -> None:
    matcher = StaticMatcher({"気が散りやすい": ("attention_issue", 0.9)})
    t = tracker(db_url, matcher=matcher)
    t.ingest("u", "s1", ["集中が切れる"], at=at(1))
    r = t.ingest("u", "s2", ["気が散りやすい"], at=at(2))
    assert [(e.tier, e.issue_id) for e in r.remaining] == [("semantic", issue_id("attention_issue"))]
    assert r.improvements == []


def test_held_back_candidates_are_never_improvements(db_url: str) -> None:
    t = tracker(db_url)  # K = 1
    r1 = t.ingest("u", "s1", ["安定性が不足している", "タイミングが遅い"], at=at(1))
    assert [e.key for e in r1.deferred] == ["timing_delay"]
    r2 = t.ingest("u", "s2", ["安定性が不足している"], at=at(2))
    assert [e.key for e in r2.improvements] == []


def test_the_cap_orders_by_confidence_then_input_order(db_url: str) -> None:
    t = tracker(db_url)  # K = 1, open_confidence 0.9
    r = t.ingest("u", "s1", [{"text": "集中が切れる", "confidence": 0.6}, "タイミングが遅い",
                             {"text": "安定性が不足している", "confidence": 0.95}], at=at(1))
    assert [(e.key, e.status) for e in r.new] == [("insufficient_control::stability_issue", "open")]
    assert [e.key for e in r.deferred] == ["attention_issue", "timing_delay"]
    r = t.ingest("v", "s1", ["集中が切れる", "タイミングが遅い"], at=at(1))
    assert [e.key for e in r.new] == ["attention_issue"]  # equal (no) confidence: input order


def test_a_reused_session_id_with_other_findings_is_a_conflict(db_url: str) -> None:
    t = tracker(db_url)
    first = t.ingest("u", "s1", ["集中が切れる", {"text": "タイミングが遅い", "confidence": 0.5}], at=at(1))
    same = t.ingest("u", "s1", ["集中が切れる", {"text": "タイミングが遅い", "confidence": 0.5}], at=at(9))
    assert same.replayed and {**same.to_dict(), "replayed": False} == first.to_dict()
    for other in (["集中が切れる"], ["集中が切れる", "タイミングが遅い"], []):
        with pytest.raises(SessionConflict, match="different findings"):
            t.ingest("u", "s1", other, at=at(2))
    assert [p["session_id"] for p in t.timeline("u")] == ["s1"]


def test_duplicates_within_a_session_are_listed_once_as_duplicates(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    r = t.ingest("u", "s1", ["集中が切れる", "集中が切れる", "注意が散漫", "タイミングが遅い"], at=at(1))
    assert [e.text for e in r.duplicates] == ["集中が切れる", "注意が散漫"]
    assert {e.issue_id for e in r.duplicates} == {issue_id("attention_issue")}
    assert [e.key for e in r.new] == ["attention_issue", "timing_delay"]
    assert t.show("u", issue_id("attention_issue")).issue.occurrence_count == 1


def test_an_improvement_of_an_issue_detected_now_is_not_applied(db_url: str) -> None:
    t = tracker(db_url)
    t.ingest("u", "s1", ["集中が切れる"], at=at(1))
    r = t.ingest("u", "s2", ["集中が切れる", {"text": "集中が切れる", "kind": "improvement"}], at=at(2))
    assert [(e.reason, e.source) for e in r.filtered] == [("contradicted", "improvement")]
    assert t.show("u", issue_id("attention_issue")).issue.status == "open"


def test_prefixes_work_in_every_command_that_takes_an_id(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "気が散る"], at=at(1))
    a, b = issue_id("attention_issue"), issue_id("気が散る")
    assert t.show("u", a[:12]).issue.issue_id == a
    assert t.ignore("u", a[:12]).status == "ignored"
    assert t.reopen("u", a[:12].upper()).status == "open"
    assert t.merge("u", a[:12], [b[:12]]).issue_id == a
    assert [v.issue_id for v in t.unmerge("u", b[:12])] == [b, a]
    t.ingest("u", "s2", ["フォームが乱れる", "フォームの乱れが大きい"], at=at(2))
    form = issue_id("フォームが乱れる")
    assert t.similar("u", form[:12])[0].issue_id == issue_id("フォームの乱れが大きい")
    with pytest.raises(IssueNotFound, match="starts with"):
        t.show("u", "ffff")
    with pytest.raises(IssueNotFound, match="hexadecimal"):
        t.show("u", "zz")


def test_the_actor_is_always_recorded_and_checked_as_actor(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "気が散る"], at=at(1))
    a, b = issue_id("attention_issue"), issue_id("気が散る")
    t.merge("u", a, [b], actor="api:acme")
    t.unmerge("u", a, actor="web:acme")
    actors = {(e.event, e.actor) for e in t.show("u", b).events}
    assert ("merge", "api:acme") in actors and ("unmerge", "web:acme") in actors
    for call in (lambda: t.ignore("u", a, actor=""), lambda: t.merge("u", a, [b], actor=" "),
                 lambda: t.unmerge("u", a, actor="")):
        with pytest.raises(InvalidInsight, match=r"^actor must be a non-empty string"):
            call()


def test_similar_asks_the_matcher_when_configured_and_never_merges(db_url: str) -> None:
    matcher = StaticMatcher({"歩幅が小さい": ("ストライドが狭い", 0.9)})
    t = tracker(db_url, matcher=matcher, config=WIDE)
    t.ingest("u", "s1", ["ストライドが狭い", "腕の振りが小さい", "視線が下がる"], at=at(1))
    plain = tracker(db_url, config=WIDE)
    r = plain.ingest("u", "s2", ["歩幅が小さい"], at=at(2))
    iid = r.new[0].issue_id or ""
    assert issue_id("ストライドが狭い") not in [s.issue_id for s in plain.similar("u", iid)]  # no shared words
    [top, *_] = t.similar("u", iid)
    assert (top.issue_id, top.score, top.by_matcher) == (issue_id("ストライドが狭い"), 0.9, True)
    assert all(v.merged_into is None for v in t.list_issues("u", include_merged=True))


def test_two_improvements_of_one_issue_list_the_second_as_a_duplicate(db_url: str) -> None:
    t = tracker(db_url)
    t.ingest("u", "s1", ["集中が切れる"], at=at(1))
    r = t.ingest("u", "s2", [{"text": "集中が切れる", "kind": "improvement"},
                             {"text": "集中が切れる", "kind": "improvement"}], at=at(2))
    assert [e.issue_id for e in r.improvements] == [issue_id("attention_issue")]
    assert [e.source for e in r.duplicates] == ["improvement"] and r.filtered == []
