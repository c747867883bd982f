"""Shared output helpers for CLI commands."""

from __future__ import annotations

import json
from typing import Any

import click

from sadame.normalize import PRESETS, check_preset

__all__ = ["PRESET_NAME", "PresetName", "echo_json"]


def echo_json(data: Any) -> None:
    """Print ``data`` as pretty JSON with Japanese left readable."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))


class PresetName(click.ParamType[str, Any]):
    """A preset name, or ``name@ncN`` for a preset of an earlier contract version."""

    name = "preset"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        try:
            check_preset(text)
        except (ValueError, TypeError) as exc:
            self.fail(str(exc), param, ctx)
        return text

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(sorted(PRESETS)) + "][@ncN]"


#: the ``--preset`` type of every command that takes one
PRESET_NAME = PresetName()
