"""The flags object has no defaults, and bad presets/flags fail clearly."""

from __future__ import annotations

import dataclasses

import pytest

from sadame.normalize import (
    PRESETS,
    STEP_NAMES,
    NormalizeFlags,
    PunctuationMode,
    WhitespaceMode,
    normalize,
)
from sadame.normalize._core import _compiled
from sadame.normalize._steps import enabled_steps

FULL = {
    "nfkc": True,
    "markdown_strip": False,
    "numeric": False,
    "casefold": True,
    "kana": True,
    "punctuation": PunctuationMode.DELETE,
    "punctuation_chars": "・",
    "whitespace": WhitespaceMode.DELETE,
    "equivalences": frozenset(),
}


@pytest.mark.parametrize("missing", sorted(FULL))
def test_omitting_any_flag_is_an_error(missing: str) -> None:
    kwargs = {k: v for k, v in FULL.items() if k != missing}
    with pytest.raises(TypeError, match=missing):
        NormalizeFlags(**kwargs)  # type: ignore[arg-type]


def test_flags_are_frozen_and_keyword_only() -> None:
    flags = NormalizeFlags(**FULL)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        flags.nfkc = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        NormalizeFlags(True, False, False, True, True, PunctuationMode.KEEP, "", WhitespaceMode.KEEP, frozenset())  # type: ignore[misc]


def test_flag_types_are_checked() -> None:
    with pytest.raises(TypeError, match="nfkc"):
        NormalizeFlags(**{**FULL, "nfkc": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="whitespace"):
        NormalizeFlags(**{**FULL, "whitespace": "delete"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="equivalences"):
        NormalizeFlags(**{**FULL, "equivalences": {"comma"}})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="punctuation_chars"):
        NormalizeFlags(**{**FULL, "punctuation_chars": ""})  # type: ignore[arg-type]


def test_preset_or_flags_required_and_exclusive() -> None:
    with pytest.raises(TypeError, match="preset is required"):
        normalize("x")
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        normalize("x", preset="nope")
    with pytest.raises(TypeError, match="not both"):
        normalize("x", preset="judge", flags=PRESETS["judge"])
    assert normalize("ＣＳＳ・", flags=NormalizeFlags(**FULL)) == "css"  # type: ignore[arg-type]


def test_steps_run_in_the_documented_order() -> None:
    assert STEP_NAMES == (
        "nfkc", "markdown_strip", "numeric", "casefold", "kana", "punctuation", "equivalences", "whitespace",
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fused_plan_equals_running_the_steps_one_by_one(preset: str) -> None:
    from sadame.normalize._fingerprint import probe_corpus

    flags = PRESETS[preset]
    for text in probe_corpus():
        stepwise = text
        for step in enabled_steps(flags):
            stepwise = step.text(stepwise, flags)
        assert _compiled(flags)(text) == stepwise, text


def test_fusion_composes_kana_then_punctuation() -> None:
    # A katakana character in the punctuation set must not be deleted: kana runs first,
    # so the punctuation step sees its hiragana twin.
    flags = NormalizeFlags(**{**FULL, "punctuation_chars": "カ"})  # type: ignore[arg-type]
    assert normalize("カ", flags=flags) == "か"
    flags = NormalizeFlags(**{**FULL, "punctuation_chars": "か"})  # type: ignore[arg-type]
    assert normalize("カか", flags=flags) == ""
