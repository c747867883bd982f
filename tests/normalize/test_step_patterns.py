"""The steps' fast forms (patterns written for a fast search, the nfkc step's translate of
runs) give what their plain forms give."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import _steps

_TEXT = st.text(st.sampled_from([*"a1,，0、 \n\t\u3000\u00a0漢。ｱ", "\U00020000"]), max_size=30)
# The plain forms: a comma not followed or not preceded by a digit; a whitespace run kept by
# the cjk mode, between two characters that are neither whitespace nor CJK.
_PLAIN_COMMA = re.compile(r"[,，](?![0-9])|(?<![0-9])[,，]")
_PLAIN_KEPT_RUN = re.compile(f"(?<={_steps._NOT_WS_CJK}){_steps._WS_CLASS}+(?={_steps._NOT_WS_CJK})")


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_comma_pattern_matches_its_plain_form(text: str) -> None:
    assert [m.span() for m in _steps._COMMA.finditer(text)] == [m.span() for m in _PLAIN_COMMA.finditer(text)]


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_kept_run_pattern_matches_its_plain_form(text: str) -> None:
    assert [m.span() for m in _steps._CJK_KEPT_RUN.finditer(text)] == [
        m.span() for m in _PLAIN_KEPT_RUN.finditer(text)
    ]


def test_the_patterns_match_where_expected() -> None:
    assert _steps._COMMA.sub("、", "1,000と a,b と 1, 2") == "1,000と a、b と 1、 2"
    assert [m.span() for m in _steps._CJK_KEPT_RUN.finditer("a  b 漢 c\td")] == [(1, 3), (8, 9)]


_REPLACED = [chr(cp) for cp in (0xFF11, 0xFF21, 0xFF1A, 0xFF08, 0xFF71, 0xFF76)]  # １ Ａ ： （ ｱ ｶ


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from([*_REPLACED, *"aあ漢 ﾞ", "\U00020000"]), max_size=2000))
def test_one_to_one_runs_translate_as_the_whole_text_does(text: str) -> None:
    # Few runs: each translated alone; many (past the budget): the rest in one translate.
    assert _steps._one_to_one(text) == text.translate(_steps._one_to_one_table())


@pytest.mark.parametrize("text", ["１a" * 200, "a" * 5000 + "１a" * 90, "ｱ" * 300, "１a" * 10])
def test_one_to_one_past_the_budget_and_within_it(text: str) -> None:
    assert _steps._one_to_one(text) == text.translate(_steps._one_to_one_table())
