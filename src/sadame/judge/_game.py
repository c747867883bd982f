"""``GameState``: the pure state of one puzzle being played (terminal and web).

No I/O: the terminal loop (:mod:`sadame.judge._play`) and the web app both keep a
``GameState``, call :meth:`GameState.ask` / :meth:`GameState.submit` /
:meth:`GameState.give_up`, and store it with :meth:`to_dict` / :meth:`from_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sadame.judge._engine import AnswerCheck, check_answer
from sadame.judge._errors import JudgeError
from sadame.judge._judge import Judge, JudgeResult
from sadame.judge._model import Puzzle

__all__ = ["GameFinished", "GameState", "answer_feedback"]


class GameFinished(JudgeError):
    """The puzzle was already solved or given up; start a new game to play again."""


def answer_feedback(check: AnswerCheck) -> str:
    """The Japanese feedback line for an answer check (partial credit included).

    >>> answer_feedback(AnswerCheck(False, 1, 2, (0,)))
    '惜しい、2つのうち1つは合っています'
    """
    if check.correct:
        return "正解です！"
    if check.matched > 0:
        return f"惜しい、{check.total}つのうち{check.matched}つは合っています"
    return "違います。もう少し考えてみてください"


@dataclass
class GameState:
    """One play of one puzzle: the questions asked, the answers tried, the outcome."""

    puzzle_id: str
    history: list[tuple[str, JudgeResult]] = field(default_factory=list)
    attempts: list[tuple[str, AnswerCheck]] = field(default_factory=list)
    solved: bool = False
    gave_up: bool = False

    @property
    def finished(self) -> bool:
        """Solved or given up: the truth may be shown, no more moves."""
        return self.solved or self.gave_up

    def _check_move(self, puzzle_id: str) -> None:
        if puzzle_id != self.puzzle_id:
            raise JudgeError(f"this game is for puzzle {self.puzzle_id!r}, not {puzzle_id!r}")
        if self.finished:
            state = "solved" if self.solved else "given up"
            raise GameFinished(f"puzzle {self.puzzle_id!r} is already {state}")

    def ask(self, judge: Judge, question: str) -> JudgeResult:
        """Judge ``question`` and record it in the history."""
        if judge.puzzle is not None:
            self._check_move(judge.puzzle.id)
        elif self.finished:
            self._check_move(self.puzzle_id)
        result = judge.ask(question)
        self.history.append((question if isinstance(question, str) else repr(question), result))
        return result

    def submit(self, puzzle: Puzzle, answer: str) -> AnswerCheck:
        """Check an answer against the solution; a correct one solves the puzzle."""
        self._check_move(puzzle.id)
        check = check_answer(answer, puzzle.solution)
        self.attempts.append((answer if isinstance(answer, str) else repr(answer), check))
        if check.correct:
            self.solved = True
        return check

    def give_up(self) -> None:
        """Give up (reveals the truth); a no-op once finished."""
        if not self.finished:
            self.gave_up = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "puzzle_id": self.puzzle_id,
            "history": [{"question": q, "result": r.to_dict()} for q, r in self.history],
            "attempts": [{"answer": a, "check": c.to_dict()} for a, c in self.attempts],
            "solved": self.solved,
            "gave_up": self.gave_up,
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
        except KeyError as exc:
            raise ValueError(f"game state lacks {exc.args[0]!r}") from None
        if not isinstance(solved, bool) or not isinstance(gave_up, bool):
            raise TypeError("solved and gave_up must be booleans")
        return cls(puzzle_id, history, attempts, solved, gave_up)
