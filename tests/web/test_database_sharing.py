"""What a web process shares with other processes and between its tenants (issue 19, items 2-3).

* A running server uses the tenant's active ruleset as it is now: a CLI ``track migrate --apply``
  made by another process is seen by the next ingest.
* All tenants of a process share one bounded pool: 64 tenants do not open 64 connections.
* A database that stops answering gives 503 with ``Retry-After`` on every route, and no response
  names the database, its user, host or port; the service recovers when the database is back.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
from click.testing import CliRunner
from sqlalchemy import create_engine, make_url, text

from sadame.cli import cli
from sadame.track import load_ruleset
from tests.conftest import PostgresServer
from tests.web.conftest import LiveServer, running

V2 = str(Path(__file__).parents[1] / "track" / "data" / "ruleset-v2.yaml")
TENANTS = 64
POOL_BOUND = 15  # SQLAlchemy's QueuePool: 5 kept + 10 overflow


def _ingest(live: LiveServer, key: str, user: str, session: str, insights: list[str]) -> httpx.Response:
    with live.client() as client:
        return client.post("/api/track/ingest", headers={"Authorization": f"Bearer {key}"},
                           json={"user_id": user, "session_id": session, "insights": insights})


def _session_ruleset(db_url: str, session: str) -> str:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return str(conn.execute(text("SELECT ruleset_version FROM track_sessions WHERE session_id = :s"),
                                    {"s": session}).scalar_one())
    finally:
        engine.dispose()


def test_a_running_server_uses_the_ruleset_a_cli_migration_made_active(db_url: str) -> None:
    v2 = load_ruleset(V2)
    with running(db_url) as live:
        key = live.app.state.ctx.keys.create_key("acme").key
        assert _ingest(live, key, "u1", "s1", ["気が散る", "集中が切れる"]).status_code == 200
        before = _session_ruleset(db_url, "s1")
        assert before != v2.version
        result = CliRunner().invoke(cli, ["track", "migrate", "--ruleset", V2, "--apply", "--db", db_url,
                                          "--tenant", "acme"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert _ingest(live, key, "u1", "s2", ["気が散る"]).status_code == 200
        assert _session_ruleset(db_url, "s2") == v2.version
        with live.client() as client:
            issues = client.get("/api/track/users/u1/issues", headers={"Authorization": f"Bearer {key}"}).json()
        # the migration merged the two findings' issues; the later session added no third one
        assert len([i for i in issues if i["merged_into"] is None]) == 1


def _connections(db_url: str) -> int:
    """Connections the test process holds to the database: PostgreSQL sessions on it, or open
    descriptors of the SQLite file (one per SQLite connection)."""
    url = make_url(db_url)
    if url.drivername.startswith("sqlite"):
        target = os.path.realpath(str(url.database))
        fds = Path("/proc/self/fd")
        count = 0
        for fd in fds.iterdir():
            try:
                count += os.readlink(fd) == target
            except OSError:
                continue
        return count
    with psycopg.connect(host=url.host, port=url.port, user=url.username, dbname="postgres",
                         autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (url.database,)).fetchone()
    assert row is not None
    return int(row[0])


def test_sixty_four_tenants_share_one_bounded_pool(db_url: str) -> None:
    with running(db_url) as live:
        keys = [live.app.state.ctx.keys.create_key(f"t{n}").key for n in range(TENANTS)]

        def ingest(n: int) -> int:
            return _ingest(live, keys[n], "u1", f"s{n}", [f"踏み込みが弱い{n}"]).status_code

        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(ingest, range(TENANTS))) == {200}
        with live.client() as client:
            for key in keys:  # every tenant's tracker is alive (cached) and reads
                users = client.get("/api/track/users", headers={"Authorization": f"Bearer {key}"})
                assert users.json() == ["u1"]
        assert _connections(db_url) <= POOL_BOUND



def _hit_every_route(live: LiveServer, browser: httpx.Client, key: str, pack: str,
                     puzzle: str) -> list[httpx.Response]:
    """API reads and writes, a game move and the page showing the game (``browser`` has played,
    so the page reads its state), and the dashboard login."""
    headers = {"Authorization": f"Bearer {key}"}
    with live.client() as client:
        return [
            client.get("/api/track/users", headers=headers),
            client.post("/api/track/ingest", headers=headers, json={"user_id": "u", "session_id": "x",
                                                                    "insights": ["踏み込みが弱い"]}),
            browser.post(f"/api/puzzles/{pack}/{puzzle}/ask", json={"question": "生き物ですか？"}),
            browser.get(f"/puzzles/{pack}/{puzzle}"),
            client.post("/tracker/login", data={"api_key": key}, headers={"Origin": live.url}),
        ]


def test_a_database_outage_is_503_with_retry_after_and_no_details(postgres_server: PostgresServer) -> None:
    name = postgres_server.create_database()
    db_url = postgres_server.url(name)
    admin = psycopg.connect(host=postgres_server.host, port=postgres_server.port, user=postgres_server.user,
                            dbname="postgres", autocommit=True)
    with admin, running(db_url) as live, live.client() as browser:
        key = live.app.state.ctx.keys.create_key("acme").key
        with live.client() as client:
            pack = client.get("/api/puzzles").json()[0]
        puzzle = pack["puzzles"][0]["id"]
        first = _hit_every_route(live, browser, key, pack["name"], puzzle)
        assert [r.status_code for r in first][:3] == [200, 200, 200]
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        try:
            down = _hit_every_route(live, browser, key, pack["name"], puzzle)
        finally:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        for response in down:
            assert response.status_code == 503, (response.request.url, response.text[:300])
            assert response.headers["Retry-After"].isdigit()
            body = response.text
            for detail in (name, str(postgres_server.port), f"{postgres_server.user}@", "127.0.0.1", "psycopg",
                           "postgresql", "Traceback"):
                assert detail not in body, (response.request.url, detail)
        assert "データベース" in down[0].json()["message"]
        assert "データベース" in down[3].text  # the page is the Japanese error page
        again = _hit_every_route(live, browser, key, pack["name"], puzzle)
        assert [r.status_code for r in again][:3] == [200, 200, 200]
