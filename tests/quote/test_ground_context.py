"""Grounding that reads context (issue 21 item 6): a frequency's period, the noun a counter
counts, counter synonyms and abbreviated dates. Every test runs the real scanner."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.quote import check_output
from sadame.quote._ground import _ABBREVIATED_DATE


def _number(source: str, output: str, text: str) -> tuple[bool, bool]:
    """(grounded, context_differs) of the claim number spelled ``text``."""
    result = check_output(source, output)
    (number,) = [n for n in result.numbers.numbers if n.mention.text == text]
    return number.grounded, number.context_differs


@pytest.mark.parametrize(
    ("source", "output", "text"),
    [
        ("点検は年1回実施する。", "点検は月1回実施する。", "1回"),
        ("勤務は月3日とする。", "勤務は週3日とする。", "3日"),
        ("点検は年間2回。", "点検は毎月2回。", "2回"),
        ("服用は1日あたり2回。", "服用は週2回。", "2回"),
        ("参加費は3万円。", "参加費は1人あたり3万円。", "3万円"),
    ],
)
def test_a_different_period_is_context_differs(source: str, output: str, text: str) -> None:
    assert _number(source, output, text) == (False, True)


@pytest.mark.parametrize(
    ("source", "output", "text"),
    [
        ("点検は年1回実施する。", "点検は年1回実施する。", "1回"),
        ("点検は年間1回実施する。", "点検は毎年1回実施する。", "1回"),
        ("服用は1日2回。", "服用は1日あたり2回。", "2回"),
        # the claim states no period: grounded at the claim's precision, like a date
        ("参加費は1人あたり3万円。", "参加費は3万円。", "3万円"),
        ("点検は月1回実施する。", "点検を1回実施する。", "1回"),
    ],
)
def test_the_same_period_or_none_in_the_claim_is_grounded(source: str, output: str, text: str) -> None:
    assert _number(source, output, text) == (True, False)


def test_a_different_counted_noun_is_context_differs() -> None:
    assert _number("保育士を2名増員する。", "保健師を2名増員する。", "2名") == (False, True)


@pytest.mark.parametrize(
    ("source", "output", "text"),
    [
        ("保育士を2名増員する。", "保育士を2名増員する。", "2名"),
        ("保育士を2名増員する。", "保育士の増員は2名。", "2名"),  # a paraphrase: the noun is in the context
        ("| 職種 | 人数 |\n|---|---|\n| 保育士 | 2名 |", "保健師を2名増員する。", "2名"),  # a bare cell
        ("影響額は約3,500,000円と見込まれる。", "金額にして 約350万円", "350万円"),  # money: by value
    ],
)
def test_the_same_noun_a_paraphrase_or_no_noun_is_grounded(source: str, output: str, text: str) -> None:
    assert _number(source, output, text) == (True, False)


@pytest.mark.parametrize(
    ("source", "output", "text"),
    [("担当者は2名。", "担当者は2人。", "2人"), ("担当者は2人。", "担当者は2名。", "2名"), ("3カ所で実施。", "3か所で実施。", "3か所")],
)
def test_counter_synonyms_are_the_same_value(source: str, output: str, text: str) -> None:
    assert _number(source, output, text) == (True, False)


def test_different_counters_stay_different() -> None:
    assert _number("受付は2件。", "受付は2個。", "2個")[0] is False


@pytest.mark.parametrize("claim", ["R5年4月", "R5.4", "2023/04", "2023-04", "2023年4月", "令和5年4月", "R5.4.1", "R05.04"])
def test_abbreviated_dates_ground_at_the_claims_precision(claim: str) -> None:
    assert _number("令和5年4月1日に施行する。", f"{claim}に施行する。", claim) == (True, False)


@pytest.mark.parametrize("claim", ["R5.4.2", "R4.4", "2023/05", "R5年5月"])
def test_abbreviated_dates_of_another_day_are_not_grounded(claim: str) -> None:
    assert _number("令和5年4月1日に施行する。", f"{claim}に施行する。", claim)[0] is False


def test_heisei_and_showa_initials_are_eras() -> None:
    assert _number("平成30年4月1日に施行する。", "H30.4に施行する。", "H30.4") == (True, False)
    assert _number("昭和64年1月7日まで。", "S64.1.7まで。", "S64.1.7") == (True, False)


def test_a_more_precise_abbreviated_date_is_not_grounded_by_a_month() -> None:
    assert _number("令和5年4月に施行する。", "R5.4.1に施行する。", "R5.4.1")[0] is False


# The abbreviated-date pattern as first written (lookbehind first, the era and the year as
# groups): the reference the faster, first-character-first pattern must match exactly.
_DATE_AS_WRITTEN = re.compile(
    "(?<![A-Za-z0-9])(?:([RHS])([0-9]{1,2})(?:年([0-9]{1,2})月(?:([0-9]{1,2})日)?|\\.([0-9]{1,2})(?:\\.([0-9]{1,2}))?)"
    "|((?:19|20)[0-9]{2})/([0-9]{1,2})(?![0-9/]))(?![0-9.])"
)


def _as_written(match: re.Match[str]) -> tuple[object, ...]:
    """A match of :data:`_ABBREVIATED_DATE` as the groups of :data:`_DATE_AS_WRITTEN`."""
    era_year, month_j, day_j, month_d, day_d, month_s = match.groups()
    text = match.group(0)
    if era_year is not None:
        return (match.span(), text[0], era_year, month_j, day_j, month_d, day_d, None, None)
    return (match.span(), None, None, None, None, None, None, text[:4], month_s)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="RHSA12090345年月日./ aZ-x\n", max_size=24), st.integers(0, 24))
def test_abbreviated_date_pattern_matches_as_first_written(text: str, end: int) -> None:
    wanted = [(m.span(), *m.groups()) for m in _DATE_AS_WRITTEN.finditer(text, 0, end)]
    assert [_as_written(m) for m in _ABBREVIATED_DATE.finditer(text, 0, end)] == wanted
