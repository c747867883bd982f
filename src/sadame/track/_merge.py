"""Merge, unmerge and ruleset migration: one mechanism for "these findings are one issue".

A merge re-points the source's keys (as aliases) and detections to the target and
records, in the source's ``merge`` event, exactly what moved and the source's state,
so :func:`unmerge_issue` can put everything back. A ruleset migration recomputes every
issue's key from its stored detection texts and expresses the result as moves of
detections (splits) and merges, keeping old keys as aliases and carrying statuses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from sadame.track._errors import MergeError
from sadame.track._lifecycle import Event
from sadame.track._ruleset import Ruleset, issue_id, issue_key
from sadame.track._transaction import DETECTIONS, EVENTS, ISSUES, KEYS, RULESETS, Transaction, to_iso

__all__ = ["merge_into", "migrate_tenant", "set_active_ruleset", "unmerge_issue"]

_SNAPSHOT = ("status", "occurrence_count", "first_detected_at", "last_detected_at", "resolved_at",
             "last_session_id", "last_seen_seq", "clock_seq")
_PRIORITY = {"ignored": 0, "open": 1, "candidate": 2, "resolved": 3, "expired": 4}


def merge_into(tx: Transaction, target_id: str, source_ids: Sequence[str], *, actor: str, reason: str | None) -> None:
    """Merge ``source_ids`` into ``target_id`` inside ``tx`` (see module docstring)."""
    K, D = KEYS, DETECTIONS
    target = tx.get(target_id)
    if target["merged_into"] is not None:
        raise MergeError(f"target {target_id} was itself merged into {target['merged_into']}",
                         japanese=f"統合先の課題 {target_id[:12]} は、すでに別の課題に統合されています")
    sources = list(dict.fromkeys(source_ids))
    if not sources:
        raise MergeError("nothing to merge: give at least one source issue")
    if target_id in sources:
        raise MergeError(f"cannot merge issue {target_id} into itself")
    for sid in sources:
        src = tx.get(sid)
        if src["merged_into"] is not None:
            raise MergeError(f"issue {sid} is already merged into {src['merged_into']}",
                             japanese=f"課題 {sid[:12]} は、すでに {src['merged_into'][:12]} に統合されています")
    for sid in sources:
        src = tx.get(sid)
        keys = [dict(r) for r in tx.conn.execute(
            select(K.c.key_digest, K.c.key, K.c.kind).where(tx.scope(K), K.c.issue_id == sid)
            .order_by(K.c.key_digest)).mappings()]
        det_ids = list(tx.conn.execute(select(D.c.id).where(tx.scope(D), D.c.issue_id == sid)
                                       .order_by(D.c.id)).scalars())
        snapshot = {c: src[c] for c in _SNAPSHOT}
        tx.conn.execute(update(K).where(tx.scope(K), K.c.issue_id == sid).values(issue_id=target_id, kind="alias"))
        tx.conn.execute(update(D).where(tx.scope(D), D.c.issue_id == sid).values(issue_id=target_id))
        src["merged_into"] = target_id
        tx.count(src["status"], -1)
        tx.dirty.add(sid)
        target["clock_seq"] = max(target["clock_seq"], src["clock_seq"])
        tx.log(sid, "merge", src["status"], src["status"], actor=actor, reason=reason or f"merged into {target_id}",
               data={"into": target_id, "keys": keys, "detections": det_ids, "snapshot": snapshot,
                     "target_snapshot": {c: target[c] for c in _SNAPSHOT}})
    tx.log(target_id, "merge", target["status"], target["status"], actor=actor,
           reason=reason or f"absorbed {len(sources)} issue(s)", data={"sources": sources})
    tx.recount(target_id)


def _merged_sources(tx: Transaction, iid: str) -> list[str]:
    if tx.get(iid)["merged_into"] is not None:
        return [iid]
    sources = list(tx.conn.execute(select(ISSUES.c.issue_id).where(tx.scope(ISSUES), ISSUES.c.merged_into == iid)
                                   .order_by(ISSUES.c.id)).scalars())
    if not sources:
        raise MergeError(f"issue {iid} was not merged and has nothing merged into it")
    return sources


def _merge_record(tx: Transaction, sid: str) -> dict[str, Any]:
    raw = tx.conn.execute(select(EVENTS.c.data).where(tx.scope(EVENTS), EVENTS.c.issue_id == sid,
                                                      EVENTS.c.event == "merge")
                          .order_by(EVENTS.c.id.desc()).limit(1)).scalar()
    if raw is None:
        raise MergeError(f"issue {sid} has no merge record to undo")
    data: dict[str, Any] = json.loads(raw)
    return data


def _move_back(tx: Transaction, sid: str, data: dict[str, Any]) -> list[int]:
    """Keys and detections of ``sid`` back to it; returns the sessions of detections that
    reached the target through the source's keys after the merge."""
    K, D = KEYS, DETECTIONS
    for row in data["keys"]:
        found = tx.conn.execute(update(K).where(tx.scope(K), K.c.key_digest == row["key_digest"])
                                .values(issue_id=sid, kind=row["kind"]))
        if found.rowcount == 0:
            tx.conn.execute(insert(K).values(tenant_id=tx.tenant, user_id=tx.user, **row, issue_id=sid))
    det_ids = data["detections"]
    for start in range(0, len(det_ids), 500):
        tx.conn.execute(update(D).where(tx.scope(D), D.c.id.in_(det_ids[start:start + 500])).values(issue_id=sid))
    keys = [row["key"] for row in data["keys"]]
    later = D.c.id > max(det_ids, default=0)
    seqs = sorted(set(tx.conn.execute(select(D.c.seq).where(
        tx.scope(D), D.c.issue_id == data["into"], D.c.key.in_(keys), D.c.kind == "issue", later)).scalars()))
    tx.conn.execute(update(D).where(tx.scope(D), D.c.issue_id == data["into"], D.c.key.in_(keys), later)
                    .values(issue_id=sid))
    return seqs


