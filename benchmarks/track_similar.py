"""similar() at 100 and 10,000 issues: the indexed code against the simple scan, in one process.

Two users of one SQLite database get 100 and 10,000 distinct findings (generated from parts,
actions and problems of a coaching vocabulary); then ``similar()`` is asked for random issues of
each, warm (the index is built on the first call and kept up to date incrementally). Printed:
median CPU milliseconds per call for the index (``Tracker.similar``) and the simple code
(``similar_issues_scan``: score the 2,000 most recent issues one by one), and the growth from
100 to 10,000 issues of each (target for the index: <= 2x).

    python benchmarks/track_similar.py [--large 10000] [--samples 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time

from sadame.track import Tracker
from sadame.track._similar import similar_issues_scan
from sadame.track._views import TrackerConfig

PARTS = ["踏み込み", "腕振り", "着地", "視線", "姿勢", "呼吸", "膝", "肩", "腰", "手首", "肘", "足首", "体幹", "重心",
         "スイング", "フォーム", "リズム", "テンポ", "声", "語尾", "結論", "導入", "資料", "説明", "質問", "提案",
         "段落", "接続詞", "音程", "強弱", "発音", "文法", "語彙", "間", "表情", "目線", "握り", "構え", "始動", "終盤"]
WHEN = ["", "序盤の", "終盤の", "本番での", "練習での", "後半の", "試合中の", "発表中の", "冒頭の", "最後の",
        "疲れたときの", "緊張したときの", "速い曲での", "長文での", "初対面での", "反論時の", "雨の日の", "朝の",
        "ダッシュ時の", "守備での", "攻撃での", "サーブの", "リターンの", "ボレーの", "スマッシュの"]
PROBLEMS = ["が弱い", "が遅い", "が不安定", "が小さい", "が崩れる", "がぶれる", "が硬い", "が浅い", "が乱れる",
            "が足りない", "が曖昧", "が長すぎる"]


def _texts(n: int, rng: random.Random) -> list[str]:
    combos = [f"{w}{p}{q}" for w in WHEN for p in PARTS for q in PROBLEMS]
    rng.shuffle(combos)
    return combos[:n]


def _fill(tracker: Tracker, user: str, texts: list[str]) -> list[str]:
    ids: list[str] = []
    for start in range(0, len(texts), 500):
        report = tracker.ingest(user, f"s{start}", texts[start : start + 500])
        ids += [e.issue_id for e in report.new + report.deferred + report.remaining if e.issue_id]
    return ids


def _cpu_ms(fn: object, samples: list[str]) -> float:
    times = []
    for iid in samples:
        t = time.process_time()
        fn(iid)  # type: ignore[operator]
        times.append(1000 * (time.process_time() - t))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        config = TrackerConfig(max_new_per_session=1_000)
        with Tracker(f"sqlite:///{tmp}/b.db", tenant="bench", config=config) as t:
            ids = {"small": _fill(t, "small", _texts(args.small, rng)),
                   "large": _fill(t, "large", _texts(args.large, rng))}
            rows, agree = {}, {}
            for user in ("small", "large"):
                t.similar(user, ids[user][0])  # builds the index (reported apart)
                picks = [rng.choice(ids[user]) for _ in range(args.samples)]
                with t.engine.connect() as conn:
                    scan = _cpu_ms(lambda i, u=user: similar_issues_scan(conn, "bench", u, i, ruleset=t.ruleset), picks)
                rows[user] = (len(ids[user]), _cpu_ms(lambda i, u=user: t.similar(u, i), picks), scan)
                with t.engine.connect() as conn:
                    same = sum(
                        max([s.score for s in t.similar(user, i, limit=1)], default=0.0)
                        >= max([s.score for s in similar_issues_scan(conn, "bench", user, i, limit=1,
                                                                     ruleset=t.ruleset)], default=0.0)
                        for i in picks)
                agree[user] = f"{same}/{len(picks)}"
    (ns, idx_s, scan_s), (nl, idx_l, scan_l) = rows["small"], rows["large"]
    print(f"| code | {ns} issues (ms CPU) | {nl} issues (ms CPU) | growth |")
    print("|---|---|---|---|")
    print(f"| similar() with the index | {idx_s:.2f} | {idx_l:.2f} | {idx_l / idx_s:.2f}x |")
    print(f"| simple scan (2,000 most recent) | {scan_s:.2f} | {scan_l:.2f} | {scan_l / scan_s:.2f}x |")
    print(f"\nAt {nl} issues the index is {scan_l / idx_l:.1f}x faster than the scan. Best suggestion at least as "
          f"similar as the scan's: {agree['small']} queries at {ns} issues, {agree['large']} at {nl} (the scan sees "
          "only the 2,000 most recent issues; the index sees all, but scores only the 100 sharing the most features).")


if __name__ == "__main__":
    main()
