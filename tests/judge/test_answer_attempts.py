"""The answer checker on the blind writer's answer attempts (evals/judge/blind_answers/: per
puzzle a correct answer, one whose point is an absence, a keyword list, a denial and a wrong
mechanism). Measured floors, not a golden file: see docs/guide/judge.md for the figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from sadame.judge import bundled_pack, check_answer

ANSWERS = Path(__file__).resolve().parents[2] / "evals" / "judge" / "blind_answers"


def _attempts() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in sorted(ANSWERS.glob("*.yaml")):
        for item in yaml.safe_load(path.read_text("utf-8"))["answers"]:
            found.append({**item, "pack": path.stem})
    return found


ATTEMPTS = _attempts()


def _full_credit(kind: str) -> list[bool]:
    return [
        check_answer(a["a"], bundled_pack(a["pack"]).puzzle(a["puzzle"]).solution).correct
        for a in ATTEMPTS if a["kind"] == kind
    ]


def test_the_attempts_cover_every_kind_for_thirty_puzzles_or_more() -> None:
    assert {a["kind"] for a in ATTEMPTS} == {"correct", "absence", "keywords", "denial", "wrong_mechanism"}
    assert len({a["puzzle"] for a in ATTEMPTS}) >= 30


@pytest.mark.parametrize("item", [a for a in ATTEMPTS if a["kind"] == "keywords"], ids=lambda a: a["puzzle"])
def test_no_keyword_list_gets_full_credit(item: dict[str, Any]) -> None:
    check = check_answer(item["a"], bundled_pack(item["pack"]).puzzle(item["puzzle"]).solution)
    assert not check.correct and check.advice is not None


def test_denials_almost_never_get_full_credit() -> None:
    credited = _full_credit("denial")
    assert sum(credited) <= 3, f"{sum(credited)} of {len(credited)} denials got full credit (was 38 before)"


def test_absence_and_correct_answers_keep_full_credit() -> None:
    absence, correct = _full_credit("absence"), _full_credit("correct")
    assert sum(absence) >= 63 and sum(correct) >= 71, (sum(absence), len(absence), sum(correct), len(correct))
