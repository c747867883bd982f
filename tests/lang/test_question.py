"""Question polarity: negation, suggestion forms, confirmations, double negatives."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.lang import analyze
from sadame.lang._question import question_polarity

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


@pytest.mark.parametrize(
    ("question", "phrase_end", "expected"),
    [
        ("電子レンジは関係ない？", 1, "negative"),  # relevance
        ("電子レンジのせいではない？", 1, "negative"),
        ("メモリリークじゃないよね？", 1, "negative"),  # identity of a compound starting with the phrase
        ("cronが動いてない？", 1, "unclear"),  # another predicate
        ("アクセス権がない？", 1, "unclear"),  # existence, not relevance
        ("リロードしてない？", 1, "unclear"),  # doing, not relevance
        ("修正が反映されていない？", 6, "negative"),  # the phrase's own verb 「修正が反映されて」
        ("ブラウザはchrome？", 1, "unclear"),  # is it a named thing
        ("サーバーは1台？", 1, "unclear"),
        ("電子レンジは関係ある？", 1, "positive"),
        ("4年に1回しかない？", 6, "positive"),  # the phrase 「4年に1回しか」 owns its ない: only
    ],
)
def test_strict_polarity(question: str, phrase_end: int, expected: str) -> None:
    tokens = analyze(question)
    assert question_polarity(tokens, phrase_end, strict=True) == expected, [t.surface for t in tokens]


def test_wh_questions() -> None:
    from sadame.lang._question import is_wh_question

    assert is_wh_question(analyze("誰がディスプレイを設置した？"))
    assert is_wh_question(analyze("サーバーは何色？"))
    assert not is_wh_question(analyze("何か関係ある？"))
    assert not is_wh_question(analyze("何か月もリロードしてない？"))
    assert not is_wh_question(analyze("きーぼーどの配列？"))  # a kana fragment, not 「どの」
    tokens = analyze("どうたいけんち？")
    assert is_wh_question(tokens) and not is_wh_question(tokens, ignore=range(len(tokens)))
