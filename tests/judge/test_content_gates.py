"""Content gates that hold for every bundled puzzle pack (issue 15), in one place.

Per-pack files (``test_<pack>_pack.py``) keep what is particular to a pack; what every pack
must satisfy is checked here for all of them, including packs added later.
"""

from __future__ import annotations

import pytest

from sadame.judge import Puzzle, PuzzlePack, bundled_pack
from sadame.judge.engine._loader import bundled_names
from sadame.normalize import normalize

PACKS = bundled_names("puzzles")


def _puzzles(name: str) -> list[Puzzle]:
    return list(bundled_pack(name).puzzles.values())


def test_there_are_enough_puzzles_at_the_seeds_scale() -> None:
    assert sum(len(_puzzles(name)) for name in PACKS) >= 68
    assert len(PACKS) >= 3


@pytest.mark.parametrize("name", PACKS)
def test_hints_never_contain_a_solution_word(name: str) -> None:
    leaks = [
        (puzzle.id, word, hint)
        for puzzle in _puzzles(name)
        for hint in puzzle.hints
        for group in puzzle.solution
        for word in group
        if normalize(word, preset="judge") in normalize(hint, preset="judge")
    ]
    assert leaks == []


@pytest.mark.parametrize("name", PACKS)
def test_no_two_puzzles_share_a_truth_or_a_solution(name: str) -> None:
    puzzles = _puzzles(name)
    assert len({p.truth for p in puzzles}) == len(puzzles)
    assert len({p.solution for p in puzzles}) == len(puzzles)


def test_ids_truths_and_solutions_are_unique_across_packs() -> None:
    everything = [p for name in PACKS for p in _puzzles(name)]
    assert len({p.id for p in everything}) == len(everything)
    assert len({p.truth for p in everything}) == len(everything)
    assert len({p.solution for p in everything}) == len(everything)


@pytest.mark.parametrize("name", PACKS)
def test_every_pack_is_natural_format_3(name: str) -> None:
    pack: PuzzlePack = bundled_pack(name)
    assert pack.format == "sadame.puzzles/3" and pack.matching == "natural"
