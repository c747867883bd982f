"""Where one session of ``Tracker.ingest`` goes on SQLite (issue 21 item 3): the per-session
breakdown behind the ingest row of ``benchmarks/simple_code_track.py``.

The same plan as that row (``ingest_vs_simple._plan``: 5-insight sessions of 50 users, one
fresh text per session), CPU time of this process, per session:

* **ingest, cold texts**: ``Tracker.ingest`` as the benchmark times it (the figure to cut);
* **text work alone**: the text functions ingest calls (key, praise/kind reading, return cue)
  on the texts of a plan never seen, timed alone (cold: what the meaning reader costs);
* **ingest, warm texts**: ``Tracker.ingest`` of that same plan after the text work (so the
  rest of ingest: SQL, commit, the pipeline's Python);
* **its SQL replayed bare**: every statement that warm run sent to the driver, recorded and
  replayed with the plain ``sqlite3`` module on a copy of the database as it was before the run,
  one ``BEGIN IMMEDIATE`` ... ``COMMIT`` per session (the floor of this schema and these
  statements); and the same with one commit for all, whose difference is the commits' cost;
* the number of statements per session, and the pages each commit writes to the WAL (sadame's
  replay and the 40-line ``sqlite3`` tracker of ``ingest_vs_simple`` on the same plan).

    .venv/bin/python benchmarks/ingest_breakdown.py [--sessions 400] [--rounds 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest_vs_simple import USERS, SimpleTracker, _plan
from sadame.db import _raw as raw_module
from sadame.db import upgrade
from sadame.lang._change import has_return_cue
from sadame.track import Tracker
from sadame.track._ruleset import finding_kind, is_positive, issue_key, normalize_issue_text

Plan = list[tuple[str, str, list[str], Any]]
#: One recorded driver call: ("execute" | "executemany" | "commit", sql, arguments).
Call = tuple[str, str, Any]


class _Recorder:
    """A DB-API cursor stand-in that records every call and passes it on."""

    def __init__(self, cursor: Any, calls: list[Call]) -> None:
        self._cursor, self._calls = cursor, calls

    def execute(self, sql: str, args: Any = ()) -> Any:
        self._calls.append(("execute", sql, tuple(args)))
        return self._cursor.execute(sql, args)

    def executemany(self, sql: str, rows: Any) -> Any:
        rows = [tuple(r) for r in rows]
        self._calls.append(("executemany", sql, rows))
        return self._cursor.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


def _cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        fn()
        return time.process_time() - start
    finally:
        gc.enable()


def _warm_tracker(url: str) -> Tracker:
    upgrade(url)
    tracker = Tracker(url, tenant="bench", upgrade=False)
    for user, session, insights, at in _plan(USERS, 20):  # as ingest_vs_simple._time warms
        tracker.ingest(user, f"warm-{session}", insights, at=at - timedelta(days=1))
    return tracker


def _ingest_all(tracker: Tracker, plan: Plan) -> None:
    for user, session, insights, at in plan:
        tracker.ingest(user, session, insights, at=at)


def _text_work(tracker: Tracker, plan: Plan) -> None:
    """What ingest asks of the language layer per finding (each cached per text)."""
    ruleset = tracker.ruleset
    for _user, _session, insights, _at in plan:
        for text in insights:
            normalize_issue_text(text, ruleset)
            issue_key(text, ruleset)
            if is_positive(text, ruleset):
                finding_kind(text, ruleset)
            has_return_cue(text)


def _recording(tracker: Tracker, calls: list[Call]) -> Callable[[], None]:
    """Record every driver call of ``tracker``'s transactions into ``calls`` (the raw cursor's
    statements, its BEGIN included, and each commit); returns the function that stops it."""
    init, dialect = raw_module.RawCursor.__init__, tracker.engine.dialect
    commit = dialect.do_commit

    def recording_init(self: raw_module.RawCursor, conn: Any) -> None:
        init(self, conn)
        self.cursor = _Recorder(self.cursor, calls)

    def recording_commit(dbapi_connection: Any) -> None:
        calls.append(("commit", "", ()))
        commit(dbapi_connection)

    raw_module.RawCursor.__init__ = recording_init  # type: ignore[method-assign]
    dialect.do_commit = recording_commit  # type: ignore[method-assign]

    def stop() -> None:
        raw_module.RawCursor.__init__ = init  # type: ignore[method-assign]
        dialect.do_commit = commit  # type: ignore[method-assign]

    return stop


def _copy(source: str, target: str) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def _replay(path: str, calls: list[Call], *, commits: bool) -> float:
    """CPU seconds of ``calls`` on the plain ``sqlite3`` module (sadame's pragmas); ``commits``
    False: one transaction for all of them instead of one per session."""
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "busy_timeout=30000", "foreign_keys=ON", "synchronous=NORMAL"):
        db.execute(f"PRAGMA {pragma}")
    cursor = db.cursor()
    steps = [c for c in calls if commits or (c[0] != "commit" and not c[1].startswith("BEGIN"))]

    def run() -> None:
        if not commits:
            cursor.execute("BEGIN IMMEDIATE")
        for kind, sql, args in steps:
            if kind == "execute":
                cursor.execute(sql, args).fetchall()
            elif kind == "executemany":
                cursor.executemany(sql, args)
            else:
                db.commit()
        if not commits:
            db.commit()

    try:
        return _cpu(run)
    finally:
        db.close()


def _wal_frames(path: str, commits: int) -> float:
    """Pages written to ``path``'s WAL per commit (checkpoints turned off by the caller)."""
    with sqlite3.connect(path) as db:
        page = db.execute("PRAGMA page_size").fetchone()[0]
    return (os.path.getsize(f"{path}-wal") - 32) / (page + 24) / commits


def _frames(path: str, calls: list[Call], sessions: int) -> float:
    """Pages each commit of the replayed ``calls`` writes (no checkpoint, so none is lost)."""
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "wal_autocheckpoint=0"):
        db.execute(f"PRAGMA {pragma}")
    for kind, sql, args in calls:
        if kind == "execute":
            db.execute(sql, args).fetchall()
        elif kind == "executemany":
            db.executemany(sql, args)
        else:
            db.commit()
    found = _wal_frames(path, sessions)
    db.close()
    return found


