"""Similar issues of one user, as suggestions: a person decides whether to merge.

The score of two issues mixes what the analyzer says (shared content lemmas and readings,
from :func:`sadame.lang.content_terms`) with character bigrams of the ``issue``-normalized
texts, so it works for any domain without a ruleset. When the tracker has a matcher (the LLM
matcher, embeddings), it picks among the 20 best lexical candidates and its pick scores at least
its confidence. An issue is described by its title and
up to a few of its detection texts. Nothing here writes.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from sqlalchemy import Connection, select

from sadame.lang._findings import FindingTerms, content_terms
from sadame.normalize import normalize
from sadame.track._hints import hinted_issues
from sadame.track._matching import IssueMatcher, MatchCandidate, safe_match
from sadame.track._ruleset import Ruleset, finding_kind
from sadame.track._similar_index import Profiler, Sets, UserIndex, user_index
from sadame.track._transaction import DETECTIONS, ISSUES

__all__ = ["MAX_CANDIDATES", "MERGE_OFFER_SCORE", "SimilarIssue", "similar_issues", "similar_issues_scan",
           "similarity"]

#: Issues compared per request (the most recently detected ones).
MAX_CANDIDATES = 2_000
_TEXTS_PER_ISSUE = 3
_WEIGHTS = (0.5, 0.15, 0.35)  # lemmas, readings, character bigrams
_MATCHER_POOL = 20
_ENDINGS = frozenset("るうくすつぬむぶぐいさ")
#: Calibrated score at and above which a suggestion is offered with a merge button (see
#: docs/guide/track.md: chosen on the project's own paraphrase and same-word sets, not the blind ones).
MERGE_OFFER_SCORE = 0.40


@dataclass(frozen=True)
class SimilarIssue:
    """A suggestion: another issue of the same user and how similar it is (0..1)."""

    issue_id: str
    title: str
    status: str
    score: float
    #: the configured matcher (LLM, embeddings) named this issue; ``score`` is then at least its confidence
    by_matcher: bool = False
    #: the dashboard offers a merge button for it (a suggestion below the calibrated score is shown without one)
    merge_offered: bool = True
    #: a person merged issues with these two keys (for some user of the tenant): a suggestion, not a link
    confirmed_elsewhere: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Profile:
    lemmas: frozenset[str]
    readings: frozenset[str]
    bigrams: frozenset[str]


@functools.lru_cache(maxsize=20_000)
def _stem(reading: str) -> str:
    """A reading without its inflection ending, so 崩れる (くずれる) meets 崩れ (くずれ)."""
    return reading[:-1] if len(reading) >= 3 and reading[-1] in _ENDINGS else reading


def _profile_of(text: str) -> _Profile:
    terms = content_terms(text)
    terms = FindingTerms(terms.lemmas, frozenset(_stem(r) for r in terms.readings))
    norm = normalize(text, preset="issue").replace(" ", "")
    return _Profile(terms.lemmas, terms.readings, frozenset(norm[i : i + 2] for i in range(len(norm) - 1)))


def _profile(texts: Iterable[str]) -> _Profile:
    return _profile_tuple(tuple(texts))


@functools.lru_cache(maxsize=50_000)
def _profile_tuple(texts: tuple[str, ...]) -> _Profile:
    parts = [_profile_of(t[:500]) for t in texts]
    return _Profile(frozenset().union(*(p.lemmas for p in parts)), frozenset().union(*(p.readings for p in parts)),
                    frozenset().union(*(p.bigrams for p in parts)))


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return float(shared / min(len(a), len(b)) * (2 * shared / (len(a) + len(b))) ** 0.5)


def similarity(a: Iterable[str], b: Iterable[str]) -> float:
    """How similar two issues described by their texts are, in [0, 1].

    >>> similarity(["踏み込みが弱い"], ["踏み込みの弱さが目立つ"]) > similarity(["踏み込みが弱い"], ["握力が足りない"])
    True
    """
    pa, pb = _profile(a), _profile(b)
    w_lemma, w_reading, w_bigram = _WEIGHTS
    score = (w_lemma * _overlap(pa.lemmas, pb.lemmas) + w_reading * _overlap(pa.readings, pb.readings)
             + w_bigram * _overlap(pa.bigrams, pb.bigrams))
    return round(min(1.0, score), 4)


def _texts(conn: Connection, tenant: str, user: str, ids: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {i: [] for i in ids}
    d = DETECTIONS
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = conn.execute(select(d.c.issue_id, d.c.text).where(
            d.c.tenant_id == tenant, d.c.user_id == user, d.c.issue_id.in_(chunk), d.c.kind == "issue")
            .order_by(d.c.id.desc()))
        for iid, text in rows:
            texts = out[iid]
            if len(texts) < _TEXTS_PER_ISSUE and text not in texts:
                texts.append(text)
    return out


def _ask_matcher(scored: list[SimilarIssue], keys: dict[str, str], text: str, matcher: IssueMatcher,
                 timeout: float | None) -> list[SimilarIssue]:
    """Let the matcher pick among the best lexical candidates; its pick scores at least its confidence."""
    pool = scored[:_MATCHER_POOL]
    candidates = [MatchCandidate(s.issue_id, s.title, keys[s.issue_id], s.status) for s in pool]
    result, _warning = safe_match(matcher, text, candidates, purpose="detection", timeout=timeout)
    if result is None:
        return scored
    return [replace(s, score=max(s.score, round(result.confidence, 4)), by_matcher=True)
            if s.issue_id == result.issue_id else s for s in scored]


def _polarity(title: str, ruleset: Ruleset | None) -> str:
    return "problem" if ruleset is None else finding_kind(title, ruleset)


def _offer(s: SimilarIssue, detection_match: float) -> SimilarIssue:
    offered = (s.score >= MERGE_OFFER_SCORE or (s.by_matcher and s.score >= detection_match)
               or s.confirmed_elsewhere)
    return replace(s, merge_offered=offered)


def similar_issues_scan(conn: Connection, tenant: str, user: str, iid: str, *, limit: int = 5,
                        matcher: IssueMatcher | None = None, timeout: float | None = None,
                        ruleset: Ruleset | None = None, detection_match: float = 0.78) -> list[SimilarIssue]:
    """The simple code :func:`similar_issues` replaced (kept for ``benchmarks/track_similar.py``
    and the equivalence test): score the 2,000 most recent issues one by one.
    The ``limit`` unmerged issues of ``user`` most similar to ``iid``, best first (score > 0).
    With a ``matcher``, its choice among the best lexical candidates is boosted (and marked).
    With a ``ruleset``, an issue of the other polarity (an improvement or praise stored as an
    issue, for a problem) is never suggested. ``merge_offered`` is true at or above
    :data:`MERGE_OFFER_SCORE` (or a matcher's pick at or above ``detection_match``)."""
    limit = max(1, min(int(limit), 50))
    i = ISSUES
    rows = list(conn.execute(
        select(i.c.issue_id, i.c.title, i.c.status, i.c.key).where(i.c.tenant_id == tenant, i.c.user_id == user,
                                                           i.c.merged_into.is_(None))
        .order_by(i.c.last_seen_seq.desc(), i.c.id.desc()).limit(MAX_CANDIDATES + 1)))
    titles = {r[0]: r[1] for r in rows}
    keys = {r[0]: r[3] for r in rows}
    if iid not in titles:
        own = conn.execute(select(i.c.title).where(i.c.tenant_id == tenant, i.c.user_id == user,
                                                   i.c.issue_id == iid)).scalar()
        titles[iid] = str(own or "")
    texts = _texts(conn, tenant, user, list(titles))
    mine = [titles[iid], *texts[iid]]
    polarity = _polarity(titles[iid], ruleset)
    scored = []
    for other, title, status, _key in rows:
        if other == iid or _polarity(title, ruleset) != polarity:
            continue
        score = similarity(mine, [title, *texts[other]])
        if score > 0 or matcher is not None:
            scored.append(SimilarIssue(other, title, status, score))
    scored.sort(key=lambda s: (-s.score, s.issue_id))
    if matcher is not None:
        scored = _ask_matcher(scored, keys, titles[iid], matcher, timeout)
        scored = sorted((s for s in scored if s.score > 0), key=lambda s: (-s.score, s.issue_id))
    return [_offer(s, detection_match) for s in scored[:limit]]


def _features(texts: list[str]) -> frozenset[str]:
    p = _profile(texts)
    return frozenset([*(f"l{x}" for x in p.lemmas), *(f"r{x}" for x in p.readings), *(f"b{x}" for x in p.bigrams)])


class _Profiler(Profiler):
    def __call__(self, texts: list[str]) -> tuple[frozenset[str], Sets]:
        p = _profile(texts)
        return _features(texts), (p.lemmas, p.readings, p.bigrams)


def _raw_scores(index: UserIndex, features: frozenset[str], sets: Sets, ids: list[str],
                shared: Mapping[str, int], stop: int) -> dict[str, float]:
    """:func:`similarity` of the query (``features``, ``sets``) against each of ``ids``, before its
    ``round(min(1, ...), 4)``: the same floats. The shared counts come from the postings of the query's features, one C-level
    intersection with the candidates per feature, instead of three set intersections per
    candidate; the bigrams among the nominating features (most of the postings read) are not
    read again: ``shared`` (:meth:`UserIndex.nominated`) already counts every nominating feature,
    so an issue's nominating bigrams are that count less its nominating lemmas and readings.
    The rest is :func:`_overlap`'s arithmetic, written out in its order for each part."""
    pool = set(ids)
    lemma_nom: list[set[str]] = []
    reading_nom: list[set[str]] = []
    lemma_rest: list[set[str]] = []
    reading_rest: list[set[str]] = []
    bigram_rest: list[set[str]] = []
    postings = index.postings
    for f in features:
        posting = postings.get(f)
        if not posting:
            continue
        nominating = len(posting) <= stop
        kind = f[0]
        if kind == "b":
            if not nominating:
                bigram_rest.append(pool & posting)
        elif kind == "l":
            (lemma_nom if nominating else lemma_rest).append(pool & posting)
        else:
            (reading_nom if nominating else reading_rest).append(pool & posting)
    # (``.get(o, 0)``, not ``counter[o]``: a Counter answers a missing key through a Python method)
    nom_l, nom_r, rest_l, rest_r, rest_b = (Counter(itertools.chain.from_iterable(hits)).get for hits in
                                            (lemma_nom, reading_nom, lemma_rest, reading_rest, bigram_rest))
    (la, ra, ba), all_sizes, nominations = sets, index.sizes, shared.get
    xl, xr, xb = len(la), len(ra), len(ba)
    w_lemma, w_reading, w_bigram = _WEIGHTS
    out: dict[str, float] = {}
    for o in ids:
        yl, yr, y = all_sizes[o]
        lemmas, readings = nom_l(o, 0), nom_r(o, 0)
        s = nominations(o, 0) - lemmas - readings + rest_b(o, 0)
        bigram = s / (xb if xb < y else y) * (2 * s / (xb + y)) ** 0.5 if s else 0.0
        s, y = lemmas + rest_l(o, 0), yl  # (_overlap inlined: a hot loop)
        lemma = s / (xl if xl < y else y) * (2 * s / (xl + y)) ** 0.5 if s else 0.0
        s, y = readings + rest_r(o, 0), yr
        reading = s / (xr if xr < y else y) * (2 * s / (xr + y)) ** 0.5 if s else 0.0
        out[o] = w_lemma * lemma + w_reading * reading + w_bigram * bigram
    return out


def _ranked(raw: dict[str, float]) -> Iterator[tuple[str, float]]:
    """``(issue, score)`` by score (rounded as :func:`similarity` rounds), best first, ties by id,
    only scores above 0. Rounding is the dearest part of a score and monotone, so the candidates
    are ordered by the raw sum and each is rounded only when the caller gets that far (most
    queries read the first few): equal rounded scores are neighbours in that order."""
    group: list[str] = []
    current = 0.0
    for o in sorted(raw, key=raw.__getitem__, reverse=True):
        score = round(min(1.0, raw[o]), 4)
        if score <= 0:
            break
        if score != current:
            yield from ((g, current) for g in sorted(group))
            group, current = [], score
        group.append(o)
    yield from ((g, current) for g in sorted(group))


def _live(conn: Connection, tenant: str, user: str, ids: list[str]) -> dict[str, str]:
    """Status of each of ``ids`` that is not merged away."""
    out: dict[str, str] = {}
    i = ISSUES
    for start in range(0, len(ids), 500):
        # merged_into is tested here, not in SQL: with it SQLite walked the merged index over every issue
        out.update((r[0], r[1]) for r in conn.execute(select(i.c.issue_id, i.c.status, i.c.merged_into).where(
            i.c.tenant_id == tenant, i.c.user_id == user, i.c.issue_id.in_(ids[start : start + 500])))
            if r[2] is None)
    return out


def _chunks(ranked: Iterator[tuple[str, float]], first: int) -> Iterator[list[tuple[str, float]]]:
    """``ranked`` in chunks whose statuses are read together: ``first``, then 80 at a time."""
    size = first
    while chunk := list(itertools.islice(ranked, size)):
        yield chunk
        size = 4 * _MATCHER_POOL


def similar_issues(conn: Connection, tenant: str, user: str, iid: str, *, limit: int = 5,
                   matcher: IssueMatcher | None = None, timeout: float | None = None,
                   ruleset: Ruleset | None = None, detection_match: float = 0.78) -> list[SimilarIssue]:
    """The ``limit`` unmerged issues of ``user`` most similar to ``iid``, best first (score > 0),
    scored only among the issues that share a feature with it (:mod:`sadame.track._similar_index`).
    With a ``matcher``, its choice among the best lexical candidates is boosted (and marked).
    With a ``ruleset``, an issue of the other polarity (an improvement or praise stored as an
    issue, for a problem) is never suggested. ``merge_offered`` is true at or above
    :data:`MERGE_OFFER_SCORE` (or a matcher's pick at or above ``detection_match``)."""
    limit = max(1, min(int(limit), 50))
    index = user_index(conn, str(conn.engine.url), tenant, user, _Profiler())
    title = index.titles.get(iid)
    if title is None:
        title = str(conn.execute(select(ISSUES.c.title).where(
            ISSUES.c.tenant_id == tenant, ISSUES.c.user_id == user, ISSUES.c.issue_id == iid)).scalar() or "")
    polarity = _polarity(title, ruleset)
    with index.lock:  # (another thread may bring the same index up to date meanwhile)
        mine = [title, *index.texts.get(iid, [])]
        features, sets = index.features.get(iid), index.sets.get(iid)
        if features is None or sets is None:
            features, sets = _Profiler()(mine)
        raw = _raw_scores(index, features, sets, *index.nominated(features, iid))
    ranked: Iterable[tuple[str, float]] = _ranked(raw)
    if matcher is not None:
        ranked = list(ranked)
        if len(ranked) < _MATCHER_POOL:  # the matcher sees recent issues too
            ranked += [(o, 0.0) for o in reversed(index.titles) if o != iid and o not in raw][
                : _MATCHER_POOL - len(ranked)]
    key = index.keys.get(iid)
    hinted = [h for h in hinted_issues(conn, tenant, user, key) if h != iid] if key else []
    # Without a matcher or hints only the first ``limit`` suggestions are shown, so the statuses of
    # a few more than that are read first (most are live); a hinted issue shows its score when it
    # is among the first 80, so then the chunks stay as they were.
    first = 4 * _MATCHER_POOL if matcher is not None or hinted else 2 * limit
    wanted = max(limit, _MATCHER_POOL if matcher is not None else limit)
    out: list[SimilarIssue] = []
    for chunk in _chunks(iter(ranked), first):
        status = _live(conn, tenant, user, [o for o, _ in chunk])
        out += [SimilarIssue(o, index.titles[o], status[o], score) for o, score in chunk
                if o in status and _polarity(index.titles[o], ruleset) == polarity]
        if len(out) >= wanted:
            break
    if matcher is not None:
        out = _ask_matcher(out, index.keys, title, matcher, timeout)
        out = sorted((s for s in out if s.score > 0), key=lambda s: (-s.score, s.issue_id))
    out = _with_hints(conn, tenant, user, hinted, out, index.titles)
    return [_offer(s, detection_match) for s in out[:limit]]


def _with_hints(conn: Connection, tenant: str, user: str, hinted: list[str], out: list[SimilarIssue],
                titles: dict[str, str]) -> list[SimilarIssue]:
    """Issues whose keys a person merged with this one's (any user of the tenant) come first."""
    if not hinted:
        return out
    status = _live(conn, tenant, user, hinted)
    scores = {s.issue_id: s.score for s in out}
    first = [SimilarIssue(h, titles.get(h, ""), status[h], scores.get(h, 0.0), confirmed_elsewhere=True)
             for h in hinted if h in status]
    return first + [s for s in out if s.issue_id not in {f.issue_id for f in first}]
