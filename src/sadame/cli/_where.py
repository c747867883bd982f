"""How a command names the database and tenant it used (password hidden).

Every command that touches a database says which one when it creates something or finds
nothing, so a key made in another directory, or data under another tenant, is never a
silent surprise.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["db_flag", "has_active_keys", "no_users_message", "shown_url", "tenant_has_users", "tracker_tenants",
           "where"]


def shown_url(url: str) -> str:
    """``url`` with its password replaced by ``***``; a SQLite file as an absolute path."""
    from sqlalchemy.engine import make_url

    from sadame.db import resolve_url

    resolved = resolve_url(url)
    parsed = make_url(resolved)
    if parsed.get_backend_name() == "sqlite" and parsed.database and not parsed.database.startswith("file:"):
        if parsed.database != ":memory:":
            return f"sqlite:///{os.path.abspath(parsed.database)}"
        return resolved
    return parsed.render_as_string(hide_password=True)


def db_flag(url: str) -> str:
    """The ``--db`` argument that names this database for another command (password hidden, and
    said so: a command with ``***`` for the password must not be pasted as it is)."""
    from sqlalchemy.engine import make_url

    from sadame.db import resolve_url

    flag = f"--db '{shown_url(url)}'"
    return f"{flag} (password hidden: use your own URL)" if make_url(resolve_url(url)).password else flag


def where(url: str | None, tenant: str | None = None) -> str:
    """``database URL, tenant 'NAME'`` as the messages below say it."""
    from sadame.db import resolve_url

    text = f"database {shown_url(resolve_url(url))}"
    return f"{text}, tenant {tenant!r}" if tenant is not None else text


def has_active_keys(url: str) -> bool:
    """Whether the database has an active web API key (False when it has no such table, or for a
    SQLite file that does not exist: it is not created to look)."""
    from sadame.db._checks import sqlite_path

    path = sqlite_path(url)
    if path is not None and not path.is_file():
        return False
    # no tables yet (the server migrates), or not reachable: the server says so itself
    return bool(_rows(url, "SELECT 1 FROM web_api_keys WHERE revoked_at IS NULL LIMIT 1"))


def _rows(url: str | None, sql: str, params: dict[str, object] | None = None) -> list[Any] | None:
    """The rows of one read-only query, or None when the database cannot answer it (no such
    table, not reachable): what these start-up and "found nothing" messages need, never an error."""
    from sqlalchemy import text

    from sadame.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(text(sql), params or {}))
    except Exception:
        return None
    finally:
        engine.dispose()


def tracker_tenants(url: str | None, limit: int = 20) -> list[str]:
    """Tenants that have tracker users in the database (at most ``limit``; none when it has no tables)."""
    rows = _rows(url, "SELECT DISTINCT tenant_id FROM track_users ORDER BY tenant_id LIMIT :n", {"n": limit})
    return [str(row[0]) for row in rows or []]  # a database without the tracker's tables has no tenants


def no_users_message(url: str | None, tenant: str) -> str:
    """What a command says when the tenant it was given has no tracker users."""
    others = [name for name in tracker_tenants(url) if name != tenant]
    here = f"tenants here: {', '.join(others)} (use --tenant NAME)" if others else "no tenant has tracker data here"
    return f"tenant {tenant!r} has no users in {where(url)}; {here}"


def tenant_has_users(url: str | None, tenant: str) -> bool:
    """Whether ``tenant`` has any tracker user in the database (one indexed lookup)."""
    return bool(_rows(url, "SELECT 1 FROM track_users WHERE tenant_id = :t LIMIT 1", {"t": tenant}))
