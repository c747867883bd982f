"""Measuring a table on its natural-question set (``questions`` in format 2).

Each question is judged by the rules alone (no fallback) in the table's matching
mode and counted as *right* (the expected verdict; or no verdict where ``none_ok``
says that is acceptable), *wrong* (a different verdict) or *no verdict*. The
polarity subset is the questions tagged ``negation``, ``suggestion``,
``confirm-neg`` or ``double-negation``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sadame.judge.engine._errors import TableError
from sadame.judge.engine._judge import MATTERS, Judge
from sadame.judge.engine._loader import MAX_TABLE_BYTES, parse_yaml
from sadame.judge.engine._model import PuzzlePack, Question, RuleTable
from sadame.judge.engine._natural import DEFAULT_POLICY, Policy

__all__ = [
    "POLARITY_TAGS",
    "PuzzleFigures",
    "QuestionOutcome",
    "QuestionReport",
    "load_questions",
    "render_questions",
    "run_questions",
]

QUESTIONS_FORMAT = "sadame.questions/1"
POLARITY_TAGS = frozenset({"negation", "suggestion", "confirm-neg", "double-negation"})
Grade = Literal["right", "wrong", "matters", "none"]


@dataclass(frozen=True, slots=True)
class QuestionOutcome:
    """One question, what it expected, what the rules said, and the grade."""

    puzzle: str | None
    question: Question
    got: str | None
    grade: Grade
    rule: str | None = None
    matched_word: str | None = None
    reason: str | None = None  #: the judge's reason (for MATTERS: the words no fact states)

    def to_dict(self) -> dict[str, object]:
        return {
            "puzzle": self.puzzle, "q": self.question.q, "expect": self.question.expect,
            "got": self.got, "grade": self.grade, "tags": list(self.question.tags),
            "none_ok": self.question.none_ok, "rule": self.rule, "matched": self.matched_word,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class PuzzleFigures:
    """Counts for one puzzle (or a subset, or the total)."""

    name: str
    total: int
    right: int
    wrong: int
    none: int
    matters: int = 0  #: MATTERS replies (format 3): neither right nor wrong

    @property
    def right_rate(self) -> float:
        return self.right / self.total if self.total else 1.0

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.total if self.total else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name, "total": self.total, "right": self.right, "wrong": self.wrong,
            "none": self.none, "matters": self.matters, "right_rate": round(self.right_rate, 4), "wrong_rate": round(self.wrong_rate, 4),
        }


def _figures(name: str, outcomes: Iterable[QuestionOutcome]) -> PuzzleFigures:
    grades = [o.grade for o in outcomes]
    return PuzzleFigures(
        name, len(grades), grades.count("right"), grades.count("wrong"), grades.count("none"),
        grades.count("matters"),
    )


@dataclass(frozen=True)
class QuestionReport:
    """Outcomes of every question, figures per puzzle, totals and the polarity subset."""

    outcomes: tuple[QuestionOutcome, ...]
    puzzles: tuple[PuzzleFigures, ...]
    policy: str

    @property
    def total(self) -> PuzzleFigures:
        return _figures("total", self.outcomes)

    @property
    def polarity(self) -> PuzzleFigures:
        """The negation / suggestion / confirm-neg / double-negation questions."""
        return _figures("polarity", (o for o in self.outcomes if POLARITY_TAGS.intersection(o.question.tags)))

    def failing(self, min_right: float = 0.9, max_wrong: float = 0.02) -> tuple[PuzzleFigures, ...]:
        """Puzzles under ``min_right`` right or over ``max_wrong`` wrong."""
        return tuple(
            p for p in self.puzzles if p.total and (p.right_rate < min_right or p.wrong_rate > max_wrong)
        )

    def to_dict(self, min_right: float = 0.9, max_wrong: float = 0.02) -> dict[str, object]:
        failing = self.failing(min_right, max_wrong)
        return {
            "ok": not failing, "policy": self.policy,
            "thresholds": {"min_right": min_right, "max_wrong": max_wrong},
            "puzzles": [p.to_dict() for p in self.puzzles],
            "total": self.total.to_dict(), "polarity": self.polarity.to_dict(),
            "failing": [p.name for p in failing],
            "misses": [o.to_dict() for o in self.outcomes if o.grade != "right"],
        }


def _grade(question: Question, got: str | None) -> Grade:
    if got == question.expect or (got is None and question.none_ok):
        return "right"
    if got == MATTERS:
        return "matters"
    return "none" if got is None else "wrong"


def _run_table(table: RuleTable, name: str | None, policy: Policy,
               questions: Sequence[Question]) -> list[QuestionOutcome]:
    judge = Judge(table, policy=policy)
    outcomes: list[QuestionOutcome] = []
    for question in questions:
        result = judge.ask(question.q)
        got = result.verdict if result.answered else None
        rule = table.rules[result.rule_index].label if result.rule_index is not None else None
        outcomes.append(QuestionOutcome(
            name, question, got, _grade(question, got), rule, result.matched_word, result.reason
        ))
    return outcomes


def run_questions(
    table: RuleTable | PuzzlePack, policy: Policy = DEFAULT_POLICY,
    questions: Mapping[str | None, Sequence[Question]] | None = None,
) -> QuestionReport:
    """Judge every natural question of a table or of each puzzle of a pack; with
    ``questions`` (puzzle id, or None for a table -> questions, as from
    :func:`load_questions`), judge those instead (a held-out set)."""
    if isinstance(table, RuleTable):
        own = table.questions if questions is None else questions.get(None, ())
        outcomes = _run_table(table, None, policy, own)
        return QuestionReport(tuple(outcomes), (_figures(table.name, outcomes),), policy)
    if not isinstance(table, PuzzlePack):
        raise TypeError(f"run_questions expects a RuleTable or PuzzlePack, got {type(table).__name__}")
    if questions is not None:
        unknown = sorted(str(p) for p in questions if p not in table.puzzles)
        if unknown:
            raise TableError(f"questions for puzzles the pack {table.name!r} does not have: {', '.join(unknown)}")
    every: list[QuestionOutcome] = []
    figures: list[PuzzleFigures] = []
    for puzzle in table.puzzles.values():
        own = puzzle.questions if questions is None else questions.get(puzzle.id, ())
        outcomes = _run_table(puzzle.table, puzzle.id, policy, own)
        every.extend(outcomes)
        figures.append(_figures(puzzle.id, outcomes))
    return QuestionReport(tuple(every), tuple(figures), policy)


def _question(item: Any, index: int) -> tuple[str | None, Question]:
    if not isinstance(item, dict) or not isinstance(item.get("q"), str) or "expect" not in item:
        raise TableError(f"questions[{index}]: expected a mapping with q and expect")
    unknown = sorted(set(item) - {"puzzle", "q", "expect", "tags", "none_ok"})
    if unknown:
        raise TableError(f"questions[{index}]: unknown key {unknown[0]!r}")
    puzzle, expect, tags = item.get("puzzle"), item["expect"], item.get("tags", [])
    if not (puzzle is None or isinstance(puzzle, str)) or not (expect is None or isinstance(expect, str)):
        raise TableError(f"questions[{index}]: puzzle and expect must be strings (or null)")
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise TableError(f"questions[{index}]: tags must be a list of strings")
    return puzzle, Question(item["q"], expect, tuple(tags), bool(item.get("none_ok", False)))


def load_questions(path: str | Path) -> dict[str | None, tuple[Question, ...]]:
    """A held-out question file (``format: sadame.questions/1``; ``questions`` items as
    in a pack, plus ``puzzle``), grouped by puzzle id (None for a plain table)."""
    file = str(path)
    try:
        raw = Path(path).read_bytes()[: MAX_TABLE_BYTES + 1]
    except OSError as exc:
        raise TableError(f"cannot read: {exc.strerror or exc}", file=file) from None
    if len(raw) > MAX_TABLE_BYTES:
        raise TableError(f"file is larger than {MAX_TABLE_BYTES:,} bytes", file=file)
    data = parse_yaml(raw.decode("utf-8", errors="replace"), file)
    if not isinstance(data, dict) or data.get("format") != QUESTIONS_FORMAT or not isinstance(
        data.get("questions"), list
    ):
        raise TableError(f"expected format: {QUESTIONS_FORMAT} with a list of questions", file=file)
    grouped: dict[str | None, list[Question]] = {}
    for index, item in enumerate(data["questions"]):
        puzzle, question = _question(item, index)
        grouped.setdefault(puzzle, []).append(question)
    return {puzzle: tuple(items) for puzzle, items in grouped.items()}


def _row(figures: PuzzleFigures) -> str:
    return (f"{figures.name:<32} {figures.total:>5} {figures.right:>6} {figures.wrong:>6} {figures.none:>6}"
            f" {figures.right_rate:>7.1%} {figures.wrong_rate:>7.1%}"
            + (f" {figures.matters:>8}" if figures.matters else ""))


def render_questions(report: QuestionReport, min_right: float = 0.9, max_wrong: float = 0.02) -> str:
    """The per-puzzle table of ``sadame rules test`` (plain text), with the misses."""
    failing = {p.name for p in report.failing(min_right, max_wrong)}
    lines = [f"natural questions (rules only, policy {report.policy}):",
             f"{'puzzle':<32} {'total':>5} {'right':>6} {'wrong':>6} {'none':>6} {'right%':>7} {'wrong%':>7}"
             + (f" {'matters':>8}" if report.total.matters else "")]
    lines.extend(_row(p) + ("  FAIL" if p.name in failing else "") for p in report.puzzles if p.total)
    lines.append(_row(report.total))
    lines.append(_row(report.polarity) + "  (negation, suggestion, confirm-neg, double-negation)")
    for outcome in report.outcomes:
        if outcome.grade != "right":
            where = f"[{outcome.puzzle}] " if outcome.puzzle else ""
            fired = f" (rule {outcome.rule} on {outcome.matched_word!r})" if outcome.rule else ""
            why = f" -- {outcome.reason}" if outcome.grade == "matters" and outcome.reason else ""
            lines.append(f"{outcome.grade.upper():5} {where}{outcome.question.q!r}: expected "
                         f"{outcome.question.expect!r}, got {outcome.got!r}{fired}{why}")
    lines.append(f"thresholds: right >= {min_right:.0%}, wrong <= {max_wrong:.0%} per puzzle: "
                 + ("FAIL " + ", ".join(sorted(failing)) if failing else "ok"))
    return "\n".join(lines)
