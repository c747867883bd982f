"""normalize_with_offsets maps every normalized character back to the original text."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import PRESETS, normalize, normalize_with_offsets

# Alphabet rich in what the steps touch: markdown, kana, compatibility forms, whitespace.
ALPHABET = st.sampled_from(
    [*"*_`~[]()#>-+.1 \n\t　ｶﾞｷﾞﾊﾟアイウカキャッシュあいう漢字、。・/，．！？「」ＡＢＣabcΣσİß①㈱ﬃ",
     "\u0301", "\u3099", "\ufeff", "\u0085", "\u2028", "\u00a0", "ヷ", "ー", "e", "1", "万", "億", "円", "割",
     ":", "：", ",", '"', "“", "”", "『", "』", "\u3000", " "]
)
TEXTS = st.lists(ALPHABET, max_size=40).map("".join) | st.text(max_size=30)


def _check_map(text: str, preset: str) -> None:
    mapped = normalize_with_offsets(text, preset=preset)
    assert mapped.text == normalize(text, preset=preset)
    assert len(mapped.starts) == len(mapped.ends) == len(mapped.text)
    for start, end in zip(mapped.starts, mapped.ends, strict=True):
        assert 0 <= start < end <= len(text)
    assert list(mapped.starts) == sorted(mapped.starts)
    assert list(mapped.ends) == sorted(mapped.ends)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_offsets_cover_whole_characters_in_order(preset: str, text: str) -> None:
    _check_map(text, preset)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=150, deadline=None)
@given(text=TEXTS, data=st.data())
def test_a_match_maps_back_to_a_span_that_normalizes_to_it(preset: str, text: str, data: st.DataObject) -> None:
    mapped = normalize_with_offsets(text, preset=preset)
    if not mapped.text:
        return
    start = data.draw(st.integers(0, len(mapped.text) - 1))
    end = data.draw(st.integers(start + 1, len(mapped.text)))
    a, b = mapped.original_span(start, end)
    assert 0 <= a < b <= len(text)
    span = mapped.exact_span(start, end)
    if span is not None:
        assert normalize(text[span[0] : span[1]], preset=preset) == mapped.text[start:end]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=100, deadline=None)
@given(
    before=st.text(alphabet=string.ascii_letters + "あいう 　。", max_size=15),
    quote=st.text(alphabet="安定性不足キャッシュｷｬｯｼｭ漢字かな", min_size=1, max_size=10),
    after=st.text(alphabet=string.ascii_letters + "あいう 　。", max_size=15),
)
def test_a_quoted_word_in_plain_context_has_an_exact_span(preset: str, before: str, quote: str, after: str) -> None:
    source = f"{before} {quote} {after}"
    mapped = normalize_with_offsets(source, preset=preset)
    needle = normalize(quote, preset=preset)
    index = mapped.text.find(needle)
    assert index >= 0
    span = mapped.exact_span(index, index + len(needle))
    assert span is not None
    assert normalize(source[span[0] : span[1]], preset=preset) == needle


def test_nfkc_expansion_and_contraction_map_to_the_source_character() -> None:
    mapped = normalize_with_offsets("x㍻ｶﾞy", preset="decoration")
    assert mapped.text == "x平成ガy"
    assert mapped.original_slice(1, 3) == "㍻"  # one character became two
    assert mapped.original_slice(3, 4) == "ｶﾞ"  # two characters became one


def test_markdown_quote_widens_over_the_dropped_bold() -> None:
    source = "- **安定性**: 不足している\n- 次の項目"
    mapped = normalize_with_offsets(source, preset="decoration")
    needle = normalize("安定性: 不足", preset="decoration")
    index = mapped.text.find(needle)
    span = mapped.exact_span(index, index + len(needle))
    assert span is not None
    assert source[span[0] : span[1]] == "**安定性**: 不足"


def test_collapsed_whitespace_maps_to_the_whole_run() -> None:
    source = "安定性\n\n　 不足"
    mapped = normalize_with_offsets(source, preset="decoration")
    assert mapped.text == "安定性 不足"
    assert mapped.original_slice(3, 4) == "\n\n　 "


def test_original_span_rejects_out_of_range() -> None:
    mapped = normalize_with_offsets("abc", preset="judge")
    with pytest.raises(IndexError):
        mapped.original_span(2, 5)
    assert mapped.original_span(3, 3) == (3, 3)


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_continuing_from_shared_first_steps_equals_normalizing_from_scratch(text: str) -> None:
    from dataclasses import replace

    from sadame.normalize import WhitespaceMode
    from sadame.normalize._core import continue_with_offsets

    prefix_flags = replace(PRESETS["numeric"], numeric=False, whitespace=WhitespaceMode.KEEP)
    prefix = normalize_with_offsets(text, flags=prefix_flags)
    for name, flags in PRESETS.items():
        continued = continue_with_offsets(prefix, flags)
        if name in ("judge", "issue"):  # no Markdown step: nothing shared
            assert continued is None
            continue
        assert continued == normalize_with_offsets(text, flags=flags)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=100, deadline=None)
@given(lines=st.lists(TEXTS, min_size=1, max_size=30))
def test_whitespace_by_chunks_equals_whitespace_at_once(preset: str, lines: list[str]) -> None:
    """A long text's whitespace runs are replaced a chunk at a time (bounding the peak memory
    of ``re.sub``): with chunks of a few characters, text and offsets stay those of one call."""
    from sadame.normalize import _steps

    text = "\n".join(lines)
    whole = normalize_with_offsets(text, preset=preset)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_steps, "_WS_CHUNK", 3)
        chunked = normalize_with_offsets(text, preset=preset)
        plain = normalize(text, preset=preset)
    assert (chunked.text, list(chunked.starts), list(chunked.ends)) == (whole.text, list(whole.starts), list(whole.ends))
    assert plain == whole.text


def test_identity_maps_are_counting_and_never_shared() -> None:
    from sadame.normalize._steps import _KEPT_COUNTING, _counting

    for size in (0, 1, 5000, 3, _KEPT_COUNTING, _KEPT_COUNTING + 7, 10):
        first = _counting(size)
        assert list(first) == list(range(size))
        if size:
            first[0] = 99  # a caller's own copy: the next map is unchanged
            assert _counting(size)[0] == 0
