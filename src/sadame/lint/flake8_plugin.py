"""SDM001 as a flake8 plugin (entry point ``flake8.extension``: ``SDM``).

flake8 hands the plugin the parsed tree; the allowed modules come from the same
``[tool.sadame.lint]`` table as ``sadame lint``, found from the cwd flake8 runs in.
Run it alone with ``flake8 --select SDM src``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from sadame import __version__
from sadame.lint._checker import check_tree
from sadame.lint._config import LintConfig, LintConfigError, load_config

__all__ = ["SadameChecker"]


@lru_cache(maxsize=16)
def _config_for(cwd: Path) -> LintConfig | None:
    try:
        return load_config(start=cwd)
    except LintConfigError:
        return None


class SadameChecker:
    """flake8 AST checker yielding ``SDM001`` for every reach of ``unicodedata.normalize``."""

    name = "sadame"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str) -> None:
        self.tree = tree
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type[SadameChecker]]]:
        config = _config_for(Path.cwd())
        if config is None:
            yield (
                1,
                0,
                "SDM000 cannot read [tool.sadame.lint] from pyproject.toml (run `sadame lint` for details)",
                type(self),
            )
            return
        if self.filename not in ("stdin", "-") and config.is_allowed(self.filename):
            return
        for violation in check_tree(self.tree, self.filename):
            yield violation.line, violation.col - 1, f"{violation.code} {violation.message}", type(self)
