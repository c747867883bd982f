"""Growth of ``similar()`` from 100 to 10,000 issues in many rounds, two ways of interleaving.

The users and issues of ``benchmarks/track_similar.py`` (the same seed). Each round measures the
median CPU ms of warm ``Tracker.similar`` calls for both users, either in blocks (``--blocks``:
``--samples`` calls for the small user, then as many for the large one, as
``benchmarks/simple_code_track.py`` does) or call by call (the default: small, large, small, ...,
so a busy spell of the shared machine, and the caches, are shared by both). Printed: each
round's growth (large / small), their median and range.

    python benchmarks/track_similar_rounds.py [--rounds 11] [--samples 200] [--blocks]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

from sadame.track import Tracker
from sadame.track._views import TrackerConfig
from track_similar import _fill, _texts

USERS = ("small", "large")


def _round(tracker: Tracker, ids: dict[str, list[str]], rng: random.Random, samples: int,
           blocks: bool) -> dict[str, float]:
    times: dict[str, list[float]] = {user: [] for user in USERS}
    order = ([user for user in USERS for _ in range(samples)] if blocks
             else [user for _ in range(samples) for user in USERS])
    for user in order:
        iid = rng.choice(ids[user])
        start = time.process_time()
        tracker.similar(user, iid)
        times[user].append(1000 * (time.process_time() - start))
    return {user: statistics.median(t) for user, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--blocks", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at the start (2 cores, shared)")
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp, Tracker(
        f"sqlite:///{tmp}/r.db", tenant="bench", config=TrackerConfig(max_new_per_session=1_000)
    ) as tracker:
        ids = {user: _fill(tracker, user, _texts(n, rng)) for user, n in zip(USERS, (100, 10_000), strict=True)}
        for user in USERS:
            tracker.similar(user, ids[user][0])  # builds the index
        rounds = [_round(tracker, ids, rng, args.samples, args.blocks) for _ in range(args.rounds)]
    growths = sorted(r["large"] / r["small"] for r in rounds)
    small = statistics.median(r["small"] for r in rounds)
    large = statistics.median(r["large"] for r in rounds)
    how = "in blocks" if args.blocks else "call by call"
    print(f"{args.rounds} rounds of {args.samples} calls a user, {how}: {small:.2f} -> {large:.2f} ms; growth "
          f"{statistics.median(growths):.2f}x (rounds {growths[0]:.2f}-{growths[-1]:.2f}x)")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
