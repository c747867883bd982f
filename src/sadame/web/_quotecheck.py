"""The quote checker behind ``/quote`` and ``POST /api/quote/check``.

Takes a source and an LLM output, finds what the output quotes, verifies every
quote against the source with :func:`sadame.quote.verify_quotes` (the source is
normalized once) and grounds the output's numbers with ``ground_numbers``. Also
cuts the source into segments so a page can highlight every found quote at its
exact original offsets.

Which parts of the output count as quotes (first rule that yields anything wins):

1. JSON output: every ``quote`` / ``text`` / ``evidence`` string inside
   ``evidence_spans``, ``quotes`` or ``evidence`` (lists of strings or objects).
2. Text in Japanese quotation brackets ``「…」`` / ``『…』`` or in ``“…”`` / ``"…"``.
3. Markdown block quotes (lines starting with ``>``).
4. Otherwise every non-empty line of the output is a quote.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from typing import Any

from sadame.web._quotecache import cached_index, cached_verifier

__all__ = ["MAX_QUOTES", "CheckResult", "Segment", "check_output", "extract_quotes", "segments"]

MAX_QUOTES = 1000

# Fixed patterns, never built from user text; each is a single bracket pair with a
# negated character class inside, so matching is linear.
_BRACKETS = (
    re.compile(r"「([^「」]+)」"),
    re.compile(r"『([^『』]+)』"),
    re.compile(r"“([^“”]+)”"),
    re.compile(r'"([^"\n]+)"'),
)
_JSON_LISTS = ("evidence_spans", "quotes", "evidence", "citations")
_JSON_TEXT_KEYS = ("quote", "text", "evidence", "span")


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of the source ``source[start:end]`` and the quotes (indices) covering it."""

    start: int
    end: int
    text: str
    quotes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CheckResult:
    quotes: list[dict[str, Any]]
    numbers: list[dict[str, Any]]
    numbers_available: bool
    summary: dict[str, Any]
    segments: list[Segment]


def _from_json(output: str) -> list[str]:
    try:
        data = json.loads(output)
    except (ValueError, RecursionError):
        return []
    found: list[str] = []

    def collect(items: Any) -> None:
        if isinstance(items, str):
            found.append(items)
        elif isinstance(items, list):
            for item in items:
                if isinstance(item, str):
                    found.append(item)
                elif isinstance(item, dict):
                    for key in _JSON_TEXT_KEYS:
                        if isinstance(item.get(key), str):
                            found.append(item[key])
                            break

    def walk(node: Any, depth: int) -> None:
        if depth > 20:
            return
        if isinstance(node, dict):
            for key, value in node.items():
                if key in _JSON_LISTS:
                    collect(value)
                else:
                    walk(value, depth + 1)
        elif isinstance(node, list):
            for item in node:
                walk(item, depth + 1)

    walk(data, 0)
    return found


def extract_quotes(output: str) -> list[str]:
    """The quotes an LLM output makes, by the rules in the module docstring (in order of appearance)."""
    found = _from_json(output)
    if found:
        return found[:MAX_QUOTES]
    hits: list[tuple[int, str]] = []
    for pattern in _BRACKETS:
        hits.extend((m.start(), m.group(1)) for m in pattern.finditer(output))
    if hits:
        return [text for _pos, text in sorted(hits)][:MAX_QUOTES]
    lines = [line.strip() for line in output.splitlines()]
    quoted = [line.lstrip(">").strip() for line in lines if line.startswith(">")]
    if any(quoted):
        return [q for q in quoted if q][:MAX_QUOTES]
    return [line for line in lines if line][:MAX_QUOTES]


def segments(source: str, spans: list[tuple[int, int, int]]) -> list[Segment]:
    """Cut ``source`` at every span boundary; ``spans`` are (start, end, quote index)."""
    cuts = {0, len(source)}
    for start, end, _index in spans:
        cuts.add(start)
        cuts.add(end)
    points = sorted(cuts)
    result = []
    for a, b in itertools.pairwise(points):
        if a == b:
            continue
        covering = tuple(sorted({i for s, e, i in spans if s <= a and b <= e}))
        result.append(Segment(a, b, source[a:b], covering))
    return result


def check_output(source: str, output: str, preset: str = "decoration") -> CheckResult:
    """Verify the quotes and ground the numbers of ``output`` against ``source``."""
    quotes = extract_quotes(output)
    results = [r.to_dict() for r in cached_verifier(source, preset).verify_many(quotes)]
    spans: list[tuple[int, int, int]] = []
    for index, result in enumerate(results):
        if result["verified"]:
            parts = [p["span"] for p in result["parts"] if p.get("span")] or [result["span"]]
            spans.extend((p["start"], p["end"], index) for p in parts if p)
    numbers, available = ground(output, source)
    return CheckResult(results, numbers, available, summarize(results), segments(source, spans))


def ground(claim: str, source: str) -> tuple[list[dict[str, Any]], bool]:
    """``sadame.quote.ground_numbers`` as JSON data, and whether grounding is available at all.

    The source's numbers come from the per-process cache (scanned once per source).
    """
    from sadame.web._convert import to_jsonable

    result = to_jsonable(cached_index(source).ground(claim))
    if isinstance(result, dict):
        for key in ("numbers", "items", "results", "claims"):
            if isinstance(result.get(key), list):
                return list(result[key]), True
        return [result], True
    return list(result), True


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per status and the verified rate of quote results."""
    counts: dict[str, int] = {}
    for result in results:
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    verified = sum(1 for r in results if r["verified"])
    return {
        "total": len(results),
        "verified": verified,
        "verified_rate": round(verified / len(results), 4) if results else None,
        "by_status": counts,
    }
