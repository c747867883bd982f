"""explain() records the steps that changed the text, and replaying them reproduces the output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sadame.normalize import PRESETS, explain, normalize, replay
from sadame.normalize._fingerprint import probe_corpus

CASES = json.loads((Path(__file__).parent / "data" / "presets.json").read_text(encoding="utf-8"))


def test_explain_names_only_the_steps_that_changed_something() -> None:
    result = explain("ＣＳＳ？", preset="judge")
    assert [s.step for s in result.steps] == ["nfkc", "casefold", "punctuation"]
    assert result.steps[0].before == "ＣＳＳ？" and result.steps[0].after == "CSS?"
    assert result.result == "css"
    assert explain("きゃっしゅ", preset="judge").steps == ()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_replaying_the_explained_steps_reproduces_the_output(preset: str) -> None:
    texts = [*probe_corpus(), *(c["input"] for c in CASES)]
    for text in texts:
        result = explain(text, preset=preset)
        assert result.result == normalize(text, preset=preset)
        assert replay(text, [s.step for s in result.steps], PRESETS[preset]) == result.result
        for earlier, later in zip(result.steps, result.steps[1:], strict=False):
            assert earlier.after == later.before


def test_explanation_is_json_serialisable() -> None:
    data = explain("- **ｷｬｯｼｭ**", preset="decoration").to_dict()
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data


def test_replay_rejects_unknown_steps() -> None:
    with pytest.raises(ValueError, match="bogus"):
        replay("x", ["bogus"], PRESETS["judge"])
