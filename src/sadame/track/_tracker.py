"""The tracker: sessions of LLM findings in, issues with stable ids and a lifecycle out.

:class:`Tracker` is a facade. It owns the engine, the ruleset and the configuration and
delegates: ingest to :mod:`sadame.track._ingest`, merges and migrations to
:mod:`sadame.track._merge`, reads to :mod:`sadame.track._queries`, user erasure and
restore to :mod:`sadame.track._portability`, similar issues to :mod:`sadame.track._similar`.

Concurrency: everything for one ``(tenant, user)`` runs in one transaction that first
takes a per-user lock -- ``pg_advisory_xact_lock`` on PostgreSQL (other users proceed in
parallel), ``BEGIN IMMEDIATE`` on SQLite (one writer at a time, WAL readers proceed).
Unique constraints (session, issue id, key) are the backstop, and a failed transaction
(lock timeout, serialization failure, unique violation) is retried whole.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import IntegrityError, OperationalError

from sadame.db import DatabaseUnavailable, make_engine, resolve_url
from sadame.db import upgrade as upgrade_schema
from sadame.db._raw import RawCursor
from sadame.track import _queries as queries
from sadame.track._errors import InvalidInsight, MergeError, MigrationNeedsReview, SessionConflict, TrackError
from sadame.track._hints import record_merge_hints
from sadame.track._ingest import (
    SELECT_HEAD,
    IngestSettings,
    Insight,
    ingest_session,
    parse_insights,
    replay_stored,
    send_ahead,
)
from sadame.track._lifecycle import Event
from sadame.track._matching import IssueMatcher
from sadame.track._merge import merge_into, migrate_tenant, set_active_ruleset, unmerge_issue
from sadame.track._portability import delete_user_rows, import_rows
from sadame.track._rules import LintFinding, Suggestion, lint_ruleset, stored_texts, suggest_patterns
from sadame.track._ruleset import Ruleset, default_ruleset, parse_ruleset
from sadame.track._similar import SimilarIssue, similar_issues
from sadame.track._transaction import (
    RULESETS,
    Transaction,
    check_name,
    issue_view,
    lock_key,
    sqlite_immediate,
    to_iso,
)
from sadame.track._views import IssueDetail, IssueView, SessionReport, TrackerConfig

__all__ = ["Tracker"]

T = TypeVar("T")

#: The tenant's active ruleset row's identity, read in every write (built once: building a
#: statement costs more than running it on SQLite).
_SELECT_ACTIVE = "SELECT version, created_at FROM track_rulesets WHERE tenant_id = ? AND active = 1"
_SELECT_CONTENT = "SELECT content FROM track_rulesets WHERE tenant_id = ? AND version = ?"
_INSERT_RULESET = ("INSERT INTO track_rulesets (tenant_id, version, name, active, content, created_at) "
                   "VALUES (?, ?, ?, 1, ?, ?)")


#: One parsed session of a stream: user, session, findings, time (ISO 8601 UTC).
_Parsed = tuple[str, str, list[Insight], str]


def _parse_session(n: int, item: object) -> _Parsed:
    """Session ``n`` of an ``ingest_many`` stream, checked (errors name it)."""
    if not isinstance(item, Mapping) or not {"user_id", "session_id", "insights"} <= set(item):
        raise InvalidInsight(f"session {n}: needs user_id, session_id and insights")
    at = item.get("at")
    try:
        if isinstance(at, str):
            text_at = at
            try:
                at = datetime.fromisoformat(text_at)
            except ValueError:
                raise InvalidInsight(f"at {text_at[:40]!r} is not an ISO 8601 time") from None
        return (check_name(item["user_id"], "user_id"), check_name(item["session_id"], "session_id"),
                parse_insights(item["insights"]), to_iso(at))
    except InvalidInsight as exc:
        raise InvalidInsight(f"session {n}: {exc}") from None


class Tracker:
    """Issue tracking for LLM findings, scoped by tenant then user (see the module docstring).

    Example (writes a database file, so not run as a doctest)::

        tracker = Tracker("sqlite:///sadame.db", tenant="acme")
        tracker.ingest("u1", "s1", ["踏み込みが弱い"]).new[0].key   # 'insufficient_control@踏み込み'
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
        engine: Engine | None = None,
    ) -> None:
        self.tenant = check_name(tenant, "tenant")
        self.url = resolve_url(db_url) if engine is None else engine.url.render_as_string(hide_password=False)
        self.config = config or TrackerConfig()
        self.matcher = matcher
        # An engine passed in is shared (one pool per process for every tenant: the web app
        # passes its own); it is the caller's to dispose. Otherwise the tracker owns one.
        self._owns_engine = engine is None
        self.engine = make_engine(self.url) if engine is None else engine
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        if self.is_sqlite:
            sqlite_immediate(self.engine)
        if upgrade:
            upgrade_schema(self.engine)
        # An explicit ruleset is used as given; otherwise the tenant's active one, re-read
        # whenever another process (``track migrate --apply``) changed it -- see _refresh().
        self._explicit = ruleset is not None
        self._made_settings: tuple[Ruleset, IssueMatcher | None, TrackerConfig, IngestSettings] | None = None
        self._active: tuple[str, str] | None = None
        stored = self._stored_ruleset()
        self.ruleset = ruleset if ruleset is not None else (stored or default_ruleset())

    # -- plumbing -------------------------------------------------------------------------

    def close(self) -> None:
        """Release the database connections (of an engine this tracker made itself)."""
        if self._owns_engine:
            self.engine.dispose()

    def __enter__(self) -> Tracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _threshold(self, name: str) -> float:
        value = getattr(self.config, name)
        return float(value) if value is not None else float(getattr(self.ruleset.thresholds, name))

    def _settings(self) -> IngestSettings:
        """The ingest settings of the current ruleset, matcher and config (built again only when
        one of them was replaced: a migration, or an attribute set on the tracker)."""
        made = self._made_settings
        if made is not None and made[0] is self.ruleset and made[1] is self.matcher and made[2] is self.config:
            return made[3]
        c = self.config
        settings = IngestSettings(
            token_overlap=self._threshold("token_overlap"), open_confidence=self._threshold("open_confidence"),
            detection_match=self._threshold("detection_match"),
            improvement_match=self._threshold("improvement_match"), max_new=c.max_new_per_session,
            miss_sessions_to_resolve=c.miss_sessions_to_resolve,
            candidate_expiry_sessions=c.candidate_expiry_sessions, matcher=self.matcher,
            matcher_timeout=c.matcher_timeout)
        self._made_settings = (self.ruleset, self.matcher, self.config, settings)
        return settings

    def _stored_ruleset(self) -> Ruleset | None:
        with self._read() as conn:
            row = conn.execute(
                select(RULESETS.c.version, RULESETS.c.created_at, RULESETS.c.content)
                .where(RULESETS.c.tenant_id == self.tenant, RULESETS.c.active == 1)
            ).first()
        if row is None:
            return None
        self._active = (row.version, row.created_at)
        return parse_ruleset(json.loads(row.content), source="stored")

    def _refresh(self, conn: Connection, active: tuple[Any, Any] | bool | None = True) -> None:
        """Inside a write: use the tenant's active ruleset as it is now (one primary-key row).

        Another process may have migrated the tenant since this tracker read it; the active
        row's (version, created_at) tells, and only a change costs a parse. With no active
        ruleset yet, the first write pins this tracker's one, so a later change of the bundled
        default cannot silently change keys (migrate changes it). ``active``: the row's
        ``(version, created_at)`` when the caller read it in this transaction (None: there is
        none), ``True`` to read it here.
        """
        raw = RawCursor.of(conn)  # not SQLAlchemy: ingest runs this in psycopg's pipeline mode
        row: Any = raw.first(_SELECT_ACTIVE, (self.tenant,)) if active is True else active
        if row is None:
            stamp = to_iso(None)
            raw.execute(_INSERT_RULESET, (self.tenant, self.ruleset.version, self.ruleset.name,
                                          json.dumps(self.ruleset.to_dict(), ensure_ascii=False), stamp))
            self._active = (self.ruleset.version, stamp)
        elif (row[0], row[1]) != self._active:
            if not self._explicit:
                content = raw.first(_SELECT_CONTENT, (self.tenant, row[0]))[0]
                self.ruleset = parse_ruleset(json.loads(content), source="stored")
            self._active = (row[0], row[1])

    def _read(self) -> Connection:
        return self.engine.connect().execution_options(sadame_read=True)

    def _write(self, users: Sequence[str], fn: Callable[[Connection], T], *, pipeline: bool = False) -> T:
        """Run ``fn`` in one transaction holding the per-user locks; retry it whole on conflicts.
        ``pipeline``: on PostgreSQL in psycopg's pipeline mode (see ``RawCursor.pipeline``; for
        ingest, whose statements run on the driver's cursor), its ``BEGIN`` and ``COMMIT`` sent in
        the pipeline too (``RawCursor.transaction_pipeline``): ``fn``'s result is returned only
        after the server answered the ``COMMIT``."""
        attempts = self.config.retries
        for attempt in range(attempts):
            try:
                with self.engine.begin() as conn:
                    if self.is_sqlite:
                        return fn(conn)
                    raw = RawCursor.of(conn)
                    with raw.transaction_pipeline() if pipeline else contextlib.nullcontext():
                        for user in sorted(set(users)):
                            raw.execute("SELECT pg_advisory_xact_lock(?)", (lock_key(self.tenant, user),))
                        result = fn(conn)
                        if pipeline:  # COMMIT travels with the last writes: one round trip for both, at
                            raw.execute("COMMIT")  # the pipeline's end, which raises its error; then
                        return result  # SQLAlchemy's commit finds the connection idle and does nothing
            except (IntegrityError, OperationalError) as exc:
                if attempt == attempts - 1 and isinstance(exc, OperationalError):
                    first = str(exc.orig).strip().splitlines()[0] if str(exc.orig).strip() else "busy"
                    raise DatabaseUnavailable(f"database busy: the write did not go through after "
                                              f"{attempts} attempts ({first})") from exc
                if attempt == attempts - 1:
                    raise TrackError(f"database conflict persisted after {attempts} attempts: {exc}") from exc
                time.sleep(min(2.0, 0.05 * 2**attempt) * random.random())
        raise AssertionError("unreachable")

    def _in_user_tx(self, user_id: str, fn: Callable[[Transaction], T]) -> T:
        """Run ``fn`` on a locked :class:`Transaction` of one user and flush it."""
        user = check_name(user_id, "user_id")

        def run(conn: Connection) -> T:
            self._refresh(conn)
            tx = Transaction(conn, self.tenant, user, to_iso(None), self.ruleset)
            result = fn(tx)
            tx.flush()
            return result

        return self._write([user], run)

    # -- ingest ---------------------------------------------------------------------------

    def ingest(
        self,
        user_id: str,
        session_id: str,
        insights: Sequence[str | Mapping[str, Any]],
        at: datetime | None = None,
    ) -> SessionReport:
        """Record one session's findings for a user and return what changed (see SessionReport).

        Idempotent per ``(user_id, session_id)``: the same findings again return the stored report
        (``replayed=True``) and write nothing; different findings raise :class:`SessionConflict`.
        All of a session is one transaction.
        """
        user = check_name(user_id, "user_id")
        session = check_name(session_id, "session_id")
        parsed: _Parsed = (user, session, parse_insights(insights), to_iso(at))
        return self._write([user], functools.partial(self._run_one, parsed), pipeline=True)

    def _run_one(self, parsed: _Parsed, conn: Connection) -> SessionReport:
        return self._run_sessions(conn, [parsed])[0]

    def _run_sessions(self, conn: Connection, sessions: Sequence[_Parsed]) -> list[SessionReport]:
        """Ingest (or replay) each of ``sessions`` in the one transaction ``conn`` holds (a replay
        writes nothing: the active ruleset is checked before the first session that is new)."""
        reports: list[SessionReport] = []
        settings: IngestSettings | None = None
        raw, c, tenant = RawCursor.of(conn), self.config, self.tenant
        for user, session, parsed, stamp in sessions:
            head = raw.send(SELECT_HEAD, (tenant, user, session, tenant, tenant, user))
            ahead = send_ahead(raw, tenant, user, parsed, self.ruleset, c.miss_sessions_to_resolve,
                               c.candidate_expiry_sessions)  # with the head: one round trip on PostgreSQL
            report, seq, version, created, last_seq, counts = raw.fetch(head)[0]
            if seq is not None:
                ahead.drain(raw)
                reports.append(replay_stored(conn, tenant, user, session, parsed, report, seq))
                continue
            if settings is None:
                self._refresh(conn, None if version is None else (version, created))
                settings = self._settings()
            tx = Transaction(conn, self.tenant, user, stamp, self.ruleset,
                             user_row=None if last_seq is None else (last_seq, counts), user_read=True)
            reports.append(ingest_session(tx, session, parsed, settings, ahead))
        return reports

    def ingest_many(self, sessions: Iterable[Mapping[str, Any]], *, batch: int = 1) -> Iterator[SessionReport]:
        """Ingest a stream of sessions (``{"user_id", "session_id", "insights", "at"?}``; ``at`` is a
        datetime or ISO 8601 text), yielding each report once it is stored. A bad session raises
        :class:`InvalidInsight` naming its position; the sessions before it stay stored, and running
        the stream again replays them (nothing is doubled).

        With ``batch`` above 1, up to that many consecutive sessions share one transaction (the
        locks of all their users, one commit): the rate of a back-fill. A batch's reports are
        yielded after its commit, so a report seen is a session stored. A session that conflicts
        (:class:`SessionConflict`) rolls its batch back, and the batch is then ingested one session
        per transaction, which stores the sessions before the conflict and raises at it."""
        size, pending, items = max(1, int(batch)), [], iter(sessions)
        for n in itertools.count(1):
            try:  # a bad session, or a stream that fails (a bad line): what came before is stored
                item = next(items)
                pending.append((n, _parse_session(n, item)))
            except StopIteration:
                break
            except Exception as exc:
                yield from self._ingest_batch(pending)
                raise exc from None
            if len(pending) >= size:
                yield from self._ingest_batch(pending)
                pending = []
        yield from self._ingest_batch(pending)

    def _ingest_batch(self, pending: list[tuple[int, _Parsed]]) -> Iterator[SessionReport]:
        if len(pending) > 1:
            try:
                yield from self._write([p[0] for _, p in pending],
                                       lambda conn: self._run_sessions(conn, [p for _, p in pending]), pipeline=True)
                return
            except SessionConflict:
                pass  # rolled back: one session a transaction, to store those before the conflict
        for n, parsed in pending:
            try:
                yield self._write([parsed[0]], functools.partial(self._run_one, parsed), pipeline=True)
            except SessionConflict as exc:
                raise SessionConflict(f"session {n}: {exc}") from None

    # -- reading --------------------------------------------------------------------------

    def resolve_id(self, user_id: str, issue_id: str) -> str:
        """The full id of the issue ``issue_id`` names (a full id or an unambiguous prefix)."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.resolve_id(conn, self.tenant, user, issue_id)

    def list_issues(self, user_id: str, status: str | None = None, *, include_merged: bool = False,
                    offset: int = 0, limit: int | None = None) -> list[IssueView]:
        """The user's issues, oldest first; ``status`` filters (candidate/open/resolved/ignored/expired)."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.list_issues(conn, self.tenant, user, status, include_merged=include_merged,
                                       offset=offset, limit=limit)

    def issue_page(self, user_id: str, *, offset: int = 0, limit: int = 50) -> tuple[list[IssueView], dict[str, int]]:
        """One page of the user's issues, open first (see :func:`page_issues`), and the counts
        per status. The cost does not depend on how many issues the user has."""
        user = check_name(user_id, "user_id")
        offset, limit = max(0, int(offset)), max(1, min(int(limit), 500))
        with self._read() as conn:
            return (queries.page_issues(conn, self.tenant, user, offset, limit),
                    queries.status_counts(conn, self.tenant, user))

    def count_issues(self, user_id: str, status: str | None = None) -> int:
        """How many (unmerged) issues the user has, optionally of one status."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.count_issues(conn, self.tenant, user, status)

    def show(self, user_id: str, issue_id: str) -> IssueDetail:
        """One issue (full id or unambiguous prefix) with its keys, detections and event history."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            full = queries.resolve_id(conn, self.tenant, user, issue_id)
            return queries.show_issue(conn, self.tenant, user, full)

    def timeline(self, user_id: str) -> list[dict[str, Any]]:
        """Per-session points for charts: new issues surfaced, open and resolved after it, regressions."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.timeline(conn, self.tenant, user)

    def users(self) -> list[str]:
        """Users of this tenant that have data."""
        with self._read() as conn:
            return queries.user_names(conn, self.tenant)

    def session_summaries(self, user_id: str, *, limit: int = 50) -> list[dict[str, Any]]:
        """Per session (the last ``limit``, oldest first): new, deferred, continuing, improved,
        regressed and resolved counts, and the open/resolved totals after it."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.session_summaries(conn, self.tenant, user, max(1, min(int(limit), 500)))

    def latest_report(self, user_id: str) -> SessionReport | None:
        """The report of the user's latest session (None before the first)."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.latest_report(conn, self.tenant, user)

    def latest_markers(self, user_id: str) -> dict[str, str]:
        """Issue id -> ``new``/``continuing``/``improved``/``regressed``/``resolved``/``deferred``:
        what the user's latest session did to each issue it touched."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.latest_markers(conn, self.tenant, user)

    def issue_timelines(self, user_id: str, issue_ids: Sequence[str], *, sessions: int = 12) -> dict[str, Any]:
        """Per issue, what each of the last ``sessions`` sessions did to it (a marker or None):
        the data of the dashboard's one-line-per-issue timeline."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            return queries.issue_timelines(conn, self.tenant, user, list(issue_ids), sessions)

    def user_summaries(self, *, offset: int = 0, limit: int = 50) -> tuple[list[dict[str, Any]], int]:
        """A page of users with counts, last session and its regressions; and how many users there are."""
        with self._read() as conn:
            return (queries.user_summaries(conn, self.tenant, max(0, int(offset)), max(1, min(int(limit), 500))),
                    queries.count_users(conn, self.tenant))

    def export(self) -> Iterator[dict[str, Any]]:
        """Everything of this tenant as JSON-ready dicts (``type``: ruleset/user/session/issue/key/
        detection/event); :meth:`import_rows` restores it exactly."""
        with self._read() as conn:
            yield from queries.export_rows(conn, self.tenant)

    def similar(self, user_id: str, issue_id: str, *, limit: int = 5) -> list[SimilarIssue]:
        """The user's issues most similar to ``issue_id``, best first (suggestions: nothing is merged)."""
        user = check_name(user_id, "user_id")
        with self._read() as conn:
            full = queries.resolve_id(conn, self.tenant, user, issue_id)
            return similar_issues(conn, self.tenant, user, full, limit=limit, matcher=self.matcher,
                                  timeout=self.config.matcher_timeout, ruleset=self.ruleset,
                                  detection_match=self._threshold("detection_match"))

    # -- user actions ---------------------------------------------------------------------

    def _user_event(self, user_id: str, issue_id: str, ev: Event, actor: str, reason: str | None) -> IssueView:
        check_name(actor, "actor")
        full = self.resolve_id(user_id, issue_id)

        def run(tx: Transaction) -> IssueView:
            issue = tx.get(full)
            if issue["merged_into"] is not None:
                raise MergeError(f"issue {full} was merged into {issue['merged_into']}; act on that issue "
                                 "or unmerge first", japanese=f"この課題は {issue['merged_into'][:12]} に統合"
                                 "されています。統合先の課題を操作するか、先に統合を解除してください")
            tx.apply(full, ev, actor=actor, reason=reason or f"{ev.value} by {actor}")
            issue["clock_seq"] = max(issue["clock_seq"], tx.last_seq)  # misses count from now on
            return issue_view(issue)

        return self._in_user_tx(user_id, run)

    def ignore(self, user_id: str, issue_id: str, *, actor: str = "user", reason: str | None = None) -> IssueView:
        """Dismiss an issue for good (sticky: later detections are recorded, the status stays)."""
        return self._user_event(user_id, issue_id, Event.IGNORE, actor, reason)

    def reopen(self, user_id: str, issue_id: str, *, actor: str = "user", reason: str | None = None) -> IssueView:
        """Put an ignored, resolved, expired or candidate issue back on the open list."""
        return self._user_event(user_id, issue_id, Event.REOPEN, actor, reason)

    def merge(self, user_id: str, target_id: str, source_ids: Sequence[str], *, actor: str = "user",
              reason: str | None = None) -> IssueView:
        """Fold ``source_ids`` into ``target_id``: their keys become aliases of the target and their
        detections count for it. Reversible exactly with :meth:`unmerge`. The pair of keys is
        remembered for the tenant: another user's issues with the same two keys get each other as
        a suggestion (``confirmed_elsewhere``), never an automatic link."""
        check_name(actor, "actor")
        sources = [source_ids] if isinstance(source_ids, str) else list(source_ids)
        target = self.resolve_id(user_id, target_id)
        full = [self.resolve_id(user_id, s) for s in sources]

        def run(tx: Transaction) -> IssueView:
            keys = [tx.get(i)["key"] for i in full]
            merge_into(tx, target, full, actor=actor, reason=reason)
            record_merge_hints(tx.conn, self.tenant, tx.get(target)["key"], keys, actor=actor, at=tx.at)
            return issue_view(tx.get(target))

        return self._in_user_tx(user_id, run)

    def unmerge(self, user_id: str, issue_id: str, *, actor: str = "user") -> list[IssueView]:
        """Undo merges: of ``issue_id`` if it was merged away, else of everything merged into it.
        Restores keys, detections, status and counters of the originals."""
        check_name(actor, "actor")
        full = self.resolve_id(user_id, issue_id)

        def run(tx: Transaction) -> list[str]:
            return unmerge_issue(tx, full, actor=actor)

        restored = self._in_user_tx(user_id, run)
        with self._read() as conn:
            return [queries.show_issue(conn, self.tenant, user_id, i).issue for i in restored]

    def migrate(self, ruleset: Ruleset, *, apply: bool = False, allow_splits: bool = False) -> dict[str, Any]:
        """Recompute keys under ``ruleset`` from stored detection texts; report merges and splits.
        With ``apply=True`` carry them out (old keys kept as aliases, statuses carried) and make
        ``ruleset`` this tenant's active ruleset. A plan that splits an issue (moves part of one
        user's history to another issue) is applied only with ``allow_splits=True``, after a
        person has read the dry run: otherwise :class:`MigrationNeedsReview` is raised."""
        users = self.users()
        with self._read() as conn:
            plan = migrate_tenant(conn, self.tenant, self.ruleset, users, ruleset, apply=False)
        if not apply:
            return plan
        if plan["summary"]["splits"] and not allow_splits:
            raise MigrationNeedsReview(
                f"the migration splits {plan['summary']['splits']} issue(s); read the dry run "
                "(without --apply) and apply again with --allow-splits")

        def run(conn: Connection) -> dict[str, Any]:
            applied = migrate_tenant(conn, self.tenant, self.ruleset, users, ruleset, apply=True)
            set_active_ruleset(conn, self.tenant, ruleset)
            return applied

        applied = self._write(users or ["\x00tenant"], run)
        self.ruleset, self._active = ruleset, None  # the next write reads the new row's stamp
        return applied

    # -- ruleset tooling ------------------------------------------------------------------

    def lint_ruleset(self, ruleset: Ruleset | None = None) -> list[LintFinding]:
        """Tokens of ``ruleset`` (default: the active one) that merge stored findings about
        different subjects."""
        with self._read() as conn:
            texts = stored_texts(conn, self.tenant)
        return lint_ruleset(ruleset or self.ruleset, texts)

    def suggest_patterns(self, *, limit: int = 20) -> list[Suggestion]:
        """Frequent content words of stored findings no pattern covers (for a person to review)."""
        with self._read() as conn:
            texts = stored_texts(conn, self.tenant)
        return suggest_patterns(self.ruleset, texts, limit=limit)

    # -- erasure and restore --------------------------------------------------------------

    def delete_user(self, user_id: str, *, actor: str = "user") -> dict[str, int]:
        """Erase every finding, issue, key, event and session of one user (right to erasure).
        The erasure itself is logged as a tenant event without any content; returns row counts."""
        user = check_name(user_id, "user_id")
        check_name(actor, "actor")
        return self._write([user], lambda conn: delete_user_rows(conn, self.tenant, user, actor, to_iso(None)))

    def import_rows(self, rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
        """Restore rows written by :meth:`export` (into this tenant; users must not exist yet)."""
        data = list(rows)
        users = sorted({str(r["user_id"]) for r in data if isinstance(r, Mapping) and "user_id" in r})
        counts = self._write(users or ["\x00tenant"], lambda conn: import_rows(conn, self.tenant, data))
        stored = self._stored_ruleset()
        if stored is not None:
            self.ruleset = stored
        return counts
