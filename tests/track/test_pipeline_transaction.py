"""The ingest transaction on PostgreSQL: its BEGIN travels in the pipeline with the first reads
(``RawCursor.transaction_pipeline``, the connection in autocommit for the block). A session that
fails, on the server or in Python, must leave nothing written and its connection back in
psycopg's own transactions, so later work on the pooled connection is still atomic."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from sadame.track import Tracker
from sadame.track._errors import SessionConflict, TrackError
from sadame.track._views import TrackerConfig


def _pooled_autocommit(tracker: Tracker) -> bool:
    with tracker.engine.connect() as conn:
        return bool(conn.connection.dbapi_connection.autocommit)  # type: ignore[union-attr]


def _count(tracker: Tracker, sql: str) -> int:
    with tracker.engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar_one())


def test_a_session_the_server_refuses_leaves_nothing_and_the_connection_transactional(postgres_url: str) -> None:
    tracker = Tracker(postgres_url, tenant="t", config=TrackerConfig(retries=2))
    try:
        tracker.ingest("u", "s1", ["フォームが崩れる"])
        with tracker.engine.begin() as conn:  # the session row is the last write before COMMIT
            conn.execute(text("ALTER TABLE track_sessions ADD CONSTRAINT no_boom CHECK (session_id <> 'boom')"))
        before = (_count(tracker, "SELECT count(*) FROM track_detections"),
                  _count(tracker, "SELECT count(*) FROM track_issues"),
                  _count(tracker, "SELECT count(*) FROM track_events"))
        with pytest.raises(TrackError, match="conflict persisted"):
            tracker.ingest("u", "boom", ["膝が内側に入る", "フォームが崩れる"])
        after = (_count(tracker, "SELECT count(*) FROM track_detections"),
                 _count(tracker, "SELECT count(*) FROM track_issues"),
                 _count(tracker, "SELECT count(*) FROM track_events"))
        assert after == before
        assert _pooled_autocommit(tracker) is False
        with tracker.engine.connect() as conn:  # a plain write on the pooled connection rolls back
            conn.execute(text("UPDATE track_users SET last_seq = 999"))
            conn.rollback()
        assert _count(tracker, "SELECT max(last_seq) FROM track_users") == 1
        report = tracker.ingest("u", "s2", ["膝が内側に入る"])
        assert [e.text for e in report.new] == ["膝が内側に入る"]
    finally:
        tracker.close()


def test_a_session_refused_in_python_rolls_back_and_the_connection_transactional(postgres_url: str) -> None:
    tracker = Tracker(postgres_url, tenant="t")
    try:
        tracker.ingest("u", "s1", ["フォームが崩れる"])
        with pytest.raises(SessionConflict):
            tracker.ingest("u", "s1", ["膝が内側に入る"])
        assert _pooled_autocommit(tracker) is False
        assert _count(tracker, "SELECT count(*) FROM track_sessions") == 1
        assert tracker.ingest("u", "s1", ["フォームが崩れる"]).replayed
    finally:
        tracker.close()
