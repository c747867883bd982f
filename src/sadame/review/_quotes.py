"""Quote files under both sides: evaluation sets and LLM outputs with their sources."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from pathlib import Path

from sadame.quote import QuoteResult, QuoteVerifier, verify_quote
from sadame.quote._eval import load_cases
from sadame.review._report import Change, FileDiff
from sadame.review._spec import Side

__all__ = ["DEFAULT_QUOTE_PRESET", "compare_quotes", "diff_quote_eval"]

#: The preset a side without ``preset=`` verifies quotes with: the library's default.
DEFAULT_QUOTE_PRESET: str = str(inspect.signature(verify_quote).parameters["preset"].default)


def _describe(result: QuoteResult) -> str:
    if result.span is None:
        return result.status
    return f"{result.status} at {result.span.start}-{result.span.end} {result.span.text!r}"


def compare_quotes(
    item: str, source: str, quotes: Iterable[str], before: Side, after: Side
) -> tuple[int, list[Change]]:
    """Verify ``quotes`` against ``source`` under both sides; the changed outcomes."""
    old = QuoteVerifier(source, preset=before.preset or DEFAULT_QUOTE_PRESET)
    new = QuoteVerifier(source, preset=after.preset or DEFAULT_QUOTE_PRESET)
    changes: list[Change] = []
    compared = 0
    for quote in quotes:
        compared += 1
        a, b = old.verify(quote), new.verify(quote)
        if a.verified == b.verified and (a.span, a.status) == (b.span, b.status):
            continue
        if a.verified and b.verified:
            kind = "span_changed"
        else:
            kind = "newly_found" if b.verified else "newly_missing"
        changes.append(Change(kind, f"{item}: {quote}", _describe(a), _describe(b)))
    return compared, changes


def diff_quote_eval(path: Path, before: Side, after: Side) -> FileDiff:
    """Every quote of a ``sadame quote eval`` JSONL file, whatever preset its cases name."""
    diff = FileDiff(str(path), "quote-eval")
    for case in load_cases(path):
        texts = [item.text for item in case.quotes if isinstance(item.text, str)]
        compared, changes = compare_quotes(case.id, case.source, texts, before, after)
        diff.compared += compared
        diff.changes.extend(changes)
    return diff
