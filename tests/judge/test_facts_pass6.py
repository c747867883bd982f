"""Engine pass 6: the fact tier meets more of the ways a true question is worded (names of
the statement, pointer nouns, asking words, a rule's other words, a compound's head, typos)
without confirming a false one (contrasts, told-apart words, denied clauses, counted
numbers). Golden table: tests/judge/data/facts_pass6.yaml."""

from __future__ import annotations

import pytest

from sadame.judge import Judge
from sadame.judge.engine._facts import MATTERS
from sadame.lang import analyze
from sadame.lang._question import kansai_negation, question_polarity
from tests.judge._golden import golden_table

PACK, CASES = golden_table("facts_pass6.yaml")


@pytest.mark.parametrize(("puzzle", "question", "expect"), CASES)
def test_pass6_golden_table(puzzle: str, question: str, expect: str) -> None:
    got = Judge(PACK.puzzle(puzzle)).ask(question).verdict
    if expect.startswith("not-"):
        assert got != expect.removeprefix("not-"), question
    else:
        assert got == (MATTERS if expect == "MATTERS" else expect), question


@pytest.mark.parametrize(("question", "word", "polarity"), [
    ("目が見えへん？", "見え", "negative"),      # the analyzer's auxiliary ヘン
    ("雨が降ってへん？", "降っ", "negative"),    # a noun へん after て
    ("これ、できひん？", "でき", "negative"),    # the verb ひる after an ichidan stem
    ("目が見える？", "見える", "positive"),
])
def test_kansai_negation_is_decided_in_one_place(question: str, word: str, polarity: str) -> None:
    tokens = analyze(question)
    i = next(k for k, t in enumerate(tokens) if t.surface == word)
    assert question_polarity(tokens, i + 1) == polarity
    ending = [t for t in tokens[i + 1:] if t.surface in ("へん", "ひん")]
    assert all(kansai_negation(tokens[tokens.index(t) - 1], t) for t in ending)


def test_a_noun_へん_is_not_an_ending_after_a_noun() -> None:
    tokens = analyze("その辺へん")
    assert not any(kansai_negation(tokens[i - 1] if i else None, t) for i, t in enumerate(tokens)
                   if tokens[i - 1].pos[0] == "名詞" and i)
