"""Reading a tenant's tracker data: lists, one issue, timelines, users, export.

Every query is scoped by tenant and user and served by an index whose cost does not grow
with the user's other issues (see ``benchmarks/track.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from sadame.track._errors import InvalidInsight, IssueNotFound
from sadame.track._lifecycle import Status
from sadame.track._transaction import (
    DETECTIONS,
    EVENTS,
    ISSUES,
    KEYS,
    RULESETS,
    SESSIONS,
    USERS,
    issue_view,
)
from sadame.track._views import (
    DetectionView,
    EventView,
    IssueDetail,
    IssueView,
    LinkTier,
    Outcome,
    SessionReport,
)

__all__ = [
    "EXPORT_TABLES",
    "MARKERS",
    "PAGE_ORDER",
    "count_issues",
    "count_users",
    "event_view",
    "export_rows",
    "issue_timelines",
    "latest_markers",
    "latest_report",
    "list_issues",
    "page_issues",
    "resolve_id",
    "session_summaries",
    "show_issue",
    "status_counts",
    "timeline",
    "user_names",
    "user_summaries",
]

#: Export order: a later table's rows refer to earlier ones.
EXPORT_TABLES = (("ruleset", RULESETS), ("user", USERS), ("session", SESSIONS), ("issue", ISSUES),
                 ("key", KEYS), ("detection", DETECTIONS), ("event", EVENTS))
_JSON_FIELDS = ("report", "data", "content", "counts")
_STATUS_ORDER = {"open": 0, "candidate": 1, "resolved": 2, "ignored": 3, "expired": 4}


def _issue_filter(tenant: str, user: str, status: str | None, include_merged: bool) -> list[Any]:
    where = [ISSUES.c.tenant_id == tenant, ISSUES.c.user_id == user]
    if status is not None:
        if status not in {s.value for s in Status}:
            raise InvalidInsight(f"unknown status {status!r}: use one of {', '.join(s.value for s in Status)}")
        where.append(ISSUES.c.status == status)
    if not include_merged:
        where.append(ISSUES.c.merged_into.is_(None))
    return where


def list_issues(conn: Connection, tenant: str, user: str, status: str | None = None, *,
                include_merged: bool = False, offset: int = 0, limit: int | None = None) -> list[IssueView]:
    """A user's issues, oldest first, optionally one page of them."""
    q = select(ISSUES).where(*_issue_filter(tenant, user, status, include_merged)).order_by(ISSUES.c.id)
    if offset:
        q = q.offset(offset)
    if limit is not None:
        q = q.limit(limit)
    return [issue_view(r) for r in conn.execute(q).mappings()]


#: Dashboard order: what needs attention first.
PAGE_ORDER = ("open", "candidate", "resolved", "ignored", "expired")


SELECT_PAGE = (select(ISSUES).where(ISSUES.c.tenant_id == bindparam("t"), ISSUES.c.user_id == bindparam("u"),
                                    ISSUES.c.status == bindparam("st"), ISSUES.c.merged_into.is_(None))
               .order_by(ISSUES.c.id).offset(bindparam("skip")).limit(bindparam("n")))
SELECT_COUNTS = select(USERS.c.counts).where(USERS.c.tenant_id == bindparam("t"), USERS.c.user_id == bindparam("u"))


def status_counts(conn: Connection, tenant: str, user: str) -> dict[str, int]:
    """Unmerged issues per status, from the user's counters (one row, no scan)."""
    raw = conn.execute(SELECT_COUNTS, {"t": tenant, "u": user}).scalar()
    counts: dict[str, int] = json.loads(raw) if raw else {}
    return {status: int(counts.get(status, 0)) for status in PAGE_ORDER}


def page_issues(conn: Connection, tenant: str, user: str, offset: int, limit: int) -> list[IssueView]:
    """One page of a user's unmerged issues, open first, then candidate, resolved, ignored,
    expired; oldest first within a status. Each status segment is read through an index, so a
    page costs the same however many issues the user has."""
    out: list[IssueView] = []
    start = 0
    for status, n in status_counts(conn, tenant, user).items():
        if len(out) >= limit:
            break
        if offset < start + n and n:
            skip = max(0, offset - start)
            params = {"t": tenant, "u": user, "st": status, "skip": skip, "n": limit - len(out)}
            out.extend(issue_view(r) for r in conn.execute(SELECT_PAGE, params).mappings())
        start += n
    return out


def count_issues(conn: Connection, tenant: str, user: str, status: str | None = None) -> int:
    """How many unmerged issues (of one status) a user has."""
    q = select(func.count()).select_from(ISSUES).where(*_issue_filter(tenant, user, status, False))
    return int(conn.execute(q).scalar() or 0)


