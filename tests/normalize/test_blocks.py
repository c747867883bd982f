"""LazyOffsets (normalize/_blocks.py): the block-by-block plain text and its windows of
offsets equal normalize() and normalize_with_offsets() of the whole text, position by position."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sadame.normalize import PRESETS, normalize, normalize_with_offsets
from sadame.normalize import _blocks as blocks_module
from sadame.normalize._blocks import LazyOffsets
from sadame.normalize._presets import resolve_flags

EVALS = Path(__file__).resolve().parents[2] / "evals" / "quote"
SOURCES = sorted([*EVALS.glob("sources/*.md"), *EVALS.glob("hard_sources/*.md")])

# Lines rich in what the steps touch at a line's ends: Markdown markers, brackets, commas,
# colons, whitespace, compatibility and combining characters, and CJK characters (the cuts).
PIECES = st.sampled_from(
    [*"*_`~[]()#>-+.1 \t　ｶﾞアあ漢、。「」『』“”\",:：，,Σﬃ①㈱", "\u0301", "\u3099", "\ufeff", "\u00a0",
     "- ", "1. ", "**", "> ", "`c`", "[a](b)", "保守性", "ー", "\n", "\n\n", "漢\n字", "。\n- **", "」\n「",
     "［全角］（リンク）", "`[a](b)`", "\U0001f200", "，", "ｶﾞ", "㍿", "2*3*4"]
)
TEXTS = st.lists(PIECES, min_size=1, max_size=120).map("".join)


def check_same(text: str, preset: str, block: int) -> LazyOffsets:
    flags = resolve_flags(preset, None)
    lazy = LazyOffsets(text, flags, block=block)
    full = normalize_with_offsets(text, flags=flags)
    assert lazy.text == normalize(text, flags=flags) == full.text
    for i in range(len(full.text)):
        window, n, o = lazy.window(i, i + 1)
        assert window.text == full.text[n : n + len(window.text)]
        assert (window.starts[i - n] + o, window.ends[i - n] + o) == (full.starts[i], full.ends[i])
    for a, b in ((0, len(full.text)), (len(full.text) // 3, len(full.text) // 2), (len(full.text), len(full.text))):
        assert lazy.original_span(a, b) == full.original_span(a, b)
    return lazy


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_eval_sources_lazy_equals_full(path: Path, preset: str) -> None:
    lazy = check_same(path.read_text(encoding="utf-8"), preset, 128)
    if preset == "quote":
        assert len(lazy._orig) > 2  # the eval sources are cut into blocks: the lazy path is tested


@settings(max_examples=300, deadline=None)
@given(text=TEXTS, block=st.integers(min_value=1, max_value=40))
def test_random_texts_lazy_equals_full(text: str, block: int) -> None:
    check_same(text, "quote", block)


def test_a_wrapped_text_is_one_block() -> None:
    text = "「" + "漢字\n" * 100 + "字」"
    lazy = check_same(text, "quote", 8)
    assert len(lazy._orig) == 2 and normalize(text, preset="quote").startswith("漢")


def test_other_presets_and_short_texts_are_one_block() -> None:
    assert len(check_same("漢字\n" * 200, "decoration", 8)._orig) == 2
    assert len(check_same("漢字", "quote", 8)._orig) == 2
    assert len(check_same("漢字\n" * 200, "quote", 8)._orig) > 2


CUT_TEXTS = st.lists(TEXTS, min_size=2, max_size=8).map("字\n漢".join)  # a safe cut between each


@settings(max_examples=300, deadline=None)
@given(text=CUT_TEXTS, block=st.integers(min_value=1, max_value=16), at=st.integers(0, 10**6), size=st.integers(1, 12))
def test_regions_hold_every_occurrence(text: str, block: int, at: int, size: int) -> None:
    """Before the whole text is built, the regions found from the blocks' skeletons are
    slices of the normalized text, and every occurrence of the needle lies inside one."""
    flags = resolve_flags("quote", None)
    plain = normalize(text, flags=flags)
    assume(plain)
    needle = plain[at % len(plain) :][:size]
    lazy = LazyOffsets(text, flags, block=block)
    assume(lazy.sparse())
    regions = lazy.regions(needle)
    assume(regions is not None)
    assert regions is not None
    fine = lazy._fine_index()
    assert fine is not None and lazy._block_flags is not None
    starts = [len(normalize(text[: fine.cuts[r.lo]], flags=lazy._block_flags)) for r in regions]
    assert lazy.text == plain  # (built after the regions)
    placed = [(start, start + len(r.text)) for start, r in zip(starts, regions, strict=True)]
    for r, (a, b) in zip(regions, placed, strict=True):
        assert plain[a:b] == r.text
    pos = plain.find(needle)
    while pos != -1:
        assert any(a <= pos and pos + len(needle) <= b for a, b in placed), (needle, pos)
        pos = plain.find(needle, pos + 1)


@settings(max_examples=300, deadline=None)
@given(text=CUT_TEXTS, picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 12)), min_size=1, max_size=6))
def test_blocks_normalized_together_have_the_whole_texts_offsets(text: str, picks: list[tuple[int, int]]) -> None:
    """prefetch(): the fine blocks its needles read, normalized joined in one call (adjacent
    or not), get the texts and the original spans the whole text's offsets give them; the
    fine blocks' plain texts, joined, are the whole normalized text."""
    flags = resolve_flags("quote", None)
    full = normalize_with_offsets(text, flags=flags)
    assume(full.text)
    lazy = LazyOffsets(text, flags, block=1)
    assume(lazy.sparse())
    fine = lazy._fine_index()
    assert fine is not None and lazy._block_flags is not None
    with pytest.MonkeyPatch.context() as patch:  # (short texts: their needles' blocks are most of them)
        patch.setattr(blocks_module, "_SPARSE_UNTIL", 2.0)
        lazy.prefetch([full.text[at % len(full.text) :][:size] for at, size in picks])
    batched = sorted(fine.batched)
    assume(batched)
    assert "".join(lazy._fine_text(fine, i) for i in range(len(fine.texts))) == full.text
    for i in batched:
        start = len(normalize(text[: fine.cuts[i]], flags=lazy._block_flags))
        for j, _char in enumerate(lazy._fine_text(fine, i)):
            assert lazy._fine_span(fine, i, j) == (full.starts[start + j], full.ends[start + j])


