"""Scoring the blind paraphrase set (``evals/track/blind/track_paraphrase.json``).

The file is a list of users, each with ``earlier`` findings (``id``, ``text``: 36 per user) and
``later`` findings (``text`` and ``same_as``: the id of the earlier finding it restates, or null
for a new problem). For every later finding a fresh user gets all earlier findings of its user
as issues (session 1), then the later finding arrives (session 2), through the public
:class:`Tracker` API; the other 35 earlier issues are the distractors. Counted:

* ``top1`` / ``top3``: the earlier issue is the later finding's own issue (same key or alias)
  or the first / one of the first 3 of :meth:`Tracker.similar`;
* ``wrong_link``: the later finding was linked to a different earlier issue (a wrong merge);
* ``false_suggestion``: the first suggestion offered with a merge button names a different
  issue (for a new problem: any suggestion offered with a merge button). A suggestion is
  offered with a merge button when its ``merge_offered`` is true.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sadame.track._errors import TrackError
from sadame.track._matching import IssueMatcher, MatchCandidate, MatchResult, Purpose
from sadame.track._ruleset import Ruleset, default_ruleset
from sadame.track._similar import SimilarIssue
from sadame.track._tracker import Tracker
from sadame.track._views import SessionReport, TrackerConfig

__all__ = ["BLIND_PARAPHRASE_FILE", "CountingMatcher", "MatcherCost", "ParaphraseReport", "format_paraphrase",
           "run_paraphrase_eval"]

BLIND_PARAPHRASE_FILE = "track_paraphrase.json"
_MAX_BYTES = 5_000_000
_COLS = ("findings", "paraphrases", "top1", "top3", "wrong_link", "new", "false_suggestion")


class ParaphraseEvalError(TrackError, ValueError):
    """A paraphrase set that is missing or malformed."""


class CountingMatcher:
    """Wraps a matcher to count its calls and the time they take (what a session costs)."""

    def __init__(self, inner: IssueMatcher) -> None:
        self.inner, self.calls, self.seconds = inner, 0, 0.0

    def match(self, text: str, candidates: Sequence[MatchCandidate], *, purpose: Purpose) -> MatchResult | None:
        self.calls += 1
        start = time.perf_counter()
        try:
            return self.inner.match(text, candidates, purpose=purpose)
        finally:
            self.seconds += time.perf_counter() - start


@dataclass
class MatcherCost:
    """What a matcher cost over the later sessions: calls, seconds, time-outs and failures (each of
    those meant "no match": the finding became a new issue, the ingest went on)."""

    sessions: int = 0
    calls: int = 0
    seconds: float = 0.0
    timeouts: int = 0
    failures: int = 0
    #: Calls the matcher itself answered as "no match" because its provider raised (the LLM
    #: matcher's ``provider_errors``: a server that is down shows here, not in ``failures``).
    provider_errors: int = 0

    def per_session(self) -> dict[str, float]:
        n = max(1, self.sessions)
        return {"calls": self.calls / n, "seconds": self.seconds / n}


@dataclass
class ParaphraseReport:
    """Counts per user (see the module doc), the misses, and with a matcher what it cost."""

    ruleset: str
    by_user: dict[str, dict[str, int]] = field(default_factory=dict)
    misses: list[dict[str, Any]] = field(default_factory=list)
    matcher: str | None = None
    cost: MatcherCost | None = None

    def totals(self) -> dict[str, int]:
        return {c: sum(r.get(c, 0) for r in self.by_user.values()) for c in _COLS}

    def to_dict(self) -> dict[str, Any]:
        cost = None if self.cost is None else {**self.cost.__dict__, "per_session": self.cost.per_session()}
        return {"ruleset": self.ruleset, "by_user": self.by_user, "totals": self.totals(), "misses": self.misses,
                "matcher": self.matcher, "cost": cost}


def _load(path: Path) -> list[dict[str, Any]]:
    try:
        if path.stat().st_size > _MAX_BYTES:
            raise ParaphraseEvalError(f"{path}: larger than {_MAX_BYTES} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParaphraseEvalError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ParaphraseEvalError(f"{path}: not JSON: {exc.msg}") from None
    ok = isinstance(data, list) and all(
        isinstance(u, dict) and isinstance(u.get("user"), str) and isinstance(u.get("earlier"), list)
        and isinstance(u.get("later"), list)
        and all(isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("text"), str)
                for e in u["earlier"])
        and all(isinstance(e, dict) and isinstance(e.get("text"), str)
                and (e.get("same_as") is None or isinstance(e.get("same_as"), str)) for e in u["later"])
        for u in data)
    if not ok:
        raise ParaphraseEvalError(f"{path}: needs a list of {{user, earlier: [{{id, text}}], "
                                  "later: [{text, same_as}]}}")
    return list(data)


def _own_issue(report: SessionReport) -> str | None:
    for entry in report.new + report.remaining + report.deferred + report.duplicates + report.ignored:
        if entry.issue_id:
            return entry.issue_id
    return None


def _score_one(tracker: Tracker, name: str, earlier: list[dict[str, str]], later: dict[str, Any],
               cost: MatcherCost | None = None, setup: Tracker | None = None) -> dict[str, int]:
    """``setup`` (the same database, no matcher) ingests the earlier issues: they are the user's
    history, not what is measured, so the matcher is asked only about the later finding."""
    first = (setup or tracker).ingest(name, "s1", [e["text"] for e in earlier])
    ids = {e.text: e.issue_id for e in first.new + first.deferred + first.remaining + first.duplicates}
    by_earlier = {e["id"]: ids.get(e["text"]) for e in earlier}
    target = by_earlier.get(later["same_as"]) if later["same_as"] else None
    second = tracker.ingest(name, "s2", [later["text"]])
    if cost is not None:
        cost.sessions += 1
        cost.timeouts += sum("timed out" in w for w in second.warnings)
        cost.failures += sum("timed out" not in w for w in second.warnings)
    own = _own_issue(second)
    sims: list[SimilarIssue] = [] if own is None else tracker.similar(name, own, limit=3)
    linked = own is not None and own in by_earlier.values()
    offered = [s for s in sims if s.merge_offered]
    row = {"findings": 1, "paraphrases": int(target is not None), "new": int(target is None),
           "top1": 0, "top3": 0, "wrong_link": int(linked and own != target), "false_suggestion": 0}
    if target is not None:
        row["top1"] = int(own == target or (not linked and bool(sims) and sims[0].issue_id == target))
        row["top3"] = int(own == target or (not linked and target in [s.issue_id for s in sims]))
    if offered and offered[0].issue_id != target:
        row["false_suggestion"] = 1
    return row


def run_paraphrase_eval(path: str | Path, ruleset: Ruleset | None = None, *, matcher: IssueMatcher | None = None,
                        matcher_timeout: float | None = 5.0) -> ParaphraseReport:
    """Score the paraphrase set (see the module doc); nothing is merged. With a ``matcher`` (the
    LLM matcher), the tracker links through it and the report says what it cost per later
    session (calls, seconds) and how often it timed out or failed."""
    rs = ruleset or default_ruleset()
    users = _load(Path(path))
    report = ParaphraseReport(ruleset=rs.name)
    counting = None if matcher is None else CountingMatcher(matcher)
    if matcher is not None:
        report.matcher, report.cost = type(matcher).__name__, MatcherCost()
    with tempfile.TemporaryDirectory(prefix="sadame-blind-para-") as tmp:
        config = TrackerConfig(max_new_per_session=1_000, matcher_timeout=matcher_timeout)
        url = f"sqlite:///{tmp}/para.db"
        with Tracker(url, tenant="blind", ruleset=rs, config=config, matcher=counting) as tracker, \
                Tracker(url, tenant="blind", ruleset=rs, config=config) as setup:
            for u in users:
                row_total = report.by_user.setdefault(u["user"], dict.fromkeys(_COLS, 0))
                for n, later in enumerate(u["later"]):
                    row = _score_one(tracker, f"{u['user']}-{n}", u["earlier"], later, report.cost, setup)
                    for k, v in row.items():
                        row_total[k] += v
                    if (row["paraphrases"] and not row["top3"]) or row["false_suggestion"] or row["wrong_link"]:
                        report.misses.append({"user": u["user"], "later": n, **row})
    if counting is not None and report.cost is not None:
        report.cost.calls, report.cost.seconds = counting.calls, round(counting.seconds, 3)
        report.cost.provider_errors = int(getattr(matcher, "provider_errors", 0))
    return report


def format_paraphrase(report: ParaphraseReport) -> str:
    """The paraphrase table as Markdown, with top-1/top-3 and the false-suggestion rate."""
    t = report.totals()
    head = ["user", "findings", "paraphrases", "top-1", "top-3", "wrong link", "new problems",
            "false suggestion"]
    lines = [f"#### Blind paraphrases (35 distractors per finding; ruleset `{report.ruleset}`)", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in sorted(report.by_user):
        r = report.by_user[name]
        lines.append("| " + " | ".join([name, *(str(r[c]) for c in _COLS)]) + " |")
    lines.append("| " + " | ".join(["**all**", *(f"**{t[c]}**" for c in _COLS)]) + " |")
    p = max(1, t["paraphrases"])
    lines += ["", f"Top-1 {100 * t['top1'] / p:.1f}%, top-3 {100 * t['top3'] / p:.1f}% of {t['paraphrases']} "
              f"paraphrases; false suggestions {t['false_suggestion']}/{t['findings']} "
              f"= {100 * t['false_suggestion'] / max(1, t['findings']):.1f}% of findings"]
    if report.cost is not None:
        per = report.cost.per_session()
        lines += ["", f"Matcher `{report.matcher}`: {report.cost.calls} calls over {report.cost.sessions} sessions "
                  f"({per['calls']:.2f} calls, {per['seconds']:.3f} s per session); time-outs "
                  f"{report.cost.timeouts}, failures {report.cost.failures}, provider errors "
                  f"{report.cost.provider_errors} (each: no match, the finding is new)"]
    return "\n".join(lines)
