"""The tracker: sessions of LLM findings in, issues with stable ids and a lifecycle out.

Concurrency: everything for one ``(tenant, user)`` runs in one transaction that first
takes a per-user lock -- ``pg_advisory_xact_lock`` on PostgreSQL (other users proceed in
parallel), ``BEGIN IMMEDIATE`` on SQLite (one writer at a time, WAL readers proceed).
Under that lock the idempotency check, the sequence number and every key lookup are
race-free; unique constraints (session, issue id, key) are the backstop, and a failed
transaction (lock timeout, serialization failure, unique violation) is retried whole.

Cost per session does not grow with history: keys are looked up by their digest,
only the previous session's detections are read for progress, and only issues due
to change (``clock_seq`` reached a limit) are fetched through an index.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, Engine, Table, bindparam, delete, event, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.sql.elements import BindParameter

from sadame.db import make_engine, resolve_url
from sadame.db import upgrade as upgrade_schema
from sadame.track._errors import IllegalTransition, InvalidInsight, IssueNotFound, MergeError, TrackError
from sadame.track._lifecycle import Event, Status, transition
from sadame.track._matching import IssueMatcher, MatchCandidate, safe_match, tokens_match
from sadame.track._models import DetectionRow, EventRow, IssueRow, KeyRow, RulesetRow, SessionRow, UserRow
from sadame.track._ruleset import (
    Ruleset,
    default_ruleset,
    is_positive,
    issue_id,
    issue_key,
    issue_tokens,
    normalize_issue_text,
    parse_ruleset,
    strip_label,
)
from sadame.track._views import (
    DetectionView,
    EventView,
    IssueDetail,
    IssueView,
    SessionReport,
    TrackerConfig,
)

__all__ = ["MAX_INSIGHTS", "MAX_TEXT", "Insight", "Tracker", "parse_insights"]

T = TypeVar("T")
I_ = cast(Table, IssueRow.__table__)
D_ = cast(Table, DetectionRow.__table__)
K_ = cast(Table, KeyRow.__table__)
E_ = cast(Table, EventRow.__table__)
S_ = cast(Table, SessionRow.__table__)
U_ = cast(Table, UserRow.__table__)
R_ = cast(Table, RulesetRow.__table__)
_ISSUE_COLS = [c.name for c in I_.columns if c.name != "id"]
_T: BindParameter[str] = bindparam("t")
_U: BindParameter[str] = bindparam("u")


def _tu(table: Table) -> Any:
    return (table.c.tenant_id == _T) & (table.c.user_id == _U)


# Statements built once: building SQLAlchemy expressions costs more than running them on SQLite.
Q_SESSION = select(S_.c.report).where(_tu(S_), S_.c.session_id == bindparam("s"))
Q_USER = select(U_.c.last_seq, U_.c.counts).where(_tu(U_))
Q_PREV = (select(D_.c.text, D_.c.key, D_.c.issue_id)
          .where(_tu(D_), D_.c.seq == bindparam("seq"), D_.c.kind == "issue")  # no issue_id test here:
          .order_by(D_.c.position))  # it made SQLite pick the (tenant, user, issue_id) index and scan history
Q_KEYS = select(K_.c.key_digest, K_.c.issue_id, K_.c.kind).where(
    _tu(K_), K_.c.key_digest.in_(bindparam("d", expanding=True)))
Q_ISSUES = select(I_).where(_tu(I_), I_.c.issue_id.in_(bindparam("ids", expanding=True)))
Q_DUE = select(I_.c.issue_id).where(_tu(I_), I_.c.status == bindparam("st"), I_.c.clock_seq <= bindparam("lim"),
                                    I_.c.merged_into.is_(None))
UPD_USER = update(U_).where(_tu(U_)).values(last_seq=bindparam("ls"), counts=bindparam("c"))
UPD_ISSUE = (update(I_)
             .where(I_.c.tenant_id == bindparam("b_tenant_id"), I_.c.user_id == bindparam("b_user_id"),
                    I_.c.issue_id == bindparam("b_issue_id"))
             .values({k: bindparam(f"b_{k}") for k in _ISSUE_COLS if k not in ("tenant_id", "user_id", "issue_id")}))
MAX_INSIGHTS = 1000
MAX_TEXT = 10_000
_ID_LIMIT = {"tenant": 128, "user_id": 255, "session_id": 255}
_ID_FORBIDDEN = frozenset("/\\")  # a user id is a URL path segment of the dashboard and the API


@dataclass(frozen=True)
class Insight:
    """One finding of a session: ``kind`` is ``issue`` (a problem) or ``improvement``."""

    text: str
    confidence: float | None = None
    kind: str = "issue"


def _check_text(text: object, where: str) -> str:
    if not isinstance(text, str):
        raise InvalidInsight(f"{where}: text must be a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidInsight(f"{where}: text is longer than {MAX_TEXT} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInsight(f"{where}: text contains a lone surrogate (not valid Unicode)") from None
    if "\x00" in text:
        raise InvalidInsight(f"{where}: text contains a NUL character")
    return text


def parse_insights(insights: object) -> list[Insight]:
    """Validate ingest input: a list of strings or ``{text, confidence?, kind?}`` mappings."""
    if isinstance(insights, str | bytes) or not isinstance(insights, Sequence):
        raise InvalidInsight("insights must be a list of strings or {text, confidence?, kind?} objects")
    if len(insights) > MAX_INSIGHTS:
        raise InvalidInsight(f"at most {MAX_INSIGHTS} insights per session, got {len(insights)}")
    out: list[Insight] = []
    for i, item in enumerate(insights):
        where = f"insights[{i}]"
        if isinstance(item, str):
            out.append(Insight(_check_text(item, where)))
            continue
        if not isinstance(item, Mapping):
            raise InvalidInsight(f"{where}: must be a string or an object, got {type(item).__name__}")
        unknown = set(item) - {"text", "confidence", "kind"}
        if unknown:
            raise InvalidInsight(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        if "text" not in item:
            raise InvalidInsight(f"{where}: text is required")
        conf = item.get("confidence")
        if conf is not None and (isinstance(conf, bool) or not isinstance(conf, int | float)
                                 or not 0 <= conf <= 1):
            raise InvalidInsight(f"{where}: confidence must be a number in [0, 1], got {conf!r}")
        kind = item.get("kind", "issue")
        if kind not in ("issue", "improvement"):
            raise InvalidInsight(f"{where}: kind must be 'issue' or 'improvement', got {kind!r}")
        out.append(Insight(_check_text(item["text"], where), None if conf is None else float(conf), kind))
    return out


def _check_name(value: object, what: str) -> str:
    """The one check of tenant, user and session ids, the same at ingest and at every read."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInsight(f"{what} must be a non-empty string, got {value!r}")
    if len(value) > _ID_LIMIT[what] or "\x00" in value:
        raise InvalidInsight(f"{what} is too long or contains NUL (max {_ID_LIMIT[what]} characters)")
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in value):
        raise InvalidInsight(f"{what} must not contain control characters: {value!r}")
    if what == "user_id" and any(ch in _ID_FORBIDDEN for ch in value):
        raise InvalidInsight(f"user_id must not contain '/' or '\\' (it is a URL path segment): {value!r}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInsight(f"{what} is not valid Unicode") from None
    return value


def _iso(at: datetime | None) -> str:
    if at is None:
        at = datetime.now(UTC)
    if not isinstance(at, datetime):
        raise InvalidInsight(f"at must be a datetime, got {type(at).__name__}")
    if at.tzinfo is None:  # naive times are taken as UTC
        at = at.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def _title(text: str, ruleset: Ruleset) -> str:
    desired = strip_label(text, ruleset).strip() or text.strip() or text
    return f"{desired[:97]}..." if len(desired) > 100 else desired


def _lock_key(tenant: str, user: str) -> int:
    digest = hashlib.sha256(f"{tenant}\x00{user}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _sqlite_immediate(engine: Engine) -> None:
    """Make pysqlite leave transactions to us, and begin writers with BEGIN IMMEDIATE."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        mode = "DEFERRED" if conn.get_execution_options().get("sadame_read") else "IMMEDIATE"
        conn.exec_driver_sql(f"BEGIN {mode}")


def _view(row: Mapping[str, Any]) -> IssueView:
    return IssueView(
        issue_id=row["issue_id"], key=row["key"], title=row["title"], status=row["status"],
        occurrence_count=row["occurrence_count"], first_detected_at=row["first_detected_at"],
        last_detected_at=row["last_detected_at"], resolved_at=row["resolved_at"],
        last_session_id=row["last_session_id"], merged_into=row["merged_into"],
    )


class _Tx:
    """One locked transaction for one tenant+user: buffered writes, counts, events."""

    def __init__(self, tracker: Tracker, conn: Connection, user: str, at: str) -> None:
        self.t, self.conn, self.user, self.at = tracker, conn, user, at
        self.tenant = tracker.tenant
        self.p = {"t": self.tenant, "u": user}
        row = conn.execute(Q_USER, self.p).first()
        self.user_exists = row is not None
        self.last_seq: int = row[0] if row else 0
        self.counts: dict[str, int] = json.loads(row[1]) if row else {}
        self.issues: dict[str, dict[str, Any]] = {}
        self.absent: set[str] = set()
        self.new_keys: list[dict[str, Any]] = []
        self.new_ids: set[str] = set()
        self.dirty: set[str] = set()
        self.events: list[dict[str, Any]] = []

    def scope(self, table: Any) -> Any:
        return (table.c.tenant_id == self.tenant) & (table.c.user_id == self.user)

    def load(self, ids: Sequence[str]) -> None:
        missing = [i for i in ids if i not in self.issues and i not in self.absent]
        if not missing:
            return
        rows = self.conn.execute(Q_ISSUES, {**self.p, "ids": missing}).mappings()
        for r in rows:
            self.issues[r["issue_id"]] = {c: r[c] for c in _ISSUE_COLS}
        self.absent.update(i for i in missing if i not in self.issues)

    def get(self, iid: str) -> dict[str, Any]:
        self.load([iid])
        if iid not in self.issues:
            raise IssueNotFound(f"no issue {iid} for user {self.user!r} in tenant {self.tenant!r}")
        return self.issues[iid]

    def count(self, status: str, delta: int) -> None:
        self.counts[status] = self.counts.get(status, 0) + delta

    def log(self, iid: str, name: str, before: str | None, after: str, *, actor: str,
            reason: str | None, session_id: str | None = None, data: Any = None) -> dict[str, Any]:
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
        try:
            after = transition(before, ev).value
        except IllegalTransition:
            if strict:
                raise
            return None
        if after == before:
            return None
        issue["status"] = after
        issue["resolved_at"] = self.at if after == Status.RESOLVED else None
        if issue["merged_into"] is None:
            self.count(before, -1)
            self.count(after, 1)
        self.dirty.add(iid)
        return self.log(iid, ev.value, before, after, actor=actor, reason=reason, session_id=session_id)

    def create(self, key: str, text: str, seq: int, session_id: str | None, status: str = "candidate",
               *, event_name: str = "create", reason: str, data: Any = None) -> dict[str, Any]:
        iid = issue_id(key)
        n = 0
        while True:  # a migration may have left this id on an issue with another key
            self.load([iid])
            if iid not in self.issues:
                break
            n += 1
            iid = issue_id(f"{key}\x00{n}")
        issue = {
            "tenant_id": self.tenant, "user_id": self.user, "issue_id": iid, "key": key,
            "title": _title(text, self.t.ruleset), "status": status, "first_detected_at": self.at,
            "last_detected_at": self.at, "resolved_at": self.at if status == "resolved" else None,
            "occurrence_count": 0, "last_session_id": session_id, "last_seen_seq": seq, "clock_seq": seq,
            "created_seq": seq, "merged_into": None, "ruleset_version": self.t.ruleset.version,
        }
        self.issues[iid] = issue
        self.absent.discard(iid)
        self.new_ids.add(iid)
        self.count(status, 1)
        self.log(iid, event_name, None, status, actor="tracker", reason=reason, session_id=session_id, data=data)
        return issue

    def flush(self) -> None:
        c = self.conn
        new_rows = [self.issues[i] for i in sorted(self.new_ids)]
        if new_rows:
            c.execute(insert(I_), new_rows)
        changed = [{f"b_{k}": v for k, v in self.issues[i].items()} for i in sorted(self.dirty - self.new_ids)]
        if changed:
            c.execute(UPD_ISSUE, changed)
        if self.new_keys:
            c.execute(insert(K_), self.new_keys)
            self.new_keys = []
        if self.events:
            c.execute(insert(E_), [{"tenant_id": self.tenant, "user_id": self.user, **e} for e in self.events])
        counts = json.dumps({k: v for k, v in sorted(self.counts.items()) if v}, sort_keys=True)
        if self.user_exists:
            c.execute(UPD_USER, {**self.p, "ls": self.last_seq, "c": counts})
        else:
            c.execute(insert(U_).values(tenant_id=self.tenant, user_id=self.user, last_seq=self.last_seq,
                                        counts=counts, created_at=self.at))
            self.user_exists = True
        self.new_ids.clear()
        self.dirty.clear()
        self.events.clear()

    def recount(self, iid: str) -> None:
        """Recompute an issue's occurrence figures from its stored detections (merge/unmerge)."""
        issue = self.get(iid)
        row = self.conn.execute(
            select(func.count(func.distinct(D_.c.seq)), func.min(D_.c.at), func.max(D_.c.at), func.max(D_.c.seq))
            .where(self.scope(D_), D_.c.issue_id == iid, D_.c.kind == "issue")
        ).first()
        assert row is not None
        issue["occurrence_count"] = int(row[0])
        if row[1] is not None:
            issue["first_detected_at"], issue["last_detected_at"] = row[1], row[2]
            issue["last_seen_seq"] = int(row[3])
            last = self.conn.execute(
                select(D_.c.session_id).where(self.scope(D_), D_.c.issue_id == iid, D_.c.seq == row[3]).limit(1)
            ).scalar()
            issue["last_session_id"] = last
        self.dirty.add(iid)


class Tracker:
    """Issue tracking for LLM findings, scoped by tenant then user (see the module docstring).

    >>> tracker = Tracker("sqlite:///sadame.db", tenant="acme")   # doctest: +SKIP
    >>> tracker.ingest("u1", "s1", ["安定性が不足している"]).new[0]["key"]   # doctest: +SKIP
    'insufficient_control::stability_issue'
    """

    def __init__(
        self,
        db_url: str | None = None,
        *,
        tenant: str = "default",
        ruleset: Ruleset | None = None,
        matcher: IssueMatcher | None = None,
        config: TrackerConfig | None = None,
        upgrade: bool = True,
    ) -> None:
        self.tenant = _check_name(tenant, "tenant")
        self.url = resolve_url(db_url)
        self.config = config or TrackerConfig()
        self.matcher = matcher
        self.engine = make_engine(self.url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            _sqlite_immediate(self.engine)
        if upgrade:
            upgrade_schema(self.engine)
        stored = self._stored_ruleset()
        self.ruleset = ruleset if ruleset is not None else (stored or default_ruleset())
        # the first ingest pins the ruleset it used as the tenant's active one, so a later
        # change of the bundled default cannot silently change keys (migrate changes it)
        self._pinned = stored is not None

    # -- plumbing -------------------------------------------------------------------------

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> Tracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _threshold(self, name: str) -> float:
        value = getattr(self.config, name)
        return float(value) if value is not None else float(getattr(self.ruleset.thresholds, name))

    def _stored_ruleset(self) -> Ruleset | None:
        with self._read() as conn:
            content = conn.execute(
                select(R_.c.content).where(R_.c.tenant_id == self.tenant, R_.c.active == 1)
            ).scalar()
        return parse_ruleset(json.loads(content), source="stored") if content else None

    def _pin(self, conn: Connection) -> None:
        active = conn.execute(select(R_.c.version).where(R_.c.tenant_id == self.tenant, R_.c.active == 1)).scalar()
        if active is None:
            conn.execute(insert(R_).values(
                tenant_id=self.tenant, version=self.ruleset.version, name=self.ruleset.name, active=1,
                content=json.dumps(self.ruleset.to_dict(), ensure_ascii=False), created_at=_iso(None)))
        self._pinned = True

    def _read(self) -> Any:
        conn = self.engine.connect().execution_options(sadame_read=True)
        return conn

    def _write(self, users: Sequence[str], fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in one transaction holding the per-user locks; retry it whole on conflicts."""
        attempts = self.config.retries
        for attempt in range(attempts):
            try:
                with self.engine.begin() as conn:
                    if not self.is_sqlite:
                        for user in sorted(set(users)):
                            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                         {"k": _lock_key(self.tenant, user)})
                    return fn(conn)
            except (IntegrityError, OperationalError) as exc:
                if attempt == attempts - 1:
                    raise TrackError(f"database conflict persisted after {attempts} attempts: {exc}") from exc
                time.sleep(min(2.0, 0.05 * 2**attempt) * random.random())
        raise AssertionError("unreachable")

    # -- ingest ---------------------------------------------------------------------------

    def ingest(
        self,
        user_id: str,
        session_id: str,
        insights: Sequence[str | Mapping[str, Any]],
        at: datetime | None = None,
    ) -> SessionReport:
        """Record one session's findings for a user and return what changed (see SessionReport).

        Idempotent per ``(user_id, session_id)``: a repeated call returns the stored report
        (``replayed=True``) and writes nothing. All of a session is one transaction.
        """
        user = _check_name(user_id, "user_id")
        session = _check_name(session_id, "session_id")
        parsed = parse_insights(insights)
        stamp = _iso(at)
        return self._write([user], lambda conn: self._ingest(conn, user, session, parsed, stamp))

    def _ingest(self, conn: Connection, user: str, session: str, insights: list[Insight],
                at: str) -> SessionReport:
        stored = conn.execute(Q_SESSION, {"t": self.tenant, "u": user, "s": session}).scalar()
        if stored is not None:
            report = SessionReport.from_dict(json.loads(stored))
            report.replayed = True
            return report
        if not self._pinned:
            self._pin(conn)
        tx = _Tx(self, conn, user, at)
        seq = tx.last_seq + 1
        tx.last_seq = seq
        rs = self.ruleset
        overlap = self._threshold("token_overlap")
        report = SessionReport(user_id=user, session_id=session, at=at, seq=seq, ruleset_version=rs.version)

        # previous session's issue findings (for the seed's progress comparison)
        prev = [] if seq == 1 else [
            (r[0], r[1], r[2]) for r in conn.execute(Q_PREV, {**tx.p, "seq": seq - 1}) if r[2] is not None
        ]
        prev_tokens = [issue_tokens(t, rs) for t, _, _ in prev]

        # keys of this session, looked up in one query
        keys = [issue_key(ins.text, rs) for ins in insights]
        digests = {issue_id(k) for k in keys}
        links: dict[str, tuple[str, str]] = {}
        if digests:
            for r in conn.execute(Q_KEYS, {**tx.p, "d": sorted(digests)}):
                links[r[0]] = (r[1], r[2])
        # one query for: linked issues, previous session's issues, and ids new keys would take
        tx.load(sorted({v[0] for v in links.values()} | {p[2] for p in prev} | digests))

        candidates: list[MatchCandidate] | None = None

        def semantic(text_: str, purpose: str) -> tuple[str | None, float | None]:
            nonlocal candidates
            if self.matcher is None:
                return None, None
            if candidates is None:
                candidates = [
                    MatchCandidate(r[0], r[1], r[2], r[3]) for r in conn.execute(
                        select(I_.c.issue_id, I_.c.title, I_.c.key, I_.c.status)
                        .where(tx.scope(I_), I_.c.merged_into.is_(None)).order_by(I_.c.id))
                ]
            pool = candidates + [MatchCandidate(i, tx.issues[i]["title"], tx.issues[i]["key"],
                                                tx.issues[i]["status"]) for i in sorted(tx.new_ids)]
            result, warning = safe_match(self.matcher, text_, pool, purpose=purpose,  # type: ignore[arg-type]
                                         timeout=self.config.matcher_timeout)
            if warning:
                report.warnings.append(warning)
            limit = self._threshold("detection_match" if purpose == "detection" else "improvement_match")
            if result is None or result.confidence < limit:
                return None, None if result is None else result.confidence
            return result.issue_id, result.confidence

        def resolve_target(iid: str) -> str:
            seen = set()
            while True:
                issue = tx.get(iid)
                if issue["merged_into"] is None or iid in seen:
                    return iid
                seen.add(iid)
                iid = issue["merged_into"]

        detections: list[dict[str, Any]] = []
        touched: set[str] = set()
        current_tokens: list[list[str]] = []
        surfaced_new = 0
        open_conf = self._threshold("open_confidence")
        max_new = self.config.max_new_per_session

        for pos, (ins, key) in enumerate(zip(insights, keys, strict=True)):
            det = {"tenant_id": self.tenant, "user_id": user, "session_id": session, "seq": seq,
                   "position": pos, "text": ins.text, "kind": ins.kind, "confidence": ins.confidence,
                   "key": key, "issue_id": None, "tier": "none", "link_confidence": None,
                   "outcome": "filtered", "at": at}
            detections.append(det)
            entry: dict[str, Any] = {"text": ins.text, "key": key, "issue_id": None, "tier": None,
                                     "confidence": ins.confidence, "status": None}
            if ins.kind == "improvement":
                link = links.get(issue_id(key))
                target, tier, conf = (link[0], (link[1] == "primary" and "exact") or "alias", 1.0) if link else \
                    (None, "none", None)
                if target is None:
                    target, conf = semantic(ins.text, "improvement")
                    tier = "semantic" if target else "none"
                det.update(outcome="improvement", tier=tier, link_confidence=conf)
                entry.update(source="improvement", tier=tier, link_confidence=conf)
                if target is not None:
                    target = resolve_target(target)
                    det["issue_id"] = target
                    ev = tx.apply(target, Event.IMPROVE, actor="tracker", session_id=session, strict=False,
                                  reason=f"improvement matched ({tier}, confidence {conf:.2f})")
                    if ev:
                        report.transitions.append(ev)
                    entry.update(issue_id=target, status=tx.get(target)["status"])
                report.improvements.append(entry)
                continue
            if not normalize_issue_text(ins.text, rs):
                det.update(tier="filtered")
                report.filtered.append({**entry, "reason": "empty"})
                continue
            if is_positive(ins.text, rs):
                det.update(tier="filtered")
                report.filtered.append({**entry, "reason": "positive"})
                continue
            tokens = issue_tokens(ins.text, rs)
            current_tokens.append(tokens)
            link = links.get(issue_id(key))
            conf_link: float | None
            if link is not None:
                target, tier, conf_link = resolve_target(link[0]), ("exact" if link[1] == "primary" else "alias"), 1.0
            else:
                sem, conf_link = semantic(ins.text, "detection")
                target, tier = (resolve_target(sem), "semantic") if sem else (None, "new")
            if target is None:
                family = any(tokens_match(p, tokens, overlap) for p in prev_tokens)
                surfaced = family or surfaced_new < max_new
                issue = tx.create(key, ins.text, seq, session, reason=f"first detection in session {session}")
                target = issue["issue_id"]
                links[issue_id(key)] = (target, "primary")
                tx.new_keys.append({"tenant_id": self.tenant, "user_id": user, "key_digest": issue_id(key),
                                    "key": key, "issue_id": target, "kind": "primary"})
                outcome = "remaining" if family else ("new" if surfaced else "deferred")
                if not family and surfaced:
                    surfaced_new += 1
                report.transitions.append(tx.events[-1])
                if surfaced and ins.confidence is not None and ins.confidence >= open_conf:
                    ev = tx.apply(target, Event.CONFIRM, actor="tracker", session_id=session,
                                  reason=f"first detection with confidence {ins.confidence:.2f}")
                    if ev:
                        report.transitions.append(ev)
                issue["occurrence_count"] += 1
                touched.add(target)
                det.update(issue_id=target, tier="new", link_confidence=None, outcome=outcome)
                entry.update(issue_id=target, tier="new", status=issue["status"])
                {"remaining": report.remaining, "new": report.new, "deferred": report.deferred}[outcome].append(entry)
                continue
            issue = tx.get(target)
            det.update(issue_id=target, tier=tier, link_confidence=conf_link)
            entry.update(issue_id=target, tier=tier, link_confidence=conf_link)
            if target in touched:
                det["outcome"] = "duplicate"
                continue
            touched.add(target)
            issue.update(occurrence_count=issue["occurrence_count"] + 1, last_detected_at=at,
                         last_session_id=session, last_seen_seq=seq, clock_seq=seq)
            tx.dirty.add(target)
            before = issue["status"]
            confident = ins.confidence is not None and ins.confidence >= open_conf
            ev = tx.apply(target, Event.CONFIRM if confident else Event.REDETECT, actor="tracker",
                          session_id=session, reason=f"detected again in session {session} ({tier})")
            if ev:
                report.transitions.append(ev)
            entry["status"] = issue["status"]
            if issue["status"] == Status.IGNORED:
                det["outcome"] = "ignored"
                report.ignored.append(entry)
                continue
            det["outcome"] = "remaining"
            report.remaining.append(entry)
            if before == Status.RESOLVED and issue["status"] == Status.OPEN:
                report.regressions.append(entry)

        # the seed's improvements: previous findings no current finding shares tokens with
        for (ptext, pkey, piid), ptok in zip(prev, prev_tokens, strict=True):
            if not any(tokens_match(ptok, cur, overlap) for cur in current_tokens):
                report.improvements.append({"text": ptext, "key": pkey, "issue_id": piid, "tier": None,
                                            "confidence": None, "status": None, "source": "progress"})

        # absence: open issues missed N sessions resolve, candidates missed M sessions expire
        for status, limit, ev_name in ((Status.OPEN, self.config.miss_sessions_to_resolve, Event.MISS_LIMIT),
                                       (Status.CANDIDATE, self.config.candidate_expiry_sessions, Event.EXPIRE)):
            due = conn.execute(Q_DUE, {**tx.p, "st": status.value, "lim": seq - limit}).scalars().all()
            tx.load(list(due))
            for iid in due:
                if iid in touched or tx.issues[iid]["status"] != status.value:
                    continue
                ev = tx.apply(iid, ev_name, actor="tracker", session_id=session,
                              reason=f"not detected in the last {limit} session(s)")
                if ev:
                    report.transitions.append(ev)
        for entry_list in (report.improvements,):
            for entry in entry_list:
                if entry["issue_id"] in tx.issues:
                    entry["status"] = tx.issues[entry["issue_id"]]["status"]

        if detections:
            conn.execute(insert(D_), detections)
        tx.flush()
        report.transitions = [{k: e[k] for k in ("issue_id", "event", "from_state", "to_state", "reason")}
                              for e in report.transitions]
        conn.execute(insert(S_).values(
            tenant_id=self.tenant, user_id=user, session_id=session, seq=seq, at=at,
            ruleset_version=rs.version, n_new=len(report.new), n_open=tx.counts.get("open", 0),
            n_resolved=tx.counts.get("resolved", 0), n_regressions=len(report.regressions),
            report=json.dumps(report.to_dict(), ensure_ascii=False),
        ))
        return report

    # -- reading --------------------------------------------------------------------------

    def list_issues(self, user_id: str, status: str | None = None, *, include_merged: bool = False) -> list[IssueView]:
        """The user's issues, oldest first; ``status`` filters (candidate/open/resolved/ignored/expired)."""
        user = _check_name(user_id, "user_id")
        q = select(I_).where(I_.c.tenant_id == self.tenant, I_.c.user_id == user)
        if status is not None:
            if status not in {s.value for s in Status}:
                raise InvalidInsight(f"unknown status {status!r}: use one of {', '.join(s.value for s in Status)}")
            q = q.where(I_.c.status == status)
        if not include_merged:
            q = q.where(I_.c.merged_into.is_(None))
        with self._read() as conn:
            return [_view(r) for r in conn.execute(q.order_by(I_.c.id)).mappings()]

    def show(self, user_id: str, issue_id_: str) -> IssueDetail:
        """One issue with its keys, detections and event history; raises IssueNotFound."""
        user = _check_name(user_id, "user_id")
        scope = (I_.c.tenant_id == self.tenant) & (I_.c.user_id == user)
        with self._read() as conn:
            row = conn.execute(select(I_).where(scope, I_.c.issue_id == issue_id_)).mappings().first()
            if row is None:
                raise IssueNotFound(f"no issue {issue_id_} for user {user!r} in tenant {self.tenant!r}")
            keys = [{"key": r[0], "kind": r[1]} for r in conn.execute(
                select(K_.c.key, K_.c.kind).where(K_.c.tenant_id == self.tenant, K_.c.user_id == user,
                                                  K_.c.issue_id == issue_id_).order_by(K_.c.kind, K_.c.key))]
            dets = [DetectionView(**{k: r[k] for k in DetectionView.__dataclass_fields__}) for r in conn.execute(
                select(D_).where(D_.c.tenant_id == self.tenant, D_.c.user_id == user, D_.c.issue_id == issue_id_)
                .order_by(D_.c.seq, D_.c.position)).mappings()]
            events = [self._event_view(r) for r in conn.execute(
                select(E_).where(E_.c.tenant_id == self.tenant, E_.c.user_id == user, E_.c.issue_id == issue_id_)
                .order_by(E_.c.id)).mappings()]
            merged = list(conn.execute(select(I_.c.issue_id).where(scope, I_.c.merged_into == issue_id_)
                                       .order_by(I_.c.id)).scalars())
        return IssueDetail(_view(row), keys, dets, events, merged)

    @staticmethod
    def _event_view(r: Mapping[str, Any]) -> EventView:
        return EventView(issue_id=r["issue_id"], event=r["event"], from_state=r["from_state"],
                         to_state=r["to_state"], actor=r["actor"], reason=r["reason"], at=r["at"],
                         session_id=r["session_id"], data=json.loads(r["data"]) if r["data"] else None)

    def timeline(self, user_id: str) -> list[dict[str, Any]]:
        """Per-session points for charts: new issues surfaced, open and resolved after it, regressions."""
        user = _check_name(user_id, "user_id")
        with self._read() as conn:
            rows = conn.execute(
                select(S_.c.session_id, S_.c.at, S_.c.n_new, S_.c.n_open, S_.c.n_resolved, S_.c.n_regressions)
                .where(S_.c.tenant_id == self.tenant, S_.c.user_id == user).order_by(S_.c.seq))
            return [{"session_id": r[0], "at": r[1], "new": r[2], "open": r[3], "resolved": r[4],
                     "regressions": r[5]} for r in rows]

    def users(self) -> list[str]:
        """Users of this tenant that have data."""
        with self._read() as conn:
            return list(conn.execute(select(U_.c.user_id).where(U_.c.tenant_id == self.tenant)
                                     .order_by(U_.c.user_id)).scalars())

    def export(self) -> Iterator[dict[str, Any]]:
        """Everything of this tenant as JSON-ready dicts (``type``: ruleset/session/issue/key/detection/event)."""
        tables = (("ruleset", R_), ("session", S_), ("issue", I_), ("key", K_), ("detection", D_), ("event", E_))
        with self._read() as conn:
            for name, table in tables:
                order = table.c.id if "id" in table.c else list(table.primary_key)[-1]
                q = select(table).where(table.c.tenant_id == self.tenant).order_by(order)
                for r in conn.execution_options(yield_per=500).execute(q).mappings():
                    row = {k: v for k, v in r.items() if k != "id"}
                    for field_ in ("report", "data", "counts", "content"):
                        if isinstance(row.get(field_), str):
                            row[field_] = json.loads(row[field_])
                    yield {"type": name, **row}

    # -- user actions ---------------------------------------------------------------------

    def _user_event(self, user_id: str, iid: str, ev: Event, actor: str, reason: str | None) -> IssueView:
        user = _check_name(user_id, "user_id")
        _check_name(actor, "user_id")

        def run(conn: Connection) -> IssueView:
            tx = _Tx(self, conn, user, _iso(None))
            issue = tx.get(iid)
            if issue["merged_into"] is not None:
                raise MergeError(f"issue {iid} was merged into {issue['merged_into']}; act on that issue "
                                 "or unmerge first")
            tx.apply(iid, ev, actor=actor, reason=reason or f"{ev.value} by {actor}")
            issue["clock_seq"] = max(issue["clock_seq"], tx.last_seq)  # misses count from now on
            tx.flush()
            return _view(issue)

        return self._write([user], run)

    def ignore(self, user_id: str, issue_id_: str, *, actor: str = "user", reason: str | None = None) -> IssueView:
        """Dismiss an issue for good (sticky: later detections are recorded, the status stays)."""
        return self._user_event(user_id, issue_id_, Event.IGNORE, actor, reason)

    def reopen(self, user_id: str, issue_id_: str, *, actor: str = "user", reason: str | None = None) -> IssueView:
        """Put an ignored, resolved, expired or candidate issue back on the open list."""
        return self._user_event(user_id, issue_id_, Event.REOPEN, actor, reason)

    def merge(self, user_id: str, target_id: str, source_ids: Sequence[str], *, actor: str = "user",
              reason: str | None = None) -> IssueView:
        """Fold ``source_ids`` into ``target_id``: their keys become aliases of the target and their
        detections count for it. Reversible exactly with :meth:`unmerge`."""
        from sadame.track._merge import merge_into

        user = _check_name(user_id, "user_id")
        if isinstance(source_ids, str):
            source_ids = [source_ids]

        def run(conn: Connection) -> IssueView:
            tx = _Tx(self, conn, user, _iso(None))
            merge_into(tx, target_id, list(source_ids), actor=actor, reason=reason)
            tx.flush()
            return _view(tx.get(target_id))

        return self._write([user], run)

    def unmerge(self, user_id: str, issue_id_: str, *, actor: str = "user") -> list[IssueView]:
        """Undo merges: of ``issue_id_`` if it was merged away, else of everything merged into it.
        Restores keys, detections, status and counters of the originals."""
        from sadame.track._merge import unmerge_issue

        user = _check_name(user_id, "user_id")

        def run(conn: Connection) -> list[IssueView]:
            tx = _Tx(self, conn, user, _iso(None))
            restored = unmerge_issue(tx, issue_id_, actor=actor)
            tx.flush()
            return [_view(tx.get(i)) for i in restored]

        return self._write([user], run)

    def migrate(self, ruleset: Ruleset, *, apply: bool = False) -> dict[str, Any]:
        """Recompute keys under ``ruleset`` from stored detection texts; report merges and splits.
        With ``apply=True`` carry them out (old keys kept as aliases, statuses carried) and make
        ``ruleset`` this tenant's active ruleset."""
        from sadame.track._merge import migrate_tenant

        users = self.users()

        def run(conn: Connection) -> dict[str, Any]:
            plan = migrate_tenant(self, conn, users, ruleset, apply=apply)
            if apply:
                conn.execute(update(R_).where(R_.c.tenant_id == self.tenant).values(active=0))
                conn.execute(delete(R_).where(R_.c.tenant_id == self.tenant, R_.c.version == ruleset.version))
                conn.execute(insert(R_).values(
                    tenant_id=self.tenant, version=ruleset.version, name=ruleset.name, active=1,
                    content=json.dumps(ruleset.to_dict(), ensure_ascii=False), created_at=_iso(None)))
            return plan

        if not apply:
            with self.engine.connect().execution_options(sadame_read=True) as conn:
                return migrate_tenant(self, conn, users, ruleset, apply=False)
        plan = self._write(users or ["\x00tenant"], run)
        self.ruleset = ruleset
        return plan
