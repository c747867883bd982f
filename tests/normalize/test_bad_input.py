"""Bad input gets a clear error or a defined result, never a crash."""

from __future__ import annotations

import pytest

from sadame.normalize import PRESETS, explain, normalize, normalize_with_offsets


@pytest.mark.parametrize("value", [None, 1, b"bytes", ["x"], 1.5])
@pytest.mark.parametrize("fn", [normalize, normalize_with_offsets, explain])
def test_non_str_raises_type_error_naming_the_type(fn: object, value: object) -> None:
    with pytest.raises(TypeError, match="expects str, got"):
        fn(value, preset="judge")  # type: ignore[operator]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_empty_string_stays_empty(preset: str) -> None:
    assert normalize("", preset=preset) == ""
    assert normalize_with_offsets("", preset=preset).text == ""


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_lone_surrogates_and_control_characters_pass_through(preset: str) -> None:
    text = "a\ud800b\udfffc\x00\x01\x7f\u200bd"
    out = normalize(text, preset=preset)
    assert "\ud800" in out and "\udfff" in out and "\x00" in out
    assert normalize_with_offsets(text, preset=preset).text == out


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ten_megabytes_normalize(preset: str) -> None:
    line = "- **ｷｬｯｼｭ**が残ってる？ 売上は1億2000万円、令和8年7月18日。\n"
    text = line * (10_000_000 // len(line.encode()))
    out = normalize(text, preset=preset)
    assert 0 < len(out) <= len(text) * 2
    # Every rule is line-local, so the big input normalizes as its first lines do, then more of the same.
    assert out.startswith(normalize(line * 3, preset=preset))
    assert out.count("2026-07-18" if preset == "numeric" else "7月18日") == text.count("7月18日")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pathological_markdown_is_handled(preset: str) -> None:
    for text in ("*" * 100_000, "_" * 100_000, "**a" * 30_000, "[" * 50_000 + "](" * 50_000, "`" * 100_000):
        out = normalize(text, preset=preset)
        assert len(out) <= len(text)
        # the plain path and the offsets path agree on hostile Markdown too
        assert normalize_with_offsets(text, preset=preset).text == out
