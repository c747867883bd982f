"""Erasing one user's data and restoring an export.

:func:`delete_user_rows` removes every row of one user (findings, issues, keys, events,
sessions, counters) and logs the erasure as a *tenant* event (``user_id`` empty) that holds
no content: only a digest of the user id, the actor and row counts.
:func:`import_rows` writes back what :meth:`Tracker.export` produced, so that
``export -> delete-user -> import -> export`` gives the same rows.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Column, Connection, Table, delete, insert, select, update

from sadame.track._errors import InvalidExport, TrackError
from sadame.track._ruleset import parse_ruleset
from sadame.track._transaction import (
    DETECTIONS,
    EVENTS,
    ISSUES,
    KEYS,
    RULESETS,
    SESSIONS,
    USERS,
    check_name,
)

__all__ = ["TABLES_BY_TYPE", "delete_user_rows", "import_rows"]

TABLES_BY_TYPE: dict[str, Table] = {"ruleset": RULESETS, "user": USERS, "session": SESSIONS, "issue": ISSUES,
                                    "key": KEYS, "detection": DETECTIONS, "event": EVENTS}
_USER_TABLES = (("detections", DETECTIONS), ("keys", KEYS), ("events", EVENTS), ("sessions", SESSIONS),
                ("issues", ISSUES), ("users", USERS))
_SORTED_JSON = ("data", "counts")
_PLAIN_JSON = ("report", "content")


def user_digest(tenant: str, user: str) -> str:
    """What the erasure log keeps of a user id: 16 hex characters of its HMAC-SHA-256 keyed by the
    tenant, so the same user id erased in two tenants cannot be linked by its digest, and a list
    of digests is no plain table of SHA-256 values to look common ids up in."""
    return hmac.new(f"sadame-erasure:{tenant}".encode(), user.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


def delete_user_rows(conn: Connection, tenant: str, user: str, actor: str, at: str) -> dict[str, int]:
    """Delete every row of ``user``; log a content-free tenant event; return rows deleted per table."""
    counts: dict[str, int] = {}
    for name, table in _USER_TABLES:
        result = conn.execute(delete(table).where(table.c.tenant_id == tenant, table.c.user_id == user))
        counts[name] = int(result.rowcount or 0)
    conn.execute(insert(EVENTS).values(
        tenant_id=tenant, user_id="", issue_id="", event="delete_user", from_state=None, to_state="deleted",
        actor=actor, reason="利用者のデータを削除しました", at=at, session_id=None,
        data=json.dumps({"user_digest": user_digest(tenant, user), "rows": counts}, sort_keys=True)))
    return counts


def _columns(table: Table) -> set[str]:
    return {c.name for c in table.columns if c.name != "id"}


_INT_LIMIT = 2**63  # what both databases' integer columns hold


def _bad_text(value: str) -> str | None:
    if "\x00" in value:
        return "contains a NUL character"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode (a lone surrogate)"
    return None


def _check_value(column: Column[Any], value: Any, where: str) -> None:
    """``value`` fits ``column``: its type, NULL only where allowed, strings within length."""
    name = column.name
    if value is None:
        if not column.nullable:
            raise InvalidExport(f"{where}: {name} must not be null")
        return
    kind = column.type.python_type
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) < _INT_LIMIT
    elif kind is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    else:
        ok = isinstance(value, str)
    if not ok:
        raise InvalidExport(f"{where}: {name} must be {kind.__name__}, not {type(value).__name__}")
    if isinstance(value, str):
        length = getattr(column.type, "length", None)
        if length is not None and len(value) > length:
            raise InvalidExport(f"{where}: {name} is longer than {length} characters")
        problem = _bad_text(value)
        if problem:
            raise InvalidExport(f"{where}: {name} {problem}")


def _json_field(name: str, value: Any, where: str) -> Any:
    """A JSON column's value as stored (text); text given must itself be JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            json.loads(value)
        except (ValueError, RecursionError):
            raise InvalidExport(f"{where}: {name} is not JSON") from None
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=name in _SORTED_JSON, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise InvalidExport(f"{where}: {name} cannot be stored as JSON") from None


