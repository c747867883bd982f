"""Benchmark: ``verify_quotes`` against the naive approach, 1,000 quotes on a 200 KB source.

The naive approach is what seed 002's gates did: for every quote, normalize the
whole source again and test ``normalize(quote) in normalized_source``. ``verify_quotes``
normalizes the source once, with offsets, and maps every hit back to the original.

Source: the lines of the seed reports (``../shared/seeds`` relative to the repository
root; a deterministic generator when that is absent) turned into Markdown bullets
(``- **label**: rest``, ``- `code` rest``, numbered items, plain lines), repeated in
a fixed shuffled order until the UTF-8 size reaches the target. Quotes (fixed seed):
45% bullets quoted the way LLMs do (bold/code/list markers dropped), 20% raw
substrings, 35% near-quotes with one character changed (must stay missing).

The benchmark ASSERTS, for every quote, that both approaches agree (every ``normalized``
verdict is a naive hit; a naive hit is verified unless no original span normalizes to
the quote, which is counted and printed), and for every found quote that its reported span, normalized with the preset,
equals the normalized quote. Speed target from issue 4: at least 20x (printed as
PASS/MISS).

    .venv/bin/python benchmarks/quote.py            # 1,000 quotes, 200 KB source
    .venv/bin/python benchmarks/quote.py --quick    # 200 quotes, 50 KB source
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

from sadame.normalize import normalize, normalize_with_offsets
from sadame.quote import verify_quotes

__all__ = ["build_quotes", "build_source", "main"]

REPO = Path(__file__).resolve().parent.parent
# The seed reports; SADAME_SEEDS names them elsewhere (a worktree under /work/wt/<branch>).
SEEDS = Path(os.environ.get("SADAME_SEEDS", REPO.parent / "shared" / "seeds"))
TARGET_SPEEDUP = 20.0
PRESET = "quote"  # the library default since contract version 2 (--preset to change)

_FALLBACK_WORDS = (
    "照合", "結果", "ゲート", "正規化", "引用", "安定性", "保守性", "不足", "重複", "契約",
    "売上高", "1億2000万円", "前年比", "3割", "令和8年7月18日", "障害", "対策", "監視", "移行", "決定",
)  # fmt: skip


def _seed_lines() -> list[str]:
    lines: list[str] = []
    if SEEDS.is_dir():
        for path in sorted(SEEDS.glob("*.txt")):
            for line in path.read_text(encoding="utf-8").splitlines():
                line = line.strip(" \t•-")
                if len(line) >= 12:
                    lines.append(line)
    if lines:
        return lines
    rng = random.Random(2026)  # fallback: deterministic pseudo-sentences
    return [
        "".join(rng.choice(_FALLBACK_WORDS) for _ in range(rng.randint(4, 12))) + "。" for _ in range(400)
    ]


def build_source(target_bytes: int) -> tuple[str, list[tuple[str, str]]]:
    """The source text and, per bullet, (the bullet as written, the text an LLM quotes)."""
    rng = random.Random(4)
    base = _seed_lines()
    out: list[str] = []
    bullets: list[tuple[str, str]] = []
    size = 0
    n = 0
    while size < target_bytes:
        order = base[:]
        rng.shuffle(order)
        for line in order:
            n += 1
            cut = max(2, min(10, len(line) // 4))
            label, rest = line[:cut], line[cut:]
            style = n % 4
            if style == 0:
                written, quoted = f"- **{label}**: {rest}", f"{label}: {rest}"
            elif style == 1:
                written, quoted = f"- `{label}` {rest}", f"{label} {rest}"
            elif style == 2:
                written, quoted = f"{n % 9 + 1}. {label}{rest}", f"{label}{rest}"
            else:
                written, quoted = line, line
            out.append(written)
            bullets.append((written, quoted))
            size += len(written.encode("utf-8")) + 1
            if size >= target_bytes:
                break
    return "\n".join(out) + "\n", bullets


def build_quotes(source: str, bullets: list[tuple[str, str]], count: int) -> list[str]:
    """``count`` quotes: decorated-then-dropped, raw substrings, and one-character changes."""
    rng = random.Random(18)
    normalized = normalize(source, preset=PRESET)
    quotes: list[str] = []
    while len(quotes) < count:
        written, quoted = rng.choice(bullets)
        roll = rng.random()
        if roll < 0.45:
            end = rng.randint(min(len(quoted), 12), len(quoted))
            quotes.append(quoted[:end])
        elif roll < 0.65:
            start = rng.randrange(0, max(1, len(written) - 10))
            quotes.append(written[start : start + rng.randint(6, 40)])
        else:
            text = list(quoted[: rng.randint(min(len(quoted), 16), len(quoted))])
            i = rng.randrange(len(text))
            text[i] = "偽" if text[i] != "偽" else "真"
            candidate = "".join(text)
            if normalize(candidate, preset=PRESET) not in normalized:
                quotes.append(candidate)
    return quotes


def _naive(quotes: list[str], source: str) -> list[bool]:
    return [normalize(q, preset=PRESET) in normalize(source, preset=PRESET) for q in quotes]


def _produced(mapped: Any, start: int, end: int) -> str:
    """The normalized characters that came from inside ``source[start:end]`` and nowhere else."""
    return "".join(
        ch for ch, a, b in zip(mapped.text, mapped.starts, mapped.ends, strict=True) if start <= a and b <= end
    )


def _timed(fn: object, *args: object) -> tuple[float, object]:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = fn(*args)  # type: ignore[operator]
        return time.perf_counter() - start, result
    finally:
        gc.enable()


def main(argv: list[str] | None = None) -> int:
    global PRESET  # the helpers read the chosen preset
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quotes", type=int, default=1000)
    parser.add_argument("--kb", type=int, default=200, help="source size in KB of UTF-8")
    parser.add_argument("--quick", action="store_true", help="200 quotes, 50 KB")
    parser.add_argument(
        "--naive-sample",
        type=int,
        default=100,
        help="time the naive approach on every k-th quote, this many in all (0: all quotes)",
    )
    parser.add_argument("--preset", default=PRESET, help="preset the quotes are verified under")
    args = parser.parse_args(argv)
    count, kb = (200, 50) if args.quick else (args.quotes, args.kb)
    PRESET = args.preset

    source, bullets = build_source(kb * 1000)
    quotes = build_quotes(source, bullets, count)

    fast_s, results = _timed(verify_quotes, quotes, source, PRESET)
    step = max(1, count // args.naive_sample) if args.naive_sample > 0 else 1
    sampled = list(range(0, count, step))
    naive_s, naive_list = _timed(_naive, [quotes[i] for i in sampled], source)
    assert isinstance(results, list) and isinstance(naive_list, list)
    naive_found: dict[int, bool] = dict(zip(sampled, naive_list, strict=True))
    naive_per_quote = naive_s / len(sampled)

    statuses: dict[str, int] = {}
    unaligned = 0
    in_context = 0
    mapped = normalize_with_offsets(source, preset=PRESET)  # for spans aligned in context (after the timing)
    for i, (quote, result) in enumerate(zip(quotes, results, strict=True)):
        statuses[result.status] = statuses.get(result.status, 0) + 1
        if result.verified:
            wanted = normalize(quote, preset=PRESET)
            for span in result.spans:
                assert source[span.start : span.end] == span.text
                if normalize(span.text, preset=PRESET) != wanted:
                    # Aligned in context (verify's docstring): exactly the characters the span
                    # produced in the normalized source are the quote.
                    produced = _produced(mapped, span.start, span.end)
                    assert produced == wanted, f"bad offsets for {quote!r}: {span} produced {produced!r}"
                    in_context += 1
        if i not in naive_found:
            continue
        found = naive_found[i]
        # A normalized verdict must be a naive hit. A naive hit may be missing here only when
        # no original span normalizes to the quote (the naive `in` cannot tell); an exact
        # verdict may be a naive miss (a raw substring holding half a `code` pair).
        assert result.status != "normalized" or found, f"{quote!r} normalized but not found naively"
        if found and not result.verified:
            assert "normalize to more" in result.reason, f"naive found {quote!r}: {result}"
            unaligned += 1
    fast_per_quote = fast_s / count
    speedup = naive_per_quote / fast_per_quote

    print(
        f"Quote verification: {count} quotes against a {len(source.encode('utf-8')) / 1000:.0f} KB source "
        f"({len(source):,} characters), preset `{PRESET}`; Python {platform.python_version()}."
    )
    print(
        f"Statuses: {', '.join(f'{k} {v}' for k, v in sorted(statuses.items()))}; "
        "offsets checked for every found quote: OK."
    )
    print(
        f"Naive approach timed on {len(sampled)} of the {count} quotes (one in every {step}; the per-quote cost is "
        "what matters: it re-normalizes the whole source each time)."
    )
    print(f"Naive hits with no aligned original span (reported missing, with a reason): {unaligned}.")
    print(f"Spans aligned in context (no span normalizes alone to the quote; checked against the offsets): {in_context}.\n")
    print("| approach | quotes timed | seconds | ms/quote | quotes/s | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    print(
        f"| naive: normalize the source per quote, then `in` | {len(sampled)} | {naive_s:.3f} | "
        f"{naive_per_quote * 1000:.2f} | {1 / naive_per_quote:,.1f} | 1.0x |"
    )
    print(
        f"| `verify_quotes` (source normalized once, with offsets) | {count} | {fast_s:.3f} | "
        f"{fast_per_quote * 1000:.2f} | {1 / fast_per_quote:,.1f} | {speedup:.1f}x |"
    )
    print(f"\nTarget >= {TARGET_SPEEDUP:.0f}x: {'PASS' if speedup >= TARGET_SPEEDUP else 'MISS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
