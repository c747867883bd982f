"""The optional extras: which feature needs which packages, and the one-line error when they are missing.

``pip install sadame`` is the core (normalize, quote, seed-mode judge, the lint rule). The rest
is an extra (``pyproject.toml``): a feature that needs one calls :func:`require` before importing
its packages, and a missing package is a :class:`MissingExtra` whose message is one line naming
the extra to install.

>>> missing_message("ja", "SudachiPy")
"natural mode and the tracker's meaning need SudachiPy, which is not installed: pip install 'sadame[ja]'"
"""

from __future__ import annotations

import importlib.util

__all__ = ["EXTRAS", "MissingExtra", "missing_message", "require"]

#: extra -> (what it gives, {importable module: distribution to name})
EXTRAS: dict[str, tuple[str, dict[str, str]]] = {
    "ja": (
        "natural mode and the tracker's meaning",
        {"sudachipy": "SudachiPy", "sudachidict_core": "sudachidict_core"},
    ),
    "track": (
        "the tracker",
        {"sqlalchemy": "SQLAlchemy", "alembic": "alembic", "re2": "google-re2"},
    ),
    "postgres": ("PostgreSQL storage", {"psycopg": "psycopg"}),
    "web": (
        "the web app",
        {"fastapi": "FastAPI", "uvicorn": "uvicorn", "jinja2": "Jinja2", "multipart": "python-multipart"},
    ),
    "llm": ("the LLM tier", {"httpx": "httpx"}),
    "gemini": ("the Gemini provider", {"google.genai": "google-genai"}),
}


class MissingExtra(ImportError):
    """A feature's optional packages are not installed; ``str()`` is the one line to show."""

    def __init__(self, extra: str, distribution: str) -> None:
        super().__init__(missing_message(extra, distribution), name=distribution)
        self.extra = extra


def missing_message(extra: str, distribution: str) -> str:
    """The one line saying what is missing and which extra brings it."""
    feature = EXTRAS[extra][0]
    verb = "need" if " and " in feature else "needs"
    return f"{feature} {verb} {distribution}, which is not installed: pip install 'sadame[{extra}]'"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # the parent package of a dotted name is absent
        return False


def require(*extras: str) -> None:
    """Raise :class:`MissingExtra` for the first package of ``extras`` that is not installed.

    Cheap (no import, a finder look-up per package), so a feature package calls it on import.
    """
    for extra in extras:
        for module, distribution in EXTRAS[extra][1].items():
            if not _installed(module):
                raise MissingExtra(extra, distribution)
