"""Similar issues of one user, as suggestions: a person decides whether to merge.

The score of two issues mixes what the analyzer says (shared content lemmas and readings,
from :func:`sadame.lang.content_terms`) with character bigrams of the ``issue``-normalized
texts, so it works for any domain without a ruleset. An issue is described by its title and
up to a few of its detection texts. Nothing here writes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection, select

from sadame.lang import content_terms
from sadame.normalize import normalize
from sadame.track._transaction import DETECTIONS, ISSUES

__all__ = ["MAX_CANDIDATES", "SimilarIssue", "similar_issues", "similarity"]

#: Issues compared per request (the most recently detected ones).
MAX_CANDIDATES = 2_000
_TEXTS_PER_ISSUE = 3
_WEIGHTS = (0.5, 0.15, 0.35)  # lemmas, readings, character bigrams


@dataclass(frozen=True)
class SimilarIssue:
    """A suggestion: another issue of the same user and how similar it is (0..1)."""

    issue_id: str
    title: str
    status: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Profile:
    lemmas: frozenset[str]
    readings: frozenset[str]
    bigrams: frozenset[str]


@functools.lru_cache(maxsize=20_000)
def _profile_of(text: str) -> _Profile:
    terms = content_terms(text)
    norm = normalize(text, preset="issue").replace(" ", "")
    return _Profile(terms.lemmas, terms.readings, frozenset(norm[i : i + 2] for i in range(len(norm) - 1)))


def _profile(texts: Iterable[str]) -> _Profile:
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


def similar_issues(conn: Connection, tenant: str, user: str, iid: str, *, limit: int = 5) -> list[SimilarIssue]:
    """The ``limit`` unmerged issues of ``user`` most similar to ``iid``, best first (score > 0)."""
    limit = max(1, min(int(limit), 50))
    i = ISSUES
    rows = list(conn.execute(
        select(i.c.issue_id, i.c.title, i.c.status).where(i.c.tenant_id == tenant, i.c.user_id == user,
                                                           i.c.merged_into.is_(None))
        .order_by(i.c.last_seen_seq.desc(), i.c.id.desc()).limit(MAX_CANDIDATES + 1)))
    titles = {r[0]: r[1] for r in rows}
    if iid not in titles:
        own = conn.execute(select(i.c.title).where(i.c.tenant_id == tenant, i.c.user_id == user,
                                                   i.c.issue_id == iid)).scalar()
        titles[iid] = str(own or "")
    texts = _texts(conn, tenant, user, list(titles))
    mine = [titles[iid], *texts[iid]]
    scored = []
    for other, title, status in rows:
        if other == iid:
            continue
        score = similarity(mine, [title, *texts[other]])
        if score > 0:
            scored.append(SimilarIssue(other, title, status, score))
    scored.sort(key=lambda s: (-s.score, s.issue_id))
    return scored[:limit]
