"""Question polarity: negation, suggestion forms, confirmations, double negatives."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.lang import analyze, question_polarity

CASES = [
    tuple(line.split("\t"))
    for line in (Path(__file__).parent / "data" / "question_polarity.tsv").read_text("utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_polarity_of_the_first_phrase(question: str, expected: str) -> None:
    assert question_polarity(analyze(question), 1) == expected


def test_negation_inside_the_phrase_does_not_count() -> None:
    tokens = analyze("外に出られない？")
    # The phrase is the whole 「外に出られない」 (a rule written with its own negation).
    assert question_polarity(tokens, 5) == "positive"
    assert question_polarity(tokens, 1) == "negative"


def test_a_later_clause_does_not_negate_an_earlier_phrase() -> None:
    assert question_polarity(analyze("電子レンジは使ったけど、ブレーカーは落ちてない？"), 1) == "positive"
    tokens = analyze("電子レンジは使ったけど、ブレーカーは落ちてない？")
    index = next(i for i, t in enumerate(tokens) if t.surface == "ブレーカー")
    assert question_polarity(tokens, index + 1) == "negative"


def test_empty_tail_is_positive() -> None:
    assert question_polarity(analyze("電子レンジ"), 1) == "positive"
