"""The tracker's tables (declared on :class:`sadame.db.Base`, created by revision ``0001_track``).

Every table starts with ``tenant_id`` then ``user_id``: nothing is ever read or written
without both. Keys are looked up through ``track_keys`` by the key's digest (the same
SHA-256 as the issue id), so a key of any length fits a unique index on PostgreSQL.
Times are ISO 8601 UTC strings (portable and sortable on both databases).
"""

from __future__ import annotations

from sqlalchemy import Float, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from sadame.db import Base

__all__ = ["DetectionRow", "EventRow", "IssueRow", "KeyRow", "RulesetRow", "SessionRow", "UserRow"]

_ID = String(64)
_TENANT = String(128)
_USER = String(255)
_TIME = String(40)


class UserRow(Base):
    """Per-user counters: the session sequence and status counts (so reports never count rows)."""

    __tablename__ = "track_users"
    tenant_id: Mapped[str] = mapped_column(_TENANT, primary_key=True)
    user_id: Mapped[str] = mapped_column(_USER, primary_key=True)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    counts: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[str] = mapped_column(_TIME)


class RulesetRow(Base):
    """Rulesets a tenant has used; the active one is what a Tracker without a ruleset loads."""

    __tablename__ = "track_rulesets"
    tenant_id: Mapped[str] = mapped_column(_TENANT, primary_key=True)
    version: Mapped[str] = mapped_column(_ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(255))
    content: Mapped[str] = mapped_column(Text)
    active: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[str] = mapped_column(_TIME)


class SessionRow(Base):
    """One ingested session: its sequence number per user and the stored report (idempotency)."""

    __tablename__ = "track_sessions"
    __table_args__ = (
        UniqueConstraint("tenant_id", "user_id", "session_id", name="uq_track_sessions_session"),
        UniqueConstraint("tenant_id", "user_id", "seq", name="uq_track_sessions_seq"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(_TENANT)
    user_id: Mapped[str] = mapped_column(_USER)
    session_id: Mapped[str] = mapped_column(String(255))
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[str] = mapped_column(_TIME)
    ruleset_version: Mapped[str] = mapped_column(_ID)
    n_new: Mapped[int] = mapped_column(Integer, default=0)
    n_open: Mapped[int] = mapped_column(Integer, default=0)
    n_resolved: Mapped[int] = mapped_column(Integer, default=0)
    n_regressions: Mapped[int] = mapped_column(Integer, default=0)
    report: Mapped[str] = mapped_column(Text)


class IssueRow(Base):
    """An issue. ``clock_seq`` is the session from which misses are counted; ``merged_into``
    links a merged issue to the issue that absorbed it."""

    __tablename__ = "track_issues"
    __table_args__ = (
        UniqueConstraint("tenant_id", "user_id", "issue_id", name="uq_track_issues_issue"),
        Index("ix_track_issues_due", "tenant_id", "user_id", "status", "clock_seq"),
        Index("ix_track_issues_merged", "tenant_id", "user_id", "merged_into"),
        Index("ix_track_issues_page", "tenant_id", "user_id", "status", "id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(_TENANT)
    user_id: Mapped[str] = mapped_column(_USER)
    issue_id: Mapped[str] = mapped_column(_ID)
    key: Mapped[str] = mapped_column(Text)
    title: Mapped[str] = mapped_column(String(400))
    status: Mapped[str] = mapped_column(String(16))
    first_detected_at: Mapped[str] = mapped_column(_TIME)
    last_detected_at: Mapped[str] = mapped_column(_TIME)
    resolved_at: Mapped[str | None] = mapped_column(_TIME, nullable=True)
    occurrence_count: Mapped[int] = mapped_column(Integer, default=0)
    last_session_id: Mapped[str | None] = mapped_column(String(255), nullable=True)
    last_seen_seq: Mapped[int] = mapped_column(Integer)
    clock_seq: Mapped[int] = mapped_column(Integer)
    created_seq: Mapped[int] = mapped_column(Integer)
    merged_into: Mapped[str | None] = mapped_column(_ID, nullable=True)
    ruleset_version: Mapped[str] = mapped_column(_ID)


class KeyRow(Base):
    """Key -> issue: the issue's own key (``primary``) or an old key kept as an ``alias``."""

    __tablename__ = "track_keys"
    __table_args__ = (Index("ix_track_keys_issue", "tenant_id", "user_id", "issue_id"),)
    tenant_id: Mapped[str] = mapped_column(_TENANT, primary_key=True)
    user_id: Mapped[str] = mapped_column(_USER, primary_key=True)
    key_digest: Mapped[str] = mapped_column(_ID, primary_key=True)
    key: Mapped[str] = mapped_column(Text)
    issue_id: Mapped[str] = mapped_column(_ID)
    kind: Mapped[str] = mapped_column(String(16))


class DetectionRow(Base):
    """Every insight of every session, as given, with how it was linked (tier, confidence)."""

    __tablename__ = "track_detections"
    __table_args__ = (
        Index("ix_track_detections_seq", "tenant_id", "user_id", "seq"),
        Index("ix_track_detections_issue_seq", "tenant_id", "user_id", "issue_id", "seq", "position"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(_TENANT)
    user_id: Mapped[str] = mapped_column(_USER)
    session_id: Mapped[str] = mapped_column(String(255))
    seq: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    key: Mapped[str] = mapped_column(Text)
    issue_id: Mapped[str | None] = mapped_column(_ID, nullable=True)
    tier: Mapped[str] = mapped_column(String(16))
    link_confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    outcome: Mapped[str] = mapped_column(String(16))
    at: Mapped[str] = mapped_column(_TIME)


class EventRow(Base):
    """The append-only event log: who did what to which issue, when and why."""

    __tablename__ = "track_events"
    __table_args__ = (Index("ix_track_events_issue", "tenant_id", "user_id", "issue_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(_TENANT)
    user_id: Mapped[str] = mapped_column(_USER)
    issue_id: Mapped[str] = mapped_column(_ID)
    event: Mapped[str] = mapped_column(String(16))
    from_state: Mapped[str | None] = mapped_column(String(16), nullable=True)
    to_state: Mapped[str] = mapped_column(String(16))
    actor: Mapped[str] = mapped_column(String(255))
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[str] = mapped_column(_TIME)
    session_id: Mapped[str | None] = mapped_column(String(255), nullable=True)
    data: Mapped[str | None] = mapped_column(Text, nullable=True)
