"""Markdown decoration stripping, as a list of kept character positions.

Working on positions (not on a rewritten string) lets the offsets path map every
kept character back to the original text. Every regular expression here can only
start at a delimiter character and cannot run past the next delimiter of its own
kind or the end of the line, so the total work is linear in the input length.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from typing import Protocol

__all__ = ["markdown_keep", "markdown_mask"]


class _Sink(Protocol):
    """Where kept positions go, in order: an array of positions or a mask."""

    def append(self, position: int, /) -> None: ...

    def extend(self, positions: Iterable[int], /) -> None: ...


class _Mask:
    """Kept positions as one flag byte per character (1 byte instead of 4 per position)."""

    __slots__ = ("flags",)

    def __init__(self, size: int) -> None:
        self.flags = bytearray(size)

    def append(self, position: int, /) -> None:
        self.flags[position] = 1

    def extend(self, positions: Iterable[int], /) -> None:
        if isinstance(positions, range) and positions.step == 1:
            self.flags[positions.start : positions.stop] = b"\x01" * len(positions)
            return
        for position in positions:
            self.flags[position] = 1

# Line-leading markers: indentation, then blockquote markers, then one heading,
# bullet or ordered-list marker, each followed by at least one space.
_LINE_MARKER = re.compile(
    r"[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|[-*+][ \t]+|[0-9]{1,9}[.)][ \t]+)?"
)
_CODE = re.compile(r"`([^`\n]+)`")
# Each inline rule: (the character it needs, pattern with group 1 = the kept text),
# applied in this order.
_INLINE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("[", re.compile(r"\[([^\[\]\n]+)\]\([^()\s]*\)")),  # [text](url) -> text
    ("*", re.compile(r"\*\*([^*\n]+)\*\*")),  # **bold**
    ("_", re.compile(r"__([^_\n]+)__")),  # __bold__
    ("~", re.compile(r"~~([^~\n]+)~~")),  # ~~strike~~
    # *em*: not touching digits (keeps 2*3*4), content not starting/ending with space.
    ("*", re.compile(r"(?<![0-9*])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?![0-9*])")),
    # _em_: not inside ASCII words (keeps snake_case_names).
    ("_", re.compile(r"(?<![A-Za-z0-9_])_([^_\s](?:[^_\n]*[^_\s])?)_(?![A-Za-z0-9_])")),
)
_ANY_INLINE = re.compile(r"[\[*_~`]")


def _apply_inline(text: str, start: int, end: int, out: _Sink) -> None:
    """Append to ``out`` the positions ``start..end`` of ``text`` kept after inline stripping."""
    segment = text[start:end]
    if not _ANY_INLINE.search(segment):
        out.extend(range(start, end))
        return
    positions = list(range(start, end))
    for trigger, pattern in _INLINE:
        if len(positions) < 2:
            break
        if trigger not in segment:
            continue
        drop: set[int] = set()
        for match in pattern.finditer(segment):
            content_start, content_end = match.span(1)
            drop.update(range(match.start(), content_start))
            drop.update(range(content_end, match.end()))
        if drop:
            kept = [i for i in range(len(positions)) if i not in drop]
            positions = [positions[i] for i in kept]
            segment = "".join([segment[i] for i in kept])
    out.extend(positions)


def _strip_line(text: str, start: int, end: int, out: _Sink) -> None:
    marker = _LINE_MARKER.match(text, start, end)
    # Indentation alone is not a marker: it stays for the whitespace step to handle.
    pos = marker.end() if marker and text[start : marker.end()].strip(" \t") else start
    # Code spans are literal: their content is kept as is, only the backticks go.
    if "`" in text[pos:end]:
        for code in _CODE.finditer(text, pos, end):
            _apply_inline(text, pos, code.start(), out)
            out.extend(range(code.start(1), code.end(1)))
            pos = code.end()
    _apply_inline(text, pos, end, out)


def markdown_keep(text: str) -> array[int]:
    """Positions of ``text`` that survive Markdown stripping, in order (a compact array).

    >>> s = "- **安定性**: 不足"
    >>> "".join(s[i] for i in markdown_keep(s))
    '安定性: 不足'
    """
    out: array[int] = array("I")
    _strip(text, out)
    return out


def markdown_mask(text: str) -> bytearray:
    """One byte per character of ``text``: 1 where it survives Markdown stripping."""
    mask = _Mask(len(text))
    _strip(text, mask)
    return mask.flags


def _strip(text: str, out: _Sink) -> None:
    start = 0
    length = len(text)
    while start <= length:
        newline = text.find("\n", start)
        end = length if newline == -1 else newline
        _strip_line(text, start, end, out)
        if newline == -1:
            break
        out.append(newline)
        start = newline + 1
