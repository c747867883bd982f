"""Base revision every feature branches from.

Revision ID: 0000
Revises:
"""

from __future__ import annotations

revision = "0000"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
