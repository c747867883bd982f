"""Verbatim quote verification: does a quote really appear in its source, and where?

The source is normalized **once** per process (kept by :func:`source_map`, a small cache
shared by every verifier): on the plain path, a block of lines at a time, with offsets
computed only for the blocks around a hit (:class:`sadame.normalize._blocks.LazyOffsets`;
the same spans as :func:`sadame.normalize.normalize_with_offsets`, which the tests compare).
Each quote is normalized with the same preset and looked up with ``str.find`` in the
normalized source. A hit is mapped back to the original source, so every result
carries the span of the *original* text the quote came from.

Statuses, in the order they are tried:

* ``invalid``   -- the quote cannot be checked: not a string, empty, whitespace only,
  only an ellipsis, or normalizes to empty text under the preset (``reason`` says which).
* ``exact``     -- the raw quote is a substring of the raw source (the raw span is reported).
* ``normalized``-- found only after the preset (``- **安定性**: 不足`` quoted as ``安定性: 不足``).
* ``fuzzy``     -- only when the caller passes ``fuzzy=True``: the best approximate
  alignment (rapidfuzz ``partial_ratio_alignment`` on the normalized texts), with its
  ``score`` (0-100). Verified only when the caller also passes ``threshold`` and the
  score meets it. Verbatim is the contract; fuzzy is a diagnostic.
* ``missing``   -- none of the above.

Occurrences: ``spans`` holds the non-overlapping occurrences (leftmost first, at
most ``max_spans``), ``span`` the first one, ``occurrences`` their number and
``ambiguous`` is true when there is more than one; ``truncated`` is true when the
source has more occurrences than ``max_spans`` (they are not reported). ``exact``
results count raw occurrences; ``normalized`` results count normalized ones.

Ellipsis quotes (``...``, ``…``, ``……``, ``‥``, ``・・・``, ``（中略）``, ``(中略)``,
``[中略]``): a quote of more than :data:`MAX_PARTS` parts is ``invalid``; the whole quote is tried first; if it is not found it is split at the
markers and the parts must appear in order, without overlapping (leftmost match of
each part after the previous one). Each part's span is reported in ``parts``; ``span``
runs from the first part's start to the last part's end. For a split quote
``occurrences`` is 1 and ``ambiguous`` says whether any part occurs more than once.
Fuzzy alignment is not applied to split quotes.

Spans are *aligned*: the original text of a reported span, normalized alone with the
same preset, equals the normalized quote. Around a hit the span is widened over
characters the preset deleted (the ``**`` of a bold pair), so ``安定性: 不足`` maps to
``**安定性**: 不足``. When no span normalizes alone to the quote because the source's
context decides (a quote starting inside a bold label: ``守性: tools`` from
``- **保守性**: tools``, whose ``**`` is deleted only together with its opener), the span
is aligned *in context*: it covers exactly the source characters that produced the hit,
and no character that produced anything outside it. A hit that cannot be aligned
either way (for example ``株`` inside ``㈱``, which normalizes to ``(株)``) is not
reported. At most 100 unalignable hits are examined
per lookup, and the characters normalized while aligning one quote are capped
(:data:`ALIGN_BUDGET`; a quote whose search stopped there is ``missing`` with a reason
saying so), which bounds the work on adversarial sources: every lookup is linear in the
source and the quote.

No regular expression is ever built from user text; lookups are ``str.find`` (a batch's raw
lookups: one Aho-Corasick pass over the source for all its quotes, ``pyahocorasick``).
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import ahocorasick

from sadame.normalize import NormalizeFlags, normalize, normalize_with_offsets
from sadame.normalize._blocks import BLOCK, FULL_AFTER, LazyOffsets, Region, splits
from sadame.normalize._core import NormalizedText
from sadame.normalize._presets import resolve_flags

__all__ = [
    "ALIGN_BUDGET",
    "DEFAULT_MAX_SPANS",
    "ELLIPSIS_MARKERS",
    "MAX_MAPPED_CHARS",
    "MAX_PARTS",
    "VERIFIED_STATUSES",
    "QuotePart",
    "QuoteResult",
    "QuoteStatus",
    "QuoteVerifier",
    "Span",
    "source_map",
    "split_ellipsis",
    "verify_quote",
    "verify_quotes",
]

QuoteStatus = Literal["exact", "normalized", "fuzzy", "missing", "invalid"]
QUOTE_STATUSES: tuple[str, ...] = get_args(QuoteStatus)

#: Statuses that count as verified without any threshold.
VERIFIED_STATUSES: frozenset[str] = frozenset({"exact", "normalized"})

#: Default cap on the spans reported per quote (``occurrences`` is capped with it).
DEFAULT_MAX_SPANS = 100

#: The most parts an ellipsis quote may have (more is ``invalid``): each part is a
#: lookup in the source, so the parts bound the work per quote.
MAX_PARTS = 64

#: Characters normalized while aligning the hits of one quote before the search stops.
ALIGN_BUDGET = 1_000_000

#: The ellipsis markers a quote is split at (documentation; the pattern below is fixed).
ELLIPSIS_MARKERS: tuple[str, ...] = (
    "...",
    "…",
    "……",
    "‥",
    "・・・",
    "（中略）",
    "(中略)",
    "[中略]",
    "［中略］",
)

# A fixed pattern (never built from user text): runs of dots/leaders or a 中略 marker,
# with the spaces around them. Linear: each alternative is a single character class run.
_ELLIPSIS = re.compile(r"[ \t\u3000]*(?:[（(\[［]中略[）)\]］]|…+|‥+|\.{3,}|・{3,})[ \t\u3000]*")

# Every match of _ELLIPSIS contains one of these.
_MARKER_CORE = re.compile(r"…|‥|\.\.\.|・・・|中略")
_SURVIVES = re.compile("[\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff]")
_MAX_WIDEN = 8  # deleted characters tried one by one on each side of a hit
_MAX_UNALIGNED = 100  # unalignable hits examined per lookup before giving up (bounds the work)

#: Source characters whose normalized text (and offsets, as computed) :func:`source_map` keeps.
MAX_MAPPED_CHARS = 2_000_000
_MAX_MAPPED = 16
_WINDOW_CHARS = 3 * BLOCK  # about the original characters of one hit's window of offsets
#: Source characters under which a batch of many quotes takes the whole source's offsets at
#: once rather than its quotes' fine blocks (:meth:`LazyOffsets.prefetch`): on a short source
#: their hits cover much of it, and the per-quote work of the sparse path costs more.
_SPARSE_FROM = 8_192


class _MapCache:
    """Normalized sources by (flags, source), least recently used first out."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[NormalizeFlags, str], LazyOffsets] = OrderedDict()
        self._chars = 0

    def peek(self, source: str, flags: NormalizeFlags) -> LazyOffsets | None:
        """The kept map of ``source``, or None (nothing is built)."""
        with self._lock:
            return self._items.get((flags, source))

    def get(self, source: str, flags: NormalizeFlags, full: NormalizedText | None, eager: bool) -> LazyOffsets:
        key = (flags, source)  # a str caches its hash: a repeated source costs one comparison
        with self._lock:
            found = self._items.get(key)
            if found is not None and (full is None or found.has_full()):
                self._items.move_to_end(key)
                return found
        if full is None and eager:
            full = normalize_with_offsets(source, flags=flags)
        built = LazyOffsets(source, flags, full=full)  # outside the lock
        if len(source) > MAX_MAPPED_CHARS:
            return built
        with self._lock:
            old = self._items.pop(key, None)
            self._chars += len(source) - (len(old.original) if old is not None else 0)
            self._items[key] = built
            while len(self._items) > _MAX_MAPPED or self._chars > MAX_MAPPED_CHARS:
                _key, gone = self._items.popitem(last=False)
                self._chars -= len(gone.original)
        return built


