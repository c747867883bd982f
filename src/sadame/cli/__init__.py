"""The ``sadame`` command line: thin commands, each calling one library function.

Each feature registers its commands from its own module (``_normalize``,
``_judge``, ``_quote``, ``_track``, ``_llm``, ``_web``) so the interface layer
mirrors the library's layout.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from sadame import __version__
from sadame.cli import _judge, _lint, _llm, _normalize, _quote, _track, _web

__all__ = ["cli", "main"]


class _Sadame(click.Group):
    """The top-level group: a database that cannot be used is a one-line error, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ValueError as exc:
            db = sys.modules.get("sadame.db")  # only loaded by commands that use a database
            if db is not None and isinstance(exc, db.DatabaseError):
                raise click.ClickException(str(exc)) from None
            raise


@click.group(
    cls=_Sadame,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="Example:\n\n    sadame normalize --preset judge 'ｷｬｯｼｭ？'",
)
@click.version_option(__version__, prog_name="sadame")
def cli() -> None:
    """sadame (定め): deterministic, trackable Japanese text and LLM output."""


for _module in (_normalize, _lint, _judge, _quote, _track, _llm, _web):
    _module.register(cli)


def main() -> None:
    cli(prog_name="sadame")