def resolve_id(conn: Connection, tenant: str, user: str, prefix: str) -> str:
    """The full issue id for an unambiguous prefix (``list`` prints 12 characters)."""
    if not isinstance(prefix, str) or not prefix or len(prefix) > 64:
        raise IssueNotFound(f"no issue {prefix!r} for user {user!r}")
    if len(prefix) >= 40:
        return prefix
    low = prefix.lower()
    if any(c not in "0123456789abcdef" for c in low):
        raise IssueNotFound(f"no issue of {user!r} starts with {prefix!r} (ids are hexadecimal)")
    found = list(conn.execute(
        select(ISSUES.c.issue_id).where(ISSUES.c.tenant_id == tenant, ISSUES.c.user_id == user,
                                        ISSUES.c.issue_id >= low, ISSUES.c.issue_id < low + "g").limit(2)).scalars())
    if len(found) != 1:
        raise IssueNotFound(f"{'no' if not found else 'more than one'} issue of {user!r} starts with {prefix!r}")
    return str(found[0])


def event_view(r: Mapping[Any, Any]) -> EventView:
    """The public view of an event row."""
    return EventView(issue_id=r["issue_id"], event=r["event"], from_state=r["from_state"],
                     to_state=r["to_state"], actor=r["actor"], reason=r["reason"], at=r["at"],
                     session_id=r["session_id"], data=json.loads(r["data"]) if r["data"] else None)


def show_issue(conn: Connection, tenant: str, user: str, iid: str) -> IssueDetail:
    """One issue with its keys, detections, events and the issues merged into it."""
    def scope(table: Any) -> Any:
        return (table.c.tenant_id == tenant) & (table.c.user_id == user) & (table.c.issue_id == iid)

    row = conn.execute(select(ISSUES).where(scope(ISSUES))).mappings().first()
    if row is None:
        raise IssueNotFound(f"no issue {iid} for user {user!r} in tenant {tenant!r}")
    keys = [{"key": r[0], "kind": r[1]} for r in conn.execute(
        select(KEYS.c.key, KEYS.c.kind).where(scope(KEYS)).order_by(KEYS.c.kind, KEYS.c.key))]
    fields = DetectionView.__dataclass_fields__
    dets = [DetectionView(**{**{k: r[k] for k in fields}, "tier": LinkTier(r["tier"]),
                             "outcome": Outcome(r["outcome"])}) for r in conn.execute(
        select(DETECTIONS).where(scope(DETECTIONS)).order_by(DETECTIONS.c.seq, DETECTIONS.c.position)).mappings()]
    events = [event_view(r) for r in conn.execute(select(EVENTS).where(scope(EVENTS)).order_by(EVENTS.c.id))
              .mappings()]
    merged = list(conn.execute(
        select(ISSUES.c.issue_id).where(ISSUES.c.tenant_id == tenant, ISSUES.c.user_id == user,
                                        ISSUES.c.merged_into == iid).order_by(ISSUES.c.id)).scalars())
    return IssueDetail(issue_view(row), keys, dets, events, merged)


def timeline(conn: Connection, tenant: str, user: str) -> list[dict[str, Any]]:
    """Per-session points for charts: new issues surfaced, open and resolved after it, regressions."""
    s = SESSIONS
    rows = conn.execute(select(s.c.session_id, s.c.at, s.c.n_new, s.c.n_open, s.c.n_resolved, s.c.n_regressions)
                        .where(s.c.tenant_id == tenant, s.c.user_id == user).order_by(s.c.seq))
    return [{"session_id": r[0], "at": r[1], "new": r[2], "open": r[3], "resolved": r[4], "regressions": r[5]}
            for r in rows]


def user_names(conn: Connection, tenant: str) -> list[str]:
    """Users of this tenant that have data."""
    return list(conn.execute(select(USERS.c.user_id).where(USERS.c.tenant_id == tenant)
                             .order_by(USERS.c.user_id)).scalars())


def export_rows(conn: Connection, tenant: str) -> Iterator[dict[str, Any]]:
    """Every row of the tenant as a JSON-ready dict with its ``type`` (database ids left out)."""
    for name, table in EXPORT_TABLES:
        order = [table.c.id] if "id" in table.c else list(table.primary_key)
        q = select(table).where(table.c.tenant_id == tenant).order_by(*order)
        for r in conn.execution_options(yield_per=500).execute(q).mappings():
            row = {k: v for k, v in r.items() if k != "id"}
            for name_ in _JSON_FIELDS:
                if isinstance(row.get(name_), str):
                    row[name_] = json.loads(row[name_])
            yield {"type": name, **row}


#: Marker of an issue in the latest session, strongest first when one issue has several.
#: ``improved`` is 改善 (an improvement said in words), ``absent`` is 今回は指摘なし (last session's
#: issue not mentioned now: not an improvement).
MARKERS = ("regressed", "new", "improved", "resolved", "continuing", "absent", "deferred")


