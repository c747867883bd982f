"""Rule tables and puzzle packs under both sides: which verdicts flip."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

from sadame.judge import Judge, Puzzle, PuzzlePack, RuleTable, load_table
from sadame.review._report import Change, FileDiff
from sadame.review._spec import Side

__all__ = ["diff_rule_table"]


def _tables(path: Path) -> Iterator[tuple[str, RuleTable, list[str]]]:
    """(label, table, questions): a table's examples, or each puzzle's examples and questions."""
    loaded = load_table(path)
    if isinstance(loaded, PuzzlePack):
        for puzzle in loaded.puzzles.values():
            yield puzzle.id, puzzle.table, _puzzle_questions(puzzle)
        return
    yield loaded.name, loaded, [e.q for e in loaded.examples] + [q.q for q in loaded.questions]


def _puzzle_questions(puzzle: Puzzle) -> list[str]:
    return [e.q for e in puzzle.examples] + [q.q for q in puzzle.questions]


def _verdict(judge: Judge, question: str) -> str:
    result = judge.ask(question)
    return "(no verdict)" if result.source == "none" else result.verdict


def _with_matching(table: RuleTable, side: Side) -> RuleTable:
    if side.matching is None or side.matching == table.matching:
        return table
    return dataclasses.replace(table, matching=side.matching)


def diff_rule_table(path: Path, before: Side, after: Side) -> FileDiff:
    """Judge every example and natural question under both sides' matching modes (rules only)."""
    diff = FileDiff(str(path), "rule-table")
    for label, table, questions in _tables(path):
        old, new = Judge(_with_matching(table, before)), Judge(_with_matching(table, after))
        for question in questions:
            diff.compared += 1
            a, b = _verdict(old, question), _verdict(new, question)
            if a == b:
                continue
            if a == "(no verdict)":
                kind = "newly_answered"
            elif b == "(no verdict)":
                kind = "newly_unanswered"
            else:
                kind = "verdict_flipped"
            diff.changes.append(Change(kind, f"{label}: {question}", a, b))
    return diff
