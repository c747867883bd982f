"""The one loader of every YAML/JSON data kind sadame reads, and its one JSON-lines reader.

Rule tables, puzzle packs, tracker rulesets, evaluation sets and tracker exports all come
through here, so each is refused the same way, naming the file, the line and the problem
(in English and in Japanese, see :class:`DataFileError`):

* size first (``max_bytes``), then UTF-8;
* YAML without anchors/aliases, duplicate keys, tabs or YAML 1.1 surprises (``NO`` stays a
  string; only YAML 1.2 core booleans, nulls, decimal integers and, where a kind allows them,
  floats are resolved);
* JSON without duplicate keys or ``NaN``/``Infinity``;
* no empty document, nothing nested deeper than :data:`MAX_DEPTH` levels, no integer longer
  than :data:`MAX_INT_DIGITS` digits (a 5,000-digit integer is refused, never a traceback).

What a kind's data must contain is that kind's schema (``sadame/judge/schema/*.json`` for
tables and packs; :func:`sadame.track.parse_ruleset` for rulesets).
"""

from __future__ import annotations

from sadame._datafile._errors import DataFileError
from sadame._datafile._jsonl import MAX_LINE_BYTES, read_jsonl
from sadame._datafile._parse import MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, load_file, parse_bytes, parse_text

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_LINE_BYTES",
    "DataFileError",
    "load_file",
    "parse_bytes",
    "parse_text",
    "read_jsonl",
]
