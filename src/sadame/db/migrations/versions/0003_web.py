"""Web service: tenants, hashed API keys, browser sessions and game states.

Revision ID: 0003_web
Revises: 0000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_web"
down_revision = "0000"
branch_labels = ("web",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_tenants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_tenants"),
        sa.UniqueConstraint("name", name="uq_web_tenants_name"),
    )
    op.create_table(
        "web_api_keys",
        sa.Column("id", sa.Integer(), autoincrement=True),
        sa.Column("tenant_id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_web_api_keys"),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["web_tenants.id"], name="fk_web_api_keys_tenant_id_web_tenants", ondelete="CASCADE"
        ),
        sa.UniqueConstraint("key_hash", name="uq_web_api_keys_key_hash"),
    )
    op.create_table(
        "web_browser_sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("tenant_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_browser_sessions"),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["web_tenants.id"],
            name="fk_web_browser_sessions_tenant_id_web_tenants",
            ondelete="SET NULL",
        ),
    )
    op.create_table(
        "web_game_states",
        sa.Column("id", sa.Integer(), autoincrement=True),
        sa.Column("session_id", sa.String(64), nullable=False),
        sa.Column("pack", sa.String(100), nullable=False),
        sa.Column("puzzle_id", sa.String(100), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_game_states"),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["web_browser_sessions.id"],
            name="fk_web_game_states_session_id_web_browser_sessions",
            ondelete="CASCADE",
        ),
        sa.UniqueConstraint("session_id", "pack", "puzzle_id", name="uq_web_game_states_session_id"),
    )


def downgrade() -> None:
    op.drop_table("web_game_states")
    op.drop_table("web_browser_sessions")
    op.drop_table("web_api_keys")
    op.drop_table("web_tenants")
