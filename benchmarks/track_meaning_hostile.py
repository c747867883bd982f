"""The tracker's meaning reader on hostile findings: time against length, up to and past its cap.

``finding_meaning`` reads at most the first 2,000 characters of a finding with the analyzer, so
its time must grow at most linearly up to that and stop growing after it. Each row repeats one
construction the reader's passes look for (a cause then a check, a habit no longer seen, a past
then now, praise then 〜が、, a wish, 一方で, a target not reached, and the thirteenth pass's fault act
no longer seen, manner negation, now falling short and residual) to the given length; the time is
the best CPU time of 3 fresh texts (a new last character each, so no cache answers).

Verdict: **linear** when the time per character grows at most 1.5x from 500 to 2,000 characters
and from 2,000 to 8,000; **capped** as well when 8,000 characters cost at most 1.5x what 2,000 do
(the analyzer reads 2,000; a check that reads the whole finding, like the praise-negation one, is
linear past the cap and shows as "linear").

Usage: ``python benchmarks/track_meaning_hostile.py``.
"""

from __future__ import annotations

import os
import time

from sadame.track._ruleset import default_ruleset, finding_kind

UNITS = [
    "道順を覚えたことで確認する回数が減った、",
    "確認する姿が見られなくなった、",
    "前回は丁寧だったが、今回は確認しないまま",
    "良いが、",
    "もう少し具体的だと、",
    "今回も急いで",
    "正確になった一方で、",
    "目標に届いていない、",
    "慌てて叩く対応は見られなくなった、",  # thirteenth pass: a fault act no longer seen
    "口を挟まず、",  # thirteenth pass: a negation of manner before progress
    "以前は測っていたが、今回は目測だけで済ませ、",  # thirteenth pass: a now that falls short
    "肩から入れるようになった。ただ、後半は",  # thirteenth pass: progress then a residual
    "引き続き、付けられている、",  # sixteenth pass: an ability kept up
    "前回は飛ばしていたが、今回は組み付けられていた、",  # sixteenth pass: a past fault, then a "can"
    "小さくまとまってしまう点が改善され、",  # sixteenth pass: a fault point improved
    "減ったね。ちゃんと歌えてた。",  # sixteenth pass: a sentence of progress, then praise
    "前回までは話せていたのに、今回は黙って",  # sixteenth pass: an ability of the past lost
]
SIZES = (500, 2_000, 8_000)


def best_ms(unit: str, size: int) -> float:
    """Best CPU milliseconds of 3 fresh findings of ``size`` characters made of ``unit``."""
    rs = default_ruleset()
    best = float("inf")
    for n in range(3):
        text = (unit * (size // len(unit) + 1))[: size - 1] + "ぁあぃい"[n]
        start = time.process_time()
        finding_kind(text, rs)
        best = min(best, time.process_time() - start)
    return best * 1e3


def main() -> int:
    finding_kind("ウォームアップ", default_ruleset())  # the analyzer and tables, outside the timing
    print(f"load average {os.getloadavg()[0]:.1f} at the start (2 cores, shared)\n")
    print("| construction | 500 chars | 2,000 | 8,000 | per char 2,000 / 500 | per char 8,000 / 2,000 | verdict |")
    print("|---|---:|---:|---:|---:|---:|---|")
    failed = 0
    for unit in UNITS:
        small, cap, big = (best_ms(unit, size) for size in SIZES)
        growth, past = (cap / 2_000) / (small / 500), (big / 8_000) / (cap / 2_000)
        ok = growth <= 1.5 and past <= 1.5
        failed += not ok
        verdict = ("linear, capped" if big <= 1.5 * cap else "linear") if ok else "MISS"
        print(f"| {unit} | {small:.1f} ms | {cap:.1f} ms | {big:.1f} ms | {growth:.2f}x | {past:.2f}x | {verdict} |")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
