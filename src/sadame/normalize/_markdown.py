"""Markdown decoration stripping, as a list of kept character positions.

Working on positions (not on a rewritten string) lets the offsets path map every
kept character back to the original text. Every regular expression here can only
start at a delimiter character and cannot run past the next delimiter of its own
kind or the end of the line, so the total work is linear in the input length.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from typing import Protocol

__all__ = ["markdown_gaps", "markdown_keep", "markdown_mask", "markdown_strip_text"]


class _Sink(Protocol):
    """Where kept positions go, in order: an array of positions or a mask."""

    def append(self, position: int, /) -> None: ...

    def run(self, start: int, end: int, /) -> None:
        """Keep the positions ``start..end`` (none when ``end <= start``)."""


class _Positions:
    """Kept positions as a compact array."""

    __slots__ = ("positions",)

    def __init__(self) -> None:
        self.positions: array[int] = array("I")

    def append(self, position: int, /) -> None:
        self.positions.append(position)

    def run(self, start: int, end: int, /) -> None:
        self.positions.extend(range(start, end))


class _Mask:
    """Kept positions as one flag byte per character (1 byte instead of 4 per position)."""

    __slots__ = ("flags",)

    def __init__(self, size: int) -> None:
        self.flags = bytearray(size)

    def append(self, position: int, /) -> None:
        self.flags[position] = 1

    def run(self, start: int, end: int, /) -> None:
        if end > start:  # (one slice assignment: the hot path of markdown_mask)
            self.flags[start:end] = b"\x01" * (end - start)

class _Gaps:
    """What goes, as the ranges between the kept runs of each stripped line, in order (a
    step per kept run; nothing per character or per unchanged line)."""

    __slots__ = ("cursor", "ranges")

    def __init__(self) -> None:
        self.ranges: list[tuple[int, int]] = []
        self.cursor = 0  # the end of the last kept run of the line being stripped

    def append(self, position: int, /) -> None:  # pragma: no cover - only _strip appends (markdown_keep)
        self.run(position, position + 1)

    def run(self, start: int, end: int, /) -> None:
        if end > start:
            if start > self.cursor:
                self.ranges.append((self.cursor, start))
            self.cursor = end


# Line-leading markers: indentation, then blockquote markers, then one heading,
# bullet or ordered-list marker, each followed by at least one space.
_LINE_MARKER = re.compile(
    r"[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|[-*+][ \t]+|[0-9]{1,9}[.)][ \t]+)?"
)
_CODE = re.compile(r"`([^`\n]+)`")
# Each inline rule: (a string every match holds, pattern with group 1 = the kept text),
# applied in this order. Each pattern starts with its delimiter (the character before it
# checked by a lookbehind after it), so a search skips from delimiter to delimiter.
_INLINE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("](", re.compile(r"\[([^\[\]\n]+)\]\([^()\s]*\)")),  # [text](url) -> text
    ("**", re.compile(r"\*\*([^*\n]+)\*\*")),  # **bold**
    ("__", re.compile(r"__([^_\n]+)__")),  # __bold__
    ("~~", re.compile(r"~~([^~\n]+)~~")),  # ~~strike~~
    # *em*: not touching digits (keeps 2*3*4), content not starting/ending with space.
    ("*", re.compile(r"\*(?<![0-9*]\*)([^*\s](?:[^*\n]*[^*\s])?)\*(?![0-9*])")),
    # _em_: not inside ASCII words (keeps snake_case_names).
    ("_", re.compile(r"_(?<![A-Za-z0-9_]_)([^_\s](?:[^_\n]*[^_\s])?)_(?![A-Za-z0-9_])")),
)
_ANY_INLINE = re.compile(r"[\[*_~`]")
# What a line needs for _strip_line to change it: a line marker with more than indentation
# (a ``>``, a heading, bullet or ordered-list marker after the indentation), or a character
# an inline rule or a code span starts with. Any other line is kept whole. (As two patterns a
# search runs through fast, a newline first for the marker: one pattern with a line-start
# branch would try that branch at every position.)
_MARKER_AT = re.compile(r"[ \t]*(?:>|#{1,6}[ \t]|[-*+][ \t]|[0-9]{1,9}[.)][ \t])")
_MARKER_AFTER_NEWLINE = re.compile(r"\n[ \t]*(?:>|#{1,6}[ \t]|[-*+][ \t]|[0-9]{1,9}[.)][ \t])")


def _changing_lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line of ``text`` that may change (a marker line or an inline
    character: :data:`_MARKER_AT`, :data:`_ANY_INLINE`), in order. The next inline character
    and the next line starting with a marker are searched for apart, each result kept until
    the lines pass it (so neither search runs over the text twice)."""
    size = len(text)
    none = size + 1
    pos = 0
    inline = marker = -1  # (the next of each at or after pos; none when there is none)
    while True:
        if inline < pos:
            found = _ANY_INLINE.search(text, pos)
            inline = none if found is None else found.start()
        if marker < pos:
            if pos == 0 and _MARKER_AT.match(text) is not None:
                marker = 0
            else:
                found = _MARKER_AFTER_NEWLINE.search(text, pos - 1 if pos else 0)
                marker = none if found is None else found.start() + 1
        at = min(inline, marker)
        if at == none:
            return
        start = text.rfind("\n", 0, at) + 1
        newline = text.find("\n", at)
        end = size if newline == -1 else newline
        yield start, end
        if newline == -1:
            return
        pos = end + 1


