"""The quote check on the lazy offsets (blocks, windows) gives exactly the results of the
whole text's offsets: same statuses, spans, reasons, on the eval sets and random mixes."""

from __future__ import annotations

import json
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import normalize, normalize_with_offsets
from sadame.normalize._blocks import LazyOffsets
from sadame.normalize._presets import resolve_flags
from sadame.quote import verify_quotes
from sadame.quote._hint import nearest_passage
from sadame.quote._verify import _SURVIVES, QuoteVerifier

EVALS = Path(__file__).resolve().parents[2] / "evals" / "quote"


def _cases() -> list[tuple[str, list[str]]]:
    cases: dict[str, list[str]] = {}
    for name in ("cases.jsonl", "hard.jsonl"):
        for line in (EVALS / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                case = json.loads(line)
                if "source_path" in case:
                    quotes = [q if isinstance(q, str) else q["text"] for q in case.get("quotes", [])]
                    cases.setdefault(case["source_path"], []).extend(quotes)
    return sorted(cases.items())


def _both(source: str, quotes: list[str], block: int, full_after: float = float("inf")) -> None:
    flags = resolve_flags("quote", None)
    lazy, full = QuoteVerifier(source), QuoteVerifier(source)
    lazy._normalized = LazyOffsets(source, flags, block=block, full_after=full_after)
    full._normalized = LazyOffsets(source, flags, full=normalize_with_offsets(source, flags=flags))
    assert [r.to_dict() for r in lazy.verify_many(quotes)] == [r.to_dict() for r in full.verify_many(quotes)]
    for quote in quotes[:20]:
        assert nearest_passage(lazy, quote) == nearest_passage(full, quote)
    mapped = lazy._normalized
    assert mapped is not None
    if len(mapped._orig) > 2 and full_after == float("inf"):  # cut into blocks: answered from windows, never the whole text's offsets
        assert not mapped.has_full()


@pytest.mark.parametrize(("block", "full_after"), [(16, float("inf")), (128, float("inf")), (16, 0.5)])
@pytest.mark.parametrize(("path", "quotes"), _cases(), ids=lambda value: value if isinstance(value, str) else "")
def test_eval_sets_lazy_equals_full(path: str, quotes: list[str], block: int, full_after: float) -> None:
    """Windows only, and windows until they cover half the source (then its whole offsets)."""
    _both((EVALS / path).read_text(encoding="utf-8"), quotes, block, full_after)


LINES = st.sampled_from(
    ["- **保守性**: tools: 照合結果が不足している。", "1. 売上は1億2000万円、前年比3割増。", "「引用」と『引用』",
     "- `code` 漢字かな混じり文", "> 引用ブロック：確認済み", "ｶﾞｷﾞ半角カナ、ＡＢＣ全角", "保守性", "漢字", "",
     "  字下げ行", "a, b: c", "[リンク](http://x) の説明", "**太字**の後", "結論", "㈱サダメ",
     "［全角リンク］（http://x）の後", "`[コード](内)` のリンク", "\U0001f200の株式会社と㍿", "1，2，3 全角コンマ"]
)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(LINES, min_size=1, max_size=40), picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 30), st.booleans()), max_size=12), block=st.integers(1, 64))
def test_random_mixes_lazy_equals_full(lines: list[str], picks: list[tuple[int, int, bool]], block: int) -> None:
    source = "\n".join(lines)
    plain = normalize(source, preset="quote")
    quotes: list[str] = []
    for at, size, from_plain in picks:
        text = plain if from_plain else source
        if text:
            start = at % len(text)
            quote = text[start : start + size]
            quotes += [quote, quote[:-1] + "偽"]
    _both(source, quotes, block)


def test_bold_label_partial_quote_lazy() -> None:
    source = "前置き。\n" * 50 + "- **保守性**: tools: 照合する。\n" + "後書き。\n" * 50
    _both(source, ["守性: tools: 照合する。", "保守性: tools", "tools: 照合"], 8)
    assert verify_quotes(["守性: tools: 照合する。"], source)[0].status == "normalized"


