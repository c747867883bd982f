"""Property tests: reported spans normalize to the normalized quote; batch == one by one."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sadame.normalize import normalize, normalize_with_offsets
from sadame.quote import QuoteResult, verify_quote, verify_quotes
from sadame.quote._verify import Span

# Characters that exercise every step: kana/kanji, full- and half-width forms,
# Markdown delimiters and markers, whitespace kinds, ellipses and an NFKC expansion.
ALPHABET = "安定性不足のがア イｱｲﾎﾟ１２12aAＡ*_`~#->1.\n\t\u3000 …・（中略）()[]㈱%円万億"

texts = st.text(alphabet=ALPHABET, max_size=60)
FRAGMENTS = [
    "- **安定性**: 不足",
    "`cache` が",
    "__運用__",
    "~~旧~~",
    "*新規*",
    "[ガイド](u)",
    "## 見出し",
    "1. 項目",
    "> 引用",
    "ｻﾎﾟｰﾄ",
    "１億２０００万円",
    "3割",
    "令和8年7月18日",
    "\n",
    "\u3000",
    "  ",
    "……",
    "㈱",
]
sources = st.lists(st.one_of(st.sampled_from(FRAGMENTS), texts), max_size=8).map("".join)
presets = st.sampled_from(["decoration", "numeric", "judge"])


@st.composite
def source_and_quote(draw: st.DrawFn) -> tuple[str, str]:
    source = draw(sources)
    if source and draw(st.booleans()):
        i = draw(st.integers(0, len(source) - 1))
        j = draw(st.integers(i + 1, len(source)))
        quote = source[i:j]
        # LLM-style damage: drop decoration characters or re-space
        if draw(st.booleans()):
            quote = quote.replace("*", "").replace("`", "")
        if draw(st.booleans()):
            quote = quote.replace("\n", " ")
        if draw(st.booleans()):  # the LLM quoted the cleaned-up text
            quote = normalize(quote, preset="decoration")
        if len(quote) > 2 and draw(st.booleans()):  # elide a middle chunk
            a = draw(st.integers(1, len(quote) - 1))
            b = draw(st.integers(a, len(quote) - 1))
            quote = quote[:a] + draw(st.sampled_from(["…", "……", "...", "（中略）"])) + quote[b:]
        return source, quote
    return source, draw(texts)


def _check_spans(result: QuoteResult, source: str, preset: str) -> None:
    spans = list(result.spans)
    if result.span is not None:
        spans.append(result.span)
    for span in spans:
        assert source[span.start : span.end] == span.text
    if result.status not in ("exact", "normalized"):
        return
    assert result.span is not None and result.occurrences >= 1
    if result.parts:
        for part in result.parts:
            assert part.found and part.span is not None
            part_wanted = normalize(part.text, preset=preset)
            assert (
                normalize(part.span.text, preset=preset) == part_wanted
                or _in_context(source, part.span, preset) == part_wanted
            )
        starts = [p.span.start for p in result.parts if p.span]
        assert starts == sorted(starts)
    else:
        wanted = normalize(result.quote, preset=preset)
        for span in result.spans:
            assert normalize(span.text, preset=preset) == wanted or _in_context(source, span, preset) == wanted


def _in_context(source: str, span: Span, preset: str) -> str:
    """What the source's normalization made of exactly the characters of ``span``
    (a span aligned in context: its own normalization may differ, as for ``守性**: x``)."""
    nt = normalize_with_offsets(source, preset=preset)
    inside = [i for i in range(len(nt.text)) if span.start <= nt.starts[i] and nt.ends[i] <= span.end]
    outside_touch = [
        i for i in range(len(nt.text)) if nt.starts[i] < span.end and nt.ends[i] > span.start and i not in inside
    ]
    assert not outside_touch  # no character straddles the span's edges
    return "".join(nt.text[i] for i in inside)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source_and_quote(), presets)
def test_every_reported_span_normalizes_to_the_normalized_quote(pair: tuple[str, str], preset: str) -> None:
    source, quote = pair
    result = verify_quote(quote, source, preset=preset)
    _check_spans(result, source, preset)
    if result.status != "invalid" and not result.parts:
        assert (result.status == "exact") == (quote in source)
    if result.status == "exact" and result.parts:
        assert all(p.text in source for p in result.parts)


@settings(max_examples=100, deadline=None)
@given(sources, st.lists(texts, max_size=6), presets)
def test_verify_quotes_equals_verify_quote_one_by_one(source: str, quotes: list[str], preset: str) -> None:
    batch = verify_quotes(quotes, source, preset=preset)
    assert batch == [verify_quote(q, source, preset=preset) for q in quotes]
    assert [r.quote for r in batch] == quotes
