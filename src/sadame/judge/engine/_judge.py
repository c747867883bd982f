"""``Judge``: rules first, then (optionally) a fallback, always a defined result.

The fallback is any callable matching :class:`JudgeFallback` (the LLM feature
plugs one in). Whatever it does -- answer outside the table's closed set, answer
nothing, raise -- the caller gets a :class:`JudgeResult`; a note shown to the
player only ever comes from the table, never from fallback text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from sadame.judge.engine._engine import compile_table, normalize_question
from sadame.judge.engine._facts import MATTERS, absent_thing, weigh
from sadame.judge.engine._model import Puzzle, PuzzlePack, RuleTable
from sadame.judge.engine._natural import (
    DEFAULT_POLICY,
    NaturalHit,
    NaturalOutcome,
    Policy,
    clean,
    natural_analysis,
)
from sadame.lang import Token

__all__ = [
    "ABSENT_NOTE",
    "IRRELEVANT",
    "MATTERS",
    "MATTERS_NOTE",
    "MISS_NOTE",
    "UNDERSTOOD_NOTE",
    "UNKNOWN",
    "FallbackAnswer",
    "Judge",
    "JudgeFallback",
    "JudgeResult",
    "JudgeSource",
]

#: The verdict for "no verdict" (reserved: no table may declare it as an answer).
UNKNOWN = "UNKNOWN"
#: The note shown with UNKNOWN: ask again in other words.
MISS_NOTE = "別の言い方で聞いてみてください"

#: The note shown with MATTERS (format 3): the thing matters, the detail asked is not confirmed.
MATTERS_NOTE = "「{thing}」は関係しています（その点は別の聞き方で聞いてみてください）"

#: The note of a no-verdict reply when rules fired but the form could not be read: what was
#: understood, and one concrete rephrasing.
UNDERSTOOD_NOTE = "「{thing}」についての質問として受け取りましたが、答え方が決められません。「{thing}は関係ありますか？」のように聞いてみてください"

#: The verdict for a thing the story never names (format 3, when the table declares it).
IRRELEVANT = "IRRELEVANT"
#: The note shown with it.
ABSENT_NOTE = "「{thing}」はこの話には出てきません（関係ありません）"

JudgeSource = Literal["rules", "llm", "cache", "none"]


@dataclass(frozen=True, slots=True)
class FallbackAnswer:
    """What a fallback returns: a verdict (or None for "cannot tell"), where it
    came from, and an optional reason for logs (never shown as the note)."""

    verdict: str | None
    source: Literal["llm", "cache"]
    reason: str | None = None


class JudgeFallback(Protocol):
    """Called only when no rule matches a non-empty question."""

    def __call__(
        self, question: str, *, normalized: str, table: RuleTable, puzzle: Puzzle | None
    ) -> FallbackAnswer: ...


@dataclass(frozen=True, slots=True)
class JudgeResult:
    """The outcome of :meth:`Judge.ask`.

    ``source`` is ``rules`` for a rule hit, ``llm``/``cache`` for a fallback
    verdict, ``none`` when nothing answered (verdict ``UNKNOWN``).
    """

    verdict: str
    note: str | None
    source: JudgeSource
    rule_id: str | None = None
    rule_index: int | None = None
    matched_word: str | None = None
    reason: str | None = None

    @property
    def answered(self) -> bool:
        """True unless the verdict is UNKNOWN."""
        return self.verdict != UNKNOWN

    def to_dict(self) -> dict[str, object]:
        """JSON shape used by the CLI and the web API."""
        rule = None if self.rule_index is None else {"id": self.rule_id, "index": self.rule_index}
        return {
            "verdict": self.verdict,
            "note": self.note,
            "source": self.source,
            "rule": rule,
            "matched": self.matched_word,
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> JudgeResult:
        """Inverse of :meth:`to_dict`; raises ValueError/TypeError on malformed data."""
        source = data.get("source")
        if source not in ("rules", "llm", "cache", "none"):
            raise ValueError(f"unknown source {source!r}")
        rule = data.get("rule")
        rule_id: str | None = None
        rule_index: int | None = None
        if rule is not None:
            if not isinstance(rule, Mapping):
                raise TypeError("rule must be a mapping or null")
            rid, rindex = rule.get("id"), rule.get("index")
            rule_id = rid if isinstance(rid, str) else None
            if not isinstance(rindex, int):
                raise TypeError("rule.index must be an int")
            rule_index = rindex
        verdict = data.get("verdict")
        if not isinstance(verdict, str):
            raise TypeError("verdict must be a str")
        return cls(
            verdict=verdict,
            note=_opt_str(data.get("note")),
            source=source,
            rule_id=rule_id,
            rule_index=rule_index,
            matched_word=_opt_str(data.get("matched")),
            reason=_opt_str(data.get("reason")),
        )


def _opt_str(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"expected str or null, got {type(value).__name__}")


def _unknown(reason: str | None, source: JudgeSource = "none") -> JudgeResult:
    return JudgeResult(UNKNOWN, MISS_NOTE, source, reason=reason)


def _only_puzzle(pack: PuzzlePack) -> Puzzle:
    if len(pack.puzzles) != 1:
        raise TypeError(
            f"pack {pack.name!r} holds {len(pack.puzzles)} puzzles: pass one, Judge(pack.puzzle(id))"
        )
    return next(iter(pack.puzzles.values()))


def _understood(question: str, outcome: NaturalOutcome, source: JudgeSource = "none") -> JudgeResult:
    """No verdict; when a rule fired on part of the question, say which part (format 3)."""
    hits = outcome.candidates
    if not hits or not all(_says_what(h) for h in hits):
        return _unknown(outcome.reason, source)
    focus = max(hits, key=lambda h: (h.end - h.begin, -h.begin))
    thing = clean(question)[focus.begin:focus.end]
    return JudgeResult(UNKNOWN, UNDERSTOOD_NOTE.format(thing=thing), source, reason=outcome.reason)


def _says_what(hit: NaturalHit) -> bool:
    return hit.verdict is None  # the polarity or form was unclear, the thing was not


class Judge:
    """Judge questions against one table (or one puzzle's table).

    >>> from sadame.judge import parse_table
    >>> t = parse_table({"format": "sadame.rules/1", "name": "t", "answers": ["YES"],
    ...                  "rules": [{"any": ["大文字"], "answer": "YES", "note": "核心です"}]})
    >>> Judge(t).ask("大文字は関係ある？").verdict
    'YES'
    >>> Judge(t).ask("メモリ不足？").note
    '別の言い方で聞いてみてください'
    """

    def __init__(
        self, table_or_puzzle: RuleTable | Puzzle | PuzzlePack, fallback: JudgeFallback | None = None,
        *, policy: Policy = DEFAULT_POLICY,
    ) -> None:
        # Whatever load_table() returns type-checks: a pack of one puzzle is that puzzle; a pack of
        # several needs its puzzle named (pack.puzzle(id)).
        if isinstance(table_or_puzzle, PuzzlePack):
            table_or_puzzle = _only_puzzle(table_or_puzzle)
        if isinstance(table_or_puzzle, Puzzle):
            self.puzzle: Puzzle | None = table_or_puzzle
            self.table = table_or_puzzle.table
        elif isinstance(table_or_puzzle, RuleTable):
            self.puzzle = None
            self.table = table_or_puzzle
        else:
            raise TypeError(f"Judge expects a RuleTable, Puzzle or PuzzlePack, got {type(table_or_puzzle).__name__}")
        if fallback is not None and not callable(fallback):
            raise TypeError("fallback must be callable")
        self.fallback = fallback
        self.policy = policy

    def ask(self, question: object) -> JudgeResult:
        """Rules first; on a miss the fallback (if any); never raises for bad questions.

        A table in natural mode (format 2) is judged by :func:`natural_match`: when
        its polarity is unclear or its rules conflict, the question goes to the
        fallback like a miss (the reason is kept when nothing answers)."""
        if not isinstance(question, str):
            return _unknown(f"question must be a str, got {type(question).__name__}")
        normalized = normalize_question(question)
        if not normalized:
            return _unknown("question is empty after normalization")
        if self.table.matching == "natural":
            return self._ask_natural(question, normalized)
        hit = compile_table(self.table).match(normalized)
        if hit is not None:
            rule = hit.rule
            return JudgeResult(rule.answer, rule.note, "rules", rule.id, rule.index, hit.matched_word)
        if self.fallback is None:
            return _unknown(None)
        return self._ask_fallback(question, normalized)

    def _ask_natural(self, question: str, normalized: str) -> JudgeResult:
        outcome, tokens = natural_analysis(question, self.table, self.policy)
        outcome = weigh(outcome, tokens, self.table)
        hit = outcome.hit
        if hit is not None and hit.verdict == MATTERS and self.fallback is not None:
            asked = self._ask_fallback(question, normalized)
            if asked.answered:
                return asked
        if hit is not None:
            rule = hit.rule
            assert hit.verdict is not None
            if hit.verdict == MATTERS:
                note = MATTERS_NOTE.format(thing=clean(question)[hit.begin:hit.end])
                return JudgeResult(MATTERS, note, "rules", rule.id, rule.index, hit.matched_word, outcome.reason)
            reason = "the question is negated: the verdict is flipped" if hit.polarity == "negative" else None
            return JudgeResult(
                hit.verdict, rule.note, "rules", rule.id, rule.index, hit.matched_word, outcome.reason or reason
            )
        absent = self._absent(outcome, tokens)
        if self.fallback is None:
            if absent is not None:
                return absent
            return _understood(question, outcome) if self.table.guards_grammar else _unknown(outcome.reason)
        result = self._ask_fallback(question, normalized)
        if not result.answered and absent is not None:
            return absent
        if not result.answered and result.reason is None:
            if self.table.guards_grammar:
                return _understood(question, outcome, result.source)
            return _unknown(outcome.reason, result.source)
        return result

    def _absent(self, outcome: NaturalOutcome, tokens: tuple[Token, ...]) -> JudgeResult | None:
        """IRRELEVANT for a question about a thing the story never names, on which no rule fired."""
        if outcome.candidates or IRRELEVANT not in self.table.answers:
            return None
        thing = absent_thing(tokens, self.table)
        if thing is None:
            return None
        note = ABSENT_NOTE.format(thing=thing.surface)
        return JudgeResult(IRRELEVANT, note, "rules", reason=f"not in the story: {thing.surface}")

    def _ask_fallback(self, question: str, normalized: str) -> JudgeResult:
        assert self.fallback is not None
        try:
            answer = self.fallback(question, normalized=normalized, table=self.table, puzzle=self.puzzle)
        except Exception as exc:  # a fallback failure is a miss, never a crash
            return _unknown(f"fallback failed: {type(exc).__name__}: {exc}")
        if not isinstance(answer, FallbackAnswer):
            return _unknown(f"fallback returned {type(answer).__name__}, not FallbackAnswer")
        source: JudgeSource = answer.source if answer.source in ("llm", "cache") else "none"
        if answer.verdict is None:
            return _unknown(answer.reason or "fallback gave no verdict", source)
        if answer.verdict not in self.table.answers and not (
            answer.verdict == MATTERS and self.table.weighs_details
        ):
            return _unknown(
                f"fallback verdict {answer.verdict!r} is not one of {', '.join(self.table.answers)}", source
            )
        return JudgeResult(answer.verdict, None, source, reason=answer.reason)