@pytest.mark.parametrize("preset", ["quote", "decoration", "judge", "numeric", "issue"])
@settings(max_examples=200, deadline=None)
@given(
    before=st.text(max_size=12) | st.lists(LINES, max_size=3).map("".join),
    after=st.text(max_size=12),
    char=st.characters(min_codepoint=0x3041, max_codepoint=0x3096)
    | st.characters(min_codepoint=0x30A1, max_codepoint=0x30FA)
    | st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
)
def test_a_kana_or_kanji_never_normalizes_away(preset: str, before: str, after: str, char: str) -> None:
    """verify() skips normalizing a raw-found quote with a kana or kanji: it cannot be empty."""
    assert _SURVIVES.search(char)
    assert normalize(before + char + after, preset=preset) != ""


def test_threads_sharing_a_new_sources_map_get_the_serial_results() -> None:
    """Eight threads check the same never-seen source at once (they share its kept map, its
    fine index and its prefetched blocks): every result equals the whole-offsets path's."""
    from concurrent.futures import ThreadPoolExecutor

    lines = ["- **保守性**: tools: 照合結果が不足している。", "1. 売上は1億2000万円、前年比3割増。",
             "[リンク](http://x) の説明", "ｶﾞｷﾞ半角カナ、ＡＢＣ全角", "**太字**の後で漢字"]
    source = "\n".join(f"{lines[i % len(lines)]}{i}番目。" for i in range(600))
    quotes = ["保守性: tools", "守性: tools", "売上は1億2000万円", "リンクの説明", "ガギ半角カナ", "太字の後", "偽の引用",
              *(f"{i}番目。" for i in range(0, 600, 37))]
    flags = resolve_flags("quote", None)
    full = QuoteVerifier(source)
    full._normalized = LazyOffsets(source, flags, full=normalize_with_offsets(source, flags=flags))
    expected = [r.to_dict() for r in full.verify_many(quotes)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda _i: [r.to_dict() for r in verify_quotes(quotes, source)], range(16)))
    assert all(g == expected for g in got)


def _find_loop(source: str, quote: str, limit: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = source.find(quote)
    while pos != -1 and len(spans) < limit:
        spans.append((pos, pos + len(quote)))
        pos = source.find(quote, pos + len(quote))
    return spans


@settings(max_examples=300, deadline=None)
@given(
    source=st.text(alphabet="ab漢字\U0001f200", max_size=60),
    quotes=st.lists(st.text(alphabet="ab漢字\U0001f200", min_size=1, max_size=4), min_size=2, max_size=8, unique=True),
    limit=st.integers(1, 5),
)
def test_raw_occurrences_of_one_pass_equal_a_find_loop_per_quote(source: str, quotes: list[str], limit: int) -> None:
    from sadame.quote import _verify
    from sadame.quote._verify import _MAX_RAW_MATCHES, _raw_occurrences

    assert _raw_occurrences(source, quotes, limit) is None  # (fewer than _PASS_FROM: a find loop each)
    with patch.object(_verify, "_PASS_FROM", 2):
        found = _raw_occurrences(source, quotes, limit)
    if found is None:  # only past the cap on matches (a find loop per quote then)
        assert sum(len(_find_loop(source, q, 10**6)) for q in quotes) > 0
        overlapping = sum(1 for q in quotes for i in range(len(source)) if source.startswith(q, i))
        assert overlapping > _MAX_RAW_MATCHES * len(quotes)
        return
    assert {q: [(s.start, s.end) for s in spans] for q, spans in found.items()} == {
        q: _find_loop(source, q, limit) for q in quotes
    }
    assert all(source[s.start : s.end] == s.text == q for q, spans in found.items() for s in spans)


def test_a_batch_past_the_raw_match_cap_gets_the_results_of_one_by_one() -> None:
    source = "漢字" * 5000 + "\n- **保守性**: 不足\n"
    quotes = ["漢字", "字漢", "保守性: 不足", "漢"]
    from sadame.quote import _verify

    with patch.object(_verify, "_PASS_FROM", 2):
        batch = verify_quotes(quotes, source)
    assert [r.to_dict() for r in batch] == [
        r.to_dict() for q in quotes for r in verify_quotes([q], source)
    ]
