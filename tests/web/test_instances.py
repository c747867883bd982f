"""Two separate ``sadame serve`` instances on one PostgreSQL database, deployed as the docs say:
``sadame db upgrade`` first, then the servers with ``SADAME_WEB_MIGRATE=0``. A dashboard
sign-in, a client's budget and the tracker's data made on one are the other's too."""

from __future__ import annotations

import os
import subprocess

import httpx
from click.testing import CliRunner

from sadame.cli import cli
from sadame.judge import bundled_pack
from sadame.web.admin import create_key
from tests.conftest import PostgresServer
from tests.web.conftest import _free_port, stop_server, wait_ready
from tests.web.test_workers import SADAME


def _instance(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_")}
    env |= {"SADAME_DB": db, "SADAME_WEB_MIGRATE": "0", "SADAME_CLIENT_SESSIONS": "3", "SADAME_LOG_LEVEL": "warning"}
    process = subprocess.Popen([SADAME, "serve", "--workers", "1", "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url, process)
    return process, url


def test_two_instances_share_sign_ins_budgets_and_tracker_data(postgres_server: PostgresServer) -> None:
    db = postgres_server.url(postgres_server.create_database())
    migrated = CliRunner().invoke(cli, ["db", "upgrade", "--db", db])
    assert migrated.exit_code == 0, migrated.output
    key = create_key(db, tenant="acme").key
    (a, url_a), (b, url_b) = _instance(db), _instance(db)
    try:
        assert httpx.get(f"{url_a}/readyz").status_code == httpx.get(f"{url_b}/readyz").status_code == 200
        # Tracker data: ingested through A, read through B.
        auth = {"Authorization": f"Bearer {key}"}
        ingest = httpx.post(f"{url_a}/api/track/ingest", headers=auth,
                            json={"user_id": "u1", "session_id": "s1", "insights": ["安定性が不足している"]})
        assert ingest.status_code == 200, ingest.text
        issues = httpx.get(f"{url_b}/api/track/users/u1/issues", headers=auth).json()
        assert [i["title"] for i in issues] == ["安定性が不足している"]
        # A dashboard sign-in on A is a signed-in session on B.
        with httpx.Client(base_url=url_a, headers={"Origin": url_a}) as browser:
            signed_in = browser.post("/tracker/login", data={"api_key": key})
            assert signed_in.status_code == 303, signed_in.text
            cookies = dict(browser.cookies)
        on_b = httpx.get(f"{url_b}/tracker/users/u1", cookies=cookies)
        assert on_b.status_code == 200 and "安定性が不足している" in on_b.text
        assert "安定性が不足している" not in httpx.get(f"{url_b}/tracker/users/u1").text  # no cookie: the login page
        # One client budget (3 new sessions per address) over both instances.
        pack = bundled_pack("engineering")
        puzzle = next(iter(pack.puzzles.values()))
        ask = f"/api/puzzles/{pack.name}/{puzzle.id}/ask"
        statuses = [httpx.post(f"{url}{ask}", json={"question": puzzle.examples[0].q}).status_code
                    for url in (url_a, url_b, url_a, url_b)]
        assert statuses == [200, 200, 200, 429]
    finally:
        stop_server(a)
        stop_server(b)
