"""The driver's own cursor for hot paths, inside a SQLAlchemy transaction.

SQLAlchemy Core spends more per statement (compile-cache lookup, parameter processing,
result objects, events) than SQLite spends running it. :class:`RawCursor` runs plain SQL on
the DB-API cursor of the connection a SQLAlchemy transaction already holds, so it shares that
transaction (its ``BEGIN IMMEDIATE`` or advisory lock, its commit and rollback).

SQL is written once with ``?`` placeholders and converted for the driver's paramstyle
(``%s`` for psycopg); ``IN`` lists are written ``IN (?*)`` and expanded to one placeholder
per value on SQLite, ``= ANY(%s)`` with one array parameter on PostgreSQL (one prepared
statement for any length). Driver errors are raised as SQLAlchemy's wrapped exceptions
(``IntegrityError``, ``OperationalError``, ...) after the engine's own translation of fatal
errors, exactly as ``Connection.execute`` raises them, so callers' retries still work.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from sadame.db._checks import translate_error

__all__ = ["INSERT_CHUNK", "PG_INSERT_PARAMS", "SQLITE_INSERT_PARAMS", "RawCursor"]

_IN_LIST = "IN (?*)"
#: ``(postgres, sql, width)`` -> the statement for the driver: built once per process (a cursor
#: lives for one transaction, so a per-cursor cache was rebuilt every session).
_PREPARED: dict[tuple[bool, str, int], str] = {}
#: Rows per multi-row INSERT on SQLite (:meth:`RawCursor.insert`), at most: fewer when they would
#: pass :data:`SQLITE_INSERT_PARAMS` parameters.
INSERT_CHUNK = 200
#: Parameters per multi-row INSERT on SQLite: 999 was SQLite's limit before 3.32 (builds that
#: still have it are about).
SQLITE_INSERT_PARAMS = 999
#: Parameters per multi-row INSERT on PostgreSQL: psycopg converts the placeholders of a query
#: with more than 50 again on every execution (its cache stops there), which costs more than
#: the statements saved.
PG_INSERT_PARAMS = 50


class RawCursor:
    """Plain SQL on the DB-API cursor of ``conn`` (see the module docstring)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.dialect = conn.dialect
        self.postgres = self.dialect.name == "postgresql"
        self.cursor: Any = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        self._error: type[BaseException] = self.dialect.loaded_dbapi.Error

    @classmethod
    def of(cls, conn: Connection) -> RawCursor:
        """The one cursor of ``conn`` (made on first use): the steps of one transaction share
        it instead of each opening a cursor of its own (a new one after a reconnect)."""
        found: RawCursor | None = conn.__dict__.get("_sadame_raw")
        if found is None or found.cursor.connection is not conn.connection.dbapi_connection:
            found = conn.__dict__["_sadame_raw"] = cls(conn)
        return found

    def _prepare(self, sql: str, width: int) -> str:
        """``sql`` for this driver, its ``IN (?*)`` list ``width`` values wide."""
        key = (self.postgres, sql, width)
        found = _PREPARED.get(key)
        if found is None:
            if self.postgres:
                found = sql.replace(_IN_LIST, "= ANY(?)").replace("?", "%s")
            else:
                found = sql.replace(_IN_LIST, f"IN ({', '.join('?' * width)})" if width else "IN (NULL)")
            if len(_PREPARED) >= 4096:  # IN lists of many widths: bounded
                _PREPARED.clear()
            _PREPARED[key] = found
        return found

    def _raise(self, exc: BaseException, sql: str, params: Any, many: bool) -> None:
        translated = translate_error(self.conn.engine.url.render_as_string(hide_password=True), exc)
        if translated is not None:
            raise translated from exc
        if self.dialect.is_disconnect(exc, None, self.cursor):  # type: ignore[arg-type]
            self.conn.invalidate(exc)
        raise DBAPIError.instance(sql, params, exc, self._error, dialect=self.dialect, ismulti=many) from exc  # type: ignore[arg-type]

    def execute(self, sql: str, params: Sequence[Any] = (), values: Sequence[Any] | None = None) -> Any:
        """Run ``sql`` with ``params``; ``values`` fill its ``IN (?*)`` list (after ``params``)."""
        if values is None:
            stmt, args = self._prepare(sql, 0), params
        elif self.postgres:
            stmt, args = self._prepare(sql, 0), (*params, list(values))
        else:
            stmt, args = self._prepare(sql, len(values)), (*params, *values)
        try:
            return self.cursor.execute(stmt, args)
        except self._error as exc:
            self._raise(exc, stmt, args, False)

    def send(self, sql: str, params: Sequence[Any] = (), values: Sequence[Any] | None = None) -> Any:
        """Run a select on a cursor of its own and return it for :meth:`fetch`: in a pipeline,
        selects sent one after another before the first fetch share one round trip. On SQLite
        (no round trips) the rows are read at once, on the shared cursor."""
        if not self.postgres:
            return None, sql, self.rows(sql, params, values)
        stmt = self._prepare(sql, 0)
        args = params if values is None else (*params, list(values))
        cursor = self.cursor.connection.cursor()
        try:
            cursor.execute(stmt, args)
        except self._error as exc:
            self._raise(exc, stmt, args, False)
        return cursor, stmt, args

    def fetch(self, sent: Any) -> list[Any]:
        """All rows of a select :meth:`send` sent."""
        cursor, stmt, args = sent
        if cursor is None:
            return list(args)
        try:
            return list(cursor.fetchall())
        except self._error as exc:
            self._raise(exc, stmt, args, False)
            raise  # pragma: no cover - _raise always raises

    def rows(self, sql: str, params: Sequence[Any] = (), values: Sequence[Any] | None = None) -> list[Any]:
        """All rows (tuples) of a select."""
        self.execute(sql, params, values)
        try:  # in a pipeline the server's answer (an error too) arrives with the fetch
            return list(self.cursor.fetchall())
        except self._error as exc:
            self._raise(exc, sql, params, False)
            raise  # pragma: no cover - _raise always raises

    def first(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a select, or None."""
        self.execute(sql, params)
        try:
            return self.cursor.fetchone()
        except self._error as exc:
            self._raise(exc, sql, params, False)
            raise  # pragma: no cover - _raise always raises

    @contextlib.contextmanager
    def pipeline(self) -> Iterator[None]:
        """On PostgreSQL, psycopg's pipeline mode for the block: a statement whose result is not
        fetched is sent without waiting for the server, so the advisory lock travels with the
        first read and a session's writes with one another (a round trip each before). The
        server's errors are raised as :meth:`execute` raises them, at the fetch or at the end of
        the block. On SQLite nothing changes."""
        if not self.postgres:
            yield
            return
        try:
            with self.cursor.connection.pipeline():
                yield
        except self._error as exc:
            self._raise(exc, "(pipeline)", None, True)

    @contextlib.contextmanager
    def transaction_pipeline(self) -> Iterator[None]:
        """:meth:`pipeline` with the transaction's ``BEGIN`` sent as its first statement (the caller
        sends its ``COMMIT`` inside the block). psycopg begins a transaction itself with a
        ``BEGIN`` and a sync, a round trip of its own before the first statement; here the
        connection is in autocommit for the block and the ``BEGIN`` travels with what follows. On
        leaving, a transaction still open (an error) is rolled back, then autocommit is turned
        off again; a connection left in any other state is invalidated, never pooled in
        autocommit. A connection with a non-default transaction mode (isolation, read only,
        deferrable) begins as before. On SQLite nothing changes."""
        dbapi = self.cursor.connection if self.postgres else None
        if dbapi is None or not _plain_transactions(dbapi):
            with self.pipeline():
                yield
            return
        dbapi.autocommit = True
        try:
            with self.pipeline():
                self.execute("BEGIN")
                yield
        finally:
            self._leave_autocommit(dbapi)

    def _leave_autocommit(self, dbapi: Any) -> None:
        """Back to psycopg's own transactions after :meth:`transaction_pipeline`."""
        from psycopg.pq import TransactionStatus

        try:
            if dbapi.pgconn.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR):
                dbapi.rollback()
            if dbapi.pgconn.transaction_status == TransactionStatus.IDLE:
                dbapi.autocommit = False
                return
        except self._error:
            pass
        self.conn.invalidate()  # broken or in an unknown state: never reused in autocommit

    def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One ``executemany`` of ``sql`` over ``rows`` (one pipelined batch on psycopg)."""
        stmt = self._prepare(sql, 0)
        batch = list(rows)
        if not batch:
            return
        try:
            self.cursor.executemany(stmt, batch)
        except self._error as exc:
            self._raise(exc, stmt, batch, True)

    def insert(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Insert ``rows`` with ``sql`` (``INSERT INTO t (...) VALUES (?, ...)``, one row's
        placeholders) as multi-row ``VALUES`` statements (up to :data:`INSERT_CHUNK` rows and
        :data:`SQLITE_INSERT_PARAMS` or :data:`PG_INSERT_PARAMS` parameters each), in their
        order: a statement for several rows instead of one per row (psycopg's ``executemany``
        sends each row as a statement of its own, SQLite steps each)."""
        batch = list(rows)
        if len(batch) <= 1:
            self.many(sql, batch)
            return
        budget = PG_INSERT_PARAMS if self.postgres else SQLITE_INSERT_PARAMS
        size = max(1, min(INSERT_CHUNK, budget // len(batch[0])))
        for start in range(0, len(batch), size):
            chunk = batch[start : start + size]
            stmt = self._values(sql, len(chunk))
            args = [value for row in chunk for value in row]
            try:
                self.cursor.execute(stmt, args)
            except self._error as exc:
                self._raise(exc, stmt, args, False)

    def _values(self, sql: str, n: int) -> str:
        """``sql`` for this driver with ``n`` rows of placeholders after its ``VALUES``."""
        key = (self.postgres, sql, -n)  # negative: not an IN list's width
        found = _PREPARED.get(key)
        if found is None:
            head, sep, row = sql.rpartition(" VALUES ")
            if not sep or not row.startswith("(") or not row.endswith(")"):
                raise ValueError(f"not a one-row INSERT ... VALUES (...): {sql[:80]}")
            found = self._prepare(f"{head} VALUES {', '.join([row] * n)}", 0)
            _PREPARED[key] = found
        return found


def _plain_transactions(dbapi: Any) -> bool:
    """True when psycopg would begin ``dbapi``'s transactions with a plain ``BEGIN``."""
    return (not dbapi.autocommit and dbapi.isolation_level is None and dbapi.read_only is None
            and dbapi.deferrable is None)
