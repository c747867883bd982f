"""Benchmark: whole-text normalization time against input size, for every preset.

Issue 2 asks that a 10 MB string normalizes in time linear in its size. This script
builds one text of 1, 2, 5 and 10 MB from the same corpus as ``benchmarks/normalize.py``
(lines joined with newlines), and times ``normalize`` and ``normalize_with_offsets`` once per
size and preset (best of ``--repeat``). Linear means seconds per MB stays flat.

    .venv/bin/python benchmarks/normalize_scaling.py
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from normalize import build_corpus  # the sibling benchmark's corpus
from sadame.normalize import PRESETS, normalize, normalize_with_offsets

MB = 1_000_000
SIZES_MB = (1, 2, 5, 10)


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def run(repeat: int, offsets_up_to_mb: int) -> str:
    lines, source = build_corpus(max(SIZES_MB) * MB)
    whole = "\n".join(lines)
    encoded = whole.encode("utf-8")
    texts = {size: encoded[: size * MB].decode("utf-8", "ignore") for size in SIZES_MB}
    out = [f"Corpus from {source}; one string per size; best of {repeat}.", ""]
    out.append("| preset | path | " + " | ".join(f"{s} MB s" for s in SIZES_MB) + " | s/MB at 1 MB | s/MB at 10 MB |")
    out.append("|---|---|" + "---:|" * (len(SIZES_MB) + 2))
    for preset in sorted(PRESETS):
        for path, fn, limit in (
            ("normalize", normalize, max(SIZES_MB)),
            ("with offsets", normalize_with_offsets, offsets_up_to_mb),
        ):
            cells: list[str] = []
            per_mb: dict[int, float] = {}
            for size in SIZES_MB:
                if size > limit:
                    cells.append("—")
                    continue
                text = texts[size]
                seconds = _best(functools.partial(fn, text, preset=preset), repeat)
                per_mb[size] = seconds / size
                cells.append(f"{seconds:.3f}")
            first, last = per_mb[SIZES_MB[0]], per_mb[max(per_mb)]
            out.append(f"| `{preset}` | {path} | " + " | ".join(cells) + f" | {first:.3f} | {last:.3f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--offsets-up-to", type=int, default=10, help="largest size (MB) for the offsets path")
    args = parser.parse_args(argv)
    print(run(args.repeat, args.offsets_up_to))
    return 0


if __name__ == "__main__":
    sys.exit(main())
