"""Benchmark: memory and time of ``normalize_with_offsets``, per preset.

Issue 13 asks for at most 12 bytes per input character retained by the result and at
most 24 at peak, at least as fast as before. For each preset this normalizes one
string of ``--mb`` MB built from the corpus of ``benchmarks/normalize.py`` and reports,
from ``tracemalloc``: the bytes the result keeps alive (text and offset maps) and the
peak during the call, both per input character, and the best time of ``--repeat``
(timed without tracemalloc). ``--verify-quotes`` adds the 10 MB ``verify_quotes`` case.

    .venv/bin/python benchmarks/offsets_memory.py --mb 2
    .venv/bin/python benchmarks/offsets_memory.py --mb 10 --verify-quotes
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from normalize import build_corpus  # the sibling benchmark's corpus
from sadame.normalize import PRESETS, normalize_with_offsets

MB = 1_000_000
WARM_UP = "- **ａ１ｱ**: x…  y、z\n"


def measure(text: str, preset: str) -> tuple[float, float]:
    """(retained, peak) bytes per input character (after a warm-up call: the one-time,
    per-process tables -- translate tables, compiled patterns -- are not per character)."""
    normalize_with_offsets(WARM_UP, preset=preset)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    result = normalize_with_offsets(text, preset=preset)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return (current - before) / len(text), (peak - before) / len(text)


def best_time(text: str, preset: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        normalize_with_offsets(text, preset=preset)
        times.append(time.perf_counter() - started)
    return min(times)


def quotes_peak(text: str) -> tuple[float, float]:
    """Peak MB and seconds of ``verify_quotes`` of 20 quotes against ``text``."""
    from sadame.quote import verify_quotes

    lines = [line for line in text.splitlines() if len(line) > 20]
    quotes = [lines[i * len(lines) // 20][:30] for i in range(20)]
    quotes.append("この文は原文のどこにもない引用です")  # missing: forces the normalized, offsets path
    gc.collect()
    tracemalloc.start()
    started = time.perf_counter()
    results = verify_quotes(quotes, text, preset="decoration")
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert all(r.verified for r in results[:-1]) and not results[-1].verified
    return peak / MB, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=2, help="input size in MB (default 2)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verify-quotes", action="store_true", help="also the 10 MB verify_quotes peak")
    args = parser.parse_args(argv)
    lines, source = build_corpus(max(args.mb, 10 if args.verify_quotes else 0) * MB)
    whole = "\n".join(lines)
    text = whole.encode("utf-8")[: args.mb * MB].decode("utf-8", "ignore")
    print(f"One string of {args.mb} MB ({len(text):,} characters) from {source}; Python {sys.version.split()[0]}.\n")
    print(f"| preset | retained bytes/char | peak bytes/char | best of {args.repeat} s |")
    print("|---|---:|---:|---:|")
    for preset in sorted(PRESETS):
        retained, peak = measure(text, preset)
        seconds = best_time(text, preset, args.repeat)
        print(f"| `{preset}` | {retained:.1f} | {peak:.1f} | {seconds:.3f} |")
    if args.verify_quotes:
        ten = whole.encode("utf-8")[: 10 * MB].decode("utf-8", "ignore")
        peak_mb, seconds = quotes_peak(ten)
        print(f"\n`verify_quotes` (20 found + 1 missing quote, decoration) on 10 MB: "
              f"peak {peak_mb:.0f} MB, {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
