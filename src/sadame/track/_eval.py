"""The tracker's own evaluation: negated praise, same-word-different-problem pairs, paraphrases.

Three JSONL sets (``evals/track/``), each line with an ``id`` and a ``domain``:

* ``negated_praise.jsonl`` -- ``text`` and ``praise`` (true: praise, to be filtered; false: a
  problem, often written as negated praise: 向上していない). Target: no problem dropped, at most
  one praise kept as a problem.
* ``same_word_pairs.jsonl`` -- ``a`` and ``b``: two different problems sharing a word
  (踏み込みが弱い / 握力が弱い). Target: at most 2% get one key.
* ``paraphrase_pairs.jsonl`` -- ``a`` and ``b``: one problem said twice. A user has every ``a``
  of the domain as an issue, then ``b`` arrives; ``b``'s issue must list ``a``'s among its top 3
  similar issues (or share its key) in at least 70% of pairs. Suggestions never merge.

Everything runs on a throw-away SQLite database through the public :class:`Tracker` API.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sadame._datafile import DataFileError, read_jsonl
from sadame.track._errors import TrackError
from sadame.track._ruleset import Ruleset, default_ruleset, is_positive, issue_id, issue_key
from sadame.track._tracker import Tracker
from sadame.track._views import TrackerConfig

__all__ = ["TRACK_EVAL_FILES", "TrackEvalError", "TrackEvalReport", "format_track_eval", "run_track_eval"]

TRACK_EVAL_FILES = ("negated_praise.jsonl", "same_word_pairs.jsonl", "paraphrase_pairs.jsonl")
_MAX_LINES = 5_000
_TOP = 3


class TrackEvalError(TrackError, ValueError):
    """An evaluation set that is missing or malformed (the message names file and line)."""


@dataclass
class TrackEvalReport:
    """Per-domain counts of the three evaluations, and the ids of every miss."""

    ruleset: str
    praise: dict[str, dict[str, int]] = field(default_factory=dict)
    same_word: dict[str, dict[str, int]] = field(default_factory=dict)
    paraphrase: dict[str, dict[str, int]] = field(default_factory=dict)
    misses: dict[str, list[str]] = field(default_factory=dict)

    def totals(self, table: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in getattr(self, table).values():
            for k, v in row.items():
                out[k] = out.get(k, 0) + v
        return out

    def meets_targets(self) -> bool:
        p, s, q = self.totals("praise"), self.totals("same_word"), self.totals("paraphrase")
        return (p.get("problems_dropped", 0) == 0 and p.get("praise_kept", 0) <= 1
                and s.get("merged", 0) <= 0.02 * max(1, s.get("pairs", 0))
                and q.get("found", 0) >= 0.7 * max(1, q.get("pairs", 0)) and q.get("auto_merged", 0) == 0)

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "praise": self.praise, "same_word": self.same_word,
                "paraphrase": self.paraphrase, "misses": self.misses, "meets_targets": self.meets_targets()}


def _lines(path: Path, fields: dict[str, type]) -> Iterator[dict[str, Any]]:
    try:
        rows = [(n, row) for n, row in read_jsonl(path) if n <= _MAX_LINES]
    except DataFileError as exc:
        raise TrackEvalError(str(exc)) from None
    for n, row in rows:
        if not isinstance(row, dict) or any(not isinstance(row.get(k), t) for k, t in fields.items()):
            raise TrackEvalError(f"{path}:{n}: needs {', '.join(f'{k} ({t.__name__})' for k, t in fields.items())}")
        yield row


def _bump(table: dict[str, dict[str, int]], domain: str, **counts: int) -> None:
    row = table.setdefault(domain, {})
    for k, v in counts.items():
        row[k] = row.get(k, 0) + v


def _eval_praise(report: TrackEvalReport, directory: Path, rs: Ruleset) -> None:
    for row in _lines(directory / TRACK_EVAL_FILES[0], {"id": str, "domain": str, "text": str, "praise": bool}):
        filtered = is_positive(row["text"], rs)
        dropped = int(not row["praise"] and filtered)
        kept = int(row["praise"] and not filtered)
        _bump(report.praise, row["domain"], problems=int(not row["praise"]), problems_dropped=dropped,
              praise=int(row["praise"]), praise_kept=kept)
        if dropped or kept:
            report.misses.setdefault("praise", []).append(row["id"])


def _eval_same_word(report: TrackEvalReport, directory: Path, rs: Ruleset) -> None:
    for row in _lines(directory / TRACK_EVAL_FILES[1], {"id": str, "domain": str, "a": str, "b": str}):
        merged = int(issue_key(row["a"], rs) == issue_key(row["b"], rs))
        _bump(report.same_word, row["domain"], pairs=1, merged=merged)
        if merged:
            report.misses.setdefault("same_word", []).append(row["id"])


def _eval_paraphrase(report: TrackEvalReport, directory: Path, rs: Ruleset, tracker: Tracker) -> None:
    rows = list(_lines(directory / TRACK_EVAL_FILES[2], {"id": str, "domain": str, "a": str, "b": str}))
    earlier: dict[str, list[str]] = {}
    for row in rows:
        earlier.setdefault(row["domain"], []).append(row["a"])
    for n, row in enumerate(rows):
        user = f"{row['domain']}-{n}"
        tracker.ingest(user, "s1", earlier[row["domain"]])
        first = issue_id(issue_key(row["a"], rs))
        report_b = tracker.ingest(user, "s2", [row["b"]])
        linked = [e.issue_id for e in report_b.new + report_b.remaining + report_b.deferred if e.issue_id]
        by_key = int(linked == [first])
        in_top = 0 if by_key or not linked else int(
            first in [s.issue_id for s in tracker.similar(user, linked[0], limit=_TOP)])
        merged = sum(1 for v in tracker.list_issues(user, include_merged=True) if v.merged_into is not None)
        _bump(report.paraphrase, row["domain"], pairs=1, linked_by_key=by_key, top3=in_top,
              found=by_key or in_top, auto_merged=int(merged > 0))
        if not (by_key or in_top):
            report.misses.setdefault("paraphrase", []).append(row["id"])


def run_track_eval(directory: str | Path, ruleset: Ruleset | None = None) -> TrackEvalReport:
    """Run the three evaluations in ``directory`` with ``ruleset`` (default: the bundled default)."""
    rs = ruleset or default_ruleset()
    base = Path(directory)
    report = TrackEvalReport(ruleset=rs.name)
    _eval_praise(report, base, rs)
    _eval_same_word(report, base, rs)
    with tempfile.TemporaryDirectory(prefix="sadame-track-eval-") as tmp:
        config = TrackerConfig(max_new_per_session=1_000)
        with Tracker(f"sqlite:///{tmp}/eval.db", tenant="eval", ruleset=rs, config=config) as tracker:
            _eval_paraphrase(report, base, rs, tracker)
    return report


def _table(title: str, header: list[str], rows: dict[str, dict[str, int]], cols: list[str],
           total: dict[str, int]) -> list[str]:
    out = [f"### {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for domain in sorted(rows):
        out.append("| " + " | ".join([domain, *(str(rows[domain].get(c, 0)) for c in cols)]) + " |")
    out.append("| " + " | ".join(["**all**", *(f"**{total.get(c, 0)}**" for c in cols)]) + " |")
    return [*out, ""]


def format_track_eval(report: TrackEvalReport) -> str:
    """The three tables as Markdown (what the README shows)."""
    p, s, q = report.totals("praise"), report.totals("same_word"), report.totals("paraphrase")
    lines = [f"Ruleset: `{report.ruleset}`", ""]
    lines += _table("Negated praise (target: 0 problems dropped, <= 1 praise kept)",
                    ["domain", "problems", "dropped", "praise", "kept as problem"], report.praise,
                    ["problems", "problems_dropped", "praise", "praise_kept"], p)
    rate = 100 * s.get("merged", 0) / max(1, s.get("pairs", 0))
    lines += _table(f"Same word, different problem (target: <= 2% merged; now {rate:.1f}%)",
                    ["domain", "pairs", "merged"], report.same_word, ["pairs", "merged"], s)
    found = 100 * q.get("found", 0) / max(1, q.get("pairs", 0))
    lines += _table(f"Paraphrases (target: earlier issue found for >= 70%; now {found:.1f}%)",
                    ["domain", "pairs", "same key", "in top 3 similar", "found", "auto-merged"],
                    report.paraphrase, ["pairs", "linked_by_key", "top3", "found", "auto_merged"], q)
    lines.append(f"Targets met: {'yes' if report.meets_targets() else 'no'}")
    return "\n".join(lines)
