"""The bundled engineering pack (エンジニア編) as content: its shape in format 2, hints that
give nothing away, distinct puzzles, and the natural-question targets per puzzle."""

from __future__ import annotations

import pytest

from sadame.judge import Puzzle, PuzzlePack, bundled_pack, check_answer
from sadame.judge.authoring import run_questions

POLARITY_TAGS = {"negation", "suggestion", "confirm-neg", "double-negation"}


@pytest.fixture(scope="module")
def engineering() -> PuzzlePack:
    return bundled_pack("engineering")


def _puzzles(pack: PuzzlePack) -> list[Puzzle]:
    return list(pack.puzzles.values())


def test_engineering_pack_is_format_3_in_natural_mode(engineering: PuzzlePack) -> None:
    assert engineering.format == "sadame.puzzles/3"
    assert engineering.matching == "natural"
    assert len(engineering.puzzles) == 24


def test_every_puzzle_has_the_required_content(engineering: PuzzlePack) -> None:
    short: list[str] = []
    for puzzle in _puzzles(engineering):
        shaped = [q for q in puzzle.questions if POLARITY_TAGS & set(q.tags)]
        irrelevant = [q for q in puzzle.questions if "irrelevant" in q.tags]
        checks = {
            "rules >= 20": len(puzzle.table.rules) >= 20,
            "questions >= 40": len(puzzle.questions) >= 40,
            "negation/suggestion >= 5": len(shaped) >= 5,
            "irrelevant details >= 3": len(irrelevant) >= 3
            and all(q.expect == "IRRELEVANT" for q in irrelevant),
            "2-3 hints": 2 <= len(puzzle.hints) <= 3,
            "2-3 solution groups": 2 <= len(puzzle.solution) <= 3,
            "difficulty 1-5": puzzle.difficulty is not None and 1 <= puzzle.difficulty <= 5,
            "truth of 3-6 sentences": 3 <= puzzle.truth.count("。") <= 6,
            "answer kinds": {"correct", "partial", "wrong", "denial"}
            <= {a.kind for a in puzzle.answer_examples},
        }
        short += [f"{puzzle.id}: {name}" for name, ok in checks.items() if not ok]
    assert short == []




def test_an_answer_denying_the_key_concepts_is_not_a_solution(engineering: PuzzlePack) -> None:
    for puzzle in _puzzles(engineering):
        denial = next(a for a in puzzle.answer_examples if a.kind == "denial")
        correct = next(a for a in puzzle.answer_examples if a.kind == "correct")
        assert not check_answer(denial.a, puzzle.solution).correct, puzzle.id
        assert check_answer(correct.a, puzzle.solution).correct, puzzle.id


def test_natural_questions_meet_the_targets_per_puzzle(engineering: PuzzlePack) -> None:
    report = run_questions(engineering)
    assert [p.name for p in report.failing(min_right=0.9, max_wrong=0.02)] == []
    assert report.total.total >= 24 * 40
    polarity = report.polarity
    assert polarity.total >= 50
    assert polarity.wrong <= 1
