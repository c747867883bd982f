"""sadame.web: the web app and HTTP API (FastAPI, Jinja2 pages in Japanese, no build step).

An ASGI app for any database URL (``uvicorn``, ``hypercorn`` or a test client can serve it)::

    from sadame.web import create_app
    app = create_app("sqlite:///sadame.db")

Run it with ``sadame serve`` (or :func:`serve`, which starts worker processes); create
tracker API keys with ``sadame web create-key --tenant NAME`` (or :mod:`sadame.web.admin`).
"""

from __future__ import annotations

from sadame._extras import require

require("web", "track", "ja")

from sadame.web._app import create_app
from sadame.web._serve import serve as serve
from sadame.web._settings import WebSettings

# What a user calls to run the service. Key and session administration is
# :mod:`sadame.web.admin`; the stores and the game service are internals.
__all__ = [
    "WebSettings",
    "create_app",
    "serve",
]
