"""Administration of the web service's database: tenants' API keys and browser sessions.

Each function opens the database at ``db_url`` (default ``$SADAME_DB`` or
``sqlite:///sadame.db``), brings its schema up to date and does one thing; the
``sadame web ...`` commands are thin wrappers over them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, TypeVar

from sqlalchemy import Engine

from sadame.db import make_engine, upgrade
from sadame.web._settings import WebSettings
from sadame.web._store import CreatedKey, GameStore, KeyStore

__all__ = [
    "create_key",
    "list_keys",
    "purge_sessions",
    "revoke_key",
]

T = TypeVar("T")


@contextmanager
def _database(db_url: str | None) -> Iterator[Engine]:
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        yield engine
    finally:
        engine.dispose()


def _with_keys(db_url: str | None, action: Callable[[KeyStore], T]) -> T:
    with _database(db_url) as engine:
        return action(KeyStore(engine))


def create_key(db_url: str | None = None, *, tenant: str) -> CreatedKey:
    """Create a tracker API key for ``tenant`` (and the tenant itself when new).

    The key is returned once and stored only as its SHA-256; a bad tenant name is a
    :class:`TenantNameError`.
    """
    return _with_keys(db_url, lambda keys: keys.create_key(tenant))


def list_keys(db_url: str | None = None) -> list[dict[str, Any]]:
    """Every key's tenant, prefix and dates (never the key)."""
    return _with_keys(db_url, KeyStore.list_keys)


def revoke_key(db_url: str | None = None, *, prefix: str) -> int:
    """Revoke the active key that ``prefix`` names (the full key or an unambiguous prefix of at
    least 8 characters) and end its dashboard sessions; the number revoked (0 or 1).
    An ambiguous or too short prefix is a ``ValueError``."""
    return _with_keys(db_url, lambda keys: keys.revoke(prefix))


def purge_sessions(db_url: str | None = None, *, anonymous_ttl: int | None = None) -> dict[str, int]:
    """Delete browser sessions idle longer than ``anonymous_ttl`` seconds (default: the
    settings' 14 days) with their game states, and client budgets whose window is over."""
    settings = WebSettings(judge_fallback=None)
    if anonymous_ttl is not None:
        settings = replace(settings, anonymous_ttl=anonymous_ttl)
    with _database(db_url) as engine:
        return GameStore(engine, settings).purge()
