"""Error handling of the web service: every bad request gets a 4xx with a clear message.

Exception map (most specific first)::

    RequestValidationError      -> 422  (wrong types, missing fields, malformed JSON)
    BodyTooLarge (middleware)   -> 413
    SadameError                 -> its own ``http_status`` and ``code`` (404 for a missing issue
                                   or puzzle, 409 for a move the state forbids, 429 for a spent
                                   budget ...: see :mod:`sadame._errors`)
    other LookupError           -> 404
    DatabaseError, driver OperationalError/InterfaceError, pool timeout
                                -> 503 with Retry-After (no connection details)
    other ValueError / TypeError (bad text ...) -> 400
    anything else               -> 500 (a bug: the fuzz tests look for these)

:func:`present` is the one place that turns an exception into (status, code, message,
Japanese message): the API's JSON body and the dashboard's Japanese error page both use it,
so they always agree. No code matches class names.

Validation errors never echo the offending input back: it may be a megabyte of
text or contain lone surrogates that cannot be encoded.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sadame._errors import SadameError
from sadame.db import DatabaseError
from sadame.web._present import present
from sadame.web._security import FORM_NUL_MESSAGE, refusal

__all__ = ["BodySizeLimit", "SafeJSONResponse", "install_error_handlers"]

log = logging.getLogger("sadame.web")


class SafeJSONResponse(JSONResponse):
    """JSON with Japanese left readable; a lone surrogate is written as a ``\\udXXX`` escape
    instead of failing the response."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode(
            "utf-8", "backslashreplace"
        )


def _error(status: int, error: str, message: str, **extra: Any) -> SafeJSONResponse:
    return SafeJSONResponse({"error": error, "message": message, **extra}, status_code=status)


#: What a client sees when the database cannot answer: never the URL, user, host or driver text.
DATABASE_UNAVAILABLE = "データベースに一時的に接続できません。しばらくしてからもう一度お試しください"
RETRY_AFTER = "5"

_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _message(item: Any) -> str:
    """The rule broken, in words (a string's length in characters, not "items")."""
    ctx = item.get("ctx") or {}
    if item.get("type") == "too_long" and isinstance(item.get("input"), str):
        return f"at most {ctx.get('max_length')} characters allowed, got {ctx.get('actual_length')}"
    return str(item.get("msg", ""))


def _rank(detail: dict[str, Any]) -> tuple[int, int]:
    """Which error to put in the message: a union reports one per member, and the one
    that broke a rule (too long, missing ...) says more than a type mismatch of another
    member; then the deepest."""
    mismatch = detail["type"].endswith(("_type", "_parsing")) or detail["type"] == "model_attributes_type"
    return (1 if mismatch else 0, -len(detail["loc"]))


def _describe(errors: Any) -> list[dict[str, Any]]:
    """Errors with their field path only: pydantic's union-member tags (which may spell
    out internal validator objects) are left out of the path."""
    described = []
    for item in errors:
        loc = [str(p) for p in item.get("loc", ()) if isinstance(p, int) or _FIELD.fullmatch(str(p))]
        described.append({"loc": loc, "msg": _message(item), "type": str(item.get("type", ""))})
    return described


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers of the exception map above on ``app``."""

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> SafeJSONResponse:
        details = _describe(exc.errors())
        first = min(details, key=_rank) if details else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"])
        message = f"{where}: {first['msg']}" if where else str(first["msg"])
        return _error(422, "invalid_request", message, detail=details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> SafeJSONResponse:
        response = _error(exc.status_code, "http_error", str(exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    async def _library(_request: Request, exc: Exception) -> SafeJSONResponse:
        found = present(exc)
        return _error(found.status, found.code, found.message, message_ja=found.japanese)

    async def _database(request: Request, exc: Exception) -> Response:
        # the details (which may name the database, its user and host) go to the log only
        log.warning("database unavailable on %s: %s", request.url.path, str(exc).splitlines()[0] if str(exc) else
                    type(exc).__name__)
        response = refusal(request.scope, 503, "database_unavailable", DATABASE_UNAVAILABLE)
        response.headers["Retry-After"] = RETRY_AFTER
        return response

    for database_error in (DatabaseError, OperationalError, InterfaceError, PoolTimeout):
        app.add_exception_handler(database_error, _database)

    for kind in (SadameError, ValueError, LookupError, TypeError):
        app.add_exception_handler(kind, _library)


def _form_with_nul(scope: Scope, body: bytes) -> bool:
    """Whether a form body carries a NUL character (PostgreSQL cannot store one)."""
    content_type = b""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            content_type = value.lower()
    if content_type.startswith(b"application/x-www-form-urlencoded"):
        return b"%00" in body or b"\x00" in body
    return content_type.startswith(b"multipart/form-data") and b"\x00" in body


class BodySizeLimit:
    """ASGI middleware: a request body above ``limit`` bytes gets 413 before the app parses it.

    The declared ``Content-Length`` is checked first; a chunked body is read up to
    the limit and then replayed to the app. A form body with a NUL character gets 400
    here too, so no form field on any page can carry one.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._reject(send, 400, "invalid Content-Length header")
                    return
                if declared > self.limit:
                    await self._too_large(send)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        whole = b"".join(chunks)
        if _form_with_nul(scope, whole):
            await refusal(scope, 400, "bad_request", FORM_NUL_MESSAGE)(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        await self._reject(send, 413, f"request body larger than {self.limit} bytes")

    async def _reject(self, send: Send, status: int, message: str) -> None:
        error = "payload_too_large" if status == 413 else "bad_request"
        body = json.dumps({"error": error, "message": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


