"""One locked transaction for one tenant and user: table handles, prebuilt statements,
buffered issue writes, status counts and the event log.

Everything that changes a user's issues (ingest, merge, unmerge, migrate, user actions)
runs inside a :class:`Transaction`: issues are loaded once, changed in memory, and
written back by :meth:`Transaction.flush` in a few batched statements.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table, UniqueConstraint, bindparam, event, func, select
from sqlalchemy.sql.elements import BindParameter

from sadame.db._raw import RawCursor
from sadame.track._errors import IllegalTransition, InvalidInsight, IssueNotFound
from sadame.track._lifecycle import TRANSITIONS, Event, Status, transition
from sadame.track._models import DetectionRow, EventRow, IssueRow, KeyRow, RulesetRow, SessionRow, UserRow
from sadame.track._ruleset import Ruleset, issue_id, strip_label
from sadame.track._views import IssueView, Outcome

__all__ = [
    "DETECTIONS",
    "EVENTS",
    "ISSUES",
    "ISSUE_COLUMNS",
    "KEYS",
    "RULESETS",
    "SESSIONS",
    "USERS",
    "Transaction",
    "check_name",
    "issue_view",
    "lock_key",
    "sqlite_immediate",
    "to_iso",
]

ISSUES = cast(Table, IssueRow.__table__)
DETECTIONS = cast(Table, DetectionRow.__table__)
KEYS = cast(Table, KeyRow.__table__)
EVENTS = cast(Table, EventRow.__table__)
SESSIONS = cast(Table, SessionRow.__table__)
USERS = cast(Table, UserRow.__table__)
RULESETS = cast(Table, RulesetRow.__table__)
ISSUE_COLUMNS = [c.name for c in ISSUES.columns if c.name != "id"]
_TENANT: BindParameter[str] = bindparam("t")
_USER: BindParameter[str] = bindparam("u")
_ID_LIMIT = {"tenant": 128, "user_id": 255, "session_id": 255, "actor": 255}
_ID_FORBIDDEN = frozenset("/\\")  # a user id is a URL path segment of the dashboard and the API


def scoped(table: Table) -> Any:
    """``tenant_id = :t AND user_id = :u`` for a prebuilt statement."""
    return (table.c.tenant_id == _TENANT) & (table.c.user_id == _USER)


# The hot path's statements, run on the driver's cursor (see sadame.db._raw): SQLAlchemy Core's
# per-statement work cost more than SQLite running them.
_COLS = ", ".join(ISSUE_COLUMNS)
_AT = {c: n for n, c in enumerate(ISSUE_COLUMNS)}
_ID_AT = _AT["issue_id"]
_WHERE = "tenant_id = ? AND user_id = ?"
_MUTABLE = [k for k in ISSUE_COLUMNS if k not in ("tenant_id", "user_id", "issue_id")]
_INDEXED = {c.name for ix in ISSUES.indexes for c in ix.columns} | {
    c.name for uc in ISSUES.constraints if isinstance(uc, UniqueConstraint) for c in uc.columns}
#: Columns no index holds: an update writes them all (the row is rewritten anyway), so issues
#: whose indexed columns changed alike share one statement.
_PLAIN = tuple(c for c in _MUTABLE if c not in _INDEXED)
#: Indexed columns (status, clock_seq, merged_into): written only when changed, because writing
#: even the same value rewrites the index entry (a page more in the commit).
_KEYED = tuple(c for c in _MUTABLE if c in _INDEXED)
_PLAIN_OF = operator.itemgetter(*_PLAIN)
#: A status or event as a plain ``str`` (what the drivers bind; ``.value`` is a slower property).
_PLAIN_STR: dict[str, str] = {m: m.value for m in (*Status, *Event)}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_ROW_OF = operator.itemgetter(*ISSUE_COLUMNS)
SELECT_USER = f"SELECT last_seq, counts FROM track_users WHERE {_WHERE}"
SELECT_ISSUES = f"SELECT {_COLS} FROM track_issues WHERE {_WHERE} AND issue_id IN (?*)"
INSERT_ISSUE = f"INSERT INTO track_issues ({_COLS}) VALUES ({', '.join('?' * len(ISSUE_COLUMNS))})"
INSERT_KEY = "INSERT INTO track_keys (tenant_id, user_id, key_digest, key, issue_id, kind) VALUES (?, ?, ?, ?, ?, ?)"
_EVENT_COLUMNS = ("issue_id", "event", "from_state", "to_state", "actor", "reason", "at", "session_id", "data")
_EVENT_OF = operator.itemgetter(*_EVENT_COLUMNS)
INSERT_EVENT = (f"INSERT INTO track_events (tenant_id, user_id, {', '.join(_EVENT_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (len(_EVENT_COLUMNS) + 2))})")
UPDATE_USER = f"UPDATE track_users SET last_seq = ?, counts = ? WHERE {_WHERE}"
INSERT_USER = "INSERT INTO track_users (tenant_id, user_id, last_seq, counts, created_at) VALUES (?, ?, ?, ?, ?)"


@functools.lru_cache(maxsize=256)
def _update_sql(cols: tuple[str, ...]) -> str:
    return f"UPDATE track_issues SET {', '.join(f'{k} = ?' for k in cols)} WHERE {_WHERE} AND issue_id = ?"


def check_name(value: object, what: str) -> str:
    """The one check of tenant, user, session and actor names, the same at ingest and at every
    read: a non-empty, bounded, valid Unicode string without control characters (a user id is
    also a URL path segment of the dashboard and the API, so no ``/`` or ``\\``)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInsight(f"{what} must be a non-empty string, got {value!r}")
    if len(value) > _ID_LIMIT[what] or "\x00" in value:
        raise InvalidInsight(f"{what} is too long or contains NUL (max {_ID_LIMIT[what]} characters)")
    if _CONTROL.search(value):
        raise InvalidInsight(f"{what} must not contain control characters: {value!r}")
    if what == "user_id" and any(ch in _ID_FORBIDDEN for ch in value):
        raise InvalidInsight(f"user_id must not contain '/' or '\\' (it is a URL path segment): {value!r}")
    if what == "user_id" and value in (".", ".."):
        raise InvalidInsight(f"user_id must not be {value!r} (a URL path segment that cannot be reached)")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInsight(f"{what} is not valid Unicode") from None
    return value


