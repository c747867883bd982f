"""Manual merge/unmerge and ruleset migration (one mechanism), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sadame.track import MergeError, Tracker, default_ruleset, issue_id, load_ruleset
from sadame.track._errors import MigrationNeedsReview
from sadame.track._lifecycle import rebuild
from sadame.track._views import TrackerConfig
from tests.track._helpers import snapshot, tracker

V2 = Path(__file__).parent / "data" / "ruleset-v2.yaml"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
WIDE = TrackerConfig(max_new_per_session=5)


def at(n: int) -> datetime:
    return T0 + timedelta(days=n)


def test_merge_then_unmerge_restores_the_originals_exactly(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "気が散る"], at=at(1))
    t.ingest("u", "s2", ["集中が切れる"], at=at(2))
    t.ignore("u", issue_id("気が散る"))
    before = snapshot(t, "u")
    target, source = issue_id("attention_issue"), issue_id("気が散る")
    merged = t.merge("u", target, [source], reason="同じ課題")
    assert merged.occurrence_count == 2 and merged.status == "open"
    assert [v.issue_id for v in t.list_issues("u")] == [target]
    detail = t.show("u", target)
    assert {k["key"]: k["kind"] for k in detail.keys} == {"attention_issue": "primary", "気が散る": "alias"}
    assert detail.merged == [source] and len(detail.detections) == 3
    restored = t.unmerge("u", target)
    assert restored == [t.list_issues("u")[1], t.list_issues("u")[0]]
    assert snapshot(t, "u") == before
    for view in t.list_issues("u", include_merged=True):
        assert rebuild([e.to_dict() for e in t.show("u", view.issue_id).events]) == view.status


def test_detections_through_an_alias_go_back_on_unmerge(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["集中が切れる", "気が散る"], at=at(1))
    target, source = issue_id("attention_issue"), issue_id("気が散る")
    t.merge("u", target, [source])
    r = t.ingest("u", "s2", ["気が散る"], at=at(2))
    assert (r.remaining[0].issue_id, r.remaining[0].tier) == (target, "alias")
    t.unmerge("u", source)
    views = {v.issue_id: v for v in t.list_issues("u")}
    assert views[source].occurrence_count == 2 and views[target].occurrence_count == 1


def test_a_merge_does_not_count_an_improvement_as_a_detection(db_url: str) -> None:
    # 「歩幅は以前より広がった」 is linked to 歩幅が小さい as evidence of progress, not a sighting:
    # the merge recount must leave it out, as the ingest did (issue 20's coach story)
    t = tracker(db_url, config=WIDE, ruleset=default_ruleset())
    t.ingest("u", "s1", ["歩幅が小さい", "ストライドが狭い"], at=at(1))
    t.ingest("u", "s2", ["歩幅が小さい"], at=at(2))
    report = t.ingest("u", "s3", ["歩幅は以前より広がった"], at=at(3))
    views = {v.title: v for v in t.list_issues("u")}
    target = views["歩幅が小さい"]
    assert [e.issue_id for e in report.improvements] == [target.issue_id]
    assert (target.occurrence_count, target.last_session_id) == (2, "s2")
    merged = t.merge("u", target.issue_id, [views["ストライドが狭い"].issue_id])
    assert (merged.occurrence_count, merged.last_session_id) == (2, "s2")
    assert merged.last_detected_at == target.last_detected_at
    restored = {v.title: v for v in t.unmerge("u", target.issue_id)}
    assert (restored["歩幅が小さい"].occurrence_count, restored["歩幅が小さい"].last_session_id) == (2, "s2")


@pytest.mark.parametrize(
    ("target", "sources", "message"),
    [("attention_issue", ["attention_issue"], "itself"), ("attention_issue", [], "nothing to merge")],
)
def test_bad_merges_are_clear_errors(db_url: str, target: str, sources: list[str], message: str) -> None:
    t = tracker(db_url)
    t.ingest("u", "s1", ["集中が切れる"], at=at(1))
    with pytest.raises(MergeError, match=message):
        t.merge("u", issue_id(target), [issue_id(s) for s in sources])
    with pytest.raises(MergeError, match="not merged"):
        t.unmerge("u", issue_id(target))


def _history(t: Tracker) -> None:
    t.ingest("u", "s1", ["ブレが大きい", "集中が切れる", "気が散る"], at=at(1))
    t.ingest("u", "s2", ["バランスが崩れている", "集中が切れる"], at=at(2))
    t.ignore("u", issue_id("気が散る"), reason="本人が了承済み")


def test_migrate_dry_run_shows_merges_and_splits_and_changes_nothing(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    _history(t)
    before = list(t.export())
    plan = t.migrate(load_ruleset(V2))
    assert plan["summary"] == {"merges": 1, "splits": 1, "rekeys": 1}
    [merge] = plan["users"]["u"]["merges"]
    assert merge["key"] == "attention_issue" and merge["into"] == issue_id("気が散る")  # ignored wins
    [split] = plan["users"]["u"]["splits"]
    assert split["issue_id"] == issue_id("stability_issue") and split["moves"][0]["key"] == "balance_issue"
    assert list(t.export()) == before


def test_migrate_apply_keeps_aliases_and_carries_ignored(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    _history(t)
    with pytest.raises(MigrationNeedsReview, match="splits 1 issue"):
        t.migrate(load_ruleset(V2), apply=True)
    t.migrate(load_ruleset(V2), apply=True, allow_splits=True)
    views = {v.key: v for v in t.list_issues("u")}
    assert set(views) == {"stability_issue", "balance_issue", "attention_issue"}
    assert views["attention_issue"].issue_id == issue_id("気が散る")  # ids are stable
    assert views["attention_issue"].status == "ignored"
    assert views["attention_issue"].occurrence_count == 2
    assert views["stability_issue"].occurrence_count == 1 and views["balance_issue"].status == "open"
    keys = {k["key"]: k["kind"] for k in t.show("u", issue_id("気が散る")).keys}
    assert keys == {"attention_issue": "primary", "気が散る": "alias"}
    # a fresh tracker of this tenant uses the migrated ruleset; detections find their issues
    t2 = Tracker(db_url, config=WIDE)
    assert t2.ruleset.version == load_ruleset(V2).version
    r = t2.ingest("u", "s3", ["集中が切れる", "バランスが崩れている"], at=at(3))
    assert [e.issue_id for e in r.ignored] == [issue_id("気が散る")]
    assert [e.key for e in r.remaining] == ["balance_issue"] and r.new == []
    for view in t2.list_issues("u", include_merged=True):
        assert rebuild([e.to_dict() for e in t2.show("u", view.issue_id).events]) == view.status
    assert t2.migrate(load_ruleset(V2))["summary"] == {"merges": 0, "splits": 0, "rekeys": 0}


def test_migrating_from_the_seed_to_the_format_2_default_carries_issues(db_url: str) -> None:
    t = tracker(db_url, config=WIDE)
    t.ingest("u", "s1", ["踏み込みが弱い", "握力が弱い", "集中が切れる"], at=at(1))
    t.ingest("u", "s2", ["踏み込みが弱い"], at=at(2))
    t.ignore("u", issue_id("attention_issue"))
    before = {v.issue_id: v.status for v in t.list_issues("u")}
    plan = t.migrate(load_ruleset("coaching-ja"))
    assert not plan["applied"] and plan["summary"]["splits"] == 1  # 弱い: one issue, two subjects
    assert {v.issue_id: v.status for v in t.list_issues("u")} == before  # a dry run changes nothing
    t.migrate(load_ruleset("coaching-ja"), apply=True, allow_splits=True)
    views = {v.key: v for v in t.list_issues("u")}
    assert set(views) == {"insufficient_control@踏み込み", "insufficient_control@握力", "attention_issue"}
    assert views["attention_issue"].status == "ignored" and views["attention_issue"].issue_id in before
    assert views["insufficient_control@踏み込み"].status == "open"
    assert views["insufficient_control@踏み込み"].occurrence_count == 2
    r = t.ingest("u", "s3", ["握力の弱さ", "踏み込みが弱い"], at=at(3))
    assert [e.tier for e in r.remaining] == ["exact", "exact"] and r.new == []
    reloaded = Tracker(db_url, config=WIDE)
    assert reloaded.ruleset.name == "coaching-ja"
