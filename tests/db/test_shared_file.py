"""One database shared by a running ``sadame serve`` and CLI commands: no acknowledged write lost.

A real server process, on SQLite and on PostgreSQL, answers HTTP ingests while CLI processes
read (``track list``/``users``/``export``), write (``track ingest``) and write at the same
time as the server. Afterwards every session that was acknowledged (HTTP 200 or CLI exit 0)
is in the database exactly once, nothing else is, SQLite's ``integrity_check`` says ok, and
the server was answering all along.

The SQLite half is the regression test of issue 19: a check that read the file's header with
``open()`` inside the server dropped the server's POSIX locks on it, so the next CLI process
checkpointed and deleted the live WAL and the server's later sessions were lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.web.conftest import _free_port, stop_server, wait_ready

SADAME = str(Path(sys.executable).parent / "sadame")
ROUNDS = 8  # the figure docs/guide/track.md states
TENANT = "shared"
READERS = (["track", "list", "--user", "http"], ["track", "users"], ["track", "export"])


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("SADAME_")}


def _cli(db: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SADAME, *args, "--db", db, "--tenant", TENANT], input=stdin, text=True,
                          capture_output=True, env=_env(), timeout=120)


def _cli_ingest(db: str, user: str, session: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [SADAME, "track", "ingest", "--user", user, "--session", session, "-", "--db", db, "--tenant", TENANT],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())


def _findings(session: str) -> str:
    return json.dumps([f"{session}の踏み込みが弱い", "姿勢が安定していない"], ensure_ascii=False)


class Workload:
    """The acknowledged sessions, as (user, session) pairs."""

    def __init__(self, db: str, url: str, key: str) -> None:
        self.db, self.url = db, url
        self.headers = {"Authorization": f"Bearer {key}"}
        self.acknowledged: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def http(self, session: str) -> None:
        body = {"user_id": "http", "session_id": session, "insights": [f"{session}の踏み込みが弱い"]}
        response = httpx.post(f"{self.url}/api/track/ingest", json=body, headers=self.headers, timeout=120)
        assert response.status_code == 200, response.text
        with self._lock:
            self.acknowledged.append(("http", session))

    def cli(self, user: str, session: str) -> None:
        process = _cli_ingest(self.db, user, session)
        _out, err = process.communicate(_findings(session), timeout=120)
        assert process.returncode == 0, err
        self.acknowledged.append((user, session))

    def round(self, n: int) -> None:
        self.http(f"h{n}a")
        reader = _cli(self.db, *READERS[n % len(READERS)])  # read-only
        assert reader.returncode == 0, reader.stderr
        self.http(f"h{n}b")
        self.cli("cli", f"c{n}")  # writing, alone
        self.http(f"h{n}c")
        # writing at the same time: a CLI ingest and a read while the server takes two ingests
        process = _cli_ingest(self.db, "both", f"b{n}")
        reading = subprocess.Popen([SADAME, *READERS[(n + 1) % len(READERS)], "--db", self.db, "--tenant", TENANT],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env())
        threads = [threading.Thread(target=self.http, args=(f"h{n}{suffix}",)) for suffix in ("d", "e")]
        for thread in threads:
            thread.start()
        _out, err = process.communicate(_findings(f"b{n}"), timeout=120)
        assert process.returncode == 0, err
        self.acknowledged.append(("both", f"b{n}"))
        assert reading.wait(timeout=120) == 0, reading.stderr.read() if reading.stderr else ""
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)


def _stored(db: str) -> Counter[tuple[str, str]]:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT user_id, session_id FROM track_sessions WHERE tenant_id = :t"),
                                {"t": TENANT}).all()
            if engine.dialect.name == "sqlite":
                assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        return Counter((row[0], row[1]) for row in rows)
    finally:
        engine.dispose()


@pytest.mark.parametrize("rounds", [ROUNDS])
def test_server_and_cli_share_one_database(db_url: str, rounds: int) -> None:
    created = _cli(db_url, "web", "create-key", "--json")  # --tenant comes last, as for every call
    assert created.returncode == 0, created.stderr
    key = json.loads(created.stdout)["key"]
    port = _free_port()
    server = subprocess.Popen([SADAME, "serve", "--workers", "1", "--port", str(port), "--db", db_url],
                              env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, server)
        work = Workload(db_url, url, key)
        for n in range(rounds):
            work.round(n)
        # the server still answers, reads and writes
        work.http("last")
        users = httpx.get(f"{url}/api/track/users", headers=work.headers, timeout=60)
        assert users.status_code == 200 and set(users.json()) == {"http", "cli", "both"}
    finally:
        stop_server(server)
    assert len(work.acknowledged) == rounds * 7 + 1
    stored = _stored(db_url)
    lost = set(work.acknowledged) - set(stored)
    duplicated = {pair for pair, count in stored.items() if count > 1}
    unexpected = set(stored) - set(work.acknowledged)
    assert (lost, duplicated, unexpected) == (set(), set(), set())
