"""Tracker ingest against the simple code a user would otherwise write, in one process.

The simple tracker (``SimpleTracker``, 40 lines) does the same per-finding work with the standard
``sqlite3`` module: the same key function (``issue_key`` of the tenant's ruleset), a select of the
issue by key, an insert or an update of its count, an insert of the detection, one session row,
one ``BEGIN IMMEDIATE`` transaction per session, WAL and ``synchronous=NORMAL`` (as sadame's).
It has no lifecycle, no idempotency, no aliases, no report: it is the floor.

Rounds alternate sadame and the simple code on fresh files, 5-insight sessions for 50 users; the
table shows insights/s (wall and CPU of this process) and the ratio within each round.
Targets (issue 21): >= 10,000 insights/s on SQLite, >= 3,000/s on PostgreSQL.

Usage: ``python benchmarks/ingest_vs_simple.py [--sessions 2000] [--rounds 3] [--postgres]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from sadame.db import upgrade
from sadame.track import Tracker
from sadame.track._ruleset import default_ruleset, issue_key
from track import POOL, temporary_postgres

T0 = datetime(2026, 1, 1, tzinfo=UTC)
PER_SESSION = 5
USERS = 50


class SimpleTracker:
    """What a user would write: sqlite3, a key per finding, select-then-insert/update."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS issues (id INTEGER PRIMARY KEY, user TEXT, key TEXT,
                count INTEGER, last TEXT, UNIQUE (user, key));
            CREATE TABLE IF NOT EXISTS detections (id INTEGER PRIMARY KEY, user TEXT, session TEXT,
                issue INTEGER, text TEXT, at TEXT);
            CREATE TABLE IF NOT EXISTS sessions (user TEXT, session TEXT, at TEXT, PRIMARY KEY (user, session));
        """)
        self.ruleset = default_ruleset()

    def ingest(self, user: str, session: str, insights: list[str], at: datetime) -> None:
        stamp = at.isoformat()
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO sessions VALUES (?, ?, ?)", (user, session, stamp))
        for text in insights:
            key = issue_key(text, self.ruleset)
            row = self.db.execute("SELECT id FROM issues WHERE user = ? AND key = ?", (user, key)).fetchone()
            if row is None:
                issue = self.db.execute("INSERT INTO issues (user, key, count, last) VALUES (?, ?, 1, ?)",
                                        (user, key, stamp)).lastrowid
            else:
                issue = row[0]
                self.db.execute("UPDATE issues SET count = count + 1, last = ? WHERE id = ?", (stamp, issue))
            self.db.execute("INSERT INTO detections (user, session, issue, text, at) VALUES (?, ?, ?, ?, ?)",
                            (user, session, issue, text, stamp))
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()


def _plan(sessions: int) -> list[tuple[str, str, list[str], datetime]]:
    rng = random.Random(0)
    plan = []
    for n in range(sessions):
        user, s = f"user{n % USERS:03d}", n // USERS
        insights = [*rng.sample(POOL, PER_SESSION - 1), f"新しい指摘{rng.randrange(10_000)}"]
        plan.append((user, f"s{s}", insights, T0 + timedelta(hours=s)))
    return plan


def _time(ingest: Callable[[str, str, list[str], datetime], object],
          plan: list[tuple[str, str, list[str], datetime]]) -> tuple[float, float]:
    for user, session, insights, at in plan[:USERS]:  # warm: first sessions, caches, statements
        ingest(user, f"warm-{session}", insights, at - timedelta(days=1))
    wall, cpu = time.perf_counter(), time.process_time()
    for user, session, insights, at in plan:
        ingest(user, session, insights, at)
    return time.perf_counter() - wall, time.process_time() - cpu


def _sadame(url: str, plan: list[tuple[str, str, list[str], datetime]]) -> tuple[float, float]:
    upgrade(url)
    tracker = Tracker(url, tenant="bench", upgrade=False)
    try:
        return _time(lambda u, s, i, a: tracker.ingest(u, s, i, at=a), plan)
    finally:
        tracker.close()


def _simple(path: str, plan: list[tuple[str, str, list[str], datetime]]) -> tuple[float, float]:
    simple = SimpleTracker(path)
    try:
        return _time(simple.ingest, plan)
    finally:
        simple.close()


def _row(name: str, insights: int, results: list[tuple[float, float]], ratio: str, target: str) -> str:
    wall = statistics.median(insights / w for w, _c in results)
    cpu = statistics.median(insights / c for _w, c in results)
    return f"| {name} | {wall:,.0f} | {cpu:,.0f} | {ratio} | {target} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true", help="also sadame on a temporary PostgreSQL")
    args = parser.parse_args()
    plan = _plan(args.sessions)
    insights = len(plan) * PER_SESSION
    ours, simple, ratios = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):
            ours.append(_sadame(f"sqlite:///{tmp}/sadame{n}.db", plan))
            simple.append(_simple(f"{tmp}/simple{n}.db", plan))
            ratios.append(ours[-1][1] / simple[-1][1])
    load = os.getloadavg()[0]
    print(f"{args.sessions} sessions x {PER_SESSION} insights, {USERS} users, {args.rounds} rounds, "
          f"load average {load:.1f} (2 cores, shared)\n")
    print("| code | insights/s (wall) | insights/s (CPU) | CPU ratio to simple (median) | target |")
    print("|---|---:|---:|---:|---|")
    sqlite_rate = statistics.median(insights / c for _w, c in ours)
    print(_row("sadame, SQLite", insights, ours, f"{statistics.median(ratios):.1f}x",
               f">= 10,000/s: {'PASS' if sqlite_rate >= 10_000 else 'MISS'} (CPU)"))
    print(_row("simple sqlite3 tracker", insights, simple, "1.0x", "-"))
    if args.postgres:
        with temporary_postgres() as url:
            pg = [_sadame(url, plan)]
        pg_rate = insights / pg[0][0]
        print(_row("sadame, PostgreSQL", insights, pg, "-",
                   f">= 3,000/s: {'PASS' if pg_rate >= 3_000 else 'MISS'} (wall; the server's CPU is elsewhere)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
