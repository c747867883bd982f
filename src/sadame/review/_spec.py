"""One side of a contract diff: which preset, judge matching mode and tracker ruleset to use.

A side is written the way a person types it on the command line::

    quote                         a normalization preset (for quote files)
    decoration@nc1                a preset as an earlier contract version defined it
    matching=natural              the judge's matching mode for rule tables (seed | natural)
    ruleset=seed-example          the tracker ruleset (a bundled name or a YAML path)
    preset=quote,ruleset=default  several at once

What a side does not name stays as the data has it: a quote case's own preset is *not*
kept (the side's preset, or the library default, is used for every quote), a rule table
keeps its own matching mode, a tracker export keeps the ruleset it was pinned to.
"""

from __future__ import annotations

from dataclasses import dataclass

from sadame.judge import MATCHING_MODES
from sadame.normalize import check_preset

__all__ = ["Side", "SideError", "parse_side"]

_KEYS = ("preset", "matching", "ruleset")


class SideError(ValueError):
    """A side of the diff is not a preset, a matching mode or a ruleset (names what is wrong)."""


@dataclass(frozen=True, slots=True)
class Side:
    """What one side of the diff runs with (None: as the data or the library has it)."""

    text: str
    preset: str | None = None
    matching: str | None = None
    ruleset: str | None = None


def parse_side(text: str) -> Side:
    """Read a side as typed (see the module docstring).

    >>> parse_side("decoration")
    Side(text='decoration', preset='decoration', matching=None, ruleset=None)
    >>> parse_side("matching=natural,ruleset=seed-example").matching
    'natural'
    """
    values: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep:
            key, value = "preset", part
        key, value = key.strip(), value.strip()
        if key not in _KEYS:
            raise SideError(f"{text!r}: unknown setting {key!r} (use preset=, matching= or ruleset=)")
        if key in values:
            raise SideError(f"{text!r}: {key} is given twice")
        if not value:
            raise SideError(f"{text!r}: {key} has no value")
        values[key] = value
    if not values:
        raise SideError("a side of the diff is empty: name a preset, matching= or ruleset=")
    _validate(text, values)
    return Side(text=text, **values)


def _validate(text: str, values: dict[str, str]) -> None:
    preset = values.get("preset")
    if preset is not None:
        try:
            check_preset(preset)  # the registry itself says whether it knows the name
        except (ValueError, TypeError) as exc:
            raise SideError(f"{text!r}: {exc}") from None
    matching = values.get("matching")
    if matching is not None and matching not in MATCHING_MODES:
        raise SideError(f"{text!r}: matching must be one of {', '.join(MATCHING_MODES)}, not {matching!r}")
