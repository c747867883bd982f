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
    "create_app",
    "create_key",
]


def create_key(tenant: str, db_url: str | None = None) -> CreatedKey:
    """Create a tracker API key for ``tenant`` (and the tenant itself when new).

    The key is returned once and stored only as its SHA-256.
    """
    from sadame.db import make_engine, upgrade

    engine = make_engine(db_url)
    upgrade(engine)
    return KeyStore(engine).create_key(tenant)
