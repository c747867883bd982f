"""Benchmark: loading rule tables of 1,000, 10,000 and 100,000 rules, YAML and JSON.

Issue 13: the strict YAML loader on libyaml, schema validation at most 20% of a load,
and a size cap that fits 100,000-rule tables. For each size the table (generated
as in ``benchmarks/judge.py``) is written as YAML and as JSON, and the script reports
the file size, the whole ``load_table`` time (best of ``--repeat``) and its parts:
parsing, schema validation, and building the compiled table.

    .venv/bin/python benchmarks/pack_load.py --repeat 3
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge import ANSWERS, generate_rules  # the sibling benchmark's generator
from sadame.judge import load_table
from sadame.judge.authoring import lint_table
from sadame.judge.engine._loader import _parse_bytes, _validate, parse_table

SIZES = (1_000, 10_000, 100_000)


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def _write(folder: Path, size: int) -> dict[str, Path]:
    table = {"format": "sadame.rules/1", "name": "bench", "answers": ANSWERS,
             "rules": [{"id": f"r{i}", **rule} for i, rule in enumerate(generate_rules(size))]}
    paths = {"YAML": folder / f"t{size}.yaml", "JSON": folder / f"t{size}.json"}
    paths["YAML"].write_text(yaml.safe_dump(table, allow_unicode=True, sort_keys=False), encoding="utf-8")
    paths["JSON"].write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="sadame-bench-load-"))
    print("| rules | format | file MB | load s | parse s | schema s | schema share | build s |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for size in SIZES:
        for kind, path in _write(folder, size).items():
            raw = path.read_bytes()
            data = _parse_bytes(raw, str(path), path.suffix)
            load = _best(lambda p=path: load_table(p), args.repeat)  # type: ignore[misc]
            parse = _best(lambda r=raw, p=path: _parse_bytes(r, str(p), p.suffix), args.repeat)  # type: ignore[misc]
            schema = _best(lambda d=data: _validate(d, None), args.repeat)  # type: ignore[misc]
            build = _best(lambda d=data: parse_table(d), args.repeat)  # type: ignore[misc]
            print(f"| {size:,} | {kind} | {len(raw) / 1e6:.2f} | {load:.3f} | {parse:.3f} | {schema:.3f} | "
                  f"{schema / load:.0%} | {build - schema:.3f} |")
    print("\n| `rules lint`: one rule of N words | s | s per 1,000 words |")
    print("|---:|---:|---:|")
    for words in (4_000, 16_000, 64_000):
        rule = {"any": [f"語{i:06d}" for i in range(words)], "not": [f"否{i:05d}" for i in range(words // 100)],
                "answer": "YES"}
        table = parse_table({"format": "sadame.rules/1", "name": "lint", "answers": ANSWERS, "rules": [rule]})
        seconds = _best(lambda t=table: lint_table(t), args.repeat)  # type: ignore[misc]
        print(f"| {words:,} | {seconds:.3f} | {seconds / words * 1000:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
