"""Identity check for ``Tracker.ingest`` (issue 21 item 3: a faster ingest must store exactly
what the code before it stored).

A fixed stream of sessions for 12 users, built from the tracker's dev eval texts
(``evals/track/dev/track_meaning.jsonl``: problems, praise, improvements, regressions, negated
praise), the paraphrase pairs and the negated-praise set: each user has recurring findings
(some with markup or a label: ``**課題：**``, ``1. 「…」``), fresh ones, improvement objects with a
confidence, sessions that leave findings out (so issues resolve and candidates expire), a
finding that comes back, and one session sent twice (a replay). Everything is ingested one
session per ``Tracker.ingest`` call into a fresh SQLite file; then every ``track_*`` table is
dumped in id order (or key order), without the autoincrement ids and the one timestamp taken
from the clock (``track_rulesets.created_at``), and the dump's SHA-256 printed.

    .venv/bin/python benchmarks/track_ingest_identity.py --out branch.json
    .venv/bin/python benchmarks/track_ingest_identity.py --out branch.json --against /work/main
        # also runs the same stream on the tree at /work/main (its src/ first on sys.path)
        # and compares the two dumps table by table
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
USERS = 12
SESSIONS = 40
#: Columns left out of the dump: autoincrement ids (their order is kept: rows are dumped in
#: id order) and the time the ruleset row was written (the clock).
SKIPPED = {"id", "created_at"}
_MARKUP = ("**課題：** {}", "1. 「{}」", "- {}", "課題: {}", "{}")


def _texts() -> list[tuple[str, str]]:
    """(text, kind of the eval) from the dev set, the paraphrase pairs and the negated praise."""
    found: list[tuple[str, str]] = []
    for line in (ROOT / "evals/track/dev/track_meaning.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found.append((row["text"], row["kind"]))
    for line in (ROOT / "evals/track/paraphrase_pairs.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found += [(row["a"], "problem"), (row["b"], "problem")]
    for line in (ROOT / "evals/track/negated_praise.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found.append((row["text"], "praise" if row["praise"] else "negated_praise"))
    return found


def stream() -> list[tuple[str, str, list[Any], datetime]]:
    """The sessions, in order: (user, session, insights, at)."""
    rng = random.Random(3)
    texts = _texts()
    problems = [t for t, kind in texts if kind in ("problem", "regression", "negated_praise")]
    others = [t for t, kind in texts if kind not in ("problem", "regression", "negated_praise")]
    t0 = datetime(2026, 3, 1, tzinfo=UTC)
    recurring = {u: rng.sample(problems, 6) for u in range(USERS)}
    sessions: list[tuple[str, str, list[Any], datetime]] = []
    for s in range(SESSIONS):
        for u in range(USERS):
            if (s + u) % 7 == 3:
                continue  # a user without a session this round
            mine = recurring[u][: 3 if s % 10 >= 6 else 6]  # some rounds leave half out: misses, resolutions
            insights: list[Any] = [rng.choice(_MARKUP).format(t) for t in rng.sample(mine, min(len(mine), 3))]
            insights.append(rng.choice(problems + others))
            if s % 4 == 1:
                insights.append({"text": rng.choice(others), "kind": "improvement", "confidence": 0.9})
            if s % 5 == 2:
                insights.append({"text": rng.choice(problems), "confidence": round(rng.uniform(0.3, 1.0), 2)})
            sessions.append((f"user{u:02d}", f"s{s:03d}", insights, t0 + timedelta(days=s, minutes=u)))
    sessions.append(sessions[len(sessions) // 2])  # sent twice: a replay, nothing written
    return sessions


def ingest(path: str) -> None:
    from sadame.track import Tracker

    with Tracker(f"sqlite:///{path}", tenant="identity") as tracker:
        for user, session, insights, at in stream():
            tracker.ingest(user, session, insights, at=at)


def dump(path: str) -> dict[str, list[list[Any]]]:
    """Every ``track_*`` table's rows, in id order (tables without an id: in primary-key order)."""
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name LIKE 'track_%' ORDER BY name")]
        found: dict[str, list[list[Any]]] = {}
        for table in tables:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
            kept = [c for c in columns if c not in SKIPPED]
            order = "id" if "id" in columns else ", ".join(kept)
            found[table] = [list(r) for r in db.execute(f"SELECT {', '.join(kept)} FROM {table} ORDER BY {order}")]
        return found
    finally:
        db.close()


def _digest(found: dict[str, list[list[Any]]]) -> str:
    return hashlib.sha256(json.dumps(found, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def _run_on(tree: str, out: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.path.join(tree, "src")}
    subprocess.run([sys.executable, __file__, "--out", out], env=env, check=True)


def compare(mine: dict[str, list[list[Any]]], theirs: dict[str, list[list[Any]]]) -> int:
    """Print the tables that differ (with the first differing row); the count of those tables."""
    differing = 0
    for table in sorted(set(mine) | set(theirs)):
        a, b = mine.get(table, []), theirs.get(table, [])
        if a == b:
            print(f"  {table}: {len(a)} rows, identical")
            continue
        differing += 1
        first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        print(f"  {table}: DIFFERENT ({len(a)} vs {len(b)} rows; first at row {first})")
    return differing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="JSON file for this code's dump")
    parser.add_argument("--compare", help="a dump written before (by another version)")
    parser.add_argument("--against", help="a source tree to run the same stream on and compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ingest(f"{tmp}/identity.db")
        found = dump(f"{tmp}/identity.db")
        if args.against:
            _run_on(args.against, f"{tmp}/theirs.json")
            args.compare = f"{tmp}/theirs.json"
        Path(args.out).write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
        import sadame

        rows = sum(len(r) for r in found.values())
        print(f"{Path(sadame.__file__).parent}: {len(stream())} sessions, {rows} rows, sha256 {_digest(found)}")
        if not args.compare:
            return 0
        theirs = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        print(f"against {args.against or args.compare}: sha256 {_digest(theirs)}")
        differing = compare(found, theirs)
    print("IDENTICAL" if not differing else f"DIFFERENT: {differing} table(s)")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
