"""An inverted index over the features :func:`sadame.track.similarity` compares, per user.

``similar()`` used to score the query against every recent issue of the user (up to 2,000), so
its cost grew with the history. The index maps each feature of an issue's profile (content
lemmas, readings, character bigrams of its title and last detection texts) to the issues that
have it; a query scores only the :data:`MAX_SCORED` issues that share the most features with it, and
features held by more than :data:`STOP_SHARE` of the issues (a bigram like ない) do not nominate
candidates (they still count in the score).

The index lives in the process, one per ``(database, tenant, user)`` (at most
:data:`MAX_USERS`, least recently used dropped), and is brought up to date on every query:
one indexed read of the user's counters says whether anything happened since; then only
the issues and detections written since are read (``id`` greater than the last seen), and
statuses and merges are read for the few candidates returned. An erasure (and a re-import)
rebuilds the index. A merge moves no rows the index reads by id, so the absorbing issue keeps
the profile it had (its own texts): a merged issue is never suggested (its ``merged_into`` is
read at query time), and an unmerge needs nothing.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import Connection, select

from sadame.track._transaction import DETECTIONS, ISSUES, USERS

__all__ = ["MAX_SCORED", "MAX_USERS", "STOP_SHARE", "Sets", "UserIndex", "user_index"]

MAX_USERS = 256
#: Candidates scored per query: the issues sharing the most features with it.
MAX_SCORED = 100
STOP_SHARE = 0.05
_STOP_MIN = 50
_TEXTS_PER_ISSUE = 3
#: What the score compares, per issue (lemmas, readings, character bigrams), kept beside the postings.
Sets = tuple[frozenset[str], frozenset[str], frozenset[str]]


@dataclass
class UserIndex:
    """Titles, texts and the feature -> issues postings of one user's unmerged issues."""

    version: tuple[object, ...] = ()
    last_issue: int = 0  #: highest ``track_issues.id`` read
    last_detection: int = 0  #: highest ``track_detections.id`` read
    titles: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    texts: dict[str, list[str]] = field(default_factory=dict)
    features: dict[str, frozenset[str]] = field(default_factory=dict)
    postings: dict[str, set[str]] = field(default_factory=dict)
    sets: dict[str, Sets] = field(default_factory=dict)  #: the profile each issue is scored with

    def _reindex(self, iid: str, features: frozenset[str], sets: Sets) -> None:
        for f in self.features.get(iid, frozenset()) - features:
            self.postings.get(f, set()).discard(iid)
        for f in features:
            self.postings.setdefault(f, set()).add(iid)
        self.features[iid] = features
        self.sets[iid] = sets

    def candidates(self, features: Iterable[str], exclude: str, limit: int = MAX_SCORED) -> list[str]:
        """The ``limit`` issues sharing the most features with ``features`` (common features
        nominate nobody); ties by id."""
        return self.nominated(features, exclude, limit)[0]

    def nominated(self, features: Iterable[str], exclude: str,
                  limit: int = MAX_SCORED) -> tuple[list[str], Counter[str], int]:
        """:meth:`candidates`, the count of nominating features each nominated issue shares, and
        the posting length above which a feature nominates nobody."""
        stop = max(_STOP_MIN, int(STOP_SHARE * len(self.titles)))
        postings = self.postings
        nominating = [p for p in map(postings.get, features) if p and len(p) <= stop]
        shared: Counter[str] = Counter(itertools.chain.from_iterable(nominating))  # (counted at C speed)
        shared.pop(exclude, None)
        return _top(shared, limit), shared, stop


