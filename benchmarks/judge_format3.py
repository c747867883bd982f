"""Benchmark: pack format 3 (facts, the detail weighing, the grammar guard) against format 2,
and the phrase-conflict step (containment of fired phrases) sweep vs all-pairs, in one process.

* per question, CPU time (``time.process_time_ns``; the machine is shared), best of
  ``--repeat``: the three migrated puzzles judged as format 3 and as the same pack in
  format 2 (facts removed), on their own natural questions; and a generated 1,080-rule
  table (``benchmarks/judge.py``'s generator) as format 2 natural, with its questions
  (format 3 adds nothing to a table without facts beyond the grammar guard);
* the containment step alone on synthetic fired-phrase sets of 8, 82, 800 and 8,000
  phrases: the all-pairs test the judge used before and the sweep it uses now.

Target (issue 25): natural mode <= 1 ms per question at 1,080 rules.

    .venv/bin/python benchmarks/judge_format3.py
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from judge import generate_questions, generate_rules
from sadame.judge import Judge, PuzzlePack, RuleTable, parse_table
from sadame.judge.engine._natural import _inside_longer

MIGRATED = {"engineering": ["rainy-lunch-server", "login-only-from-home"], "everyday": ["clock-tower-slow-in-summer"]}
DATA = Path(__file__).parents[1] / "src" / "sadame" / "data" / "puzzles"


def _cpu_us(fn: Callable[[str], object], questions: Sequence[str], repeat: int) -> list[float]:
    best = [float("inf")] * len(questions)
    for _ in range(repeat):
        gc.collect()
        for i, q in enumerate(questions):
            start = time.process_time_ns()
            fn(q)
            best[i] = min(best[i], (time.process_time_ns() - start) / 1e3)
    return best


def _stats(times: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def _pack(name: str, fmt: str) -> PuzzlePack:
    data = yaml.safe_load((DATA / f"{name}.yaml").read_text("utf-8"))
    data["format"] = fmt
    data["puzzles"] = [copy.deepcopy(p) for p in data["puzzles"] if p["id"] in MIGRATED[name]]
    if fmt.endswith("/2"):
        for p in data["puzzles"]:
            p.pop("facts", None)
    pack = parse_table(data)
    assert isinstance(pack, PuzzlePack)
    return pack


def puzzles(repeat: int) -> list[tuple[str, ...]]:
    rows = []
    for name, ids in MIGRATED.items():
        three, two = _pack(name, "sadame.puzzles/3"), _pack(name, "sadame.puzzles/2")
        for pid in ids:
            questions = [q.q for q in three.puzzle(pid).questions]
            j3, j2 = Judge(three.puzzle(pid)), Judge(two.puzzle(pid))
            for q in questions:  # warm: analyzer, compiled tables, fact books
                j3.ask(q), j2.ask(q)
            m3, p3 = _stats(_cpu_us(j3.ask, questions, repeat))
            m2, p2 = _stats(_cpu_us(j2.ask, questions, repeat))
            rows.append((pid, str(len(questions)), f"{m2:.0f}", f"{p2:.0f}", f"{m3:.0f}", f"{p3:.0f}", f"{m3 / m2:.2f}x"))
    return rows


def big_table(repeat: int) -> tuple[str, ...]:
    rules = generate_rules(1080)
    table = parse_table({"format": "sadame.rules/2", "name": "big", "answers": ["YES", "NO", "IRRELEVANT"],
                         "rules": [{**r, "answer": r["answer"] if r["answer"] in ("YES", "NO") else "YES"}
                                   for r in rules]})
    assert isinstance(table, RuleTable)
    questions = generate_questions(rules, 400)
    judge = Judge(table)
    for q in questions:
        judge.ask(q)
    median, p95 = _stats(_cpu_us(judge.ask, questions, repeat))
    return ("1,080 generated rules (format 2 natural)", str(len(questions)), f"{median:.0f}", f"{p95:.0f}",
            "PASS" if median <= 1000 else "MISS")


def _all_pairs(spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(b, e) for b, e in spans if any(b2 <= b and e <= e2 and e2 - b2 > e - b for b2, e2 in spans)}


def conflict_rows() -> list[tuple[str, ...]]:
    rng = random.Random(7)
    rows = []
    for n in (8, 82, 800, 8000):
        spans = {(b, b + rng.randint(1, 6)) for b in (rng.randint(0, n * 2) for _ in range(n))}
        assert _all_pairs(spans) == _inside_longer(spans)
        times = []
        for fn in (_all_pairs, _inside_longer):
            reps = max(1, 2000 // n) if n < 8000 else 1
            start = time.process_time_ns()
            for _ in range(reps):
                fn(spans)
            times.append((time.process_time_ns() - start) / 1e3 / reps)
        rows.append((str(len(spans)), f"{times[0]:.1f}", f"{times[1]:.1f}", f"{times[0] / times[1]:.1f}x"))
    return rows


def _table_md(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} (shared machine); CPU time, best of {args.repeat}")
    print(_table_md(("puzzle", "questions", "format 2 median µs", "p95", "format 3 median µs", "p95", "ratio"),
                    puzzles(args.repeat)))
    print()
    print(_table_md(("table", "questions", "median µs", "p95 µs", "≤ 1 ms"), [big_table(args.repeat)]))
    print()
    print(_table_md(("fired phrases", "all-pairs µs", "sweep µs", "speed-up"), conflict_rows()))


if __name__ == "__main__":
    main()
