"""Scoring the blind sets (``evals/track/blind/``): sets written by someone who never saw the rules.

* ``track_meaning.jsonl`` -- one finding per line: ``id``, ``domain``, ``text`` and ``kind``, one of
  ``improvement``, ``praise``, ``negated_praise``, ``problem``, ``problem_with_praise_word``,
  ``regression``. Each text is ingested alone, for a fresh user, through the public
  :class:`Tracker` API, and the session report says what the tracker made of it: ``problem``
  (new, remaining or deferred), ``praise`` (filtered as positive), ``improvement`` (listed under
  improvements, linked or not) or ``none`` (filtered for another reason). The scorer never asks
  the meaning layer directly, so it measures the code before and after a change the same way.
  Counted per kind: right, wrong (a problem read as positive, a positive read as a problem),
  hedge (praise read as improvement or the reverse: positive either way) and no answer.
* ``track_paraphrase.json`` -- see :mod:`sadame.track._eval_paraphrase`.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sadame.track._errors import TrackError
from sadame.track._eval_paraphrase import (
    BLIND_PARAPHRASE_FILE,
    ParaphraseReport,
    format_paraphrase,
    run_paraphrase_eval,
)
from sadame.track._matching import IssueMatcher
from sadame.track._ruleset import Ruleset, default_ruleset
from sadame.track._tracker import Tracker
from sadame.track._views import SessionReport, TrackerConfig

__all__ = ["BLIND_MEANING_FILE", "MEANING_KINDS", "BlindEvalError", "BlindReport", "MeaningReport", "figures_table",
           "format_blind", "format_meaning", "is_blind_dir", "observed_meaning", "run_blind",
           "run_meaning_eval"]

BLIND_MEANING_FILE = "track_meaning.jsonl"
#: What each kind of the blind set should become.
MEANING_KINDS: dict[str, str] = {
    "improvement": "improvement", "praise": "praise", "negated_praise": "problem", "problem": "problem",
    "problem_with_praise_word": "problem", "regression": "problem",
}
_POSITIVE = frozenset({"praise", "improvement"})
_MAX_LINES = 5_000


class BlindEvalError(TrackError, ValueError):
    """A blind set that is missing or malformed (the message names file and line)."""


def observed_meaning(report: SessionReport) -> str:
    """What one single-finding session made of its finding."""
    if report.new or report.remaining or report.deferred or report.regressions:
        return "problem"
    if report.improvements:
        return "improvement"
    if any(e.reason == "positive" for e in report.filtered):
        return "praise"
    return "none"


def _verdict(expected: str, got: str) -> str:
    if got == expected:
        return "right"
    if got == "none":
        return "no_answer"
    if expected in _POSITIVE and got in _POSITIVE:
        return "hedge"
    return "wrong"


@dataclass
class MeaningReport:
    """Counts per kind and per domain, and every miss (id, kind, what it became)."""

    ruleset: str
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    by_domain: dict[str, dict[str, int]] = field(default_factory=dict)
    misses: list[dict[str, str]] = field(default_factory=list)

    def figures(self) -> dict[str, float]:
        """The two headline shares: improvements recognised, problems lost (read as positive)."""
        imp = self.by_kind.get("improvement", {})
        problems = [v for k, v in self.by_kind.items() if MEANING_KINDS[k] == "problem"]
        n_prob = sum(v.get("n", 0) for v in problems)
        lost = sum(v.get("wrong", 0) for v in problems)
        out = {"improvement_recognised": imp.get("right", 0) / max(1, imp.get("n", 0)),
               "problems_lost": lost / max(1, n_prob), "problems": n_prob, "problems_lost_count": lost}
        for kind in ("praise", "negated_praise", "regression", "problem_with_praise_word", "problem"):
            row = self.by_kind.get(kind, {})
            out[f"{kind}_right"] = row.get("right", 0) / max(1, row.get("n", 0))
            out[f"{kind}_n"] = row.get("n", 0)
        out["improvement_n"] = imp.get("n", 0)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "by_kind": self.by_kind, "by_domain": self.by_domain,
                "misses": self.misses, "figures": self.figures()}


def _rows(path: Path) -> list[dict[str, str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()[:_MAX_LINES]
    except OSError as exc:
        raise BlindEvalError(f"{path}: cannot read: {exc.strerror or exc}") from None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BlindEvalError(f"{path}:{n}: not JSON: {exc.msg}") from None
        if (not isinstance(row, dict) or any(not isinstance(row.get(k), str) for k in ("id", "domain", "text"))
                or row.get("kind") not in MEANING_KINDS):
            raise BlindEvalError(f"{path}:{n}: needs id, domain, text (str) and kind ({', '.join(MEANING_KINDS)})")
        rows.append(row)
    return rows


def _bump(table: dict[str, dict[str, int]], name: str, verdict: str) -> None:
    row = table.setdefault(name, {"n": 0, "right": 0, "wrong": 0, "hedge": 0, "no_answer": 0})
    row["n"] += 1
    row[verdict] += 1


def run_meaning_eval(path: str | Path, ruleset: Ruleset | None = None) -> MeaningReport:
    """Ingest every text of the meaning set alone and count what it became (see the module doc)."""
    rs = ruleset or default_ruleset()
    rows = _rows(Path(path))
    report = MeaningReport(ruleset=rs.name)
    with tempfile.TemporaryDirectory(prefix="sadame-blind-") as tmp:
        config = TrackerConfig(max_new_per_session=1_000)
        with Tracker(f"sqlite:///{tmp}/blind.db", tenant="blind", ruleset=rs, config=config) as tracker:
            for n, row in enumerate(rows):
                got = observed_meaning(tracker.ingest(f"u{n}", "s1", [row["text"]]))
                verdict = _verdict(MEANING_KINDS[row["kind"]], got)
                _bump(report.by_kind, row["kind"], verdict)
                _bump(report.by_domain, row["domain"], verdict)
                if verdict != "right":
                    report.misses.append({"id": row["id"], "kind": row["kind"], "got": got})
    return report


def _table(title: str, rows: dict[str, dict[str, int]]) -> list[str]:
    cols = ("n", "right", "wrong", "hedge", "no_answer")
    out = [f"#### {title}", "", "| | n | right | wrong | hedge | no answer |", "|---|---|---|---|---|---|"]
    total = {c: sum(r.get(c, 0) for r in rows.values()) for c in cols}
    for name in sorted(rows):
        out.append("| " + " | ".join([name, *(str(rows[name].get(c, 0)) for c in cols)]) + " |")
    out.append("| " + " | ".join(["**all**", *(f"**{total[c]}**" for c in cols)]) + " |")
    return [*out, ""]


def format_meaning(report: MeaningReport) -> str:
    """The meaning tables as Markdown (per kind, per domain) and the two headline figures."""
    f = report.figures()
    lines = [f"Ruleset: `{report.ruleset}`", ""]
    lines += _table("Blind meaning set, by kind (wrong = a problem read as positive or the reverse; "
                    "hedge = praise and improvement confused)", report.by_kind)
    lines += _table("Blind meaning set, by domain", report.by_domain)
    lines.append(f"Improvement forms recognised: {100 * f['improvement_recognised']:.1f}% (target >= 95%); "
                 f"problems lost: {int(f['problems_lost_count'])}/{int(f['problems'])} = "
                 f"{100 * f['problems_lost']:.1f}% (target <= 2%)")
    lines += ["", *figures_table(report)]
    return "\n".join(lines)


def figures_table(report: MeaningReport, label: str = "this set") -> list[str]:
    """One Markdown table of the headline rates, ready to paste into docs/guide/track.md."""
    f = report.figures()

    def rate(kind: str) -> str:
        n = int(f[f"{kind}_n"])
        return f"{100 * f[f'{kind}_right']:.1f}% ({round(f[f'{kind}_right'] * n)}/{n})" if n else "-"

    head = ("| set | improvement recognised | problems lost | praise right | negated praise right | "
            "regression right | problem with praise word right |")
    imp_n = int(f["improvement_n"])
    row = (f"| {label} | {100 * f['improvement_recognised']:.1f}% "
           f"({round(f['improvement_recognised'] * imp_n)}/{imp_n}) | {100 * f['problems_lost']:.1f}% "
           f"({int(f['problems_lost_count'])}/{int(f['problems'])}) | {rate('praise')} | {rate('negated_praise')} | "
           f"{rate('regression')} | {rate('problem_with_praise_word')} |")
    return ["#### Headline rates (paste into docs/guide/track.md)", "", head, "|---|---|---|---|---|---|---|", row]


def is_blind_dir(directory: str | Path) -> bool:
    """True when ``directory`` holds a blind set (``sadame track eval`` then scores those)."""
    base = Path(directory)
    return (base / BLIND_MEANING_FILE).is_file() or (base / BLIND_PARAPHRASE_FILE).is_file()


@dataclass
class BlindReport:
    """The blind sets found in one directory, each scored (``None``: that set is not there)."""

    meaning: MeaningReport | None = None
    paraphrase: ParaphraseReport | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"meaning": None if self.meaning is None else self.meaning.to_dict(),
                "paraphrase": None if self.paraphrase is None else self.paraphrase.to_dict()}


def run_blind(directory: str | Path, ruleset: Ruleset | None = None, *, matcher: IssueMatcher | None = None,
              matcher_timeout: float | None = 5.0) -> BlindReport:
    """Score every blind set present in ``directory`` (the paraphrase set through ``matcher`` if given)."""
    base = Path(directory)
    report = BlindReport()
    if (base / BLIND_MEANING_FILE).is_file():
        report.meaning = run_meaning_eval(base / BLIND_MEANING_FILE, ruleset)
    if (base / BLIND_PARAPHRASE_FILE).is_file():
        report.paraphrase = run_paraphrase_eval(base / BLIND_PARAPHRASE_FILE, ruleset, matcher=matcher,
                                                matcher_timeout=matcher_timeout)
    return report


def format_blind(report: BlindReport) -> str:
    """Every blind table as Markdown."""
    parts = []
    if report.meaning is not None:
        parts.append(format_meaning(report.meaning))
    if report.paraphrase is not None:
        parts.append(format_paraphrase(report.paraphrase))
    return "\n\n".join(parts)