def _restore_source(tx: Transaction, sid: str, data: dict[str, Any], later: list[int], actor: str) -> None:
    """The source as it was when merged, then moved by the detections that came back to it."""
    src = tx.get(sid)
    src.update(data["snapshot"])
    src["merged_into"] = None
    tx.count(src["status"], 1)
    tx.dirty.add(sid)
    if later:
        tx.recount(sid)
        src["clock_seq"] = max(src["clock_seq"], later[-1])
        tx.apply(sid, Event.REDETECT, actor=actor, strict=False,
                 reason=f"detected through its own key after the merge (session {later[-1]})")


def _restore_target(tx: Transaction, target_id: str, snapshot: dict[str, Any], actor: str) -> None:
    """When nothing of the target's own was detected since the merge, its status is the one it had."""
    target = tx.get(target_id)
    tx.recount(target_id)
    if target["last_seen_seq"] > snapshot["last_seen_seq"] or target["status"] == snapshot["status"]:
        return
    before = target["status"]
    tx.set_status(target_id, snapshot["status"])
    target["resolved_at"] = snapshot["resolved_at"]
    target["clock_seq"] = snapshot["clock_seq"]
    tx.log(target_id, "unmerge", before, snapshot["status"], actor=actor,
           reason="status restored to what it was before the merge")


def unmerge_issue(tx: Transaction, iid: str, *, actor: str) -> list[str]:
    """Undo the merge of ``iid`` (if it was merged away) or of every issue merged into it."""
    sources = _merged_sources(tx, iid)
    targets: dict[str, dict[str, Any]] = {}
    for sid in sources:
        data = _merge_record(tx, sid)
        target_id = data["into"]
        later = _move_back(tx, sid, data)
        _restore_source(tx, sid, data, later, actor)
        status = tx.get(sid)["status"]
        tx.log(sid, "unmerge", status, status, actor=actor, reason=f"unmerged from {target_id}",
               data={"from": target_id})
        t_status = tx.get(target_id)["status"]
        tx.log(target_id, "unmerge", t_status, t_status, actor=actor, reason=f"released {sid}", data={"source": sid})
        snap = data.get("target_snapshot")
        if target_id not in targets or (snap and snap["last_seen_seq"] < targets[target_id]["last_seen_seq"]):
            targets[target_id] = snap or {}
    tx.flush()  # the sources are unmerged in the database before we look for what is still merged
    for target_id, snap in targets.items():
        still_merged = tx.conn.execute(select(ISSUES.c.issue_id).where(
            tx.scope(ISSUES), ISSUES.c.merged_into == target_id).limit(1)).first()
        if snap and still_merged is None:
            _restore_target(tx, target_id, snap, actor)
        else:
            tx.recount(target_id)
    return sources + list(targets)