def _top(shared: Counter[str], limit: int) -> list[str]:
    """The ``limit`` ids with the highest counts, ties by id: the same as sorting every nominated
    issue and cutting, without sorting (or heap-ranking in Python) the thousands a common-enough
    feature nominates at 10,000 issues. A histogram of the counts (small integers) gives the
    cut-off count; only the ids above it and the first ids at it are sorted."""
    if len(shared) <= limit:
        return _by_count(sorted(shared), shared)
    histogram = Counter(shared.values())
    need, cut = limit, 0
    for count in sorted(histogram, reverse=True):
        if histogram[count] >= need:
            cut = count
            break
        need -= histogram[count]
    ids, counts = shared.keys(), shared.values()  # (filtered by count at C speed: compress and map)
    above = _by_count(sorted(itertools.compress(ids, map(cut.__lt__, counts))), shared)
    return above + sorted(itertools.compress(ids, map(cut.__eq__, counts)))[:need]


def _by_count(ids: list[str], shared: Counter[str]) -> list[str]:
    """``ids`` (sorted) by count, highest first, ties by id: a stable sort keeps the id order
    of equal counts, even with ``reverse`` (the key a C-level lookup, not a tuple per id)."""
    ids.sort(key=shared.__getitem__, reverse=True)
    return ids


_LOCK = threading.Lock()
_INDEXES: OrderedDict[tuple[str, str, str], UserIndex] = OrderedDict()


def _version(conn: Connection, tenant: str, user: str) -> tuple[object, ...]:
    row = conn.execute(select(USERS.c.last_seq, USERS.c.created_at).where(
        USERS.c.tenant_id == tenant, USERS.c.user_id == user)).first()
    return () if row is None else tuple(row)


def _read_new(conn: Connection, tenant: str, user: str, index: UserIndex,
              profile: Profiler) -> None:
    i, d = ISSUES, DETECTIONS
    for row_id, iid, title, key in conn.execute(
            select(i.c.id, i.c.issue_id, i.c.title, i.c.key).where(
                i.c.tenant_id == tenant, i.c.user_id == user, i.c.id > index.last_issue).order_by(i.c.id)):
        index.last_issue = max(index.last_issue, int(row_id))
        index.titles[iid], index.keys[iid] = title, key
        index.texts.setdefault(iid, [])
    touched = set(index.titles) if not index.features else set()
    for row_id, iid, text in conn.execute(
            select(d.c.id, d.c.issue_id, d.c.text).where(
                d.c.tenant_id == tenant, d.c.user_id == user, d.c.id > index.last_detection,
                d.c.kind == "issue", d.c.issue_id.is_not(None)).order_by(d.c.id)):
        index.last_detection = max(index.last_detection, int(row_id))
        texts = index.texts.setdefault(iid, [])
        if text not in texts:
            texts.insert(0, text)
            del texts[_TEXTS_PER_ISSUE:]
        touched.add(iid)
    touched |= {iid for iid in index.titles if iid not in index.features}
    for iid in touched:
        if iid in index.titles:
            index._reindex(iid, *profile([index.titles[iid], *index.texts.get(iid, [])]))


class Profiler:
    """The feature set and the scored sets of an issue's texts (given by :mod:`sadame.track._similar`)."""

    def __call__(self, texts: list[str]) -> tuple[frozenset[str], Sets]:  # pragma: no cover - protocol
        raise NotImplementedError


def user_index(conn: Connection, db: str, tenant: str, user: str, profile: Profiler) -> UserIndex:
    """The user's index, brought up to date (see the module docstring)."""
    cache_key = (db, tenant, user)
    version = _version(conn, tenant, user)
    with _LOCK:
        index = _INDEXES.get(cache_key)
        if (index is None or not version or not index.version or index.version[1] != version[1]
                or int(str(version[0])) < int(str(index.version[0]))):
            index = UserIndex()  # first use, or the user was erased (and maybe imported again)
        _INDEXES[cache_key] = index
        _INDEXES.move_to_end(cache_key)
        while len(_INDEXES) > MAX_USERS:
            _INDEXES.popitem(last=False)
        if index.version != version:
            _read_new(conn, tenant, user, index, profile)
            index.version = version
        return index
