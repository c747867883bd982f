"""The quote checker page: paste a source and an LLM output, see numbered quotes and grounded numbers.

The page calls :func:`sadame.quote.check_output`, the same call as ``sadame quote check``
and ``POST /api/quote/check``; only the Japanese labels below are the page's own.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse

from sadame.quote import check_output
from sadame.web.deps import Ctx, QuoteSlot, clean_text
from sadame.web.pages._common import render

__all__ = ["router"]

router = APIRouter()

#: Presets offered, with what each one ignores, in Japanese.
_PRESETS: dict[str, str] = {
    "quote": "引用（既定）: Markdown の装飾、全角・半角、改行や和文まわりの空白、「、」「，」「,」の違い、"
    "コロンの後の空白、引用全体を囲む「」を無視します。英単語の間の空白は区別します。",
    "decoration": "装飾のみ（以前の既定）: Markdown の装飾と全角・半角の違いを無視し、空白は 1 つにまとめます。",
    "numeric": "数値: 装飾に加えて金額・割合・日付の書き方をそろえ、空白をすべて無視します。",
    "judge": "判定用（ゆるい）: 大文字・小文字、カタカナ・ひらがな、句読点と空白の違いも無視します。",
    "issue": "課題キー用: 句読点を空白に置き換え、小文字にそろえます。",
}
_STATUS = {"exact": "完全一致", "normalized": "表記ゆれを除いて一致", "fuzzy": "近似（未確認）",
           "missing": "原文にありません", "invalid": "確認できません"}
_CATEGORY = {"money": "金額", "count": "人数・件数", "percent": "割合", "date": "日付", "duration": "時間",
             "quantity": "数量", "number": "数値"}
_ORIGIN = {"json": "JSON", "bracket": "かぎかっこ", "blockquote": "引用ブロック", "line": "行"}


def _context(source: str, output: str, preset: str, max_bytes: int) -> dict[str, Any]:
    # The form is URL-encoded: a kana or kanji is 3 UTF-8 bytes, each sent as %XX, so 9 bytes.
    return {"source": source, "output": output, "preset": preset, "result": None, "presets": _PRESETS,
            "status_labels": _STATUS, "category_labels": _CATEGORY, "origin_labels": _ORIGIN,
            "max_bytes": max_bytes, "max_chars": max_bytes // 9}


@router.get("/quote", response_class=HTMLResponse)
def quote_page(request: Request, ctx: Ctx) -> HTMLResponse:
    return render(request, None, "quote.html", _context("", "", "quote", ctx.settings.max_body_bytes))


@router.post("/quote", response_class=HTMLResponse)
def quote_check(request: Request, ctx: Ctx, _slot: QuoteSlot, source: Annotated[str, Form()] = "",
                output: Annotated[str, Form()] = "", preset: Annotated[str, Form()] = "quote") -> HTMLResponse:
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
