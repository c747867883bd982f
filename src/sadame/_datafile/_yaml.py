"""Strict YAML: no anchors or aliases, no duplicate keys, YAML 1.2 core scalars, bounded integers.

Two loaders per kind of scalars (with or without floats): the pure-Python one, which refuses an
anchor as it meets it, and the same on libyaml's parser (about 8x faster), used only for texts
without ``&`` and ``*`` (which therefore hold neither anchors nor aliases).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from sadame._datafile._errors import DataFileError

__all__ = ["MAX_INT_DIGITS", "load_yaml"]

#: Integers longer than this are refused (a 64-bit integer has at most 19 digits).
MAX_INT_DIGITS = 20

_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")


def _error(code: str, node: yaml.Node, **params: Any) -> DataFileError:
    mark = node.start_mark
    return DataFileError(code, line=mark.line + 1, column=mark.column + 1, **params)


class _Strict:
    """What every strict loader adds: no duplicate keys, only plain scalar keys, bounded ints."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)  # type: ignore[attr-defined]
            try:
                duplicate = key in seen
            except TypeError:
                raise _error("key_not_scalar", key_node) from None
            if duplicate:
                raise _error("duplicate_key", key_node, key=key)
            seen.add(key)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)  # type: ignore[misc]
        return mapping

    def construct_bounded_int(self, node: yaml.ScalarNode) -> int:
        digits = len(str(node.value).lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            raise _error("big_int", node, digits=digits, limit=MAX_INT_DIGITS)
        return int(node.value)

    def construct_core_float(self, node: yaml.ScalarNode) -> float:
        return float(node.value)


class _PyStrict(_Strict, yaml.SafeLoader):
    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise DataFileError("anchor", line=event.start_mark.line + 1, column=event.start_mark.column + 1)
        return super().compose_node(parent, index)


def _resolvers(loader: type, floats: bool) -> type:
    loader.yaml_implicit_resolvers = {}  # type: ignore[attr-defined]
    add = loader.add_implicit_resolver  # type: ignore[attr-defined]
    add("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    add("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
    add("tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"), list("-+0123456789"))
    if floats:
        add("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789"))
    loader.add_constructor("tag:yaml.org,2002:int", _Strict.construct_bounded_int)  # type: ignore[attr-defined]
    loader.add_constructor("tag:yaml.org,2002:float", _Strict.construct_core_float)  # type: ignore[attr-defined]
    return loader


def _loaders(floats: bool) -> tuple[type, type | None]:
    suffix = "Floats" if floats else ""
    python = _resolvers(type(f"_StrictLoader{suffix}", (_PyStrict,), {}), floats)
    c_base: type | None = getattr(yaml, "CSafeLoader", None)  # None without libyaml
    c = None if c_base is None else _resolvers(type(f"_StrictCLoader{suffix}", (_Strict, c_base), {}), floats)
    return python, c


_LOADERS = {False: _loaders(False), True: _loaders(True)}


def load_yaml(text: str, *, floats: bool = False) -> object:
    """Parse one YAML document strictly (see the module docstring); YAML errors propagate."""
    python, c = _LOADERS[floats]
    loader = c if c is not None and "&" not in text and "*" not in text else python
    return yaml.load(text, Loader=loader)
