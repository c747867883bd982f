"""The quote checker: one call behind ``sadame quote check`` and the web page.

:func:`check_output` finds the quotes of an LLM output (:func:`extract_quotes`),
verifies them against the source with one :class:`QuoteVerifier` (the source is
normalized once), grounds the numbers of the whole output (:class:`NumberIndex`),
gives every missing quote its nearest passage as a labelled fuzzy hint
(:func:`nearest_passage`, never counted as verified), and cuts the source into
segments for highlighting: each segment says which quote (the lowest-numbered of
those covering it, and how many) and which grounded number covers it.

Output is bounded: at most :data:`MAX_QUOTES` quotes (the summary's ``unchecked`` counts the
quotes past the cap, which are not checked), :data:`CHECK_MAX_SPANS` spans
per quote, :data:`MAX_HINTS` hints, and the grounding caps; segments are built with
one sweep over the sorted span boundaries (O(s log s) in the number of spans).

A check also has a deadline (:data:`CHECK_DEADLINE_SECONDS`, the ``deadline`` keyword): the
quotes not yet checked when it passes are not checked, and the summary's ``timed_out`` (present
only then) counts them. It is read between steps, so a check that finishes in time is unchanged.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sadame.quote._cache import LineIndex, prepared_source
from sadame.quote._extract import MAX_QUOTES, ExtractedQuote, count_quotes
from sadame.quote._ground import ClaimResult
from sadame.quote._hint import MAX_HINT_CHARS, NearestPassage, nearest_passage
from sadame.quote._verify import QuoteResult, QuoteVerifier

__all__ = ["CHECK_DEADLINE_SECONDS", "CHECK_MAX_SPANS", "MAX_HINTS", "CheckResult", "CheckedQuote", "Segment", "check_output"]

#: Spans reported per quote by the checker.
CHECK_MAX_SPANS = 10
#: Missing quotes that get a nearest-passage hint.
MAX_HINTS = 50
#: Seconds one check may take before the quotes not yet checked are left unchecked.
CHECK_DEADLINE_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Segment:
    """``source[start:end]``; ``quote``/``number`` are the 1-based numbers of the lowest
    quote / grounded number covering it (0: none), ``quotes`` how many quotes cover it,
    ``opens`` whether a span of quote ``quote`` begins here (where a page puts its label)."""

    start: int
    end: int
    text: str
    quote: int = 0
    quotes: int = 0
    number: int = 0
    opens: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "quote": self.quote, "quotes": self.quotes,
                "number": self.number, "opens": self.opens}


@dataclass(frozen=True, slots=True)
class CheckedQuote:
    """A quote of the output, its verdict, where it is in the source (``line:column``,
    1-based) and, when missing, its nearest passage (a hint only)."""

    number: int
    extracted: ExtractedQuote
    result: QuoteResult
    position: str = ""
    nearest: NearestPassage | None = None
    nearest_position: str = ""
    #: why a missing quote was not looked for a nearest passage: "too_long" (over
    #: MAX_HINT_CHARS), "over_cap" (past the first MAX_HINTS missing quotes); "" when it was
    hint_skipped: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "origin": self.extracted.origin, **self.result.to_dict(),
                "position": self.position,
                "nearest": self.nearest.to_dict() if self.nearest else None,
                "nearest_position": self.nearest_position, "hint_skipped": self.hint_skipped}


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Everything the checker found; :meth:`to_dict` is what the CLI and the API print.

    ``summary["total"]`` counts the quotes checked; ``summary["unchecked"]`` the quotes of the
    output past ``summary["max_quotes"]`` (:data:`MAX_QUOTES`), which were not checked at all.
    """

    preset: str
    quotes: tuple[CheckedQuote, ...]
    numbers: ClaimResult
    segments: tuple[Segment, ...]
    summary: dict[str, Any]
    number_positions: tuple[str, ...] = ()
    #: line:column of the first other-context occurrence of each number ("" when none)
    elsewhere_positions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        numbers = self.numbers.to_dict()
        del numbers["claim"]  # the output itself: the caller has it
        for entry, position in zip(numbers["numbers"], self.number_positions, strict=False):
            entry["position"] = position
        for entry, position in zip(numbers["numbers"], self.elsewhere_positions, strict=False):
            entry["elsewhere_position"] = position
        return {
            "preset": self.preset,
            "summary": self.summary,
            "quotes": [q.to_dict() for q in self.quotes],
            "numbers": numbers,
            "segments": [s.to_dict() for s in self.segments],
        }


def _summary(quotes: tuple[CheckedQuote, ...], numbers: ClaimResult, unchecked: int, timed_out: int) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for q in quotes:
        counts[q.result.status] = counts.get(q.result.status, 0) + 1
    verified = sum(q.result.verified for q in quotes)
    grounded = sum(n.grounded for n in numbers.numbers)
    return {
        "total": len(quotes),
        "verified": verified,
        "verified_rate": round(verified / len(quotes), 4) if quotes else None,
        "by_status": counts,
        "numbers": len(numbers.numbers),
        "numbers_grounded": grounded,
        "numbers_context_differs": sum(n.context_differs for n in numbers.numbers),
        "hints": sum(q.nearest is not None for q in quotes),
        "unchecked": unchecked,  # quotes of the output past MAX_QUOTES: not checked at all
        "max_quotes": MAX_QUOTES,
    } | ({"timed_out": timed_out} if timed_out else {})  # (only then: results in time are unchanged)


