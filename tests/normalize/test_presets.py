"""Golden behaviour of the named presets (data in tests/normalize/data/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sadame
from sadame.normalize import PRESETS, normalize
from sadame.normalize._fingerprint import probe_corpus

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "presets.json").read_text(encoding="utf-8"))
NEGATIVE = {
    preset: strings
    for preset, strings in json.loads((DATA / "negative.json").read_text(encoding="utf-8")).items()
    if not preset.startswith("_")
}


@pytest.mark.parametrize("case", CASES, ids=[f"{c['preset']}:{c['input'][:20]}" for c in CASES])
def test_golden_case(case: dict[str, str]) -> None:
    assert normalize(case["input"], preset=case["preset"]) == case["expected"], case["note"]


@pytest.mark.parametrize(
    ("preset", "text"),
    [(preset, text) for preset, texts in NEGATIVE.items() for text in texts],
)
def test_negative_cases_stay_unchanged(preset: str, text: str) -> None:
    assert normalize(text, preset=preset) == text


def test_every_preset_has_golden_cases() -> None:
    assert {case["preset"] for case in CASES} == set(PRESETS)
    assert set(NEGATIVE) == set(PRESETS)


def test_sadame_normalize_is_the_function_and_the_package_keeps_its_names() -> None:
    import importlib
    import types

    assert sadame.normalize is normalize
    assert isinstance(sadame.normalize, types.FunctionType)
    assert sadame.normalize("ｷｬｯｼｭ？", preset="judge") == "きゃっしゅ"
    package = importlib.import_module("sadame.normalize")
    assert package.normalize is normalize
    assert package.fingerprint().startswith("nc")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_are_idempotent_on_the_probe_corpus(preset: str) -> None:
    # Markdown stripping is not idempotent by design: removing a pair can expose another
    # (`***x***`, a code span whose content looks like `**bold**`), so for the presets that
    # strip Markdown only probes without Markdown delimiters are checked.
    markdown = PRESETS[preset].markdown_strip
    checked = 0
    for text in probe_corpus():
        if markdown and any(c in text for c in "*_`~[>#"):
            continue
        once = normalize(text, preset=preset)
        assert normalize(once, preset=preset) == once, text
        checked += 1
    assert checked >= 40
