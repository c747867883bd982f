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

import functools
import itertools
import operator
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sqlalchemy import Connection, select

from sadame.track._transaction import DETECTIONS, ISSUES, USERS

__all__ = ["BITS_FROM", "MAX_SCORED", "MAX_USERS", "STOP_SHARE", "Sets", "UserIndex", "user_index"]

MAX_USERS = 256
#: Candidates scored per query: the issues sharing the most features with it.
MAX_SCORED = 100
STOP_SHARE = 0.05
#: Nominating entries (summed over a query's postings) from which they are counted as bits.
BITS_FROM = 1_000
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
    sizes: dict[str, tuple[int, int, int]] = field(default_factory=dict)  #: the sizes of its three sets
    #: each issue's bit in :attr:`bitmaps` and the issue of each bit: the first :attr:`sorted_upto`
    #: bits in the order of the ids (:meth:`renumber`), the issues seen since after them
    position: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    sorted_upto: int = 0
    #: a long posting as an ``int`` with the bits of its issues, made when a query reads it
    bitmaps: dict[str, int] = field(default_factory=dict)
    #: held while the index is brought up to date and while a query reads it (a renumbering or a
    #: changed posting under a running query would give it wrong candidates, or a RuntimeError)
    lock: threading.RLock = field(default_factory=threading.RLock, compare=False, repr=False)

    def _reindex(self, iid: str, features: frozenset[str], sets: Sets) -> None:
        old = self.features.get(iid, frozenset())
        if iid not in self.position:
            self.position[iid] = len(self.order)
            self.order.append(iid)
        for f in old - features:
            self.postings.get(f, set()).discard(iid)
            self.bitmaps.pop(f, None)
        for f in features - old:
            self.postings.setdefault(f, set()).add(iid)
            self.bitmaps.pop(f, None)
        self.features[iid] = features
        self.sets[iid] = sets
        self.sizes[iid] = (len(sets[0]), len(sets[1]), len(sets[2]))

    def renumber(self, *, force: bool = False) -> None:
        """Give the bits in the order of the ids again when the issues seen since the last time
        are more than an eighth (the bits of the postings are made again as queries read them):
        the first ids at the cut are then the lowest bits, not a sort of all the ids there."""
        if force or len(self.order) - self.sorted_upto > max(64, self.sorted_upto >> 3):
            self.order = sorted(self.order)
            self.position = {iid: n for n, iid in enumerate(self.order)}
            self.sorted_upto = len(self.order)
            self.bitmaps.clear()

    def bitmap(self, feature: str, posting: set[str]) -> int:
        """``posting`` as bits (:attr:`position`); kept until the posting changes when it is long
        enough for the bits to cost no more memory than the set (1 in 256 issues). Called with
        :attr:`lock` held (by :meth:`nominated`)."""
        found = self.bitmaps.get(feature)
        if found is None:
            bits = bytearray((len(self.order) + 7) // 8)
            for n in map(self.position.__getitem__, posting):
                bits[n >> 3] |= 1 << (n & 7)
            found = int.from_bytes(bits, "little")
            if len(posting) << 8 >= len(self.order):
                self.bitmaps[feature] = found
        return found

    def candidates(self, features: Iterable[str], exclude: str, limit: int = MAX_SCORED) -> list[str]:
        """The ``limit`` issues sharing the most features with ``features`` (common features
        nominate nobody); ties by id."""
        return self.nominated(features, exclude, limit)[0]

    def nominated(self, features: Iterable[str], exclude: str,
                  limit: int = MAX_SCORED) -> tuple[list[str], Mapping[str, int], int]:
        """:meth:`candidates`, the count of nominating features each nominated issue shares (at
        least each candidate's), and the posting length above which a feature nominates nobody.
        Long postings are counted as bits (:func:`_top_by_bits`), short ones in a Counter."""
        with self.lock:
            stop = max(_STOP_MIN, int(STOP_SHARE * len(self.titles)))
            postings = self.postings
            nominating = [(f, p) for f in features if (p := postings.get(f)) and len(p) <= stop]
            if self.order and sum(len(p) for _, p in nominating) >= BITS_FROM:
                top, counts = _top_by_bits(self, nominating, exclude, limit)
                return top, counts, stop
            shared: Counter[str] = Counter(itertools.chain.from_iterable(p for _, p in nominating))  # (C speed)
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


def _top_by_bits(index: UserIndex, nominating: list[tuple[str, set[str]]], exclude: str,
                 limit: int) -> tuple[list[str], dict[str, int]]:
    """:func:`_top` of the same counts (and the counts of the ids it returns), counted on bits:
    the postings are added into a binary counter whose digit ``j`` is an ``int`` with the bits of
    the issues whose count has bit ``j`` set -- a few big-integer operations a posting instead of
    a dict update an entry (at 10,000 issues a query's nominating postings hold about 2,400).
    The issues of each count, from the highest down, are bitmaps too, until the cut; only the
    ones kept become ids."""
    digits: list[int] = []
    for feature, posting in nominating:
        carry = index.bitmap(feature, posting)
        for j, digit in enumerate(digits):
            digits[j], carry = digit ^ carry, digit & carry
            if not carry:
                break
        if carry:
            digits.append(carry)
    if exclude in index.position:
        digits = [d & ~(1 << index.position[exclude]) for d in digits]
    nominated = functools.reduce(operator.or_, digits, 0)
    need, above, at_cut, cut = limit, 0, 0, 0
    for count in range(min(len(nominating), (1 << len(digits)) - 1), 0, -1):
        bits = functools.reduce(operator.and_, (d if count >> j & 1 else nominated ^ d for j, d in enumerate(digits)),
                                nominated)
        size = bits.bit_count()
        if size >= need:
            at_cut, cut = bits, count
            break
        above |= bits
        need -= size
    ids = _ids(index.order, above)
    pool = set(ids)
    shared = dict(Counter(itertools.chain.from_iterable(pool & p for _, p in nominating)))
    kept = _first_ids(index, at_cut, need)
    shared.update(dict.fromkeys(kept, cut))
    return _by_count(sorted(ids), shared) + kept, shared


def _first_ids(index: UserIndex, bits: int, need: int) -> list[str]:
    """The ``need`` lowest ids of the set bits of ``bits``: the lowest bits of the part in id
    order, and every issue seen since (sorted with them)."""
    upto, order = index.sorted_upto, index.order
    first = list(map(order.__getitem__, reversed(_positions(bits & ((1 << upto) - 1))[-need:])))
    late = bits >> upto << upto
    return sorted(first + list(map(order.__getitem__, _positions(late))))[:need] if late else first


def _ids(order: list[str], bits: int) -> list[str]:
    """The issues of the set bits of ``bits``, highest bit first."""
    return list(map(order.__getitem__, _positions(bits)))


def _positions(bits: int) -> list[int]:
    """The set bits of ``bits``, highest first: the binary digits split at the ones, the lengths
    of the runs of zeros summed (all at C speed: the cost is per set bit, not per bit)."""
    if not bits:
        return []
    runs = bin(bits)[2:].split("1")
    runs.pop()
    top = bits.bit_length() - 1
    return list(map(top.__sub__, map(operator.add, itertools.accumulate(map(len, runs)), itertools.count())))


def _by_count(ids: list[str], shared: Mapping[str, int]) -> list[str]:
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
    with index.lock:  # (not under _LOCK: a query holding its index's lock never waits for _LOCK)
        if index.version != version:
            _read_new(conn, tenant, user, index, profile)
            index.renumber()
            index.version = version
    return index
