"""Benchmark: the floor under ``verify_quotes`` on a source never seen (issue 21, item 2).

For ``benchmarks/quote.py``'s source at 10 KB, 100 KB and 1 MB and its 200 quotes, on a source
never seen (a new first line per call), the CPU time of:

* ``verify_quotes`` itself;
* the simple code: ``normalize(source)`` once, then ``normalize(q) in ns`` per quote;
* its two parts: ``normalize(source)`` and the 200 quotes' ``normalize``;
* the quotes that are not raw substrings of the source, normalized (what a verifier must
  normalize: a raw substring is reported without normalizing it);
* ``normalize_with_offsets(source)`` (the whole source's offsets, the eager path's map).

The *floor* of a verifier that reports spans is ``normalize(source)`` plus the normalization of
the quotes not found raw plus some offsets; the simple code is ``normalize(source)`` plus every
quote's normalization. Best of ``--repeat`` rounds, all measurements interleaved.

    .venv/bin/python benchmarks/quote_floor.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from quote import build_quotes, build_source
from sadame.normalize import normalize, normalize_with_offsets
from sadame.quote import verify_quotes

KB = 1_000


def _cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        fn()
        return time.process_time() - start
    finally:
        gc.enable()


def measure(size: int, repeat: int) -> dict[str, float]:
    """Best CPU seconds of each measurement for one source size."""
    source, bullets = build_source(size)
    quotes = build_quotes(source, bullets, 200)
    not_raw = [q for q in quotes if q not in source]
    sources = iter([f"{i}\n{source}" for i in range(8 * repeat)])
    calls: dict[str, Callable[[str], object]] = {
        "verify_quotes": lambda s: verify_quotes(quotes, s),
        "simple code": lambda s: [
            normalize(q, preset="quote") in ns for ns in [normalize(s, preset="quote")] for q in quotes
        ],
        "normalize(source)": lambda s: normalize(s, preset="quote"),
        "normalize(200 quotes)": lambda s: [normalize(q, preset="quote") for q in quotes],
        "normalize(quotes not raw)": lambda s: [normalize(q, preset="quote") for q in not_raw],
        "normalize_with_offsets(source)": lambda s: normalize_with_offsets(s, preset="quote"),
    }
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(repeat):
        for name, call in calls.items():
            fresh = next(sources)
            best[name] = min(best[name], _cpu(lambda c=call, s=fresh: c(s)))  # type: ignore[misc]
    best["quotes not raw"] = len(not_raw)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} at start; CPU ms, best of {args.repeat}, interleaved\n")
    sizes = (10 * KB, 100 * KB, 1000 * KB)
    results = {size: measure(size, args.repeat) for size in sizes}
    names = [n for n in results[sizes[0]] if n != "quotes not raw"]
    print("| measurement | " + " | ".join(f"{s // KB:,} KB" for s in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for name in names:
        cells = [f"{results[s][name] * 1e3:.2f}" for s in sizes]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| (quotes not raw) | " + " | ".join(f"{results[s]['quotes not raw']:.0f}" for s in sizes) + " |")
    floor = [results[s]["normalize(source)"] + results[s]["normalize(quotes not raw)"] for s in sizes]
    print(
        "| floor without offsets: normalize(source) + quotes not raw | "
        + " | ".join(f"{f * 1e3:.2f}" for f in floor)
        + " |"
    )
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
