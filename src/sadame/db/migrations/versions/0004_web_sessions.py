"""Web service: sign-in and activity times of browser sessions, per-client budgets.

Revision ID: 0004_web_sessions
Revises: 0003_web
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_web_sessions"
down_revision = "0003_web"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no batch mode: recreating the table on SQLite would cascade
    # the drop to the game states).
    op.add_column("web_browser_sessions", sa.Column("api_key_id", sa.Integer(), nullable=True))
    op.add_column("web_browser_sessions", sa.Column("signed_in_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("web_browser_sessions", sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
    # Sessions signed in before this revision were not tied to a key: sign them out.
    op.execute("UPDATE web_browser_sessions SET tenant_id = NULL, last_seen_at = created_at")
    op.create_table(
        "web_client_budgets",
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(220), nullable=False),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("client", "scope", name="pk_web_client_budgets"),
    )


def downgrade() -> None:
    op.drop_table("web_client_budgets")
    for column in ("last_seen_at", "signed_in_at", "api_key_id"):
        op.drop_column("web_browser_sessions", column)
