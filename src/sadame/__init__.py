"""sadame (定め): deterministic, trackable Japanese free text and LLM output.

``sadame.normalize(text, preset=...)`` is the one normalization contract (a function; the
rest of the contract, ``explain``, ``fingerprint`` and the flags, is imported from the package
of the same name: ``from sadame.normalize import explain``); ``judge``, ``quote`` and ``track``
are built on it. The features are imported lazily, on first use of one of their names, so that
``import sadame`` stays cheap (no SQLAlchemy, no FastAPI).

>>> import sadame
>>> sadame.normalize("ｷｬｯｼｭ？", preset="judge")
'きゃっしゅ'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Binding the name after the import replaces the submodule attribute the import system set:
# ``sadame.normalize`` is the function; ``sys.modules['sadame.normalize']`` stays the package.
from sadame.normalize import normalize as normalize

if TYPE_CHECKING:
    from sadame.judge import Judge, load_table
    from sadame.quote import verify_quote
    from sadame.track import Tracker

#: The one version source (pyproject.toml reads it: ``[tool.setuptools.dynamic]``).
__version__ = "0.2.0"

_LAZY: dict[str, str] = {
    "Judge": "sadame.judge",
    "load_table": "sadame.judge",
    "verify_quote": "sadame.quote",
    "Tracker": "sadame.track",
}

__all__ = [
    "Judge",
    "Tracker",
    "__version__",
    "load_table",
    "normalize",
    "verify_quote",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sadame' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
