"""The ingest transaction's ``BEGIN`` on PostgreSQL, before and after (issue 21 item 3).

Before, psycopg began each ingest transaction itself: a ``BEGIN`` and a sync, a round trip before
the first statement. Now ``RawCursor.transaction_pipeline`` sends the ``BEGIN`` in the pipeline
with the advisory lock and the first reads. This script runs both in one process on one
temporary database (the earlier way swapped back in for its blocks), texts read beforehand so
only the transaction differs, blocks of sessions alternating; it prints the median wall and CPU
ms a session of each, with the range over the blocks.

    .venv/bin/python benchmarks/ingest_pg_begin.py [--blocks 40] [--per-block 25]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest_breakdown import _text_work
from ingest_vs_simple import USERS, _plan
from sadame.db import upgrade
from sadame.db._raw import RawCursor
from sadame.track import Tracker
from track import temporary_postgres

AFTER: Callable[[RawCursor], contextlib.AbstractContextManager[None]] = RawCursor.transaction_pipeline


def _before(self: RawCursor) -> contextlib.AbstractContextManager[None]:
    """The earlier ingest transaction: the pipeline alone, psycopg's own BEGIN first."""
    return self.pipeline()


def _fmt(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def run(blocks: int, per_block: int) -> Iterator[str]:
    with temporary_postgres() as url:
        upgrade(url)
        tracker = Tracker(url, tenant="bench", upgrade=False)
        for user, session, insights, at in _plan(USERS, 20):
            tracker.ingest(user, f"warm-{session}", insights, at=at - timedelta(days=1))
        plan = _plan(blocks * per_block * 2, 10)
        _text_work(tracker, plan)
        found: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
        sessions = iter(plan)
        try:
            for block in range(blocks):
                for mode in ("before", "after") if block % 2 == 0 else ("after", "before"):
                    RawCursor.transaction_pipeline = _before if mode == "before" else AFTER  # type: ignore[method-assign,assignment]
                    wall, cpu = time.perf_counter(), time.process_time()
                    for _ in range(per_block):
                        user, session, insights, at = next(sessions)
                        tracker.ingest(user, session, insights, at=at)
                    found[mode].append(((time.perf_counter() - wall) / per_block * 1e3,
                                        (time.process_time() - cpu) / per_block * 1e3))
        finally:
            RawCursor.transaction_pipeline = AFTER  # type: ignore[method-assign]
            tracker.close()
        for mode, rows in found.items():
            yield (f"| {mode} | {_fmt([w for w, _c in rows])} | {_fmt([c for _w, c in rows])} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=40)
    parser.add_argument("--per-block", type=int, default=25)
    args = parser.parse_args()
    start = os.getloadavg()[0]
    rows = list(run(args.blocks, args.per_block))
    print(f"{args.blocks} blocks of {args.per_block} sessions each way; load average {start:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end\n")
    print("| BEGIN | wall ms a session, median (range) | CPU ms a session, median (range) |\n|---|---:|---:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
