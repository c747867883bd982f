"""Issue 20: the coach's story, replayed. What the dashboard reads must be true: no praise or
improvement becomes a new problem, an improvement is linked to the issue it improves, and an
issue that comes back after it resolved or expired is a regression (再発)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sadame.track import Tracker, default_ruleset, is_positive
from sadame.track._ruleset import finding_kind
from sadame.track._views import TrackerConfig

RS = default_ruleset()
START = datetime(2026, 1, 5, tzinfo=UTC)

#: Two users, five sessions each, as a coach sent them (presentation / sales and running).
STORY: dict[str, list[list[str]]] = {
    "sato": [
        ["冒頭の自己紹介が長い", "声が小さく、自信がなさそうに聞こえる", "資料の説明は丁寧で分かりやすい",
         "クロージングで次回のアポイントを取れていない"],
        ["冒頭の自己紹介は簡潔になり、すぐに本題に入れるようになった", "資料の説明は引き続き分かりやすい",
         "声が小さく、自信がなさそうに聞こえる"],
        ["課題を深掘りする質問ができるようになった", "以前より落ち着いて話せている",
         "クロージングは改善され、次回のアポイントを自然に取れていた"],
        ["遅刻しなくなった", "声が小さく、自信がなさそうに聞こえる"],
        ["冒頭の自己紹介がまた長くなっている"],
    ],
    "tanaka": [
        ["かかと着地が続いている", "腕振りが小さい", "歩幅が小さい"],
        ["腕振りは大きくなった", "かかと着地が続いている"],
        ["かかと着地は見られなくなった"],
        ["かかと着地がなくなった", "歩幅が小さい"],
        ["着地のときにかかとから強く着いている"],
    ],
}
PRAISE_OR_BETTER = {text for sessions in STORY.values() for s in sessions for text in s
                    if text not in ("冒頭の自己紹介が長い", "声が小さく、自信がなさそうに聞こえる", "腕振りが小さい",
                                    "クロージングで次回のアポイントを取れていない", "かかと着地が続いている",
                                    "歩幅が小さい", "冒頭の自己紹介がまた長くなっている",
                                    "着地のときにかかとから強く着いている")}


@pytest.mark.parametrize("text", ["資料の説明は引き続き分かりやすい", "かかと着地がなくなった", "以前より落ち着いて話せている",
                                  "遅刻しなくなった", "遅れがなくなった", "腕振りは大きくなった",
                                  "課題を深掘りする質問ができるようになった", "かかと着地は見られなくなった"])
def test_the_issue_s_praise_and_improvements_are_positive(text: str) -> None:
    assert is_positive(text, RS)
    assert finding_kind(text, RS) in ("praise", "improvement")


@pytest.mark.parametrize("text", ["声量は改善されていない", "冒頭の自己紹介がまた長くなっている",
                                  "前回より改善はしたものの、まだ音程が不安定", "ヒアリングは上手だが、提案につなげられていない",
                                  "丁寧に構えすぎて、始動までに時間がかかっている", "コメントが古くなっている"])
def test_problems_that_carry_praise_or_change_words_stay_problems(text: str) -> None:
    assert finding_kind(text, RS) == "problem"


def _replay(db_url: str) -> Tracker:
    t = Tracker(db_url, tenant="coach", ruleset=RS, config=TrackerConfig(candidate_expiry_sessions=2))
    for user, sessions in STORY.items():
        for n, findings in enumerate(sessions, 1):
            report = t.ingest(user, f"s{n}", findings, at=START + timedelta(days=7 * n))
            surfaced = report.new + report.remaining + report.deferred + report.regressions
            assert not [e.text for e in surfaced if e.text in PRAISE_OR_BETTER], (user, n)
            said = [e.text for e in report.improvements if e.source == "improvement"]
            assert set(said) == {f for f in findings if finding_kind(f, RS) == "improvement"}, (user, n)
    return t


def test_the_coach_story_replayed_tells_the_truth(db_url: str) -> None:
    with _replay(db_url) as t:
        titles = {v.title for v in t.list_issues("sato")}
        assert not titles & PRAISE_OR_BETTER  # no praise or improvement became an issue
        last = t.latest_report("sato")
        assert last is not None and [e.text for e in last.regressions] == ["冒頭の自己紹介がまた長くなっている"]
        assert last.new == []  # 再発, not 新規
        opening = next(v for v in t.list_issues("sato") if v.title == "冒頭の自己紹介が長い")
        s2 = t.session_summaries("sato")[1]
        assert s2["improved"] == 2 and s2["new"] == 0  # 簡潔になり… and 引き続き分かりやすい
        [linked] = [d for d in t.show("sato", opening.issue_id).detections if d.outcome.value == "improvement"]
        assert linked.text.startswith("冒頭の自己紹介は簡潔になり") and linked.tier.value == "similar"
        assert t.latest_markers("sato")[opening.issue_id] == "regressed"


def test_an_improvement_is_linked_to_the_issue_it_improves_and_is_not_absent(db_url: str) -> None:
    with Tracker(db_url, tenant="coach", ruleset=RS) as t:
        first = t.ingest("u", "s1", ["冒頭の自己紹介が長い"]).new[0]
        report = t.ingest("u", "s2", ["冒頭の自己紹介は簡潔になり、すぐに本題に入れるようになった"])
        assert [(e.issue_id, e.tier.value if e.tier else None) for e in report.improvements] == [
            (first.issue_id, "similar")]
        assert report.absent == [] and report.new == []
        assert t.latest_markers("u") == {first.issue_id: "improved"}


def test_absent_is_not_improved(db_url: str) -> None:
    with Tracker(db_url, tenant="coach", ruleset=RS) as t:
        first = t.ingest("u", "s1", ["冒頭の自己紹介が長い"]).new[0]
        report = t.ingest("u", "s2", ["声が小さい"])
        assert report.improvements == [] and [e.issue_id for e in report.absent] == [first.issue_id]
        assert t.latest_markers("u")[first.issue_id] == "absent"


@pytest.mark.parametrize("gone", ["resolved", "expired"])
def test_a_returning_resolved_or_expired_issue_is_a_regression(db_url: str, gone: str) -> None:
    config = TrackerConfig(miss_sessions_to_resolve=1, candidate_expiry_sessions=1)
    with Tracker(db_url, tenant="coach", ruleset=RS, config=config) as t:
        first = {"text": "踏み込みが弱い", "confidence": 0.95 if gone == "resolved" else 0.5}
        iid = t.ingest("u", "s1", [first]).new[0].issue_id
        t.ingest("u", "s2", ["視線が下がる"])
        assert t.show("u", iid or "").issue.status == gone
        report = t.ingest("u", "s3", ["踏み込みの弱さが目立つ"])
        assert [e.issue_id for e in report.regressions] == [iid] and report.new == []
        assert t.show("u", iid or "").issue.status == "open"
        assert t.show("u", iid or "").events[-1].event == "return"
        assert t.latest_markers("u")[iid or ""] == "regressed"


def test_the_cli_says_再発_for_a_returning_expired_issue(db_url: str) -> None:
    import json

    from click.testing import CliRunner

    from sadame.cli import cli

    def run(*args: str, input: str | None = None) -> str:
        out = CliRunner().invoke(cli, ["track", *args, "--db", db_url, "--tenant", "coach"], input=input)
        assert out.exit_code == 0, out.output
        return out.output

    for n, findings in enumerate([["握力が弱い"], ["視線が下がる"], ["視線が下がる"], ["視線が下がる"]], 1):
        run("ingest", "--user", "u", "--session", f"s{n}", "-", input=json.dumps(findings, ensure_ascii=False))
    listed = run("list", "--user", "u", "--status", "expired")
    assert "握力が弱い" in listed
    out = run("ingest", "--user", "u", "--session", "s5", "-", input='["握力の弱さが気になる"]')
    assert next(line.split()[:3] for line in out.splitlines() if line.startswith("regressions"))[2] == "再発"
    assert "再発" in run("list", "--user", "u")
