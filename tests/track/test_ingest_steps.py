"""Each step of the ingest pipeline on its own (real databases, one transaction per test)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from sadame.track import LinkTier, SessionConflict, StaticMatcher, Tracker, issue_id
from sadame.track._errors import InvalidInsight
from sadame.track._ingest import (
    IngestSettings,
    Insight,
    apply_lifecycle,
    ingest_session,
    link,
    link_findings,
    parse_insights,
    persist_report,
    progress,
    replay,
    start,
)
from sadame.track._transaction import Transaction, to_iso
from sadame.track._views import Outcome
from tests.track._helpers import tracker

SETTINGS = IngestSettings(token_overlap=0.5, open_confidence=0.9, detection_match=0.78, improvement_match=0.9,
                          max_new=1)


@contextmanager
def transaction(t: Tracker, user: str = "u") -> Iterator[Transaction]:
    with t.engine.begin() as conn:
        yield Transaction(conn, t.tenant, user, to_iso(None), t.ruleset)


def test_parse_accepts_strings_and_objects_and_names_the_bad_item() -> None:
    assert parse_insights(["a", {"text": "b", "confidence": 1, "kind": "improvement"}]) == [
        Insight("a"), Insight("b", 1.0, "improvement")]
    for bad, message in (("text", "must be a list"), ([1], r"insights\[0\]: must be"),
                         ([{"text": "a", "x": 1}], "unknown field"), ([{"text": "a", "confidence": 2}], "confidence"),
                         ([{"text": "a", "kind": "praise"}], "kind"), (["a\x00"], "NUL")):
        with pytest.raises(InvalidInsight, match=message):
            parse_insights(bad)


def test_replay_returns_none_the_stored_report_or_a_conflict(db_url: str) -> None:
    t = tracker(db_url)
    findings = parse_insights(["集中が切れる"])
    with t.engine.connect() as conn:
        assert replay(conn, t.tenant, "u", "s1", findings) is None
    stored = t.ingest("u", "s1", ["集中が切れる"])
    with t.engine.connect() as conn:
        again = replay(conn, t.tenant, "u", "s1", findings)
        assert again is not None and again.replayed and again.new == stored.new
        with pytest.raises(SessionConflict):
            replay(conn, t.tenant, "u", "s1", parse_insights(["気が散る"]))


def test_start_takes_the_next_seq_and_skips_deferred_previous_findings(db_url: str) -> None:
    t = tracker(db_url)
    t.ingest("u", "s1", ["集中が切れる", "タイミングが遅い"])  # timing is deferred (K = 1)
    with transaction(t) as tx:
        run = start(tx, "s2", SETTINGS)
        assert run.seq == 2 and tx.last_seq == 2
        assert [(key, tokens) for _, key, _, tokens in run.previous] == [("attention_issue", ["attention_issue"])]


def test_link_tries_exact_then_alias_then_the_matcher(db_url: str) -> None:
    t = tracker(db_url, matcher=StaticMatcher({"気が散りやすい": ("attention_issue", 0.8)}))
    t.ingest("u", "s1", ["集中が切れる", "タイミングが遅い"])
    t.merge("u", issue_id("attention_issue"), [issue_id("timing_delay")])
    target = issue_id("attention_issue")
    with transaction(t) as tx:
        run = start(tx, "s2", replace(SETTINGS, matcher=t.matcher))
        link_findings(run, [])
        run.links = {issue_id("attention_issue"): (target, "primary"), issue_id("timing_delay"): (
            issue_id("timing_delay"), "alias")}
        assert link(run, "集中が切れる", "attention_issue", "detection") == (target, LinkTier.EXACT, 1.0)
        assert link(run, "遅い", "timing_delay", "detection") == (target, LinkTier.ALIAS, 1.0)  # follows the merge
        assert link(run, "気が散りやすい", "気が散りやすい", "detection") == (target, LinkTier.SEMANTIC, 0.8)
        assert link(run, "気が散りやすい", "気が散りやすい", "improvement") == (None, LinkTier.NONE, 0.8)
        assert link(run, "無関係", "無関係", "detection") == (None, LinkTier.NONE, None)


def test_link_findings_filters_praise_and_creates_issues(db_url: str) -> None:
    t = tracker(db_url)
    with transaction(t) as tx:
        run = start(tx, "s1", SETTINGS)
        linked = link_findings(run, parse_insights(["前回より安定性が向上しています", "集中が切れる", "、。", "集中できない"]))
        assert [(i.tier, i.reason, i.created) for i in linked] == [
            (LinkTier.FILTERED, "positive", False), (LinkTier.NEW, None, True),
            (LinkTier.FILTERED, "empty", False), (LinkTier.EXACT, None, False)]
        assert linked[1].target == linked[3].target == issue_id("attention_issue")


def test_apply_lifecycle_sets_outcomes_and_caps_new_issues(db_url: str) -> None:
    t = tracker(db_url)
    t.ingest("u", "s1", ["集中が切れる"])
    with transaction(t) as tx:
        run = start(tx, "s2", SETTINGS)
        linked = link_findings(run, parse_insights(["集中が切れる", "集中が切れる", "タイミングが遅い",
                                                    {"text": "安定性が不足", "confidence": 0.95}]))
        apply_lifecycle(run, linked)
        assert [i.outcome for i in linked] == [Outcome.REMAINING, Outcome.DUPLICATE, Outcome.DEFERRED, Outcome.NEW]
        assert tx.issues[issue_id("attention_issue")]["status"] == "open"
        assert tx.get(linked[3].target or "")["status"] == "open"  # surfaced and confident
        assert tx.get(linked[2].target or "")["status"] == "candidate"


def test_progress_lists_previous_findings_not_seen_now(db_url: str) -> None:
    t = tracker(db_url, config=None)
    t.ingest("u", "s1", ["集中が切れる"])
    with transaction(t) as tx:
        run = start(tx, "s2", SETTINGS)
        linked = link_findings(run, parse_insights(["タイミングが遅い"]))
        apply_lifecycle(run, linked)
        progress(run, linked)
        # absent is not improved: 今回は指摘なし (issue 20)
        assert [(e.key, e.source) for e in run.report.absent] == [("attention_issue", "progress")]
        assert run.report.improvements == []


def test_persist_report_writes_detections_and_the_session(db_url: str) -> None:
    t = tracker(db_url)
    with transaction(t) as tx:
        run = start(tx, "s1", SETTINGS)
        linked = link_findings(run, parse_insights(["集中が切れる", "良好です"]))
        apply_lifecycle(run, linked)
        progress(run, linked)
        report = persist_report(run, linked)
    assert [e.key for e in report.new] == ["attention_issue"] and [e.reason for e in report.filtered] == ["positive"]
    assert [tr.event for tr in report.transitions] == ["create"]
    assert t.timeline("u")[0]["new"] == 1
    assert [d.outcome for d in t.show("u", issue_id("attention_issue")).detections] == ["new"]


def test_the_pipeline_reading_for_itself_gives_what_the_tracker_gives_with_its_reads_sent_ahead(db_url: str) -> None:
    t = tracker(db_url)
    sessions = [["集中が切れる", "タイミングが遅い", "視線が下がる"], ["集中が切れる", "フォームが崩れる"],
                ["視線が下がる"], ["タイミングが遅い", "集中が切れる"], ["フォームが崩れる"]]

    def outcome(r: object) -> list[tuple[str, list[tuple[str, str]]]]:
        return [(name, [(e.key, e.tier) for e in getattr(r, name)])
                for name in ("new", "remaining", "deferred", "absent", "regressions", "filtered")]

    for n, texts in enumerate(sessions):
        ahead = t.ingest("a", f"s{n}", texts)  # the tracker: reads sent with the first read
        with transaction(t, "b") as tx:  # the steps on their own: each reads what it needs
            alone = ingest_session(tx, f"s{n}", parse_insights(texts), t._settings())
        assert alone.seq == ahead.seq == n + 1
        assert outcome(alone) == outcome(ahead)
        assert [(x.event, x.to_state) for x in alone.transitions] == [(x.event, x.to_state) for x in ahead.transitions]
