"""Score number grounding on a blind set: every number of an LLM summary labelled by its writer.

Usage: python evals/quote/score_grounding.py DIR [DIR ...] [--json] [--list]

Each DIR holds ``cases.jsonl``: one object a line with ``source``, ``output`` and ``numbers``
(``text`` exactly as in the output, ``context`` around it, ``supported`` true/false, ``why``),
written by someone who had not seen the grounding rules (``/work/blind/GROUND_BRIEF.md``, kept
beside the set as ``BRIEF.md``). ``check_output(source, output)`` is run once a case; each labelled
number is matched to the checker's mention that covers its position in the output.

Outcomes, counted separately:
- supported and shown ✔ (grounded): right; shown △ (context differs): hedge; shown ✘: wrong
  (a false alarm, 「原文にありません」 for a number the source states);
- unsupported and shown ✘ or △: right (not vouched for); shown ✔: wrong (a false ✔, the costly one);
- no mention of the checker covers the number: no answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from sadame.quote import check_output

OUTCOMES = ("right", "hedge", "wrong_false_ok", "wrong_false_alarm", "no_answer")


def _position(output: str, item: dict[str, Any], after: int) -> int:
    """Where the labelled number starts in the output: inside its context, at or after the
    previous labelled number's context when it can be (numbers are listed in order)."""
    context, text = item["context"], item["text"]
    at = output.find(context, after)
    if at == -1:
        at = output.find(context)
    if at == -1 or text not in context:
        raise ValueError(f"context {context!r} with {text!r} is not in the output")
    return at + context.index(text)


def _shown(mentions: list[Any], start: int, end: int) -> str | None:
    """What a reader sees on a labelled number: the worst mark of the checked numbers it
    overlaps (``2024年7月24日〜28日`` is two of them; a ✘ on ``28日`` flags the range)."""
    shown: str | None = None
    for number in mentions:
        m = number.mention
        if m.start < end and start < m.end:
            mark = "ok" if number.grounded else "differs" if number.context_differs else "missing"
            if shown is None or _SEVERITY[mark] > _SEVERITY[shown]:
                shown = mark
    return shown


_SEVERITY = {"ok": 0, "differs": 1, "missing": 2}


def _outcome(supported: bool, shown: str | None) -> str:
    if shown is None:
        return "no_answer"
    if supported:
        return {"ok": "right", "differs": "hedge", "missing": "wrong_false_alarm"}[shown]
    return "wrong_false_ok" if shown == "ok" else "right"


def score_case(case: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per labelled number: its label, what the checker showed, the outcome."""
    result = check_output(case["source"], case["output"])
    mentions = list(result.numbers.numbers)
    rows: list[dict[str, Any]] = []
    after = 0
    for item in case["numbers"]:
        start = _position(case["output"], item, after)
        after = start
        shown = _shown(mentions, start, start + len(item["text"]))
        rows.append({"id": case["id"], "text": item["text"], "supported": bool(item["supported"]),
                     "shown": shown or "-", "outcome": _outcome(bool(item["supported"]), shown),
                     "why": item.get("why", "")})
    return rows


def score_dirs(dirs: list[Path]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for directory in dirs:
        for line in (directory / "cases.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.extend(score_case(json.loads(line)))
    by_label: dict[str, Counter[str]] = {"supported": Counter(), "unsupported": Counter()}
    for row in rows:
        by_label["supported" if row["supported"] else "unsupported"][row["outcome"]] += 1
    total = Counter(row["outcome"] for row in rows)
    return {"numbers": len(rows), "outcomes": {k: total[k] for k in OUTCOMES},
            "by_label": {label: {k: c[k] for k in OUTCOMES} for label, c in by_label.items()},
            "rows": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="the whole report as JSON")
    parser.add_argument("--list", action="store_true", help="every number that was not right")
    args = parser.parse_args(argv)
    report = score_dirs(args.dirs)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    n = report["numbers"]
    print(f"numbers: {n}")
    for label, counts in report["by_label"].items():
        size = sum(counts.values())
        parts = ", ".join(f"{k} {v} ({100 * v / size:.1f}%)" for k, v in counts.items() if size)
        print(f"  {label} ({size}): {parts}")
    if args.list:
        for row in report["rows"]:
            if row["outcome"] != "right":
                print(f"  {row['outcome']:<17} {row['id']:<8} {row['text']:<14} shown {row['shown']:<8} {row['why']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
