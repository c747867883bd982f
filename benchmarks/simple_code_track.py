"""Issue 21 items 3 and 4 for ``benchmarks/simple_code.py``: tracker ingest and ``similar()``
against the simple code, as rows ``(item, sadame, simple code, ratio, target, verdict)``.

Ingest: sadame's ``Tracker.ingest`` against the 40-line ``sqlite3`` tracker of
``benchmarks/ingest_vs_simple.py`` (CPU time, same process, same kind of texts: a fifth of them
fresh), and on a temporary PostgreSQL against the same tracker in psycopg (wall time: the
target is a rate; the server's CPU is another process). ``similar()``: the
indexed suggestions at 100 and 10,000 issues against the plain scan (``similar_issues_scan``)
of ``benchmarks/track_similar.py``. Smaller than those scripts' defaults, so the combined run
stays a few minutes; run them directly for their full tables.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ingest_vs_simple import PER_SESSION, USERS, SimplePostgresTracker, SimpleTracker, _plan, _sadame, _simple
from sadame.db import upgrade
from sadame.track import Tracker
from sadame.track._similar import similar_issues_scan
from sadame.track._views import TrackerConfig
from track import temporary_postgres
from track_similar import _cpu_ms, _fill, _texts

Row = tuple[str, str, str, str, str, str]
#: Sessions per transaction of the bulk rows (what ``sadame track ingest --jsonl`` uses by default).
BATCH = 100


def _ingest_row(name: str, sessions: int, ours: tuple[float, float], simple: tuple[float, float], simple_name: str,
                target: float, wall: bool) -> Row:
    insights = sessions * PER_SESSION
    (ours_wall, ours_cpu), (simple_wall, simple_cpu) = ours, simple
    rate = insights / (ours_wall if wall else ours_cpu)
    shown = (f"{insights / ours_wall:,.0f}/s wall, {insights / ours_cpu:,.0f}/CPU-s" if wall
             else f"{insights / ours_cpu:,.0f} insights/CPU-s")
    return (f"ingest, {sessions} sessions x {PER_SESSION} insights ({name})", shown,
            f"{insights / simple_cpu:,.0f}/CPU-s, {insights / simple_wall:,.0f}/s wall ({simple_name})",
            f"{ours_cpu / simple_cpu:.1f}x the CPU", f">= {target:,.0f}/s" + (" wall" if wall else ""),
            "PASS" if rate >= target else "MISS")


def _bulk(url: str, plan: list[tuple[str, str, list[str], datetime]], run: int) -> tuple[float, float]:
    """``Tracker.ingest_many`` of the plan, :data:`BATCH` sessions a transaction (warmed as ``_time``)."""
    upgrade(url)
    with Tracker(url, tenant="bulk", upgrade=False) as tracker:  # its own tenant: the database may be shared
        warm = [{"user_id": u, "session_id": f"warm-{s}", "insights": i, "at": a - timedelta(days=1)}
                for u, s, i, a in _plan(USERS, 20 + run)]
        stream = [{"user_id": u, "session_id": s, "insights": i, "at": a} for u, s, i, a in plan]
        for _ in tracker.ingest_many(warm, batch=BATCH):
            pass
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in tracker.ingest_many(stream, batch=BATCH):
            pass
        return time.perf_counter() - wall, time.process_time() - cpu


def _bulk_row(name: str, sessions: int, ours: tuple[float, float], simple: tuple[float, float],
              simple_name: str) -> Row:
    insights = sessions * PER_SESSION
    (ours_wall, ours_cpu), (simple_wall, simple_cpu) = ours, simple
    return (f"bulk ingest_many, {BATCH} sessions a transaction ({name}; not the per-session figure)",
            f"{insights / ours_cpu:,.0f} insights/CPU-s, {insights / ours_wall:,.0f}/s wall",
            f"{insights / simple_cpu:,.0f}/CPU-s, {insights / simple_wall:,.0f}/s wall ({simple_name}, per session)",
            f"{ours_cpu / simple_cpu:.1f}x the CPU", "reported", "-")


def ingest_rows(sessions: int = 400, postgres: bool = True) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        ours = _sadame(f"sqlite:///{tmp}/sadame.db", _plan(sessions, 0), 0)
        simple = _simple(SimpleTracker(f"{tmp}/simple.db"), _plan(sessions, 1), 1)
        bulk = _bulk(f"sqlite:///{tmp}/bulk.db", _plan(sessions, 4), 4)
    rows = [_ingest_row("SQLite", sessions, ours, simple, "40-line sqlite3 tracker", 10_000, wall=False),
            _bulk_row("SQLite", sessions, bulk, simple, "40-line sqlite3 tracker")]
    if postgres:
        with temporary_postgres() as url:
            ours = _sadame(url, _plan(sessions, 2), 2)
            simple = _simple(SimplePostgresTracker(url), _plan(sessions, 3), 3)
            bulk = _bulk(url, _plan(sessions, 5), 5)
        rows += [_ingest_row("PostgreSQL", sessions, ours, simple, "the same in psycopg", 3_000, wall=True),
                 _bulk_row("PostgreSQL", sessions, bulk, simple, "the same in psycopg")]
    return rows


def similar_rows(small: int = 100, large: int = 10_000, samples: int = 40, rounds: int = 7) -> list[Row]:
    """Median CPU ms of ``samples`` warm calls per user, in ``rounds`` rounds that alternate the two
    users (so a busy spell of the shared machine hits both); the growth is the median of the
    rounds' ratios, shown with their range."""
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp, Tracker(
        f"sqlite:///{tmp}/s.db", tenant="bench", config=TrackerConfig(max_new_per_session=1_000)
    ) as tracker:
        ids = {user: _fill(tracker, user, _texts(count, rng)) for user, count in (("small", small), ("large", large))}
        for user in ids:
            tracker.similar(user, ids[user][0])  # builds the index
        ours: dict[str, list[float]] = {"small": [], "large": []}
        scans: dict[str, list[float]] = {"small": [], "large": []}
        for _ in range(rounds):
            for user in ("small", "large"):
                picks = [rng.choice(ids[user]) for _ in range(samples)]
                ours[user].append(_cpu_ms(lambda i, u=user: tracker.similar(u, i), picks))
                with tracker.engine.connect() as conn:
                    scans[user].append(_cpu_ms(
                        lambda i, u=user: similar_issues_scan(conn, "bench", u, i, ruleset=tracker.ruleset),
                        picks[: max(5, samples // 4)]))
    growths = sorted(lg / sm for sm, lg in zip(ours["small"], ours["large"], strict=True))
    growth = statistics.median(growths)
    ours_s, ours_l = statistics.median(ours["small"]), statistics.median(ours["large"])
    scan_s, scan_l = statistics.median(scans["small"]), statistics.median(scans["large"])
    return [(f"similar(), {small} -> {large:,} issues",
             f"{ours_s:.2f} -> {ours_l:.2f} ms ({growth:.2f}x; {rounds} rounds {growths[0]:.2f}-{growths[-1]:.2f}x)",
             f"{scan_s:.2f} -> {scan_l:.2f} ms ({scan_l / scan_s:.1f}x, plain scan)",
             f"{scan_l / ours_l:.1f}x faster at {large:,}", "<= 2x growth", "PASS" if growth <= 2 else "MISS")]


def rows() -> list[Row]:
    return [*ingest_rows(), *similar_rows()]


def main() -> int:
    """Print the rows as the Markdown table of docs/guide/performance.md, with the load average
    (``--only ingest`` / ``--only similar`` for one part, ``--no-postgres`` without the server)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=("ingest", "similar"))
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at the start (2 cores, shared)\n")
    print("| item | sadame | simple code | ratio | target | verdict |\n|---|---:|---:|---:|---|---|")
    found = [*(ingest_rows(postgres=not args.no_postgres) if args.only != "similar" else []),
             *(similar_rows() if args.only != "ingest" else [])]
    for row in found:
        print("| " + " | ".join(row) + " |")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
