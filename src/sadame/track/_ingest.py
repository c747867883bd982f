"""One session's ingest as a short pipeline of named steps.

``parse_insights`` (validation, before the transaction) -> :func:`replay` (idempotency)
-> :func:`start` -> :func:`link_findings` -> :func:`apply_lifecycle` -> :func:`progress`
-> :func:`persist_report`. Every finding is linked by the one function :func:`link`
(exact key, then alias, then the semantic matcher); the other steps only read its answer.

Concurrency: the caller runs all of it in one transaction that holds the per-user lock
(see :mod:`sadame.track._tracker`), so the idempotency check, the sequence number and the
key lookups are race-free. Cost per session does not grow with history: keys are looked
up by digest, only the previous session's detections are read for progress, and only
issues due to change (``clock_seq`` reached a limit) are fetched through an index.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from sadame.db._raw import RawCursor
from sadame.lang._change import has_return_cue
from sadame.track._errors import InvalidInsight, SessionConflict
from sadame.track._improvement import improvement_target, returning_issue
from sadame.track._lifecycle import Event, Status
from sadame.track._matching import IssueMatcher, MatchCandidate, Purpose, safe_match, tokens_match
from sadame.track._ruleset import (
    Ruleset,
    finding_kind,
    is_positive,
    issue_id,
    issue_key,
    issue_tokens,
    key_tokens,
    normalize_issue_text,
)
from sadame.track._transaction import ISSUE_COLUMNS, Transaction
from sadame.track._views import LinkTier, Outcome, ReportEntry, SessionReport, TransitionEntry

__all__ = [
    "MAX_INSIGHTS",
    "MAX_TEXT",
    "Ahead",
    "IngestRun",
    "IngestSettings",
    "Insight",
    "Linked",
    "apply_lifecycle",
    "ingest_session",
    "link",
    "link_findings",
    "parse_insights",
    "persist_report",
    "prefetch",
    "progress",
    "replay",
    "replay_stored",
    "send_ahead",
    "start",
]

MAX_INSIGHTS = 1000
MAX_TEXT = 10_000
#: What the new-issue cap assumes for a finding without a confidence.
NEUTRAL_CONFIDENCE = 0.5

# Run on the driver's cursor (``tx.raw``, see sadame.db._raw): each is one statement per session.
_WHERE = "tenant_id = ? AND user_id = ?"
SELECT_SESSION = f"SELECT report, seq FROM track_sessions WHERE {_WHERE} AND session_id = ?"
#: A session's first read, one statement instead of three: the session if it was stored
#: (replay), the identity of the tenant's active ruleset and the user's counters. Each is at
#: most one row, found by its primary or unique key (outer joins of a one-row select). Its row:
#: ``(report, seq)`` of the stored session (None, None when it is new), ``(version, created_at)``
#: of the active ruleset, ``(last_seq, counts)`` of the user.
SELECT_HEAD = ("SELECT s.report, s.seq, r.version, r.created_at, u.last_seq, u.counts FROM (SELECT 1 AS one) o "
               "LEFT JOIN track_sessions s ON s.tenant_id = ? AND s.user_id = ? AND s.session_id = ? "
               "LEFT JOIN track_rulesets r ON r.tenant_id = ? AND r.active = 1 "
               "LEFT JOIN track_users u ON u.tenant_id = ? AND u.user_id = ?")
SELECT_SESSION_INPUT = (f"SELECT text, kind, confidence FROM track_detections WHERE {_WHERE} AND seq = ? "
                        "ORDER BY position")
# no issue_id test: it made SQLite pick the issue index
SELECT_PREVIOUS = (f"SELECT text, key, issue_id, outcome FROM track_detections WHERE {_WHERE} AND seq = ? "
                   "AND kind = 'issue' ORDER BY position")
SELECT_KEYS = f"SELECT key_digest, issue_id, kind FROM track_keys WHERE {_WHERE} AND key_digest IN (?*)"
# Both kinds of due issue in one statement, whole rows (so no second read): open issues missed
# enough sessions to resolve, candidates missed enough to expire.
SELECT_DUE = (f"SELECT {', '.join(ISSUE_COLUMNS)} FROM track_issues WHERE {_WHERE} AND merged_into IS NULL "
              f"AND ((status = '{Status.OPEN.value}' AND clock_seq <= ?) "
              f"OR (status = '{Status.CANDIDATE.value}' AND clock_seq <= ?)) ORDER BY clock_seq, id")
# every unmerged issue, for the matcher and the improvement/return cues (not run without them)
# The same two reads sent with the session's first read (see send_ahead), before its sequence number
# is known: the user's last_seq read in the statement (a one-row primary-key lookup; no user, no rows).
_LAST = f"(SELECT last_seq FROM track_users WHERE {_WHERE})"
SELECT_PREVIOUS_AHEAD = (f"SELECT text, key, issue_id, outcome FROM track_detections WHERE {_WHERE} AND seq = {_LAST} "
                         "AND kind = 'issue' ORDER BY position")
SELECT_DUE_AHEAD = (f"SELECT {', '.join(ISSUE_COLUMNS)} FROM track_issues WHERE {_WHERE} AND merged_into IS NULL "
                    f"AND ((status = '{Status.OPEN.value}' AND clock_seq <= {_LAST} + ?) "
                    f"OR (status = '{Status.CANDIDATE.value}' AND clock_seq <= {_LAST} + ?)) ORDER BY clock_seq, id")
_DUE_ID, _DUE_STATUS = ISSUE_COLUMNS.index("issue_id"), ISSUE_COLUMNS.index("status")
SELECT_POOL = f"SELECT issue_id, title, key, status FROM track_issues WHERE {_WHERE} AND merged_into IS NULL ORDER BY id"
_DETECTION_COLUMNS = ("tenant_id", "user_id", "session_id", "seq", "position", "text", "kind", "confidence", "key",
                      "issue_id", "tier", "link_confidence", "outcome", "at")
INSERT_DETECTION = (f"INSERT INTO track_detections ({', '.join(_DETECTION_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(_DETECTION_COLUMNS))})")
INSERT_SESSION = ("INSERT INTO track_sessions (tenant_id, user_id, session_id, seq, at, ruleset_version, n_new, "
                  "n_open, n_resolved, n_regressions, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


@dataclass(frozen=True)
class Insight:
    """One finding of a session: ``kind`` is ``issue`` (a problem) or ``improvement``."""

    text: str
    confidence: float | None = None
    kind: str = "issue"


# -- step 1: parse -------------------------------------------------------------------------


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


def _parse_one(item: object, where: str) -> Insight:
    if isinstance(item, str):
        return Insight(_check_text(item, where))
    if not isinstance(item, Mapping):
        raise InvalidInsight(f"{where}: must be a string or an object, got {type(item).__name__}")
    unknown = set(item) - {"text", "confidence", "kind"}
    if unknown:
        raise InvalidInsight(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    if "text" not in item:
        raise InvalidInsight(f"{where}: text is required")
    conf = item.get("confidence")
    if conf is not None and (isinstance(conf, bool) or not isinstance(conf, int | float) or not 0 <= conf <= 1):
        raise InvalidInsight(f"{where}: confidence must be a number in [0, 1], got {conf!r}")
    kind = item.get("kind", "issue")
    if kind not in ("issue", "improvement"):
        raise InvalidInsight(f"{where}: kind must be 'issue' or 'improvement', got {kind!r}")
    return Insight(_check_text(item["text"], where), None if conf is None else float(conf), kind)


def parse_insights(insights: object) -> list[Insight]:
    """Validate ingest input: a list of strings or ``{text, confidence?, kind?}`` mappings."""
    if isinstance(insights, str | bytes) or not isinstance(insights, Sequence):
        raise InvalidInsight("insights must be a list of strings or {text, confidence?, kind?} objects")
    if len(insights) > MAX_INSIGHTS:
        raise InvalidInsight(f"at most {MAX_INSIGHTS} insights per session, got {len(insights)}")
    return [_parse_one(item, f"insights[{i}]") for i, item in enumerate(insights)]


# -- step 2: replay ------------------------------------------------------------------------


def replay(conn: Connection, tenant: str, user: str, session: str, insights: list[Insight]) -> SessionReport | None:
    """The stored report when this session was ingested before with the same findings; raises
    :class:`SessionConflict` when the session id was used with different findings."""
    row = RawCursor.of(conn).first(SELECT_SESSION, (tenant, user, session))
    return None if row is None else replay_stored(conn, tenant, user, session, insights, row[0], row[1])


def replay_stored(conn: Connection, tenant: str, user: str, session: str, insights: list[Insight],
                  report: str, seq: int) -> SessionReport:
    """:func:`replay` of a session whose stored ``report`` and ``seq`` were read already."""
    raw = RawCursor.of(conn)
    stored = [(r[0], r[1], r[2]) for r in raw.rows(SELECT_SESSION_INPUT, (tenant, user, seq))]
    given = [(i.text, i.kind, i.confidence) for i in insights]
    if stored != given:
        raise SessionConflict(f"session {session!r} of user {user!r} was already ingested with different "
                              f"findings ({len(stored)} stored, {len(given)} given); use a new session id")
    found = SessionReport.from_dict(json.loads(report))
    found.replayed = True
    return found


# -- step 3: start -------------------------------------------------------------------------


@dataclass(frozen=True)
class IngestSettings:
    """The numbers and hooks one ingest runs with (thresholds already resolved)."""

    token_overlap: float
    open_confidence: float
    detection_match: float
    improvement_match: float
    max_new: int
    miss_sessions_to_resolve: int = 2
    candidate_expiry_sessions: int = 3
    matcher: IssueMatcher | None = None
    matcher_timeout: float | None = None


@dataclass
class Linked:
    """A finding after :func:`link_findings`: its key and the issue it belongs to."""

    position: int
    insight: Insight
    key: str
    tier: LinkTier
    target: str | None = None
    link_confidence: float | None = None
    created: bool = False  #: this finding created ``target``
    reason: str | None = None  #: why it was filtered (``empty``, ``positive``, ``contradicted``)
    outcome: Outcome = Outcome.FILTERED
    improvement: bool = False  #: an improvement (kind improvement, or said so in words)
    returning: bool = False  #: a problem that says it is back (また, 再び): a gap since last seen is 再発
    tokens: list[str] = field(default_factory=list)  #: the key's tokens (``issue_tokens``), read once


@dataclass
class IngestRun:
    """The state of one session's ingest, handed from step to step."""

    tx: Transaction
    session: str
    seq: int
    settings: IngestSettings
    report: SessionReport
    previous: list[tuple[str, str, str, list[str]]] = field(default_factory=list)  #: text, key, issue, tokens
    links: dict[str, tuple[str, str]] = field(default_factory=dict)  #: key digest -> (issue, kind)
    candidates: list[MatchCandidate] | None = None
    touched: set[str] = field(default_factory=set)
    improved: set[str] = field(default_factory=set)  #: issues an improvement finding named this session
    keyed: tuple[list[str], list[str]] | None = None  #: the findings' normalized texts and keys (see prefetch)
    due: list[Any] | None = None  #: the issues due to change, read by :func:`prefetch` (else by the lifecycle step)

    @property
    def ruleset(self) -> Ruleset:
        return self.tx.ruleset


