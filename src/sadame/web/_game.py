"""The puzzle game as the web serves it: storage per browser and the no-spoiler view.

The game itself -- moves, rules of play, every Japanese reply, the puzzle list --
is :mod:`sadame.judge.game`, the same state machine ``sadame play`` runs. This
module only loads the configured packs, keeps each browser's
:class:`~sadame.judge.game.GameState` as JSON in
:class:`~sadame.web._store.GameStore` (one compare-and-set per move), and builds the
*public view* of a game. The public view is the only thing that reaches a browser:
it never holds the truth (真相), the rules, rule ids, matched rule words or hints
not yet taken until the puzzle is solved or given up.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from sadame.judge import Judge, JudgeFallback, JudgeResult, Puzzle, PuzzlePack, bundled_pack, load_pack
from sadame.judge.engine._loader import bundled_names
from sadame.judge.game import GameError, GameState, UnknownPuzzle, measure_difficulty, puzzle_catalog
from sadame.judge.game._catalog import STATUS_LABELS, PackCatalog, parse_status, puzzle_difficulty
from sadame.judge.game._game import MAX_ATTEMPTS, MAX_QUESTIONS, grade_answer, puzzle_hints
from sadame.judge.game._messages import (
    answer_feedback,
    answer_intro,
    answer_progress,
    reply_note,
    result_summary,
    verdict_label,
)
from sadame.web._store import GameStore, Seen

__all__ = ["GameService", "public_question"]

log = logging.getLogger("sadame.web")


@functools.cache
def _bundled(name: str) -> PuzzlePack:
    """A bundled pack, loaded once per process (packs are immutable; every app shares them)."""
    return bundled_pack(name)


def public_question(question: str, result: JudgeResult) -> dict[str, Any]:
    """What a browser sees of a judged question: verdict, its Japanese label and the note.

    The note comes from the rule table (or is the rephrasing advice), never LLM text."""
    return {"question": question, "verdict": result.verdict, "label": verdict_label(result.verdict),
            "note": reply_note(result), "source": result.source}


def _public_attempt(answer: str, correct: bool, matched: int, total: int, message: str) -> dict[str, Any]:
    return {"answer": answer, "correct": correct, "matched": matched, "total": total, "message": message}


def _legacy(doc: dict[str, Any], puzzle_id: str) -> dict[str, Any]:
    """A state stored before the game moved into sadame.judge (history without rule data)."""
    history = [{"question": h["question"], "result": {"verdict": h["verdict"], "note": h.get("note"),
                                                      "source": h.get("source", "rules")}}
               for h in doc.get("history", [])]
    attempts = [{"answer": a["answer"], "check": {"correct": a["correct"], "matched": a["matched"],
                                                  "total": a["total"]}} for a in doc.get("attempts", [])]
    return {"puzzle_id": puzzle_id, "history": history, "attempts": attempts,
            "solved": bool(doc.get("solved")), "gave_up": bool(doc.get("gave_up"))}


def _state(doc: dict[str, Any] | None, puzzle_id: str) -> GameState:
    if not doc:
        return GameState(puzzle_id)
    try:
        return GameState.from_dict(doc if "puzzle_id" in doc else _legacy(doc, puzzle_id))
    except (ValueError, TypeError, KeyError) as exc:  # never lock a browser out of a puzzle
        log.warning("unreadable game state for %s reset: %s", puzzle_id, exc)
        return GameState(puzzle_id)


class GameService:
    """Loads packs lazily, plays moves on each browser's stored state, builds public views."""

    def __init__(self, store: GameStore, packs: tuple[str, ...], fallback: JudgeFallback | None = None,
                 *, max_questions: int = MAX_QUESTIONS, max_attempts: int = MAX_ATTEMPTS) -> None:
        self._store = store
        #: per browser and puzzle; checked again inside the transaction that stores a move, so
        #: parallel requests cannot exceed them
        self.max_questions = max_questions
        self.max_attempts = max_attempts
        self._pack_specs = packs or bundled_names()
        self._fallback = fallback
        self._lock = threading.RLock()
        self._packs: dict[str, PuzzlePack] | None = None
        self._judges: dict[tuple[str, str, bool], Judge] = {}
        self._unplayed: list[PackCatalog] | None = None
        self._memo: dict[Hashable, bytes] = {}

    @property
    def llm_available(self) -> bool:
        """Whether an LLM fallback is configured (the opt-in toggle is shown only then)."""
        return self._fallback is not None

    def packs(self) -> dict[str, PuzzlePack]:
        """Every configured pack by name, loaded once, in the configured order."""
        with self._lock:
            if self._packs is None:
                loaded: dict[str, PuzzlePack] = {}
                for spec in self._pack_specs:
                    is_path = spec.endswith((".yaml", ".yml", ".json")) or "/" in spec
                    pack = load_pack(Path(spec)) if is_path else _bundled(spec)
                    loaded[pack.name] = pack
                self._packs = loaded
            return self._packs

    def puzzle(self, pack: str, puzzle_id: str) -> Puzzle:
        found = self.packs().get(pack)
        if found is None:
            raise UnknownPuzzle(f"「{pack}」という問題集はありません")
        puzzle = found.puzzles.get(puzzle_id)
        if puzzle is None:
            raise UnknownPuzzle(f"問題集「{found.title}」に「{puzzle_id}」という問題はありません")
        return puzzle

    def _judge(self, pack: str, puzzle_id: str, use_llm: bool) -> Judge:
        key = (pack, puzzle_id, use_llm and self._fallback is not None)
        with self._lock:
            judge = self._judges.get(key)
            if judge is None:
                judge = Judge(self.puzzle(pack, puzzle_id), fallback=self._fallback if key[2] else None)
                self._judges[key] = judge
            return judge

    def _load(self, cookie: str | None, pack: str, puzzle: Puzzle) -> GameState:
        return self._load_seen(cookie, pack, puzzle)[0]

    def _load_seen(self, cookie: str | None, pack: str, puzzle: Puzzle) -> tuple[GameState, Seen | None]:
        seen = self._store.load_seen(cookie, pack, puzzle.id) if cookie else None
        return _state(seen[1] if seen else None, puzzle.id), seen

    def _change(self, cookie: str, pack: str, puzzle: Puzzle, move: Callable[[GameState], None], *,
                client: str | None = None, spend: str | None = None, seen: Seen | None = None) -> GameState:
        """Apply ``move`` to the stored state atomically; returns the new state.

        ``client`` is charged its budget in the same transaction (``spend``: ``"q"`` for a question,
        ``"a"`` for an answer; see :meth:`GameStore.update`)."""
        changed: list[GameState] = []

        def change(doc: dict[str, Any] | None) -> dict[str, Any]:
            state = _state(doc, puzzle.id)
            move(state)
            changed[:] = [state]
            return state.to_dict()

        self._store.update(cookie, pack, puzzle.id, change, client=client, spend=spend, seen=seen)
        return changed[0]

    def _check_room(self, state: GameState, kind: str) -> None:
        """Refuse a move beyond this service's per-browser limit (stricter than the game's own)."""
        if kind == "q" and len(state.history) >= self.max_questions:
            raise GameError(f"質問は1問につき{self.max_questions}回までです")
        if kind == "a" and len(state.attempts) >= self.max_attempts:
            raise GameError(f"回答は1問につき{self.max_attempts}回までです")

    # -- reading ---------------------------------------------------------------------------

    def listing(self, cookie: str | None, pack: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        """Packs and puzzles with difficulty and this browser's progress, filtered by
        ``pack`` (a name) and ``status`` (``solved`` / ``gave_up`` / ``in_progress`` / ``unplayed``)."""
        return self.listing_of(self.played(cookie), pack, status)

    def played(self, cookie: str | None) -> dict[tuple[str, str], GameState]:
        """This browser's stored game states by (pack, puzzle id) -- one query, none without a cookie."""
        docs = self._store.load_all(cookie) if cookie else {}
        return {key: _state(doc, key[1]) for key, doc in docs.items()}

    def listing_of(self, states: Mapping[tuple[str, str], GameState], pack: str | None = None,
                   status: str | None = None) -> list[dict[str, Any]]:
        """:meth:`listing` for the states of :meth:`played`."""
        return [catalog.to_dict() for catalog in self._catalog(states, pack, status)]

    def _catalog(self, states: Mapping[tuple[str, str], GameState], pack: str | None,
                 status: str | None) -> list[PackCatalog]:
        """``puzzle_catalog`` of every pack for ``states``: the unplayed catalog is built once, and only
        the puzzles this browser played are listed again (the rest read as unplayed in any case)."""
        wanted = parse_status(status)
        packs = self.packs()
        if pack is not None and pack not in packs:
            raise UnknownPuzzle(f"「{pack}」という問題集はありません")
        with self._lock:
            if self._unplayed is None:
                self._unplayed = puzzle_catalog(packs.values(), {})
            unplayed = self._unplayed
        by_pack: dict[str, dict[str, Puzzle]] = {}
        for name, puzzle_id in states:
            found = packs.get(name)
            if found is not None and puzzle_id in found.puzzles and pack in (None, name):
                by_pack.setdefault(name, {})[puzzle_id] = found.puzzles[puzzle_id]
        played = {(catalog.name, entry.id): entry
                  for catalog in puzzle_catalog([replace(packs[n], puzzles=p) for n, p in by_pack.items()], states)
                  for entry in catalog.puzzles}
        listed = []
        for catalog in unplayed:
            if pack is not None and catalog.name != pack:
                continue
            entries = [played.get((catalog.name, entry.id), entry) for entry in catalog.puzzles]
            listed.append(replace(catalog, solved=sum(1 for e in entries if e.best is not None),
                                  puzzles=tuple(e for e in entries if wanted is None or e.status is wanted)))
        return listed

    def memo(self, key: Hashable, build: Callable[[], bytes] | None = None) -> bytes | None:
        """What ``build()`` gave for ``key``, built now when not yet kept (for responses that depend
        only on the packs, such as the list an unplayed browser sees; keys must be bounded); without
        ``build``, None when nothing is kept yet."""
        with self._lock:
            found = self._memo.get(key)
        if found is None and build is not None:
            found = build()
            with self._lock:
                self._memo[key] = found
        return found

    def warm(self) -> None:
        """Load the packs and build the unplayed catalog now (a server worker does this before it
        listens, so no request waits seconds for them)."""
        self._catalog({}, None, None)

    def view(self, cookie: str | None, pack: str, puzzle_id: str) -> dict[str, Any]:
        """The public view of a game for one browser (see the module docstring)."""
        puzzle = self.puzzle(pack, puzzle_id)
        state = self._load(cookie, pack, puzzle)
        record = state.record()
        total = len(puzzle.solution)
        return {
            "pack": pack, "pack_title": self.packs()[pack].title, "id": puzzle.id, "title": puzzle.title, "statement": puzzle.statement,
            "difficulty": puzzle_difficulty(puzzle), "measured": measure_difficulty(puzzle).to_dict(),
            "history": [public_question(q, r) for q, r in state.history],
            "attempts": [_public_attempt(a, c.correct, c.matched, c.total, answer_feedback(c))
                         for a, c in state.attempts],
            "hints": list(state.hints_shown(puzzle)), "hints_total": len(puzzle_hints(puzzle)),
            "hints_used": state.hints_used,
            "status": str(state.status), "status_label": STATUS_LABELS[state.status],
            "solved": state.solved, "gave_up": state.gave_up, "finished": state.finished,
            "truth": puzzle.truth if state.finished else None,
            "result": result_summary(record.outcome, record.questions, record.hints) if record else None,
            "answer_intro": answer_intro(total),
            "answer_progress": answer_progress(state.best_matched, total) if state.attempts else None,
            "llm_available": self.llm_available,
        }

    # -- moves -----------------------------------------------------------------------------

    def ask(self, cookie: str, pack: str, puzzle_id: str, question: str, *, use_llm: bool = False,
            client: str | None = None) -> dict[str, Any]:
        """Judge a question and append it to this browser's history; returns the public entry."""
        puzzle = self.puzzle(pack, puzzle_id)
        current, seen = self._load_seen(cookie, pack, puzzle)
        text = current.check_question(question)
        self._check_room(current, "q")
        result = self._judge(pack, puzzle_id, use_llm).ask(text)

        def move(state: GameState) -> None:
            self._check_room(state, "q")
            state.record_question(text, result)

        self._change(cookie, pack, puzzle, move, client=client, spend="q", seen=seen)
        return public_question(text, result)

    def answer(self, cookie: str, pack: str, puzzle_id: str, answer: str, *,
               client: str | None = None) -> dict[str, Any]:
        """Check an answer against the solution; a correct one solves the puzzle."""
        puzzle = self.puzzle(pack, puzzle_id)
        current, seen = self._load_seen(cookie, pack, puzzle)
        text = current.check_answer_text(answer)
        self._check_room(current, "a")
        check = grade_answer(puzzle, text)

        def move(state: GameState) -> None:
            self._check_room(state, "a")
            state.record_attempt(text, check)

        self._change(cookie, pack, puzzle, move, client=client, spend="a", seen=seen)
        return _public_attempt(text, check.correct, check.matched, check.total, answer_feedback(check))

    def hint(self, cookie: str, pack: str, puzzle_id: str, *, client: str | None = None) -> dict[str, Any]:
        """Reveal the next hint (counted); returns its number and text."""
        puzzle = self.puzzle(pack, puzzle_id)
        taken: list[str] = []
        state = self._change(cookie, pack, puzzle, lambda state: taken.append(state.take_hint(puzzle)),
                             client=client)
        return {"number": state.hints_used, "hint": taken[-1], "hints_total": len(puzzle_hints(puzzle))}

    def give_up(self, cookie: str, pack: str, puzzle_id: str, *, client: str | None = None) -> None:
        """Give up: the truth is revealed from now on. Giving up a finished puzzle is a no-op."""
        self._change(cookie, pack, self.puzzle(pack, puzzle_id), GameState.give_up, client=client)

    def restart(self, cookie: str, pack: str, puzzle_id: str, *, client: str | None = None) -> None:
        """Play a solved or given-up puzzle again (the finished play stays in the record)."""
        self._change(cookie, pack, self.puzzle(pack, puzzle_id), GameState.restart, client=client)
