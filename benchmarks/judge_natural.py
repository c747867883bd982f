"""Benchmark: the judge's natural mode (analyzer included) against seed mode.

Measures, in one process:

* the analyzer: SudachiPy + ``sudachidict_core`` install size on disk, first-load
  time, Python-heap bytes of the load (tracemalloc) and the process's resident
  memory before/after (the dictionary is memory-mapped, so RSS is the honest figure);
* natural mode per question, with :class:`sadame.judge.Judge` (analysis, three
  views, the automaton, polarity, conflicts -- everything a player's question pays):
  on each bundled puzzle (~30 rules) with its own natural questions, and on a
  generated 1,080-rule table (the seed game's size; ``benchmarks/judge.py``'s
  generator) with its generated questions plus the bundled questions;
* seed mode on the same tables and questions (the compiled matcher), for comparison;
* how long compiling a natural table takes (once per table, cached).

Each question is timed alone, best of ``--repeat`` runs; the table shows the median
and the 95th percentile over the questions, in microseconds. Targets from issue 10
(printed as PASS/MISS, never an exit status): natural median <= 1 ms per question on
a 30-rule puzzle and <= 3 ms at 1,080 rules.

    .venv/bin/python benchmarks/judge_natural.py          # about a minute
    .venv/bin/python benchmarks/judge_natural.py --quick
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib.metadata
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge import generate_questions, generate_rules
from sadame.judge import Judge, RuleTable, bundled_pack, parse_table
from sadame.judge.engine._engine import judge_by_rules

__all__ = ["main"]

TARGET_PUZZLE_US = 1_000.0
TARGET_LARGE_US = 3_000.0
ANSWERS = ["YES", "NO", "IRRELEVANT", "UNCERTAIN"]


def _rss_kib() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _install_bytes(distribution: str) -> int:
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return 0
    total = 0
    for file in dist.files or ():
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total


def analyzer_rows() -> list[tuple[str, str]]:
    """Install size, load time and memory of the analyzer (first load in this process)."""
    from sadame.lang import analyze
    from sadame.lang._analyzer import analyzer_info

    before = _rss_kib()
    started = time.perf_counter()
    analyze("電子レンジは関係ない？")
    first_call = time.perf_counter() - started
    info = analyzer_info()
    after = _rss_kib()
    mib = 1024 * 1024
    return [
        ("SudachiPy", info.sudachipy_version),
        ("dictionary", info.dictionary),
        ("install size: sudachipy", f"{_install_bytes('sudachipy') / mib:.1f} MiB"),
        ("install size: sudachidict_core", f"{_install_bytes('sudachidict_core') / mib:.1f} MiB"),
        ("load time (Dictionary + tokenizer)", f"{info.load_seconds * 1e3:.0f} ms"),
        ("first analyze() call, load included", f"{first_call * 1e3:.0f} ms"),
        ("Python heap allocated by the load", f"{info.load_bytes / mib:.2f} MiB"),
        ("resident memory added by the load (RSS)", f"{(after - before) / 1024:.1f} MiB"),
    ]


def _per_question(fn: Callable[[str], object], questions: Sequence[str], repeat: int) -> list[float]:
    """Microseconds per question: each question's best of ``repeat``."""
    best = [float("inf")] * len(questions)
    for _ in range(repeat):
        gc.collect()
        for index, question in enumerate(questions):
            start = time.perf_counter_ns()
            fn(question)
            best[index] = min(best[index], (time.perf_counter_ns() - start) / 1e3)
    return best


