"""Evaluating issue matchers on labelled pairs: precision, recall, false-merge rate.

A pair is two finding texts about one user and whether they are the same issue
(``evals/matcher/pairs.jsonl``, one JSON object per line)::

    {"id": "sp-001", "domain": "sports", "a": "...", "b": "...", "same": true, "purpose": "detection"}

For each pair, ``b`` plays the user's existing issue and ``a`` the new finding.

* ``rules-only`` predicts "same" when the tracker's ``issue_key`` of both texts
  is equal under the ruleset (the default one unless given);
* a matcher predicts "same" when it returns ``b``'s issue with confidence at or
  above the ruleset's threshold for the pair's purpose (0.78 detection, 0.9
  improvement);
* ``rules+<matcher>`` is the tracker's hybrid: rules first, the matcher only
  when the keys differ.

A false merge is a "same" prediction on a pair labelled different; its rate is
``false merges / different pairs``. It is the number that matters: a missed
match leaves a duplicate that can be merged later, a false merge corrupts the
user's history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sadame._datafile import DataFileError, read_jsonl
from sadame.llm._errors import LLMError

if TYPE_CHECKING:
    from sadame.track import Ruleset
    from sadame.track._matching import MatchCandidate, MatchResult

__all__ = [
    "EvalSetError",
    "MatcherPair",
    "MatcherReport",
    "MatcherScore",
    "NamedMatcher",
    "evaluate_matchers",
    "load_pairs",
]

Purpose = Literal["detection", "improvement"]


class EvalSetError(LLMError, ValueError):
    """The evaluation file is unreadable or a line is not a valid pair (names file and line)."""


class NamedMatcher(Protocol):
    """A tracker ``IssueMatcher`` with a name for the report."""

    @property
    def name(self) -> str: ...

    def match(
        self, text: str, candidates: Sequence[MatchCandidate], *, purpose: Purpose
    ) -> MatchResult | None: ...


@dataclass(frozen=True)
class MatcherPair:
    """One labelled pair: is finding ``a`` the same issue as the existing issue ``b``?"""

    id: str
    a: str
    b: str
    same: bool
    domain: str = ""
    purpose: Purpose = "detection"
    note: str | None = None


def load_pairs(path: str | Path) -> list[MatcherPair]:
    """The pairs in a JSONL file; :class:`EvalSetError` names the first bad line."""
    file = Path(path)
    pairs: list[MatcherPair] = []
    seen: set[str] = set()
    try:
        for number, data in read_jsonl(file, comments=True):
            pairs.append(_pair(data, f"{file}:{number}", seen))
    except DataFileError as exc:
        raise EvalSetError(str(exc)) from None
    if not pairs:
        raise EvalSetError(f"{file}: no pairs")
    return pairs


def _pair(data: Any, where: str, seen: set[str]) -> MatcherPair:
    if not isinstance(data, dict):
        raise EvalSetError(f"{where}: a pair must be a JSON object")
    for field in ("id", "a", "b"):
        if not isinstance(data.get(field), str) or not data[field].strip():
            raise EvalSetError(f"{where}: {field!r} must be a non-empty string")
    if not isinstance(data.get("same"), bool):
        raise EvalSetError(f"{where}: 'same' must be true or false")
    purpose = data.get("purpose", "detection")
    if purpose not in ("detection", "improvement"):
        raise EvalSetError(f"{where}: 'purpose' must be 'detection' or 'improvement', got {purpose!r}")
    if data["id"] in seen:
        raise EvalSetError(f"{where}: duplicate id {data['id']!r}")
    seen.add(data["id"])
    return MatcherPair(
        id=data["id"],
        a=data["a"],
        b=data["b"],
        same=data["same"],
        domain=str(data.get("domain", "")),
        purpose=purpose,
        note=data.get("note") if isinstance(data.get("note"), str) else None,
    )


@dataclass(frozen=True)
class MatcherScore:
    """Confusion counts of one method on the set, and the rates derived from them."""

    method: str
    threshold: str
    tp: int
    fp: int
    fn: int
    tn: int
    false_merge_ids: tuple[str, ...] = ()

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def false_merge_rate(self) -> float | None:
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else None

    def to_dict(self) -> dict[str, object]:
        return {
            "method": self.method,
            "threshold": self.threshold,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": self.precision,
            "recall": self.recall,
            "false_merge_rate": self.false_merge_rate,
            "false_merges": list(self.false_merge_ids),
        }


@dataclass(frozen=True)
class MatcherReport:
    """Scores of every method on one pair set."""

    pairs: int
    same: int
    different: int
    ruleset: str
    scores: tuple[MatcherScore, ...]

    def score(self, method: str) -> MatcherScore:
        for score in self.scores:
            if score.method == method:
                return score
        raise KeyError(method)

    def to_dict(self) -> dict[str, object]:
        return {
            "pairs": self.pairs,
            "same": self.same,
            "different": self.different,
            "ruleset": self.ruleset,
            "scores": [s.to_dict() for s in self.scores],
        }

    def to_markdown(self) -> str:
        """The report as a markdown table."""

        def pct(value: float | None) -> str:
            return "n/a" if value is None else f"{value:.3f}"

        lines = [
            f"{self.pairs} pairs ({self.same} same, {self.different} different), ruleset {self.ruleset}",
            "",
            "| method | threshold | TP | FP | FN | TN | precision | recall | false-merge rate |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for s in self.scores:
            lines.append(
                f"| {s.method} | {s.threshold} | {s.tp} | {s.fp} | {s.fn} | {s.tn} | "
                f"{pct(s.precision)} | {pct(s.recall)} | {pct(s.false_merge_rate)} |"
            )
        return "\n".join(lines)


def _score(
    method: str, threshold: str, pairs: Sequence[MatcherPair], predicted: Iterable[bool]
) -> MatcherScore:
    tp = fp = fn = tn = 0
    merges: list[str] = []
    for pair, same in zip(pairs, predicted, strict=True):
        if same and pair.same:
            tp += 1
        elif same:
            fp += 1
            merges.append(pair.id)
        elif pair.same:
            fn += 1
        else:
            tn += 1
    return MatcherScore(method, threshold, tp, fp, fn, tn, tuple(merges))


def evaluate_matchers(
    pairs: Sequence[MatcherPair],
    matchers: Sequence[NamedMatcher] = (),
    *,
    ruleset: Ruleset | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatcherReport:
    """Score rules-only and every matcher (alone and behind the rules) on ``pairs``."""
    from sadame.track import default_ruleset, issue_id, issue_key
    from sadame.track._matching import MatchCandidate

    rs = ruleset if ruleset is not None else default_ruleset()
    th = rs.thresholds
    keys = [(issue_key(p.a, rs), issue_key(p.b, rs)) for p in pairs]
    by_rules = [ka == kb for ka, kb in keys]
    scores = [_score("rules-only", "key equality", pairs, by_rules)]
    threshold_text = f"{th.detection_match:g} / {th.improvement_match:g}"
    for matcher in matchers:
        alone: list[bool] = []
        for n, (pair, (_ka, kb)) in enumerate(zip(pairs, keys, strict=True)):
            candidate = MatchCandidate(issue_id=issue_id(kb), title=pair.b, key=kb, status="open")
            limit = th.improvement_match if pair.purpose == "improvement" else th.detection_match
            try:
                result = matcher.match(pair.a, [candidate], purpose=pair.purpose)
            except Exception:
                result = None  # an erroring matcher means "new issue", as in the tracker
            alone.append(
                result is not None and result.issue_id == candidate.issue_id and result.confidence >= limit
            )
            if progress is not None:
                progress(n + 1, len(pairs))
        scores.append(_score(matcher.name, threshold_text, pairs, alone))
        hybrid = [r or m for r, m in zip(by_rules, alone, strict=True)]
        scores.append(_score(f"rules+{matcher.name}", threshold_text, pairs, hybrid))
    same = sum(1 for p in pairs if p.same)
    return MatcherReport(
        pairs=len(pairs),
        same=same,
        different=len(pairs) - same,
        ruleset=f"{rs.name}@{rs.version[:12]}",
        scores=tuple(scores),
    )
