"""The body of every error answer of the API (see :mod:`sadame.web._errors`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["ERROR_RESPONSES", "ErrorResponse", "ValidationDetail", "ValidationErrorResponse", "error_responses"]


class ErrorResponse(BaseModel):
    """A refused request: a stable ``error`` code, the message, and the message in Japanese."""

    error: str
    message: str
    message_ja: str | None = None


class ValidationDetail(BaseModel):
    loc: list[str]
    msg: str
    type: str


class ValidationErrorResponse(ErrorResponse):
    """422: the request does not match its schema (the offending input is never echoed)."""

    detail: list[ValidationDetail]


def _error(description: str, model: type[BaseModel] = ErrorResponse) -> dict[str, Any]:
    return {"model": model, "description": description}


_ALL: dict[int, dict[str, Any]] = {
    400: _error("入力を受け付けられません (bad input)"),
    401: _error("API キーがないか、正しくありません (missing or unknown API key)"),
    404: _error("見つかりません (no such issue, puzzle or table)"),
    409: _error("今の状態ではできません (the state forbids it)"),
    413: _error("リクエストが大きすぎます (body over the size limit)"),
    422: _error("リクエストの形が正しくありません (schema mismatch)", ValidationErrorResponse),
    429: _error("上限に達しました (a budget for the window is spent)"),
    503: _error("混み合っています (no slot free; retry after Retry-After)"),
}
#: The error answers every ``/api`` route may give.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {code: _ALL[code] for code in (400, 413, 422)}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a router adds to :data:`ERROR_RESPONSES` (for ``/openapi.json``)."""
    return {code: _ALL[code] for code in codes}
