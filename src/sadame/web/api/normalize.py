"""``POST /api/normalize``: the normalization contract over HTTP."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from sadame.normalize import explain, normalize
from sadame.web.deps import PresetName, Text

__all__ = ["NormalizeRequest", "router"]

router = APIRouter(tags=["normalize"])

class NormalizeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Text
    preset: PresetName = "judge"
    explain: bool = False


class NormalizeStep(BaseModel):
    step: str
    before: str
    after: str


class NormalizeResponse(BaseModel):
    text: str
    preset: PresetName
    result: str
    steps: list[NormalizeStep] | None = None


@router.post("/normalize", response_model=NormalizeResponse, response_model_exclude_none=True)
def normalize_text(body: NormalizeRequest) -> dict[str, Any]:
    """Normalize ``text`` with a named preset; ``explain`` adds every step that changed it."""
    if body.explain:
        explanation = explain(body.text, preset=body.preset)
        return {
            "text": body.text,
            "preset": body.preset,
            "result": explanation.result,
            "steps": [{"step": s.step, "before": s.before, "after": s.after} for s in explanation.steps],
        }
    return {"text": body.text, "preset": body.preset, "result": normalize(body.text, preset=body.preset)}