def start(tx: Transaction, session: str, settings: IngestSettings, *, read: bool = True) -> IngestRun:
    """Take the next sequence number and read the previous session's surfaced findings
    (``read=False``: :func:`prefetch` reads them)."""
    seq = tx.last_seq = tx.last_seq + 1
    report = SessionReport(user_id=tx.user, session_id=session, at=tx.at, seq=seq, ruleset_version=tx.ruleset.version)
    run = IngestRun(tx, session, seq, settings, report)
    if read and seq > 1:
        _keep_previous(run, tx.raw.rows(SELECT_PREVIOUS, (*tx.scope_args, seq - 1)))
    return run


def _keep_previous(run: IngestRun, rows: Sequence[Any]) -> None:
    for text, key, iid, outcome in rows:
        # the user never saw a deferred one; an improvement or a filtered finding names no problem
        if iid is not None and outcome not in (Outcome.DEFERRED, Outcome.IMPROVEMENT, Outcome.FILTERED):
            run.previous.append((text, key, iid, issue_tokens(text, run.ruleset)))


def _keyed(run: IngestRun, insights: Sequence[Insight]) -> tuple[list[str], list[str]]:
    """Each finding's normalized text and key (each text normalized once)."""
    if run.keyed is None:
        norms = [normalize_issue_text(ins.text, run.ruleset) for ins in insights]
        run.keyed = norms, [n or issue_key(ins.text, run.ruleset) for ins, n in zip(insights, norms, strict=True)]
    return run.keyed


