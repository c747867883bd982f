"""The quote checker page: paste a source and an LLM output, see quotes highlighted."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse

from sadame.web._quotecheck import check_output
from sadame.web.deps import Ctx, QuoteSlot, clean_text
from sadame.web.pages._common import render

__all__ = ["router"]

router = APIRouter()

_PRESETS = ("decoration", "judge", "numeric", "issue")


@router.get("/quote", response_class=HTMLResponse)
def quote_page(request: Request, ctx: Ctx) -> HTMLResponse:
    return render(request, None, "quote.html", {"source": "", "output": "", "preset": "decoration",
                                                "result": None, "presets": _PRESETS})


@router.post("/quote", response_class=HTMLResponse)
def quote_check(request: Request, ctx: Ctx, _slot: QuoteSlot, source: Annotated[str, Form()] = "",
                output: Annotated[str, Form()] = "", preset: Annotated[str, Form()] = "decoration") -> HTMLResponse:
    # HTML forms always submit textarea line breaks as CRLF (HTML spec); undo that transport
    # detail so offsets refer to the text the user pasted. The JSON API takes text as is.
    source = source.replace("\r\n", "\n")
    output = output.replace("\r\n", "\n")
    context: dict[str, Any] = {"source": source, "output": output, "preset": preset, "result": None, "presets": _PRESETS}
    try:
        clean_text(source)
        clean_text(output)
        if preset not in _PRESETS:
            raise ValueError(f"unknown preset {preset!r}")
        if not source.strip() or not output.strip():
            raise ValueError("原文とLLMの出力の両方を入力してください")
    except ValueError as exc:
        return render(request, None, "quote.html", {**context, "error": str(exc)}, status=400)
    context["result"] = check_output(source, output, preset)
    return render(request, None, "quote.html", context)