def _checked(
    verifier: QuoteVerifier,
    extracted: list[ExtractedQuote],
    results: list[QuoteResult],
    lines: LineIndex,
    out_of_time: Callable[[], bool],
) -> tuple[CheckedQuote, ...]:
    """The checked quotes, each missing one with its hint, until ``out_of_time()``."""
    checked: list[CheckedQuote] = []
    hints = 0
    for number, (quote, result) in enumerate(zip(extracted, results, strict=True), start=1):
        if out_of_time():
            break
        position = lines.at(result.span.start) if result.span else ""
        nearest, skipped = None, ""
        if result.status == "missing":
            target = verifier.normalized_quote(quote.text)
            if len(target) > MAX_HINT_CHARS:
                skipped = "too_long"
            elif hints >= MAX_HINTS:
                skipped = "over_cap"
            else:
                hints += 1
                nearest = nearest_passage(verifier, quote.text, target=target)
        where = lines.at(nearest.span.start) if nearest else ""
        checked.append(CheckedQuote(number, quote, result, position, nearest, where, skipped))
    return tuple(checked)


def _cover(spans: list[tuple[int, int, int]], points: list[int]) -> list[tuple[int, int]]:
    """For each point: the lowest label of the spans covering it (0: none) and how many cover it."""
    by_start = sorted(spans)
    ends = sorted(end for _start, end, _label in spans)
    heap: list[tuple[int, int]] = []
    covered: list[tuple[int, int]] = []
    i = j = 0
    for point in points:
        while i < len(by_start) and by_start[i][0] <= point:
            heapq.heappush(heap, (by_start[i][2], by_start[i][1]))
            i += 1
        while j < len(ends) and ends[j] <= point:
            j += 1
        while heap and heap[0][1] <= point:
            heapq.heappop(heap)
        covered.append((heap[0][0] if heap else 0, i - j))
    return covered


def _quote_spans(quotes: tuple[CheckedQuote, ...]) -> list[tuple[int, int, int]]:
    spans: list[tuple[int, int, int]] = []
    for q in quotes:
        if q.result.verified:
            found = [p.span for p in q.result.parts if p.span] or list(q.result.spans)
            spans.extend((s.start, s.end, q.number) for s in found if s.end > s.start)
    return spans


def _segments(source: str, quotes: tuple[CheckedQuote, ...], numbers: ClaimResult) -> tuple[Segment, ...]:
    quote_spans = _quote_spans(quotes)
    number_spans = [
        (s.start, s.end, index)
        for index, n in enumerate(numbers.numbers, start=1)
        for s in n.spans
        if s.end > s.start
    ]
    points = sorted({0, len(source), *(x for s in quote_spans + number_spans for x in s[:2])})
    starts = points[:-1]
    by_quote = _cover(quote_spans, starts)
    by_number = _cover(number_spans, starts)
    opening = {(start, label) for start, _end, label in quote_spans}
    return tuple(
        Segment(a, b, source[a:b], q[0], q[1], n[0], (a, q[0]) in opening)
        for a, b, q, n in zip(starts, points[1:], by_quote, by_number, strict=True)
        if b > a
    )


def check_output(
    source: str,
    output: str,
    preset: str = "quote",
    *,
    max_spans: int = CHECK_MAX_SPANS,
    deadline: float = CHECK_DEADLINE_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> CheckResult:
    """Verify the quotes and ground the numbers of an LLM ``output`` against ``source``.

    >>> r = check_output("- **在庫**: 不足している\\n売上は1億2000万円", "「在庫: 不足している」。売上は1.2億円")
    >>> r.quotes[0].result.status, r.quotes[0].position, r.numbers.status
    ('normalized', '1:3', 'grounded')

    ``deadline``: seconds (read from ``clock``) after which the quotes not yet checked are
    left unchecked and counted in ``summary["timed_out"]``.
    """
    if not isinstance(source, str) or not isinstance(output, str):
        raise TypeError("source and output must be str")
    ends_at = clock() + deadline
    extracted, found = count_quotes(output)
    prepared = prepared_source(source, preset, max_spans)  # the source is normalized once
    verifier, lines = prepared.verifier, prepared.lines
    out_of_time: Callable[[], bool] = lambda: clock() > ends_at  # noqa: E731
    results = [] if out_of_time() else verifier.verify_many(q.text for q in extracted)
    numbers = prepared.numbers.ground(output)
    quotes = _checked(verifier, extracted[: len(results)], results, lines, out_of_time)
    positions = tuple(lines.at(n.spans[0].start) if n.spans else "" for n in numbers.numbers)
    elsewhere = tuple(lines.at(n.elsewhere[0].start) if n.elsewhere else "" for n in numbers.numbers)
    segments = _segments(source, quotes, numbers)
    summary = _summary(quotes, numbers, found - len(extracted), len(extracted) - len(quotes))
    return CheckResult(preset, quotes, numbers, segments, summary, positions, elsewhere)

