"""Numeric normalization: amounts, percentages and dates in one canonical spelling.

PLACEHOLDER INTERFACE -- being implemented; see the golden table in
tests/normalize/data/numeric.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["NumericKind", "NumericMatch", "apply_numeric", "scan_numeric"]

NumericKind = Literal["number", "amount", "percent", "date"]


@dataclass(frozen=True, slots=True)
class NumericMatch:
    """One numeric expression found in a text.

    ``start``/``end`` are offsets into the text given to :func:`scan_numeric`;
    ``replacement`` is the canonical spelling that replaces ``text[start:end]``.
    """

    start: int
    end: int
    replacement: str
    kind: NumericKind


def scan_numeric(text: str) -> list[NumericMatch]:
    """Every numeric expression in ``text``, sorted and non-overlapping."""
    return []


def apply_numeric(text: str) -> str:
    """``text`` with every match of :func:`scan_numeric` replaced."""
    matches = scan_numeric(text)
    if not matches:
        return text
    parts: list[str] = []
    pos = 0
    for m in matches:
        parts.append(text[pos : m.start])
        parts.append(m.replacement)
        pos = m.end
    parts.append(text[pos:])
    return "".join(parts)
