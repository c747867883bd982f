"""The shared analyzer: real SudachiPy, real dictionary, loaded lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sadame.lang import analyze
from sadame.lang._analyzer import AnalyzerInfo, analyzer_info, to_hiragana
from sadame.lang._polarity import is_negator, negations_after


def test_tokens_carry_lemma_normalized_form_reading_and_offsets() -> None:
    text = "ｻｰﾊﾞｰのシュミレーションは落ちない"
    tokens = analyze(text)
    assert [t.normalized for t in tokens][:3] == ["サーバー", "の", "シミュレーション"]
    assert tokens[0].reading == "さーばー"
    for token in tokens:
        assert text[token.begin:token.end] == token.surface
    assert [t.lemma for t in tokens][-2:] == ["落ちる", "ない"]


def test_empty_and_bad_input() -> None:
    assert analyze("") == ()
    with pytest.raises(ValueError, match="takes a str"):
        analyze(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="too long"):
        analyze("あ" * 10_001)


def test_info_reports_the_load() -> None:
    info = analyzer_info()
    assert isinstance(info, AnalyzerInfo)
    assert info.dictionary == "sudachidict_core"
    assert info.load_seconds >= 0


@pytest.mark.parametrize(
    ("text", "word_index", "count"),
    [
        ("関係ない？", 0, 1),
        ("関係ありませんか", 0, 1),
        ("関係なくない？", 0, 2),
        ("向上していない", 0, 1),
        ("良好とは言えない", 0, 1),
        ("改善が見られない", 0, 1),
        ("改善が見られる", 0, 0),
        ("遅れがなくなった", 0, 0),  # なくなる is a verb ("to go away"), not a negator
        ("雨は関係ないが、風は関係ある", 6, 0),  # 風: the second clause is not negated
    ],
)
def test_negations_after(text: str, word_index: int, count: int) -> None:
    tokens = analyze(text)
    if text.startswith("雨は"):
        assert tokens[word_index].surface == "風"
    assert len(negations_after(tokens, word_index)) == count, [(t.surface, t.pos[:2]) for t in tokens]


def test_is_negator_is_not_fooled_by_lookalikes() -> None:
    assert not any(is_negator(t) for t in analyze("なかなか良い"))
    assert [t.surface for t in analyze("少ない") if is_negator(t)] == []


def test_hiragana() -> None:
    assert to_hiragana("タイムゾーン") == "たいむぞーん"


def test_import_does_not_load_the_dictionary() -> None:
    code = "import sys, sadame.lang; print('sudachipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