def _apply_inline(text: str, start: int, end: int, out: _Sink) -> None:
    """Append to ``out`` the positions ``start..end`` of ``text`` kept after inline stripping.

    The rules apply in order, each to what the ones before it kept. What is kept is tracked
    as runs of original positions (``runs``, whose texts joined are ``segment``), cut a match
    at a time: the work is a few steps per match, never per character."""
    segment = text[start:end]
    if not _ANY_INLINE.search(segment):
        out.run(start, end)
        return
    runs = [(start, end)]
    for trigger, pattern in _INLINE:
        if len(segment) < 2:
            break
        if trigger not in segment:
            continue
        kept: list[tuple[int, int]] = []  # (start, end) of segment kept, in order
        pos = 0
        for match in pattern.finditer(segment):
            content_start, content_end = match.span(1)
            if match.start() > pos:
                kept.append((pos, match.start()))
            if content_end > content_start:
                kept.append((content_start, content_end))
            pos = match.end()
        if not kept and pos == 0:
            continue  # no match
        if pos < len(segment):
            kept.append((pos, len(segment)))
        if len(runs) == 1:  # (one run spells the segment: its kept ranges are that run's, shifted)
            base = runs[0][0]
            runs = [(base + a, base + b) for a, b in kept]
        else:
            runs = _cut_runs(runs, kept)
        segment = "".join([segment[a:b] for a, b in kept])
    for a, b in runs:
        out.run(a, b)


