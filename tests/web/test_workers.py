"""``sadame serve --workers 2`` on PostgreSQL: two processes, one game, no lost move."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import PostgresServer
from tests.web.conftest import _free_port

SADAME = str(Path(sys.executable).parent / "sadame")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        try:
            if httpx.get(f"{url}/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError("sadame serve did not answer within 60 s")


def test_two_workers_share_one_postgresql(postgres_server: PostgresServer) -> None:
    db = postgres_server.url(postgres_server.create_database())
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_")}
    process = subprocess.Popen(
        [SADAME, "serve", "--workers", "2", "--port", str(port), "--db", db],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, process)
        spawned = [p for p in _children(process.pid) if b"spawn_main" in _cmdline(p)]
        assert len(spawned) == 2
        with httpx.Client(base_url=url) as client:
            pack = client.get("/api/puzzles").json()[0]
            base = f"/api/puzzles/{pack['name']}/{pack['puzzles'][0]['id']}"
            assert client.post(f"{base}/ask", json={"question": "最初の質問ですか？"}).status_code == 200
            cookies = dict(client.cookies)
        for n in range(30):  # a new connection each time, so the kernel spreads them over the workers
            with httpx.Client(base_url=url, cookies=cookies) as client:
                response = client.post(f"{base}/ask", json={"question": f"質問{n}ですか？"})
                assert response.status_code == 200, response.text
        with httpx.Client(base_url=url, cookies=cookies) as client:
            assert len(client.get(base).json()["history"]) == 31
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert process.returncode is not None
    out = process.stdout.read().decode() if process.stdout else ""
    assert "2 worker(s)" in out
