"""Benchmark: start-up time of the CLI against a bare interpreter.

Issue 13 asks that ``sadame --help`` and ``sadame normalize`` start in at most
0.15 s. Each command runs ``--runs`` times as a fresh process; the table shows the
best and the median wall time, and the difference to ``python -c pass``.

    .venv/bin/python benchmarks/startup.py --runs 15
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

SADAME = str(Path(sys.executable).parent / "sadame")

COMMANDS: list[tuple[str, list[str], str | None]] = [
    ("python -c pass", [sys.executable, "-c", "pass"], None),
    ("sadame --help", [SADAME, "--help"], None),
    ("sadame normalize --preset judge (stdin)", [SADAME, "normalize", "--preset", "judge"], "ｷｬｯｼｭ？"),
    ("sadame rules --help", [SADAME, "rules", "--help"], None),
]


def timings(args: list[str], stdin: str | None, runs: int) -> list[float]:
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(args, input=stdin, capture_output=True, text=True, check=True)
        found.append(time.perf_counter() - started)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    rows = [(name, timings(cmd, stdin, args.runs)) for name, cmd, stdin in COMMANDS]
    base = min(rows[0][1])
    print(f"| command | best s | median s | best minus `python -c pass` s |  ({args.runs} runs each)")
    print("|---|---:|---:|---:|")
    for name, found in rows:
        print(f"| `{name}` | {min(found):.3f} | {statistics.median(found):.3f} | {min(found) - base:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
