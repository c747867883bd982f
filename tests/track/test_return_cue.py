"""A finding that says a problem is back (また, 再び) links to the user's matching issue whatever its
status: 再発 after a gap (resolved, expired, absent or improved since last seen), 継続 when the issue
was seen in the previous session; never new, never linked to an issue of the other polarity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sadame.track import Tracker, default_ruleset
from sadame.track._improvement import returning_issue
from sadame.track._matching import MatchCandidate
from sadame.track._views import ReportEntry, SessionReport, TrackerConfig

RS = default_ruleset()
START = datetime(2026, 1, 5, tzinfo=UTC)


def _sessions(t: Tracker, user: str, sessions: list[list[str]]) -> list[SessionReport]:
    return [t.ingest(user, f"s{n}", findings, at=START + timedelta(days=7 * n))
            for n, findings in enumerate(sessions, 1)]


def _ids(entries: list[ReportEntry]) -> list[str | None]:
    return [e.issue_id for e in entries]


def test_a_return_cue_after_the_previous_session_is_継続_of_the_open_issue(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:
        first, _, last = _sessions(t, "K", [["冒頭の自己紹介が長い"], ["冒頭の自己紹介が長い"],
                                            ["冒頭の自己紹介がまた長くなっている"]])
        iid = first.new[0].issue_id
        assert last.new == [] and last.absent == [] and last.regressions == []
        assert [(e.issue_id, e.tier.value if e.tier else None) for e in last.remaining] == [(iid, "similar")]
        assert len(t.list_issues("K")) == 1
        assert t.latest_markers("K") == {iid: "continuing"}


def test_a_return_cue_after_an_absent_session_is_再発_of_the_open_issue(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS, config=TrackerConfig(miss_sessions_to_resolve=3)) as t:
        first, *_, last = _sessions(t, "K", [["冒頭の自己紹介が長い"], ["冒頭の自己紹介が長い"], ["声が小さい"],
                                             ["冒頭の自己紹介がまた長くなっている"]])
        iid = first.new[0].issue_id
        assert t.show("K", iid or "").issue.status == "open"
        assert _ids(last.regressions) == [iid] and last.new == []
        assert t.latest_markers("K")[iid or ""] == "regressed"


def test_a_return_cue_in_the_session_the_issue_would_resolve_is_再発(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:  # two misses resolve: s4 is the second
        first, *_, last = _sessions(t, "K", [["冒頭の自己紹介が長い"], ["冒頭の自己紹介が長い"], ["声が小さい"],
                                             ["冒頭の自己紹介がまた長くなっている"]])
        iid = first.new[0].issue_id
        assert _ids(last.regressions) == [iid] and last.new == []
        assert t.show("K", iid or "").issue.status == "open"
        assert not [tr for tr in last.transitions if tr.issue_id == iid and tr.to_state == "resolved"]


def test_a_return_cue_in_the_session_a_candidate_would_expire_is_再発(db_url: str) -> None:
    config = TrackerConfig(candidate_expiry_sessions=2)
    with Tracker(db_url, tenant="qa", ruleset=RS, config=config) as t:
        first, _, last = _sessions(t, "K", [["踏み込みが弱い"], ["視線が下がる"], ["また踏み込みが弱くなっている"]])
        iid = first.new[0].issue_id
        assert _ids(last.regressions) == [iid] and last.new == []
        assert t.show("K", iid or "").issue.status == "open"


def test_a_worsening_after_a_reported_improvement_is_再発(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:
        first, _, better, last = _sessions(t, "L", [["遅刻が多い"], ["遅刻が多い"], ["遅刻しなくなった"],
                                                    ["また遅刻するようになった"]])
        iid = first.new[0].issue_id
        assert _ids(better.improvements) == [iid]
        assert _ids(last.regressions) == [iid] and last.new == [] and last.absent == []
        assert t.latest_markers("L")[iid or ""] == "regressed"
        assert len(t.list_issues("L")) == 1


def test_a_return_cue_never_links_to_an_issue_of_the_other_polarity() -> None:
    praise = MatchCandidate("p", "冒頭の自己紹介が簡潔で良い", "冒頭の自己紹介が簡潔で良い", "open")
    problem = MatchCandidate("q", "冒頭の自己紹介が長い", "冒頭の自己紹介が長い", "open")
    assert returning_issue("冒頭の自己紹介がまた長くなっている", [praise], RS) is None
    found = returning_issue("冒頭の自己紹介がまた長くなっている", [praise, problem], RS)
    assert found is not None and found[0] == "q"


def test_a_finding_without_a_return_cue_after_a_gap_stays_継続(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS, config=TrackerConfig(miss_sessions_to_resolve=3)) as t:
        first, *_, last = _sessions(t, "K", [["冒頭の自己紹介が長い"], ["冒頭の自己紹介が長い"], ["声が小さい"],
                                             ["冒頭の自己紹介が長い"]])
        assert last.regressions == [] and _ids(last.remaining) == [first.new[0].issue_id]
