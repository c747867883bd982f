"""The unit of a bare number in a Markdown table cell, read from the table's headers.

Tables put the unit once, where it is read for every cell: at the end of the row's label
(``| 破損件数（件） | 71 | 66 | 74 |``), of the column's header (``| 学部 | 志願者数（人） |``)
or in a caption (``（単位：百万円）`` on a line just above the table, or in its first header
cell). The scanner reads such a cell as a bare ``74``, which grounds no ``74件`` of a summary:
every faithful figure read from a table was shown missing. :func:`table_units` gives a bare
number that is a whole body cell the value of the number followed by its unit, the row's first
(the row label is the nearer heading), else the column's, else the caption's.

A unit is a short bracketed tail without digits (``（21.0975km）`` names a distance, not a unit);
it is used only when the scanner reads the number and that unit as one figure of a known kind
(money, a count, a percentage, a duration, a quantity): ``（税込）`` is no unit. Both sides of a
comparison read the same way, and a cell's span is unchanged. The work is one pass over the
lines of the tables that hold bare numbers (linear).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

__all__ = ["TableLines", "cell_headers", "cell_of", "column_headers", "table_units", "value_column_at"]

# normalized start, end; original start, end; value, category (``_ground._Found``)
_Found = tuple[int, int, int, int, str, str]
#: ``(number text, unit) -> (value, category, kind)`` of the two read as one figure, or None.
ValueOf = Callable[[str, str], "tuple[str, str, str] | None"]

_NEWLINE = re.compile("\n")
_ROW = re.compile(r"[ \t]*\|")
_SEPARATOR = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$")
#: A bracketed unit at the end of a cell (NFKC made the brackets ASCII).
_CELL_UNIT = re.compile(r"[(\[]([^()\[\]0-9|]{1,6})[)\]]\s*$")
_CAPTION_UNIT = re.compile(r"単位\s*[:：]\s*([^\s()\[\]、,|0-9]{1,6})")
_CAPTION_LINES = 2  # non-empty lines above a table read for its caption
_CAPTION_WIDTH = 40  # a longer line is prose, not a caption


class TableLines:
    """The lines of ``norm``, with each table line's table (its first line), found once."""

    def __init__(self, norm: str) -> None:
        self.norm = norm
        self.starts = [0, *(m.end() for m in _NEWLINE.finditer(norm))]
        self._top: dict[int, int] = {}
        self._cells: dict[int, list[tuple[int, int]]] = {}
        self._tables: dict[int, tuple[bool, str | None]] = {}
        self._rows: dict[int, int] = {}

    def text(self, line: int) -> str:
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.norm)
        return self.norm[self.starts[line] : end]

    def is_row(self, line: int) -> bool:
        return _ROW.match(self.norm, self.starts[line]) is not None

    def cells(self, line: int) -> list[tuple[int, int]]:
        """The cell spans of table line ``line`` (:func:`_cells`, found once per line)."""
        spans = self._cells.get(line)
        if spans is None:
            spans = self._cells[line] = _cells(self.text(line))
        return spans

    def table(self, top: int) -> tuple[bool, str | None]:
        """Whether ``top`` starts a table (a separator line follows it), and its caption's unit
        (found once per table: a header row may be long)."""
        known = self._tables.get(top)
        if known is None:
            is_table = top + 1 < len(self.starts) and _SEPARATOR.match(self.text(top + 1)) is not None
            known = self._tables[top] = (is_table, _caption(self, top, self.text(top)) if is_table else None)
        return known

    def body_rows(self, top: int) -> int:
        """How many body rows the table whose first line is ``top`` has (found once)."""
        rows = self._rows.get(top)
        if rows is None:
            line = top + 2
            while line < len(self.starts) and self.is_row(line):
                line += 1
            rows = self._rows[top] = max(0, line - top - 2)
        return rows

    def top(self, line: int) -> int:
        """The first line of the table ``line`` belongs to (a table line)."""
        walked = []
        while line not in self._top and line > 0 and self.is_row(line - 1):
            walked.append(line)
            line -= 1
        top = self._top.get(line, line)
        for each in (*walked, line):
            self._top[each] = top
        return top


def _cells(row: str) -> list[tuple[int, int]]:
    """The spans of a table row's cells (inside the outer pipes), stripped of spaces."""
    bars = [i for i, char in enumerate(row) if char == "|"]
    spans = []
    for left, right in zip(bars, [*bars[1:], len(row)], strict=True):
        a, b = left + 1, right
        while a < b and row[a] in " \t":
            a += 1
        while b > a and row[b - 1] in " \t":
            b -= 1
        if right == len(row) and a == b:
            continue  # after the closing pipe
        spans.append((a, b))
    return spans


def _unit_of(cell: str) -> str | None:
    match = _CELL_UNIT.search(cell)
    return match.group(1).strip() or None if match else None


def _caption(lines: TableLines, top: int, header: str) -> str | None:
    match = _CAPTION_UNIT.search(header)
    if match:
        return match.group(1)
    line, seen = top - 1, 0
    while line >= 0 and seen < _CAPTION_LINES:
        text = lines.text(line).strip()
        line -= 1
        if not text:
            continue
        seen += 1
        if len(text) <= _CAPTION_WIDTH:
            match = _CAPTION_UNIT.search(text)
            if match:
                return match.group(1)
    return None


_PAST_ANY_END = 1 << 62  # a cell end no span reaches: bisects to the last cell starting at or before


def _column(cells: list[tuple[int, int]], at: int) -> int:
    """The index of the cell span holding position ``at`` of its line (-1: none, a pipe or outside)."""
    column = bisect.bisect_right(cells, (at, _PAST_ANY_END)) - 1
    return column if column >= 0 and cells[column][0] <= at < cells[column][1] else -1