def _row_values(row: Mapping[str, Any], table: Table, tenant: str, where: str) -> dict[str, Any]:
    fields = {k: v for k, v in row.items() if k != "type"}
    expected = _columns(table)
    if set(fields) != expected:
        missing, extra = sorted(expected - set(fields)), sorted(map(str, set(fields) - expected))
        raise InvalidExport(f"{where}: fields do not match a {row['type']} row (missing {missing}, unknown {extra})")
    for name in _SORTED_JSON + _PLAIN_JSON:
        if name in fields:
            fields[name] = _json_field(name, fields[name], where)
    for name, value in fields.items():
        _check_value(table.c[name], value, where)
    fields["tenant_id"] = tenant
    return fields


def _check_names(values: dict[str, Any], where: str) -> None:
    """User and session ids pass the same check as at ingest (a tenant event has user id "")."""
    try:
        if "user_id" in values and (values["user_id"] != "" or "session_id" not in values):
            check_name(values["user_id"], "user_id")
        if values.get("session_id") is not None:
            check_name(values["session_id"], "session_id")
    except ValueError as exc:
        raise InvalidExport(f"{where}: {exc}") from None


def _group(rows: Sequence[Mapping[str, Any]], tenant: str) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES_BY_TYPE}
    for n, row in enumerate(rows):
        where = f"row {n + 1}"
        if not isinstance(row, Mapping) or row.get("type") not in TABLES_BY_TYPE:
            raise InvalidExport(f"{where}: not an export row (needs a type: {', '.join(TABLES_BY_TYPE)})")
        values = _row_values(row, TABLES_BY_TYPE[str(row["type"])], tenant, where)
        _check_names(values, where)
        grouped[str(row["type"])].append(values)
    return grouped


def _duplicates(values: Iterable[Any]) -> list[Any]:
    return [value for value, count in Counter(values).items() if count > 1]


def _check_unique(grouped: dict[str, list[dict[str, Any]]]) -> None:
    """No two rows of the import claim the same user, session, sequence number, issue, key or ruleset."""
    claims = {
        "user": [r["user_id"] for r in grouped["user"]],
        "session": [(r["user_id"], r["session_id"]) for r in grouped["session"]],
        "session seq": [(r["user_id"], r["seq"]) for r in grouped["session"]],
        "issue": [(r["user_id"], r["issue_id"]) for r in grouped["issue"]],
        "key": [(r["user_id"], r["key_digest"]) for r in grouped["key"]],
        "ruleset": [r["version"] for r in grouped["ruleset"]],
    }
    for what, values in claims.items():
        twice = _duplicates(values)
        if twice:
            raise InvalidExport(f"the import has the same {what} twice: {twice[0]!r}")
    if sum(1 for r in grouped["ruleset"] if r["active"]) > 1:
        raise InvalidExport("the import has more than one active ruleset")


def _check_references(conn: Connection, tenant: str, grouped: dict[str, list[dict[str, Any]]]) -> None:
    """Every user, issue, session and ruleset a row names is in the import (or, for rulesets,
    already in the tenant): an export cut short must not leave a user who can never ingest."""
    users = {r["user_id"] for r in grouped["user"]}
    issues = {(r["user_id"], r["issue_id"]) for r in grouped["issue"]}
    sessions = {(r["user_id"], r["session_id"]) for r in grouped["session"]}
    rulesets = {r["version"] for r in grouped["ruleset"]} | set(
        conn.execute(select(RULESETS.c.version).where(RULESETS.c.tenant_id == tenant)).scalars())
    for kind, rows in grouped.items():
        for r in rows:
            user = r.get("user_id")
            if kind not in ("user", "ruleset") and user not in users and not (kind == "event" and user == ""):
                raise InvalidExport(f"{kind} row of user {user!r}: the import has no user row for it")
            named = [r.get("issue_id") if kind in ("key", "detection", "event") else None,
                     r.get("merged_into") if kind == "issue" else None]
            for issue in named:
                if issue and (user, issue) not in issues:
                    raise InvalidExport(f"{kind} row of user {user!r} names issue {issue!r}, not in the import")
            if kind == "detection" and (user, r["session_id"]) not in sessions:
                raise InvalidExport(f"detection row of user {user!r} names session {r['session_id']!r}, "
                                    "not in the import")
            if kind in ("session", "issue") and r["ruleset_version"] not in rulesets:
                raise InvalidExport(f"{kind} row of user {user!r} names ruleset {r['ruleset_version']!r}, "
                                    "neither in the import nor in the tenant")


