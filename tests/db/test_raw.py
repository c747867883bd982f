"""The driver's cursor of hot paths (``sadame.db._raw``), on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.exc import DBAPIError, IntegrityError

from sadame.db import make_engine, upgrade
from sadame.db._raw import INSERT_CHUNK, RawCursor

INSERT = "INSERT INTO track_users (tenant_id, user_id, last_seq, counts, created_at) VALUES (?, ?, ?, '{}', 'now')"


def test_a_pipeline_reads_writes_and_raises_as_sqlalchemy_does(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    with engine.begin() as conn:
        raw = RawCursor(conn)
        with raw.pipeline():
            raw.many(INSERT, [("t", "a", 1), ("t", "b", 2)])
            raw.execute(INSERT, ("t", "c", 3))  # not fetched: sent with the read below
            assert raw.rows("SELECT user_id FROM track_users WHERE tenant_id = ? AND user_id IN (?*) ORDER BY 1",
                            ("t",), ["a", "c", "z"]) == [("a",), ("c",)]
            raw.execute("UPDATE track_users SET last_seq = ? WHERE tenant_id = ?", (7, "t"))
    with pytest.raises(IntegrityError), engine.begin() as conn:  # the duplicate fails at the end of the block
        raw = RawCursor(conn)
        with raw.pipeline():
            raw.execute(INSERT, ("t", "d", 1))
            raw.execute(INSERT, ("t", "a", 1))
    with engine.connect() as conn:
        assert RawCursor(conn).rows("SELECT user_id, last_seq FROM track_users ORDER BY 1") == [
            ("a", 7), ("b", 7), ("c", 7)]  # the failed transaction left nothing, not even "d"
    engine.dispose()


def test_one_cursor_per_connection_shared_by_the_steps_of_a_transaction(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    with engine.connect() as conn:
        with conn.begin():
            raw = RawCursor.of(conn)
            assert RawCursor.of(conn) is raw
            raw.execute(INSERT, ("t", "a", 1))
            assert RawCursor.of(conn).rows("SELECT user_id FROM track_users WHERE tenant_id = ? AND user_id IN (?*)",
                                           ("t",), ["a", "b"]) == [("a",)]
        conn.invalidate()  # the same Connection on a new driver connection: a cursor of that one
        with conn.begin():
            fresh = RawCursor.of(conn)
            assert fresh is not raw and fresh.rows("SELECT user_id FROM track_users") == [("a",)]
    engine.dispose()


def test_a_multi_row_insert_keeps_the_order_across_chunks_and_raises_as_sqlalchemy_does(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    sql = ("INSERT INTO track_events (tenant_id, user_id, issue_id, event, from_state, to_state, actor, reason, at, "
           "session_id, data) VALUES (?, ?, ?, 'create', NULL, 'candidate', 'tracker', ?, 'now', NULL, NULL)")
    rows = [("t", "u", f"i{n:03d}", None if n % 3 else f"reason {n}") for n in range(INSERT_CHUNK + 7)]
    with engine.begin() as conn:
        RawCursor.of(conn).insert(sql, rows)
        RawCursor.of(conn).insert(sql, rows[:1])  # one row: a plain execute
        RawCursor.of(conn).insert(sql, [])
        got = RawCursor.of(conn).rows("SELECT issue_id, reason FROM track_events ORDER BY id")
    assert got == [r[2:] for r in rows] + [rows[0][2:]]  # ids follow the rows' order, chunk after chunk
    with pytest.raises(IntegrityError), engine.begin() as conn:
        RawCursor.of(conn).insert(INSERT, [("t", "a", 1), ("t", "a", 2)])  # the same user twice
    with engine.connect() as conn:
        assert RawCursor.of(conn).rows("SELECT user_id FROM track_users") == []
    engine.dispose()


def test_selects_sent_together_are_fetched_each_with_its_own_rows(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    with engine.begin() as conn:
        raw = RawCursor.of(conn)
        with raw.pipeline():
            raw.insert(INSERT, [("t", "a", 1), ("t", "b", 2)])
            first = raw.send("SELECT user_id FROM track_users WHERE tenant_id = ? AND user_id IN (?*)", ("t",), ["b"])
            second = raw.send("SELECT last_seq FROM track_users WHERE tenant_id = ? ORDER BY last_seq", ("t",))
            assert raw.fetch(second) == [(1,), (2,)]  # in either order
            assert raw.fetch(first) == [("b",)]
    with pytest.raises(DBAPIError), engine.begin() as conn:  # a bad select raises as SQLAlchemy's, at send or fetch
        raw = RawCursor.of(conn)
        with raw.pipeline():
            raw.fetch(raw.send("SELECT no_such_column FROM track_users"))
    engine.dispose()


def test_a_multi_row_insert_stays_within_the_old_sqlite_limit_of_999_parameters(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    columns = ("tenant_id", "user_id", "issue_id", "event", "from_state", "to_state", "actor", "reason", "at",
               "session_id", "data")
    sql = f"INSERT INTO track_events ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    rows = [("t", "u", f"i{n:03d}", "create", None, "candidate", "tracker", None, "now", "s", None) for n in range(300)]
    with engine.begin() as conn:
        driver = conn.connection.dbapi_connection
        if engine.dialect.name == "sqlite":  # as a SQLite before 3.32 was built
            driver.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)  # type: ignore[union-attr]
        RawCursor.of(conn).insert(sql, rows)  # 3,300 parameters in all
        assert RawCursor.of(conn).rows("SELECT issue_id FROM track_events ORDER BY id") == [(r[2],) for r in rows]
    engine.dispose()
