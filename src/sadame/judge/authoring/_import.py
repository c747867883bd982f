"""Importing rule tables written the seed's way.

Two inputs are accepted, both the seed 001 shape ``{any, not, a, note}``:

* a JSON array of rule objects;
* JavaScript containing ``const RULES = [ ... ]`` (``let``/``var``/``export``
  too): the array literal is read by a small, bounded parser for the literal
  subset the seed uses (objects, arrays, single/double-quoted strings, numbers,
  ``true``/``false``/``null``, comments, trailing commas). Nothing is evaluated.

The result is a ``sadame.rules/1`` table (seed matching, so it judges exactly as
the seed did): the answers are the distinct ``a`` values in order of first use.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from sadame.judge.engine._errors import TableError
from sadame.judge.engine._loader import MAX_TABLE_BYTES, TABLE_FORMAT, parse_table, parse_yaml
from sadame.judge.engine._model import RuleTable

__all__ = ["import_seed_rules"]

_MAX_DEPTH = 32
_RULES_ASSIGNMENT = re.compile(r"\b(?:const|let|var)\s+RULES\s*=\s*")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class _Literal:
    """A recursive-descent reader of a JavaScript/JSON literal (linear, depth-capped)."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.pos = start

    def fail(self, message: str) -> TableError:
        line = self.text.count("\n", 0, self.pos) + 1
        return TableError(f"cannot read the rules: {message} (line {line})")

    def skip(self) -> None:
        text = self.text
        while self.pos < len(text):
            if text[self.pos].isspace():
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end + 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unterminated comment")
                self.pos = end + 2
            else:
                return

    def value(self, depth: int = 0) -> Any:
        if depth > _MAX_DEPTH:
            raise self.fail("nested too deeply")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("unexpected end of input")
        char = self.text[self.pos]
        if char == "[":
            return self.sequence(depth)
        if char == "{":
            return self.mapping(depth)
        if char in "\"'":
            return self.string()
        return self.scalar()

    def sequence(self, depth: int) -> list[Any]:
        self.pos += 1
        items: list[Any] = []
        while True:
            self.skip()
            if self.text.startswith("]", self.pos):
                self.pos += 1
                return items
            items.append(self.value(depth + 1))
            self.separator("]")

    def mapping(self, depth: int) -> dict[str, Any]:
        self.pos += 1
        items: dict[str, Any] = {}
        while True:
            self.skip()
            if self.text.startswith("}", self.pos):
                self.pos += 1
                return items
            key = self.key()
            self.skip()
            if not self.text.startswith(":", self.pos):
                raise self.fail(f"expected ':' after key {key!r}")
            self.pos += 1
            if key in items:
                raise self.fail(f"duplicate key {key!r}")
            items[key] = self.value(depth + 1)
            self.separator("}")

    def separator(self, closing: str) -> None:
        self.skip()
        if self.text.startswith(",", self.pos):
            self.pos += 1
        elif not self.text.startswith(closing, self.pos):
            raise self.fail(f"expected ',' or '{closing}'")

    def key(self) -> str:
        if self.pos < len(self.text) and self.text[self.pos] in "\"'":
            return self.string()
        found = _IDENT.match(self.text, self.pos)
        if found is None:
            raise self.fail("expected a key")
        self.pos = found.end()
        return found.group()

    def string(self) -> str:
        quote = self.text[self.pos]
        self.pos += 1
        out: list[str] = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == quote:
                self.pos += 1
                return "".join(out)
            if char == "\n":
                break
            if char == "\\":
                out.append(self.escape())
                continue
            out.append(char)
            self.pos += 1
        raise self.fail("unterminated string")

    def escape(self) -> str:
        self.pos += 1
        char = self.text[self.pos : self.pos + 1]
        if char == "u":
            digits = self.text[self.pos + 1 : self.pos + 5]
            if not re.fullmatch(r"[0-9A-Fa-f]{4}", digits):
                raise self.fail("bad \\u escape")
            self.pos += 5
            return chr(int(digits, 16))
        self.pos += 1
        return _ESCAPES.get(char, char)

    def scalar(self) -> Any:
        for word, value in (("true", True), ("false", False), ("null", None), ("undefined", None)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return value
        found = _NUMBER.match(self.text, self.pos)
        if found is None:
            raise self.fail(f"unexpected {self.text[self.pos]!r}")
        self.pos = found.end()
        number = found.group()
        return int(number) if re.fullmatch(r"-?[0-9]+", number) else float(number)


def _read_rules(text: str) -> list[Any]:
    assignment = _RULES_ASSIGNMENT.search(text)
    reader = _Literal(text, assignment.end() if assignment else 0)
    rules = reader.value()
    if assignment is None:
        reader.skip()
        if reader.pos != len(text):
            raise reader.fail("extra text after the rules (for JavaScript, write `const RULES = [...]`)")
    if not isinstance(rules, list):
        raise TableError("the rules must be an array of {any, not, a, note} objects")
    return rules


def _words(rule: Mapping[str, Any], key: str, index: int) -> list[str]:
    words = rule.get(key, [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise TableError(f"rule #{index}: {key!r} must be an array of strings")
    return list(words)


def _convert(raw: Sequence[Any]) -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = []
    for index, rule in enumerate(raw):
        if not isinstance(rule, dict):
            raise TableError(f"rule #{index}: expected an object {{any, not, a, note}}")
        unknown = sorted(set(rule) - {"any", "not", "a", "note"})
        if unknown:
            raise TableError(f"rule #{index}: unknown key {unknown[0]!r} (the seed's keys: any, not, a, note)")
        if not isinstance(rule.get("a"), str):
            raise TableError(f"rule #{index}: 'a' (the answer) must be a string")
        converted: dict[str, Any] = {"any": _words(rule, "any", index)}
        if rule.get("not"):
            converted["not"] = _words(rule, "not", index)
        converted["answer"] = rule["a"]
        if isinstance(rule.get("note"), str):
            converted["note"] = rule["note"]
        rules.append(converted)
    return rules


def seed_rules_to_table(text: str, name: str) -> dict[str, Any]:
    """The ``sadame.rules/1`` document for seed-shaped rules in ``text``."""
    if len(text.encode("utf-8")) > MAX_TABLE_BYTES:
        raise TableError(f"input is larger than {MAX_TABLE_BYTES:,} bytes")
    if not _NAME.match(name):
        raise TableError(f"table name {name!r} must match ^[a-z0-9][a-z0-9-]*$")
    rules = _convert(_read_rules(text))
    answers = list(dict.fromkeys(rule["answer"] for rule in rules))
    return {"format": TABLE_FORMAT, "name": name, "answers": answers, "rules": rules}


def import_seed_rules(text: str, name: str) -> tuple[RuleTable, str]:
    """Read seed-shaped rules and return the loaded table and its YAML text.

    The YAML is loaded back (schema and all) before it is returned, so what is
    written is exactly what was checked. Raises :class:`TableError`.

    >>> table, text = import_seed_rules('const RULES = [{ any: ["キャッシュ"], a: "NO" }]', "t")
    >>> table.rules[0].answer, text.splitlines()[0]
    ('NO', 'format: sadame.rules/1')
    """
    document = seed_rules_to_table(text, name)
    dumped = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=1000)
    table = parse_table(parse_yaml(dumped))
    if not isinstance(table, RuleTable):  # pragma: no cover - the format says table
        raise TableError("import produced a pack, not a table")
    return table, dumped
