"""8 processes ingest overlapping sessions for the same users at once: no duplicate issues,
no lost occurrence counts, every session exactly once (SQLite and PostgreSQL)."""

from __future__ import annotations

import multiprocessing
from collections import Counter

import pytest
from sqlalchemy import func, select

from sadame.db import make_engine, upgrade
from sadame.track import Tracker, default_ruleset, is_positive, issue_key
from sadame.track._lifecycle import rebuild
from sadame.track._models import IssueRow, SessionRow
from sadame.track._ruleset import normalize_issue_text
from tests.track._workers import ingest_all, session_texts

USERS = ["alice", "bob", "carol"]
SESSIONS = [f"s{n}" for n in range(12)]


@pytest.mark.slow
def test_eight_processes_no_duplicates_no_lost_counts(db_url: str) -> None:
    upgrade(db_url)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(8) as pool:
        fresh = pool.starmap(ingest_all, [(db_url, w, USERS, SESSIONS) for w in range(8)])
    assert sum(fresh) == len(USERS) * len(SESSIONS)  # each session ingested exactly once overall

    rs = default_ruleset()
    engine = make_engine(db_url)
    with engine.connect() as conn:
        n_sessions = conn.execute(select(func.count()).select_from(SessionRow)).scalar()
        dupes = conn.execute(
            select(IssueRow.user_id, IssueRow.key, func.count()).group_by(IssueRow.user_id, IssueRow.key)
            .having(func.count() > 1)).all()
    engine.dispose()
    assert n_sessions == len(USERS) * len(SESSIONS)
    assert dupes == []
    tracker = Tracker(db_url, tenant="conc")
    for user in USERS:
        expected: Counter[str] = Counter()
        for session in SESSIONS:
            keys = {issue_key(t, rs) for t in session_texts(user, session)
                    if normalize_issue_text(t, rs) and not is_positive(t, rs)}
            expected.update(keys)
        views = tracker.list_issues(user)
        assert {v.key: v.occurrence_count for v in views} == dict(expected)
        for view in views:
            assert rebuild([e.to_dict() for e in tracker.show(user, view.issue_id).events]) == view.status
        assert [p["session_id"] for p in tracker.timeline(user)] != []
