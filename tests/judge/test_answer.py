"""The natural answer checker: denied concepts, keyword lists, overlong answers --
with examples from every bundled puzzle."""

from __future__ import annotations

import pytest

from sadame.judge import AnswerCheck, Puzzle, bundled_pack, check_answer
from sadame.judge.engine._answer import KEYWORDS_ADVICE, TOO_LONG_ADVICE, is_keyword_list
from sadame.judge.engine._model import Solution
from sadame.lang import analyze

PACK = bundled_pack("engineering")
PUZZLES = list(PACK.puzzles.values())


def test_bundled_solutions_are_natural() -> None:
    for puzzle in PUZZLES:
        assert isinstance(puzzle.solution, Solution) and puzzle.solution.matching == "natural"
        assert puzzle.solution.max_chars >= 2 * len(puzzle.truth)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_keyword_dump_of_the_solution_is_not_accepted(puzzle: Puzzle) -> None:
    dump = "、".join(word for group in puzzle.solution for word in group)
    check = check_answer(dump, puzzle.solution)
    assert not check.correct and check.advice in (KEYWORDS_ADVICE, TOO_LONG_ADVICE)
    assert check.matched < check.total


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_an_answer_denying_every_concept_is_not_accepted(puzzle: Puzzle) -> None:
    denial = "、".join(f"{group[0]}は関係なく" for group in puzzle.solution) + "、ただの偶然だった"
    check = check_answer(denial, puzzle.solution)
    assert not check.correct and check.matched == 0


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_the_puzzles_own_examples_hold(puzzle: Puzzle) -> None:
    kinds = {example.kind for example in puzzle.answer_examples}
    assert {"correct", "denial"} <= kinds
    for example in puzzle.answer_examples:
        check = check_answer(example.a, puzzle.solution)
        assert check.correct == example.correct, example
        if example.matched is not None:
            assert check.matched == example.matched, example


def test_one_generic_word_list_solves_no_puzzle() -> None:
    """The issue's exploit: one long list of every puzzle's words, no question asked."""
    dump = " ".join(word for puzzle in PUZZLES for group in puzzle.solution for word in group)
    assert len(dump) > 300
    for puzzle in PUZZLES:
        assert not check_answer(dump, puzzle.solution).correct, puzzle.id


def test_overlong_answer_gets_partial_credit_and_advice() -> None:
    puzzle = PACK.puzzle("rainy-lunch-server")
    honest = "雨の日は皆が社内で電子レンジを使うので、容量を超えてブレーカーが落ちた。"
    assert check_answer(honest, puzzle.solution).correct
    padded = honest + "そして" * puzzle.solution.max_chars
    check = check_answer(padded, puzzle.solution)
    assert not check.correct and check.advice == TOO_LONG_ADVICE and check.matched == check.total - 1


def test_keyword_list_detection() -> None:
    assert is_keyword_list(analyze("電子レンジ、ケトル、ブレーカー"))
    assert is_keyword_list(analyze("電子レンジ ブレーカー 容量"))
    assert not is_keyword_list(analyze("電子レンジでブレーカーが落ちた"))
    assert not is_keyword_list(analyze("電子レンジの使いすぎによるブレーカーの遮断"))
    assert not is_keyword_list(analyze("電子レンジ"))


def test_seed_solutions_keep_the_seed_checker() -> None:
    solution = (("大文字", "小文字"), ("ファイル名",))
    assert check_answer("大文字、ファイル名", solution) == AnswerCheck(True, 2, 2, (0, 1))
    assert check_answer("大文字もファイル名も関係ない", solution).correct  # substring semantics, as seeded


def test_answer_check_round_trips_with_advice() -> None:
    check = AnswerCheck(False, 1, 2, (0,), KEYWORDS_ADVICE)
    assert AnswerCheck.from_dict(check.to_dict()) == check
    assert AnswerCheck.from_dict({"correct": True, "matched": 2, "total": 2}).advice is None


@pytest.mark.parametrize("answer", ["", "   ", None, 5, "？？"])
def test_bad_answers_match_nothing(answer: object) -> None:
    solution = PACK.puzzle("rainy-lunch-server").solution
    check = check_answer(answer, solution)
    assert not check.correct and check.matched == 0
