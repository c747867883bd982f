"""Merges a coach confirmed, offered to the tenant's other users as suggestions (never as links).

When a person merges issue B into issue A, the tracker records the pair of keys as two tenant
events (``user_id`` empty, like the erasure log; ``event`` ``merge_hint``), each under the digest
of one key (the same SHA-256 as issue ids and ``track_keys.key_digest``) with the digest of the
other in its data -- digests only, no text of any finding, so erasing a user leaves nothing of
theirs. :func:`hinted_issues` reads them back for another user through the event index: the
user's issues whose key is a confirmed partner of a key of theirs. ``similar()`` lists those
with ``confirmed_elsewhere`` and a merge button; merging stays a person's click.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from sqlalchemy import Connection, insert, select

from sadame.track._ruleset import issue_id
from sadame.track._transaction import EVENTS, KEYS

__all__ = ["HINT_EVENT", "hinted_issues", "record_merge_hints"]

HINT_EVENT = "merge_hint"
_MAX_PARTNERS = 50


def record_merge_hints(conn: Connection, tenant: str, target_key: str, source_keys: Iterable[str], *,
                       actor: str, at: str) -> int:
    """Record that ``target_key`` and each of ``source_keys`` were confirmed as one problem."""
    rows = []
    for key in source_keys:
        a, b = issue_id(target_key), issue_id(key)
        if a == b:
            continue
        for one, other in ((a, b), (b, a)):
            rows.append({"tenant_id": tenant, "user_id": "", "issue_id": one, "event": HINT_EVENT,
                         "from_state": None, "to_state": "hint", "actor": actor, "reason": None, "at": at,
                         "session_id": None, "data": json.dumps({"other": other})})
    if rows:
        conn.execute(insert(EVENTS), rows)
    return len(rows) // 2


def hinted_issues(conn: Connection, tenant: str, user: str, key: str) -> list[str]:
    """Issues of ``user`` whose key a person confirmed as the same problem as ``key`` (for any
    user of the tenant), oldest confirmation first; at most 50."""
    e, k = EVENTS, KEYS
    others: list[str] = []
    for (data,) in conn.execute(select(e.c.data).where(
            e.c.tenant_id == tenant, e.c.user_id == "", e.c.issue_id == issue_id(key), e.c.event == HINT_EVENT)
            .order_by(e.c.id).limit(_MAX_PARTNERS)):
        other = json.loads(data or "{}").get("other")
        if isinstance(other, str) and other not in others:
            others.append(other)
    if not others:
        return []
    found = dict(conn.execute(select(k.c.key_digest, k.c.issue_id).where(
        k.c.tenant_id == tenant, k.c.user_id == user, k.c.key_digest.in_(others))).all())
    return [found[d] for d in others if d in found]
