"""sadame (定め): deterministic, trackable Japanese free text and LLM output.

``sadame.normalize`` is the one normalization contract; ``judge``, ``quote`` and
``track`` are built on it. The features are imported lazily so that
``import sadame`` stays cheap.
"""

from __future__ import annotations

from sadame import normalize as normalize

__version__ = "0.1.0"

__all__ = ["__version__", "normalize"]
