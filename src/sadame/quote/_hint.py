"""The nearest passage of a missing quote: a fuzzy *hint* for people, never a verification.

Candidate places are found with a few ``str.find`` lookups (:func:`_windows`: up to 4 k-grams
of the quote, 4 occurrences each); at each, the normalized quote is aligned with the
normalized source by rapidfuzz's ``partial_ratio_alignment`` (the best-scoring window of the source, scored 0-100 by
normalized Indel similarity); a window scoring under :data:`MIN_SCORE`, or sharing no two
consecutive characters with the quote, is no hint. The
window is mapped back to the original source and kept to the lines where it shares
characters with the quote. At most 16
lookups and 16 small alignments per quote: linear in the source, whatever the input. A quote
longer than :data:`MAX_HINT_CHARS` (normalized) gets no hint: an alignment costs about the cube
of the quote's length (an output of one 9,700-character line, taken whole as its quote, took
17 s), and the eval sets' quotes are at most 75 characters.

Compared with the k-gram voting used before (on the eval sets' 65 missing quotes): the two
agree (overlapping spans) on 61 of the 63 both answer; on the two glued-sentence quotes
where they differ rapidfuzz points at the sentence the quote starts with; see
docs/guide/quote.md.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from sadame.normalize._blocks import LazyOffsets
from sadame.quote._verify import QuoteVerifier, Span

__all__ = ["MAX_HINT_CHARS", "MIN_SCORE", "NearestPassage", "nearest_passage"]

#: The lowest alignment score that is shown as a hint.
MIN_SCORE = 30.0
#: The longest quote (normalized characters) that is looked for a nearest passage.
MAX_HINT_CHARS = 400
_SAMPLES = 4  # k-grams of the quote looked up
_PER_GRAM = 4  # occurrences of each k-gram used as candidate places


@dataclass(frozen=True, slots=True)
class NearestPassage:
    """Where a missing quote is most nearly found (original offsets) and how much of it matched."""

    span: Span
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"span": self.span.to_dict(), "score": self.score}


def _clip_to_lines(source: str, span: tuple[int, int], core: tuple[int, int]) -> tuple[int, int]:
    """``span`` without what lies beyond the lines of the matched ``core`` (the hint stays on them)."""
    line_start = source.rfind("\n", 0, core[0]) + 1
    line_end = source.find("\n", core[1])
    return max(span[0], line_start), min(span[1], line_end if line_end != -1 else span[1])


def _skip_leading_marks(source: str, start: int, end: int) -> int:
    """``start`` moved past the spaces and punctuation a window may begin with (the ``: `` after a
    bold label), so the hint starts at a word; unchanged when nothing else is in the span."""
    at = start
    while at < end and (source[at].isspace() or unicodedata.category(source[at]).startswith("P")):
        at += 1
    return at if at < end else start


def _core(target: str, text: str, start: int, end: int) -> tuple[int, int] | None:
    """From the first to the last place in ``text[start:end]`` where two consecutive
    characters of ``target`` occur (None: nowhere, so no passage is near)."""
    grams = {target[i : i + 2] for i in range(min(len(target) - 1, 200))} or {target}
    found = [i for i in range(start, max(start + 1, end - 1)) if text[i : i + 2] in grams]
    if not found:
        return None
    return found[0], min(end, found[-1] + 2)


def _windows(target: str, mapped: LazyOffsets) -> list[tuple[int, int]]:
    """Windows of the normalized source where ``target`` may be: around the occurrences of a
    few evenly spaced k-grams of it (at most :data:`_SAMPLES` grams, the first
    :data:`_PER_GRAM` occurrences of each, found with ``str.find`` and kept per source), a
    quote's length of margin on each side, merged."""
    text = mapped.text
    k = 2 if len(target) <= 12 else 3
    k = min(k, len(target))
    starts = range(0, len(target) - k + 1, max(1, (len(target) - k + 1) // _SAMPLES))
    spans: list[tuple[int, int]] = []
    for offset in list(starts)[:_SAMPLES]:
        for pos in mapped.positions(target[offset : offset + k], _PER_GRAM):
            begin = pos - offset
            spans.append((max(0, begin - len(target) // 2), min(len(text), begin + len(target) + len(target) // 2)))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def nearest_passage(verifier: QuoteVerifier, quote: str, *, target: str | None = None) -> NearestPassage | None:
    """The passage of ``verifier.source`` nearest to ``quote``, or None when nothing is near (or the
    quote is over :data:`MAX_HINT_CHARS`); ``target``: ``quote`` already normalized by the verifier."""
    if target is None:
        target = verifier.normalized_quote(quote)
    mapped = verifier.mapped
    text = mapped.text
    if not target or not text or len(target) > MAX_HINT_CHARS:
        return None
    best: tuple[float, int, int] | None = None
    for a, b in _windows(target, mapped):
        alignment = fuzz.partial_ratio_alignment(target, text[a:b], score_cutoff=MIN_SCORE)
        found = alignment is not None and alignment.dest_end > alignment.dest_start
        if found and alignment is not None and (best is None or alignment.score > best[0]):
            best = (alignment.score, a + alignment.dest_start, a + alignment.dest_end)
    if best is None:
        return None
    score, start, end = best
    core = _core(target, text, start, end)
    if core is None:
        return None  # not two characters in a row in common: no passage is near
    span = mapped.original_span(start, end)
    a, b = _clip_to_lines(verifier.source, span, mapped.original_span(*core))
    a = _skip_leading_marks(verifier.source, a, b)
    return NearestPassage(Span(a, b, verifier.source[a:b]), round(float(score), 1))
