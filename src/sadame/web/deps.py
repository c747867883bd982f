"""Dependencies shared by the API routes and the pages (``Annotated`` aliases).

* :data:`Ctx` — the app's :class:`~sadame.web._context.WebContext`.
* :data:`BrowserCookie` — this browser's opaque session cookie (a fresh value is set
  when the browser has none; the session row is stored, hashed, by the first move that
  succeeds, so rejected requests leave nothing behind).
* :data:`Client` — the stored identity of the client address (for per-client budgets).
* :data:`QuoteSlot` — one of the process's ``WebSettings.quote_slots`` quote-check slots.
* :data:`Tenant` — the tenant of the ``Authorization: Bearer <key>`` API key (401 otherwise).
* :data:`PresetName` — a preset of the contract's registry (:data:`sadame.normalize.PRESETS`);
  the schema's ``enum`` is the registry's names, so no route types its own list.
* :data:`Text` and friends — request strings without NUL characters or lone
  surrogates (neither survives a round trip through PostgreSQL or UTF-8).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import AfterValidator, Field, WithJsonSchema

from sadame.db._checks import shown_url
from sadame.normalize import CONTRACT_VERSION, PRESETS
from sadame.normalize._presets import FEATURE_DEFAULTS
from sadame.web._budget import client_id
from sadame.web._context import WebContext

__all__ = [
    "COOKIE_NAME",
    "QUOTE_DEFAULT",
    "BrowserCookie",
    "Client",
    "Ctx",
    "Identifier",
    "PresetName",
    "QuoteSlot",
    "ShortText",
    "Tenant",
    "Text",
    "clean_text",
    "get_ctx",
    "set_browser_cookie",
]

COOKIE_NAME = "sadame_session"


def clean_text(value: str) -> str:
    """Reject text that cannot be stored or encoded: NUL characters and lone surrogates."""
    if "\x00" in value:
        raise ValueError("text must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError("text must be valid Unicode (no lone surrogates)") from exc
    return value


Text = Annotated[str, AfterValidator(clean_text), Field(max_length=500_000)]
ShortText = Annotated[str, AfterValidator(clean_text), Field(max_length=2_000)]
Identifier = Annotated[str, AfterValidator(clean_text), Field(min_length=1, max_length=200)]


def known_preset(value: str) -> str:
    """``value`` when it names a preset of the registry (:data:`sadame.normalize.PRESETS`)."""
    if value not in PRESETS:
        raise ValueError(f"unknown preset {value!r}: choose one of {', '.join(PRESETS)}")
    return value


#: The quote checker's preset when a request names none (the contract's quote default).
QUOTE_DEFAULT = FEATURE_DEFAULTS[f"nc{CONTRACT_VERSION}"]["quote"]

PresetName = Annotated[
    str, AfterValidator(known_preset), WithJsonSchema({"type": "string", "enum": list(PRESETS)})
]


async def get_ctx(request: Request) -> WebContext:
    """The app's context (async: a sync dependency would cost a thread-pool hop on every request)."""
    ctx: WebContext = request.app.state.ctx
    return ctx


Ctx = Annotated[WebContext, Depends(get_ctx)]


def set_browser_cookie(response: Response, ctx: WebContext, cookie: str) -> None:
    response.set_cookie(
        COOKIE_NAME,
        cookie,
        max_age=max(ctx.settings.anonymous_ttl, ctx.settings.session_absolute),
        httponly=True,
        samesite="lax",
        secure=ctx.settings.cookie_secure,
        path="/",
    )


def browser_cookie(request: Request, response: Response, ctx: Ctx) -> str:
    """This browser's session cookie; a new one is issued (and set) when missing or unknown.

    Nothing is stored here: the session row is created by the first move that succeeds,
    and an error response (built by the exception handlers) does not carry the cookie.
    """
    cookie, fresh = ctx.games.resolve(request.cookies.get(COOKIE_NAME))
    if fresh:
        set_browser_cookie(response, ctx, cookie)
    return cookie


BrowserCookie = Annotated[str, Depends(browser_cookie)]


async def client(request: Request) -> str:
    """The hashed identity of the client's address (see :mod:`sadame.web._budget`); async, as
    :func:`get_ctx`."""
    return client_id(request.client.host if request.client else None)


Client = Annotated[str, Depends(client)]


def quote_slot(ctx: Ctx) -> Iterator[None]:
    """Hold one of the process's quote-check slots for the request (503 when none frees up)."""
    if not ctx.quote_slots.acquire(timeout=ctx.settings.quote_wait):
        raise HTTPException(503, "引用チェックが混み合っています。しばらくしてからもう一度お試しください",
                            headers={"Retry-After": "5"})
    try:
        yield
    finally:
        ctx.quote_slots.release()


QuoteSlot = Annotated[None, Depends(quote_slot)]

log = logging.getLogger("sadame.web")

#: Why a key is refused. The usual cause is a key created with another ``--db``, so the message
#: says keys belong to one database and how to make one here, without naming this server's
#: database (the client is not authenticated); the log line names it (password hidden).
UNKNOWN_KEY = ("unknown or revoked API key. A key works only on the database it was created in: create one "
               "for this server with `sadame web create-key --tenant NAME --db <this server's --db>`")
UNKNOWN_KEY_JA = ("APIキーが正しくないか、無効になっています。APIキーは作成したデータベースでだけ使えます。"
                  "このサーバー用のキーは sadame web create-key --tenant 名前 --db <このサーバーの --db> "
                  "で作成してください")


def log_refused_key(ctx: WebContext, where: str) -> None:
    """The server's log line for a refused key: it names the database the key was looked up in."""
    log.warning("%s: API key refused: not an active key of %s (keys work only on the database they were "
                "created in)", where, shown_url(ctx.db_url))


_bearer = HTTPBearer(auto_error=False, description="An API key from `sadame web create-key --tenant NAME`.")


def tenant(
    ctx: Ctx, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> str:
    """The tenant of the request's API key; 401 without a valid key."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(
            401, "missing API key: send 'Authorization: Bearer <key>'", headers={"WWW-Authenticate": "Bearer"}
        )
    found = ctx.keys.tenant_for_key(credentials.credentials)
    if found is None:
        log_refused_key(ctx, "API")
        raise HTTPException(401, UNKNOWN_KEY, headers={"WWW-Authenticate": "Bearer"})
    return found


Tenant = Annotated[str, Depends(tenant)]
