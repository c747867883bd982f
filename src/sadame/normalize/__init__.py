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

from sadame.normalize._core import (
    ExplainStep,
    Explanation,
    NormalizedText,
    explain,
    normalize,
    normalize_with_offsets,
    replay,
)
from sadame.normalize._fingerprint import (
    CONTRACT_VERSION,
    ContractInfo,
    contract_info,
    fingerprint,
    probe_corpus,
)
from sadame.normalize._flags import (
    CJK_RANGES,
    ISSUE_PUNCTUATION,
    JS_WHITESPACE,
    JUDGE_PUNCTUATION,
    Equivalence,
    NormalizeFlags,
    PunctuationMode,
    WhitespaceMode,
)
from sadame.normalize._presets import FEATURE_DEFAULTS, PRESETS, PREVIOUS_PRESETS
from sadame.normalize._steps import STEPS

__all__ = [
    "CJK_RANGES",
    "CONTRACT_VERSION",
    "FEATURE_DEFAULTS",
    "ISSUE_PUNCTUATION",
    "JS_WHITESPACE",
    "JUDGE_PUNCTUATION",
    "PRESETS",
    "PREVIOUS_PRESETS",
    "STEP_NAMES",
    "ContractInfo",
    "Equivalence",
    "ExplainStep",
    "Explanation",
    "NormalizeFlags",
    "NormalizedText",
    "PunctuationMode",
    "WhitespaceMode",
    "contract_info",
    "explain",
    "fingerprint",
    "normalize",
    "normalize_with_offsets",
    "probe_corpus",
    "replay",
]

#: The steps of the contract, in the fixed order they run.
STEP_NAMES: tuple[str, ...] = tuple(step.name for step in STEPS)

