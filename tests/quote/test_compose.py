"""Numbers read across neighbouring scanner matches (sadame.quote._compose), through grounding.

Each case here was grounded for the wrong reason (or missed) before composing: the blind
grounding set g2 showed them (evals/quote/blind_ground2).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sadame.quote import ground_numbers
from sadame.quote._ground import scan_mentions


def _values(text: str) -> list[tuple[str, str]]:
    return [(m.text, m.value) for m in scan_mentions(text)[0]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("当日は11時30分に下校", [("11時30分", "11時30分")]),
        ("午前10時00分開始", [("10時00分", "10時")]),
        ("午後5時に閉館", [("5時", "17時")]),
        ("2024年（令和6年）7月19日", [("2024年（令和6年）7月19日", "2024-07-19")]),
        ("令和6年（2024年）7月", [("令和6年（2024年）7月", "2024-07")]),
        ("2024年7月24日〜28日の製品", [("2024年7月24日", "2024-07-24"), ("28日", "2024-07-28")]),
        ("11月18日（月）〜22日（金）", [("11月18日", "--11-18"), ("22日", "--11-22")]),
        ("7月17日に判明し、翌18日に停止", [("7月17日", "--07-17"), ("18日", "--07-18")]),
        ("10月31日（金）17時", [("10月31日", "--10-31"), ("17時", "--10-31T17時")]),
        ("10月31日10時まで", [("10月31日", "--10-31"), ("10時", "--10-31T10時")]),
        ("2025年9月1日〜10月31日", [("2025年9月1日", "2025-09-01"), ("10月31日", "2025-10-31")]),
        ("第3編成を投入", [("3", "第3")]),
    ],
)
def test_composed_values(text: str, expected: list[tuple[str, str]]) -> None:
    assert _values(text) == expected


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("7月1日から30日間", ("30日間", "30日間")),
        ("4月1日から14日以内に", ("14日", "14日")),
        ("5月2日。翌3日は休み", ("3日", "3日")),
        ("3時間30分", ("30分", "1800秒")),
    ],
)
def test_what_is_not_composed(text: str, kept: tuple[str, str]) -> None:
    """A length of days, a day in another sentence and a duration keep the scanner's values."""
    assert kept in _values(text)


def _grounded(claim: str, source: str) -> list[bool]:
    return [number.grounded for number in ground_numbers(claim, source).numbers]


def test_a_clock_time_is_one_value() -> None:
    source = "開演9時30分。下校11時50分。"
    assert _grounded("下校は11時30分です。", source) == [False]
    assert _grounded("開演は9時30分です。", source) == [True]


def test_a_time_belongs_to_its_date() -> None:
    source = "受付期間：2025年9月1日（月）10時 〜 10月31日（金）17時"
    assert _grounded("締切は10月31日10時です。", source) == [True, False]
    assert _grounded("締切は10月31日17時です。", source) == [True, True]
    assert _grounded("締切は17時です。", source) == [True]  # a bare time: grounded by the dated one
    assert _grounded("締切は2025年10月31日です。", source) == [True]


def test_a_bare_time_does_not_ground_a_dated_one() -> None:
    assert _grounded("締切は10月31日17時です。", "締切は10月31日。受付は17時まで。") == [True, False]


def test_a_range_end_is_a_date_of_its_month() -> None:
    source = "賞味期限 2024.07.24 〜 2024.07.27"
    assert _grounded("賞味期限は2024年7月24日〜28日です。", source) == [True, False]
    assert _grounded("賞味期限は2024年7月24日〜27日です。", source) == [True, True]


def test_a_parenthesised_era_year_does_not_split_a_date() -> None:
    source = "2024年（令和6年）7月19日\n株式会社みどり食品"
    assert _grounded("2024年7月19日に発表しました。", source) == [True]
    assert _grounded("令和6年7月19日に発表しました。", source) == [True]
    assert _grounded("2024年7月18日に発表しました。", source) == [False]


def test_an_ordinal_is_not_a_count() -> None:
    source = "新型車両 第3編成（8両）を投入"
    assert _grounded("新型車両を3編成投入しました。", source) == [False]
    assert _grounded("第3編成を投入しました。", source) == [True]


def test_a_heading_number_grounds_nothing() -> None:
    source = "## 3 その他\n- 新型車両を1編成投入"
    assert _grounded("車両を3編成投入しました。", source) == [False]
    assert _grounded("車両を1編成投入しました。", source) == [True]


@given(st.text(alphabet="0123456789年月日時分第〜（）()翌、。 午後#\n", max_size=40))
def test_composed_mentions_stay_in_order_and_inside_the_text(text: str) -> None:
    mentions = scan_mentions(text)[0]
    previous_end = 0
    for mention in mentions:
        assert 0 <= mention.start < mention.end <= len(text)
        assert mention.start >= previous_end
        assert text[mention.start : mention.end] == mention.text
        previous_end = mention.end


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1日2回服用", [("2回", "2回")]),
        ("1人あたり3万円", [("3万円", "30000円")]),
        ("1件20分で面接", [("20分", "1200秒")]),
        ("1日平均54.4万人", [("1日", "1日"), ("54.4万人", "544000人")]),
        ("1人、2人", [("1人", "1人"), ("2人", "2人")]),
    ],
)
def test_a_rates_unit_is_not_a_figure(text: str, expected: list[tuple[str, str]]) -> None:
    assert _values(text) == expected


def test_a_rate_is_grounded_by_the_same_rate_only() -> None:
    """「1日2回」 was ✔ on its 「1日」 by any 1日 of the source; now only its 2回 per day is checked."""
    assert _grounded("1日2回服用します。", "朝夕の1日2回服用。") == [True]
    assert _grounded("1日2回服用します。", "毎月1日に検査。週2回服用。") == [False]
