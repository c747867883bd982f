"""The app factory: ``create_app(db_url, settings=...)`` builds the whole service.

The app is stateless between requests beyond its database: several processes
(uvicorn workers, or hosts) can serve one PostgreSQL. The database is migrated
with :func:`sadame.db.upgrade` when the app is created (``settings.migrate``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from sadame import __version__
from sadame.db import make_engine, resolve_url, upgrade
from sadame.judge import JudgeFallback
from sadame.web._context import WebContext
from sadame.web._errors import BodySizeLimit, SafeJSONResponse, install_error_handlers
from sadame.web._html_errors import HtmlErrorPages
from sadame.web._ops import Metrics, OpsMiddleware, count_verdicts, counting_fallback
from sadame.web._ops import router as ops_router
from sadame.web._security import SecurityMiddleware
from sadame.web._settings import WebSettings
from sadame.web._trust import parse_proxies

__all__ = ["STATIC_DIR", "create_app"]

log = logging.getLogger("sadame.web")

STATIC_DIR = Path(__file__).parent / "static"

_DESCRIPTION = """\
sadame (定め): deterministic, trackable Japanese text and LLM output.

* **normalize** — the normalization contract with named presets (and an explanation of each step).
* **puzzles** — the rule-table judge as a lateral-thinking game; progress is kept per browser cookie.
  The truth (真相) and the rules are never returned before a puzzle is solved or given up.
* **quote** — verify quotes verbatim against a source and ground numbers.
* **track** — the issue tracker; needs `Authorization: Bearer <key>` (one tenant per key;
  create keys with `sadame web create-key --tenant NAME`).

Request bodies are limited in size (413); malformed input gets a 4xx with a clear `message`.
"""


def _fallback(settings: WebSettings, db_url: str) -> JudgeFallback | None:
    """The judge fallback: the one given, or (``"env"``) the LLM that ``SADAME_LLM_*`` configures.

    Not configured means rules only; a broken configuration fails here, at startup,
    rather than silently running without the LLM.
    """
    if settings.judge_fallback != "env":
        return settings.judge_fallback
    from sadame.llm import load_fallback_from_env

    fallback = load_fallback_from_env(db_url=db_url)
    if fallback is not None:
        log.info("LLM judge fallback configured: %r", fallback)
    return fallback


def create_app(db_url: str | None = None, *, settings: WebSettings | None = None) -> FastAPI:
    """The sadame web service on ``db_url`` (default ``$SADAME_DB`` or ``sqlite:///sadame.db``).

    Pages: ``/`` (home), ``/puzzles``, ``/tracker``, ``/quote``. API under ``/api``,
    documented at ``/docs`` and ``/openapi.json``. Operations: ``/healthz``, ``/readyz``,
    ``/metrics`` (:mod:`sadame.web._ops`).
    """
    from sadame.web.api import router as api_router
    from sadame.web.pages import router as pages_router

    settings = settings or WebSettings()
    parse_proxies(settings.trusted_proxies)  # a bad address fails here, not at the first request
    url = resolve_url(db_url)
    engine = make_engine(url)
    if settings.migrate:
        upgrade(engine)
    app = FastAPI(
        title="sadame",
        version=__version__,
        description=_DESCRIPTION,
        default_response_class=SafeJSONResponse,
        docs_url=None,  # /docs is our own server-rendered page (Swagger UI needs a CDN)
        redoc_url=None,
    )
    metrics = Metrics()
    fallback = _fallback(settings, url)
    if fallback is not None:
        fallback = counting_fallback(fallback, metrics)
    app.state.metrics = metrics
    app.state.ctx = WebContext(url, engine, settings, fallback)
    count_verdicts(app.state.ctx.game, metrics)
    install_error_handlers(app)
    app.include_router(ops_router)
    app.include_router(api_router)
    app.include_router(pages_router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodySizeLimit, limit=settings.max_body_bytes)
    app.add_middleware(HtmlErrorPages, max_bytes=settings.max_body_bytes)  # pages never show a JSON error
    # Added last, so outermost: refuses cross-origin posts before any body is read and
    # puts the security headers on every response, 413s included.
    app.add_middleware(SecurityMiddleware, trusted_origins=settings.trusted_origins,
                       allowed_hosts=settings.allowed_hosts, trusted_proxies=settings.trusted_proxies)
    # Outermost of all: the request id, access log line and request metrics cover every response.
    app.add_middleware(OpsMiddleware, metrics=metrics)
    return app
