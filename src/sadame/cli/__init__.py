"""The ``sadame`` command line: thin commands, each calling one library function.

Each feature registers its commands from its own module (``_normalize``,
``_judge``, ``_quote``, ``_track``, ``_llm``, ``_web``) so the interface layer
mirrors the library's layout.
"""

from __future__ import annotations

import click

from sadame import __version__
from sadame.cli import _judge, _lint, _llm, _normalize, _quote, _track, _web

__all__ = ["cli", "main"]


@click.group(
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
