"""sadame.web: the web app and HTTP API (FastAPI, Jinja2 pages in Japanese, no build step).

An ASGI app for any database URL (``uvicorn``, ``hypercorn`` or a test client can serve it)::

    from sadame.web import create_app
    app = create_app("sqlite:///sadame.db")

Run it with ``sadame serve``; create tracker API keys with
``sadame web create-key --tenant NAME``.
"""

from __future__ import annotations

from sadame.web._app import create_app
from sadame.web._game import GameService
from sadame.web._serve import app_from_env, default_workers, settings_from_env
from sadame.web._serve import serve as serve_app
from sadame.web._settings import DEFAULT_MAX_BODY_BYTES, WebSettings
from sadame.web._store import CreatedKey, GameStore, KeyStore, TenantNameError

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "CreatedKey",
    "GameService",
    "GameStore",
    "KeyStore",
    "TenantNameError",
    "WebSettings",
    "app_from_env",
    "create_app",
    "create_key",
    "default_workers",
    "purge_sessions",
    "serve_app",
    "settings_from_env",
]


def create_key(tenant: str, db_url: str | None = None) -> CreatedKey:
    """Create a tracker API key for ``tenant`` (and the tenant itself when new).

    The key is returned once and stored only as its SHA-256.
    """
    from sadame.db import make_engine, upgrade

    engine = make_engine(db_url)
    upgrade(engine)
    return KeyStore(engine).create_key(tenant)


def purge_sessions(db_url: str | None = None, anonymous_ttl: int | None = None) -> dict[str, int]:
    """Delete browser sessions idle longer than ``anonymous_ttl`` seconds (default: the
    settings' 30 days) with their game states, and client budgets whose window is over."""
    from dataclasses import replace

    from sadame.db import make_engine, upgrade

    engine = make_engine(db_url)
    upgrade(engine)
    settings = WebSettings(judge_fallback=None)
    if anonymous_ttl is not None:
        settings = replace(settings, anonymous_ttl=anonymous_ttl)
    try:
        return GameStore(engine, settings).purge()
    finally:
        engine.dispose()
