"""LLM tier: the verdict cache (``llm_verdicts``).

Revision ID: 0002_llm
Revises: 0000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_llm"
down_revision = "0000"
branch_labels = ("llm",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "llm_verdicts",
        sa.Column("id", sa.Integer(), autoincrement=True),
        sa.Column("table_name", sa.String(200), nullable=False),
        sa.Column("table_version", sa.String(64), nullable=False),
        sa.Column("puzzle_id", sa.String(200), nullable=False),
        sa.Column("question_hash", sa.String(64), nullable=False),
        sa.Column("normalized", sa.Text(), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("verdict", sa.String(100), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_hit_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_llm_verdicts"),
        sa.UniqueConstraint(
            "table_version", "puzzle_id", "question_hash", "model", name="uq_llm_verdicts_key"
        ),
    )
    op.create_index("ix_llm_verdicts_table_name", "llm_verdicts", ["table_name", "puzzle_id"])


def downgrade() -> None:
    op.drop_index("ix_llm_verdicts_table_name", table_name="llm_verdicts")
    op.drop_table("llm_verdicts")
