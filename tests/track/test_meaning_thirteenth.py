"""Edges of the thirteenth meaning pass (issue 20): a past with no fault, then a now that falls short."""

from __future__ import annotations

import pytest

from sadame.track import default_ruleset
from sadame.track._meaning import _KANJI_NUMBER, _falls_short, _kanji_value
from sadame.track._ruleset import finding_kind


@pytest.mark.parametrize(("before", "now", "expected"), [
    ("先月は満足度5が続いていたが、", "今回は3にとどまった", True),  # only so far (とどまる, normalized 留まる)
    ("前回は寸法を測っていたが、", "今回は目分量で済ませていた", True),  # 済ま+せる: made do
    ("先週は資料で確かめていたのに、", "今回は記事一本だけで書いている", True),  # だけで
    ("先月覚えた手順が、", "今回はすっかり抜け落ちていた", True),  # a practice slipped away
    ("以前はミスが10件あったが、", "今回は2件にとどまった", False),  # a fault noun: fewer faults
    ("以前は30分かかっていたが、", "今回は5分だけで終えられた", False),  # 〜られた: a "can" now
    ("以前は力みが残っていたが、", "今回は肩の力が抜けていた", False),  # the past was a fault
    ("前回は資料を見ていたが、", "今回は資料だけでなく現場も見ていた", False),  # だけでなく: not "only"
    ("前回は跡が目立っていたが、", "今回は跡が残っていなかった", False),  # negated, and a fault past
])
def test_a_now_that_falls_short(before: str, now: str, expected: bool) -> None:
    assert _falls_short(before, now, default_ruleset().negative) is expected


@pytest.mark.parametrize(("text", "expected"), [("三時間", "3時間"), ("十五分", "15分"), ("四十分", "40分"),
                                                ("十分", "十分"), ("十秒", "10秒"), ("二十一日", "21日"), ("三つ", "三つ")])
def test_kanji_numerals_before_a_time_unit(text: str, expected: str) -> None:
    assert _KANJI_NUMBER.sub(_kanji_value, text) == expected


@pytest.mark.parametrize(("text", "kind"), [
    ("先月は三時間台で仕上げていたが、今回は五時間以上かかった。", "problem"),
    ("先週は一時間かかっていたが、今回は二十分で仕上がった。", "improvement"),
])
def test_a_longer_time_in_kanji_numerals_is_a_loss(text: str, kind: str) -> None:
    assert finding_kind(text, default_ruleset()) == kind
