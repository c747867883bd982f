"""SDM001: no normalizing outside the contract.

Every module that compares text must normalize through :mod:`sadame.normalize`
with a named preset; only the contract itself (the ``allowed`` globs of
``[tool.sadame.lint]`` in ``pyproject.toml``) may call ``unicodedata.normalize``.
The rule runs as ``sadame lint PATH...`` and as a flake8 plugin (``--select SDM``).

>>> [v.code for v in check_source("from unicodedata import normalize as n\\n", "x.py")]
['SDM001']
"""

from __future__ import annotations

from sadame.lint._checker import CODE, PARSE_ERROR_CODE, Violation, check_source, check_tree
from sadame.lint._config import LintConfig, LintConfigError, LintError, find_pyproject, load_config
from sadame.lint._formats import FORMATS, github_annotations, sarif_report
from sadame.lint._paths import (
    SKIPPED_DIRS,
    LintPathError,
    LintReport,
    check_paths,
    iter_python_files,
    lint_paths,
)

__all__ = [
    "CODE",
    "FORMATS",
    "PARSE_ERROR_CODE",
    "SKIPPED_DIRS",
    "LintConfig",
    "LintConfigError",
    "LintError",
    "LintPathError",
    "LintReport",
    "Violation",
    "check_paths",
    "check_source",
    "check_tree",
    "find_pyproject",
    "github_annotations",
    "iter_python_files",
    "lint_paths",
    "load_config",
    "sarif_report",
]
