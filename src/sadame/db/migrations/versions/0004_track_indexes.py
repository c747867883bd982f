"""Tracker indexes that keep reads independent of history: an issue's keys, what was merged
into it, its detections in order, and pages of a user's issues by status.

Revision ID: 0004_track_indexes
Revises: 0001_track
"""

from __future__ import annotations

from alembic import op

revision = "0004_track_indexes"
down_revision = "0001_track"
branch_labels = None
depends_on = None

_INDEXES = (
    ("ix_track_keys_issue", "track_keys", ["tenant_id", "user_id", "issue_id"]),
    ("ix_track_issues_merged", "track_issues", ["tenant_id", "user_id", "merged_into"]),
    ("ix_track_issues_page", "track_issues", ["tenant_id", "user_id", "status", "id"]),
    ("ix_track_detections_issue_seq", "track_detections", ["tenant_id", "user_id", "issue_id", "seq", "position"]),
)


def upgrade() -> None:
    for name, table, columns in _INDEXES:
        op.create_index(name, table, columns)
    # the new detection index starts with the old one's columns: the old one is redundant
    op.drop_index("ix_track_detections_issue", table_name="track_detections")


def downgrade() -> None:
    op.create_index("ix_track_detections_issue", "track_detections", ["tenant_id", "user_id", "issue_id"])
    for name, table, _columns in reversed(_INDEXES):
        op.drop_index(name, table_name=table)