def _cut_runs(runs: list[tuple[int, int]], kept: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The original runs of the ``kept`` ranges of the text that ``runs`` (original ranges,
    in order) spell out joined."""
    out: list[tuple[int, int]] = []
    i, base = 0, 0  # runs[i] spells segment[base : base + its length]
    for a, b in kept:
        while a >= base + runs[i][1] - runs[i][0]:
            base += runs[i][1] - runs[i][0]
            i += 1
        while a < b:
            lo, hi = runs[i]
            take = min(b, base + hi - lo)
            out.append((lo + a - base, lo + take - base))
            a = take
            if a < b:
                base += hi - lo
                i += 1
    return out


def _strip_line(text: str, start: int, end: int, out: _Sink) -> None:
    marker = _LINE_MARKER.match(text, start, end)
    # Indentation alone is not a marker: it stays for the whitespace step to handle.
    pos = marker.end() if marker and text[start : marker.end()].strip(" \t") else start
    # Code spans are literal: their content is kept as is, only the backticks go.
    if text.find("`", pos, end) != -1:
        for code in _CODE.finditer(text, pos, end):
            _apply_inline(text, pos, code.start(), out)
            out.run(code.start(1), code.end(1))
            pos = code.end()
    _apply_inline(text, pos, end, out)


def markdown_keep(text: str) -> array[int]:
    """Positions of ``text`` that survive Markdown stripping, in order (a compact array).

    >>> s = "- **安定性**: 不足"
    >>> "".join(s[i] for i in markdown_keep(s))
    '安定性: 不足'
    """
    out = _Positions()
    _strip(text, out)
    return out.positions


def markdown_mask(text: str) -> bytearray:
    """One byte per character of ``text``: 1 where it survives Markdown stripping.

    Only the lines that may change are stripped (a line marker with more than indentation,
    or a character an inline rule or a code span needs: :func:`_changing_lines`); every other
    character is kept as it is, without a step per line."""
    mask = _Mask(len(text))
    flags = mask.flags
    flags[:] = b"\x01" * len(text)
    for start, end in _changing_lines(text):
        if _ANY_INLINE.search(text, start, end) is None:  # a line marker only: it goes
            marker = _LINE_MARKER.match(text, start, end)
            assert marker is not None
            flags[start : marker.end()] = bytes(marker.end() - start)
        else:
            flags[start:end] = bytes(end - start)
            _strip_line(text, start, end, mask)
    return flags


def markdown_gaps(text: str) -> list[tuple[int, int]]:
    """The ranges of ``text`` that Markdown stripping removes, in order: the zeros of
    :func:`markdown_mask` as ``(start, end)`` runs, found the same way, without a mask.

    >>> s = "- **安定性**: 不足"
    >>> markdown_gaps(s)
    [(0, 4), (7, 9)]
    """
    gaps = _Gaps()
    ranges = gaps.ranges
    for start, end in _changing_lines(text):
        if _ANY_INLINE.search(text, start, end) is None:  # a line marker only: it goes
            marker = _LINE_MARKER.match(text, start, end)
            assert marker is not None
            if marker.end() > start:
                ranges.append((start, marker.end()))
        else:
            gaps.cursor = start
            _strip_line(text, start, end, gaps)
            if end > gaps.cursor:
                ranges.append((gaps.cursor, end))
    return ranges


def _inline_text(segment: str) -> str:
    """:func:`_apply_inline` on text alone: each rule replaces its matches by their group 1
    in what the rules before it kept (the same matches as its ``finditer``)."""
    if _ANY_INLINE.search(segment) is None:
        return segment
    for trigger, pattern in _INLINE:
        if len(segment) < 2:
            break
        if trigger in segment:
            segment = pattern.sub(_group_one, segment)
    return segment


def _group_one(match: re.Match[str]) -> str:
    return match.group(1)


def _line_text(line: str) -> str:
    """:func:`_strip_line` of one whole line, as the text it keeps."""
    marker = _LINE_MARKER.match(line)
    pos = marker.end() if marker and line[: marker.end()].strip(" \t") else 0
    if "`" not in line:
        return _inline_text(line[pos:])
    pieces: list[str] = []
    for code in _CODE.finditer(line, pos):
        pieces.append(_inline_text(line[pos : code.start()]))
        pieces.append(code.group(1))
        pos = code.end()
    pieces.append(_inline_text(line[pos:]))
    return "".join(pieces)


def markdown_strip_text(text: str) -> str:
    """The characters of ``text`` that :func:`markdown_mask` keeps, joined, computed on the
    text without positions (the plain path: no mask, no runs; the tests compare the two).

    >>> markdown_strip_text("- **安定性**: 不足\\n本文")
    '安定性: 不足\\n本文'
    """
    pieces: list[str] = []
    done = 0  # text before this is in pieces
    for start, end in _changing_lines(text):
        pieces.append(text[done:start])
        pieces.append(_line_text(text[start:end]))
        done = end
    if not done:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


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
