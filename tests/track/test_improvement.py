"""An improvement is linked to the issue it improves by its subject when its words score too low:
「声の大きさは改善された」 names 声 and the dimension 大きさ of 「声が小さく聞き取りにくい」."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sadame.track import Tracker, default_ruleset
from sadame.track._improvement import (
    IMPROVEMENT_LINK_SCORE,
    DimensionsError,
    improvement_target,
    parse_dimensions,
    subject_issue,
)
from sadame.track._matching import MatchCandidate

RS = default_ruleset()
START = datetime(2026, 1, 5, tzinfo=UTC)


def _issue(iid: str, title: str, status: str = "open") -> MatchCandidate:
    return MatchCandidate(iid, title, title, status)


POOL = [_issue("voice", "声が小さく聞き取りにくい"), _issue("long", "説明が長すぎる"), _issue("arm", "腕振りが小さい"),
        _issue("questions", "質問が少ない"), _issue("gaze", "目線が低い"), _issue("tempo", "話すテンポが遅い")]


@pytest.mark.parametrize(("text", "expected"), [
    ("声の大きさは改善された", "voice"),
    ("説明の長さが改善された", "long"),
    ("腕の振りの大きさが良くなった", "arm"),  # 腕 and 振り are parts of the compound 腕振り
    ("質問の量が増えた", "questions"),
    ("目線の高さが改善された", "gaze"),
    ("テンポが改善された", "tempo"),
])
def test_an_improvement_is_linked_by_its_subject(text: str, expected: str) -> None:
    assert subject_issue(text, POOL) == (expected, IMPROVEMENT_LINK_SCORE)
    assert improvement_target(text, POOL) is not None


@pytest.mark.parametrize("text", [
    "大きさは改善された",  # a bare dimension names no topic
    "姿勢は良くなった",  # nothing of the user's issues is about 姿勢
    "話すスピードは改善された",  # two issues would do (話す... is ambiguous without the tempo one)
])
def test_no_subject_link_without_a_topic_or_with_two_candidates(text: str) -> None:
    pool = [*POOL, _issue("fast", "話すのが速すぎる")]
    assert subject_issue(text, pool) is None


def test_a_subject_link_skips_expired_and_ignored_issues() -> None:
    assert subject_issue("声の大きさは改善された", [_issue("v", "声が小さい", "expired")]) is None
    assert subject_issue("声の大きさは改善された", [_issue("v", "声が小さい", "ignored")]) is None


def test_a_malformed_dimensions_file_is_an_error_naming_the_list() -> None:
    with pytest.raises(DimensionsError, match="format"):
        parse_dimensions({"format": "x"})
    with pytest.raises(DimensionsError, match=r"dimensions\[0\]"):
        parse_dimensions({"format": "sadame.dimensions/1", "dimensions": [[]], "change_words": ["良く"]})


def test_the_voice_improvement_marks_the_voice_issue_改善_not_absent(db_url: str) -> None:
    with Tracker(db_url, tenant="qa", ruleset=RS) as t:
        sessions = [["声が小さく聞き取りにくい"], ["声が小さく聞き取りにくい"], ["声の大きさは改善された"]]
        first, _, last = [t.ingest("E", f"s{n}", s, at=START + timedelta(days=7 * n))
                          for n, s in enumerate(sessions, 1)]
        iid = first.new[0].issue_id
        assert [(e.issue_id, e.tier.value if e.tier else None) for e in last.improvements] == [(iid, "similar")]
        assert last.absent == [] and last.new == []
        assert t.latest_markers("E") == {iid: "improved"}
        assert t.show("E", iid or "").issue.status == "open"  # evidence, not a resolution


@pytest.mark.parametrize(("text", "title"), [
    ("前回の課題だった声量は十分になっていた", "**課題：** アルコールの量が多い"),  # 課題 speaks of the coaching; 量 is not 声量
    ("指がよく回るようになった", "レビューで同じ指摘を受けることが多い"),  # 指 of 指摘 is chance
])
def test_no_subject_link_by_a_meta_word_or_a_one_character_part(text: str, title: str) -> None:
    assert subject_issue(text, [_issue("x", title)]) is None


def test_a_compound_of_the_issue_s_words_is_its_subject() -> None:
    assert subject_issue("腕振りが上手になった", [_issue("arm", "腕の振りが小さい")]) == ("arm", IMPROVEMENT_LINK_SCORE)


def test_a_subject_link_never_goes_to_an_issue_that_is_not_a_problem() -> None:
    stored_praise = _issue("p", "声の大きさが十分でよい")
    assert subject_issue("声の大きさは改善された", [stored_praise]) is not None  # without a ruleset
    assert subject_issue("声の大きさは改善された", [stored_praise], ruleset=RS) is None
