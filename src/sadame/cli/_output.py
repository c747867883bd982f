"""Shared output helpers for CLI commands."""

from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["echo_json"]


def echo_json(data: Any) -> None:
    """Print ``data`` as pretty JSON with Japanese left readable."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))
