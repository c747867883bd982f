"""Benchmark: the numeric step (``sadame.normalize.numeric``) on prose and on adversarial input.

Two tables, measured with ``time.perf_counter`` (best of ``--repeat`` rounds, garbage
collector paused while timing):

1. Throughput on prose: the seed reports (``../shared/seeds`` relative to the
   repository root; the bundled sample in ``benchmarks/data`` when that is absent)
   interleaved with sentences built from the numeric golden table, repeated to the
   target size and NFKC-normalized first (the contract runs the step on NFKC text).
   Rows: ``scan_numeric`` (default and ``include_unchanged=True``), ``apply_numeric``,
   and the ``numeric`` preset against the ``decoration`` preset (the same pipeline
   without the numeric step), so the step's share of the preset is visible.
2. Adversarial input: one row per pathological string at two sizes; the ratio of
   the times shows the scaling (a linear scanner gives ~4x for 4x the input).

    .venv/bin/python benchmarks/numeric.py            # 2 MB prose, 1 MB adversarial
    .venv/bin/python benchmarks/numeric.py --quick    # 0.5 MB prose, 0.25 MB adversarial
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sadame.normalize import normalize
from sadame.normalize.numeric import apply_numeric, scan_numeric

__all__ = ["ADVERSARIAL", "build_prose", "main"]

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"
SAMPLE = Path(__file__).resolve().parent / "data"
GOLDEN = REPO / "tests" / "normalize" / "data" / "numeric.json"

#: name -> (unit string, how many units make 1 MB-ish of characters)
ADVERSARIAL: dict[str, tuple[str, int]] = {
    '"1" * n': ("1", 1_000_000),
    '"一" * n': ("一", 1_000_000),
    '"1," * n': ("1,", 500_000),
    '"令和" * n': ("令和", 500_000),
    '"令和1" * n': ("令和1", 333_333),
    '"1 " * n': ("1 ", 500_000),
    '"一 " * n': ("一 ", 500_000),
    '"1万" * n': ("1万", 500_000),
    '"1年" * n (dense candidates)': ("1年", 500_000),
    '"一人" * n (dense matches)': ("一人", 500_000),
    '"1割" * n (dense matches)': ("1割", 500_000),
    '"1〜" * n (dense ranges)': ("1〜", 500_000),
}


def _seed_lines() -> list[str]:
    folder = SEEDS if SEEDS.is_dir() else SAMPLE
    lines: list[str] = []
    for path in sorted(folder.glob("*.txt")):
        lines.extend(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return lines


def build_prose(target_chars: int) -> list[str]:
    """Seed lines interleaved with numeric sentences, NFKC-normalized, ~``target_chars``."""
    golden = [case["input"] for case in json.loads(GOLDEN.read_text(encoding="utf-8"))]
    rng = random.Random(2)
    numeric = [f"報告では{rng.choice(golden)}とされ、前年は{rng.choice(golden)}だった。" for _ in range(400)]
    base = [*_seed_lines(), *numeric]
    rng.shuffle(base)
    lines: list[str] = []
    size = 0
    while size < target_chars:
        for line in base:
            lines.append(line)
            size += len(line)
            if size >= target_chars:
                break
    # The step sees NFKC text; the nfkc-only normal form is what the pipeline hands it.
    return [_nfkc(line) for line in lines]


def _nfkc(text: str) -> str:
    from sadame.normalize import NormalizeFlags, PunctuationMode, WhitespaceMode

    flags = NormalizeFlags(
        nfkc=True,
        markdown_strip=False,
        numeric=False,
        casefold=False,
        kana=False,
        punctuation=PunctuationMode.KEEP,
        punctuation_chars="",
        whitespace=WhitespaceMode.KEEP,
        equivalences=frozenset(),
    )
    return normalize(text, flags=flags)


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def _prose_table(lines: list[str], repeat: int) -> list[str]:
    chars = sum(map(len, lines))
    methods: dict[str, Callable[[], object]] = {
        "scan_numeric": lambda: [scan_numeric(line) for line in lines],
        "scan_numeric(include_unchanged=True)": lambda: [
            scan_numeric(line, include_unchanged=True) for line in lines
        ],
        "apply_numeric": lambda: [apply_numeric(line) for line in lines],
        'normalize(preset="decoration") (no numeric step)': lambda: [
            normalize(line, preset="decoration") for line in lines
        ],
        'normalize(preset="numeric")': lambda: [normalize(line, preset="numeric") for line in lines],
    }
    changed = sum(1 for line in lines if scan_numeric(line))
    out = [
        f"Prose: {len(lines):,} lines, {chars / 1e6:.2f} M chars, {changed:,} lines with a rewrite.",
        "",
        "| method | total (s) | µs / line | M chars / s |",
        "|---|---:|---:|---:|",
    ]
    for name, fn in methods.items():
        seconds = _best(fn, repeat)
        out.append(
            f"| {name} | {seconds:.3f} | {seconds / len(lines) * 1e6:.2f} | {chars / seconds / 1e6:.2f} |"
        )
    return out


def _adversarial_table(scale: float, repeat: int) -> list[str]:
    out = [
        "| adversarial input | chars (small) | s (small) | chars (4x) | s (4x) | ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, (unit, count) in ADVERSARIAL.items():
        small = unit * max(1, int(count * scale / 4))
        large = unit * max(1, int(count * scale))
        t_small = _best(lambda s=small: scan_numeric(s), repeat)  # type: ignore[misc]
        t_large = _best(lambda s=large: scan_numeric(s), repeat)  # type: ignore[misc]
        ratio = t_large / t_small if t_small > 0 else float("nan")
        out.append(
            f"| `{name}` | {len(small):,} | {t_small:.3f} | {len(large):,} | {t_large:.3f} | {ratio:.1f} |"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="smaller inputs (~4x faster)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per figure (best is kept)")
    args = parser.parse_args(argv)
    prose_chars = 500_000 if args.quick else 2_000_000
    scale = 0.25 if args.quick else 1.0
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print()
    for line in _prose_table(build_prose(prose_chars), args.repeat):
        print(line)
    print()
    for line in _adversarial_table(scale, max(1, args.repeat - 2)):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
