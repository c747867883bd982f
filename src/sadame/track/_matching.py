"""Linking a finding to an issue when its key is new: the semantic matcher hook.

Rules come first (exact key, then aliases kept by migrations and merges). Only when
they find nothing is an :class:`IssueMatcher` asked; its answer is accepted at or above
the ruleset's threshold (0.78 for detections, 0.9 for improvements). A matcher that
raises, returns garbage, names an unknown issue or runs past its timeout means "no
match": the finding becomes a new issue, the ingest never fails because of it.
"""

from __future__ import annotations

import concurrent.futures
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from sadame.normalize import normalize

__all__ = [
    "IssueMatcher",
    "MatchCandidate",
    "MatchResult",
    "Purpose",
    "StaticMatcher",
    "safe_match",
    "tokens_match",
]

Purpose = Literal["detection", "improvement"]


@dataclass(frozen=True)
class MatchCandidate:
    """An existing issue a matcher may link a finding to."""

    issue_id: str
    title: str
    key: str
    status: str


@dataclass(frozen=True)
class MatchResult:
    """A matcher's answer: the linked issue and how sure it is (0..1)."""

    issue_id: str
    confidence: float


@runtime_checkable
class IssueMatcher(Protocol):
    """Semantic matching (LLM, embeddings...): link ``text`` to one of ``candidates`` or None."""

    def match(
        self, text: str, candidates: Sequence[MatchCandidate], *, purpose: Purpose
    ) -> MatchResult | None: ...


class StaticMatcher:
    """A deterministic matcher for tests and demos: a table of phrase -> (issue key, confidence).

    The text and phrases are compared after the ``issue`` preset; the first phrase that is a
    substring of the text wins and links to the candidate with that key (if it is offered).
    """

    def __init__(self, table: Mapping[str, tuple[str, float]]) -> None:
        self._table = [(normalize(phrase, preset="issue"), key, conf) for phrase, (key, conf) in table.items()]
        self.calls: list[tuple[str, Purpose]] = []

    def match(
        self, text: str, candidates: Sequence[MatchCandidate], *, purpose: Purpose
    ) -> MatchResult | None:
        self.calls.append((text, purpose))
        norm = normalize(text, preset="issue")
        for phrase, key, confidence in self._table:
            if phrase and phrase in norm:
                for cand in candidates:
                    if cand.key == key:
                        return MatchResult(cand.issue_id, confidence)
        return None


def tokens_match(a: Sequence[str], b: Sequence[str], threshold: float = 0.5) -> bool:
    """The seed's ``tokensMatch``: the share of ``b``'s tokens found in ``a``, over the shorter
    length, is at least ``threshold`` (empty sets never match)."""
    if not a or not b:
        return False
    set_a = set(a)
    overlap = sum(1 for token in b if token in set_a)
    return overlap / min(len(a), len(b)) >= threshold


_POOL: concurrent.futures.ThreadPoolExecutor | None = None


def safe_match(
    matcher: IssueMatcher,
    text: str,
    candidates: Sequence[MatchCandidate],
    *,
    purpose: Purpose,
    timeout: float | None,
) -> tuple[MatchResult | None, str | None]:
    """Call the matcher defensively: ``(result, None)`` or ``(None, why it was not used)``.

    The result is only returned when it names one of ``candidates`` and its confidence is a
    number in [0, 1]; thresholds are applied by the caller.
    """
    global _POOL
    if not candidates:
        return None, None
    try:
        if timeout is None:
            result = matcher.match(text, candidates, purpose=purpose)
        else:
            if _POOL is None:
                _POOL = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="sadame-matcher")
            future = _POOL.submit(matcher.match, text, candidates, purpose=purpose)
            result = future.result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        return None, f"matcher timed out after {timeout}s"
    except Exception as exc:  # any matcher failure means "new issue", never a failed ingest
        return None, f"matcher failed: {type(exc).__name__}: {exc}"
    if result is None:
        return None, None
    if not isinstance(result, MatchResult):
        return None, f"matcher returned {type(result).__name__}, not MatchResult"
    conf = result.confidence
    if isinstance(conf, bool) or not isinstance(conf, int | float) or math.isnan(conf) or not 0 <= conf <= 1:
        return None, f"matcher confidence {conf!r} is not in [0, 1]"
    if result.issue_id not in {c.issue_id for c in candidates}:
        return None, f"matcher named unknown issue {result.issue_id!r}"
    return MatchResult(result.issue_id, float(conf)), None