def _due_args(run: IngestRun) -> tuple[Any, ...]:
    s = run.settings
    return (*run.tx.scope_args, run.seq - s.miss_sessions_to_resolve, run.seq - s.candidate_expiry_sessions)


def prefetch(run: IngestRun, insights: Sequence[Insight]) -> None:
    """The reads that need nothing but the sequence number and the keys, sent together: the
    previous session's findings, the findings' keys and the issues due to change. On PostgreSQL's
    pipeline that is one round trip instead of three; on SQLite the same three statements."""
    tx = run.tx
    digests = sorted({issue_id(k) for k in _keyed(run, insights)[1]})
    previous = tx.raw.send(SELECT_PREVIOUS, (*tx.scope_args, run.seq - 1)) if run.seq > 1 else None
    keys = tx.raw.send(SELECT_KEYS, tx.scope_args, digests) if digests else None
    due = tx.raw.send(SELECT_DUE, _due_args(run))
    if previous is not None:
        _keep_previous(run, tx.raw.fetch(previous))
    if keys is not None:
        run.links = {r[0]: (r[1], r[2]) for r in tx.raw.fetch(keys)}
    run.due = tx.raw.fetch(due)


@dataclass
class Ahead:
    """Reads sent with a session's first read (:func:`send_ahead`), fetched by :func:`ingest_session`."""

    ruleset: Ruleset  #: the ruleset the keys were made with
    keyed: tuple[list[str], list[str]]
    previous: Any
    keys: Any
    due: Any

    def drain(self, raw: RawCursor) -> None:
        """Fetch and drop the rows (a replayed session needs none of them)."""
        for sent in (self.previous, self.keys, self.due):
            if sent is not None:
                raw.fetch(sent)


