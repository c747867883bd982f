"""Dashboard sign-in: sessions tied to the API key that signed them in.

* Every sign-in issues a **new** session id (the cookie the browser had before is
  dropped, its game progress moved over), so a cookie planted before sign-in
  (session fixation) never becomes a signed-in session.
* A signed-in session names the key that created it: revoking the key ends it
  (:func:`sadame.web._store.end_key_sessions`, and the key is checked on every request).
* Lifetimes: ``WebSettings.session_absolute`` seconds after sign-in at most, and
  ``WebSettings.session_idle`` seconds without a request.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import Session

from sadame.web._models import WebApiKey, WebBrowserSession, WebGameState, WebTenant
from sadame.web._settings import WebSettings
from sadame.web._store import KeyStore, hash_secret

__all__ = ["SessionStore"]

_TOUCH_EVERY = 60  # seconds: how stale last_seen_at may get before a read refreshes it


def _plausible(cookie: str | None) -> bool:
    return bool(cookie) and 20 <= len(cookie or "") <= 100 and (cookie or "").isascii()


class SessionStore:
    """Signs browsers in and out of a tenant's dashboard."""

    def __init__(self, engine: Engine, keys: KeyStore, settings: WebSettings) -> None:
        self._engine = engine
        self._keys = keys
        self._settings = settings

    def sign_in(self, old_cookie: str | None, api_key: str) -> str | None:
        """A new session cookie signed in with ``api_key``, or None for a bad key."""
        found = self._keys.active_key(api_key)
        if found is None:
            return None
        key_id, tenant_id = found
        cookie = secrets.token_urlsafe(32)
        sid = hash_secret(cookie)
        now = datetime.now(UTC)
        with Session(self._engine) as session, session.begin():
            session.add(WebBrowserSession(id=sid, tenant_id=tenant_id, api_key_id=key_id, created_at=now,
                                          signed_in_at=now, last_seen_at=now))
            session.flush()
            if _plausible(old_cookie) and old_cookie is not None:
                old = hash_secret(old_cookie)
                session.execute(update(WebGameState).where(WebGameState.session_id == old).values(session_id=sid))
                session.execute(delete(WebBrowserSession).where(WebBrowserSession.id == old))
        return cookie

    def tenant(self, cookie: str | None) -> str | None:
        """The tenant this browser is signed in to, if the sign-in is still valid."""
        if not _plausible(cookie) or cookie is None:
            return None
        sid = hash_secret(cookie)
        now = datetime.now(UTC)
        seen = func.coalesce(WebBrowserSession.last_seen_at, WebBrowserSession.signed_in_at)
        stale = seen < now - timedelta(seconds=_TOUCH_EVERY)
        with Session(self._engine) as session, session.begin():
            row = session.execute(
                select(WebTenant.name, stale)
                .join(WebBrowserSession, WebBrowserSession.tenant_id == WebTenant.id)
                .join(WebApiKey, WebApiKey.id == WebBrowserSession.api_key_id)
                .where(
                    WebBrowserSession.id == sid,
                    WebApiKey.tenant_id == WebTenant.id,
                    WebApiKey.revoked_at.is_(None),
                    WebBrowserSession.signed_in_at >= now - timedelta(seconds=self._settings.session_absolute),
                    seen >= now - timedelta(seconds=self._settings.session_idle),
                )
            ).first()
            if row is not None and row[1]:
                session.execute(update(WebBrowserSession).where(WebBrowserSession.id == sid).values(last_seen_at=now))
        name: str | None = row[0] if row else None
        return name

    def sign_out(self, cookie: str | None) -> None:
        """End the sign-in of this browser (its game progress stays)."""
        if not _plausible(cookie) or cookie is None:
            return
        with Session(self._engine) as session, session.begin():
            session.execute(
                update(WebBrowserSession)
                .where(WebBrowserSession.id == hash_secret(cookie))
                .values(tenant_id=None, api_key_id=None, signed_in_at=None)
            )
