"""Tracker ingest against the simple code a user would otherwise write, in one process.

The simple tracker (``SimpleTracker``, 40 lines) does the same per-finding work with the standard
``sqlite3`` module: the same key function (``issue_key`` of the tenant's ruleset), a select of the
issue by key, an insert or an update of its count, an insert of the detection, one session row,
one ``BEGIN IMMEDIATE`` transaction per session, WAL and ``synchronous=NORMAL`` (as sadame's).
It has no lifecycle, no idempotency, no aliases, no report: it is the floor.

Rounds alternate sadame and the simple code on fresh files, 5-insight sessions for 50 users; the
table shows insights/s (wall and CPU of this process) and the ratio within each round.

The texts (see ``_plan``): each session has 4 of its user's 8 recurring findings (4 phrasings of
the seed's pool, labels and praise included, and 4 coaching-vocabulary findings, worded the same
every time, as an LLM repeats a short finding) and 1 fresh finding never seen before in the
process (vocabulary + an ending, e.g. 「終盤の腕振りが硬い。特に後半で目立つ」). So about a fifth of the
texts meet the analyzer cold (its caches are per distinct text); every run, sadame's and the
simple code's alike, gets its own fresh texts.
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
from track_similar import PARTS, PROBLEMS, WHEN

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


class SimplePostgresTracker:
    """The same 40 lines on PostgreSQL with psycopg: one transaction per session, the per-user
    lock a concurrent tracker needs (``pg_advisory_xact_lock``), select-then-insert/update."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.db = psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"))
        self.db.execute("""
            CREATE TABLE IF NOT EXISTS s_issues (id SERIAL PRIMARY KEY, usr TEXT, key TEXT,
                count INTEGER, last TEXT, UNIQUE (usr, key));
            CREATE TABLE IF NOT EXISTS s_detections (id SERIAL PRIMARY KEY, usr TEXT, session TEXT,
                issue INTEGER, text TEXT, at TEXT);
            CREATE TABLE IF NOT EXISTS s_sessions (usr TEXT, session TEXT, at TEXT, PRIMARY KEY (usr, session));
        """)
        self.db.commit()
        self.ruleset = default_ruleset()

    def ingest(self, user: str, session: str, insights: list[str], at: datetime) -> None:
        stamp, db = at.isoformat(), self.db
        db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (user,))
        db.execute("INSERT INTO s_sessions VALUES (%s, %s, %s)", (user, session, stamp))
        for text in insights:
            key = issue_key(text, self.ruleset)
            row = db.execute("SELECT id FROM s_issues WHERE usr = %s AND key = %s", (user, key)).fetchone()
            if row is None:
                issue = db.execute("INSERT INTO s_issues (usr, key, count, last) VALUES (%s, %s, 1, %s) RETURNING id",
                                   (user, key, stamp)).fetchone()[0]  # type: ignore[index]
            else:
                issue = row[0]
                db.execute("UPDATE s_issues SET count = count + 1, last = %s WHERE id = %s", (stamp, issue))
            db.execute("INSERT INTO s_detections (usr, session, issue, text, at) VALUES (%s, %s, %s, %s, %s)",
                       (user, session, issue, text, stamp))
        db.commit()

    def close(self) -> None:
        self.db.close()


#: What makes a fresh finding text: the coaching vocabulary of benchmarks/track_similar.py, and a
#: few endings an LLM adds; 72,000 texts, shuffled once and dealt out so no two runs share one.
_ENDINGS = ["", "。特に後半で目立つ", "。前回より目立つ", "場面がある", "ことが多い", "。意識して直したい"]
_FRESH: list[str] = []
_SLICE = 2_400  # fresh texts per run: up to 2,200 sessions


def _fresh_texts() -> list[str]:
    if not _FRESH:
        _FRESH.extend(f"{w}{p}{q}{e}" for w in WHEN for p in PARTS for q in PROBLEMS for e in _ENDINGS)
        random.Random(0).shuffle(_FRESH)
    return _FRESH