def send_ahead(raw: RawCursor, tenant: str, user: str, insights: Sequence[Insight], ruleset: Ruleset,
               miss_sessions: int, expiry_sessions: int) -> Ahead:
    """:func:`prefetch`'s three reads, sent before the session's first read is fetched (the
    sequence number comes from the user's row inside each statement; the keys are made with the
    tracker's ruleset, and made and read again if the first read finds the active one changed):
    on PostgreSQL's pipeline the first read and these share one round trip."""
    norms = [normalize_issue_text(ins.text, ruleset) for ins in insights]
    keys = [n or issue_key(ins.text, ruleset) for ins, n in zip(insights, norms, strict=True)]
    digests = sorted({issue_id(k) for k in keys})
    scope = (tenant, user)
    return Ahead(ruleset, (norms, keys), raw.send(SELECT_PREVIOUS_AHEAD, (*scope, *scope)),
                 raw.send(SELECT_KEYS, scope, digests) if digests else None,
                 raw.send(SELECT_DUE_AHEAD, (*scope, *scope, 1 - miss_sessions, *scope, 1 - expiry_sessions)))


def _take_ahead(run: IngestRun, ahead: Ahead) -> None:
    raw = run.tx.raw
    _keep_previous(run, raw.fetch(ahead.previous))
    links = {r[0]: (r[1], r[2]) for r in raw.fetch(ahead.keys)} if ahead.keys is not None else {}
    if ahead.ruleset is run.ruleset:
        run.keyed, run.links = ahead.keyed, links  # else link_findings keys and reads them again
    run.due = raw.fetch(ahead.due)


