"""Named presets: the flags each gate of a pipeline should use.

Preset names are public API. Changing what a preset outputs is a contract
change: bump ``CONTRACT_VERSION``, update the fingerprint golden, add a
CHANGELOG entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from sadame.normalize._flags import (
    ISSUE_PUNCTUATION,
    JUDGE_PUNCTUATION,
    Equivalence,
    NormalizeFlags,
    PunctuationMode,
    WhitespaceMode,
)

__all__ = [
    "CONTRACT_VERSION",
    "CURRENT_VERSION",
    "FEATURE_DEFAULTS",
    "PRESETS",
    "PREVIOUS_PRESETS",
    "PREVIOUS_VERSION",
    "PresetName",
    "check_preset",
    "resolve_flags",
]

PresetName = str

_JUDGE = NormalizeFlags(
    nfkc=True,
    markdown_strip=False,
    numeric=False,
    casefold=True,
    kana=True,
    punctuation=PunctuationMode.DELETE,
    punctuation_chars=JUDGE_PUNCTUATION,
    whitespace=WhitespaceMode.DELETE,
    equivalences=frozenset(),
)
_DECORATION = NormalizeFlags(
    nfkc=True,
    markdown_strip=True,
    numeric=False,
    casefold=False,
    kana=False,
    punctuation=PunctuationMode.KEEP,
    punctuation_chars="",
    whitespace=WhitespaceMode.COLLAPSE,
    equivalences=frozenset(),
)
_NUMERIC = NormalizeFlags(
    nfkc=True,
    markdown_strip=True,
    numeric=True,
    casefold=False,
    kana=False,
    punctuation=PunctuationMode.KEEP,
    punctuation_chars="",
    whitespace=WhitespaceMode.DELETE,
    equivalences=frozenset(),
)
_ISSUE = NormalizeFlags(
    nfkc=True,
    markdown_strip=False,
    numeric=False,
    casefold=True,
    kana=False,
    punctuation=PunctuationMode.SPACE,
    punctuation_chars=ISSUE_PUNCTUATION,
    whitespace=WhitespaceMode.COLLAPSE,
    equivalences=frozenset(),
)
# ``quote`` is ``decoration`` with Japanese-aware whitespace and every named equivalence: said so
# here, so the two cannot drift apart in a flag neither change meant to touch.
_QUOTE = replace(_DECORATION, whitespace=WhitespaceMode.CJK, equivalences=frozenset(Equivalence))

#: ``judge``: seed 001's ``normalize()`` for rule tables (NFKC, lower-case,
#: katakana->hiragana, whitespace and the judge punctuation set deleted).
#: ``decoration``: seed 002's verbatim-quote check (NFKC, Markdown stripped,
#: whitespace collapsed). ``numeric``: seed 002's grounding check (NFKC, Markdown
#: stripped, numbers canonical, whitespace deleted). ``issue``: seed 000's
#: ``normalizeBaseText`` (NFKC, whitespace and ``、。,.・/`` runs to one space,
#: lower-case, trimmed). ``quote`` (contract version 2, the default of
#: :mod:`sadame.quote`): ``decoration`` with Japanese-aware whitespace
#: (:attr:`WhitespaceMode.CJK`) and every :class:`Equivalence` (a wrapping 「」 pair,
#: 、，, as one, the space after a colon). ``decoration`` is unchanged and stays
#: selectable by name: it is the quote default of contract version 1.
PRESETS: Mapping[str, NormalizeFlags] = MappingProxyType(
    {"judge": _JUDGE, "decoration": _DECORATION, "numeric": _NUMERIC, "issue": _ISSUE, "quote": _QUOTE}
)


#: Bumped (with a CHANGELOG entry and a report in docs/contract-changes/) whenever any
#: preset's output changes.
CONTRACT_VERSION = "2"
#: The contract version these presets are, as written after ``@`` in a preset name.
CURRENT_VERSION = f"nc{CONTRACT_VERSION}"
#: The previous contract version, whose presets stay selectable as ``name@nc1`` for one
#: version after it (a rollback path while a service reviews ``sadame contract diff``).
PREVIOUS_VERSION = "nc1"
#: The presets of contract version 1, as they were released. Their output did not change in
#: version 2 (which added ``quote`` and made it the quote default), so they are the same flags.
PREVIOUS_PRESETS: Mapping[str, NormalizeFlags] = MappingProxyType(
    {"judge": _JUDGE, "decoration": _DECORATION, "numeric": _NUMERIC, "issue": _ISSUE}
)
#: The preset each feature uses by default, per contract version: what a service gets when it
#: names no preset, and so what an upgrade changes for it.
FEATURE_DEFAULTS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    PREVIOUS_VERSION: MappingProxyType({"quote": "decoration", "judge": "judge", "track": "issue"}),
    CURRENT_VERSION: MappingProxyType({"quote": "quote", "judge": "judge", "track": "issue"}),
})


def _versioned(preset: str) -> NormalizeFlags:
    name, _, version = preset.partition("@")
    table = {CURRENT_VERSION: PRESETS, PREVIOUS_VERSION: PREVIOUS_PRESETS}.get(version)
    if table is None:
        raise ValueError(
            f"unknown contract version {version!r} in {preset!r}: this is {CURRENT_VERSION}; "
            f"presets of {PREVIOUS_VERSION} stay selectable as name@{PREVIOUS_VERSION}"
        )
    try:
        return table[name]
    except KeyError:
        raise ValueError(
            f"unknown preset {name!r} in contract version {version}: choose one of {', '.join(sorted(table))}"
        ) from None


def resolve_flags(preset: str | None, flags: NormalizeFlags | None) -> NormalizeFlags:
    """The flags for a call that names a preset or passes flags (exactly one).

    A preset may name a contract version: ``decoration@nc1`` is ``decoration`` as contract
    version 1 defined it (see :data:`PREVIOUS_PRESETS`).

    >>> resolve_flags("decoration@nc1", None) == resolve_flags("decoration", None)
    True
    """
    if flags is not None:
        if preset is not None:
            raise TypeError("pass either preset= or flags=, not both")
        if not isinstance(flags, NormalizeFlags):
            raise TypeError(f"flags must be NormalizeFlags, got {type(flags).__name__}")
        return flags
    if preset is None:
        raise TypeError(f"a preset is required: one of {', '.join(sorted(PRESETS))} (or flags=)")
    if not isinstance(preset, str):
        raise TypeError(f"preset must be a str, got {type(preset).__name__}")
    if "@" in preset:
        return _versioned(preset)
    try:
        return PRESETS[preset]
    except KeyError:
        raise ValueError(
            f"unknown preset {preset!r}: choose one of {', '.join(sorted(PRESETS))}"
        ) from None


def check_preset(preset: str) -> str:
    """``preset`` when it names a preset of the registry (or ``name@nc1``); else ValueError/TypeError.

    Every option, route and side that takes a preset name asks this, so none keeps its own list.

    >>> check_preset("quote")
    'quote'
    >>> check_preset("quote@nc1")
    Traceback (most recent call last):
    ...
    ValueError: unknown preset 'quote' in contract version nc1: choose one of decoration, issue, judge, numeric
    """
    resolve_flags(preset, None)
    return preset
