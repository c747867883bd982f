"""Lazy loading of the top-level commands: ``sadame --help`` imports no feature.

Each top-level command names the CLI modules whose ``register(cli)`` adds it (a
group such as ``rules`` gets subcommands from two modules), and the one-line help
shown by ``sadame --help`` (``tests/cli/test_lazy.py`` checks it against the real
command). A module is imported the first time one of its commands is looked up.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping

import click

__all__ = ["LAZY_COMMANDS", "LazyCommands"]

#: name -> (modules of sadame.cli that register it, in order; its one-line help)
LAZY_COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    "answer": (("_judge",), "Check ANSWER against a puzzle's solution groups and print JSON (partial credit included)."),
    "contract": (("_normalize",), "Print the contract fingerprint: equal fingerprints normalize identically."),
    "db": (("_db",), "Migrate the database and show where its schema stands (upgrade, current, check)."),
    "explain": (("_normalize",), "Show which steps of a preset changed TEXT, and how."),
    "judge": (("_judge",), "Judge QUESTION against TABLE and print the verdict as JSON."),
    "lint": (("_lint",), "Report every use of unicodedata.normalize outside the allowed modules (SDM001)."),
    "llm": (("_judge", "_track", "_llm"), "The optional LLM tier (off unless SADAME_LLM_BASE_URL or a config file sets it)."),
    "normalize": (("_normalize",), "Normalize TEXT (or standard input) with a preset."),
    "play": (("_judge",), "Play the lateral-thinking puzzles of PACKS (default: every bundled pack) in the terminal (Japanese UI)."),
    "quote": (("_quote",), "Verify quotes and ground numbers against their source text."),
    "rules": (("_judge", "_llm"), "Tools for rule-table authors: lint, test, coverage, schema."),
    "serve": (("_web",), "Start the web app and HTTP API (puzzles, tracker dashboard, quote checker)."),
    "track": (("_track", "_llm"), "Track LLM findings as issues with stable ids across sessions (seed 000)."),
    "web": (("_web",), "Manage the web service's tenants and API keys."),
}


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's ``commands`` mapping that imports the modules of a name on first use.

    Looking a name up loads that command's modules; iterating loads them all.
    """

    def __init__(self, group: click.Group) -> None:
        self._group = group
        self._commands: dict[str, click.Command] = {}
        self._loaded: set[str] = set()

    def _load(self, name: str) -> None:
        for module in LAZY_COMMANDS.get(name, ((), ""))[0]:
            if module not in self._loaded:
                self._loaded.add(module)  # before register(): it may look up its own group
                importlib.import_module(f"sadame.cli.{module}").register(self._group)

    def __getitem__(self, name: str) -> click.Command:
        self._load(name)
        return self._commands[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        for name in LAZY_COMMANDS:
            self._load(name)
        return iter(list(self._commands))

    def __len__(self) -> int:
        return len(list(iter(self)))
