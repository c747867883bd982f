"""The steps' fast forms (patterns written for a fast search, the nfkc step's translate of
runs) give what their plain forms give."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import _steps

_TEXT = st.text(st.sampled_from([*"a1,，0、 \n\t\u3000\u00a0漢。ｱ", "\U00020000"]), max_size=30)
# The plain forms: a comma not followed or not preceded by a digit; what the cjk mode changes,
# read from every whitespace run and _cjk_keeps_run.
_PLAIN_COMMA = re.compile(r"[,，](?![0-9])|(?<![0-9])[,，]")


def _plain_cjk_changes(text: str) -> list[tuple[int, int, int | None]]:
    """(start, end, marking group) of each change: a kept run's tail (after its first
    character), a kept one-character run that is not a space, or a whole deleted run."""
    changes: list[tuple[int, int, int | None]] = []
    for run in _steps._WS_RUN.finditer(text):
        a, b = run.span()
        if not _steps._cjk_keeps_run(text, a, b):
            changes.append((a, b, None))
        elif b - a > 1:
            changes.append((a + 1, b, _steps._TAIL))
        elif text[a] != " ":
            changes.append((a, b, _steps._RESPACE))
    return changes


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_comma_pattern_matches_its_plain_form(text: str) -> None:
    assert [m.span() for m in _steps._COMMA.finditer(text)] == [m.span() for m in _PLAIN_COMMA.finditer(text)]


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_cjk_change_pattern_matches_its_plain_form(text: str) -> None:
    assert [(*m.span(), m.lastindex) for m in _steps._CJK_CHANGE.finditer(text)] == _plain_cjk_changes(text)


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from([*"a:：1 \n\t\u3000\u00a0漢"]), max_size=30))
def test_after_colon_pattern_matches_the_colon_space_runs(text: str) -> None:
    assert [m.span() for m in _steps._AFTER_COLON.finditer(text)] == [
        (m.end(1), m.end()) for m in _steps._COLON_SPACE.finditer(text)
    ]


def test_the_patterns_match_where_expected() -> None:
    assert _steps._COMMA.sub("、", "1,000と a,b と 1, 2") == "1,000と a、b と 1、 2"
    assert [(*m.span(), m.lastindex) for m in _steps._CJK_CHANGE.finditer(" a  b 漢 c\td e\n")] == [
        (0, 1, None), (3, 4, _steps._TAIL), (5, 6, None), (7, 8, None), (9, 10, _steps._RESPACE), (13, 14, None)
    ]


_REPLACED = [chr(cp) for cp in (0xFF11, 0xFF21, 0xFF1A, 0xFF08, 0xFF71, 0xFF76)]  # １ Ａ ： （ ｱ ｶ


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from([*_REPLACED, *"aあ漢 ﾞ", "\U00020000"]), max_size=2000))
def test_one_to_one_runs_translate_as_the_whole_text_does(text: str) -> None:
    # Few runs: each translated alone; many (past the budget): the rest in one translate.
    assert _steps._one_to_one(text) == text.translate(_steps._one_to_one_table())


def test_no_two_replaced_characters_join_under_nfkc() -> None:
    """Why a run's NFKC is its translate (``_one_to_one``): NFC joins no pair of replacements
    (every pair of replaced characters, the first one per distinct replacement)."""
    table = _steps._one_to_one_table()
    replaced = [chr(cp) for cp in range(0x10000) if table[cp] != cp]
    firsts = list({table[ord(c)]: c for c in replaced}.values())
    joined = [(a, b) for b in replaced for a in firsts if len(unicodedata.normalize("NFKC", a + b)) != 2]
    assert joined == []


@pytest.mark.parametrize("text", ["１a" * 200, "a" * 5000 + "１a" * 90, "ｱ" * 300, "１a" * 10])
def test_one_to_one_past_the_budget_and_within_it(text: str) -> None:
    assert _steps._one_to_one(text) == text.translate(_steps._one_to_one_table())
