"""Issue 20: suggestions worth clicking -- never of the other polarity, no merge button below the
calibrated score."""

from __future__ import annotations

from sadame.track import Tracker, default_ruleset, load_ruleset
from sadame.track._similar import MERGE_OFFER_SCORE
from sadame.track._views import TrackerConfig

CONFIG = TrackerConfig(max_new_per_session=10)


def test_an_improvement_stored_as_an_issue_is_never_suggested_for_a_problem(db_url: str) -> None:
    # the seed's ruleset stored the improvement as a problem (what the coach saw in issue 20)
    with Tracker(db_url, tenant="t", ruleset=load_ruleset("seed-example"), config=CONFIG) as old:
        old.ingest("u", "s1", ["かかと着地は見られなくなった", "かかと着地が続いている", "腕振りが小さい"])
        problem = next(v for v in old.list_issues("u") if v.title == "かかと着地が続いている")
        assert old.similar("u", problem.issue_id)[0].title == "かかと着地は見られなくなった"  # before
    with Tracker(db_url, tenant="t", ruleset=default_ruleset(), config=CONFIG) as t:
        titles = [s.title for s in t.similar("u", problem.issue_id)]
        assert "かかと着地は見られなくなった" not in titles


def test_only_suggestions_at_or_above_the_calibrated_score_offer_a_merge(db_url: str) -> None:
    texts = ["声が小さく、自信がなさそうに聞こえる", "声が小さく、自信がなさそうに見える", "声の大きさが足りない",
             "語尾の声が小さい", "自信がなさそうな表情"]
    with Tracker(db_url, tenant="t", config=CONFIG) as t:
        report = t.ingest("u", "s1", texts)
        first = report.new[0].issue_id or ""
        found = t.similar("u", first, limit=10)
        assert len(found) >= 3
        assert {s.merge_offered for s in found} == {True, False}
        assert all(s.merge_offered == (s.score >= MERGE_OFFER_SCORE) for s in found)


def _both(t: Tracker, user: str, iid: str) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    from sadame.track._similar import similar_issues_scan

    indexed = [(s.issue_id, s.score) for s in t.similar(user, iid, limit=10)]
    with t.engine.connect() as conn:
        scanned = [(s.issue_id, s.score) for s in similar_issues_scan(conn, t.tenant, user, iid, limit=10,
                                                                       ruleset=t.ruleset)]
    return indexed, scanned


def test_the_index_answers_like_the_simple_scan_as_sessions_and_merges_happen(db_url: str) -> None:
    texts = ["踏み込みが弱い", "踏み込みの弱さが目立つ", "握力が弱い", "視線が下がる", "視線が落ちる", "呼吸が浅い",
             "声が小さく、自信がなさそうに聞こえる", "語尾の声が小さい", "フォームが崩れる"]
    with Tracker(db_url, tenant="t", config=CONFIG) as t:
        first = t.ingest("u", "s1", texts[:5])
        ids = [e.issue_id or "" for e in first.new + first.remaining + first.deferred]
        for iid in ids:
            indexed, scanned = _both(t, "u", iid)
            assert indexed == scanned
        t.ingest("u", "s2", [*texts[5:], "視線の落ち方が気になる"])  # new issues and texts: read incrementally
        target = t.list_issues("u")[3].issue_id
        for view in t.list_issues("u"):
            assert _both(t, "u", view.issue_id)[0] == _both(t, "u", view.issue_id)[1]
        t.merge("u", target, [t.list_issues("u")[4].issue_id])
        merged_away = t.list_issues("u", include_merged=True)[4].issue_id
        for view in t.list_issues("u"):
            indexed, scanned = _both(t, "u", view.issue_id)
            assert merged_away not in [i for i, _ in indexed]
            assert [i for i, _ in indexed if i != target] == [i for i, _ in scanned if i != target]


def test_a_merge_a_coach_confirmed_becomes_a_suggestion_for_other_users_not_a_link(db_url: str) -> None:
    with Tracker(db_url, tenant="t", config=CONFIG) as t:
        for user in ("a", "b"):
            t.ingest(user, "s1", ["歩幅が小さい", "ストライドが狭い", "視線が下がる"])

        def ids(user: str) -> dict[str, str]:
            return {v.title: v.issue_id for v in t.list_issues(user)}

        assert "ストライドが狭い" not in [s.title for s in t.similar("b", ids("b")["歩幅が小さい"])]  # no shared word
        t.merge("a", ids("a")["歩幅が小さい"], [ids("a")["ストライドが狭い"]])
        found = t.similar("b", ids("b")["歩幅が小さい"])
        assert found[0].title == "ストライドが狭い" and found[0].confirmed_elsewhere and found[0].merge_offered
        assert all(v.merged_into is None for v in t.list_issues("b", include_merged=True))  # nothing linked
        report = t.ingest("b", "s2", ["ストライドが狭い"])
        assert [e.issue_id for e in report.remaining] == [ids("b")["ストライドが狭い"]]  # its own issue, not 歩幅
        # the hint holds digests only: erasing user a leaves no text of theirs
        t.delete_user("a")
        assert not any("歩幅" in str(r) or "ストライド" in str(r) for r in t.export() if r.get("user_id") == "")
