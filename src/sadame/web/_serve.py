"""Serving the app: one process, or ``--workers N`` uvicorn worker processes.

Every worker builds its own app from the environment (:func:`app_from_env`): the
database URL and the settings travel as ``SADAME_*`` variables, and all state is in
the database, so the workers need nothing else in common. The parent process
migrates the database once before the workers start (they skip it).

Environment read by :func:`settings_from_env`:

* ``SADAME_COOKIE_SECURE`` — ``1`` to mark cookies ``Secure`` (behind TLS);
* ``SADAME_ANONYMOUS_TTL`` — seconds an anonymous session lives after its last move;
* ``SADAME_TRUSTED_ORIGINS`` — comma-separated origins allowed to post besides the host;
* ``SADAME_QUOTE_SLOTS`` — quote checks running at once per worker;
* ``SADAME_ALLOWED_HOSTS`` — comma-separated host names the ``Host`` header may name (``*``: any);
* ``SADAME_TRUSTED_PROXIES`` — comma-separated addresses/networks whose ``X-Forwarded-For`` is read.

uvicorn's own ``X-Forwarded-For`` handling (which trusts loopback by default) is turned off:
the app reads the header only from ``trusted_proxies`` (see :mod:`sadame.web._trust`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from sadame.db import resolve_url
from sadame.web._settings import COOKIE_SECURE_ENV, WebSettings, env_flag

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["app_from_env", "default_workers", "serve", "settings_from_env"]

_MIGRATE_ENV = "SADAME_WEB_MIGRATE"
_TTL_ENV = "SADAME_ANONYMOUS_TTL"
_ORIGINS_ENV = "SADAME_TRUSTED_ORIGINS"
_SLOTS_ENV = "SADAME_QUOTE_SLOTS"
_HOSTS_ENV = "SADAME_ALLOWED_HOSTS"
_PROXIES_ENV = "SADAME_TRUSTED_PROXIES"


def default_workers() -> int:
    """One worker per core."""
    return max(1, os.cpu_count() or 1)


def _positive_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name} must be a positive whole number of seconds or slots, not {raw!r}")
    return int(raw)


def _listed(name: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in os.environ.get(name, "").split(",") if v.strip())


def with_listen_host(settings: WebSettings, host: str) -> WebSettings:
    """``settings`` whose allowed hosts include the address the server listens on (not a wildcard)."""
    if host in ("0.0.0.0", "::", "") or host in settings.allowed_hosts:
        return settings
    return replace(settings, allowed_hosts=(*settings.allowed_hosts, host))


def settings_from_env(base: WebSettings | None = None) -> WebSettings:
    """``base`` (default settings) with what the ``SADAME_*`` variables above say."""
    base = base or WebSettings()
    origins = _listed(_ORIGINS_ENV)
    hosts, proxies = _listed(_HOSTS_ENV), _listed(_PROXIES_ENV)
    return replace(
        base,
        cookie_secure=env_flag(COOKIE_SECURE_ENV) or base.cookie_secure,
        anonymous_ttl=_positive_int(_TTL_ENV, base.anonymous_ttl),
        trusted_origins=origins or base.trusted_origins,
        allowed_hosts=hosts or base.allowed_hosts,
        trusted_proxies=proxies or base.trusted_proxies,
        quote_slots=_positive_int(_SLOTS_ENV, base.quote_slots),
        migrate=os.environ.get(_MIGRATE_ENV, "1") != "0",
    )


def app_from_env() -> FastAPI:
    """The app as a worker process builds it (uvicorn factory)."""
    from sadame.web._app import create_app

    return create_app(os.environ.get("SADAME_DB"), settings=settings_from_env())


def _export(url: str, settings: WebSettings) -> None:
    """Hand the settings to worker processes through their environment."""
    os.environ["SADAME_DB"] = url
    os.environ[COOKIE_SECURE_ENV] = "1" if settings.cookie_secure else "0"
    os.environ[_TTL_ENV] = str(settings.anonymous_ttl)
    os.environ[_SLOTS_ENV] = str(settings.quote_slots)
    os.environ[_ORIGINS_ENV] = ",".join(settings.trusted_origins)
    os.environ[_HOSTS_ENV] = ",".join(settings.allowed_hosts)
    os.environ[_PROXIES_ENV] = ",".join(settings.trusted_proxies)
    os.environ[_MIGRATE_ENV] = "0"


def serve(db_url: str | None, *, host: str, port: int, workers: int, settings: WebSettings,
          log_level: str = "info") -> None:
    """Run the service until interrupted: in this process, or in ``workers`` processes.

    The app is created here first either way: that migrates the database once and
    fails early (a ``ValueError``) on a bad configuration.
    """
    import uvicorn

    from sadame.web._app import create_app

    url = resolve_url(db_url)
    settings = with_listen_host(settings, host)
    app = create_app(url, settings=settings)
    if workers <= 1:
        uvicorn.run(app, host=host, port=port, log_level=log_level, proxy_headers=False)
        return
    app.state.ctx.engine.dispose()
    _export(url, settings)
    uvicorn.run("sadame.web._serve:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level=log_level, proxy_headers=False)
