"""Storage of the web service: API keys per tenant, browser sessions and game states.

Keys are 32 random bytes (``sdm_`` + URL-safe base64) and only their SHA-256 is
stored, so a leaked database does not leak usable keys; SHA-256 without a salt is
enough because the keys carry 256 bits of entropy. Browser cookies are handled the
same way. Game states are JSON documents updated with a compare-and-set on a
version counter, so two app processes answering the same browser at once never
lose a question.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from sadame.web._models import WebApiKey, WebBrowserSession, WebGameState, WebTenant

__all__ = [
    "KEY_PREFIX",
    "CreatedKey",
    "GameStore",
    "KeyStore",
    "TenantNameError",
    "hash_secret",
    "validate_tenant_name",
]

KEY_PREFIX = "sdm_"
_TENANT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
_MAX_CAS_RETRIES = 20
_MAX_STATES_LISTED = 10_000


class TenantNameError(ValueError):
    """A tenant name that is empty, too long or uses characters outside ``[A-Za-z0-9._-]``."""


def _now() -> datetime:
    return datetime.now(UTC)


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest under which a key or cookie is stored."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def validate_tenant_name(name: str) -> str:
    """Return ``name`` when it is a usable tenant name, else raise :class:`TenantNameError`."""
    if not isinstance(name, str) or not name or len(name) > 100 or not set(name) <= _TENANT_CHARS:
        raise TenantNameError(
            f"invalid tenant name {name!r}: use 1-100 characters from A-Z a-z 0-9 . _ -"
        )
    return name


@dataclass(frozen=True, slots=True)
class CreatedKey:
    """A freshly created key: shown once, never retrievable again."""

    tenant: str
    key: str
    prefix: str


class KeyStore:
    """Tenants and their API keys."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def create_key(self, tenant: str) -> CreatedKey:
        """Create ``tenant`` when it does not exist yet, and a new key for it."""
        validate_tenant_name(tenant)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        prefix = key[: len(KEY_PREFIX) + 6]
        for _attempt in range(3):
            try:
                with Session(self._engine) as session, session.begin():
                    row = session.scalars(select(WebTenant).where(WebTenant.name == tenant)).first()
                    if row is None:
                        row = WebTenant(name=tenant, created_at=_now())
                        session.add(row)
                        session.flush()
                    session.add(
                        WebApiKey(tenant_id=row.id, key_hash=hash_secret(key), prefix=prefix, created_at=_now())
                    )
                return CreatedKey(tenant, key, prefix)
            except IntegrityError:  # another process created the tenant at the same moment
                continue
        raise RuntimeError(f"could not create a key for tenant {tenant!r}")

    def revoke(self, prefix: str) -> int:
        """Revoke every active key starting with ``prefix``; returns how many were revoked."""
        if len(prefix) < len(KEY_PREFIX) + 4:
            raise ValueError("give at least the first 8 characters of the key (as listed)")
        with Session(self._engine) as session, session.begin():
            rows = session.scalars(
                select(WebApiKey).where(WebApiKey.prefix == prefix[: len(KEY_PREFIX) + 6],
                                        WebApiKey.revoked_at.is_(None))
            ).all()
            for row in rows:
                row.revoked_at = _now()
            return len(rows)

    def list_keys(self) -> list[dict[str, Any]]:
        """Every key's tenant, prefix and dates (never the key)."""
        with Session(self._engine) as session:
            rows = session.execute(
                select(WebTenant.name, WebApiKey.prefix, WebApiKey.created_at, WebApiKey.revoked_at)
                .join(WebApiKey, WebApiKey.tenant_id == WebTenant.id)
                .order_by(WebTenant.name, WebApiKey.id)
            ).all()
        return [
            {
                "tenant": name,
                "prefix": prefix,
                "created_at": created.isoformat(),
                "revoked_at": revoked.isoformat() if revoked else None,
            }
            for name, prefix, created, revoked in rows
        ]

    def tenant_for_key(self, key: str) -> str | None:
        """The tenant of an active key, or None for an unknown or revoked key."""
        if not key.startswith(KEY_PREFIX) or len(key) > 200:
            return None
        with Session(self._engine) as session:
            return session.scalar(
                select(WebTenant.name)
                .join(WebApiKey, WebApiKey.tenant_id == WebTenant.id)
                .where(WebApiKey.key_hash == hash_secret(key), WebApiKey.revoked_at.is_(None))
            )

    def tenant_id(self, name: str) -> int | None:
        with Session(self._engine) as session:
            return session.scalar(select(WebTenant.id).where(WebTenant.name == name))


