"""The ``quote`` preset (contract version 2): Japanese-aware whitespace and the named equivalences."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import (
    PRESETS,
    Equivalence,
    WhitespaceMode,
    normalize,
    normalize_with_offsets,
)

QUOTE = PRESETS["quote"]


def _only(*chosen: Equivalence) -> object:
    return replace(QUOTE, equivalences=frozenset(chosen))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("人員が不足して\nいる", "人員が不足している"),
        ("API で取得", "APIで取得"),
        ("Python 3.12 では", "Python 3.12では"),
        ("安定性： 不足", "安定性:不足"),
        ("A，B", "A、B"),
        ("A, B", "A、B"),
        ("「売上は増加した」", "売上は増加した"),
        ("『売上は増加した』", "売上は増加した"),
        ('"売上は増加した"', "売上は増加した"),
        ("Docker\nimage", "Docker image"),
        ("Docker   image", "Docker image"),
    ],
)
def test_equal_under_the_quote_preset(a: str, b: str) -> None:
    assert normalize(a, preset="quote") == normalize(b, preset="quote")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Docker image", "Dockerimage"),
        ("1 000", "1000"),
        ("3 5%", "35%"),
        ("1,000円", "1、000円"),
        ("在庫を確保する", "在庫が確保する"),
        ("対応する", "対応しない"),
        ("彼は、泣きながら", "彼は泣きながら"),
        ("「A」と「B」", "A」と「B"),
    ],
)
def test_never_equal_under_the_quote_preset(a: str, b: str) -> None:
    assert normalize(a, preset="quote") != normalize(b, preset="quote")


def test_each_equivalence_is_a_separate_flag() -> None:
    text = "「Note： A，B」"
    assert normalize(text, flags=_only()) == "「Note: A,B」"  # type: ignore[arg-type]
    assert normalize(text, flags=_only(Equivalence.WRAPPING_QUOTES)) == "Note: A,B"  # type: ignore[arg-type]
    assert normalize(text, flags=_only(Equivalence.COMMA)) == "「Note: A、B」"  # type: ignore[arg-type]
    assert normalize(text, flags=_only(Equivalence.COLON_SPACE)) == "「Note:A,B」"  # type: ignore[arg-type]


def test_cjk_mode_without_equivalences_is_only_whitespace() -> None:
    flags = replace(QUOTE, equivalences=frozenset())
    assert flags.whitespace is WhitespaceMode.CJK
    assert normalize(" 漢 字 A  b\n", flags=flags) == "漢字A b"


def test_hangul_keeps_its_word_spaces() -> None:
    assert normalize("안녕 하세요", preset="quote") == "안녕 하세요"


def test_offsets_point_at_the_original_text() -> None:
    source = "- **安定性**:\n  不足して\nいる"
    mapped = normalize_with_offsets(source, preset="quote")
    assert mapped.text == "安定性:不足している"
    start = mapped.text.index("不足")
    span = mapped.exact_span(start, len(mapped.text))
    assert span is not None and source[span[0] : span[1]] == "不足して\nいる"


def test_long_whitespace_runs_are_handled_in_one_pass() -> None:
    # Not a timing test: the result of a megabyte-sized run is still exact.
    text = "漢" + " " * 200_000 + "A" + " " * 200_000 + "b"
    assert normalize(text, preset="quote") == "漢A b"
    assert normalize_with_offsets(text, preset="quote").text == "漢A b"


CJK_TEXTS = st.lists(
    st.sampled_from([*"漢字かなカナAbc12 \n\t　、，,:：「」『』“”\"。", "**", "- ", "`"]), max_size=40
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=CJK_TEXTS)
def test_text_and_offsets_paths_agree(text: str) -> None:
    assert normalize_with_offsets(text, preset="quote").text == normalize(text, preset="quote")
