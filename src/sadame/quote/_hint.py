"""The nearest passage of a missing quote: a fuzzy *hint* for people, never a verification.

The normalized quote is cut into up to :data:`_SAMPLES` evenly spaced k-grams; each
occurrence of a k-gram in the normalized source (at most :data:`_PER_GRAM` per gram)
votes for the place the quote would start there. The start with the most votes (in
buckets of about an eighth of the quote) wins; its ``score`` is the share of k-grams
that voted for it, in percent. The work is at most ``_SAMPLES`` scans of the source:
linear, whatever the input.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sadame.quote._verify import QuoteVerifier, Span

__all__ = ["NearestPassage", "nearest_passage"]

_SAMPLES = 48
_PER_GRAM = 40
_MIN_SCORE = 15.0


@dataclass(frozen=True, slots=True)
class NearestPassage:
    """Where a missing quote is most nearly found (original offsets) and how much of it matched."""

    span: Span
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"span": self.span.to_dict(), "score": self.score}


def _votes(quote: str, text: str) -> tuple[dict[int, list[int]], int]:
    """For each implied start of the quote in ``text``: (votes, first, last matched position);
    and how many k-grams were tried."""
    k = 2 if len(quote) <= 24 else 3 if len(quote) <= 60 else 4
    k = min(k, len(quote))
    count = max(1, min(_SAMPLES, len(quote) - k + 1))
    step = max(1, (len(quote) - k + 1) // count)
    votes: dict[int, list[int]] = {}
    offsets = range(0, len(quote) - k + 1, step)
    for offset in offsets:
        gram = quote[offset : offset + k]
        pos, seen = text.find(gram), 0
        while pos != -1 and seen < _PER_GRAM:
            entry = votes.setdefault(pos - offset, [0, pos, pos + k])
            entry[0] += 1
            entry[1], entry[2] = min(entry[1], pos), max(entry[2], pos + k)
            pos, seen = text.find(gram, pos + 1), seen + 1
    return votes, len(offsets)


def _clip_to_lines(source: str, span: tuple[int, int], core: tuple[int, int]) -> tuple[int, int]:
    """``span`` without what lies beyond the lines of the matched ``core`` (the hint stays on them)."""
    line_start = source.rfind("\n", 0, core[0]) + 1
    line_end = source.find("\n", core[1])
    return max(span[0], line_start), min(span[1], line_end if line_end != -1 else span[1])


def nearest_passage(verifier: QuoteVerifier, quote: str) -> NearestPassage | None:
    """The passage of ``verifier.source`` nearest to ``quote``, or None when nothing is near."""
    target = verifier.normalized_quote(quote)
    text = verifier.normalized.text
    if not target or not text:
        return None
    votes, grams = _votes(target, text)
    if not votes:
        return None
    width = max(1, len(target) // 8)
    buckets: Counter[int] = Counter()
    for start, entry in votes.items():
        buckets[start // width] += entry[0]
    bucket, best = buckets.most_common(1)[0]
    score = round(100.0 * min(best, grams) / grams, 1)
    if score < _MIN_SCORE:
        return None
    chosen = [(start, entry) for start, entry in votes.items() if start // width == bucket]
    start = max(0, min(s for s, _ in chosen))
    end = min(len(text), max(s for s, _ in chosen) + len(target))
    core = (min(e[1] for _, e in chosen), max(e[2] for _, e in chosen))
    span = verifier.normalized.original_span(start, max(start + 1, end))
    core_span = verifier.normalized.original_span(core[0], core[1])
    a, b = _clip_to_lines(verifier.source, span, core_span)
    return NearestPassage(Span(a, b, verifier.source[a:b]), score)
