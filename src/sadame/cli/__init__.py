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
from sadame._extras import MissingExtra
from sadame.cli._lazy import LAZY_COMMANDS, LazyCommands

__all__ = ["cli", "main"]


def _check_utf8(position: int, arg: str) -> None:
    """Refuse an argument that was not valid UTF-8 (Python keeps its bytes as lone surrogates,
    which no later step can encode): one line naming the argument and the byte."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError as exc:
        try:
            raw = arg.encode("utf-8", "surrogateescape")  # the bytes the shell passed
            raw.decode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate that no bytes stand for (\ud800)
            detail = f"character {exc.start}, {arg[exc.start]!a}"
        except UnicodeDecodeError as bad:
            detail = f"byte 0x{raw[bad.start]:02x} at {bad.start}"
        else:
            detail = f"character {exc.start}"
        raise click.ClickException(f"argument {position} is not valid UTF-8 ({detail}); "
                                   "pass text in UTF-8") from None


class _Sadame(click.Group):
    """The top-level group: commands load lazily (``sadame.cli._lazy``), and a database
    that cannot be used or a missing extra is a one-line error, never a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(LAZY_COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the static help lines: ``--help`` imports no feature."""
        limit = formatter.width - 6 - max(len(name) for name in LAZY_COMMANDS)
        rows = [(name, click.Command(name, help=LAZY_COMMANDS[name][1]).get_short_help_str(limit))
                for name in sorted(LAZY_COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for n, arg in enumerate(args, 1):
            _check_utf8(n, arg)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MissingExtra as exc:  # an extra's packages are not installed: one line naming it
            raise click.ClickException(str(exc)) from None
        except RuntimeError as exc:
            lang = sys.modules.get("sadame.lang")  # natural mode without [ja] (or a too-old SudachiPy)
            if lang is not None and isinstance(exc, lang.AnalyzerUnavailable):
                raise click.ClickException(str(exc)) from None
            raise
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


def main() -> None:
    cli(prog_name="sadame")
