"""Configuration of ``sadame lint``: which modules may call ``unicodedata.normalize``.

Read from ``[tool.sadame.lint]`` in the nearest ``pyproject.toml``::

    [tool.sadame.lint]
    allowed = ["src/sadame/normalize/*.py"]

Patterns are globs relative to the directory holding that ``pyproject.toml``, matched
against whole POSIX paths: ``*`` and ``?`` stay inside one path segment, ``**``
spans any number of segments (``src/**/contract.py``). Without a ``pyproject.toml``
(or without the table) nothing is allowed: every call is reported.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "LintConfig",
    "LintConfigError",
    "LintError",
    "find_pyproject",
    "load_config",
]


class LintError(ValueError):
    """Base class of the errors ``sadame.lint`` raises for bad input."""


class LintConfigError(LintError):
    """The configuration file is missing, unreadable, or ``[tool.sadame.lint]`` is malformed."""


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a path glob into an anchored regex (``*`` never crosses ``/``, ``**`` does)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


@dataclass(frozen=True, slots=True)
class LintConfig:
    """Where the configuration lives (``root``) and the allowed-module globs relative to it."""

    root: Path
    allowed: tuple[str, ...]
    source: Path | None = None

    def is_allowed(self, path: str | Path) -> bool:
        """True when ``path`` (absolute, or relative to the cwd) matches an ``allowed`` glob."""
        try:
            relative = Path(path).resolve().relative_to(self.root.resolve())
        except ValueError:
            return False
        posix = relative.as_posix()
        return any(_glob_regex(pattern).fullmatch(posix) for pattern in self.allowed)


def find_pyproject(start: Path | None = None) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` (default: the cwd) or one of its parents."""
    here = (start or Path.cwd()).resolve()
    if here.is_file():
        here = here.parent
    for directory in (here, *here.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _parse(path: Path) -> LintConfig:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise LintConfigError(f"cannot read config {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise LintConfigError(f"config {path} is not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise LintConfigError(f"config {path} is not UTF-8 (byte {exc.start}): TOML files must be UTF-8") from exc
    section: object = data
    for key, shown in (("tool", "[tool]"), ("sadame", "[tool.sadame]"), ("lint", "[tool.sadame.lint]")):
        assert isinstance(section, dict)
        section = section.get(key, {})
        if not isinstance(section, dict):
            raise LintConfigError(f"{path}: {shown} must be a table")
    assert isinstance(section, dict)
    unknown = sorted(set(section) - {"allowed"})
    if unknown:
        raise LintConfigError(f"{path}: unknown key(s) in [tool.sadame.lint]: {', '.join(unknown)}")
    allowed: object = section.get("allowed", [])
    if not isinstance(allowed, list) or not all(isinstance(p, str) and p for p in allowed):
        raise LintConfigError(
            f"{path}: [tool.sadame.lint] allowed must be a list of non-empty glob strings, got {allowed!r}"
        )
    return LintConfig(root=path.parent.resolve(), allowed=tuple(allowed), source=path.resolve())


def load_config(config_file: str | Path | None = None, *, start: Path | None = None) -> LintConfig:
    """The lint configuration: from ``config_file`` when given, else from the nearest
    ``pyproject.toml`` upward from ``start`` (default: the cwd).

    No file found means an empty allow-list rooted at ``start``: every call is a violation.
    Raises :class:`LintConfigError` for a given file that is missing or malformed.
    """
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise LintConfigError(f"config file {path} does not exist")
        return _parse(path)
    found = find_pyproject(start)
    if found is None:
        return LintConfig(root=(start or Path.cwd()).resolve(), allowed=())
    return _parse(found)
