"""``sadame serve --workers N``: two processes on one PostgreSQL, one game, no lost move; TCP_NODELAY
on every accepted connection and connections spread over the workers (read from the workers' sockets)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import PostgresServer
from tests.web._sockets import accepted_sockets
from tests.web.conftest import _free_port, stop_server, wait_ready

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
        wait_ready(url, process)
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
        stop_server(process, timeout=30)
    assert process.returncode is not None
    out = process.stdout.read().decode() if process.stdout else ""
    assert "2 worker(s)" in out


def _serve(db: str, workers: int, balance: str | None = None) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_")}
    if balance:
        env["SADAME_WEB_BALANCE"] = balance
    process = subprocess.Popen([SADAME, "serve", "--workers", str(workers), "--port", str(port), "--db", db],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_ready(f"http://127.0.0.1:{port}", process)
    return process, port


def _keep_alive_clients(port: int, count: int, *, burst: bool = False) -> list[http.client.HTTPConnection]:
    """``count`` connections, each with two requests answered on it; ``burst``: all connected
    before the first request (as a load generator opens them), else one after another."""
    clients = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(count)]
    if burst:
        for conn in clients:
            conn.connect()
    for conn in clients:
        for _request in range(2):  # the second request rides the kept-alive connection
            conn.request("GET", "/api/puzzles")
            response = conn.getresponse()
            response.read()
            assert response.status == 200
    return clients


def _workers(process: subprocess.Popen[bytes]) -> list[int]:
    return [p for p in _children(process.pid) if b"spawn_main" in _cmdline(p)]


def _holders(pids: list[int], clients: list[http.client.HTTPConnection]) -> dict[int, dict[tuple[str, int], bool]]:
    """Worker pid -> {client address: TCP_NODELAY} of the server-side sockets of ``clients``."""
    mine = {conn.sock.getsockname() for conn in clients}
    return {pid: {peer: nodelay for peer, nodelay in accepted_sockets(pid).items() if peer in mine} for pid in pids}


@pytest.mark.parametrize("balance", ["reuseport", "shared"])
def test_every_accepted_connection_has_tcp_nodelay_and_workers_share_them(tmp_path: Path, balance: str) -> None:
    """One worker and two, in both balance designs: every server-side socket of 16 keep-alive
    clients has TCP_NODELAY (uvicorn's --workers never set it). With two workers on reuseport
    both hold some of them, opened one after another or all at once (the kernel's hash does not
    depend on which worker runs). On the shared listener a worker takes connections only while
    the scheduler runs it (a busy CI machine let one take a whole burst): both take some within
    a few rounds."""
    for workers in (1, 2):
        process, port = _serve(f"sqlite:///{tmp_path / f'w{workers}.db'}", workers, balance)
        try:
            servers = _workers(process) or [process.pid]
            assert len(servers) == workers
            ever: set[int] = set()
            rounds = 2 if balance == "reuseport" or workers == 1 else 20
            for attempt in range(rounds):
                burst = attempt % 2 == 1  # opened one after another, and all at once
                clients = _keep_alive_clients(port, 16, burst=burst)
                held = _holders(servers, clients)
                assert sum(len(peers) for peers in held.values()) == 16
                assert all(nodelay for peers in held.values() for nodelay in peers.values())
                if balance == "reuseport":
                    assert all(held.values()), f"a worker holds none of the 16 connections (burst={burst}): {held}"
                ever |= {pid for pid, peers in held.items() if peers}
                for conn in clients:
                    conn.close()
                if len(ever) == workers and attempt >= 1:
                    break
            assert ever == set(servers), f"a worker never took a connection in {rounds} rounds"
        finally:
            stop_server(process)
        if workers == 2:
            how = "one shared listener" if balance == "shared" else "one SO_REUSEPORT listener each"
            assert how in (process.stderr.read().decode() if process.stderr else "")


@pytest.mark.parametrize("balance", ["reuseport", "shared"])
def test_a_worker_that_dies_is_replaced_and_the_new_one_takes_connections(tmp_path: Path, balance: str) -> None:
    process, port = _serve(f"sqlite:///{tmp_path / 'r.db'}", 2, balance)
    try:
        first = _workers(process)
        assert len(first) == 2
        time.sleep(5.5)  # past the start-up window (a worker dying sooner stops the server)
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (len(_workers(process)) < 2 or first[0] in _workers(process)):
            time.sleep(0.2)
        now = _workers(process)
        assert len(now) == 2 and first[0] not in now, now
        newcomer = next(pid for pid in now if pid not in first)
        held: dict[int, dict[tuple[str, int], bool]] = {}
        for _attempt in range(30):  # until the newcomer's app is built and it accepts
            clients = _keep_alive_clients(port, 16)
            held = _holders(now, clients)
            for conn in clients:
                conn.close()
            if held[newcomer]:
                break
            time.sleep(0.5)
        assert held[newcomer] and all(held[newcomer].values()), held
        assert sum(len(peers) for peers in held.values()) == 16
    finally:
        stop_server(process)
    assert process.returncode == 0


def test_sigterm_lets_a_request_in_flight_finish(tmp_path: Path) -> None:
    """The supervisor's SIGTERM reaches the workers, which stop accepting and finish the request
    whose body is still arriving; the server then exits 0."""
    process, port = _serve(f"sqlite:///{tmp_path / 't.db'}", 2)
    body = json.dumps({"text": "ＣＳＳ？ｷｬｯｼｭ", "preset": "judge"}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"POST /api/normalize HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                     + body[:5])
        time.sleep(0.5)  # the worker has the headers: the request is in flight
        process.send_signal(signal.SIGTERM)
        time.sleep(1.0)
        assert process.poll() is None  # waiting for the request
        sock.sendall(body[5:])
        response = b""
        while b"\r\n\r\n" not in response or not response.rstrip().endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            response += chunk
    assert response.startswith(b"HTTP/1.1 200"), response[:200]
    assert json.loads(response.split(b"\r\n\r\n", 1)[1])["result"] == "cssきゃっしゅ"
    assert process.wait(timeout=60) == 0
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_a_second_server_on_the_same_port_is_refused(tmp_path: Path) -> None:
    process, port = _serve(f"sqlite:///{tmp_path / 'a.db'}", 2)
    try:
        second = subprocess.run([SADAME, "serve", "--workers", "2", "--port", str(port),
                                 "--db", f"sqlite:///{tmp_path / 'b.db'}"], capture_output=True, text=True, timeout=120)
        assert second.returncode == 1
        assert f"cannot listen on 127.0.0.1:{port}" in second.stderr and "Traceback" not in second.stderr
    finally:
        stop_server(process)


def test_metrics_sum_every_worker_and_logs_are_json_with_request_ids(tmp_path: Path) -> None:
    from prometheus_client.parser import text_string_to_metric_families

    process, port = _serve(f"sqlite:///{tmp_path / 'm.db'}", 2)
    url = f"http://127.0.0.1:{port}"
    try:
        for n in range(24):  # new connections: the kernel spreads them over both workers
            response = httpx.get(f"{url}/api/puzzles", headers={"X-Request-ID": f"probe-{n}"}, timeout=30)
            assert response.headers["x-request-id"] == f"probe-{n}"
        text = httpx.get(f"{url}/metrics", timeout=30).text
    finally:
        stop_server(process)
    counted = [s for family in text_string_to_metric_families(text) for s in family.samples
               if s.name == "sadame_http_requests_total" and s.labels["route"] == "/api/puzzles"]
    assert sum(s.value for s in counted) >= 24 + 1  # the probes, and wait_ready's request
    lines = [json.loads(line) for line in (process.stderr.read().decode() if process.stderr else "").splitlines()
             if line.startswith("{")]
    probes = [line for line in lines if str(line.get("request_id", "")).startswith("probe-")]
    assert len(probes) == 24, lines[-5:]
    assert {line["logger"] for line in probes} == {"sadame.access"}
    assert all(line["route"] == "/api/puzzles" and line["status"] == 200 and line["duration_ms"] >= 0 for line in probes)
    assert any(line["logger"].startswith("uvicorn") for line in lines)