def _plan_user(tx: Transaction, ruleset: Ruleset) -> dict[str, Any]:
    IT, D = ISSUES, DETECTIONS
    rows = list(tx.conn.execute(select(IT).where(tx.scope(IT), IT.c.merged_into.is_(None)).order_by(IT.c.id))
                .mappings())
    order = {r["issue_id"]: n for n, r in enumerate(rows)}
    for r in rows:
        tx.issues.setdefault(r["issue_id"], {c: r[c] for c in r if c != "id"})
    groups: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for det_id, iid, text in tx.conn.execute(
        select(D.c.id, D.c.issue_id, D.c.text).where(tx.scope(D), D.c.kind == "issue", D.c.issue_id.is_not(None))
        .order_by(D.c.id)
    ):
        if iid in order:
            groups.setdefault(iid, {}).setdefault(issue_key(text, ruleset), []).append((det_id, text))
    main: dict[str, str] = {}
    for iid, by_key in groups.items():
        main[iid] = max(by_key, key=lambda k: (len(by_key[k]), -by_key[k][0][0]))
    claims: dict[str, list[str]] = {}
    for iid in sorted(main, key=order.__getitem__):
        claims.setdefault(main[iid], []).append(iid)
    owner: dict[str, str | None] = {}
    merges, splits, rekeys = [], [], []
    for key, mains in claims.items():
        target = min(mains, key=lambda i: (_PRIORITY.get(tx.issues[i]["status"], 9), order[i]))
        owner[key] = target
        if len(mains) > 1:
            merges.append({"key": key, "into": target, "issues": [i for i in mains if i != target],
                           "titles": {i: tx.issues[i]["title"] for i in mains}})
    for iid in sorted(groups, key=order.__getitem__):
        by_key = groups[iid]
        if tx.issues[iid]["key"] != main[iid]:
            rekeys.append({"issue_id": iid, "old_key": tx.issues[iid]["key"], "new_key": main[iid]})
        others = {k: v for k, v in by_key.items() if k != main[iid]}
        if others:
            splits.append({"issue_id": iid, "title": tx.issues[iid]["title"], "keep": main[iid],
                           "moves": [{"key": k, "to": owner.get(k), "detections": [d for d, _ in v]}
                                     for k, v in others.items()]})
    return {"merges": merges, "splits": splits, "rekeys": rekeys, "main": main, "groups": groups}


def migrate_tenant(conn: Connection, tenant: str, current: Ruleset, users: Sequence[str], ruleset: Ruleset,
                   *, apply: bool) -> dict[str, Any]:
    """Plan (and with ``apply`` carry out) the move of every user's issues from ``current`` to ``ruleset``."""
    K, D = KEYS, DETECTIONS
    out: dict[str, Any] = {"from_version": current.version, "to_version": ruleset.version,
                           "applied": apply, "users": {}}
    totals = {"merges": 0, "splits": 0, "rekeys": 0}
    for user in users:
        tx = Transaction(conn, tenant, user, to_iso(None), ruleset)
        plan = _plan_user(tx, ruleset)
        public = {k: plan[k] for k in ("merges", "splits", "rekeys")}
        if any(public.values()):
            out["users"][user] = public
        for k in totals:
            totals[k] += len(public[k])
        if not apply:
            continue
        main: dict[str, str] = plan["main"]
        created: dict[str, str] = {}
        for split in plan["splits"]:
            for move in split["moves"]:
                dest = move["to"]
                if dest is None:
                    dest = created.get(move["key"])
                    if dest is None:
                        text = plan["groups"][split["issue_id"]][move["key"]][0][1]
                        src_status = tx.issues[split["issue_id"]]["status"]
                        new = tx.create(move["key"], text, tx.last_seq, None, status=src_status, event_name="split",
                                        reason=f"ruleset {ruleset.version[:12]} split it from {split['issue_id']}",
                                        data={"from": split["issue_id"]})
                        dest = created[move["key"]] = new["issue_id"]
                        main[dest] = move["key"]
                    move["to"] = dest
                ids = move["detections"]
                for start in range(0, len(ids), 500):
                    conn.execute(update(D).where(tx.scope(D), D.c.id.in_(ids[start:start + 500]))
                                 .values(issue_id=dest))
        tx.flush()  # new split issues must exist before keys point at them
        for merge in plan["merges"]:
            merge_into(tx, merge["into"], merge["issues"], actor="migrate",
                       reason=f"ruleset {ruleset.version[:12]} gives them one key")
        for iid, key in main.items():
            issue = tx.get(iid)
            if issue["merged_into"] is not None:
                continue
            old_key = issue["key"]
            if old_key != key:
                conn.execute(update(K).where(tx.scope(K), K.c.key_digest == issue_id(old_key), K.c.issue_id == iid)
                             .values(kind="alias"))
            conn.execute(delete(K).where(tx.scope(K), K.c.key_digest == issue_id(key)))
            conn.execute(insert(K).values(tenant_id=tx.tenant, user_id=user, key_digest=issue_id(key), key=key,
                                          issue_id=iid, kind="primary"))
            if old_key != key or issue["ruleset_version"] != ruleset.version:
                issue.update(key=key, ruleset_version=ruleset.version)
                tx.dirty.add(iid)
            tx.recount(iid)
        tx.flush()
    out["summary"] = totals
    return out


def set_active_ruleset(conn: Connection, tenant: str, ruleset: Ruleset) -> None:
    """Make ``ruleset`` the tenant's active ruleset (the others are kept, inactive)."""
    conn.execute(update(RULESETS).where(RULESETS.c.tenant_id == tenant).values(active=0))
    conn.execute(delete(RULESETS).where(RULESETS.c.tenant_id == tenant, RULESETS.c.version == ruleset.version))
    conn.execute(insert(RULESETS).values(
        tenant_id=tenant, version=ruleset.version, name=ruleset.name, active=1,
        content=json.dumps(ruleset.to_dict(), ensure_ascii=False), created_at=to_iso(None)))
