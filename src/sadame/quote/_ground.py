"""Number grounding: does every amount, percentage and date of a claim occur in the source?

Numeric expressions are found by the contract's own scanner,
:func:`sadame.normalize.numeric.scan_numeric`, so grounding and the ``numeric``
preset cannot disagree about what ``1億2000万円`` means. Both the claim and the
source are first normalized with :data:`GROUNDING_FLAGS` -- NFKC and Markdown
stripping, exactly the steps the ``numeric`` preset runs *before* its numeric step,
and nothing that would merge tokens (whitespace is kept, so ``3 5%`` never becomes
``35%``). Every match is mapped back through the offsets, so spans are in the
**original** claim and source.

Two expressions are the same value when their canonical spellings are equal
(``NumericMatch.value`` when the scanner provides one, else its ``replacement``):
``1億2000万円``, ``120,000,000円`` and ``一億二千万円`` all read ``120000000円``;
``1億円`` does not. ``2026年7月`` (``2026-07``) does not ground ``2026年7月18日``.

Claim statuses: ``grounded`` (every expression found in the source), ``partial``
(some), ``ungrounded`` (none), ``no_numbers`` (nothing to check -- not verified),
``invalid`` (the claim is not a string or is empty).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

from sadame.normalize import PRESETS, NormalizeFlags, WhitespaceMode, normalize_with_offsets
from sadame.normalize.numeric import NumericKind, NumericMatch, scan_numeric
from sadame.quote._verify import Span

__all__ = [
    "GROUNDING_FLAGS",
    "NUMERIC_KINDS",
    "ClaimResult",
    "ClaimStatus",
    "GroundedNumber",
    "NumberIndex",
    "NumberMention",
    "ground_claims",
    "ground_numbers",
    "numeric_mentions",
]

ClaimStatus = Literal["grounded", "partial", "ungrounded", "no_numbers", "invalid"]
CLAIM_STATUSES: tuple[str, ...] = get_args(ClaimStatus)
NUMERIC_KINDS: tuple[str, ...] = get_args(NumericKind)

#: The ``numeric`` preset without its numeric step and without whitespace deletion:
#: the steps that run *before* the numeric step (NFKC, Markdown stripping), so the
#: scanner sees what the preset's scanner sees, and nothing that merges tokens.
#: Derived from the preset, so a step added to the contract is inherited, not forgotten.
GROUNDING_FLAGS: NormalizeFlags = replace(PRESETS["numeric"], numeric=False, whitespace=WhitespaceMode.KEEP)


@dataclass(frozen=True, slots=True)
class NumberMention:
    """A numeric expression of a text: original ``text[start:end]``, its kind and canonical value."""

    text: str
    start: int
    end: int
    kind: str
    value: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "value": self.value,
        }


@dataclass(frozen=True, slots=True)
class GroundedNumber:
    """One expression of a claim and the source spans (original offsets) with the same value."""

    mention: NumberMention
    grounded: bool
    spans: tuple[Span, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.mention.to_dict(),
            "grounded": self.grounded,
            "spans": [s.to_dict() for s in self.spans],
        }


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The verdict on one claim: each numeric expression, grounded or not."""

    claim: str
    status: ClaimStatus
    numbers: tuple[GroundedNumber, ...] = ()
    reason: str = ""

    @property
    def verified(self) -> bool:
        """True when the claim has numbers and all of them are grounded."""
        return self.status == "grounded"

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "status": self.status,
            "verified": self.verified,
            "numbers": [n.to_dict() for n in self.numbers],
            "reason": self.reason,
        }


def _value_of(match: NumericMatch) -> str:
    value = getattr(match, "value", "")
    return value if isinstance(value, str) and value else match.replacement


def numeric_mentions(text: str) -> list[NumberMention]:
    """Every numeric expression of ``text``, with spans in the original ``text``.

    Already-canonical expressions count too (``scan_numeric(..., include_unchanged=True)``).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    normalized = normalize_with_offsets(text, flags=GROUNDING_FLAGS)
    mentions: list[NumberMention] = []
    for match in scan_numeric(normalized.text, include_unchanged=True):
        if not 0 <= match.start < match.end <= len(normalized.text):
            continue  # defensive: a scanner bug must not crash grounding
        end = match.end
        unit = getattr(match, "unit", "")
        if isinstance(unit, str) and unit and normalized.text.startswith(unit, end):
            end += len(unit)  # report "1億2000万円", not "1億2000万": the value includes the unit
        a, b = normalized.original_span(match.start, end)
        mentions.append(NumberMention(text[a:b], a, b, match.kind, _value_of(match)))
    return mentions


@dataclass(slots=True)
class NumberIndex:
    """The numeric expressions of one source, by canonical value (scanned once)."""

    source: str
    kinds: frozenset[str] = field(default_factory=lambda: frozenset(NUMERIC_KINDS))
    by_value: dict[str, list[Span]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.source, str):
            raise TypeError(f"source must be a str, got {type(self.source).__name__}")
        unknown = set(self.kinds) - set(NUMERIC_KINDS)
        if unknown:
            raise ValueError(
                f"unknown numeric kind(s) {sorted(unknown)}: choose from {', '.join(NUMERIC_KINDS)}"
            )
        for m in numeric_mentions(self.source):
            self.by_value.setdefault(m.value, []).append(Span(m.start, m.end, m.text))

    def ground(self, claim: object) -> ClaimResult:
        """Ground every numeric expression of ``claim`` (of the index's kinds)."""
        if not isinstance(claim, str):
            return ClaimResult(
                repr(claim)[:200], "invalid", reason=f"claim is {type(claim).__name__}, not a string"
            )
        if not claim.strip():
            return ClaimResult(claim, "invalid", reason="empty claim")
        numbers = tuple(
            GroundedNumber(m, m.value in self.by_value, tuple(self.by_value.get(m.value, ())))
            for m in numeric_mentions(claim)
            if m.kind in self.kinds
        )
        if not numbers:
            return ClaimResult(claim, "no_numbers", reason="no amount, percentage, date or number to check")
        found = sum(n.grounded for n in numbers)
        status: ClaimStatus = (
            "grounded" if found == len(numbers) else "ungrounded" if found == 0 else "partial"
        )
        missing = [n.mention.text for n in numbers if not n.grounded]
        reason = f"not in the source: {', '.join(missing)}" if missing else ""
        return ClaimResult(claim, status, numbers, reason)

    def ground_many(self, claims: Iterable[object]) -> list[ClaimResult]:
        """One result per claim, in input order."""
        return [self.ground(c) for c in claims]


def _kinds(kinds: Iterable[str] | None) -> frozenset[str]:
    if kinds is None:
        return frozenset(NUMERIC_KINDS)
    if isinstance(kinds, str):
        raise TypeError("kinds must be an iterable of kind names, not a single str")
    return frozenset(kinds)


def ground_numbers(claim: str, source: str, *, kinds: Iterable[str] | None = None) -> ClaimResult:
    """Check every numeric expression of ``claim`` against ``source``.

    ``kinds`` restricts the check (``{"amount", "percent", "date"}``); by default
    plain numbers are checked too.
    """
    return NumberIndex(source, _kinds(kinds)).ground(claim)


def ground_claims(
    claims: Iterable[object], source: str, *, kinds: Iterable[str] | None = None
) -> list[ClaimResult]:
    """Ground many claims against one source, scanning the source once."""
    return NumberIndex(source, _kinds(kinds)).ground_many(claims)
