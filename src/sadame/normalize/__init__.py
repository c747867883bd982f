"""The normalization contract: the one place sadame turns text into comparable text.

Stdlib only, no I/O beyond reading its own probe corpus. Every other module of
sadame (and, through ``sadame lint``, every module of its users) normalizes
through here.

``sadame.normalize`` (the attribute of the top-level package) is the function
:func:`normalize`; this package's other names are imported from it:

>>> from sadame.normalize import fingerprint, normalize
>>> normalize("ｷｬｯｼｭ？", preset="judge")
'きゃっしゅ'
>>> fingerprint().startswith("nc")
True
"""

from __future__ import annotations

from sadame.normalize._core import Explanation, explain, normalize, normalize_with_offsets, replay
from sadame.normalize._fingerprint import CONTRACT_VERSION, fingerprint
from sadame.normalize._flags import Equivalence, NormalizeFlags, PunctuationMode, WhitespaceMode
from sadame.normalize._presets import PRESETS, PREVIOUS_PRESETS, check_preset
from sadame.normalize._steps import STEPS

__all__ = [
    "CONTRACT_VERSION",
    "PRESETS",
    "PREVIOUS_PRESETS",
    "Equivalence",
    "Explanation",
    "NormalizeFlags",
    "PunctuationMode",
    "WhitespaceMode",
    "check_preset",
    "explain",
    "fingerprint",
    "normalize",
    "normalize_with_offsets",
    "replay",
]

#: The steps of the contract, in the fixed order they run.
STEP_NAMES: tuple[str, ...] = tuple(step.name for step in STEPS)