# -- step 4: link --------------------------------------------------------------------------


def _semantic_pool(run: IngestRun) -> list[MatchCandidate]:
    tx = run.tx
    if run.candidates is None:
        run.candidates = [MatchCandidate(r[0], r[1], r[2], r[3]) for r in tx.raw.rows(SELECT_POOL, tx.scope_args)]
    fresh = [MatchCandidate(i, tx.issues[i]["title"], tx.issues[i]["key"], tx.issues[i]["status"])
             for i in sorted(tx.new_ids)]
    return run.candidates + fresh


def resolve_merged(tx: Transaction, iid: str) -> str:
    """Follow ``merged_into`` to the issue that absorbed ``iid``."""
    seen: set[str] = set()
    while True:
        issue = tx.get(iid)
        if issue["merged_into"] is None or iid in seen:
            return iid
        seen.add(iid)
        iid = issue["merged_into"]


def link(run: IngestRun, text: str, key: str, purpose: Purpose) -> tuple[str | None, LinkTier, float | None]:
    """The one linking function: exact key, then alias, then the matcher above its threshold.
    Returns ``(issue, tier, confidence)``; ``(None, NONE, confidence-if-any)`` when nothing links."""
    found = run.links.get(issue_id(key))
    if found is not None:
        tier = LinkTier.EXACT if found[1] == "primary" else LinkTier.ALIAS
        return resolve_merged(run.tx, found[0]), tier, 1.0
    s = run.settings
    if s.matcher is None:
        return None, LinkTier.NONE, None
    result, warning = safe_match(s.matcher, text, _semantic_pool(run), purpose=purpose, timeout=s.matcher_timeout)
    if warning:
        run.report.warnings.append(warning)
    limit = s.detection_match if purpose == "detection" else s.improvement_match
    if result is None or result.confidence < limit:
        return None, LinkTier.NONE, None if result is None else result.confidence
    return resolve_merged(run.tx, result.issue_id), LinkTier.SEMANTIC, result.confidence


def _link_one(run: IngestRun, position: int, ins: Insight, key: str, norm: str) -> Linked:
    rs = run.ruleset
    if ins.kind == "issue" and not norm:
        return Linked(position, ins, key, LinkTier.FILTERED, reason="empty")
    improvement = ins.kind == "improvement"
    if ins.kind == "issue" and is_positive(ins.text, rs):
        if finding_kind(ins.text, rs) != "improvement":
            return Linked(position, ins, key, LinkTier.FILTERED, reason="positive")
        improvement = True  # an improvement said in words: linked to the issue it improves, never new
    purpose: Purpose = "improvement" if improvement else "detection"
    returning = not improvement and has_return_cue(ins.text)
    target, tier, conf = link(run, ins.text, key, purpose)
    if target is None and (improvement or returning):
        pool = _semantic_pool(run)
        found = improvement_target(ins.text, pool, rs) if improvement else returning_issue(ins.text, pool, rs)
        if found is not None:
            target, tier, conf = resolve_merged(run.tx, found[0]), LinkTier.SIMILAR, found[1]
    if target is not None or improvement:
        return Linked(position, ins, key, tier, target, conf, improvement=improvement, returning=returning,
                      outcome=Outcome.IMPROVEMENT if improvement else Outcome.FILTERED)
    issue = run.tx.create(key, ins.text, run.seq, run.session,
                          reason=f"first detection in session {run.session}")
    run.links[issue_id(key)] = (issue["issue_id"], "primary")
    run.tx.add_key(key, issue["issue_id"])
    return Linked(position, ins, key, LinkTier.NEW, issue["issue_id"], None, created=True)


