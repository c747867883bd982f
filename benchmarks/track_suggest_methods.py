"""Which similarity finds the earlier issue of a paraphrase? Offline comparison of scoring methods.

For every later finding, the earlier findings of its user (or domain) are ranked by each method;
printed per set: top-1, top-3 and the false-suggestion rate at the merge-offer threshold (a first
suggestion at or above it that names another issue; for a new problem, any). Sets: the project's
own ``evals/track/paraphrase_pairs.jsonl`` (+ ``same_word_pairs.jsonl`` as distractor pairs) and
the blind ``evals/track/blind/track_paraphrase.json``, split into the three users looked at while
building (dev) and the three never looked at (held out).

    python benchmarks/track_suggest_methods.py [--threshold 0.35]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from sadame.lang import analyze
from sadame.lang._findings import content_terms
from sadame.normalize import normalize
from sadame.track._similar import similarity

ROOT = Path(__file__).resolve().parents[1] / "evals" / "track"
DEV_USERS = ("u-sports", "u-presentation", "u-sales")

Score = Callable[[str, str], float]


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _grams(text: str, n: int) -> set[str]:
    s = normalize(text, preset="issue").replace(" ", "")
    return {s[i : i + n] for i in range(len(s) - n + 1)}


def _parts(text: str) -> tuple[set[str], set[str], set[str]]:
    nouns, preds, kana = set(), set(), set()
    for t in analyze(text):
        if not t.is_content:
            continue
        (nouns if t.pos[0] == "名詞" else preds).add(t.normalized)
        if t.reading:
            kana.add(t.reading)
    return nouns, preds, kana


def current(a: str, b: str) -> float:
    return similarity([a], [b])


def lemmas(a: str, b: str) -> float:
    return _jaccard(set(content_terms(a).lemmas), set(content_terms(b).lemmas))


def trigrams(a: str, b: str) -> float:
    return _jaccard(_grams(a, 3), _grams(b, 3))


def bigrams(a: str, b: str) -> float:
    return _jaccard(_grams(a, 2), _grams(b, 2))


def heads(a: str, b: str) -> float:
    na, pa, _ = _parts(a)
    nb, pb, _ = _parts(b)
    return 0.65 * _jaccard(na, nb) + 0.35 * _jaccard(pa, pb)


def reading_bigrams(a: str, b: str) -> float:
    ka = {r[i : i + 2] for r in _parts(a)[2] for i in range(len(r) - 1)}
    kb = {r[i : i + 2] for r in _parts(b)[2] for i in range(len(r) - 1)}
    return _jaccard(ka, kb)


def combined(a: str, b: str) -> float:
    return round(0.7 * current(a, b) + 0.3 * reading_bigrams(a, b), 4)


METHODS: dict[str, Score] = {"current (lemmas+readings+bigrams)": current, "Sudachi normalized lemmas": lemmas,
                             "character bigrams": bigrams, "character trigrams": trigrams,
                             "head nouns + predicates": heads, "reading bigrams": reading_bigrams,
                             "current + reading bigrams": combined}


def _cases_own() -> list[tuple[str, list[str], int | None]]:
    rows = [json.loads(x) for x in (ROOT / "paraphrase_pairs.jsonl").read_text(encoding="utf-8").splitlines() if x]
    by_domain: dict[str, list[str]] = {}
    for r in rows:
        by_domain.setdefault(r["domain"], []).append(r["a"])
    cases: list[tuple[str, list[str], int | None]] = []
    for r in rows:
        pool = by_domain[r["domain"]]
        cases.append((r["b"], pool, pool.index(r["a"])))
    same = [json.loads(x) for x in (ROOT / "same_word_pairs.jsonl").read_text(encoding="utf-8").splitlines() if x]
    cases += [(r["b"], [r["a"]], None) for r in same]  # a different problem: must not be offered
    return cases


def _cases_blind(users: tuple[str, ...], keep: bool) -> list[tuple[str, list[str], int | None]]:
    data = json.loads((ROOT / "blind" / "track_paraphrase.json").read_text(encoding="utf-8"))
    cases: list[tuple[str, list[str], int | None]] = []
    for u in data:
        if (u["user"] in users) != keep:
            continue
        pool = [e["text"] for e in u["earlier"]]
        ids = [e["id"] for e in u["earlier"]]
        cases += [(x["text"], pool, ids.index(x["same_as"]) if x["same_as"] else None) for x in u["later"]]
    return cases


def evaluate(score: Score, cases: list[tuple[str, list[str], int | None]], threshold: float) -> dict[str, float]:
    top1 = top3 = false = para = 0
    for text, pool, want in cases:
        ranked = sorted(range(len(pool)), key=lambda i: -score(text, pool[i]))
        scores = [score(text, pool[i]) for i in ranked[:1]]
        if want is not None and len(pool) > 1:
            para += 1
            top1 += ranked[0] == want
            top3 += want in ranked[:3]
        if scores and scores[0] >= threshold and ranked[0] != want:
            false += 1
    return {"top1": top1 / max(1, para), "top3": top3 / max(1, para), "false": false / max(1, len(cases)),
            "n": len(cases), "paraphrases": para}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threshold", type=float, default=0.35)
    args = parser.parse_args()
    sets = {"own (120 paraphrases + 62 same-word pairs)": _cases_own(),
            "blind dev users": _cases_blind(DEV_USERS, True), "blind held-out users": _cases_blind(DEV_USERS, False)}
    for name, cases in sets.items():
        print(f"\n{name}: threshold {args.threshold}\n")
        print("| method | top-1 | top-3 | false suggestions |\n|---|---|---|---|")
        for label, fn in METHODS.items():
            r = evaluate(fn, cases, args.threshold)
            print(f"| {label} | {100 * r['top1']:.1f}% | {100 * r['top3']:.1f}% | {100 * r['false']:.1f}% |")


if __name__ == "__main__":
    main()
