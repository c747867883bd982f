"""One state per issue per session in the ingest report: an issue this session resolved is 解決
(``resolved``), not 今回は指摘なし; a regression is not also 継続 in the CLI; last session's
improvement is not a 指摘 that can be absent now."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from click.testing import CliRunner

from sadame.cli import cli
from sadame.track import Tracker, default_ruleset
from sadame.track._labels import tracker_labels
from sadame.track._views import SessionReport, TrackerConfig

RS = default_ruleset()
START = datetime(2026, 1, 5, tzinfo=UTC)


def _sessions(t: Tracker, user: str, sessions: list[list[str]]) -> list[SessionReport]:
    return [t.ingest(user, f"s{n}", findings, at=START + timedelta(days=7 * n))
            for n, findings in enumerate(sessions, 1)]


def test_an_issue_resolved_by_this_absence_is_resolved_not_absent(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS, config=TrackerConfig(miss_sessions_to_resolve=1)) as t:
        first, _, last = _sessions(t, "u", [["遅刻が多い"], ["遅刻が多い"], ["声が小さい"]])
        iid = first.new[0].issue_id
        assert last.absent == [] and [(e.issue_id, e.status) for e in last.resolved] == [(iid, "resolved")]
        assert t.latest_markers("u")[iid or ""] == "resolved"
        stored = t.latest_report("u")
        assert stored is not None and [e.issue_id for e in stored.resolved] == [iid]


def test_an_issue_resolved_after_older_misses_is_listed_resolved(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:
        first, _, third, last = _sessions(t, "u", [["遅刻が多い"], ["遅刻が多い"], ["声が小さい"], ["声が小さい"]])
        iid = first.new[0].issue_id
        assert [e.issue_id for e in third.absent] == [iid] and third.resolved == []
        assert [(e.issue_id, e.text) for e in last.resolved] == [(iid, "遅刻が多い")] and last.absent == []


def test_last_session_s_improvement_is_not_absent_now(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS, config=TrackerConfig(miss_sessions_to_resolve=3)) as t:
        *_, last = _sessions(t, "u", [["遅刻が多い"], ["遅刻が多い"], ["遅刻しなくなった"], ["声が小さい"]])
        assert last.absent == [] and last.resolved == []


def test_the_cli_gives_one_state_per_issue_per_session(db_url: str) -> None:
    def ingest(session: str, findings: list[str]) -> list[list[str]]:
        out = CliRunner().invoke(cli, ["track", "ingest", "--user", "L", "--session", session, "--db", db_url, "-"],
                                 input=json.dumps(findings, ensure_ascii=False), catch_exceptions=False)
        assert out.exit_code == 0, out.output
        return [line.split()[:3] for line in out.stdout.splitlines() if line.strip()]

    for n, text in enumerate(["遅刻が多い", "遅刻が多い", "遅刻しなくなった"], 1):
        ingest(f"s{n}", [text])
    lines = ingest("s4", ["また遅刻するようになった"])
    assert [line[0] for line in lines] == ["regressions"] and lines[0][2] == "再発"
    lines = ingest("s5", ["声が小さい"])
    assert ["absent", lines[1][1], "今回は指摘なし"] in lines
    lines = ingest("s6", ["声が小さい"])
    assert ["resolved", lines[1][1], "解決"] in lines


def test_the_regressions_banner_names_resolved_and_expired_issues() -> None:
    banner = tracker_labels().message("regressions_banner", n=2)
    assert banner.startswith("再発 2 件") and "解決済み" in banner and "期限切れ" in banner


def test_a_session_summary_counts_a_regression_once(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:
        _sessions(t, "L", [["遅刻が多い"], ["遅刻が多い"], ["遅刻しなくなった"], ["また遅刻するようになった"]])
        last = t.session_summaries("L")[-1]
        assert (last["regressed"], last["continuing"]) == (1, 0)


def test_an_issue_improved_in_the_session_it_resolves_is_listed_once_as_改善(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:  # s4 is its second miss: it resolves
        first, *_, last = _sessions(t, "u", [["遅刻が多い"], ["遅刻が多い"], ["声が小さい"], ["遅刻しなくなった"]])
        iid = first.new[0].issue_id
        assert [e.issue_id for e in last.improvements] == [iid] and last.resolved == []
        assert iid not in [e.issue_id for e in last.absent]
        assert t.show("u", iid or "").issue.status == "resolved"
