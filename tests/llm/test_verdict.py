from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.llm._verdict import parse_verdict

PUZZLE_ANSWERS = ("YES", "NO", "IRRELEVANT", "UNCERTAIN")
CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "verdicts.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]


@pytest.mark.parametrize("case", CASES, ids=[repr(c["reply"])[:40] for c in CASES])
def test_golden_verdicts(case: dict[str, Any]) -> None:
    answers = tuple(case.get("answers", PUZZLE_ANSWERS))
    assert parse_verdict(case["reply"], answers) == case["expect"], case.get("note")


def test_golden_set_has_negatives_and_positives() -> None:
    assert sum(1 for c in CASES if c["expect"] is None) >= 15
    assert sum(1 for c in CASES if c["expect"] is not None) >= 15


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_verdict_is_always_in_the_closed_set_or_none(reply: str) -> None:
    assert parse_verdict(reply, PUZZLE_ANSWERS) in (*PUZZLE_ANSWERS, None)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PUZZLE_ANSWERS), st.text(alphabet="、。 ,.!なぜならbecause", max_size=30))
def test_a_leading_answer_survives_trailing_prose(answer: str, prose: str) -> None:
    assert parse_verdict(answer + "\n" + prose, PUZZLE_ANSWERS) == answer
