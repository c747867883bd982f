"""Identity check for ``similar()``: the answers of this code, written to a JSON file, to compare with
another version's (issue 21 item 4: a faster ``similar()`` must not change an answer).

The users and issues of ``benchmarks/track_similar.py`` (100 and 10,000 findings, the same seed);
``--queries`` random issues of each (another seed), each asked with limits 1, 5, 12 and 50. Every
suggestion is written in full (id, title, status, score, the three flags). At 100 issues the plain
scan (``similar_issues_scan``) is asked too and the differences counted (at 10,000 the scan sees
only the 2,000 most recent issues, so it is not the reference there).

    python benchmarks/track_similar_identity.py --out new.json [--compare old.json]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from dataclasses import astuple

from sadame.track import Tracker
from sadame.track._similar import similar_issues_scan
from sadame.track._views import TrackerConfig
from track_similar import _fill, _texts

LIMITS = (1, 5, 12, 50)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--compare")
    parser.add_argument("--queries", type=int, default=2_000)
    args = parser.parse_args()
    rng = random.Random(7)
    answers: dict[str, list[object]] = {}
    scan_diff = scan_total = 0
    with tempfile.TemporaryDirectory() as tmp, Tracker(
        f"sqlite:///{tmp}/i.db", tenant="bench", config=TrackerConfig(max_new_per_session=1_000)
    ) as tracker:
        ids = {user: _fill(tracker, user, _texts(n, rng)) for user, n in (("small", 100), ("large", 10_000))}
        picks = random.Random(21)
        for user, issues in ids.items():
            rows: list[object] = []
            for _ in range(args.queries):
                iid = picks.choice(issues)
                for limit in LIMITS:
                    got = [list(astuple(s)) for s in tracker.similar(user, iid, limit=limit)]
                    rows.append([iid, limit, got])
                    if user == "small":
                        with tracker.engine.connect() as conn:
                            scan = [list(astuple(s)) for s in similar_issues_scan(
                                conn, "bench", user, iid, limit=limit, ruleset=tracker.ruleset)]
                        scan_total += 1
                        scan_diff += scan != got
            answers[user] = rows
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(answers, fh, ensure_ascii=False)
    calls = sum(len(r) for r in answers.values())
    suggestions = sum(len(row[2]) for r in answers.values() for row in r)  # type: ignore[index,arg-type]
    print(f"{calls} calls, {suggestions} suggestions written to {args.out}; "
          f"at 100 issues {scan_diff} of {scan_total} answers differ from the plain scan's")
    if args.compare:
        with open(args.compare, encoding="utf-8") as fh:
            old = json.load(fh)
        differ = sum(a != b for user in answers for a, b in zip(answers[user], old[user], strict=True))
        print(f"compared with {args.compare}: {differ} of {calls} answers differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
