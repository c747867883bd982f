"""The puzzle list: packs, puzzles, difficulty (the author's and a measured one) and
one player's progress, filtered by pack and status. The terminal and the browser
both list puzzles with :func:`puzzle_catalog`.

Measured difficulty
-------------------
A puzzle's measured difficulty is **the median number of questions a player needs
before every point of the solution has been confirmed**, replaying the puzzle's own
natural-question set (format 2 ``questions``; the ``examples`` for format 1) in
:data:`REPLAY_ORDERS` fixed pseudo-random orders. Each question gets the verdict its
author expects (``expect``: the puzzle as designed, so a judge mistake does not make a
puzzle look easier or harder -- the judge's accuracy is gated separately by
``sadame rules test``); a question *confirms* a solution group when that verdict is YES
-- or NO to a question tagged ``negation`` / ``confirm-neg`` (「Xは関係ない？」→ いいえ)
-- and its text contains one of the group's words (after the ``judge``
normalization). When fewer than half of the orders confirm every group, the median is
``None`` (the question set never gets there). The level (1-5) maps the median:
≤ 6 questions → 1, ≤ 10 → 2, ≤ 15 → 3, ≤ 22 → 4, more or never → 5.
"""

from __future__ import annotations

import random
import statistics
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sadame.judge.engine._engine import check_answer
from sadame.judge.engine._errors import GameError
from sadame.judge.engine._model import Puzzle, PuzzlePack
from sadame.judge.game._game import GameState, GameStatus, PlayRecord, puzzle_hints

__all__ = [
    "REPLAY_ORDERS",
    "STATUS_LABELS",
    "CatalogEntry",
    "MeasuredDifficulty",
    "PackCatalog",
    "measure_difficulty",
    "parse_status",
    "puzzle_catalog",
    "puzzle_difficulty",
]

#: How many shuffled orders the replay tries (fixed seeds: the figure is reproducible).
REPLAY_ORDERS = 51
_LEVEL_BOUNDS = (6, 10, 15, 22)
#: Question tags (pack format 2) whose いいえ still confirms the concept asked about.
_NEGATED_TAGS = frozenset({"negation", "confirm-neg"})

#: How each status reads in Japanese.
STATUS_LABELS = {
    GameStatus.UNPLAYED: "未挑戦",
    GameStatus.IN_PROGRESS: "挑戦中",
    GameStatus.SOLVED: "正解",
    GameStatus.GAVE_UP: "ギブアップ",
}


@dataclass(frozen=True, slots=True)
class MeasuredDifficulty:
    """The replay measure (see the module docstring)."""

    median_questions: float | None
    level: int
    questions: int

    def to_dict(self) -> dict[str, object]:
        return {"median_questions": self.median_questions, "level": self.level, "questions": self.questions}


def puzzle_difficulty(puzzle: Puzzle) -> int | None:
    """The author's difficulty 1-5 (pack format 2), or None."""
    return puzzle.difficulty


_Replayed = tuple[str, str | None, tuple[str, ...]]  # question, expected verdict, tags


def _replay_questions(puzzle: Puzzle) -> list[_Replayed]:
    natural = [(item.q, item.expect, item.tags) for item in puzzle.questions]
    return natural or [(example.q, example.expect, ()) for example in puzzle.examples]


def _confirms(verdict: str, tags: tuple[str, ...]) -> bool:
    """はい to a question, or いいえ to a negated one (「電子レンジは関係ない？」→ いいえ).

    >>> _confirms("NO", ("negation",)), _confirms("NO", ()), _confirms("YES", ("casual",))
    (True, False, True)
    """
    return verdict == "YES" or (verdict == "NO" and not _NEGATED_TAGS.isdisjoint(tags))


def _confirmations(puzzle: Puzzle, questions: list[_Replayed]) -> list[frozenset[int]]:
    groups = tuple(tuple(group) for group in puzzle.solution)  # plain groups: substring test, no analyzer
    confirmed = []
    for question, expect, tags in questions:
        if expect is not None and _confirms(expect, tags):
            confirmed.append(frozenset(check_answer(question, groups).matched_groups))
        else:
            confirmed.append(frozenset())
    return confirmed


def _questions_needed(confirmed: list[frozenset[int]], groups: int, seed: str) -> int | None:
    order = list(range(len(confirmed)))
    random.Random(seed).shuffle(order)
    seen: set[int] = set()
    for asked, index in enumerate(order, start=1):
        seen |= confirmed[index]
        if len(seen) >= groups:
            return asked
    return None


