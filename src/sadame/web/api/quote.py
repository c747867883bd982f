"""Quote verification and number grounding over HTTP (``/api/quote/...``)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from sadame.web._quotecache import cached_verifier
from sadame.web._quotecheck import MAX_QUOTES, check_output, ground, summarize
from sadame.web.deps import QuoteSlot, Text

__all__ = ["CheckRequest", "GroundRequest", "VerifyRequest", "router"]

router = APIRouter(prefix="/quote", tags=["quote"])

Preset = Literal["decoration", "judge", "numeric", "issue"]


class VerifyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: Text
    quotes: list[Text] = Field(max_length=MAX_QUOTES)
    preset: Preset = "decoration"


class GroundRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim: Text
    source: Text


class CheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: Text
    output: Text = Field(description="The LLM output: JSON with evidence_spans/quotes, or text with 「」 quotes.")
    preset: Preset = "decoration"


@router.post("/verify")
def verify(body: VerifyRequest, _slot: QuoteSlot) -> dict[str, Any]:
    """Every quote with its status (exact / normalized / missing / invalid) and its span in the source."""
    results = [r.to_dict() for r in cached_verifier(body.source, body.preset).verify_many(body.quotes)]
    return {"results": results, "summary": summarize(results)}


@router.post("/ground")
def ground_numbers(body: GroundRequest, _slot: QuoteSlot) -> dict[str, Any]:
    """Every amount, percentage and date of the claim, grounded in the source or not."""
    numbers, available = ground(body.claim, body.source)
    return {"numbers": numbers, "available": available}


@router.post("/check")
def check(body: CheckRequest, _slot: QuoteSlot) -> dict[str, Any]:
    """Extract the quotes of an LLM output, verify them and ground its numbers."""
    result = check_output(body.source, body.output, body.preset)
    return {
        "quotes": result.quotes,
        "numbers": result.numbers,
        "numbers_available": result.numbers_available,
        "summary": result.summary,
        "segments": [
            {"start": s.start, "end": s.end, "quotes": list(s.quotes)} for s in result.segments
        ],
    }
