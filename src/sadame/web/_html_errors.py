"""No page ever shows a JSON error body: outside ``/api``, an error answered as JSON becomes
the Japanese error page.

Middleware that refuse a request before any page runs (the body-size limit's 413, a
malformed form) and the JSON exception handlers answer in JSON; for a browser on a page
that is raw English JSON in place of the form it filled in. This ASGI middleware turns
any ``application/json`` response of status 400 or above on a non-``/api`` path into
``error.html`` with a Japanese message (the response's own when it is Japanese), keeping
the status. The API keeps its JSON.
"""

from __future__ import annotations

import json
import re

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sadame.web.pages._common import templates

__all__ = ["HtmlErrorPages", "size_message"]

_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_BY_STATUS = {
    400: "送信された内容を読み取れませんでした。入力を確かめて、もう一度お試しください。",
    401: "サインインが必要です。",
    403: "この操作は受け付けられません。",
    404: "ページが見つかりません。",
    405: "この方法ではページを開けません。",
    409: "今の状態ではこの操作はできません。",
    422: "送信された内容を読み取れませんでした。入力を確かめて、もう一度お試しください。",
    429: "短い間に操作が多すぎます。しばらくしてからもう一度お試しください。",
    503: "混み合っています。少し待ってからもう一度お試しください。",
}
_DEFAULT = "サーバーで問題が起きました。少し待ってからもう一度お試しください。"


def size_message(max_bytes: int) -> str:
    """The 413 message of the pages: the limit in bytes and in Japanese characters (form encoding
    sends each kana or kanji as 9 bytes, ``%E3%81%82``)."""
    return (f"送信された内容が大きすぎます（上限 {max_bytes:,} バイト。日本語なら原文と出力をあわせて"
            f"約 {max_bytes // 9:,} 文字まで）。ブラウザの「戻る」で入力した文に戻れます。")


class HtmlErrorPages:
    """ASGI middleware: JSON error responses outside ``/api`` become the Japanese error page."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or path.startswith("/api/") or path in ("/openapi.json", "/metrics", "/readyz",
                                                                            "/healthz"):
            await self.app(scope, receive, send)
            return
        held: Message | None = None
        chunks: list[bytes] = []

        async def watch(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and held is None and _is_json_error(message):
                held = message
                return
            if held is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                await self._page(scope, int(held["status"]), b"".join(chunks), receive, send)

        await self.app(scope, receive, watch)

    async def _page(self, scope: Scope, status: int, body: bytes, receive: Receive, send: Send) -> None:
        try:
            message = str(json.loads(body).get("message", ""))
        except (ValueError, AttributeError):
            message = ""
        if status == 413:
            message = size_message(self.max_bytes)
        elif not _JAPANESE.search(message):
            message = _BY_STATUS.get(status, _DEFAULT)
        page = templates.TemplateResponse(Request(scope), "error.html", {"message": message}, status_code=status)
        await page(scope, receive, send)


def _is_json_error(message: Message) -> bool:
    if int(message["status"]) < 400:
        return False
    for name, value in message.get("headers", ()):
        if name.lower() == b"content-type":
            return bytes(value).startswith(b"application/json")
    return False
