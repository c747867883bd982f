"""A blind judge round as a Markdown table per question kind (right / wrong / hedge / no verdict).

Usage: ``python scripts/judge_blind_table.py .venv/bin/sadame OUT.md evals/judge/blind_round2/*.yaml``
(each file is named after its pack; each question's first tag is its kind). It runs
``sadame rules test PACK --questions FILE --json`` (rules only) and counts ``MATTERS`` as a hedge.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
from pathlib import Path

import yaml

ORDER = ["plain", "negated", "false_detail", "kana_typo", "irrelevant", "engineering", "everyday", "classic", "all"]


def _grades(sadame: str, file: str) -> list[tuple[str, str]]:
    pack = Path(file).stem
    questions = yaml.safe_load(Path(file).read_text(encoding="utf-8"))["questions"]
    result = subprocess.run([sadame, "rules", "test", pack, "--questions", file, "--json", "--min-right", "0",
                             "--max-wrong", "1"], capture_output=True, text=True, check=False)
    misses: dict[tuple[str, str], list[dict[str, object]]] = {}
    for miss in json.loads(result.stdout)["questions"]["misses"]:
        misses.setdefault((str(miss["puzzle"]), str(miss["q"])), []).append(miss)
    graded = []
    for q in questions:
        found = misses.get((q["puzzle"], q["q"]))
        grade = "right"
        if found:
            miss = found.pop(0)
            grade = "hedge" if miss["grade"] == "matters" or miss.get("got") == "MATTERS" else str(miss["grade"])
        graded.append(((q.get("tags") or ["?"])[0], grade))
    return graded


def main() -> None:
    sadame, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for file in files:
        for kind, grade in _grades(sadame, file):
            for key in (kind, Path(file).stem, "all"):
                rows[key][grade] += 1
    lines = ["| kind | n | right | wrong | hedge | no verdict |", "|---|---:|---:|---:|---:|---:|"]
    for key in ORDER:
        counts = rows.get(key)
        if not counts:
            continue
        n = sum(counts.values())
        cells = [f"{counts[g]} ({100 * counts[g] / n:.1f}%)" for g in ("right", "wrong", "hedge", "none")]
        lines.append(f"| {key} | {n} | " + " | ".join(cells) + " |")
    Path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