def link_findings(run: IngestRun, insights: Sequence[Insight]) -> list[Linked]:
    """Key every finding, look the keys up in one query, and link each finding (creating an
    issue for a problem nothing links to)."""
    tx, prefetched = run.tx, run.keyed is not None
    norms, keys = _keyed(run, insights)
    digests = sorted({issue_id(k) for k in keys})
    if digests and not prefetched:
        run.links = {r[0]: (r[1], r[2]) for r in tx.raw.rows(SELECT_KEYS, tx.scope_args, digests)}
    # one query for linked issues, previous session's issues and ids new keys would take
    tx.load(sorted({v[0] for v in run.links.values()} | {p[2] for p in run.previous} | set(digests)))
    linked = [_link_one(run, pos, ins, key, norm)
              for pos, (ins, key, norm) in enumerate(zip(insights, keys, norms, strict=True))]
    for item, norm in zip(linked, norms, strict=True):
        item.tokens = key_tokens(norm)
    return linked


# -- step 5: apply lifecycle ---------------------------------------------------------------


def _redetect(run: IngestRun, item: Linked) -> None:
    """An existing issue seen again: count it, move its status, say how it came out."""
    assert item.target is not None
    tx, iid = run.tx, item.target
    issue = tx.get(iid)
    before = issue["status"]
    # a return cue after a gap (absent or improved since last seen) is a regression, even of an open issue
    gap = item.returning and issue["last_seen_seq"] is not None and issue["last_seen_seq"] < run.seq - 1
    issue.update(occurrence_count=issue["occurrence_count"] + 1, last_detected_at=tx.at,
                 last_session_id=run.session, last_seen_seq=run.seq, clock_seq=run.seq)
    tx.dirty.add(iid)
    conf = item.insight.confidence
    confident = conf is not None and conf >= run.settings.open_confidence
    back = before in (Status.RESOLVED, Status.EXPIRED)  # 再発: resolved or expired, found again
    tx.apply(iid, Event.RETURN if back else Event.CONFIRM if confident else Event.REDETECT, actor="tracker",
             session_id=run.session, reason=f"detected again in session {run.session} ({item.tier.value})")
    if issue["status"] == Status.IGNORED:
        item.outcome = Outcome.IGNORED
        return
    item.outcome = Outcome.REMAINING
    if (back or gap) and issue["status"] == Status.OPEN:
        run.report.regressions.append(_entry(run, item))


def _rank_confidence(insight: Insight) -> float:
    """The confidence the cap orders by; a finding that gives none counts as an even 0.5."""
    return NEUTRAL_CONFIDENCE if insight.confidence is None else insight.confidence


def _surface_new(run: IngestRun, created: list[Linked]) -> None:
    """New issues: one of last session's family is ``remaining``; of the rest the most confident
    ``max_new`` are surfaced (no confidence counts as 0.5; ties in input order), the others are deferred candidates."""
    fresh: list[Linked] = []
    for item in created:
        family = any(tokens_match(p[3], item.tokens, run.settings.token_overlap) for p in run.previous)
        item.outcome = Outcome.REMAINING if family else Outcome.DEFERRED
        if not family:
            fresh.append(item)
    fresh.sort(key=lambda i: (-_rank_confidence(i.insight), i.position))
    for item in fresh[: run.settings.max_new]:
        item.outcome = Outcome.NEW
    for item in created:
        assert item.target is not None
        run.tx.get(item.target)["occurrence_count"] += 1
        conf = item.insight.confidence
        if item.outcome != Outcome.DEFERRED and conf is not None and conf >= run.settings.open_confidence:
            run.tx.apply(item.target, Event.CONFIRM, actor="tracker", session_id=run.session,
                         reason=f"first detection with confidence {conf:.2f}")


