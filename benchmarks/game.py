"""Benchmark: what the puzzle list costs -- the measured difficulty of every bundled puzzle.

The list shows each puzzle's measured difficulty (``sadame.judge.game.measure_difficulty``:
every natural question's expected verdict and the solution words it names, then 51
shuffled replays). It is computed on first
use per process and cached per puzzle id and table version, so the first list a process
serves pays for it and later lists do not. This script reports, over every bundled pack
(or the pack files given):

* pack load time (the loader, analyzer included on first use),
* first catalog (every puzzle measured) and a second, cached one,
* questions replayed and the time per question.

    .venv/bin/python benchmarks/game.py
    .venv/bin/python benchmarks/game.py engineering path/to/pack.yaml ...   # names or files
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

from sadame.judge import PuzzlePack, bundled_pack, load_pack
from sadame.judge.engine._loader import bundled_names
from sadame.judge.game import puzzle_catalog


def _packs(args: list[str]) -> list[PuzzlePack]:
    if args:
        return [load_pack(Path(a)) if a.endswith((".yaml", ".yml", ".json")) else bundled_pack(a) for a in args]
    return [bundled_pack(name) for name in bundled_names()]


def main(args: list[str]) -> None:
    started = time.perf_counter()
    packs = _packs(args)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    catalog = puzzle_catalog(packs, {})
    first = time.perf_counter() - started
    started = time.perf_counter()
    puzzle_catalog(packs, {})
    cached = time.perf_counter() - started
    puzzles = sum(len(p.puzzles) for p in catalog)
    questions = sum(e.measured.questions for p in catalog for e in p.puzzles)
    print(f"python {platform.python_version()} on {platform.machine()}, {len(packs)} pack(s), {puzzles} puzzles")
    print("| step | time |")
    print("|---|---|")
    print(f"| load packs | {loaded:.2f} s |")
    print(f"| first list (measure {puzzles} puzzles, {questions} questions replayed) | {first:.2f} s "
          f"({first / max(questions, 1) * 1000:.2f} ms per question) |")
    print(f"| later lists (cached) | {cached * 1000:.1f} ms |")


if __name__ == "__main__":
    main(sys.argv[1:])
