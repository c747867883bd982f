"""Worker processes for the concurrency test (importable under the spawn start method)."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta

TEXTS = [
    "安定性が不足している", "バランスが崩れている", "動作後のリカバリーが遅い", "タイミングにばらつきがある",
    "再現性が不十分", "集中が切れる", "見落としがある", "前回より安定性が向上しています", "腕の振りが小さい",
    "視線が下がる", "テンポが一定しない", "踏み込みが浅い",
]


def session_texts(user: str, session: str) -> list[str]:
    """Deterministic insights for a (user, session)."""
    seed = int.from_bytes(hashlib.sha256(f"{user}/{session}".encode()).digest()[:8], "big")
    return random.Random(seed).sample(TEXTS, 3)


def ingest_all(db_url: str, worker: int, users: list[str], sessions: list[str]) -> int:
    from sadame.track import Tracker
    from sadame.track._views import TrackerConfig

    tracker = Tracker(db_url, tenant="conc", config=TrackerConfig(retries=20), upgrade=False)
    pairs = [(u, s) for u in users for s in sessions]
    random.Random(worker).shuffle(pairs)
    fresh = 0
    for user, session in pairs:
        n = int(session[1:])
        report = tracker.ingest(user, session, session_texts(user, session),
                                at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=n))
        fresh += not report.replayed
    tracker.close()
    return fresh
