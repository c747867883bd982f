"""The shapes this package reads from the judge and the tracker, as protocols.

:mod:`sadame.llm` depends on the *shape* of a rule table and a puzzle, not on
their classes, so the LLM tier has no import cycle with :mod:`sadame.judge`
and any object with these attributes (a test double, a future table type)
works.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["PuzzleLike", "RuleLike", "TableLike"]


class RuleLike(Protocol):
    """One rule: ``any`` words, ``not_`` words, the answer (see ``sadame.judge.Rule``)."""

    @property
    def id(self) -> str | None: ...
    @property
    def any(self) -> Sequence[str]: ...
    @property
    def not_(self) -> Sequence[str]: ...
    @property
    def answer(self) -> str: ...


class TableLike(Protocol):
    """A rule table: name, closed answer set, ordered rules, content version."""

    @property
    def name(self) -> str: ...
    @property
    def answers(self) -> Sequence[str]: ...
    @property
    def rules(self) -> Sequence[RuleLike]: ...
    @property
    def version(self) -> str: ...


class PuzzleLike(Protocol):
    """A puzzle: id, title, the statement shown to the player, and the hidden truth."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def statement(self) -> str: ...
    @property
    def truth(self) -> str: ...
