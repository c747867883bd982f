"""rules lint's containment checks: one automaton, the same answers as every pair."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.judge.authoring._tools import _contained

WORDS = st.lists(st.text(alphabet="あいうabc", max_size=4), max_size=12)


def _naive(texts: list[str], words: list[str], proper: bool) -> list[int | None]:
    return [next((j for j, w in enumerate(words) if w in t and not (proper and w == t)), None) for t in texts]


@settings(max_examples=300, deadline=None)
@given(texts=WORDS, words=WORDS, proper=st.booleans())
def test_contained_equals_the_pairwise_definition(texts: list[str], words: list[str], proper: bool) -> None:
    assert _contained(texts, words, proper=proper) == _naive(texts, words, proper)


def test_same_list_containment() -> None:
    words = ["ネットワーク", "ネット", "ワーク", "ネットワーク", "別"]
    assert _contained(words, words, proper=True) == [1, None, None, 1, None]