def _report_markers(report: dict[str, Any]) -> dict[str, str]:
    found: dict[str, set[str]] = {}

    def mark(entries: list[dict[str, Any]], marker: str) -> None:
        for e in entries:
            if e.get("issue_id"):
                found.setdefault(e["issue_id"], set()).add(marker)

    mark(report.get("new", []), "new")
    mark(report.get("remaining", []), "continuing")
    mark(report.get("regressions", []), "regressed")
    improvements = report.get("improvements", [])  # older reports listed absent ones there as "progress"
    mark([e for e in improvements if e.get("source") != "progress"], "improved")
    mark([e for e in improvements if e.get("source") == "progress"] + report.get("absent", []), "absent")
    mark(report.get("deferred", []), "deferred")
    mark([t for t in report.get("transitions", []) if t.get("to_state") == "resolved"], "resolved")
    return {iid: next(m for m in MARKERS if m in marks) for iid, marks in found.items()}


def _summary(row: Any) -> dict[str, Any]:
    report = json.loads(row.report)
    resolved = sum(1 for t in report.get("transitions", []) if t.get("to_state") == "resolved")
    regressed = {e.get("issue_id") for e in report.get("regressions", [])}  # a part of remaining: counted once
    return {"session_id": row.session_id, "at": row.at, "seq": row.seq,
            "new": len(report.get("new", [])), "deferred": len(report.get("deferred", [])),
            "continuing": sum(1 for e in report.get("remaining", []) if e.get("issue_id") not in regressed),
            "improved": sum(1 for e in report.get("improvements", []) if e.get("source") != "progress"),
            "absent": len(report.get("absent", [])) + sum(
                1 for e in report.get("improvements", []) if e.get("source") == "progress"),
            "regressed": len(report.get("regressions", [])), "resolved": resolved,
            "open_total": row.n_open, "resolved_total": row.n_resolved}


def session_summaries(conn: Connection, tenant: str, user: str, limit: int = 50) -> list[dict[str, Any]]:
    """The last ``limit`` sessions, oldest first: what each session did (new, deferred,
    continuing, improved, regressed, resolved) and the running totals after it."""
    s = SESSIONS
    rows = list(conn.execute(select(s.c.session_id, s.c.at, s.c.seq, s.c.report, s.c.n_open, s.c.n_resolved)
                             .where(s.c.tenant_id == tenant, s.c.user_id == user)
                             .order_by(s.c.seq.desc()).limit(limit)))
    return [_summary(r) for r in reversed(rows)]


def latest_report(conn: Connection, tenant: str, user: str) -> SessionReport | None:
    """The stored report of the user's latest session."""
    s = SESSIONS
    raw = conn.execute(select(s.c.report).where(s.c.tenant_id == tenant, s.c.user_id == user)
                       .order_by(s.c.seq.desc()).limit(1)).scalar()
    return SessionReport.from_dict(json.loads(raw)) if raw else None


def latest_markers(conn: Connection, tenant: str, user: str) -> dict[str, str]:
    """Issue id -> what the user's latest session did to it (see :data:`MARKERS`)."""
    s = SESSIONS
    raw = conn.execute(select(s.c.report).where(s.c.tenant_id == tenant, s.c.user_id == user)
                       .order_by(s.c.seq.desc()).limit(1)).scalar()
    return _report_markers(json.loads(raw)) if raw else {}


def user_summaries(conn: Connection, tenant: str, offset: int = 0, limit: int = 50) -> list[dict[str, Any]]:
    """A page of the tenant's users with their issue counts, last session and its regressions."""
    u, s = USERS, SESSIONS
    rows = list(conn.execute(select(u.c.user_id, u.c.counts, u.c.last_seq).where(u.c.tenant_id == tenant)
                             .order_by(u.c.user_id).offset(offset).limit(limit)))
    out = []
    for user_id, counts, last_seq in rows:
        last = conn.execute(select(s.c.session_id, s.c.at, s.c.n_regressions).where(
            s.c.tenant_id == tenant, s.c.user_id == user_id, s.c.seq == last_seq)).first()
        out.append({"user_id": user_id, "counts": json.loads(counts) if counts else {}, "sessions": last_seq,
                    "last_session_id": last[0] if last else None, "last_at": last[1] if last else None,
                    "last_regressions": int(last[2]) if last else 0})
    return out


def count_users(conn: Connection, tenant: str) -> int:
    """How many users of the tenant have data."""
    return int(conn.execute(select(func.count()).select_from(USERS).where(USERS.c.tenant_id == tenant)).scalar() or 0)


def issue_timelines(conn: Connection, tenant: str, user: str, issue_ids: list[str],
                    sessions: int = 12) -> dict[str, Any]:
    """One row per issue of ``issue_ids`` over the last ``sessions`` sessions: the marker each
    session gave it (``new``, ``continuing``, ``improved``, ``absent``, ``resolved``, ``regressed``,
    ``deferred``) or None. Reads ``sessions`` stored reports, whatever the history's length."""
    s = SESSIONS
    rows = list(conn.execute(select(s.c.session_id, s.c.report).where(s.c.tenant_id == tenant, s.c.user_id == user)
                             .order_by(s.c.seq.desc()).limit(max(1, min(sessions, 50)))))
    rows.reverse()
    marks = [_report_markers(json.loads(r[1])) for r in rows]
    return {"sessions": [r[0] for r in rows],
            "rows": [{"issue_id": iid, "cells": [m.get(iid) for m in marks]} for iid in issue_ids]}
