"""Issue 21 items 3 and 4 for ``benchmarks/simple_code.py``: tracker ingest and ``similar()``
against the simple code, as rows ``(item, sadame, simple code, ratio, target, verdict)``.

Ingest: sadame's ``Tracker.ingest`` against the 40-line ``sqlite3`` tracker of
``benchmarks/ingest_vs_simple.py`` (same plan, CPU time, same process). ``similar()``: the
indexed suggestions at 100 and 10,000 issues against the plain scan (``similar_issues_scan``)
of ``benchmarks/track_similar.py``. Smaller than those scripts' defaults, so the combined run
stays a few minutes; run them directly for their full tables.
"""

from __future__ import annotations

import random
import tempfile

from ingest_vs_simple import PER_SESSION, _plan, _sadame, _simple
from sadame.track import Tracker
from sadame.track._similar import similar_issues_scan
from sadame.track._views import TrackerConfig
from track_similar import _cpu_ms, _fill, _texts

Row = tuple[str, str, str, str, str, str]


def ingest_rows(sessions: int = 400) -> list[Row]:
    plan = _plan(sessions)
    insights = len(plan) * PER_SESSION
    with tempfile.TemporaryDirectory() as tmp:
        _wall, ours = _sadame(f"sqlite:///{tmp}/sadame.db", plan)
        _wall, simple = _simple(f"{tmp}/simple.db", plan)
    rate, simple_rate = insights / ours, insights / simple
    return [(f"ingest, {sessions} sessions x {PER_SESSION} insights (SQLite)", f"{rate:,.0f} insights/CPU-s",
             f"{simple_rate:,.0f} insights/CPU-s (40-line sqlite3 tracker)", f"{ours / simple:.1f}x the CPU",
             ">= 10,000/s", "PASS" if rate >= 10_000 else "MISS")]


def similar_rows(small: int = 100, large: int = 10_000, samples: int = 20) -> list[Row]:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp, Tracker(
        f"sqlite:///{tmp}/s.db", tenant="bench", config=TrackerConfig(max_new_per_session=1_000)
    ) as tracker:
        found: dict[str, tuple[float, float]] = {}
        for user, count in (("small", small), ("large", large)):
            ids = _fill(tracker, user, _texts(count, rng))
            tracker.similar(user, ids[0])  # builds the index
            picks = [rng.choice(ids) for _ in range(samples)]
            with tracker.engine.connect() as conn:
                scan = _cpu_ms(lambda i, u=user: similar_issues_scan(conn, "bench", u, i, ruleset=tracker.ruleset),
                               picks)
            found[user] = (_cpu_ms(lambda i, u=user: tracker.similar(u, i), picks), scan)
    (ours_s, scan_s), (ours_l, scan_l) = found["small"], found["large"]
    growth = ours_l / ours_s
    return [(f"similar(), {small} -> {large:,} issues", f"{ours_s:.2f} -> {ours_l:.2f} ms ({growth:.2f}x)",
             f"{scan_s:.2f} -> {scan_l:.2f} ms ({scan_l / scan_s:.1f}x, plain scan)",
             f"{scan_l / ours_l:.1f}x faster at {large:,}", "<= 2x growth", "PASS" if growth <= 2 else "MISS")]


def rows() -> list[Row]:
    return [*ingest_rows(), *similar_rows()]