def _check_rulesets(rows: list[dict[str, Any]]) -> None:
    """Every imported ruleset parses (a tenant whose active ruleset does not is unusable)."""
    for r in rows:
        try:
            parsed = parse_ruleset(json.loads(r["content"]), source=f"ruleset {r['version']!r}")
        except (TrackError, ValueError, TypeError, RecursionError) as exc:
            raise InvalidExport(f"ruleset {r['version']!r} of the import does not parse: {exc}") from None
        if parsed.version != r["version"]:
            raise InvalidExport(f"ruleset row {r['version']!r} holds ruleset version {parsed.version!r}")


def _check_new_users(conn: Connection, tenant: str, grouped: dict[str, list[dict[str, Any]]]) -> None:
    users = sorted({str(r["user_id"]) for rows in grouped.values() for r in rows if r.get("user_id")})
    if not users:
        return
    existing = list(conn.execute(select(USERS.c.user_id).where(USERS.c.tenant_id == tenant,
                                                                USERS.c.user_id.in_(users))).scalars())
    if existing:
        raise InvalidExport(f"user(s) already have data in tenant {tenant!r}: {', '.join(existing[:5])}; "
                            "delete them first (sadame track delete-user)")


def _without_known_tenant_events(conn: Connection, tenant: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The event rows less the tenant's own events (the erasure log) it already has: restoring an
    export into the tenant it came from must not log each erasure again."""
    if not any(r["user_id"] == "" for r in rows):
        return rows
    fields = [c for c in _columns(EVENTS) if c != "tenant_id"]
    known = {tuple(r[f] for f in fields) for r in conn.execute(
        select(*[EVENTS.c[f] for f in fields]).where(EVENTS.c.tenant_id == tenant, EVENTS.c.user_id == "")
    ).mappings()}
    return [r for r in rows if r["user_id"] != "" or tuple(r[f] for f in fields) not in known]


def _import_rulesets(conn: Connection, tenant: str, rows: list[dict[str, Any]]) -> None:
    known = set(conn.execute(select(RULESETS.c.version).where(RULESETS.c.tenant_id == tenant)).scalars())
    if any(r["active"] for r in rows):
        conn.execute(update(RULESETS).where(RULESETS.c.tenant_id == tenant).values(active=0))
    for r in rows:
        if r["version"] in known:
            conn.execute(update(RULESETS).where(RULESETS.c.tenant_id == tenant, RULESETS.c.version == r["version"])
                         .values(active=r["active"]))
        else:
            conn.execute(insert(RULESETS).values(**r))


def import_rows(conn: Connection, tenant: str, rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Insert exported rows into ``tenant`` (all or nothing); returns rows written per type."""
    grouped = _group(rows, tenant)  # every row's fields and types
    _check_unique(grouped)
    _check_rulesets(grouped["ruleset"])
    _check_references(conn, tenant, grouped)
    _check_new_users(conn, tenant, grouped)
    grouped["event"] = _without_known_tenant_events(conn, tenant, grouped["event"])
    _import_rulesets(conn, tenant, grouped["ruleset"])
    for name, table in TABLES_BY_TYPE.items():
        if name != "ruleset" and grouped[name]:
            conn.execute(insert(table), grouped[name])
    return {name: len(grouped[name]) for name in TABLES_BY_TYPE}
