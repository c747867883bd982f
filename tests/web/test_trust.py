"""Trust only what is configured: ``X-Forwarded-For`` from configured proxies, allowed ``Host`` names.

The budget test runs the real ``sadame serve`` (uvicorn trusts ``X-Forwarded-For`` from loopback
by default; the service must not), once without and once with ``--trusted-proxy``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from sadame.web import WebSettings
from sadame.web._trust import client_address, host_allowed, parse_proxies
from tests.web.conftest import _free_port, running, stop_server, wait_ready

SADAME = str(Path(sys.executable).parent / "sadame")
SESSIONS = 50  # WebSettings.client_sessions: new anonymous sessions per address and day


def _new_sessions(url: str, spoofed: int) -> list[int]:
    """Statuses of ``spoofed`` first moves, each from a fresh cookie and a different claimed address."""
    with httpx.Client(base_url=url, timeout=60) as client:
        pack = client.get("/api/puzzles").json()[0]
    path = f"/api/puzzles/{pack['name']}/{pack['puzzles'][0]['id']}/ask"
    statuses = []
    for n in range(spoofed):
        with httpx.Client(base_url=url, timeout=60) as client:  # no cookie: a new anonymous session
            response = client.post(path, json={"question": "生き物ですか？"},
                                   headers={"X-Forwarded-For": f"203.0.113.{n % 250}, 198.51.100.{n % 250}"})
            statuses.append(response.status_code)
    return statuses


def _serve(db: str, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_") and k != "FORWARDED_ALLOW_IPS"}
    process = subprocess.Popen([SADAME, "serve", "--workers", "1", "--port", str(port), "--db", db, *extra],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    wait_ready(url, process)
    return process, url


def test_a_spoofed_forwarded_for_gets_no_extra_budget(tmp_path: Path) -> None:
    process, url = _serve(f"sqlite:///{tmp_path / 'spoof.db'}")
    try:
        statuses = _new_sessions(url, SESSIONS + 10)
    finally:
        stop_server(process, timeout=30)
    assert statuses[:SESSIONS] == [200] * SESSIONS and set(statuses[SESSIONS:]) == {429}


def test_a_configured_proxy_is_believed(tmp_path: Path) -> None:
    process, url = _serve(f"sqlite:///{tmp_path / 'proxy.db'}", "--trusted-proxy", "127.0.0.1",
                          "--trusted-proxy", "198.51.100.0/24")
    try:
        statuses = _new_sessions(url, SESSIONS + 10)
    finally:
        stop_server(process, timeout=30)
    assert statuses == [200] * (SESSIONS + 10)  # 203.0.113.n: a different client each time


def test_client_address_reads_the_header_only_from_proxies() -> None:
    proxies = parse_proxies(["10.0.0.0/8", "::1"])
    assert client_address("192.0.2.7", "203.0.113.1", proxies) == "192.0.2.7"
    assert client_address("10.1.2.3", "203.0.113.1", proxies) == "203.0.113.1"
    assert client_address("10.1.2.3", "198.51.100.9, 203.0.113.1, 10.0.0.2", proxies) == "203.0.113.1"
    assert client_address("::1", "10.0.0.5", proxies) == "::1"  # every hop a proxy: the peer
    assert client_address("10.1.2.3", None, proxies) == "10.1.2.3"
    with pytest.raises(ValueError, match="trusted proxy"):
        parse_proxies(["not-an-address"])


def test_host_names() -> None:
    allowed = ("localhost", "127.0.0.1", "::1", "Example.org")
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "example.org", "EXAMPLE.ORG:443"):
        assert host_allowed(host, allowed), host
    for host in ("evil.example", "127.0.0.1.evil.example:8000", "localhost.", "", None):
        assert not host_allowed(host, allowed), host
    assert host_allowed("anything", ("*",))


def test_a_wrong_host_is_refused(db_url: str) -> None:
    settings = WebSettings(judge_fallback=None, allowed_hosts=("127.0.0.1", "game.example"))
    with running(db_url, settings) as live, live.client() as client:
        pack = client.get("/api/puzzles").json()[0]
        ask = f"/api/puzzles/{pack['name']}/{pack['puzzles'][0]['id']}/ask"
        assert client.get("/").status_code == 200
        assert client.get("/", headers={"Host": "game.example"}).status_code == 200
        for host in ("rebind.attacker.example", "localhost"):
            page = client.get("/", headers={"Host": host})
            assert page.status_code == 400 and "このホスト名では応答しません" in page.text
            move = client.post(ask, json={"question": "生き物ですか？"}, headers={"Host": host})
            assert move.status_code == 400 and move.json()["error"] == "host_not_allowed"
            assert move.headers["X-Frame-Options"] == "DENY"
            assert "sadame_session" not in move.headers.get("set-cookie", "")


def test_questions_over_all_puzzles_are_capped_per_address(db_url: str) -> None:
    settings = WebSettings(judge_fallback=None, client_daily_questions=3)
    with running(db_url, settings) as live, live.client() as client:
        pack = client.get("/api/puzzles").json()[0]
        first, second = (f"/api/puzzles/{pack['name']}/{p['id']}/ask" for p in pack["puzzles"][:2])
        statuses = [client.post(path, json={"question": "生き物ですか？"}).status_code
                    for path in (first, first, second, second)]
        assert statuses == [200, 200, 200, 429]
        assert "今日の上限" in client.post(first, json={"question": "人ですか？"}).json()["message"]
