"""SDM001: no normalizing outside the contract.

Every module that compares text must normalize through :mod:`sadame.normalize`
with a named preset; only the contract itself (the ``allowed`` globs of
``[tool.sadame.lint]`` in ``pyproject.toml``) may call ``unicodedata.normalize``.
The rule runs as ``sadame lint PATH...`` and as a flake8 plugin (``--select SDM``).

>>> [v.code for v in check_source("from unicodedata import normalize as n\\n", "x.py")]
['SDM001']
"""

from __future__ import annotations

from sadame.lint._checker import Violation, check_source
from sadame.lint._config import load_config
from sadame.lint._paths import check_paths, lint_paths

__all__ = [
    "Violation",
    "check_paths",
    "check_source",
    "lint_paths",
    "load_config",
]
