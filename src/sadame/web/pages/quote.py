"""The quote checker page: paste a source and an LLM output, see numbered quotes and grounded numbers.

The page calls :func:`sadame.quote.check_output`, the same call as ``sadame quote check``
and ``POST /api/quote/check``; only the Japanese labels are the page's own (``data/labels/quote.yaml``).
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse

from sadame._datafile import parse_text
from sadame.normalize import PRESETS
from sadame.quote import check_output
from sadame.quote._check import CHECK_DEADLINE_SECONDS, MAX_HINTS
from sadame.quote._hint import MAX_HINT_CHARS
from sadame.web.deps import QUOTE_DEFAULT, Ctx, QuoteSlot, clean_text
from sadame.web.pages._common import render

__all__ = ["PRESET_LABELS", "router"]

router = APIRouter()


def _load_labels() -> dict[str, dict[str, str]]:
    """The page's Japanese labels, from their one catalogue (``data/labels/quote.yaml``)."""
    text = (resources.files("sadame") / "data" / "labels" / "quote.yaml").read_text(encoding="utf-8")
    data = parse_text(text, file="data/labels/quote.yaml")
    assert isinstance(data, dict)
    return {group: {str(k): str(v) for k, v in labels.items()} for group, labels in data.items()}


_LABELS = _load_labels()
#: What each preset of the registry ignores, in Japanese (a test checks one line per preset).
PRESET_LABELS: dict[str, str] = _LABELS["presets"]
#: The presets offered: the registry's, the quote default first.
_PRESETS: dict[str, str] = {name: PRESET_LABELS[name] for name in sorted(PRESETS, key=lambda n: n != QUOTE_DEFAULT)}
_STATUS = _LABELS["status"]
_CATEGORY = _LABELS["category"]
_ORIGIN = _LABELS["origin"]
_GROUNDING = _LABELS["grounding"]


def _context(source: str, output: str, preset: str, max_bytes: int) -> dict[str, Any]:
    # The form is URL-encoded: a kana or kanji is 3 UTF-8 bytes, each sent as %XX, so 9 bytes.
    return {"source": source, "output": output, "preset": preset, "result": None, "presets": _PRESETS,
            "status_labels": _STATUS, "category_labels": _CATEGORY, "origin_labels": _ORIGIN,
            "grounding_labels": _GROUNDING, "max_bytes": max_bytes, "max_chars": max_bytes // 9,
            "max_hints": MAX_HINTS, "max_hint_chars": MAX_HINT_CHARS, "deadline": CHECK_DEADLINE_SECONDS}


@router.get("/quote", response_class=HTMLResponse)
def quote_page(request: Request, ctx: Ctx) -> HTMLResponse:
    return render(request, None, "quote.html", _context("", "", QUOTE_DEFAULT, ctx.settings.max_body_bytes))


@router.post("/quote", response_class=HTMLResponse)
def quote_check(request: Request, ctx: Ctx, _slot: QuoteSlot, source: Annotated[str, Form()] = "",
                output: Annotated[str, Form()] = "", preset: Annotated[str, Form()] = QUOTE_DEFAULT) -> HTMLResponse:
    # HTML forms always submit textarea line breaks as CRLF (HTML spec); undo that transport
    # detail so offsets refer to the text the user pasted. The JSON API takes text as is.
    source = source.replace("\r\n", "\n")
    output = output.replace("\r\n", "\n")
    context = _context(source, output, preset, ctx.settings.max_body_bytes)
    try:
        try:
            clean_text(source)
            clean_text(output)
        except ValueError:
            raise ValueError("NUL 文字や壊れた文字（対になっていないサロゲート）は使えません") from None
        if preset not in _PRESETS:
            raise ValueError(f"プリセット {preset!r} はありません")
        if not source.strip() or not output.strip():
            raise ValueError("原文とLLMの出力の両方を入力してください")
    except ValueError as exc:
        return render(request, None, "quote.html", {**context, "error": str(exc)}, status=400)
    context["result"] = check_output(source, output, preset)
    return render(request, None, "quote.html", context)
