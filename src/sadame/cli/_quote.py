"""CLI commands of sadame.quote (being written)."""

from __future__ import annotations

import click


def register(cli: click.Group) -> None:
    """Add this feature's commands to the top-level group."""