def _simple_frames(path: str, plan: Plan) -> float:
    """The same per commit for the 40-line tracker of ``ingest_vs_simple`` on the same plan."""
    simple = SimpleTracker(path)
    simple.db.execute("PRAGMA wal_autocheckpoint=0")
    for user, session, insights, at in plan:
        simple.ingest(user, session, insights, at)
    found = _wal_frames(path, len(plan))
    simple.close()
    return found


def one_round(tmp: str, sessions: int, run: int) -> dict[str, float]:
    """One round's figures (ms per session) on fresh databases; ``run`` picks unseen texts."""
    per = 1e3 / sessions
    cold = _warm_tracker(f"sqlite:///{tmp}/cold{run}.db")
    try:
        cold_ms = _cpu(lambda: _ingest_all(cold, _plan(sessions, 10 + 2 * run))) * per
    finally:
        cold.close()
    path = f"{tmp}/warm{run}.db"
    warm = _warm_tracker(f"sqlite:///{path}")
    calls: list[Call] = []
    try:
        plan = _plan(sessions, 11 + 2 * run)
        text_ms = _cpu(lambda: _text_work(warm, plan)) * per
        _copy(path, f"{tmp}/replay{run}.db")
        _copy(path, f"{tmp}/replay_one{run}.db")
        _copy(path, f"{tmp}/frames{run}.db")
        stop = _recording(warm, calls)
        try:
            warm_ms = _cpu(lambda: _ingest_all(warm, plan)) * per
        finally:
            stop()
    finally:
        warm.close()
    bare_ms = _replay(f"{tmp}/replay{run}.db", calls, commits=True) * per
    one_commit_ms = _replay(f"{tmp}/replay_one{run}.db", calls, commits=False) * per
    statements = sum(1 if c[0] == "execute" else len(c[2]) for c in calls if c[0] != "commit") / sessions
    return {"cold": cold_ms, "text": text_ms, "warm": warm_ms, "bare": bare_ms,
            "commit": bare_ms - one_commit_ms, "statements": statements,
            "frames": _frames(f"{tmp}/frames{run}.db", calls, sessions),
            "simple_frames": _simple_frames(f"{tmp}/simple{run}.db", plan)}


def rounds(sessions: int, count: int) -> Iterator[dict[str, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(count):
            yield one_round(tmp, sessions, run)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=400, help="at most 2,200")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    start_load = os.getloadavg()[0]
    found = list(rounds(args.sessions, args.rounds))
    med = {k: statistics.median(r[k] for r in found) for k in found[0]}
    python = med["warm"] - med["bare"]
    print(f"{args.sessions} sessions x 5 insights, {args.rounds} rounds (median), CPU ms per session; "
          f"load average {start_load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (2 cores, shared)\n")
    print("| part | ms per session | insights/CPU-s it allows |\n|---|---:|---:|")
    rows = [("ingest, cold texts (the benchmark row)", med["cold"]),
            ("text work alone (key, praise/kind, return cue; cold)", med["text"]),
            ("ingest, warm texts (the rest)", med["warm"]),
            (f"  its SQL replayed bare on sqlite3 ({med['statements']:.1f} statements and 1 commit a session)", med["bare"]),
            (f"    of which the commits ({med['frames']:.1f} pages each; the 40-line tracker's: "
             f"{med['simple_frames']:.1f})", med["commit"]),
            ("  Python of the pipeline (warm ingest - bare SQL)", python),
            ("text work + warm ingest (should be about the cold row)", med["text"] + med["warm"])]
    for name, ms in rows:
        print(f"| {name} | {ms:.3f} | {5e3 / ms:,.0f} |" if ms > 0 else f"| {name} | {ms:.3f} | - |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