def to_iso(at: datetime | None) -> str:
    """ISO 8601 UTC with microseconds (naive times are taken as UTC; None is now)."""
    if at is None:
        at = datetime.now(UTC)
    if not isinstance(at, datetime):
        raise InvalidInsight(f"at must be a datetime, got {type(at).__name__}")
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def lock_key(tenant: str, user: str) -> int:
    """The PostgreSQL advisory lock number of one tenant+user."""
    digest = hashlib.sha256(f"{tenant}\x00{user}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def sqlite_immediate(engine: Engine) -> None:
    """Make pysqlite leave transactions to us, and begin writers with BEGIN IMMEDIATE.

    Engines from :func:`sadame.db.make_engine` on a writable file already do (shared by every
    tenant's tracker, the listeners must be there once); this covers the others.
    """
    if getattr(engine, "sadame_begins", False):
        return
    engine.sadame_begins = True  # type: ignore[attr-defined]

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        mode = "DEFERRED" if conn.get_execution_options().get("sadame_read") else "IMMEDIATE"
        RawCursor.of(conn).execute(f"BEGIN {mode}")


def issue_view(row: Mapping[Any, Any]) -> IssueView:
    """The public view of an issue row."""
    return IssueView(
        issue_id=row["issue_id"], key=row["key"], title=row["title"], status=row["status"],
        occurrence_count=row["occurrence_count"], first_detected_at=row["first_detected_at"],
        last_detected_at=row["last_detected_at"], resolved_at=row["resolved_at"],
        last_session_id=row["last_session_id"], merged_into=row["merged_into"],
    )


def title_of(text: str, ruleset: Ruleset) -> str:
    """An issue's title: the finding without its label, at most 100 characters."""
    desired = strip_label(text, ruleset).strip() or text.strip() or text
    return f"{desired[:97]}..." if len(desired) > 100 else desired


class Transaction:
    """One locked transaction for one tenant+user: buffered writes, counts, events."""

    def __init__(self, conn: Connection, tenant: str, user: str, at: str, ruleset: Ruleset, *,
                 user_row: Sequence[Any] | None = None, user_read: bool = False) -> None:
        """``user_read``: the caller read the user's ``(last_seq, counts)`` row in this
        transaction already (``user_row``, None when there is none), so it is not read again."""
        self.conn, self.tenant, self.user, self.at, self.ruleset = conn, tenant, user, at, ruleset
        self.params = {"t": tenant, "u": user}
        self.raw = RawCursor.of(conn)
        self.scope_args = (tenant, user)
        row = user_row if user_read else self.raw.first(SELECT_USER, self.scope_args)
        self.user_exists = row is not None
        self.last_seq: int = row[0] if row else 0
        self.counts: dict[str, int] = json.loads(row[1]) if row else {}
        self.issues: dict[str, dict[str, Any]] = {}
        self.absent: set[str] = set()
        self.new_keys: list[tuple[str, ...]] = []
        self.new_ids: set[str] = set()
        self.dirty: set[str] = set()
        self.stored: dict[str, tuple[Any, ...]] = {}  #: issue -> its row as stored (see keep)
        self.events: list[dict[str, Any]] = []

    def scope(self, table: Table) -> Any:
        """``tenant_id = <tenant> AND user_id = <user>`` with literal values."""
        return (table.c.tenant_id == self.tenant) & (table.c.user_id == self.user)

    def load(self, ids: Sequence[str]) -> None:
        """Read the issues in ``ids`` not read yet (one query)."""
        missing = [i for i in ids if i not in self.issues and i not in self.absent]
        if not missing:
            return
        for r in self.raw.rows(SELECT_ISSUES, self.scope_args, missing):
            self.keep(r)
        self.absent.update(i for i in missing if i not in self.issues)

    def keep(self, row: Sequence[Any]) -> None:
        """Hold a stored issue row (columns of ``ISSUE_COLUMNS``) and remember it as stored, so
        :meth:`flush` writes only the columns that changed (unless it is held already)."""
        iid = row[_ID_AT]
        if iid not in self.issues:
            self.issues[iid] = dict(zip(ISSUE_COLUMNS, row, strict=True))
            self.stored[iid] = tuple(row)

    def get(self, iid: str) -> dict[str, Any]:
        """The issue ``iid`` (loaded on demand); raises IssueNotFound."""
        found = self.issues.get(iid)
        if found is not None:
            return found
        self.load([iid])
        if iid not in self.issues:
            raise IssueNotFound(f"no issue {iid} for user {self.user!r} in tenant {self.tenant!r}")
        return self.issues[iid]

    def count(self, status: str, delta: int) -> None:
        self.counts[status] = self.counts.get(status, 0) + delta

    def log(self, iid: str, name: str, before: str | None, after: str, *, actor: str,
            reason: str | None, session_id: str | None = None, data: Any = None) -> dict[str, Any]:
        """Append one event row (written by :meth:`flush`)."""
        row = {"issue_id": iid, "event": name, "from_state": before, "to_state": after, "actor": actor,
               "reason": reason, "at": self.at, "session_id": session_id,
               "data": None if data is None else json.dumps(data, ensure_ascii=False, sort_keys=True)}
        self.events.append(row)
        return row

    def apply(self, iid: str, ev: Event, *, actor: str, reason: str, session_id: str | None = None,
              strict: bool = True) -> dict[str, Any] | None:
        """Run ``ev`` through the transition table; log and count it when the status changes."""
        issue = self.get(iid)
        before = issue["status"]
        try:  # the table first (a stored status is a str equal to its Status); transition() names an illegal one
            after = _PLAIN_STR[TRANSITIONS.get((before, ev)) or transition(before, ev)]
        except IllegalTransition:
            if strict:
                raise
            return None
        if after == before:
            return None
        self.set_status(iid, after)
        return self.log(iid, _PLAIN_STR[ev], before, after, actor=actor, reason=reason, session_id=session_id)

    def set_status(self, iid: str, after: str) -> None:
        """Change a status and keep the per-user counts right (merged issues are not counted)."""
        issue = self.get(iid)
        before = issue["status"]
        issue["status"] = after
        issue["resolved_at"] = self.at if after == Status.RESOLVED else None
        if issue["merged_into"] is None:
            self.count(before, -1)
            self.count(after, 1)
        self.dirty.add(iid)

    def free_id(self, key: str) -> str:
        """The id for a new issue with ``key``: its digest, or a variant when a migration left
        that id on an issue with another key."""
        iid, n = issue_id(key), 0
        while True:
            self.load([iid])
            if iid not in self.issues:
                return iid
            n += 1
            iid = issue_id(f"{key}\x00{n}")

    def create(self, key: str, text: str, seq: int, session_id: str | None, status: str = "candidate",
               *, event_name: str = "create", reason: str, data: Any = None) -> dict[str, Any]:
        """A new issue with ``key`` (its primary key row is the caller's job)."""
        iid = self.free_id(key)
        issue = {
            "tenant_id": self.tenant, "user_id": self.user, "issue_id": iid, "key": key,
            "title": title_of(text, self.ruleset), "status": status, "first_detected_at": self.at,
            "last_detected_at": self.at, "resolved_at": self.at if status == "resolved" else None,
            "occurrence_count": 0, "last_session_id": session_id, "last_seen_seq": seq, "clock_seq": seq,
            "created_seq": seq, "merged_into": None, "ruleset_version": self.ruleset.version,
        }
        self.issues[iid] = issue
        self.absent.discard(iid)
        self.new_ids.add(iid)
        self.count(status, 1)
        self.log(iid, event_name, None, status, actor="tracker", reason=reason, session_id=session_id, data=data)
        return issue

    def add_key(self, key: str, iid: str, kind: str = "primary") -> None:
        """Buffer a key row pointing at ``iid``."""
        self.new_keys.append((self.tenant, self.user, issue_id(key), key, iid, kind))

    def flush(self) -> None:
        """Write every buffered change: new and changed issues, keys, events, the user's counters."""
        raw, issues, scope = self.raw, self.issues, self.scope_args
        raw.insert(INSERT_ISSUE, [[issues[i][c] for c in ISSUE_COLUMNS] for i in sorted(self.new_ids)])
        self._update_issues()
        raw.insert(INSERT_KEY, self.new_keys)
        self.new_keys = []
        raw.insert(INSERT_EVENT, [(*scope, *_EVENT_OF(e)) for e in self.events])
        self._write_user()
        for i in self.new_ids | self.dirty:  # written whole if changed again in this transaction
            self.stored.pop(i, None)
        self.new_ids.clear()
        self.dirty.clear()
        self.events.clear()

    def _update_issues(self) -> None:
        """One UPDATE per set of changed indexed columns (see ``_KEYED``; every column no index
        holds is written with them): an unchanged indexed column is not rewritten, so its indexes
        are not touched; a row that did not change is not written."""
        groups: dict[tuple[str, ...], list[list[Any]]] = {}
        for i in sorted(self.dirty - self.new_ids):
            issue, before = self.issues[i], self.stored.get(i)
            if before is not None and _ROW_OF(issue) == before:
                continue
            keyed = tuple(c for c in _KEYED if before is None or issue[c] != before[_AT[c]])
            groups.setdefault(keyed, []).append([*_PLAIN_OF(issue), *(issue[c] for c in keyed), *self.scope_args, i])
        for keyed, rows in groups.items():
            self.raw.many(_update_sql(_PLAIN + keyed), rows)

    def _write_user(self) -> None:
        counts = json.dumps({k: v for k, v in sorted(self.counts.items()) if v}, sort_keys=True)
        if self.user_exists:
            self.raw.execute(UPDATE_USER, (self.last_seq, counts, *self.scope_args))
            return
        self.raw.execute(INSERT_USER, (*self.scope_args, self.last_seq, counts, self.at))
        self.user_exists = True

    def recount(self, iid: str) -> None:
        """Recompute an issue's occurrence figures from its stored detections (merge/unmerge).
        An improvement linked to the issue is evidence of progress, not a sighting: the ingest
        never counted it, so neither does this."""
        issue = self.get(iid)
        d = DETECTIONS
        seen = (d.c.kind == "issue") & (d.c.outcome != Outcome.IMPROVEMENT.value)
        row = self.conn.execute(
            select(func.count(func.distinct(d.c.seq)), func.min(d.c.at), func.max(d.c.at), func.max(d.c.seq))
            .where(self.scope(d), d.c.issue_id == iid, seen)
        ).first()
        assert row is not None
        issue["occurrence_count"] = int(row[0])
        if row[1] is not None:
            issue["first_detected_at"], issue["last_detected_at"] = row[1], row[2]
            issue["last_seen_seq"] = int(row[3])
            issue["last_session_id"] = self.conn.execute(
                select(d.c.session_id).where(self.scope(d), d.c.issue_id == iid, d.c.seq == row[3]).limit(1)
            ).scalar()
        self.dirty.add(iid)
