"""The puzzle game as the web serves it: packs, judges and what a browser may see.

The judge engine (``sadame.judge``) decides; this module keeps the state per
browser in :class:`~sadame.web._store.GameStore` and builds the *public view* of a
game. The public view is the only thing that reaches a browser, and it never holds
the truth (真相), the rules, rule ids or matched rule words until the puzzle is
solved or given up: the verdict, the author's note and the answer feedback are all
a player gets.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sadame.judge import Judge, JudgeFallback, Puzzle, PuzzlePack, bundled_pack, check_answer, load_pack
from sadame.web._store import GameStore

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_QUESTIONS",
    "GameError",
    "GameService",
    "PuzzleNotFound",
    "partial_credit_message",
]

MAX_QUESTIONS = 300
MAX_ATTEMPTS = 100


class GameError(ValueError):
    """A move the game does not accept (finished puzzle, too many questions ...)."""


class PuzzleNotFound(LookupError):
    """No such pack or puzzle."""


def partial_credit_message(matched: int, total: int) -> str:
    """The feedback for a wrong answer, e.g. ``惜しい、2つのうち1つは合っています``."""
    if matched <= 0:
        return "残念、まだ核心に届いていません"
    return f"惜しい、{total}つのうち{matched}つは合っています"


@dataclass(frozen=True, slots=True)
class PackEntry:
    name: str
    title: str
    pack: PuzzlePack


class GameService:
    """Loads packs lazily, judges questions and answers, and stores progress per browser."""

    def __init__(self, store: GameStore, packs: tuple[str, ...], fallback: JudgeFallback | None = None,
                 *, max_questions: int = MAX_QUESTIONS, max_attempts: int = MAX_ATTEMPTS) -> None:
        self._store = store
        self.max_questions = max_questions
        self.max_attempts = max_attempts
        self._pack_specs = packs
        self._fallback = fallback
        self._lock = threading.RLock()
        self._packs: dict[str, PackEntry] | None = None
        self._judges: dict[tuple[str, str, bool], Judge] = {}

    @property
    def llm_available(self) -> bool:
        """Whether an LLM fallback is configured (the opt-in toggle is shown only then)."""
        return self._fallback is not None

    def packs(self) -> dict[str, PackEntry]:
        """Every configured pack by name, loaded once."""
        with self._lock:
            if self._packs is None:
                loaded: dict[str, PackEntry] = {}
                for spec in self._pack_specs:
                    is_path = spec.endswith((".yaml", ".yml", ".json")) or "/" in spec
                    pack = load_pack(Path(spec)) if is_path else bundled_pack(spec)
                    loaded[pack.name] = PackEntry(pack.name, pack.title, pack)
                self._packs = loaded
            return self._packs

    def puzzle(self, pack: str, puzzle_id: str) -> Puzzle:
        entry = self.packs().get(pack)
        if entry is None:
            raise PuzzleNotFound(f"no puzzle pack {pack!r}")
        found = entry.pack.puzzles.get(puzzle_id)
        if found is None:
            raise PuzzleNotFound(f"no puzzle {puzzle_id!r} in pack {pack!r}")
        return found

    def listing(self, cookie: str | None) -> list[dict[str, Any]]:
        """Packs with their puzzles' ids and titles (and this browser's progress)."""
        result = []
        for entry in self.packs().values():
            puzzles = []
            for puzzle in entry.pack.puzzles.values():
                state = self._store.load(cookie, entry.name, puzzle.id) if cookie else None
                puzzles.append(
                    {
                        "id": puzzle.id,
                        "title": puzzle.title,
                        "questions": len(state["history"]) if state else 0,
                        "solved": bool(state and state["solved"]),
                        "gave_up": bool(state and state["gave_up"]),
                    }
                )
            result.append({"name": entry.name, "title": entry.title, "puzzles": puzzles})
        return result

    def _judge(self, pack: str, puzzle_id: str, use_llm: bool) -> Judge:
        key = (pack, puzzle_id, use_llm and self._fallback is not None)
        with self._lock:
            judge = self._judges.get(key)
            if judge is None:
                puzzle = self.puzzle(pack, puzzle_id)
                judge = Judge(puzzle, fallback=self._fallback if key[2] else None)
                self._judges[key] = judge
            return judge

    def view(self, cookie: str | None, pack: str, puzzle_id: str) -> dict[str, Any]:
        """The public view of a game for one browser (see the module docstring)."""
        puzzle = self.puzzle(pack, puzzle_id)
        state = (self._store.load(cookie, pack, puzzle_id) if cookie else None) or _empty()
        finished = bool(state["solved"] or state["gave_up"])
        return {
            "pack": pack,
            "id": puzzle.id,
            "title": puzzle.title,
            "statement": puzzle.statement,
            "history": state["history"],
            "attempts": state["attempts"],
            "solved": bool(state["solved"]),
            "gave_up": bool(state["gave_up"]),
            "finished": finished,
            "truth": puzzle.truth if finished else None,
            "llm_available": self.llm_available,
        }

    def ask(self, cookie: str, pack: str, puzzle_id: str, question: str, *, use_llm: bool = False,
            client: str | None = None) -> dict[str, Any]:
        """Judge a question and append it to this browser's history; returns the entry.

        The limit per browser is checked again in the transaction that stores the
        question, and ``client`` is charged its budget there (see ``GameStore.update``).
        """
        self.puzzle(pack, puzzle_id)
        if not question.strip():
            raise GameError("質問が空です")
        self._check_room(self._store.load(cookie, pack, puzzle_id) or _empty(), "history")
        result = self._judge(pack, puzzle_id, use_llm).ask(question)
        entry = {
            "question": question,
            "verdict": str(result.verdict),
            # The note comes from the rule table only (never LLM text), so it may be shown.
            "note": result.note,
            "source": str(result.source),
        }

        def change(doc: dict[str, Any] | None) -> dict[str, Any]:
            doc = self._check_room(doc or _empty(), "history")
            doc["history"].append(entry)
            return doc

        self._store.update(cookie, pack, puzzle_id, change, client=client, spend="q")
        return entry

    def answer(self, cookie: str, pack: str, puzzle_id: str, answer: str, *,
               client: str | None = None) -> dict[str, Any]:
        """Check an answer against the puzzle's solution; a correct one solves the puzzle."""
        puzzle = self.puzzle(pack, puzzle_id)
        if not answer.strip():
            raise GameError("答えが空です")
        self._check_room(self._store.load(cookie, pack, puzzle_id) or _empty(), "attempts")
        check = check_answer(answer, puzzle.solution)
        correct = bool(check.correct)
        entry = {
            "answer": answer,
            "correct": correct,
            "matched": int(check.matched),
            "total": int(check.total),
            "message": "正解です！" if correct else partial_credit_message(int(check.matched), int(check.total)),
        }

        def change(doc: dict[str, Any] | None) -> dict[str, Any]:
            doc = self._check_room(doc or _empty(), "attempts")
            doc["attempts"].append(entry)
            if correct:
                doc["solved"] = True
            return doc

        self._store.update(cookie, pack, puzzle_id, change, client=client, spend="a")
        return entry

    def _check_room(self, doc: dict[str, Any], field: str) -> dict[str, Any]:
        """Refuse a move on a finished puzzle or beyond the per-browser limit."""
        _check_open(doc)
        if field == "history" and len(doc["history"]) >= self.max_questions:
            raise GameError(f"質問は1問につき{self.max_questions}回までです")
        if field == "attempts" and len(doc["attempts"]) >= self.max_attempts:
            raise GameError(f"回答は1問につき{self.max_attempts}回までです")
        return doc

    def give_up(self, cookie: str, pack: str, puzzle_id: str, *, client: str | None = None) -> None:
        """Give up: the truth is revealed from now on. Giving up a finished puzzle is a no-op."""
        self.puzzle(pack, puzzle_id)

        def change(doc: dict[str, Any] | None) -> dict[str, Any]:
            doc = doc or _empty()
            if not doc["solved"]:
                doc["gave_up"] = True
            return doc

        self._store.update(cookie, pack, puzzle_id, change, client=client)


def _empty() -> dict[str, Any]:
    return {"history": [], "attempts": [], "solved": False, "gave_up": False}


def _check_open(doc: dict[str, Any]) -> None:
    if doc["solved"]:
        raise GameError("この問題はもう解けています")
    if doc["gave_up"]:
        raise GameError("この問題はギブアップ済みです")
