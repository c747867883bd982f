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
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from sadame.web._budget import BudgetExhausted, consume_budget, purge_budgets
from sadame.web._models import WebApiKey, WebBrowserSession, WebGameState, WebTenant
from sadame.web._settings import WebSettings

__all__ = [
    "KEY_PREFIX",
    "CreatedKey",
    "GameStore",
    "KeyStore",
    "Seen",
    "TenantNameError",
    "hash_secret",
    "validate_tenant_name",
]

KEY_PREFIX = "sdm_"
_TENANT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
_PREFIX_LEN = len(KEY_PREFIX) + 6  # what list-keys shows of a key
_MIN_REVOKE_PREFIX = 8
_PURGE_EVERY = 60.0  # seconds between opportunistic purges per process
_MAX_STATES_LISTED = 10_000

# The statements of every request, built once (SQLAlchemy caches their compiled form).
_SESSION_EXISTS = select(WebBrowserSession.id).where(WebBrowserSession.id == bindparam("b_sid"))
_STATE_WHERE = (WebGameState.session_id == bindparam("b_sid"), WebGameState.pack == bindparam("b_pack"),
                WebGameState.puzzle_id == bindparam("b_puzzle"))
_LOAD_STATE = select(WebGameState.state, WebGameState.version).where(*_STATE_WHERE)
_LOAD_ALL = (select(WebGameState.pack, WebGameState.puzzle_id, WebGameState.state)
             .where(WebGameState.session_id == bindparam("b_sid")).limit(_MAX_STATES_LISTED))
_SET_STATE = (update(WebGameState).where(*_STATE_WHERE, WebGameState.version == bindparam("b_seen"))
              .values(state=bindparam("b_state", type_=WebGameState.state.type),
                      version=bindparam("b_seen", type_=WebGameState.version.type) + 1,
                      updated_at=bindparam("b_now", type_=WebGameState.updated_at.type)))
_TOUCH_SESSION = (update(WebBrowserSession).where(WebBrowserSession.id == bindparam("b_sid"))
                  .values(last_seen_at=bindparam("b_now", type_=WebBrowserSession.last_seen_at.type)))

#: A game state as read: its version (for the compare-and-set) and its document.
Seen = tuple[int, dict[str, Any]]


class TenantNameError(ValueError):
    """A tenant name that is empty, too long or uses characters outside ``[A-Za-z0-9._-]``."""


def _now() -> datetime:
    return datetime.now(UTC)


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest under which a key or cookie is stored."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def end_key_sessions(session: Session, key_id: int) -> None:
    """Sign out every browser session that the key ``key_id`` signed in."""
    session.execute(
        update(WebBrowserSession)
        .where(WebBrowserSession.api_key_id == key_id)
        .values(tenant_id=None, api_key_id=None, signed_in_at=None)
    )


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
        prefix = key[:_PREFIX_LEN]
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
        """Revoke the one active key that ``prefix`` names and end its dashboard sessions.

        ``prefix`` is the full key or any prefix of at least 8 characters of the stored
        prefix (``sdm_`` + 6, as listed); a prefix matching several active keys is refused.
        Returns 1, or 0 when no active key matches.
        """
        prefix = prefix.strip()
        if len(prefix) < _MIN_REVOKE_PREFIX or not prefix.isascii():
            raise ValueError(f"give the full key or at least its first {_MIN_REVOKE_PREFIX} characters (as listed)")
        with Session(self._engine) as session, session.begin():
            active = select(WebApiKey).where(WebApiKey.revoked_at.is_(None))
            rows = session.scalars(active.where(WebApiKey.key_hash == hash_secret(prefix))).all()
            if not rows:
                if len(prefix) > _PREFIX_LEN:
                    raise ValueError(f"no active key is {prefix[:_PREFIX_LEN]}…: give the full key, or "
                                     f"a prefix of {_MIN_REVOKE_PREFIX}-{_PREFIX_LEN} characters as listed")
                shown = func.substr(WebApiKey.prefix, 1, len(prefix))
                rows = session.scalars(active.where(shown == prefix)).all()
            if len(rows) > 1:
                raise ValueError(f"{prefix!r} matches {len(rows)} active keys: give a longer prefix or the full key")
            for row in rows:
                row.revoked_at = _now()
                end_key_sessions(session, row.id)
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

    def active_key(self, key: str) -> tuple[int, int] | None:
        """``(key id, tenant id)`` of an active key, or None for an unknown or revoked key."""
        if not key.startswith(KEY_PREFIX) or len(key) > 200 or not key.isascii():
            return None
        with Session(self._engine) as session:
            row = session.execute(
                select(WebApiKey.id, WebApiKey.tenant_id)
                .where(WebApiKey.key_hash == hash_secret(key), WebApiKey.revoked_at.is_(None))
            ).first()
        return (int(row[0]), int(row[1])) if row else None

    def tenant_id(self, name: str) -> int | None:
        with Session(self._engine) as session:
            return session.scalar(select(WebTenant.id).where(WebTenant.name == name))