def _improve(run: IngestRun, item: Linked) -> None:
    """An improvement finding: resolve the issue it names, unless that issue was detected now."""
    if item.target is None:
        return
    if item.target in run.improved:
        item.outcome = Outcome.DUPLICATE
        return
    if item.target in run.touched:
        item.outcome, item.reason = Outcome.FILTERED, "contradicted"
        return
    run.improved.add(item.target)
    assert item.link_confidence is not None
    if item.link_confidence < run.settings.improvement_match:
        return  # evidence only (a lexical link): the issue's misses run on toward resolving it
    run.touched.add(item.target)
    run.tx.apply(item.target, Event.IMPROVE, actor="tracker", session_id=run.session, strict=False,
                 reason=f"improvement matched ({item.tier.value}, confidence {item.link_confidence:.2f})")


def _expire_absent(run: IngestRun) -> None:
    """Absence: open issues missed N sessions resolve, candidates missed M sessions expire."""
    tx, s = run.tx, run.settings
    rows = tx.raw.rows(SELECT_DUE, _due_args(run)) if run.due is None else run.due
    for r in rows:
        tx.keep(r)
    for status, limit, ev in ((Status.OPEN, s.miss_sessions_to_resolve, Event.MISS_LIMIT),
                              (Status.CANDIDATE, s.candidate_expiry_sessions, Event.EXPIRE)):
        due = [r[_DUE_ID] for r in rows if r[_DUE_STATUS] == status]
        for iid in due:
            if iid in run.touched or tx.issues[iid]["status"] != status.value:
                continue
            tx.apply(iid, ev, actor="tracker", session_id=run.session,
                     reason=f"not detected in the last {limit} session(s)")


def apply_lifecycle(run: IngestRun, linked: list[Linked]) -> None:
    """Move every linked issue through the lifecycle; set each finding's outcome."""
    created: list[Linked] = []
    for item in linked:
        if item.tier == LinkTier.FILTERED or item.outcome == Outcome.IMPROVEMENT:
            continue
        assert item.target is not None
        if item.target in run.touched:
            item.outcome = Outcome.DUPLICATE
        elif item.created:
            run.touched.add(item.target)
            created.append(item)
        else:
            run.touched.add(item.target)
            _redetect(run, item)
    _surface_new(run, created)
    for item in linked:
        if item.outcome == Outcome.IMPROVEMENT:
            _improve(run, item)
    _expire_absent(run)


# -- step 6: progress ----------------------------------------------------------------------


def progress(run: IngestRun, linked: list[Linked]) -> None:
    """The seed's "improvements", reported as ``absent`` (今回は指摘なし): previous findings that no
    current finding shares tokens with, unless their issue was linked in this session by another
    route (alias, matcher, an improvement). Not being mentioned is not an improvement."""
    current = [i.tokens for i in linked
               if i.outcome != Outcome.IMPROVEMENT and i.tier != LinkTier.FILTERED]
    listed: set[str] = set()
    resolved_now = {e["issue_id"] for e in run.tx.events if e["to_state"] == Status.RESOLVED}
    for text, key, iid, tokens in run.previous:
        target = resolve_merged(run.tx, iid)
        if target in run.touched or target in listed or target in run.improved:
            continue
        if any(tokens_match(tokens, cur, run.settings.token_overlap) for cur in current):
            continue
        listed.add(target)
        entry = ReportEntry(text=text, key=key, issue_id=target, source="progress",
                            status=run.tx.issues[target]["status"])
        # 今回は指摘なし, or 解決 when this session's absence resolved it (one state per issue)
        resolved = entry.status == Status.RESOLVED and target in resolved_now
        (run.report.resolved if resolved else run.report.absent).append(entry)
    for event in run.tx.events:  # resolved by absence, not among last session's findings
        iid = event["issue_id"]
        if event["event"] == Event.MISS_LIMIT and iid not in listed and iid not in run.improved:  # 改善 wins
            listed.add(iid)
            issue = run.tx.issues[iid]
            run.report.resolved.append(ReportEntry(text=issue["title"], key=issue["key"], issue_id=iid,
                                                   source="progress", status=issue["status"]))