class GameStore:
    """Browser sessions (by hashed cookie) and their per-puzzle game states."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def ensure_session(self, cookie: str | None) -> tuple[str, bool]:
        """The cookie to use for this browser and whether it is new.

        An unknown, malformed or missing cookie gets a fresh session: cookies are
        never trusted to name a session that the database does not have.
        """
        if cookie and 20 <= len(cookie) <= 100 and cookie.isascii():
            with Session(self._engine) as session:
                if session.get(WebBrowserSession, hash_secret(cookie)) is not None:
                    return cookie, False
        fresh = secrets.token_urlsafe(32)
        with Session(self._engine) as session, session.begin():
            session.add(WebBrowserSession(id=hash_secret(fresh), tenant_id=None, created_at=_now()))
        return fresh, True

    def session_tenant(self, cookie: str) -> str | None:
        """The tenant this browser signed in to with an API key, if any."""
        with Session(self._engine) as session:
            return session.scalar(
                select(WebTenant.name)
                .join(WebBrowserSession, WebBrowserSession.tenant_id == WebTenant.id)
                .where(WebBrowserSession.id == hash_secret(cookie))
            )

    def set_session_tenant(self, cookie: str, tenant_id: int | None) -> None:
        with Session(self._engine) as session, session.begin():
            session.execute(
                update(WebBrowserSession)
                .where(WebBrowserSession.id == hash_secret(cookie))
                .values(tenant_id=tenant_id)
            )

    def load(self, cookie: str, pack: str, puzzle_id: str) -> dict[str, Any] | None:
        """The stored game state document, or None when this browser has not played it."""
        with Session(self._engine) as session:
            raw = session.scalar(
                select(WebGameState.state).where(
                    WebGameState.session_id == hash_secret(cookie),
                    WebGameState.pack == pack,
                    WebGameState.puzzle_id == puzzle_id,
                )
            )
        if raw is None:
            return None
        loaded: dict[str, Any] = json.loads(raw)
        return loaded

    def load_all(self, cookie: str) -> dict[tuple[str, str], dict[str, Any]]:
        """Every stored game state of this browser, by (pack, puzzle id) -- one query."""
        with Session(self._engine) as session:
            rows = session.execute(
                select(WebGameState.pack, WebGameState.puzzle_id, WebGameState.state)
                .where(WebGameState.session_id == hash_secret(cookie))
                .limit(_MAX_STATES_LISTED)
            ).all()
        return {(pack, puzzle_id): json.loads(raw) for pack, puzzle_id, raw in rows}

    def update(
        self,
        cookie: str,
        pack: str,
        puzzle_id: str,
        change: Callable[[dict[str, Any] | None], dict[str, Any]],
    ) -> dict[str, Any]:
        """Apply ``change`` to the stored state atomically (compare-and-set on a version).

        ``change`` receives the current document (None for a first move) and returns
        the new one; it may be called again when another process won the race.
        """
        sid = hash_secret(cookie)
        for _attempt in range(_MAX_CAS_RETRIES):
            with Session(self._engine) as session, session.begin():
                row = session.execute(
                    select(WebGameState.state, WebGameState.version).where(
                        WebGameState.session_id == sid,
                        WebGameState.pack == pack,
                        WebGameState.puzzle_id == puzzle_id,
                    )
                ).first()
                current: dict[str, Any] | None = json.loads(row[0]) if row else None
                new = change(current)
                encoded = json.dumps(new, ensure_ascii=False)
                if row is None:
                    try:
                        with session.begin_nested():
                            session.add(
                                WebGameState(
                                    session_id=sid, pack=pack, puzzle_id=puzzle_id,
                                    state=encoded, version=1, updated_at=_now(),
                                )
                            )
                    except IntegrityError:
                        continue
                    return new
                result = session.execute(
                    update(WebGameState)
                    .where(
                        WebGameState.session_id == sid,
                        WebGameState.pack == pack,
                        WebGameState.puzzle_id == puzzle_id,
                        WebGameState.version == row[1],
                    )
                    .values(state=encoded, version=row[1] + 1, updated_at=_now())
                )
                if getattr(result, "rowcount", 0) == 1:
                    return new
        raise RuntimeError("game state kept changing under this request; try again")
