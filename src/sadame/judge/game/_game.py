"""The puzzle game's one state machine: :class:`GameState`.

Pure: no I/O. The terminal loop (:mod:`sadame.judge.game._play`) keeps a ``GameState``
in memory; the web app keeps only its JSON (:meth:`GameState.to_dict`) in the
database and rebuilds the state for each move. Both make moves through the same
methods and word the replies with :mod:`sadame.judge.game._messages`, so a move gets
the same feedback in the terminal and in the browser.

States of one puzzle::

    unplayed --ask/hint/answer--> in_progress --correct answer--> solved
                                      |                              |
                                      +--give_up--> gave_up          |
    solved / gave_up --restart--> a new play (the finished one is kept in ``past``, and the
                                  status shows its outcome until the first move)

>>> from sadame.judge import bundled_pack
>>> puzzle = next(iter(bundled_pack("engineering").puzzles.values()))
>>> state = GameState(puzzle.id)
>>> state.status
<GameStatus.UNPLAYED: 'unplayed'>
>>> state.give_up(); state.status
<GameStatus.GAVE_UP: 'gave_up'>
>>> state.restart(); (state.finished, len(state.past))
(False, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sadame.judge.engine._engine import AnswerCheck, check_answer
from sadame.judge.engine._errors import GameError, GameFinished
from sadame.judge.engine._judge import Judge, JudgeResult
from sadame.judge.engine._model import Puzzle

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_MOVE_CHARS",
    "MAX_QUESTIONS",
    "GameState",
    "GameStatus",
    "PlayRecord",
    "grade_answer",
    "puzzle_hints",
]

#: Questions per play of one puzzle.
MAX_QUESTIONS = 300
#: Answers per play of one puzzle.
MAX_ATTEMPTS = 100
#: Characters per question or answer.
MAX_MOVE_CHARS = 2_000
#: Finished plays remembered per puzzle (the oldest are dropped).
MAX_PAST = 50


class GameStatus(StrEnum):
    """Where a player stands on one puzzle."""

    UNPLAYED = "unplayed"
    IN_PROGRESS = "in_progress"
    SOLVED = "solved"
    GAVE_UP = "gave_up"


def puzzle_hints(puzzle: Puzzle) -> tuple[str, ...]:
    """The author's hints of ``puzzle`` in order (pack format 2; none in format 1)."""
    return puzzle.hints


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """One finished play: how it ended and what it took."""

    outcome: GameStatus
    questions: int
    hints: int
    attempts: int

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": str(self.outcome), "questions": self.questions, "hints": self.hints,
                "attempts": self.attempts}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayRecord:
        outcome = GameStatus(data["outcome"])
        if outcome not in (GameStatus.SOLVED, GameStatus.GAVE_UP):
            raise ValueError(f"a finished play cannot be {outcome}")
        counts = [data["questions"], data["hints"], data["attempts"]]
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
            raise TypeError("questions, hints and attempts must be non-negative ints")
        return cls(outcome, *counts)


def grade_answer(puzzle: Puzzle, answer: str) -> AnswerCheck:
    """How ``answer`` fares against ``puzzle``'s solution (the one grading rule of the game)."""
    return check_answer(answer, puzzle.solution)


