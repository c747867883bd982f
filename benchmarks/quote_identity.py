"""Identity check for quote-check speed work: every result of the quote path, one sha256.

Dumps, as canonical JSON, for every case of ``evals/quote/*.jsonl`` (and the benchmark
sources of ``benchmarks/simple_code.py``, plus a few synthetic texts that reach the
grounding caps and the Markdown rules): the ``verify_quotes`` results, ``check_output``
(quotes, hints, numbers with their positions, segments) under every preset, the number
index of the source (``by_value``, ``numeric_mentions``, ``truncated``), ``ground_claims``
of the case's claims, and the ``sadame quote eval`` report of each file. Prints one sha256
per part and one over all: it must be identical before and after a change that claims to
change no result (run it on both trees with the same interpreter)::

    .venv/bin/python benchmarks/quote_identity.py
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/quote_identity.py
    .venv/bin/python benchmarks/quote_identity.py --dump out.jsonl   # the records, to diff
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from quote import build_quotes, build_source  # the benchmark's inputs
from sadame.normalize import PRESETS
from sadame.quote import check_output, run_eval, verify_quotes
from sadame.quote._eval import load_cases
from sadame.quote._ground import NumberIndex, ground_claims, scan_mentions

__all__ = ["main", "records"]

REPO = Path(__file__).resolve().parent.parent
KB = 1_000


def _output(quotes: list[str], claims: list[str]) -> str:
    """An LLM-like output quoting ``quotes`` (the last one altered) and saying ``claims``."""
    lost = [q[: len(q) // 2] + "（改変）" + q[len(q) // 2 :] for q in quotes[-1:]]
    return "。".join(f"「{q}」" for q in [*quotes, *lost]) + "。" + "。".join(claims)


def _source_records(name: str, source: str, quotes: list[str], claims: list[str]) -> Iterator[dict[str, Any]]:
    index = NumberIndex(source)
    mentions, truncated = scan_mentions(source)
    yield {"part": "index", "name": name, "truncated": index.truncated,
           "by_value": {v: [s.to_dict() for s in spans] for v, spans in sorted(index.by_value.items())},
           "mentions": [m.to_dict() for m in mentions], "mentions_truncated": truncated}
    yield {"part": "verify", "name": name, "results": [r.to_dict() for r in verify_quotes(quotes, source)]}
    output = _output(quotes, claims)
    for preset in PRESETS:
        yield {"part": "check", "name": name, "preset": preset, "result": check_output(source, output, preset).to_dict()}
    yield {"part": "claims", "name": name, "results": [r.to_dict() for r in ground_claims([*claims, output], source)]}


def _eval_records() -> Iterator[dict[str, Any]]:
    for path in sorted((REPO / "evals" / "quote").glob("*.jsonl")):
        yield {"part": "eval", "name": path.name, "report": run_eval(path).to_dict()}
        for case in load_cases(path):
            quotes = [q.text for q in case.quotes if isinstance(q.text, str)]
            claims = [c.text for c in case.claims if isinstance(c.text, str)]
            yield from _source_records(f"{path.name}:{case.id}", case.source, quotes, claims)


def _synthetic() -> Iterator[tuple[str, str, list[str], list[str]]]:
    """Texts at the edges: more numerals than are scanned, dense Markdown, mixed numbers."""
    rng = random.Random(21)
    pieces = ["1億2000万円", "３割", "令和8年7月18日", "2026年7月", "$1,200", "￥120,000,000", "1時間半", "90分",
              "**太字**", "`code 3`", "- ", "1. ", "> ", "# ", "_em_", "*em*", "~~消~~", "[リンク](http://x)",
              "保育士を3名増員", "保健師3名", "、", "。", "\n", " ", "売上", "前年比", "5分の1", "①", "二千", "3 5%"]
    for size in (200, 2_000, 20_000):
        text = "".join(rng.choice(pieces) for _ in range(size))
        quotes = [text[i : i + 12] for i in range(0, len(text) - 12, max(1, len(text) // 15))]
        yield f"synthetic {size}", text, quotes, ["売上は1億2000万円", "保育士を3名増員した", "2026年7月18日"]
    many = "、".join(str(i) for i in range(6_000)) + "。売上は1億2000万円。"
    yield "more numerals than scanned", many, ["売上は1億2000万円"], ["売上は1億2000万円", "5999"]


def records() -> Iterator[dict[str, Any]]:
    yield from _eval_records()
    for size in (10 * KB, 100 * KB):
        source, bullets = build_source(size)
        quotes = [q for q in build_quotes(source, bullets, 60) if "」" not in q][:20]
        yield from _source_records(f"benchmark {size // KB} KB", f"0\n{source}", quotes, ["売上は1億2000万円、参加者30名"])
    for name, text, quotes, claims in _synthetic():
        yield from _source_records(name, text, quotes, claims)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, help="also write every record, one JSON line each")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    parts: dict[str, Any] = {}
    lines: list[str] = []
    for record in records():
        line = json.dumps(record, ensure_ascii=False, sort_keys=True)
        total.update(line.encode())
        parts.setdefault(record["part"], hashlib.sha256()).update(line.encode())
        if args.dump:
            lines.append(line)
    if args.dump:
        args.dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for part, digest in parts.items():
        print(f"{part:8s} {digest.hexdigest()}")
    print(f"all      {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
