"""Bundled rule tables: the answers of ``/api/tables``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

__all__ = ["TableListing", "TableVerdict"]


class TableListing(BaseModel):
    name: str
    answers: list[str]
    rules: int
    version: str


class FiredRule(BaseModel):
    id: str | None
    index: int


class TableVerdict(BaseModel):
    """The verdict of the first matching rule, the rule and the word that matched."""

    verdict: str
    note: str | None
    source: Literal["rules", "llm", "cache", "none"]
    rule: FiredRule | None
    matched: str | None
    reason: str | None