def test_the_fine_index_cuts_after_every_safe_newline() -> None:
    text = "前置き。\n- **保守性**: 照合\nabc\n漢字\n\n末尾"
    lazy = LazyOffsets(text * 30, resolve_flags("quote", None))
    fine = lazy._fine_index()
    assert fine is not None
    assert list(fine.cuts[:5]) == [0, 5, 19, len(text) + 5, len(text) + 19]  # not after "abc" nor before "\n"
    assert all((text * 30)[c - 1] == "\n" for c in fine.cuts[1:-1])


def test_no_fine_index_when_every_sentinel_is_in_the_text() -> None:
    """A text holding every sentinel character has no fine index: regions() answers None
    and the quote check reads the whole text (same results)."""
    text = "".join(chr(c) for c in range(9)) + "漢字\n" * 300 + "保守性\n"
    lazy = LazyOffsets(text, resolve_flags("quote", None))
    assert lazy.sparse() and lazy.regions("保守性") is None


def test_a_piece_in_nfkc_of_a_text_that_is_not_keeps_chunk_spans() -> None:
    """The nfkc step maps a text already in NFKC character by character, else a combining
    sequence to its chunk: a block (or blocks joined) in NFKC, of a text that is not (①),
    is mapped as the whole text maps it (漢 + U+0301 spans both characters)."""
    text = 'あ字\n漢\u0301字\n漢あ字\n漢*字\n漢_"、①> `c`\n」[ア*字\n漢*字\n漢*'
    flags = resolve_flags("quote", None)
    full = normalize_with_offsets(text, flags=flags)
    lazy = LazyOffsets(text, flags, block=1)
    fine = lazy._fine_index()
    assert fine is not None and not fine.in_nfkc
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(blocks_module, "_SPARSE_UNTIL", 2.0)
        lazy.prefetch(["あ", "漢\u0301字"])
    assert 1 in fine.batched
    assert lazy._fine_span(fine, 1, 0) == (full.starts[2], full.ends[2]) == (3, 5)
    check_same(text, "quote", 1)


def test_needles_reading_most_of_a_text_build_it_whole() -> None:
    """prefetch() of needles whose blocks are more than half of the text builds the whole
    plain text instead (bounded work per needle afterwards), with the same results."""
    text = "照合する。\n" * 400
    lazy = LazyOffsets(text, resolve_flags("quote", None))
    assert lazy.sparse()
    lazy.prefetch(["照合"])
    assert not lazy.sparse() and lazy.text == normalize(text, preset="quote")