_maps = _MapCache()


def source_map(
    source: str, preset: str, full: NormalizedText | None = None, *, eager: bool = False
) -> LazyOffsets:
    """``source`` normalized with ``preset``, offsets on demand, built once per process
    (``full``: its offsets, already computed; ``eager``: compute them now when building)."""
    return _maps.get(source, resolve_flags(preset, None), full, eager)


@dataclass(frozen=True, slots=True)
class Span:
    """A span of the original source: ``source[start:end] == text``."""

    start: int
    end: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text}


@dataclass(frozen=True, slots=True)
class QuotePart:
    """One part of an ellipsis quote and where it was found (``span`` is None if not)."""

    text: str
    found: bool
    span: Span | None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "found": self.found, "span": self.span.to_dict() if self.span else None}


@dataclass(frozen=True, slots=True)
class QuoteResult:
    """The verdict on one quote. See the module docstring for the statuses."""

    quote: str
    status: QuoteStatus
    verified: bool
    preset: str
    span: Span | None = None
    spans: tuple[Span, ...] = ()
    occurrences: int = 0
    ambiguous: bool = False
    parts: tuple[QuotePart, ...] = ()
    score: float | None = None
    reason: str = ""
    truncated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (spans as ``{"start", "end", "text"}``)."""
        return {
            "quote": self.quote,
            "status": self.status,
            "verified": self.verified,
            "preset": self.preset,
            "span": self.span.to_dict() if self.span else None,
            "spans": [s.to_dict() for s in self.spans],
            "occurrences": self.occurrences,
            "ambiguous": self.ambiguous,
            "truncated": self.truncated,
            "parts": [p.to_dict() for p in self.parts],
            "score": self.score,
            "reason": self.reason,
        }


def split_ellipsis(quote: str) -> list[str]:
    """The parts of ``quote`` between ellipsis markers (empty parts dropped).

    >>> split_ellipsis("売上は…（中略）…増加した")
    ['売上は', '増加した']
    >>> split_ellipsis("省略なし")
    ['省略なし']
    """
    if _MARKER_CORE.search(quote) is None:  # the common case, without the splitting pattern
        return [quote] if quote else []
    return [part for part in _ELLIPSIS.split(quote) if part]


@dataclass(slots=True)
class _Hit:
    norm_start: int
    norm_end: int
    span: Span


@dataclass(slots=True)
class _Search:
    """The bounds of one :meth:`QuoteVerifier.verify` call (per call, so a verifier
    shared across threads keeps no mutable state of its own)."""

    budget: int = ALIGN_BUDGET
    unaligned: int = 0


@dataclass(slots=True)
class QuoteVerifier:
    """Checks many quotes against one source, normalizing the source at most once.

    The normalized source is computed lazily (and kept by :func:`source_map`): a batch of
    quotes that are all raw substrings never pays for normalization.

    >>> v = QuoteVerifier("- **安定性**: 不足している")
    >>> r = v.verify("安定性: 不足")
    >>> r.status, r.span.text
    ('normalized', '**安定性**: 不足')
    """

    source: str
    preset: str = "quote"
    fuzzy: bool = False
    threshold: float | None = None
    max_spans: int = DEFAULT_MAX_SPANS
    _normalized: LazyOffsets | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.source, str):
            raise TypeError(f"source must be a str, got {type(self.source).__name__}")
        normalize("", preset=self.preset)  # raises on an unknown preset, before any quote
        if self.threshold is not None:
            if not self.fuzzy:
                raise ValueError("threshold only applies to fuzzy matching: pass fuzzy=True")
            if isinstance(self.threshold, bool) or not 0 <= float(self.threshold) <= 100:
                raise ValueError(f"threshold must be a score between 0 and 100, got {self.threshold!r}")
        if isinstance(self.max_spans, bool) or not isinstance(self.max_spans, int) or self.max_spans < 1:
            raise ValueError(f"max_spans must be a positive int, got {self.max_spans!r}")

    @property
    def mapped(self) -> LazyOffsets:
        """The source normalized with :attr:`preset`, offsets on demand (computed once)."""
        if self._normalized is None:
            self._normalized = source_map(self.source, self.preset)
        return self._normalized

    @property
    def normalized(self) -> NormalizedText:
        """The source normalized with :attr:`preset`, with the offsets of the whole text."""
        return self.mapped.full()

    def use_normalized(self, normalized: NormalizedText) -> None:
        """Adopt an already computed :attr:`normalized` (the source with this preset's
        flags, with offsets: see :func:`sadame.quote._cache.prepare_source`)."""
        if normalized.original != self.source or normalized.flags != resolve_flags(self.preset, None):
            raise ValueError("not this source normalized with this preset")
        self._normalized = source_map(self.source, self.preset, normalized)

    # -- public -------------------------------------------------------------------

    def normalized_quote(self, quote: str) -> str:
        """``quote`` normalized with :attr:`preset` (what is looked up in :attr:`normalized`)."""
        return normalize(quote, preset=self.preset)

    def verify(self, quote: object) -> QuoteResult:
        """The verdict on one quote (never raises for a bad quote: status ``invalid``)."""
        return self._verify(quote, eager=False)

    def _verify(self, quote: object, eager: bool, raw_spans: list[Span] | None = None) -> QuoteResult:
        """:meth:`verify` (``eager``: the whole source's offsets when first needed;
        ``raw_spans``: the quote's raw occurrences, already looked up)."""
        if not isinstance(quote, str):
            return self._invalid(_describe(quote), f"quote is {type(quote).__name__}, not a string")
        if quote == "":
            return self._invalid(quote, "empty quote")
        # A kana or kanji survives every step of every preset, so such a quote never
        # normalizes to empty text: when it is a raw substring, it is not normalized at all.
        norm_quote = None if _SURVIVES.search(quote) else self._normalize(quote)
        if norm_quote == "":
            if not quote.strip():
                return self._invalid(quote, "quote is only whitespace")
            return self._invalid(quote, f"quote normalizes to empty text under preset {self.preset!r}")
        parts = split_ellipsis(quote)
        if not parts:
            return self._invalid(quote, "quote is only an ellipsis")
        if len(parts) > MAX_PARTS:
            return self._invalid(quote, f"quote has {len(parts)} ellipsis parts (at most {MAX_PARTS})")
        search = _Search()
        raw = self._raw_hits(quote, limit=self.max_spans + 1) if raw_spans is None else raw_spans
        if raw:
            return self._found(quote, "exact", raw)
        if norm_quote is None:
            norm_quote = self._normalize(quote)
        if eager and self._normalized is None:
            self._normalized = source_map(self.source, self.preset, eager=True)
        hits = self._norm_hits(search, norm_quote, limit=self.max_spans + 1)
        if hits:
            return self._found(quote, "normalized", [h.span for h in hits])
        inside_only = search.unaligned > 0  # the lookup saw the quote, but never on whole characters
        if len(parts) > 1 or parts[0] != quote:
            split = self._verify_parts(search, quote, parts)
            if split is not None:
                return split
        return self._missing(search, quote, norm_quote, inside_only)

    def _normalize(self, quote: str) -> str:
        """``quote`` normalized with :attr:`preset` (kept with the source's map, if any)."""
        lazy = self._normalized
        return normalize(quote, preset=self.preset) if lazy is None else lazy.normalized(quote)

    def verify_many(self, quotes: Iterable[object]) -> list[QuoteResult]:
        """One result per input quote, in input order.

        On a source never seen, cut into blocks: the quotes that are not raw substrings are
        normalized first, and the fine blocks their lookups read are normalized with offsets
        in one call (:meth:`LazyOffsets.prefetch`); the source's whole text is never built.
        Many quotes for the size of a source under :data:`_SPARSE_FROM` characters, or one whose
        flags are not cut into blocks (their hits' windows of offsets would cover more of it than
        :data:`sadame.normalize._blocks.FULL_AFTER`), take the whole source's offsets at once."""
        listed = list(quotes)
        if self._normalized is None:  # a source checked again: its kept map, without building one
            self._normalized = _maps.peek(self.source, resolve_flags(self.preset, None))
        eager = len(listed) * _WINDOW_CHARS > FULL_AFTER * len(self.source) and (
            len(self.source) < _SPARSE_FROM or not splits(resolve_flags(self.preset, None))
        )
        raw: dict[str, list[Span]] = {} if eager else self._prefetch(listed)
        return [self._verify(q, eager, raw.get(q)) if isinstance(q, str) else self._verify(q, eager) for q in listed]

    def _prefetch(self, quotes: list[object]) -> dict[str, list[Span]]:
        """The raw occurrences (at most ``max_spans + 1``, as :meth:`_raw_hits` finds them) of
        each quote looked up whole (no ellipsis), from one pass over the source
        (:func:`_raw_occurrences`); on a source cut into blocks and not yet built, the blocks
        the lookups of those that are not raw substrings read are normalized with offsets at
        once (:meth:`LazyOffsets.prefetch`)."""
        whole = list(dict.fromkeys(
            q for q in quotes if isinstance(q, str) and q and _MARKER_CORE.search(q) is None
        ))
        raw = _raw_occurrences(self.source, whole, self.max_spans + 1)
        if raw is None:  # (too many raw matches for one pass: a lookup per quote)
            raw = {q: self._raw_hits(q, limit=self.max_spans + 1) for q in whole}
        not_raw = [q for q in whole if not raw[q]]
        if not not_raw:
            return raw
        lazy = self.mapped
        if lazy.sparse():
            needles = [lazy.normalized(q) for q in not_raw]
            lazy.prefetch(sorted(n for n in needles if n))
        return raw

    # -- searching ----------------------------------------------------------------

    def _raw_hits(self, quote: str, start: int = 0, limit: int | None = None) -> list[Span]:
        limit = self.max_spans if limit is None else limit
        spans: list[Span] = []
        pos = self.source.find(quote, start)
        while pos != -1 and len(spans) < limit:
            spans.append(Span(pos, pos + len(quote), quote))
            pos = self.source.find(quote, pos + len(quote))
        return spans

    def _norm_hits(
        self, search: _Search, norm_quote: str, start: int = 0, limit: int | None = None, *, sparse: bool = True
    ) -> list[_Hit]:
        """The aligned occurrences of ``norm_quote`` from normalized ``start`` on, as a
        ``str.find`` loop over the whole normalized source finds them. Before the whole
        text is built (a source never seen), the blocks that can hold it are found from the
        blocks' skeletons (:meth:`LazyOffsets.regions`) and only those are normalized; the
        hits are the same, in the same order (their normalized positions are then unknown:
        ``sparse=False`` where a caller needs them)."""
        limit = self.max_spans if limit is None else limit
        lazy = self.mapped
        if sparse and start == 0 and lazy.sparse():
            regions = lazy.regions(norm_quote)
            if regions is not None:
                return self._region_hits(search, norm_quote, regions, limit, placed=False)
        if start == 0:
            whole = lazy.whole()
            if whole is not None:
                return self._region_hits(search, norm_quote, [whole], limit, placed=True)
        text = lazy.text
        hits: list[_Hit] = []
        unaligned = 0
        pos = text.find(norm_quote, start)
        while pos != -1 and len(hits) < limit and unaligned < _MAX_UNALIGNED and search.budget > 0:
            end = pos + len(norm_quote)
            span = self._aligned_span(search, pos, end, norm_quote)
            if span is not None:
                hits.append(_Hit(pos, end, span))
                pos = text.find(norm_quote, end)
            else:
                unaligned += 1
                search.unaligned += 1
                pos = text.find(norm_quote, pos + 1)
        return hits

    def _region_hits(
        self, search: _Search, norm_quote: str, regions: list[Region], limit: int, *, placed: bool
    ) -> list[_Hit]:
        """:meth:`_norm_hits`'s loop over the regions, in order (no occurrence crosses one);
        ``placed``: the one region is the whole text (the hits' positions are then known)."""
        lazy = self.mapped
        hits: list[_Hit] = []
        unaligned = 0
        for region in regions:
            text = region.text
            pos = text.find(norm_quote)
            while pos != -1 and len(hits) < limit and unaligned < _MAX_UNALIGNED and search.budget > 0:
                end = pos + len(norm_quote)
                first, last = lazy.char_span(region, pos), lazy.char_span(region, end - 1)
                assert first is not None and last is not None
                prev, after = lazy.char_span(region, pos - 1), lazy.char_span(region, end)
                span = self._align(
                    search, first[0], last[1], None if prev is None else prev[1], None if after is None else after[0],
                    norm_quote,
                )
                if span is not None:
                    hits.append(_Hit(pos, end, span) if placed else _Hit(-1, -1, span))
                    pos = text.find(norm_quote, end)
                else:
                    unaligned += 1
                    search.unaligned += 1
                    pos = text.find(norm_quote, pos + 1)
            if len(hits) >= limit or unaligned >= _MAX_UNALIGNED or search.budget <= 0:
                break
        return hits

    def _aligned_span(self, search: _Search, start: int, end: int, norm_quote: str) -> Span | None:
        """The smallest original span around normalized ``[start, end)`` that
        normalizes to exactly ``norm_quote``, widened over deleted characters if needed;
        else the span aligned in context (see the module docstring); else None."""
        lazy = self.mapped
        w, n, o = lazy.window(start - 1, end + 1)  # the offsets of the hit and its two neighbours
        a_min, b_min = w.original_span(start - n, end - n)
        before = w.ends[start - 1 - n] + o if start > 0 else None
        after = w.starts[end - n] + o if end < len(lazy.text) else None
        return self._align(search, a_min + o, b_min + o, before, after, norm_quote)

    def _align(
        self, search: _Search, a_min: int, b_min: int, before: int | None, after: int | None, norm_quote: str
    ) -> Span | None:
        """:meth:`_aligned_span` from the hit's original span and the original end of the
        normalized character before it / start of the one after (None: none there)."""
        lazy = self.mapped
        a_max = min(before, a_min) if before is not None else 0
        b_max = max(after, b_min) if after is not None else len(self.source)
        if search.budget <= 0:
            return None
        search.budget -= b_min - a_min  # the smallest span first (the commonest answer)
        if lazy.piece(a_min, b_min) == norm_quote:
            return Span(a_min, b_min, self.source[a_min:b_min])
        lefts = [a_min - k for k in range(min(a_min - a_max, _MAX_WIDEN) + 1)]
        rights = [b_min + k for k in range(min(b_max - b_min, _MAX_WIDEN) + 1)]
        if lefts[-1] != a_max:
            lefts.append(a_max)
        if rights[-1] != b_max:
            rights.append(b_max)
        candidates = sorted([(b - a, i, a, b) for i, (a, b) in enumerate(itertools.product(lefts, rights))])
        for _size, _i, a, b in candidates[1:]:  # (the first is the smallest span, tried above)
            if search.budget <= 0:
                return None
            search.budget -= b - a
            if lazy.piece(a, b) == norm_quote:  # normalize(source[a:b]), kept per source
                return Span(a, b, self.source[a:b])
        # In context: no character before the hit nor after it came from inside the span.
        if (before is None or before <= a_min) and (after is None or after >= b_min):
            return Span(a_min, b_min, self.source[a_min:b_min])
        return None

    def _verify_parts(self, search: _Search, quote: str, parts: list[str]) -> QuoteResult | None:
        """Ellipsis parts in order: raw first, then normalized. None when no part
        has any text left after normalization (the caller reports ``missing``)."""
        norm_parts = [normalize(p, preset=self.preset) for p in parts]
        kept = [(p, n) for p, n in zip(parts, norm_parts, strict=True) if n]
        if not kept:
            return None
        if len(kept) == 1:
            raw_part, norm_part = kept[0]
            raw = self._raw_hits(raw_part, limit=self.max_spans + 1)
            if raw:
                return self._found(quote, "exact", raw, parts=(QuotePart(raw_part, True, raw[0]),))
            hits = self._norm_hits(search, norm_part, limit=self.max_spans + 1)
            if hits:
                spans = [h.span for h in hits]
                return self._found(quote, "normalized", spans, parts=(QuotePart(raw_part, True, spans[0]),))
            return self._result(
                quote,
                "missing",
                parts=(QuotePart(raw_part, False, None),),
                reason="the only part left after the ellipsis was not found",
            )

        raw_spans = self._raw_in_order([p for p, _ in kept])
        if raw_spans is not None:
            ambiguous = any(len(self._raw_hits(p, limit=2)) > 1 for p, _ in kept)
            return self._split_found(quote, "exact", kept, raw_spans, ambiguous)
        found: list[Span] = []
        pos = 0
        for _, norm_part in kept:
            hits = self._norm_hits(search, norm_part, start=pos, limit=1, sparse=False)
            if not hits:
                break
            found.append(hits[0].span)
            pos = hits[0].norm_end
        if len(found) == len(kept):
            ambiguous = any(len(self._norm_hits(search, n, limit=2)) > 1 for _, n in kept)
            return self._split_found(quote, "normalized", kept, found, ambiguous)
        part_results = tuple(
            QuotePart(p, i < len(found), found[i] if i < len(found) else None)
            for i, (p, _) in enumerate(kept)
        )
        missing_at = len(found) + 1
        where = f" after part {len(found)}" if found else ""
        return self._result(
            quote,
            "missing",
            parts=part_results,
            reason=f"ellipsis part {missing_at} of {len(kept)} not found{where}",
        )

    def _raw_in_order(self, raw_parts: list[str]) -> list[Span] | None:
        spans: list[Span] = []
        pos = 0
        for part in raw_parts:
            hits = self._raw_hits(part, start=pos, limit=1)
            if not hits:
                return None
            spans.append(hits[0])
            pos = hits[0].end
        return spans

    # -- results ------------------------------------------------------------------

    def _result(self, quote: str, status: QuoteStatus, **kwargs: Any) -> QuoteResult:
        verified = status in VERIFIED_STATUSES
        score = kwargs.get("score")
        if status == "fuzzy" and self.threshold is not None and score is not None:
            verified = score >= self.threshold
        return QuoteResult(quote=quote, status=status, verified=verified, preset=self.preset, **kwargs)

    def _invalid(self, quote: str, reason: str) -> QuoteResult:
        return self._result(quote, "invalid", reason=reason)

    def _found(
        self, quote: str, status: QuoteStatus, spans: list[Span], parts: tuple[QuotePart, ...] = ()
    ) -> QuoteResult:
        """A found quote; ``spans`` may hold one more than ``max_spans`` (then it is truncated)."""
        truncated = len(spans) > self.max_spans
        spans = spans[: self.max_spans]
        return QuoteResult(
            quote, status, status in VERIFIED_STATUSES, self.preset, spans[0], tuple(spans), len(spans),
            len(spans) > 1, parts, truncated=truncated,
        )

    def _split_found(
        self, quote: str, status: QuoteStatus, kept: list[tuple[str, str]], spans: list[Span], ambiguous: bool
    ) -> QuoteResult:
        whole = Span(spans[0].start, spans[-1].end, self.source[spans[0].start : spans[-1].end])
        parts = tuple(QuotePart(p, True, s) for (p, _), s in zip(kept, spans, strict=True))
        return self._result(
            quote, status, span=whole, spans=(whole,), occurrences=1, ambiguous=ambiguous, parts=parts
        )

    def _missing(self, search: _Search, quote: str, norm_quote: str, inside_only: bool) -> QuoteResult:
        if self.mapped.shorter_than(len(norm_quote)):
            return self._result(quote, "missing", reason="quote is longer than the source")
        if not self.fuzzy and search.budget > 0 and not inside_only:  # the commonest answer
            return QuoteResult(quote, "missing", False, self.preset, reason="not found, even after normalization")
        if not self.fuzzy:
            if search.budget <= 0:
                return self._result(
                    quote, "missing", reason="search stopped: too many hits that do not align with the source"
                )
            if inside_only:
                return self._result(
                    quote,
                    "missing",
                    reason="found only inside source characters that normalize to more than the quote",
                )
            return self._result(quote, "missing", reason="not found, even after normalization")
        return self._fuzzy(quote, norm_quote)

    def _fuzzy(self, quote: str, norm_quote: str) -> QuoteResult:
        from rapidfuzz import fuzz

        text = self.mapped.text
        alignment = fuzz.partial_ratio_alignment(norm_quote, text)
        if alignment is None or alignment.dest_end <= alignment.dest_start or alignment.score <= 0:
            return self._result(quote, "missing", score=0.0, reason="no approximate alignment")
        a, b = self.mapped.original_span(alignment.dest_start, alignment.dest_end)
        span = Span(a, b, self.source[a:b])
        score = round(float(alignment.score), 2)
        return self._result(
            quote,
            "fuzzy",
            span=span,
            spans=(span,),
            occurrences=1,
            score=score,
            reason="not found verbatim; approximate alignment only",
        )


#: Raw matches :func:`_raw_occurrences` reads per quote before it leaves the lookups to
#: ``str.find`` (a source made of one quote repeated: the finds stop at the cap, a pass does not).
_MAX_RAW_MATCHES = 64
#: Distinct quotes from which one pass costs less than a ``str.find`` loop per quote (a find
#: skips about 60 times faster per character than the automaton steps; a quote found raw is
#: looked up past its first occurrence too).
_PASS_FROM = 48


def _raw_occurrences(source: str, quotes: list[str], limit: int) -> dict[str, list[Span]] | None:
    """The first ``limit`` non-overlapping occurrences of each of ``quotes`` (distinct, not
    empty) in ``source``, leftmost first, as a ``str.find`` loop finds them: from one
    Aho-Corasick pass over the source instead of a pass per quote. None for fewer than
    :data:`_PASS_FROM` quotes, and when the pass finds more than :data:`_MAX_RAW_MATCHES`
    matches per quote (overlapping ones count)."""
    if len(quotes) < _PASS_FROM:
        return None
    automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
    for i, quote in enumerate(quotes):
        automaton.add_word(quote, i)
    automaton.make_automaton()
    found: list[list[Span]] = [[] for _ in quotes]
    ends = [0] * len(quotes)  # where each quote's last occurrence kept ends
    lengths = [len(q) for q in quotes]
    cap = _MAX_RAW_MATCHES * len(quotes)
    for count, (last, i) in enumerate(automaton.iter(source)):
        if count >= cap:
            return None
        start = last + 1 - lengths[i]
        spans = found[i]
        if start >= ends[i] and len(spans) < limit:
            spans.append(Span(start, last + 1, quotes[i]))
            ends[i] = last + 1
    return dict(zip(quotes, found, strict=True))


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def verify_quote(
    quote: str,
    source: str,
    preset: str = "quote",
    *,
    fuzzy: bool = False,
    threshold: float | None = None,
    max_spans: int = DEFAULT_MAX_SPANS,
) -> QuoteResult:
    """Check that ``quote`` appears in ``source`` (see the module docstring).

    >>> r = verify_quote("安定性: 不足", "- **安定性**: 不足している")
    >>> r.status, r.verified, (r.span.start, r.span.end)
    ('normalized', True, (2, 13))
    """
    verifier = QuoteVerifier(source, preset, fuzzy=fuzzy, threshold=threshold, max_spans=max_spans)
    return verifier.verify(quote)


def verify_quotes(
    quotes: Iterable[object],
    source: str,
    preset: str = "quote",
    *,
    fuzzy: bool = False,
    threshold: float | None = None,
    max_spans: int = DEFAULT_MAX_SPANS,
) -> list[QuoteResult]:
    """Check many quotes against one source, normalizing the source once.

    Equal, element for element, to ``[verify_quote(q, source, ...) for q in quotes]``.
    """
    verifier = QuoteVerifier(source, preset, fuzzy=fuzzy, threshold=threshold, max_spans=max_spans)
    return verifier.verify_many(quotes)