class GameStore:
    """Browser sessions (by hashed cookie) and their per-puzzle game states.

    Only moves write: reading pages or sending a rejected request leaves no rows, and reads
    begin deferred on SQLite (they never wait for, or hold, the write lock of another worker).
    A move computes its new state from the state it read before its transaction; the
    transaction then touches (or creates) the session row, which serializes the moves of one
    browser on both databases, counts the client's budget, and stores the new state with a
    compare-and-set on its version. Only when another move of this browser came in between is
    the state read again inside the transaction and the move computed again. So the write
    transaction is four short statements (the one writer SQLite allows is held briefly).
    """

    def __init__(self, engine: Engine, settings: WebSettings | None = None) -> None:
        self._engine = engine
        self._reader = engine.execution_options(sadame_read=True)
        self._settings = settings or WebSettings()
        self._last_purge = 0.0
        self._purge_lock = threading.Lock()

    def resolve(self, cookie: str | None) -> tuple[str, bool]:
        """The cookie to use for this browser and whether it is new; writes nothing.

        An unknown, malformed or missing cookie gets a fresh value: cookies are never
        trusted to name a session that the database does not have. The session row is
        created by the first move (:meth:`update`).
        """
        if cookie and 20 <= len(cookie) <= 100 and cookie.isascii():
            with self._reader.connect() as conn:
                if conn.execute(_SESSION_EXISTS, {"b_sid": hash_secret(cookie)}).first() is not None:
                    return cookie, False
        return secrets.token_urlsafe(32), True

    def ensure_session(self, cookie: str | None) -> tuple[str, bool]:
        """Like :meth:`resolve`, but a fresh session is stored at once."""
        cookie, fresh = self.resolve(cookie)
        if fresh:
            now = _now()
            with Session(self._engine) as session, session.begin():
                session.add(WebBrowserSession(id=hash_secret(cookie), created_at=now, last_seen_at=now))
        return cookie, fresh

    def load(self, cookie: str, pack: str, puzzle_id: str) -> dict[str, Any] | None:
        """The stored game state document, or None when this browser has not played it."""
        seen = self.load_seen(cookie, pack, puzzle_id)
        return seen[1] if seen else None

    def load_seen(self, cookie: str, pack: str, puzzle_id: str) -> Seen | None:
        """The stored game state with its version (give it to :meth:`update`), or None."""
        with self._reader.connect() as conn:
            row = conn.execute(_LOAD_STATE, {"b_sid": hash_secret(cookie), "b_pack": pack, "b_puzzle": puzzle_id}).first()
        if row is None:
            return None
        loaded: dict[str, Any] = json.loads(row[0])
        return int(row[1]), loaded

    def load_all(self, cookie: str) -> dict[tuple[str, str], dict[str, Any]]:
        """Every stored game state of this browser, by (pack, puzzle id) -- one query."""
        with self._reader.connect() as conn:
            rows = conn.execute(_LOAD_ALL, {"b_sid": hash_secret(cookie)}).all()
        return {(pack, puzzle_id): json.loads(raw) for pack, puzzle_id, raw in rows}

    def update(
        self,
        cookie: str,
        pack: str,
        puzzle_id: str,
        change: Callable[[dict[str, Any] | None], dict[str, Any]],
        *,
        client: str | None = None,
        spend: str | None = None,
        seen: Seen | None = None,
    ) -> dict[str, Any]:
        """Apply ``change`` to the stored state atomically and return the new document.

        ``change`` receives the current document (None for a first move) and returns
        the new one; it may raise to refuse the move (nothing is written then). It may be
        called twice (see the class docstring), so it must depend on its argument only.
        ``seen`` is the state the caller read with :meth:`load_seen` (read here otherwise).
        ``client`` (from :func:`~sadame.web._budget.client_id`) is charged for a new
        session and, with ``spend`` (``"q"`` question, ``"a"`` answer), for the move.
        """
        sid = hash_secret(cookie)
        if seen is None:
            seen = self.load_seen(cookie, pack, puzzle_id)
        prepared = None
        if seen is not None:
            new = change(seen[1])
            prepared = (seen[0], new, json.dumps(new, ensure_ascii=False))
        with self._engine.begin() as conn:  # Core statements: the ORM's bookkeeping costs more than they do
            now = _now()
            self._claim_session(conn, sid, client, now)
            if client is not None and spend is not None:
                self._spend(conn, client, f"{spend}:{pack}/{puzzle_id}"[:220], spend, now)
            if prepared is None or not self._set_state(conn, sid, pack, puzzle_id, prepared[0], prepared[2], now):
                new = self._write_state(conn, sid, pack, puzzle_id, change, now)
        self._maybe_purge()
        return new

    @staticmethod
    def _set_state(conn: Connection, sid: str, pack: str, puzzle_id: str, version: int, encoded: str,
                   now: datetime) -> bool:
        """The compare-and-set of a state computed before the transaction; False when it changed since."""
        result = conn.execute(_SET_STATE, {"b_sid": sid, "b_pack": pack, "b_puzzle": puzzle_id,
                                           "b_seen": version, "b_state": encoded, "b_now": now})
        return result.rowcount == 1

    def _claim_session(self, conn: Connection, sid: str, client: str | None, now: datetime) -> None:
        """Touch the session row (locking it for this transaction), creating it when new."""
        if conn.execute(_TOUCH_SESSION, {"b_sid": sid, "b_now": now}).rowcount == 1:
            return
        limits = self._settings
        if client is not None and not consume_budget(
            conn, client, "session", limits.client_sessions, limits.budget_window, now
        ):
            raise BudgetExhausted("この端末から始められる新しいセッションの数が上限に達しました。時間をおいてお試しください")
        try:
            with conn.begin_nested():
                conn.execute(insert(WebBrowserSession).values(id=sid, tenant_id=None, created_at=now,
                                                              last_seen_at=now))
        except IntegrityError:  # the same new cookie in two requests at once
            conn.execute(_TOUCH_SESSION, {"b_sid": sid, "b_now": now})

    def _spend(self, conn: Connection, client: str, scope: str, kind: str, now: datetime) -> None:
        limits = self._settings
        limit = limits.client_questions if kind == "q" else limits.client_attempts
        what = "質問" if kind == "q" else "回答"
        if not consume_budget(conn, client, scope, limit, limits.budget_window, now):
            raise BudgetExhausted(f"この端末からのこの問題への{what}が上限に達しました。時間をおいてお試しください")
        total = limits.client_daily_questions if kind == "q" else limits.client_daily_answers
        if not consume_budget(conn, client, f"{kind}:all", total, limits.budget_window, now):
            raise BudgetExhausted(f"この端末からの{what}が今日の上限に達しました。時間をおいてお試しください")

    def _write_state(
        self, conn: Connection, sid: str, pack: str, puzzle_id: str,
        change: Callable[[dict[str, Any] | None], dict[str, Any]], now: datetime,
    ) -> dict[str, Any]:
        """The move computed on the state read inside the transaction (the session row is locked)."""
        row = conn.execute(_LOAD_STATE, {"b_sid": sid, "b_pack": pack, "b_puzzle": puzzle_id}).first()
        new = change(json.loads(row[0]) if row else None)
        encoded = json.dumps(new, ensure_ascii=False)
        if row is None:
            conn.execute(insert(WebGameState).values(session_id=sid, pack=pack, puzzle_id=puzzle_id, state=encoded,
                                                     version=1, updated_at=now))
            return new
        if not self._set_state(conn, sid, pack, puzzle_id, int(row[1]), encoded, now):
            raise RuntimeError("game state changed under this request; try again")  # not while the row is locked
        return new

    def _maybe_purge(self) -> None:
        """Purge stale sessions at most once a minute per process (after a move)."""
        with self._purge_lock:
            if time.monotonic() - self._last_purge < _PURGE_EVERY:
                return
            self._last_purge = time.monotonic()
        self.purge()

    def purge(self, now: datetime | None = None) -> dict[str, int]:
        """Delete sessions idle longer than ``anonymous_ttl`` (with their game states) and
        budget rows whose window is over; returns the counts."""
        now = now or _now()
        cut = now - timedelta(seconds=self._settings.anonymous_ttl)
        seen = func.coalesce(WebBrowserSession.last_seen_at, WebBrowserSession.created_at)
        stale = select(WebBrowserSession.id).where(seen < cut)
        with Session(self._engine) as session, session.begin():
            states = session.execute(delete(WebGameState).where(WebGameState.session_id.in_(stale)))
            sessions = session.execute(delete(WebBrowserSession).where(seen < cut))
            budgets = purge_budgets(session, self._settings.budget_window, now)
        return {
            "sessions": int(getattr(sessions, "rowcount", 0) or 0),
            "game_states": int(getattr(states, "rowcount", 0) or 0),
            "budgets": budgets,
        }
