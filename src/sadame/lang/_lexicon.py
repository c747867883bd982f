"""The polarity lexicon (``data/lang/polarity-ja.yaml``): which words are good or bad in a finding.

Loaded once, on first use. Each list holds Sudachi lemmas or normalized forms; see the data
file for what every list means. A malformed file is a :class:`LexiconError` naming the list.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

__all__ = ["LEXICON_FORMAT", "Lexicon", "LexiconError", "lexicon", "parse_lexicon"]

LEXICON_FORMAT = "sadame.polarity-lexicon/1"
_LISTS = ("positive_states", "negative_states", "problem_nouns", "positive_nouns", "quality_suffixes",
          "problem_verbs", "better_words", "decrease_verbs", "increase_verbs", "existence_verbs",
          "decrease_transitive", "cause_verbs", "count_nouns", "growth_verbs", "event_verbs", "room_nouns", "success_verbs",
          "negative_modifiers", "past_words", "return_words")
_SCALARS = ("scalar_less", "scalar_more")


class LexiconError(ValueError):
    """The polarity lexicon is malformed (the message names the list)."""


@dataclass(frozen=True)
class Lexicon:
    """The word lists of the polarity lexicon, as frozen sets (scalars as word -> default)."""

    positive_states: frozenset[str]
    negative_states: frozenset[str]
    problem_nouns: frozenset[str]
    positive_nouns: frozenset[str]
    quality_suffixes: tuple[str, ...]
    #: Suffixes that make a compound a problem (通信費: a cost)
    problem_suffixes: tuple[str, ...]
    problem_verbs: frozenset[str]
    better_words: frozenset[str]
    decrease_verbs: frozenset[str]
    increase_verbs: frozenset[str]
    existence_verbs: frozenset[str]
    decrease_transitive: frozenset[str]
    cause_verbs: frozenset[str]
    count_nouns: frozenset[str]
    growth_verbs: frozenset[str]
    event_verbs: frozenset[str]
    room_nouns: frozenset[str]
    success_verbs: frozenset[str]
    negative_modifiers: frozenset[str]
    past_words: frozenset[str]
    return_words: frozenset[str]
    #: Words of a time that held and ended (一時, 一度); optional in the file
    temporary_words: frozenset[str]
    #: Words of now after a past (今回, 今日); optional in the file
    now_words: frozenset[str]
    #: Verbs of noticing (気づく); optional in the file
    notice_verbs: frozenset[str]
    scalar_less: dict[str, int]
    scalar_more: dict[str, int]


def _words(data: dict[str, Any], name: str) -> list[str]:
    value = data.get(name)
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise LexiconError(f"polarity lexicon: {name} must be a list of words")
    return value


def _scalar(data: dict[str, Any], name: str) -> dict[str, int]:
    value = data.get(name)
    if not isinstance(value, dict) or not all(isinstance(k, str) and v in (-1, 0, 1) for k, v in value.items()):
        raise LexiconError(f"polarity lexicon: {name} must map words to -1, 0 or 1")
    return dict(value)


def parse_lexicon(text: str) -> Lexicon:
    """A :class:`Lexicon` from the YAML ``text`` (the bundled file's format)."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or data.get("format") != LEXICON_FORMAT:
        raise LexiconError(f"polarity lexicon: format must be {LEXICON_FORMAT}")
    lists: dict[str, Any] = {name: frozenset(_words(data, name)) for name in _LISTS}
    lists["quality_suffixes"] = tuple(_words(data, "quality_suffixes"))
    lists["problem_suffixes"] = tuple(_words(data, "problem_suffixes")) if "problem_suffixes" in data else ()
    for name in ("temporary_words", "now_words", "notice_verbs"):
        lists[name] = frozenset(_words(data, name)) if name in data else frozenset()
    lists.update({name: _scalar(data, name) for name in _SCALARS})
    return Lexicon(**lists)


@functools.cache
def lexicon() -> Lexicon:
    """The bundled polarity lexicon (parsed once)."""
    text = (resources.files("sadame") / "data" / "lang" / "polarity-ja.yaml").read_text(encoding="utf-8")
    return parse_lexicon(text)
