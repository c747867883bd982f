"""Quote verification and number grounding: the answers of ``/api/quote/...``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from sadame.web.deps import PresetName

__all__ = ["CheckResponse", "ClaimResponse", "VerifyResponse"]

QuoteStatus = Literal["exact", "normalized", "fuzzy", "missing", "invalid"]
ClaimStatus = Literal["grounded", "partial", "ungrounded", "no_numbers", "invalid"]


class Span(BaseModel):
    start: int
    end: int
    text: str


class QuotePart(BaseModel):
    text: str
    found: bool
    span: Span | None


class QuoteResult(BaseModel):
    """One quote: its status, where it is in the source (at most 10 spans) and why not."""

    quote: str
    status: QuoteStatus
    verified: bool
    preset: PresetName
    span: Span | None
    spans: list[Span]
    occurrences: int
    ambiguous: bool
    truncated: bool
    parts: list[QuotePart]
    score: float | None
    reason: str


class GateSummary(BaseModel):
    total: int
    counts: dict[str, int]
    verified: int
    verified_rate: float | None  #: None when there are no quotes


class VerifyResponse(BaseModel):
    results: list[QuoteResult]
    summary: GateSummary


class GroundedNumber(BaseModel):
    """A number of the claim and where the source states it."""

    text: str
    start: int
    end: int
    kind: str
    value: str
    category: str
    grounded: bool
    spans: list[Span]
    occurrences: int
    truncated: bool
    #: the value is in the source, but not in this claim's context (「数値は原文にあるが文脈が異なる」)
    context_differs: bool = False
    #: where the value does appear, in that other context
    elsewhere: list[Span] = []
    position: str | None = None
    #: line:column of the first of ``elsewhere`` (the check's answer only)
    elsewhere_position: str | None = None


class ClaimResponse(BaseModel):
    claim: str
    status: ClaimStatus
    verified: bool
    numbers: list[GroundedNumber]
    reason: str
    truncated: bool


class Nearest(BaseModel):
    span: Span
    score: float


class CheckedQuote(QuoteResult):
    number: int
    origin: str
    position: str
    nearest: Nearest | None
    nearest_position: str
    #: why no nearest passage was looked for: "too_long", "over_cap" ("" when it was)
    hint_skipped: str = ""


class CheckedNumbers(BaseModel):
    status: ClaimStatus
    verified: bool
    numbers: list[GroundedNumber]
    reason: str
    truncated: bool


class Segment(BaseModel):
    start: int
    end: int
    quote: int
    quotes: int
    number: int
    opens: bool


class CheckResponse(BaseModel):
    """The quotes of an LLM output verified, its numbers grounded, the source cut into segments."""

    preset: PresetName
    summary: dict[str, Any]
    quotes: list[CheckedQuote]
    numbers: CheckedNumbers
    segments: list[Segment]
