"""Tracker tables: users, rulesets, sessions, issues, keys, detections, events.

Revision ID: 0001_track
Revises: 0000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_track"
down_revision = "0000"
branch_labels = ("track",)
depends_on = None

_ID = sa.String(64)
_TENANT = sa.String(128)
_USER = sa.String(255)
_TIME = sa.String(40)


def upgrade() -> None:
    _users_and_rulesets()
    _sessions()
    _issues_and_keys()
    _detections_and_events()


def _users_and_rulesets() -> None:
    op.create_table(
        "track_users",
        sa.Column("tenant_id", _TENANT, primary_key=True),
        sa.Column("user_id", _USER, primary_key=True),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("counts", sa.Text, nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
    )
    op.create_table(
        "track_rulesets",
        sa.Column("tenant_id", _TENANT, primary_key=True),
        sa.Column("version", _ID, primary_key=True),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("active", sa.Integer, nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
    )


def _sessions() -> None:
    op.create_table(
        "track_sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", _TENANT, nullable=False),
        sa.Column("user_id", _USER, nullable=False),
        sa.Column("session_id", sa.String(255), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("at", _TIME, nullable=False),
        sa.Column("ruleset_version", _ID, nullable=False),
        sa.Column("n_new", sa.Integer, nullable=False),
        sa.Column("n_open", sa.Integer, nullable=False),
        sa.Column("n_resolved", sa.Integer, nullable=False),
        sa.Column("n_regressions", sa.Integer, nullable=False),
        sa.Column("report", sa.Text, nullable=False),
        sa.UniqueConstraint("tenant_id", "user_id", "session_id", name="uq_track_sessions_session"),
        sa.UniqueConstraint("tenant_id", "user_id", "seq", name="uq_track_sessions_seq"),
    )


def _issues_and_keys() -> None:
    op.create_table(
        "track_issues",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", _TENANT, nullable=False),
        sa.Column("user_id", _USER, nullable=False),
        sa.Column("issue_id", _ID, nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("title", sa.String(400), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("first_detected_at", _TIME, nullable=False),
        sa.Column("last_detected_at", _TIME, nullable=False),
        sa.Column("resolved_at", _TIME, nullable=True),
        sa.Column("occurrence_count", sa.Integer, nullable=False),
        sa.Column("last_session_id", sa.String(255), nullable=True),
        sa.Column("last_seen_seq", sa.Integer, nullable=False),
        sa.Column("clock_seq", sa.Integer, nullable=False),
        sa.Column("created_seq", sa.Integer, nullable=False),
        sa.Column("merged_into", _ID, nullable=True),
        sa.Column("ruleset_version", _ID, nullable=False),
        sa.UniqueConstraint("tenant_id", "user_id", "issue_id", name="uq_track_issues_issue"),
    )
    op.create_index("ix_track_issues_due", "track_issues", ["tenant_id", "user_id", "status", "clock_seq"])
    op.create_table(
        "track_keys",
        sa.Column("tenant_id", _TENANT, primary_key=True),
        sa.Column("user_id", _USER, primary_key=True),
        sa.Column("key_digest", _ID, primary_key=True),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("issue_id", _ID, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
    )


def _detections_and_events() -> None:
    op.create_table(
        "track_detections",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", _TENANT, nullable=False),
        sa.Column("user_id", _USER, nullable=False),
        sa.Column("session_id", sa.String(255), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("confidence", sa.Float, nullable=True),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("issue_id", _ID, nullable=True),
        sa.Column("tier", sa.String(16), nullable=False),
        sa.Column("link_confidence", sa.Float, nullable=True),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("at", _TIME, nullable=False),
    )
    op.create_index("ix_track_detections_seq", "track_detections", ["tenant_id", "user_id", "seq"])
    op.create_index("ix_track_detections_issue", "track_detections", ["tenant_id", "user_id", "issue_id"])
    op.create_table(
        "track_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tenant_id", _TENANT, nullable=False),
        sa.Column("user_id", _USER, nullable=False),
        sa.Column("issue_id", _ID, nullable=False),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("from_state", sa.String(16), nullable=True),
        sa.Column("to_state", sa.String(16), nullable=False),
        sa.Column("actor", sa.String(255), nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("at", _TIME, nullable=False),
        sa.Column("session_id", sa.String(255), nullable=True),
        sa.Column("data", sa.Text, nullable=True),
    )
    op.create_index("ix_track_events_issue", "track_events", ["tenant_id", "user_id", "issue_id"])


def downgrade() -> None:
    for name in ("track_events", "track_detections", "track_keys", "track_issues", "track_sessions",
                 "track_rulesets", "track_users"):
        op.drop_table(name)
