"""Tables of the web service: tenants, their hashed API keys, browser sessions and game states.

Everything a request needs lives in the database, so several app processes can
share one PostgreSQL: a browser is known by an opaque cookie whose SHA-256 is the
session's primary key (the cookie value itself is never stored), and a game's
question history is a JSON document per (session, pack, puzzle) with a version
counter for optimistic concurrency.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from sadame.db import Base

__all__ = ["WebApiKey", "WebBrowserSession", "WebClientBudget", "WebGameState", "WebTenant"]


class WebTenant(Base):
    """A tenant: the unit of isolation of the tracker API (one tenant per key)."""

    __tablename__ = "web_tenants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(100), unique=True, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class WebApiKey(Base):
    """An API key, stored only as the SHA-256 hex of the key (keys are 32 random bytes)."""

    __tablename__ = "web_api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[int] = mapped_column(ForeignKey("web_tenants.id", ondelete="CASCADE"), nullable=False)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    prefix: Mapped[str] = mapped_column(String(16), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class WebBrowserSession(Base):
    """A browser, known by the SHA-256 of its opaque cookie; optionally signed in to a tenant."""

    __tablename__ = "web_browser_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant_id: Mapped[int | None] = mapped_column(
        ForeignKey("web_tenants.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    # Sign-in: the key that signed this session in (a revoked key ends the session)
    # and when; last_seen_at drives the idle lifetime and the purge of stale sessions.
    api_key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    signed_in_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class WebClientBudget(Base):
    """How much of a budget one client (hashed address) used in the current window.

    ``scope`` is ``session`` (new anonymous sessions) or ``q:<pack>/<puzzle>`` and
    ``a:<pack>/<puzzle>`` (questions and answers on one puzzle, over all its cookies).
    """

    __tablename__ = "web_client_budgets"

    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    scope: Mapped[str] = mapped_column(String(220), primary_key=True)
    used: Mapped[int] = mapped_column(Integer, nullable=False)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class WebGameState(Base):
    """One browser's progress on one puzzle: questions, verdicts, attempts, outcome (JSON)."""

    __tablename__ = "web_game_states"
    __table_args__ = (UniqueConstraint("session_id", "pack", "puzzle_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(
        ForeignKey("web_browser_sessions.id", ondelete="CASCADE"), nullable=False
    )
    pack: Mapped[str] = mapped_column(String(100), nullable=False)
    puzzle_id: Mapped[str] = mapped_column(String(100), nullable=False)
    state: Mapped[str] = mapped_column(Text, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
