"""A SQLite file deleted or replaced under a live engine (``sadame.db._fileguard``), on real files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from sadame.db import DatabaseError, DatabaseUnavailable, make_engine


def _remove(path: Path) -> None:
    """``rm -f w.db w.db-wal w.db-shm``."""
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)


def _database_with(path: Path, *values: int) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
        conn.executemany("INSERT INTO t VALUES (?)", [(value,) for value in values])
    conn.close()


def _values(engine: Engine) -> list[int]:
    with engine.connect() as conn:
        return [row[0] for row in conn.execute(text("SELECT x FROM t ORDER BY x"))]


def test_connections_follow_a_replaced_file(tmp_path: Path) -> None:
    path, fresh = tmp_path / "w.db", tmp_path / "fresh.db"
    _database_with(path, 1)
    _database_with(fresh, 10)
    engine = make_engine(f"sqlite:///{path}")
    try:
        assert _values(engine) == [1]
        _remove(path)
        fresh.rename(path)
        assert _values(engine) == [10]  # the pooled connection to the unlinked file was not reused
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (11)"))
    finally:
        engine.dispose()
    with sqlite3.connect(path) as check:
        assert [row[0] for row in check.execute("SELECT x FROM t ORDER BY x")] == [10, 11]
    check.close()


def test_a_write_is_not_committed_into_a_file_swapped_during_it(tmp_path: Path) -> None:
    path, fresh = tmp_path / "w.db", tmp_path / "fresh.db"
    _database_with(path, 1)
    _database_with(fresh, 10)
    engine = make_engine(f"sqlite:///{path}")
    try:
        refused = pytest.raises(DatabaseUnavailable, match="replaced or deleted during the transaction")
        with refused, engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (2)"))
            _remove(path)
            fresh.rename(path)
        assert _values(engine) == [10]
        with engine.begin() as conn:  # the retry lands in the new file (the write lock was released)
            conn.execute(text("INSERT INTO t VALUES (2)"))
        assert _values(engine) == [2, 10]
    finally:
        engine.dispose()


def test_a_deleted_file_is_not_created_again_empty(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    _database_with(path, 1)
    engine = make_engine(f"sqlite:///{path}")
    try:
        assert _values(engine) == [1]
        _remove(path)
        with pytest.raises(DatabaseError, match="deleted while in use"):
            _values(engine)
        assert not path.exists()
        _database_with(path, 5)  # restored: the engine uses it again
        assert _values(engine) == [5]
    finally:
        engine.dispose()


def test_a_file_replaced_by_garbage_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    _database_with(path, 1)
    engine = make_engine(f"sqlite:///{path}")
    try:
        assert _values(engine) == [1]
        _remove(path)
        path.write_bytes(b"not a database at all" * 100)
        with pytest.raises(DatabaseError, match="file is not a database"):
            _values(engine)
    finally:
        engine.dispose()


def test_a_new_file_is_still_created_by_a_fresh_engine(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE t (x INTEGER)"))
            conn.execute(text("INSERT INTO t VALUES (3)"))
        assert _values(engine) == [3]
    finally:
        engine.dispose()
    assert path.is_file()