def _move_text(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise GameError(f"{what}は文字列で入力してください")
    if not text.strip():
        raise GameError(f"{what}が空です")
    if len(text) > MAX_MOVE_CHARS:
        raise GameError(f"{what}は{MAX_MOVE_CHARS}文字以内で入力してください")
    return text.strip()


@dataclass
class GameState:
    """One puzzle as one player plays it: the current play and the finished ones."""

    puzzle_id: str
    history: list[tuple[str, JudgeResult]] = field(default_factory=list)
    attempts: list[tuple[str, AnswerCheck]] = field(default_factory=list)
    solved: bool = False
    gave_up: bool = False
    hints_used: int = 0
    past: list[PlayRecord] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Solved or given up: the truth may be shown, no more moves until a restart."""
        return self.solved or self.gave_up

    @property
    def status(self) -> GameStatus:
        """The current play's status; a fresh replay shows the last finished play's."""
        if self.solved:
            return GameStatus.SOLVED
        if self.gave_up:
            return GameStatus.GAVE_UP
        if self.history or self.attempts or self.hints_used:
            return GameStatus.IN_PROGRESS
        return self.past[-1].outcome if self.past else GameStatus.UNPLAYED

    @property
    def best_matched(self) -> int:
        """The most solution points any answer of this play got."""
        return max((check.matched for _a, check in self.attempts), default=0)

    def record(self) -> PlayRecord | None:
        """This play as a record, once finished."""
        if not self.finished:
            return None
        outcome = GameStatus.SOLVED if self.solved else GameStatus.GAVE_UP
        return PlayRecord(outcome, len(self.history), self.hints_used, len(self.attempts))

    def best_solve(self) -> PlayRecord | None:
        """The solved play with the fewest questions (then hints), this one included."""
        plays = [*self.past, *([r] if (r := self.record()) else [])]
        solved = [p for p in plays if p.outcome is GameStatus.SOLVED]
        return min(solved, key=lambda p: (p.questions, p.hints), default=None)

    def check_open(self, puzzle_id: str | None = None) -> None:
        """Raise :class:`GameFinished` (or :class:`GameError` for another puzzle's move)."""
        if puzzle_id is not None and puzzle_id != self.puzzle_id:
            raise GameError(f"この記録は問題「{self.puzzle_id}」のものです（「{puzzle_id}」ではありません）")
        if self.solved:
            raise GameFinished("この問題はもう解けています")
        if self.gave_up:
            raise GameFinished("この問題はギブアップ済みです")

    # -- questions -------------------------------------------------------------------------

    def check_question(self, question: object) -> str:
        """The question to judge (stripped), or :class:`GameError` when it cannot be asked now."""
        self.check_open()
        text = _move_text(question, "質問")
        if len(self.history) >= MAX_QUESTIONS:
            raise GameError(f"質問は1回のプレイにつき{MAX_QUESTIONS}回までです")
        return text

    def record_question(self, question: str, result: JudgeResult) -> None:
        """Add a judged question to the history (checks again: the state may have moved)."""
        text = self.check_question(question)
        self.history.append((text, result))

    def ask(self, judge: Judge, question: object) -> JudgeResult:
        """Check, judge and record ``question``."""
        if judge.puzzle is not None:
            self.check_open(judge.puzzle.id)
        text = self.check_question(question)
        result = judge.ask(text)
        self.record_question(text, result)
        return result

    # -- answers ---------------------------------------------------------------------------

    def check_answer_text(self, answer: object) -> str:
        """The answer to check (stripped), or :class:`GameError`."""
        self.check_open()
        text = _move_text(answer, "答え")
        if len(self.attempts) >= MAX_ATTEMPTS:
            raise GameError(f"回答は1回のプレイにつき{MAX_ATTEMPTS}回までです")
        return text

    def record_attempt(self, answer: str, check: AnswerCheck) -> None:
        """Add a checked answer; a correct one solves the puzzle."""
        text = self.check_answer_text(answer)
        self.attempts.append((text, check))
        if check.correct:
            self.solved = True

    def submit(self, puzzle: Puzzle, answer: object) -> AnswerCheck:
        """Check an answer against the solution and record it."""
        self.check_open(puzzle.id)
        text = self.check_answer_text(answer)
        check = grade_answer(puzzle, text)
        self.record_attempt(text, check)
        return check

    # -- hints, giving up, replaying ---------------------------------------------------------

    def hints_shown(self, puzzle: Puzzle) -> tuple[str, ...]:
        """The hints revealed so far in this play (finished plays show all they used)."""
        return puzzle_hints(puzzle)[: self.hints_used]

    def take_hint(self, puzzle: Puzzle) -> str:
        """Reveal the next hint and count it."""
        self.check_open(puzzle.id)
        hints = puzzle_hints(puzzle)
        if not hints:
            raise GameError("この問題にはヒントがありません")
        if self.hints_used >= len(hints):
            raise GameError(f"ヒントは{len(hints)}つまでです。もう残っていません")
        self.hints_used += 1
        return hints[self.hints_used - 1]

    def give_up(self) -> None:
        """Give up (reveals the truth); a no-op once finished."""
        if not self.finished:
            self.gave_up = True

    def restart(self) -> None:
        """Play a finished puzzle again: the finished play goes to ``past``."""
        record = self.record()
        if record is None:
            raise GameError("まだ遊んでいる途中です。最初からやり直すには、先に正解するかギブアップしてください")
        self.past = [*self.past, record][-MAX_PAST:]
        self.history, self.attempts, self.hints_used = [], [], 0
        self.solved = self.gave_up = False

    # -- storage -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "puzzle_id": self.puzzle_id,
            "history": [{"question": q, "result": r.to_dict()} for q, r in self.history],
            "attempts": [{"answer": a, "check": c.to_dict()} for a, c in self.attempts],
            "solved": self.solved,
            "gave_up": self.gave_up,
            "hints_used": self.hints_used,
            "past": [p.to_dict() for p in self.past],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Inverse of :meth:`to_dict`; raises ValueError/TypeError on malformed data."""
        if not isinstance(data, Mapping):
            raise TypeError(f"game state must be a mapping, got {type(data).__name__}")
        try:
            puzzle_id = data["puzzle_id"]
            if not isinstance(puzzle_id, str):
                raise TypeError("puzzle_id must be a str")
            history = [(str(item["question"]), JudgeResult.from_dict(item["result"])) for item in data["history"]]
            attempts = [(str(item["answer"]), AnswerCheck.from_dict(item["check"])) for item in data["attempts"]]
            solved, gave_up = data["solved"], data["gave_up"]
            hints_used = data.get("hints_used", 0)
            past = [PlayRecord.from_dict(item) for item in data.get("past", [])]
        except KeyError as exc:
            raise ValueError(f"game state lacks {exc.args[0]!r}") from None
        if not isinstance(solved, bool) or not isinstance(gave_up, bool):
            raise TypeError("solved and gave_up must be booleans")
        if not isinstance(hints_used, int) or isinstance(hints_used, bool) or hints_used < 0:
            raise TypeError("hints_used must be a non-negative int")
        return cls(puzzle_id, history, attempts, solved, gave_up, hints_used, past)
