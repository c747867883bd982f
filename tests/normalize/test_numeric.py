"""The numeric step of the contract: golden table, span invariants, linear time, idempotence.

The golden table (``data/numeric.json``) holds hand-written expectations of
``normalize(input, preset="numeric")``: NFKC, Markdown strip, numeric step,
whitespace deleted. Every rule of the module docstring of
:mod:`sadame.normalize.numeric` has at least one case there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import normalize, normalize_with_offsets
from sadame.normalize.numeric import (
    ERAS,
    NumericMatch,
    apply_numeric,
    scan_numeric,
    scan_spans,
)

DATA = Path(__file__).parent / "data" / "numeric.json"
GOLDEN: list[dict[str, str]] = json.loads(DATA.read_text(encoding="utf-8"))


def _case_id(case: dict[str, str]) -> str:
    return f"{case['input']}->{case['expected']}"


def _check_spans(text: str, matches: list[NumericMatch]) -> None:
    previous_end = 0
    for m in matches:
        assert 0 <= m.start < m.end <= len(text), (text, m)
        assert m.start >= previous_end, (text, matches)
        assert m.kind in ("number", "amount", "percent", "date")
        assert m.value, m
        previous_end = m.end


# -- the golden table ---------------------------------------------------------------


def test_golden_table_is_large_and_well_formed() -> None:
    assert len(GOLDEN) >= 100
    inputs = [case["input"] for case in GOLDEN]
    assert len(inputs) == len(set(inputs)), "duplicate golden inputs"
    for case in GOLDEN:
        assert set(case) == {"input", "expected", "note"}, case
        assert case["note"].strip(), case
    negatives = [c for c in GOLDEN if c["input"] == c["expected"]]
    assert len(negatives) >= 40, "the table must pin what stays unchanged, too"


@pytest.mark.parametrize("case", GOLDEN, ids=_case_id)
def test_golden(case: dict[str, str]) -> None:
    assert normalize(case["input"], preset="numeric") == case["expected"], case["note"]


@pytest.mark.parametrize("case", GOLDEN, ids=_case_id)
def test_golden_offsets_agree_with_text_path(case: dict[str, str]) -> None:
    # The mapped pipeline calls scan_numeric too: both paths must produce the same text,
    # and every output character maps back into the input.
    mapped = normalize_with_offsets(case["input"], preset="numeric")
    assert mapped.text == case["expected"]
    for i in range(len(mapped.text)):
        a, b = mapped.original_span(i, i + 1)
        assert 0 <= a < b <= len(case["input"])


NEGATIVES = [c["input"] for c in GOLDEN if c["input"] == c["expected"] and " " not in c["input"]]


@pytest.mark.parametrize("text", NEGATIVES)
def test_negatives_have_no_match(text: str) -> None:
    assert scan_numeric(text) == []
    assert apply_numeric(text) == text


# -- matches: kinds, values, spans ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5000万人", [(0, 5, "50000000", "amount", "50000000人", "人")]),
        ("20億", [(0, 3, "2000000000", "number", "2000000000", "")]),
        ("3割5分", [(0, 4, "35%", "percent", "35%", "%")]),
        ("50パーセント", [(0, 7, "50%", "percent", "50%", "%")]),
        ("令和8年7月18日", [(0, 9, "2026-07-18", "date", "2026-07-18", "")]),
        ("令和8年", [(0, 4, "2026年", "amount", "2026年", "年")]),
        ("平成31年度", [(0, 5, "2019年", "amount", "2019年度", "年度")]),
        (
            "1〜2万円",
            [(0, 1, "10000", "amount", "10000円", "円"), (2, 4, "20000", "amount", "20000円", "円")],
        ),
        ("七月十八日", [(0, 5, "7月18日", "date", "--07-18", "")]),
        ("一億二千万円", [(0, 5, "120000000", "amount", "120000000円", "円")]),
        ("3〜5割", [(0, 1, "30", "percent", "30%", "%"), (2, 4, "50%", "percent", "50%", "%")]),
        ("1.23456万", [(0, 8, "12345.6", "number", "12345.6", "")]),
    ],
)
def test_match_fields(text: str, expected: list[tuple[Any, ...]]) -> None:
    got = [(m.start, m.end, m.replacement, m.kind, m.value, m.unit) for m in scan_numeric(text)]
    assert got == expected


def test_include_unchanged_reports_canonical_numbers() -> None:
    text = "売上120000000円、率35%、日付2026-07-18、5分"
    assert scan_numeric(text) == []
    found = scan_numeric(text, include_unchanged=True)
    values = [(m.kind, m.value) for m in found]
    assert ("amount", "120000000円") in values
    assert ("percent", "35%") in values
    assert ("date", "2026-07-18") in values
    assert ("amount", "5分") in values
    for m in found:
        assert text[m.start : m.end] == m.replacement


def test_include_unchanged_is_a_superset() -> None:
    text = "一億二千万円と120000000円、3割と30%、令和8年と2026年"
    changed = scan_numeric(text)
    everything = scan_numeric(text, include_unchanged=True)
    assert set(changed) <= set(everything)
    assert len(everything) > len(changed)
    _check_spans(text, everything)


def test_apply_numeric_replaces_exactly_the_spans() -> None:
    text = "売上は1億2000万円、前年比3割5分増、令和8年7月18日に発表"
    out = apply_numeric(text)
    assert out == "売上は120000000円、前年比35%増、2026-07-18に発表"
    rebuilt, pos = [], 0
    for m in scan_numeric(text):
        rebuilt += [text[pos : m.start], m.replacement]
        pos = m.end
    assert "".join([*rebuilt, text[pos:]]) == out


@pytest.mark.parametrize("case", GOLDEN, ids=_case_id)
def test_golden_spans_are_sorted_and_inside(case: dict[str, str]) -> None:
    text = case["input"]
    _check_spans(text, scan_numeric(text))
    _check_spans(text, scan_numeric(text, include_unchanged=True))


# -- eras -----------------------------------------------------------------------------


@pytest.mark.parametrize("era", sorted(ERAS))
def test_era_boundaries_follow_the_table(era: str) -> None:
    first_year, first_day, last_day, last_year = ERAS[era]

    def spelled(day: Any) -> str:
        year = day.year - first_year + 1
        return f"{era}{'元' if year == 1 else year}年{day.month}月{day.day}日"

    assert apply_numeric(spelled(first_day)) == first_day.isoformat()
    assert apply_numeric(spelled(last_day)) == last_day.isoformat()
    before = first_day.fromordinal(first_day.toordinal() - 1)
    if before.year >= first_year:
        assert apply_numeric(spelled(before)) == spelled(before)
    if last_day.year < 9999:
        after = last_day.fromordinal(last_day.toordinal() + 1)
        assert apply_numeric(spelled(after)) == spelled(after)
    assert apply_numeric(f"{era}{last_year}年") == f"{first_year + last_year - 1}年"
    assert apply_numeric(f"{era}{last_year + 1}年") == f"{era}{last_year + 1}年"


def test_module_docstring_examples() -> None:
    import doctest

    from sadame.normalize import numeric

    result = doctest.testmod(numeric)
    assert result.attempted >= 2
    assert result.failed == 0


# -- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [None, 12, b"12", ["1"]])
def test_non_str_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match="expects str"):
        scan_numeric(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "\ud800", "1\x00万", "令和", "令和元", "年月日", "%割分厘", "〜〜"])
def test_odd_input_is_defined(text: str) -> None:
    out = apply_numeric(text)
    assert isinstance(out, str)
    assert apply_numeric(out) == out


# -- linear time on adversarial input ---------------------------------------------------

ADVERSARIAL = {
    "digits": "1" * 10**6,
    "kanji digits": "一" * 10**6,
    "comma list": "1," * 500_000,
    "era names": "令和" * 500_000,
    "era names with digit": "令和1" * 333_333,
    "decimal chain": "1.1" * 333_333,
    "big multipliers": "1万" * 500_000,
    "spaced digits": "1 " * 500_000,
    "spaces then multiplier": "1" + " " * 10**6 + "万",
    "multiplier then spaces": "1万" + " " * 10**6,
    "range then spaces": "1〜" + " " * 10**6,
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_input_completes(name: str) -> None:
    text = ADVERSARIAL[name]
    matches = scan_numeric(text)
    _check_spans(text, matches)
    if name in ("big multipliers",):
        assert apply_numeric(text) == text  # 1万1万... is one run that does not parse
    if name == "multiplier then spaces":
        assert apply_numeric(text) == "10000" + " " * 10**6
    if name in ("digits", "kanji digits", "comma list", "era names", "decimal chain"):
        assert matches == []


# -- properties -------------------------------------------------------------------------

_PIECES = [
    *"0123456789",
    *"〇零一二三四五六七八九十百千万億兆",
    *",.",
    *"年月日割分厘%円人〜~-/ 　",
    "パーセント",
    "令和",
    "平成",
    "昭和",
    "元",
    "数",
    "何",
    "ヶ月",
    "個人",
    "a",
    "、",
]
_NUMERIC_TEXT = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join)


@settings(max_examples=300, deadline=None)
@given(_NUMERIC_TEXT)
def test_apply_numeric_is_idempotent(text: str) -> None:
    once = apply_numeric(text)
    assert apply_numeric(once) == once


@settings(max_examples=300, deadline=None)
@given(_NUMERIC_TEXT)
def test_canonical_output_reads_the_same_values(text: str) -> None:
    # Grounding may scan either spelling: the original and its canonical output must
    # yield the same numeric expressions, kinds and values.
    def values(t: str) -> list[tuple[str, str]]:
        return [(m.kind, m.value) for m in scan_numeric(t, include_unchanged=True)]

    assert values(apply_numeric(text)) == values(text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(_NUMERIC_TEXT, st.text(max_size=40)))
def test_spans_are_sorted_non_overlapping_and_inside(text: str) -> None:
    for include in (False, True):
        matches = scan_numeric(text, include_unchanged=include)
        _check_spans(text, matches)
        if not include:
            assert all(text[m.start : m.end] != m.replacement for m in matches)


_NUMERAL_CHARS = list("0123456789〇零一二三四五六七八九十百千万億兆")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters=_NUMERAL_CHARS), max_size=40))
def test_text_without_numerals_is_untouched(text: str) -> None:
    assert scan_numeric(text) == []
    assert apply_numeric(text) == text


# -- the memo: one parse per distinct context gives what parsing every candidate gives ----

_MEMO_PIECES = [
    *_PIECES,
    *"‐–元個倍色岩総",
    "人一倍",
    "十人十色",
    "一個人",
    "年度",
    "時間",
    "か所",
    "ドル",
    "メートル",
    "明治",
    "大正",
    "٣",  # an other-script digit: str.isdigit() but not a numeral
    "\n",
]
# A few pieces repeated in varied orders: the same expression recurs in different contexts.
_REPEATING_TEXT = st.lists(
    st.lists(st.sampled_from(_MEMO_PIECES), min_size=1, max_size=8).map("".join), min_size=1, max_size=4
).flatmap(lambda pool: st.lists(st.sampled_from(pool), min_size=2, max_size=30).map("".join))


@settings(max_examples=400, deadline=None)
@given(st.one_of(_REPEATING_TEXT, _NUMERIC_TEXT))
def test_memo_scan_equals_parsing_every_candidate(text: str) -> None:
    for include in (False, True):
        assert scan_spans(text, include) == scan_spans(text, include, memo=False)


@pytest.mark.parametrize("separator", ["", "\n", "、", "x", " ", "1", "令和"])
def test_memo_scan_on_the_golden_inputs_joined(separator: str) -> None:
    text = separator.join(case["input"] for case in GOLDEN) * 2
    for include in (False, True):
        memo = scan_spans(text, include)
        assert memo == scan_spans(text, include, memo=False)
        assert [(m.start, m.end, m.replacement, m.kind, m.value, m.unit) for m in scan_numeric(
            text, include_unchanged=include)] == memo
