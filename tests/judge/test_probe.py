"""``sadame rules probe``: mutated true questions that the table still confirms."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from sadame.judge import PuzzlePack, bundled_pack, parse_table
from sadame.judge.authoring import probe_table
from sadame.judge.authoring._probe import KINDS, mutations
from sadame.judge.engine._loader import bundled_names

from .test_facts import PUZZLE

#: Every bundled puzzle of every bundled pack: each must have facts and pass the probe.
BUNDLED = [(name, pid) for name in bundled_names() for pid in bundled_pack(name).puzzles]


def _pack(fmt: str, questions: list[dict[str, Any]]) -> PuzzlePack:
    puzzle = {**copy.deepcopy(PUZZLE), "questions": questions}
    if fmt.endswith("/2"):
        puzzle.pop("facts")
    loaded = parse_table({"format": fmt, "name": "t", "title": "t", "answers": ["YES", "NO"], "puzzles": [puzzle]})
    assert isinstance(loaded, PuzzlePack)
    return loaded


@pytest.mark.parametrize(("question", "kind", "mutated"), [
    ("25日ごとに止まる？", "number", "26日ごとに止まる？"),
    ("夏に遅れる？", "season", "冬に遅れる？"),
    ("母が置いた？", "actor", "父が置いた？"),
    ("毎日使う？", "frequency", "毎週使う？"),
    ("振り子が伸びた？", "direction", "振り子が縮た？"),
    ("振り子が伸びた？", "negation", "振り子が伸びたわけではない？"),
    ("朝に起きる？", "date", "夜に起きる？"),
    ("5分遅れる？", "unit", "5秒遅れる？"),
])
def test_each_kind_of_mutation(question: str, kind: str, mutated: str) -> None:
    table = _pack("sadame.puzzles/2", []).puzzle("ice").table
    assert (kind, mutated) in list(mutations(question, table))
    assert kind in KINDS


def test_cause_reversed_swaps_two_phrases_around_a_causal_marker() -> None:
    table = _pack("sadame.puzzles/2", []).puzzle("ice").table
    assert ("cause", "コインのせいで氷が?") in list(mutations("氷のせいでコインが？", table))


def test_the_probe_finds_false_confirmations_and_facts_remove_them() -> None:
    questions = [{"q": "氷は最初から冷たかった？", "expect": "YES"}, {"q": "コインは上に乗っていた？", "expect": "YES"}]
    found = probe_table(_pack("sadame.puzzles/2", questions))
    assert {f.mutated for f in found.findings} >= {"コインは下に乗っていた？"}
    assert not found.ok and found.questions == 2
    weighed = probe_table(_pack("sadame.puzzles/3", questions))
    assert "コインは下に乗っていた？" not in {f.mutated for f in weighed.findings}
    assert weighed.to_dict()["questions"] >= 1  # only questions answered YES today are probed


@pytest.mark.parametrize(("name", "pid"), BUNDLED, ids=[f"{n}/{p}" for n, p in BUNDLED])
def test_every_bundled_puzzle_has_facts_and_passes_the_probe(name: str, pid: str) -> None:
    table = bundled_pack(name).puzzle(pid).table
    assert table.weighs_details and table.facts, f"{name}/{pid} has no facts: its details are never weighed"
    report = probe_table(bundled_pack(name), [pid])
    assert report.questions > 0 and report.mutations > 0
    assert [f.render() for f in report.findings] == []


def test_the_probe_covers_all_three_bundled_packs() -> None:
    assert {name for name, _ in BUNDLED} == {"classic", "everyday", "engineering"}
    assert len(BUNDLED) >= 73


def test_a_bundled_puzzle_without_facts_would_fail() -> None:
    """The facts check above is not vacuous: the same puzzle with its facts removed is
    a format-2 puzzle in a format-3 pack, and the probe finds what the facts denied."""
    pack = bundled_pack("engineering")
    puzzle = pack.puzzle("freeze-every-25-days").table
    bare = dataclasses.replace(puzzle, facts=(), weighs_details=False)
    assert not (bare.weighs_details and bare.facts)
    assert not probe_table(bare).ok
