"""Shared fixtures: real databases, never mocks.

* ``postgres_server``: a real PostgreSQL started for the test session from the
  machine's server binaries (``make test`` installs them), on a free loopback port.
* ``db_url``: a fresh, empty database per test, once on SQLite and once on
  PostgreSQL, for every test that stores data.

A skipped test is not a passing test: the session fails when anything was skipped.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    user: str

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@{self.host}:{self.port}/{database}"

    def create_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path:
        return path
    raise RuntimeError(
        f"PostgreSQL server binary {name!r} not found: run `make test`, which installs PostgreSQL"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user(cmd: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root; use the postgres system account then.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    base = Path(tempfile.mkdtemp(prefix="sadame-pg-"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    port = _free_port()
    subprocess.run(
        _as_server_user([_pg_bin("initdb"), "-D", str(data), "-U", "sadame", "-A", "trust", "-E", "UTF8",
                         "--no-locale"]),
        check=True, capture_output=True,
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c fsync=off -c max_connections=200"
    subprocess.run(
        _as_server_user([_pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(base / "log"),
                         "-w", "-t", "60", "start"]),
        check=True, capture_output=True,
    )
    server = PostgresServer("127.0.0.1", port, "sadame")
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield server
    finally:
        subprocess.run(
            _as_server_user([_pg_bin("pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database URL, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sadame.db'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.url(server.create_database())


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'sadame.db'}"


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    return postgres_server.url(postgres_server.create_database())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or os.environ.get("SADAME_ALLOW_SKIPS"):
        return
    skipped = reporter.stats.get("skipped", [])
    if skipped and exitstatus == 0:
        reporter.write_line(
            f"FAILED: {len(skipped)} test(s) were skipped; a skipped test is not a pass "
            "(set SADAME_ALLOW_SKIPS=1 for a local partial run)",
            red=True,
        )
        session.exitstatus = 1


#: Fixtures whose tests need the real PostgreSQL server or the real Chromium.
_POSTGRES_FIXTURES = frozenset({"postgres_server", "postgres_url"})
_BROWSER_FIXTURES = frozenset({"browser", "page"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what a test really uses, so ``-m "not postgres"`` and ``-m "not browser"`` select honestly:
    ``postgres`` for every test on the PostgreSQL server (the ``postgresql`` case of ``db_url``, and
    every test that asks for the server itself), ``browser`` for every test that drives Chromium."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = callspec.params if callspec is not None else {}
        if names & _POSTGRES_FIXTURES or params.get("db_url") == "postgresql":
            item.add_marker(pytest.mark.postgres)
        if names & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