def _cell_unit(
    lines: TableLines, line: int, row: str, at: int
) -> tuple[int, int, str | None, str, str, int, int] | None:
    """The span (in ``row``) of the cell at ``at``, the unit its headers give it, its row's label,
    its column's header, its column and the table's first line; None when ``line`` is no body
    row of a table."""
    top = lines.top(line)
    is_table, caption = lines.table(top)
    if line < top + 2 or not is_table:
        return None  # the header, the separator, or no table
    cells = lines.cells(line)
    column = _column(cells, at)
    if column < 0:
        return None
    a, b = cells[column]
    label = row[cells[0][0] : cells[0][1]] if column else ""
    header = lines.text(top)
    heads = lines.cells(top)
    head = header[heads[column][0] : heads[column][1]] if column < len(heads) else ""
    unit = _unit_of(label) or _unit_of(head) or caption
    return a, b, unit, label, head, column, top


def column_headers(lines: TableLines, top: int) -> tuple[str, ...]:
    """The header cells of the table whose first line is ``top``."""
    header = lines.text(top)
    return tuple(header[a:b] for a, b in lines.cells(top))


def _body_cell(
    lines: TableLines, start: int
) -> tuple[int, int, tuple[int, int, str | None, str, str, int, int]] | None:
    """The line holding normalized ``start``, its offset, and :func:`_cell_unit` of it."""
    line = bisect.bisect_right(lines.starts, start) - 1
    if not lines.is_row(line):
        return None
    offset = lines.starts[line]
    cell = _cell_unit(lines, line, lines.text(line), start - offset)
    return None if cell is None else (line, offset, cell)


def cell_headers(lines: TableLines, start: int, end: int) -> tuple[str, str, str, int, int] | None:
    """``(unit, row label, column header, column, the table's first line)`` of the bare number at
    normalized ``start..end`` when it is a whole body cell of a table whose headers give it a
    unit (:func:`table_units`; :func:`column_headers` gives the table's headers)."""
    found = _body_cell(lines, start)
    if found is None:
        return None
    _line, offset, cell = found
    if cell[2] is None or (cell[0], cell[1]) != (start - offset, end - offset):
        return None
    return cell[2], cell[3], cell[4], cell[5], cell[6]


def cell_of(lines: TableLines, start: int, end: int) -> tuple[str, str, int, int, int] | None:
    """``(row label, column header, column, the table's first line, the row's line)`` of the body
    cell (not the first column) holding normalized ``start..end``; None outside a table's body."""
    found = _body_cell(lines, start)
    if found is None:
        return None
    line, offset, cell = found
    if not cell[5] or end - offset > cell[1]:
        return None
    return cell[3], cell[4], cell[5], cell[6], line


_VALUE_CELL = re.compile(r"[△▲+\-−約]?[0-9]")


def value_column_at(lines: TableLines, line: int, at: int) -> int:
    """The column of table line ``line`` holding normalized position ``at`` when that cell is a
    value: it starts with its number (a cell of text that mentions numbers, 「非課税世帯 約2,450世帯に
    4万円」, is none); else -1."""
    cells = lines.cells(line)
    offset = lines.starts[line]
    column = _column(cells, at - offset)
    if column < 0:
        return -1
    return column if _VALUE_CELL.match(lines.norm, offset + cells[column][0]) else -1


_INTEGER = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+|[1-9][0-9]*")


def _by_suffix(
    number: str, unit: str, suffixes: dict[str, tuple[str, str, str] | None], value_of: ValueOf
) -> tuple[str, str, str] | None:
    """:func:`value_of` of an integer cell without scanning it, when ``unit`` reads as a suffix:
    the scanner gives ``7`` + unit and ``1234`` + unit the values ``7X`` and ``1234X`` of one
    category and kind (「件」, 「円」, 「%」, and for an integer 「千個」 too: 7000個, 1234000個; a
    unit that reads otherwise is scanned with each number)."""
    if not _INTEGER.fullmatch(number):
        return None
    if unit not in suffixes:
        suffixes[unit] = None
        seven, more = value_of("7", unit), value_of("1234", unit)
        if seven is not None and more is not None and seven[0].startswith("7"):
            suffix = seven[0][1:]
            if more == (f"1234{suffix}", seven[1], seven[2]):
                suffixes[unit] = (suffix, seven[1], seven[2])
    known = suffixes[unit]
    if known is None:
        return None
    return number.replace(",", "") + known[0], known[1], known[2]


def table_units(
    norm: str, found: list[_Found], kinds: list[str], value_of: ValueOf
) -> tuple[list[_Found], list[str]]:
    """The mentions of normalized text ``norm`` (in order, with their kinds), each bare number
    that is a whole table cell read with its headers' unit (see the module docstring)."""
    if "|" not in norm:
        return found, kinds
    lines: TableLines | None = None
    read: dict[tuple[str, str], tuple[str, str, str] | None] = {}
    suffixes: dict[str, tuple[str, str, str] | None] = {}
    for i, (start, end, a, b, _value, category) in enumerate(found):
        if category != "number":
            continue
        if lines is None:
            lines = TableLines(norm)
        cell = cell_headers(lines, start, end)
        if cell is None:
            continue  # not a whole cell, or no unit
        number, unit = norm[start:end], cell[0]
        got = _by_suffix(number, unit, suffixes, value_of)
        if got is None:
            if (number, unit) not in read:
                read[(number, unit)] = value_of(number, unit)
            got = read[(number, unit)]
        if got is not None:
            found[i] = (start, end, a, b, got[0], got[1])
            kinds[i] = got[2]
    return found, kinds
