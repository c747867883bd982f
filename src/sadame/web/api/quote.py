"""Quote verification and number grounding over HTTP (``/api/quote/...``).

Each route calls one library function of :mod:`sadame.quote`; ``/check`` is the very
call behind ``sadame quote check`` and the ``/quote`` page.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from sadame.quote import check_output, ground_numbers, quote_list_gate
from sadame.quote._check import CHECK_MAX_SPANS
from sadame.quote._extract import MAX_QUOTES
from sadame.web.deps import QUOTE_DEFAULT, PresetName, QuoteSlot, Text
from sadame.web.schemas.quote import CheckResponse, ClaimResponse, VerifyResponse

__all__ = ["CheckRequest", "GroundRequest", "VerifyRequest", "router"]

router = APIRouter(prefix="/quote", tags=["quote"])



class VerifyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: Text
    quotes: list[Text] = Field(max_length=MAX_QUOTES)
    preset: PresetName = QUOTE_DEFAULT


class GroundRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim: Text
    source: Text


class CheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: Text
    output: Text = Field(description="The LLM output: JSON with evidence_spans/quotes, or text with 「」 quotes.")
    preset: PresetName = QUOTE_DEFAULT


@router.post("/verify", response_model=VerifyResponse)
def verify(body: VerifyRequest, _slot: QuoteSlot) -> dict[str, Any]:
    """Every quote with its status (exact / normalized / missing / invalid) and its spans in the source
    (at most 10 per quote; ``truncated`` says when there were more)."""
    report = quote_list_gate(preset=body.preset, max_spans=CHECK_MAX_SPANS).check(body.source, body.quotes)
    return {"results": [item.result.to_dict() for item in report.items], "summary": report.summary.to_dict()}


@router.post("/ground", response_model=ClaimResponse)
def ground(body: GroundRequest, _slot: QuoteSlot) -> dict[str, Any]:
    """Every amount, count, percentage, date and duration of the claim, grounded in the source or not."""
    return ground_numbers(body.claim, body.source).to_dict()


@router.post("/check", response_model=CheckResponse)
def check(body: CheckRequest, _slot: QuoteSlot) -> dict[str, Any]:
    """Extract the quotes of an LLM output, verify them, ground its numbers, and cut the source
    into highlight segments (the same call as ``sadame quote check``)."""
    return check_output(body.source, body.output, body.preset).to_dict()