# -- step 7: persist the report ------------------------------------------------------------


def _entry(run: IngestRun, item: Linked) -> ReportEntry:
    status = None if item.target is None else run.tx.get(item.target)["status"]
    return ReportEntry(text=item.insight.text, key=item.key, issue_id=item.target, tier=item.tier,
                       confidence=item.insight.confidence, status=status,
                       link_confidence=None if item.created else item.link_confidence, reason=item.reason,
                       source="improvement" if item.improvement else None)


def _fill_lists(run: IngestRun, linked: list[Linked]) -> None:
    r = run.report
    lists = {Outcome.NEW: r.new, Outcome.REMAINING: r.remaining, Outcome.DEFERRED: r.deferred,
             Outcome.IGNORED: r.ignored, Outcome.DUPLICATE: r.duplicates, Outcome.FILTERED: r.filtered}
    improvements = []
    for item in linked:
        entry = _entry(run, item)
        if item.outcome == Outcome.IMPROVEMENT:
            improvements.append(entry)
        else:
            lists[item.outcome].append(entry)
    r.improvements[:0] = improvements
    for entry in r.regressions:  # statuses as they are at the end of the session
        entry.status = None if entry.issue_id is None else run.tx.get(entry.issue_id)["status"]


def _detection(run: IngestRun, item: Linked) -> tuple[Any, ...]:
    """One detection row, in the order of ``_DETECTION_COLUMNS``."""
    return (run.tx.tenant, run.tx.user, run.session, run.seq, item.position, item.insight.text, item.insight.kind,
            item.insight.confidence, item.key, item.target, _PLAIN_STR[item.tier],
            None if item.created else item.link_confidence, _PLAIN_STR[item.outcome], run.tx.at)


#: A tier or outcome as a plain ``str`` for the driver (``.value`` is a slower property).
_PLAIN_STR: dict[str, str] = {m: m.value for m in (*LinkTier, *Outcome)}


def persist_report(run: IngestRun, linked: list[Linked]) -> SessionReport:
    """Write detections, issues, events and the session row with its report."""
    tx, r = run.tx, run.report
    _fill_lists(run, linked)
    r.transitions = [TransitionEntry(e["issue_id"], e["event"], e["from_state"], e["to_state"], e["reason"])
                     for e in tx.events]
    tx.raw.insert(INSERT_DETECTION, [_detection(run, item) for item in linked])
    tx.flush()
    tx.raw.execute(INSERT_SESSION, (
        tx.tenant, tx.user, run.session, run.seq, tx.at, tx.ruleset.version, len(r.new), tx.counts.get("open", 0),
        tx.counts.get("resolved", 0), len(r.regressions), json.dumps(r, ensure_ascii=False, default=_fields)))
    return r


def _fields(value: Any) -> Any:
    """``json.dumps``'s hook for the report's dataclasses: their fields in declaration order (what
    ``dataclasses.asdict`` gives, without its deep copies; the enums are ``str``)."""
    if not hasattr(value, "__dataclass_fields__"):
        raise TypeError(f"cannot store {type(value).__name__} in a report")
    return value.__dict__


def ingest_session(tx: Transaction, session: str, insights: list[Insight], settings: IngestSettings,
                   ahead: Ahead | None = None) -> SessionReport:
    """The whole pipeline for one session inside ``tx`` (replay is checked by the caller;
    ``ahead``: the reads :func:`send_ahead` sent with it)."""
    run = start(tx, session, settings, read=False)
    if ahead is None:
        prefetch(run, insights)
    else:
        _take_ahead(run, ahead)
    linked = link_findings(run, insights)
    apply_lifecycle(run, linked)
    progress(run, linked)
    return persist_report(run, linked)
