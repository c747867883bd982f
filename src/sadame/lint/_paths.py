"""Walking files and directories for ``sadame lint``, honouring the allowed modules."""

from __future__ import annotations

import os
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sadame.lint._checker import PARSE_ERROR_CODE, Violation, check_source
from sadame.lint._config import LintConfig, LintError, load_config

__all__ = ["SKIPPED_DIRS", "LintPathError", "LintReport", "check_paths", "iter_python_files", "lint_paths"]

#: Directory names never descended into (virtual environments, caches, VCS data).
#: Hidden directories (``.venv``, ``.git`` ...) are skipped as well.
SKIPPED_DIRS: frozenset[str] = frozenset({"__pycache__", "node_modules", "site-packages"})


class LintPathError(LintError):
    """A path given to the linter does not exist."""


@dataclass(frozen=True, slots=True)
class LintReport:
    """What a lint run looked at and found."""

    files_checked: int
    files_exempt: int
    violations: tuple[Violation, ...]

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "files_checked": self.files_checked,
            "files_exempt": self.files_exempt,
            "violations": [v.to_dict() for v in self.violations],
        }


def iter_python_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files to check: each file given as is, each directory walked for ``*.py`` (sorted).

    Raises :class:`LintPathError` for a path that does not exist.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            yield path
        elif path.is_dir():
            for directory, subdirs, files in os.walk(path):
                subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and d not in SKIPPED_DIRS)
                for name in sorted(files):
                    if name.endswith(".py"):
                        yield Path(directory) / name
        else:
            raise LintPathError(f"no such file or directory: {path}")


def _read(path: Path) -> str | Violation:
    """The file's text (honouring a PEP 263 coding cookie), or a diagnostic saying why not."""
    try:
        with tokenize.open(path) as handle:
            return handle.read()
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Violation(str(path), 1, 1, PARSE_ERROR_CODE, f"cannot read this file: {reason}")


def _run(paths: Iterable[str | Path], config: LintConfig) -> LintReport:
    checked = exempt = 0
    found: list[Violation] = []
    seen: set[Path] = set()
    for path in iter_python_files(paths):
        key = path.resolve()
        if key in seen:
            continue
        seen.add(key)
        if config.is_allowed(path):
            exempt += 1
            continue
        checked += 1
        source = _read(path)
        if isinstance(source, Violation):
            found.append(source)
        else:
            found.extend(check_source(source, str(path)))
    return LintReport(checked, exempt, tuple(found))


def check_paths(paths: Iterable[str | Path], config: LintConfig) -> list[Violation]:
    """SDM001 violations (and SDM000 unreadable-file diagnostics) under ``paths``,
    skipping the modules ``config`` allows."""
    return list(_run(paths, config).violations)


def lint_paths(paths: Iterable[str | Path], *, config_file: str | Path | None = None) -> LintReport:
    """Load the configuration (``config_file`` or the nearest ``pyproject.toml`` upward from
    the cwd) and lint ``paths``: the one call behind ``sadame lint``."""
    paths = list(paths)
    if not paths:
        raise LintPathError("no paths given to lint")
    return _run(paths, load_config(config_file))