def _summary(times: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def _seed_judge(question: str, table: RuleTable) -> object:
    return judge_by_rules(question, table)


def _table(rules: list[dict[str, object]], fmt: str) -> RuleTable:
    data = {"format": fmt, "name": "bench", "answers": ANSWERS, "rules": rules}
    table = parse_table(data)
    assert isinstance(table, RuleTable)
    return table


def _measure(table: RuleTable, seed: RuleTable, questions: Sequence[str], repeat: int) -> tuple[float, ...]:
    judge = Judge(table)
    natural = _summary(_per_question(judge.ask, questions, repeat))
    seeded = _summary(_per_question(lambda q: judge_by_rules(q, seed), questions, repeat))
    return (*natural, *seeded)


def puzzle_rows(repeat: int, limit: int | None) -> tuple[list[tuple[str, ...]], tuple[str, ...], float]:
    """Per bundled puzzle, and all of them together: natural vs seed on the puzzle's
    own questions. Returns (rows, summary row, overall natural median)."""
    pack = bundled_pack("engineering")
    rows: list[tuple[str, ...]] = []
    every: list[float] = []
    every_seed: list[float] = []
    for puzzle in pack.puzzles.values():
        questions = [q.q for q in puzzle.questions][:limit]
        seed = parse_table({"format": "sadame.rules/1", "name": "bench", "answers": list(pack.answers),
                            "rules": [r.to_dict() for r in puzzle.table.rules]})
        assert isinstance(seed, RuleTable)
        Judge(puzzle).ask("準備")  # compile outside the timing
        times = _per_question(Judge(puzzle).ask, questions, repeat)
        seed_times = _per_question(functools.partial(_seed_judge, table=seed), questions, repeat)
        every.extend(times)
        every_seed.extend(seed_times)
        median, p95 = _summary(times)
        rows.append((puzzle.id, str(len(puzzle.table.rules)), str(len(questions)),
                     f"{median:.0f}", f"{p95:.0f}", f"{_summary(seed_times)[0]:.1f}"))
    sizes = [len(p.table.rules) for p in pack.puzzles.values()]
    median, p95 = _summary(every)
    summary = (f"{len(sizes)} bundled puzzles, each its own table", f"{min(sizes)}–{max(sizes)}", str(len(every)),
               f"{median:.0f}", f"{p95:.0f}", f"{_summary(every_seed)[0]:.1f}")
    return rows, summary, median


def large_rows(repeat: int, count: int) -> tuple[list[tuple[str, ...]], float, float]:
    """1,080 generated rules: natural vs seed per question; also the compile time (ms)."""
    rules = generate_rules(1_080)
    natural, seed = _table(rules, "sadame.rules/2"), _table(rules, "sadame.rules/1")
    started = time.perf_counter()
    Judge(natural).ask("準備")
    compile_ms = (time.perf_counter() - started) * 1e3
    generated = generate_questions(rules, count)
    bundled = [q.q for p in bundled_pack("engineering").puzzles.values() for q in p.questions][:count]
    rows: list[tuple[str, ...]] = []
    worst = 0.0
    for label, questions in (("generated questions", generated), ("bundled natural questions", bundled)):
        median, p95, seed_median, _ = _measure(natural, seed, questions, repeat)
        worst = max(worst, median)
        rows.append((f"1,080 generated rules, {label}", "1,080", str(len(questions)),
                     f"{median:.0f}", f"{p95:.0f}", f"{seed_median:.1f}"))
    return rows, worst, compile_ms


def _markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer questions and repeats")
    args = parser.parse_args(argv)
    repeat = 2 if args.quick else args.repeat
    limit = 10 if args.quick else None
    print(f"Python {platform.python_version()} on {platform.machine()}; each question best of {repeat}\n")
    print(_markdown(("analyzer", "figure"), analyzer_rows()), "\n")
    header = ("case", "rules", "questions", "natural median µs", "natural p95 µs", "seed median µs")
    rows, summary, puzzle_median = puzzle_rows(repeat, limit)
    print(_markdown(header, rows), "\n")
    large, large_median, compile_ms = large_rows(repeat, 100 if args.quick else 400)
    print(_markdown(header, [summary, *large]), "\n")
    print(f"compiling a 1,080-rule natural table (once, cached): {compile_ms:.0f} ms")
    verdict = "PASS" if puzzle_median <= TARGET_PUZZLE_US else "MISS"
    print(f"natural median, bundled puzzles: {puzzle_median:.0f} µs (target <= {TARGET_PUZZLE_US:.0f}: {verdict})")
    verdict = "PASS" if large_median <= TARGET_LARGE_US else "MISS"
    print(f"natural median at 1,080 rules (worst question set): {large_median:.0f} µs "
          f"(target <= {TARGET_LARGE_US:.0f}: {verdict})")


if __name__ == "__main__":
    main()
