"""The data model of rule tables and puzzle packs (immutable, loaded once).

Every word is kept twice: as the author wrote it (for messages and reports) and
normalized with the ``judge`` preset (for matching). The loader fills both; see
:mod:`sadame.judge.engine._loader`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sadame.judge.engine._errors import UnknownPuzzle

__all__ = [
    "MATCHING_MODES",
    "AnswerCheck",
    "AnswerExample",
    "Example",
    "Puzzle",
    "PuzzlePack",
    "Question",
    "Rule",
    "RuleTable",
    "Solution",
]

#: How a table matches questions: ``seed`` (the seed's substring test, format 1)
#: or ``natural`` (tokens, readings, normalized forms and polarity; format 2 default).
MATCHING_MODES = ("seed", "natural")


@dataclass(frozen=True, slots=True)
class AnswerCheck:
    """How an answer fares against the solution groups.

    ``correct`` needs every group (and at least one group); ``matched`` and
    ``matched_groups`` give partial credit ("惜しい、2つのうち1つは合っています").
    ``advice`` says why an answer naming every concept still is not accepted.
    """

    correct: bool
    matched: int
    total: int
    matched_groups: tuple[int, ...]
    #: In natural mode, why a complete-looking answer only earns partial credit
    #: (a bare keyword list, an answer far too long), in Japanese for the player.
    advice: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "correct": self.correct,
            "matched": self.matched,
            "total": self.total,
            "matched_groups": list(self.matched_groups),
            "advice": self.advice,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> AnswerCheck:
        groups = data.get("matched_groups", ())
        if not isinstance(groups, list | tuple):
            raise TypeError("matched_groups must be a list")
        return cls(
            correct=bool(data["correct"]),
            matched=int(str(data["matched"])),
            total=int(str(data["total"])),
            matched_groups=tuple(int(g) for g in groups),
            advice=_optional_str(data.get("advice")),
        )


def _optional_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


class Solution(tuple[tuple[str, ...], ...]):
    """A puzzle's solution groups (a plain tuple of word tuples) that also remember
    how the puzzle matches: :func:`check_answer` grades a natural-mode solution in
    natural mode (negated concepts do not count, keyword lists and overlong answers
    earn partial credit at most), so every caller of
    ``check_answer(answer, puzzle.solution)`` gets the right checker.
    Format-1 packs keep plain tuples (the seed's ``checkSolution``)."""

    matching: str
    synonyms: Mapping[str, tuple[str, ...]]
    max_chars: int

    def __new__(
        cls, groups: Iterable[tuple[str, ...]], matching: str = "natural",
        synonyms: Mapping[str, tuple[str, ...]] | None = None, max_chars: int = 600,
    ) -> Solution:
        self = super().__new__(cls, groups)
        self.matching = matching
        self.synonyms = MappingProxyType(dict(synonyms or {}))
        self.max_chars = max_chars
        return self


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: when no ``not_`` word and some ``any`` word occurs, answer ``answer``.

    ``index`` is the rule's position in its table (0-based): the priority.
    """

    index: int
    id: str | None
    any: tuple[str, ...]
    not_: tuple[str, ...]
    answer: str
    note: str | None
    any_normalized: tuple[str, ...]
    not_normalized: tuple[str, ...]

    @property
    def label(self) -> str:
        """``#3 (case)`` -- how reports name the rule."""
        return f"#{self.index}" + (f" ({self.id})" if self.id else "")

    def to_dict(self) -> dict[str, object]:
        """The rule as the author wrote it (the data file's shape)."""
        data: dict[str, object] = {}
        if self.id is not None:
            data["id"] = self.id
        data["any"] = list(self.any)
        if self.not_:
            data["not"] = list(self.not_)
        data["answer"] = self.answer
        if self.note is not None:
            data["note"] = self.note
        return data


@dataclass(frozen=True, slots=True)
class Example:
    """A question and the verdict the table must give (``None``: no rule matches)."""

    q: str
    expect: str | None


@dataclass(frozen=True, slots=True)
class Question:
    """A natural question written the way players type (format 2), the verdict it
    must get (``None``: no verdict), its tags (``negation``, ``kana``...) and
    whether "no verdict" is acceptable instead (``none_ok``)."""

    q: str
    expect: str | None
    tags: tuple[str, ...] = ()
    none_ok: bool = False


@dataclass(frozen=True, slots=True)
class AnswerExample:
    """An answer text and whether :func:`check_answer` must call it correct
    (and, optionally, how many solution groups it must match)."""

    a: str
    correct: bool
    matched: int | None = None
    kind: str | None = None  #: correct / partial / wrong / denial / keywords (format 2)


@dataclass(frozen=True)
class RuleTable:
    """An ordered rule table with a closed answer set.

    ``version`` is the sha256 hex digest of the table's canonical content: equal
    versions judge identically (given the same normalization contract).
    Its compiled matcher is built on first use by :func:`sadame.judge.compile_table`
    and cached on the instance.
    ``matching`` is ``seed`` (format 1) or ``natural``; ``synonyms`` maps a rule
    word to the variants it also matches (natural mode). ``facts`` (pack format 3)
    are what is true of the story, and ``context`` is the statement the player was
    shown (its words are never a question's details); see ``_facts``.
    """

    name: str
    answers: tuple[str, ...]
    rules: tuple[Rule, ...]
    version: str
    examples: tuple[Example, ...] = ()
    source: str | None = field(default=None, compare=False)
    matching: str = "seed"
    synonyms: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    questions: tuple[Question, ...] = ()
    facts: tuple[str, ...] = ()
    context: str = field(default="", compare=False)
    truth: str = field(default="", compare=False)  #: format 3: its clauses are facts too
    weighs_details: bool = False  #: format 3: details are weighed against ``facts``
    guards_grammar: bool = False  #: format 3: kana never matches across a particle, auxiliary or okurigana

    def rule(self, key: int | str) -> Rule:
        """The rule with index ``key`` (int) or id ``key`` (str)."""
        if isinstance(key, int):
            return self.rules[key]
        for rule in self.rules:
            if rule.id == key:
                return rule
        raise KeyError(f"table {self.name!r} has no rule with id {key!r}")


@dataclass(frozen=True)
class Puzzle:
    """One lateral-thinking puzzle: what the player sees, the hidden truth, its
    rule table and the solution groups (AND across groups, OR within a group)."""

    id: str
    title: str
    statement: str
    truth: str
    table: RuleTable
    solution: tuple[tuple[str, ...], ...]
    examples: tuple[Example, ...] = ()
    answer_examples: tuple[AnswerExample, ...] = ()
    difficulty: int | None = None  #: 1 (easy) .. 5 (hard), format 2
    hints: tuple[str, ...] = ()  #: revealed one at a time, format 2
    questions: tuple[Question, ...] = ()  #: the natural-question set, format 2

    @property
    def answers(self) -> tuple[str, ...]:
        return self.table.answers


@dataclass(frozen=True)
class PuzzlePack:
    """A named, ordered collection of puzzles sharing one closed answer set."""

    name: str
    title: str
    answers: tuple[str, ...]
    puzzles: Mapping[str, Puzzle]
    version: str
    source: str | None = field(default=None, compare=False)
    format: str = "sadame.puzzles/1"
    matching: str = "seed"
    synonyms: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    description: str | None = None

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle ``puzzle_id``; :class:`UnknownPuzzle` names the ids there are."""
        try:
            return self.puzzles[puzzle_id]
        except (KeyError, TypeError):
            known = ", ".join(self.puzzles)
            raise UnknownPuzzle(
                f"pack {self.name!r} has no puzzle {puzzle_id!r} (puzzles: {known})"
            ) from None
