"""Erasing one user's data and restoring an export.

:func:`delete_user_rows` removes every row of one user (findings, issues, keys, events,
sessions, counters) and logs the erasure as a *tenant* event (``user_id`` empty) that holds
no content: only a digest of the user id, the actor and row counts.
:func:`import_rows` writes back what :meth:`Tracker.export` produced, so that
``export -> delete-user -> import -> export`` gives the same rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Table, delete, insert, select, update

from sadame.track._errors import InvalidExport
from sadame.track._transaction import (
    DETECTIONS,
    EVENTS,
    ISSUES,
    KEYS,
    RULESETS,
    SESSIONS,
    USERS,
)

__all__ = ["TABLES_BY_TYPE", "delete_user_rows", "import_rows"]

TABLES_BY_TYPE: dict[str, Table] = {"ruleset": RULESETS, "user": USERS, "session": SESSIONS, "issue": ISSUES,
                                    "key": KEYS, "detection": DETECTIONS, "event": EVENTS}
_USER_TABLES = (("detections", DETECTIONS), ("keys", KEYS), ("events", EVENTS), ("sessions", SESSIONS),
                ("issues", ISSUES), ("users", USERS))
_SORTED_JSON = ("data", "counts")
_PLAIN_JSON = ("report", "content")


def user_digest(user: str) -> str:
    """What the erasure log keeps of a user id: 16 hex characters of its SHA-256."""
    return hashlib.sha256(user.encode("utf-8")).hexdigest()[:16]


def delete_user_rows(conn: Connection, tenant: str, user: str, actor: str, at: str) -> dict[str, int]:
    """Delete every row of ``user``; log a content-free tenant event; return rows deleted per table."""
    counts: dict[str, int] = {}
    for name, table in _USER_TABLES:
        result = conn.execute(delete(table).where(table.c.tenant_id == tenant, table.c.user_id == user))
        counts[name] = int(result.rowcount or 0)
    conn.execute(insert(EVENTS).values(
        tenant_id=tenant, user_id="", issue_id="", event="delete_user", from_state=None, to_state="deleted",
        actor=actor, reason="利用者のデータを削除しました", at=at, session_id=None,
        data=json.dumps({"user_digest": user_digest(user), "rows": counts}, sort_keys=True)))
    return counts


def _columns(table: Table) -> set[str]:
    return {c.name for c in table.columns if c.name != "id"}


def _row_values(row: Mapping[str, Any], table: Table, tenant: str, where: str) -> dict[str, Any]:
    fields = {k: v for k, v in row.items() if k != "type"}
    expected = _columns(table)
    if set(fields) != expected:
        missing, extra = sorted(expected - set(fields)), sorted(set(fields) - expected)
        raise InvalidExport(f"{where}: fields do not match a {row['type']} row (missing {missing}, unknown {extra})")
    for name in _SORTED_JSON + _PLAIN_JSON:
        if name in fields and fields[name] is not None and not isinstance(fields[name], str):
            fields[name] = json.dumps(fields[name], ensure_ascii=False, sort_keys=name in _SORTED_JSON)
    fields["tenant_id"] = tenant
    return fields


def _group(rows: Sequence[Mapping[str, Any]], tenant: str) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES_BY_TYPE}
    for n, row in enumerate(rows):
        where = f"row {n + 1}"
        if not isinstance(row, Mapping) or row.get("type") not in TABLES_BY_TYPE:
            raise InvalidExport(f"{where}: not an export row (needs a type: {', '.join(TABLES_BY_TYPE)})")
        grouped[str(row["type"])].append(_row_values(row, TABLES_BY_TYPE[str(row["type"])], tenant, where))
    return grouped


def _check_new_users(conn: Connection, tenant: str, grouped: dict[str, list[dict[str, Any]]]) -> None:
    users = sorted({str(r["user_id"]) for rows in grouped.values() for r in rows if r.get("user_id")})
    if not users:
        return
    existing = list(conn.execute(select(USERS.c.user_id).where(USERS.c.tenant_id == tenant,
                                                                USERS.c.user_id.in_(users))).scalars())
    if existing:
        raise InvalidExport(f"user(s) already have data in tenant {tenant!r}: {', '.join(existing[:5])}; "
                            "delete them first (sadame track delete-user)")


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
    grouped = _group(rows, tenant)
    _check_new_users(conn, tenant, grouped)
    _import_rulesets(conn, tenant, grouped["ruleset"])
    for name, table in TABLES_BY_TYPE.items():
        if name != "ruleset" and grouped[name]:
            conn.execute(insert(table), grouped[name])
    return {name: len(grouped[name]) for name in TABLES_BY_TYPE}
