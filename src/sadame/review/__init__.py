"""sadame.review: see what a contract change does to *your* data before you upgrade.

``contract_diff`` runs the same library calls under two sides (a preset, a judge
matching mode, a tracker ruleset; see :func:`parse_side`) over a user's own files and
lists every outcome that changed: quote status and span, judge verdicts, issue keys.
``sadame contract diff --from A --to B FILE...`` is its command line.

::

    report = contract_diff(["evals/quote/cases.jsonl"], "decoration", "quote")
    report.counts()["newly_found"]

The kinds of file, recognised by their content:

* ``sadame quote eval`` JSON lines (``quotes``/``claims`` per case): every quote, verified
  under both sides' presets;
* rule tables and puzzle packs (YAML/JSON): every example and natural question, judged
  rules-only under both sides' matching modes;
* ``sadame track export`` JSON lines: every stored problem finding, keyed under both sides'
  rulesets, grouped per user to show keys merged, split or renamed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from sadame.review._quotes import diff_quote_eval
from sadame.review._report import DiffReport
from sadame.review._spec import Side, parse_side
from sadame.review._tables import diff_rule_table
from sadame.review._tracker import diff_tracker_export, is_tracker_export

__all__ = [
    "DiffReport",
    "ReviewError",
    "contract_diff",
]


class ReviewError(ValueError):
    """An input file cannot be compared (names the file and why)."""


def _first_json_line(path: Path) -> object:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.lstrip().startswith("#"):
                return json.loads(line)
    return None


def file_kind(path: Path) -> str:
    """``quote-eval``, ``tracker-export`` or ``rule-table``, from the file's content."""
    if path.suffix in (".yaml", ".yml"):
        return "rule-table"
    try:
        if is_tracker_export(path):
            return "tracker-export"
        first = _first_json_line(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ReviewError(f"{path}: cannot read it as JSON lines or a rule table: {exc}") from None
    if isinstance(first, dict) and ("quotes" in first or "claims" in first):
        return "quote-eval"
    if isinstance(first, dict) and str(first.get("format", "")).startswith(("sadame.rules/", "sadame.puzzles/")):
        return "rule-table"
    raise ReviewError(
        f"{path}: not a quote evaluation set, a rule table or a tracker export "
        "(see `sadame contract diff --help`)"
    )


_RUNNERS = {
    "quote-eval": diff_quote_eval,
    "rule-table": diff_rule_table,
    "tracker-export": diff_tracker_export,
}


def contract_diff(paths: Iterable[str | Path], before: str | Side, after: str | Side) -> DiffReport:
    """Every outcome of ``paths`` that differs between ``before`` and ``after``.

    Raises :class:`SideError` for a side that is not valid and :class:`ReviewError` for a
    file that cannot be read or recognised; nothing is half-reported.
    """
    old = before if isinstance(before, Side) else parse_side(before)
    new = after if isinstance(after, Side) else parse_side(after)
    report = DiffReport(old.text, new.text)
    for raw in paths:
        path = Path(raw)
        if not path.is_file():
            raise ReviewError(f"{path}: no such file")
        kind = file_kind(path)
        try:
            report.files.append(_RUNNERS[kind](path, old, new))
        except (ValueError, OSError) as exc:
            raise ReviewError(f"{path}: {exc}") from None
    return report
