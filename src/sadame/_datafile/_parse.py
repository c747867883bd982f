"""Bytes -> data for every YAML/JSON data file (see :mod:`sadame._datafile`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from sadame._datafile._errors import DataFileError
from sadame._datafile._yaml import MAX_INT_DIGITS, load_yaml

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "check_depth", "load_file", "parse_bytes",
           "parse_json", "parse_text"]

#: Files larger than this are refused before parsing (32 MiB: a 100,000-rule table with
#: ids is about 9.4 MB of YAML, see benchmarks/pack_load.py).
MAX_BYTES = 32 * 1024 * 1024
#: Lists and mappings nested deeper than this are refused (sadame's own kinds need 8).
MAX_DEPTH = 32


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DataFileError("duplicate_key", key=key, syntax="json")
        result[key] = value
    return result


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise DataFileError("big_int", digits=digits, limit=MAX_INT_DIGITS)
    return int(text)


def _json_constant(text: str) -> float:
    raise DataFileError("not_a_number", text=text, syntax="json")


def _children(node: object) -> Iterator[object]:
    if isinstance(node, dict):
        yield from node.values()
    elif isinstance(node, list):
        yield from node


def check_depth(data: object, limit: int = MAX_DEPTH) -> None:
    """Raise ``too_deep`` when lists/mappings nest deeper than ``limit`` (iterative: no recursion)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                raise DataFileError("too_deep", limit=limit)
            stack.extend((child, depth + 1) for child in _children(node))


def parse_json(text: str) -> object:
    """One JSON document, strictly (no duplicate keys, no NaN, bounded integers and depth)."""
    try:
        data = json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int,
                          parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise DataFileError("json", what=exc.msg, line=exc.lineno, column=exc.colno, syntax=None) from None
    except RecursionError:
        raise DataFileError("too_deep", limit=MAX_DEPTH) from None
    check_depth(data)
    return data


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.splitlines()
    return lines[line - 1][column - 1 : column] if 0 < line <= len(lines) else ""


def _yaml_error(exc: yaml.YAMLError, text: str) -> DataFileError:
    if not isinstance(exc, yaml.MarkedYAMLError):
        return DataFileError("yaml", what=str(exc), syntax=None)
    problem = exc.problem or exc.context or "syntax error"
    mark = exc.problem_mark or exc.context_mark
    line, column = (None, None) if mark is None else (mark.line + 1, mark.column + 1)
    if line is not None and column is not None and "\t" in _char_at(text, line, column) + problem:
        return DataFileError("tab", line=line, column=column)
    if "nesting depth" in problem:
        return DataFileError("too_deep", limit=MAX_DEPTH, line=line, column=column)
    return DataFileError("yaml", what=problem, syntax=None, line=line, column=column)


def _blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#") or stripped in ("---", "...")


def _parse_yaml(text: str, floats: bool) -> object:
    try:
        data = load_yaml(text, floats=floats)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text) from None
    except RecursionError:
        raise DataFileError("too_deep", limit=MAX_DEPTH) from None
    if data is None and all(_blank(line) for line in text.splitlines()):
        raise DataFileError("empty")
    check_depth(data)
    return data


def parse_text(text: str, *, file: str | None = None, suffix: str = ".yaml", floats: bool = False) -> object:
    """Parse ``text`` as JSON (``suffix == ".json"``) or strict YAML; raises :class:`DataFileError`.

    >>> parse_text("answers: [はい, NO]")
    {'answers': ['はい', 'NO']}
    >>> parse_text("a: 1\\na: 2", file="t.yaml")
    Traceback (most recent call last):
    ...
    sadame._datafile._errors.DataFileError: t.yaml: invalid YAML: duplicate key 'a' (line 2, column 1)
    """
    try:
        if suffix.lower() == ".json":
            if not text.strip():
                raise DataFileError("empty")
            return parse_json(text)
        return _parse_yaml(text, floats)
    except DataFileError as exc:
        if exc.file == file:
            raise
        raise _with_file(exc, file) from None


def _with_file(exc: DataFileError, file: str | None) -> DataFileError:
    return DataFileError(exc.problem, file=file, line=exc.line, column=exc.column, syntax=exc.syntax, **exc.params)


def parse_bytes(raw: bytes, *, file: str | None = None, suffix: str = ".yaml", floats: bool = False,
                max_bytes: int = MAX_BYTES) -> object:
    """Size check, UTF-8 (a BOM is allowed), then :func:`parse_text`."""
    if len(raw) > max_bytes:
        raise DataFileError("too_large", file=file, size=len(raw), limit=max_bytes)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataFileError("not_utf8", file=file, reason=exc.reason, start=exc.start) from None
    return parse_text(text, file=file, suffix=suffix, floats=floats)


def load_file(path: str | Path, *, floats: bool = False, max_bytes: int = MAX_BYTES) -> object:
    """Read and parse a ``.json`` or YAML file (at most ``max_bytes`` are read)."""
    file = str(path)
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise DataFileError("cannot_read", file=file, reason=exc.strerror or str(exc)) from None
    return parse_bytes(raw, file=file, suffix=Path(path).suffix, floats=floats, max_bytes=max_bytes)