def _level(median: float | None) -> int:
    if median is None:
        return 5
    return 1 + sum(1 for bound in _LEVEL_BOUNDS if median > bound)


_measured: dict[tuple[str, int], MeasuredDifficulty] = {}
_measured_lock = threading.Lock()


def measure_difficulty(puzzle: Puzzle) -> MeasuredDifficulty:
    """The measured difficulty of ``puzzle`` (cached per puzzle, its solution and questions)."""
    questions = _replay_questions(puzzle)
    key = (puzzle.id, hash((tuple(map(tuple, puzzle.solution)), tuple(questions))))
    with _measured_lock:
        cached = _measured.get(key)
    if cached is not None:
        return cached
    confirmed = _confirmations(puzzle, questions)
    groups = len(puzzle.solution)
    needed = [_questions_needed(confirmed, groups, f"{puzzle.id}:{k}") for k in range(REPLAY_ORDERS)]
    never = len(questions) + 1
    median = statistics.median(n if n is not None else never for n in needed)
    median_questions = None if median >= never else float(median)
    result = MeasuredDifficulty(median_questions, _level(median_questions), len(questions))
    with _measured_lock:
        _measured[key] = result
    return result


def parse_status(value: str | None) -> GameStatus | None:
    """A status filter from its key (``solved``) or its Japanese label (``正解``); None for all."""
    if value is None or not value.strip() or value.strip() in ("all", "すべて"):
        return None
    text = value.strip()
    for status, label in STATUS_LABELS.items():
        if text in (status.value, label):
            return status
    keys = "、".join(f"{s.value}（{label}）" for s, label in STATUS_LABELS.items())
    raise GameError(f"「{text}」という状態はありません。使えるのは {keys} です")


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One puzzle in the list, with this player's progress (no spoilers: no truth, no rules)."""

    pack: str
    id: str
    title: str
    difficulty: int | None
    measured: MeasuredDifficulty
    hints: int
    status: GameStatus
    questions: int
    hints_used: int
    best: PlayRecord | None

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    def to_dict(self) -> dict[str, object]:
        return {
            "pack": self.pack, "id": self.id, "title": self.title, "difficulty": self.difficulty,
            "measured": self.measured.to_dict(), "hints": self.hints, "status": str(self.status),
            "status_label": self.status_label, "questions": self.questions, "hints_used": self.hints_used,
            "best": self.best.to_dict() if self.best else None,
        }


@dataclass(frozen=True, slots=True)
class PackCatalog:
    """One pack in the list and its (filtered) puzzles; ``total`` counts them all."""

    name: str
    title: str
    total: int
    solved: int
    puzzles: tuple[CatalogEntry, ...]
    description: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "title": self.title, "description": self.description, "total": self.total,
                "solved": self.solved, "puzzles": [p.to_dict() for p in self.puzzles]}


def _entry(pack: PuzzlePack, puzzle: Puzzle, state: GameState | None) -> CatalogEntry:
    state = state or GameState(puzzle.id)
    shown = state.record() or (state.past[-1] if state.past and state.status is not GameStatus.IN_PROGRESS else None)
    questions = shown.questions if shown else len(state.history)
    hints_used = shown.hints if shown else state.hints_used
    return CatalogEntry(
        pack.name, puzzle.id, puzzle.title, puzzle_difficulty(puzzle), measure_difficulty(puzzle),
        len(puzzle_hints(puzzle)), state.status, questions, hints_used, state.best_solve(),
    )


def puzzle_catalog(
    packs: Iterable[PuzzlePack],
    states: Mapping[tuple[str, str], GameState],
    *,
    pack: str | None = None,
    status: GameStatus | None = None,
) -> list[PackCatalog]:
    """Every pack (or only ``pack``) with its puzzles whose status is ``status`` (or all).

    ``states`` maps ``(pack name, puzzle id)`` to this player's state.
    """
    listed = []
    for each in packs:
        if pack is not None and each.name != pack:
            continue
        entries = [_entry(each, p, states.get((each.name, p.id))) for p in each.puzzles.values()]
        solved = sum(1 for e in entries if e.best is not None)
        shown = tuple(e for e in entries if status is None or e.status is status)
        listed.append(PackCatalog(each.name, each.title, len(entries), solved, shown, each.description))
    return listed
