"""The inverted index of ``similar()`` (issue 21 item 4) answers exactly like the plain scan."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st

from sadame.track import Tracker, _similar_index
from sadame.track._similar import (
    _WEIGHTS,
    _overlap,
    _Profiler,
    _ranked,
    _raw_scores,
    similar_issues_scan,
    similarity,
)
from sadame.track._similar_index import Sets, UserIndex
from sadame.track._views import TrackerConfig

VOCABULARY = json.loads((Path(__file__).parent / "data" / "similar_vocabulary.json").read_text("utf-8"))


def _history(n: int, seed: int) -> list[str]:
    combos = [f"{w}{p}{q}" for w in VOCABULARY["when"] for p in VOCABULARY["parts"] for q in VOCABULARY["problems"]]
    random.Random(seed).shuffle(combos)
    return combos[:n]


def test_the_index_gives_the_scans_scores_and_order_on_a_realistic_history(db_url: str) -> None:
    with Tracker(db_url, tenant="t", config=TrackerConfig(max_new_per_session=1000)) as t:
        texts = _history(300, seed=3)
        ids: list[str] = []
        for start in range(0, len(texts), 100):  # three sessions: the index is read incrementally
            report = t.ingest("u", f"s{start}", texts[start : start + 100])
            ids += [e.issue_id or "" for e in report.new + report.deferred + report.remaining]
        assert len(ids) > 250
        compared = 0
        with t.engine.connect() as conn:
            for iid in ids[::3]:
                indexed = [(s.issue_id, s.score, s.merge_offered) for s in t.similar("u", iid)]
                scanned = [(s.issue_id, s.score, s.merge_offered)
                           for s in similar_issues_scan(conn, "t", "u", iid, ruleset=t.ruleset)]
                assert indexed == scanned, iid
                compared += bool(indexed)
        assert compared > 50  # most issues have suggestions: the comparison is not of empty lists


@given(st.dictionaries(st.sampled_from([f"f{n}" for n in range(30)]),
                       st.sets(st.sampled_from([f"i{n:02d}" for n in range(60)]), max_size=40), max_size=30),
       st.sets(st.sampled_from([f"f{n}" for n in range(30)])), st.integers(1, 20))
def test_candidates_are_the_sorted_nominations_cut_at_the_limit(postings: dict[str, set[str]], query: set[str],
                                                                limit: int) -> None:
    index = UserIndex(titles={f"i{n:02d}": "" for n in range(60)}, postings=postings)
    shared: dict[str, int] = {}
    for f in query:
        for iid in postings.get(f, set()):
            shared[iid] = shared.get(iid, 0) + 1
    shared.pop("i00", None)
    expected = [iid for iid, _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]
    assert index.candidates(query, "i00", limit) == expected


@given(st.dictionaries(st.sampled_from([f"i{n:02d}" for n in range(40)]),
                       st.one_of(st.floats(0, 1.2), st.sampled_from([0.0, 0.00004, 0.00005, 0.12345, 0.12355, 1.0])),
                       max_size=40))
def test_ranking_by_raw_sums_is_the_sort_by_rounded_score(raw: dict[str, float]) -> None:
    rounded = {o: round(min(1.0, v), 4) for o, v in raw.items()}
    expected = sorted(((o, sc) for o, sc in rounded.items() if sc > 0), key=lambda p: (-p[1], p[0]))
    assert list(_ranked(raw)) == expected


def _raw_score(a: Sets, b: Sets) -> float:
    """:func:`similarity` of two profiles at hand before its rounding, from :func:`_overlap` (the oracle)."""
    return sum(w * _overlap(x, y) for w, x, y in zip(_WEIGHTS, a, b, strict=True))


def test_a_profile_at_hand_scores_what_similarity_scores() -> None:
    texts = _history(30, seed=5)
    for a, b in itertools.combinations(texts, 2):
        pa, pb = _Profiler()([a]), _Profiler()([b])
        assert round(min(1.0, _raw_score(pa[1], pb[1])), 4) == similarity([a], [b])


def test_scores_from_the_postings_are_the_same_floats_as_scoring_each_candidate() -> None:
    index = UserIndex()
    texts = _history(400, seed=11)
    for n, text in enumerate(texts):
        index.titles[f"i{n:03d}"] = text
        index._reindex(f"i{n:03d}", *_Profiler()([text]))
    checked = 0
    for n in range(0, 400, 7):
        iid = f"i{n:03d}"
        features, sets = index.features[iid], index.sets[iid]
        candidates, shared, stop = index.nominated(features, iid)
        expected = {o: _raw_score(sets, index.sets[o]) for o in candidates}
        assert _raw_scores(index, features, sets, candidates, shared, stop) == expected, iid
        checked += sum(v > 0 for v in expected.values())
    assert checked > 1000  # most candidates score above 0: the comparison is not of zeros


@given(st.dictionaries(st.sampled_from([f"i{n:02d}" for n in range(60)]),
                       st.sets(st.sampled_from([f"f{n}" for n in range(30)]), max_size=20), max_size=60),
       st.sets(st.sampled_from([f"f{n}" for n in range(30)])), st.integers(1, 20), st.sampled_from(["i00", "i07", "zz"]),
       st.integers(0, 60))
def test_counting_on_bits_gives_the_counters_candidates_and_counts(features: dict[str, set[str]], query: set[str],
                                                                   limit: int, exclude: str, split: int) -> None:
    index = UserIndex()
    empty: Sets = (frozenset(), frozenset(), frozenset())
    for n, (iid, fs) in enumerate(features.items()):
        if n == split:  # the first issues get their bits in id order, the later ones after them
            index.renumber(force=True)
        index.titles[iid] = ""
        index._reindex(iid, frozenset(fs), empty)
    by_counter = index.nominated(query, exclude, limit)
    with patch.object(_similar_index, "BITS_FROM", 0):
        by_bits = index.nominated(query, exclude, limit)
    assert by_bits[0] == by_counter[0]
    assert {o: by_bits[1][o] for o in by_bits[0]} == {o: by_counter[1][o] for o in by_counter[0]}
    assert by_bits[2] == by_counter[2]


def test_the_bits_follow_the_postings_when_an_issue_changes() -> None:
    index = UserIndex(titles={"a": "", "b": "", "c": ""})
    empty: Sets = (frozenset(), frozenset(), frozenset())
    for iid in "abc":
        index._reindex(iid, frozenset({"x", "y"}), empty)
    with patch.object(_similar_index, "BITS_FROM", 0):
        assert index.nominated({"x", "y"}, "a")[0] == ["b", "c"]
        index._reindex("b", frozenset({"z"}), empty)  # b loses x and y: its bits go
        assert index.nominated({"x", "y"}, "a")[0] == ["c"]
        assert index.nominated({"x", "y", "z"}, "a")[0] == ["c", "b"]
        index.titles["0"] = ""
        index._reindex("0", frozenset({"x"}), empty)  # seen late, the lowest id: first of its count
        assert index.nominated({"x", "y", "z"}, "a")[0] == ["c", "0", "b"]
        index.renumber(force=True)
        assert index.order == ["0", "a", "b", "c"]
        assert index.nominated({"x", "y", "z"}, "a")[0] == ["c", "0", "b"]


def test_an_index_is_not_brought_up_to_date_while_a_query_reads_it(db_url: str) -> None:
    """A query holds its index's lock; another thread's update of that index waits for it (a
    renumbering under a running query would give it wrong candidates)."""
    import threading

    with Tracker(db_url, tenant="t", config=TrackerConfig(max_new_per_session=1000)) as t:
        first = t.ingest("u", "s1", _history(40, seed=5))
        iid = first.new[0].issue_id or ""
        assert t.similar("u", iid) is not None  # the index exists and is current
        index = _similar_index._INDEXES[(str(t.engine.url), "t", "u")]
        t.ingest("u", "s2", _history(80, seed=6)[40:])  # the index is now behind
        done = threading.Event()

        def update() -> None:
            with t.engine.connect() as conn:
                _similar_index.user_index(conn, str(conn.engine.url), "t", "u", _Profiler())
            done.set()

        with index.lock:  # what a running query holds
            before = len(index.titles)
            worker = threading.Thread(target=update)
            worker.start()
            assert not done.wait(0.5)  # the update waits for the query
            assert len(index.titles) == before
        worker.join(10)
        assert done.is_set() and len(index.titles) > before  # and runs once the query is done
