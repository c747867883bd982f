"""The one JSON-lines reader: evaluation sets, tracker exports, golden cases.

Every line is one JSON value parsed by the same strict JSON parser as data files; blank
lines are skipped, and so are ``#`` comment lines when the kind allows them. A bad line
raises :class:`DataFileError` with the file and its line number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from sadame._datafile._errors import DataFileError
from sadame._datafile._parse import MAX_BYTES, parse_json

__all__ = ["MAX_LINE_BYTES", "read_jsonl"]

#: One line may hold at most this many bytes (UTF-8).
MAX_LINE_BYTES = 1024 * 1024


def _lines(source: str | Path | Iterable[str], file: str, max_bytes: int) -> Iterable[str]:
    if not isinstance(source, str | Path):
        return source
    try:
        with Path(source).open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise DataFileError("cannot_read", file=file, reason=exc.strerror or str(exc)) from None
    if len(raw) > max_bytes:
        raise DataFileError("too_large", file=file, size=len(raw), limit=max_bytes)
    try:
        return raw.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        raise DataFileError("not_utf8", file=file, reason=exc.reason, start=exc.start) from None


def read_jsonl(source: str | Path | Iterable[str], *, file: str | None = None, comments: bool = False,
               max_bytes: int = MAX_BYTES, max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, object]]:
    """``(line number, value)`` for every non-blank line of a file (a path) or of ``source`` lines.

    >>> list(read_jsonl(['{"a": 1}', "", "# note", "[2]"], file="x.jsonl", comments=True))
    [(1, {'a': 1}), (4, [2])]
    >>> list(read_jsonl(['{"a": 1', ], file="x.jsonl"))
    Traceback (most recent call last):
    ...
    sadame._datafile._errors.DataFileError: x.jsonl: invalid JSON: Expecting ',' delimiter (line 1, column 8)
    """
    name = file if file is not None else str(source) if isinstance(source, str | Path) else "<lines>"
    for number, line in enumerate(_lines(source, name, max_bytes), start=1):
        stripped = line.strip()
        if not stripped or (comments and stripped.startswith("#")):
            continue
        size = len(line.encode("utf-8", "surrogatepass"))
        if size > max_line_bytes:
            raise DataFileError("line_too_long", file=name, line=number, size=size, limit=max_line_bytes)
        try:
            value = parse_json(line)
        except DataFileError as exc:
            raise DataFileError(exc.problem, file=name, line=number, column=exc.column, syntax=exc.syntax,
                                **exc.params) from None
        yield number, value