def _plan(sessions: int, run: int = 0) -> list[tuple[str, str, list[str], datetime]]:
    """Sessions of 5 findings for 50 users: 4 recurring ones (the user's 8 recurring findings:
    4 phrasings of the seed's pool, labels and praise included, and 4 of the vocabulary, the same
    text every time) and 1 fresh text (never seen before in the process). ``run`` picks a disjoint
    slice of the fresh texts, so each timed run meets its fresh texts cold."""
    rng = random.Random(run)
    fresh = iter(_fresh_texts()[run * _SLICE : (run + 1) * _SLICE])
    recurring = {f"user{u:03d}": [*rng.sample(POOL, 4), *(next(fresh) for _ in range(4))] for u in range(USERS)}
    plan = []
    for n in range(sessions):
        user, s = f"user{n % USERS:03d}", n // USERS
        insights = [*rng.sample(recurring[user], PER_SESSION - 1), next(fresh)]
        plan.append((user, f"s{s}", insights, T0 + timedelta(hours=s)))
    return plan


def _time(ingest: Callable[[str, str, list[str], datetime], object],
          plan: list[tuple[str, str, list[str], datetime]], run: int) -> tuple[float, float]:
    for user, session, insights, at in _plan(USERS, 20 + run):  # warm: first sessions, statements
        ingest(user, f"warm-{session}", insights, at - timedelta(days=1))
    wall, cpu = time.perf_counter(), time.process_time()
    for user, session, insights, at in plan:
        ingest(user, session, insights, at)
    return time.perf_counter() - wall, time.process_time() - cpu


def _sadame(url: str, plan: list[tuple[str, str, list[str], datetime]], run: int = 0) -> tuple[float, float]:
    upgrade(url)
    tracker = Tracker(url, tenant="bench", upgrade=False)
    try:
        return _time(lambda u, s, i, a: tracker.ingest(u, s, i, at=a), plan, run)
    finally:
        tracker.close()


def _simple(simple: SimpleTracker | SimplePostgresTracker, plan: list[tuple[str, str, list[str], datetime]],
            run: int = 1) -> tuple[float, float]:
    """Time the simple tracker (SQLite or psycopg) on the plan, then close it."""
    try:
        return _time(simple.ingest, plan, run)
    finally:
        simple.close()


def _row(name: str, insights: int, results: list[tuple[float, float]], ratio: str, target: str) -> str:
    wall = statistics.median(insights / w for w, _c in results)
    cpu = statistics.median(insights / c for _w, c in results)
    return f"| {name} | {wall:,.0f} | {cpu:,.0f} | {ratio} | {target} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000, help="at most 2,200")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", action="store_true", help="also sadame on a temporary PostgreSQL")
    args = parser.parse_args()
    insights = args.sessions * PER_SESSION
    ours, simple, ratios = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):  # each run its own fresh texts (caches cold for them)
            ours.append(_sadame(f"sqlite:///{tmp}/sadame{n}.db", _plan(args.sessions, 2 * n), 2 * n))
            simple.append(_simple(SimpleTracker(f"{tmp}/simple{n}.db"), _plan(args.sessions, 2 * n + 1), 2 * n + 1))
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
            pg = [_sadame(url, _plan(args.sessions, 8), 8)]
            pg_simple = [_simple(SimplePostgresTracker(url), _plan(args.sessions, 9), 9)]
        pg_rate = insights / pg[0][0]
        print(_row("sadame, PostgreSQL", insights, pg, f"{pg[0][1] / pg_simple[0][1]:.1f}x CPU, "
                   f"{pg[0][0] / pg_simple[0][0]:.1f}x wall",
                   f">= 3,000/s: {'PASS' if pg_rate >= 3_000 else 'MISS'} (wall; the server's CPU is elsewhere)"))
        print(_row("simple psycopg tracker", insights, pg_simple, "1.0x", "-"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
