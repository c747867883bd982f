"""Benchmark of the web service: request latency and throughput over real HTTP.

Starts ``create_app`` under uvicorn on 127.0.0.1 (one process, as ``sadame serve``
does) on a fresh SQLite file -- or the PostgreSQL URL given with ``--db`` -- and
drives it with ``httpx`` from a few client threads. Figures include the HTTP stack,
JSON (de)serialisation, the database round trips of the route and the feature's
own work. Prints a markdown table; no pass/fail targets (issue 7 sets none).

    .venv/bin/python benchmarks/web.py                 # ~30 s on an idle 2-core machine
    .venv/bin/python benchmarks/web.py --requests 100 --clients 2
    .venv/bin/python benchmarks/web.py --db postgresql+psycopg://me@localhost/bench
    .venv/bin/python benchmarks/web.py --scaling       # 1/4/16 clients x keep-alive/close x 1/2 workers (~6 min)

``--scaling`` starts ``sadame serve --workers N`` (a real multi-process server) for
N = 1 and 2 (and uvicorn's own ``--workers 2`` of the same app) and drives the list and
question routes with 1, 4 and 16 clients, each over one keep-alive connection and each
with a new connection per request, in one run. Each cell lasts ``--seconds`` with every
client busy throughout (its ``--requests`` pre-built requests cycled; only responses inside
the window count). The load generator is ``wrk`` when it is installed (``--client auto``, the
default; ``scripts/bootstrap.sh test`` installs it): one connection per client, each client's
requests pre-built with its own session cookie, on no more wrk threads than cores
(``--wrk-threads cores``; ``per-client`` runs one thread per client), so the client takes as little
of the two cores as it can. ``--client python`` uses the Python client instead, as cheap as it can be
in Python: raw sockets in one selectors loop, every request pre-built as bytes, each client with
its own session cookie. Either way,
its CPU share and the server's CPU per request are printed, and so are the load average
before and after (the machine may be shared), then issue 22's targets as PASS / MISSED.
Any failed request stops the run: a 429 or 500 would make the figures wrong.

``--cpu`` prints the server CPU time per request of the list and question routes on one
worker (what a change to the per-request cost is measured with).

``--balance shared,reuseport`` runs one 2-worker server per design of ``SADAME_WEB_BALANCE``
(``sadame.web._listen``) in the same rounds, and prints one table per design (the 1-worker and
uvicorn columns are the same runs in each); the default is the default design only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from sadame.db import upgrade
from sadame.judge import bundled_pack
from sadame.web import WebSettings, create_app
from sadame.web._listen import BALANCES
from sadame.web._serve import default_workers
from sadame.web.admin import create_key

SOURCE = ("- **安定性**: 不足している。特に夜間バッチで顕著。\n- **売上**: 1億2000万円（前年比 12%増）\n" * 40)
OUTPUT = "「安定性: 不足している」「夜間バッチで顕著」「昼間は問題ない」。売上は120,000,000円、前年比15%増。"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(name: str, url: str, count: int, clients: int, make: Callable[[httpx.Client, int], httpx.Response],
         headers: dict[str, str] | None = None) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def worker(offset: int) -> None:
        nonlocal errors
        with httpx.Client(base_url=url, headers=headers or {}, timeout=60) as client:
            for i in range(offset, count, clients):
                started = time.perf_counter()
                response = make(client, i)
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    if response.status_code >= 400:
                        errors += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    latencies.sort()
    return {
        "name": name,
        "requests": len(latencies),
        "rps": len(latencies) / wall,
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[int(len(latencies) * 0.95) - 1] * 1000,
        "p99": latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000,
        "errors": errors,
    }




_BENCH_ENV = {  # budgets far above what a run asks (all clients share 127.0.0.1), so every cell
    # measures serving, not 429s; any failed request stops the run (BenchError)
    "SADAME_MAX_QUESTIONS": "1000000", "SADAME_CLIENT_QUESTIONS": "1000000", "SADAME_CLIENT_SESSIONS": "1000000",
    "SADAME_CLIENT_DAILY_QUESTIONS": "1000000", "SADAME_CLIENT_DAILY_ANSWERS": "1000000",
    "SADAME_LOG_LEVEL": "warning",
}


def _start_server(db_url: str, workers: int, upstream: bool = False,
                  balance: str = BALANCES[0]) -> tuple[subprocess.Popen[bytes], str]:
    """``sadame serve --workers N`` (``balance``: its ``SADAME_WEB_BALANCE``); with ``upstream``,
    uvicorn's own ``--workers`` server of the same app (what a user would run without sadame's supervisor)."""
    port = _free_port()
    env = ({k: v for k, v in os.environ.items() if not k.startswith("SADAME_")} | _BENCH_ENV
           | {"SADAME_DB": db_url, "SADAME_WEB_BALANCE": balance})
    sadame = str(Path(sys.executable).parent / "sadame")
    if upstream:
        env["SADAME_WEB_MIGRATE"] = "0"
    command = ([sys.executable, "-m", "uvicorn", "sadame.web._serve:app_from_env", "--factory", "--workers",
                str(workers), "--port", str(port), "--log-level", "warning", "--no-access-log"] if upstream
               else [sadame, "serve", "--workers", str(workers), "--port", str(port), "--db", db_url])
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/puzzles", timeout=10).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("sadame serve did not start")


Request = tuple[str, str, bytes]  # method, path, JSON body

CLIENT = "raw sockets (one selectors loop in one client process, requests pre-built as bytes)"
WRK_CLIENT = ("wrk (C, epoll, run as a child process; one connection per client, each client's requests "
              "pre-built with its own session cookie; {threads})")
WRK_THREADS = {"cores": "min(clients, cores) threads, each cycling the requests of its clients in turn",
               "per-client": "one thread per client"}


class BenchError(SystemExit):
    """A request of a measured cell failed: the figures of that cell would be wrong."""


def _request_bytes(port: int, request: Request, cookie: str, keep_alive: bool) -> bytes:
    method, path, body = request
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: */*"]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _response_end(data: bytes | bytearray) -> int:
    """The length of the first complete response in ``data`` (Content-Length framed), or 0."""
    head = data.find(b"\r\n\r\n")
    if head < 0:
        return 0
    length = 0
    for line in bytes(data[:head]).split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    end = head + 4 + length
    return end if len(data) >= end else 0


def _exchange(port: int, raw: bytes) -> bytes:
    """One blocking request on its own connection; the whole response."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(raw)
        data = b""
        while not (end := _response_end(data)):
            chunk = sock.recv(65536)
            if not chunk:
                raise BenchError(f"the server closed the connection mid-response: {data[:200]!r}")
            data += chunk
        return data[:end]


def _session_cookie(port: int, first: Request) -> str:
    """A warm-up request without a cookie; the session cookie the server set (empty if none)."""
    response = _exchange(port, _request_bytes(port, first, "", keep_alive=False))
    _status(response)
    head = response.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    cookies = [line.split(":", 1)[1].strip().split(";", 1)[0] for line in head.split("\r\n")
               if line.lower().startswith("set-cookie:")]
    return "; ".join(cookies)


def _status(response: bytes) -> int:
    status = int(response[9:12])
    if status >= 400:
        raise BenchError(f"benchmark request failed, figures would be wrong: {response[:600]!r}")
    return status


class _Conn:
    """One client: its pre-built requests, sent one after another on one connection
    (keep-alive) or each on a new one."""

    def __init__(self, port: int, requests: list[bytes], keep_alive: bool) -> None:
        self.port, self.requests, self.keep_alive = port, requests, keep_alive
        self.sock: socket.socket | None = None
        self.next = 0
        self.buffer = bytearray()
        self.started = 0.0

    def connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", self.port))
        self.sock = sock
        return sock


def _loop(port: int, plans: list[list[bytes]], keep_alive: bool, seconds: float | None) -> tuple[list[float], float, float]:
    """Drive every plan at once from this thread; the latencies and the wall-clock span.

    With ``seconds``, every client cycles through its plan until the window ends and only the
    responses that arrived inside it count: all clients are busy for the whole window, so no
    worker idles while the clients of the other one finish their share (a fixed number of
    requests per client measured that tail instead of the server). Without it, each plan is
    sent once.
    """
    import selectors

    selector = selectors.DefaultSelector()
    latencies: list[float] = []
    conns = [_Conn(port, plan, keep_alive) for plan in plans]
    began = time.perf_counter()
    deadline = began + seconds if seconds else float("inf")
    for conn in conns:  # a non-blocking connect completes when the socket turns writable
        conn.started = time.perf_counter()
        selector.register(conn.connect(), selectors.EVENT_WRITE, conn)
    active = len(conns)
    while active:
        for key, events in selector.select():
            conn = key.data
            sock = conn.sock
            assert sock is not None
            if events & selectors.EVENT_WRITE:
                sock.send(conn.requests[conn.next % len(conn.requests)])  # a request fits the socket buffer
                selector.modify(sock, selectors.EVENT_READ, conn)
                continue
            chunk = sock.recv(262144)
            if not chunk:
                raise BenchError(f"the server closed a connection mid-response: {bytes(conn.buffer[:200])!r}")
            conn.buffer += chunk
            end = _response_end(conn.buffer)
            if not end:
                continue
            now = time.perf_counter()
            if now <= deadline:
                latencies.append(now - conn.started)
            _status(bytes(conn.buffer[:end]))
            del conn.buffer[:end]
            conn.next += 1
            done = now > deadline if seconds else conn.next == len(conn.requests)
            if not keep_alive or done:
                selector.unregister(sock)
                sock.close()
            if done:
                active -= 1
                continue
            conn.started = time.perf_counter()
            if keep_alive:
                sock.send(conn.requests[conn.next % len(conn.requests)])
            else:
                selector.register(conn.connect(), selectors.EVENT_WRITE, conn)
    return latencies, began, min(deadline, time.perf_counter())


def _plans(port: int, make: Callable[[int], Request], count: int, clients: int, keep_alive: bool) -> list[list[bytes]]:
    """Each client's pre-built requests (``count`` in all, dealt round-robin), each client with
    its own session cookie from one warm-up request."""
    plans = []
    for c in range(clients):
        cookie = _session_cookie(port, make(count + c))
        plans.append([_request_bytes(port, make(i), cookie, keep_alive) for i in range(c, count, clients)])
    return plans


def _drive(url: str, make: Callable[[int], Request], count: int, clients: int, keep_alive: bool,
           seconds: float | None = None) -> dict[str, Any]:
    """``count`` requests from ``clients`` clients (each with its own session cookie, from one
    warm-up request), sent from this process with raw sockets; with ``seconds``, the requests
    are cycled for that long (see :func:`_loop`). With the CPU time this client spent."""
    port = int(url.rsplit(":", 1)[1])
    plans = _plans(port, make, count, clients, keep_alive)
    cpu = time.process_time()
    latencies, began, ended = _loop(port, plans, keep_alive, seconds)
    cpu = time.process_time() - cpu
    wall = ended - began
    latencies.sort()
    return {"rps": len(latencies) / wall, "p50": statistics.median(latencies) * 1000,
            "p99": latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000, "errors": 0,
            "client_cpu": cpu / wall, "wall": wall, "requests": len(latencies)}


_WRK_SCRIPT = """\
-- Thread N sends plan N in turn: its clients' pre-built requests (each client's with its own
-- session cookie), interleaved; with one thread per client, plan N is client N's, as the
-- Python client sends them.
local plans = {%s}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("client", count)
end
function init(args)
  plan = plans[client]
  sent = 0
end
function request()
  sent = sent + 1
  return plan[(sent - 1) %% #plan + 1]
end
"""


def _lua_bytes(raw: bytes) -> str:
    return '"' + "".join(f"\\{b}" for b in raw) + '"'


def _wrk_seconds(value: str) -> float:
    units = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}
    for unit in ("us", "ms", "s", "m"):
        if value.endswith(unit):
            return float(value[: -len(unit)]) * units[unit]
    return float(value)


def wrk_thread_count(clients: int, threads: str) -> int:
    """wrk's -t: one per client, or no more than the machine's cores ("cores", the default:
    more threads than cores only add the client's context switches to the cores it shares
    with the server)."""
    return clients if threads == "per-client" else max(1, min(clients, os.cpu_count() or 1))


def _thread_plans(plans: list[list[bytes]], threads: int) -> list[list[bytes]]:
    """Client c's requests go to thread c % threads (wrk gives each thread clients/threads
    connections), interleaved so that every client's requests are sent in turn."""
    merged: list[list[bytes]] = []
    for t in range(threads):
        mine = plans[t::threads]
        merged.append([plan[i] for i in range(max(len(p) for p in mine)) for plan in mine if i < len(plan)])
    return merged


def _drive_wrk(url: str, make: Callable[[int], Request], count: int, clients: int, keep_alive: bool,
               seconds: float, threads: str = "cores") -> dict[str, Any]:
    """The same cell as :func:`_drive`, sent by ``wrk`` (C, epoll): one connection per client,
    each client with its own session cookie and pre-built requests, on
    :func:`wrk_thread_count` threads."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("--client wrk: wrk is not installed (apt-get install wrk)")
    port = int(url.rsplit(":", 1)[1])
    count_threads = wrk_thread_count(clients, threads)
    plans = ["{" + ", ".join(_lua_bytes(r) for r in plan) + "}"
             for plan in _thread_plans(_plans(port, make, count, clients, keep_alive), count_threads)]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_WRK_SCRIPT % ", ".join(plans))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run([wrk, "-t", str(count_threads), "-c", str(clients), "-d", f"{max(1, round(seconds))}s",
                               "--latency", "-s", script.name, url], capture_output=True, text=True, check=True)
    finally:
        os.unlink(script.name)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return _wrk_result(done.stdout, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def _wrk_result(out: str, cpu: float) -> dict[str, Any]:
    """req/s, p50 and p99 from wrk's summary; any error or non-2xx/3xx response stops the run."""
    if "Non-2xx" in out or "Socket errors" in out:
        raise BenchError(f"benchmark requests failed under wrk, figures would be wrong:\n{out}")
    fields: dict[str, str] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("50%", "99%"):
            fields[parts[0]] = parts[1]
        elif "requests in" in line:
            fields["requests"], fields["wall"] = parts[0], parts[3].rstrip(",")
    requests, wall = int(fields["requests"]), _wrk_seconds(fields["wall"])
    return {"rps": requests / wall, "p50": _wrk_seconds(fields["50%"]) * 1000,
            "p99": _wrk_seconds(fields["99%"]) * 1000, "errors": 0, "client_cpu": cpu / wall, "wall": wall,
            "requests": requests}


def _routes() -> list[tuple[str, Callable[[int], Request]]]:
    pack = bundled_pack("engineering")
    questions = [(p.id, e.q) for p in pack.puzzles.values() for e in p.examples]

    def ask(i: int) -> Request:
        puzzle, question = questions[i % len(questions)]
        return ("POST", f"/api/puzzles/{pack.name}/{puzzle}/ask",
                json.dumps({"question": question}, ensure_ascii=False).encode())

    return [("list: GET /api/puzzles", lambda i: ("GET", "/api/puzzles", b"")),
            ("question: POST /api/puzzles/…/ask", ask)]


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _cpu(stat_dir: Path) -> float:
    stat = (stat_dir / "stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def _server_cpu(pid: int) -> tuple[float, list[float]]:
    """CPU seconds (user + system) of the server ``pid`` with its workers, and of each worker
    process (by pid order; none when the server is one process)."""
    total, workers = _cpu(Path(f"/proc/{pid}")), []
    for entry in sorted(Path("/proc").iterdir(), key=lambda p: p.name):
        if not entry.name.isdigit():
            continue
        try:
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) != pid:
                continue
            used = _cpu(entry)
            spawned = b"spawn_main" in (entry / "cmdline").read_bytes()
        except OSError:
            continue
        total += used
        if spawned:
            workers.append(used)
    return total, workers


_KEYS = ("rps", "p50", "p99", "split", "server_ms", "client_cpu")


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {key: statistics.median(run[key] for run in runs) for key in _KEYS}


def _measure(process: subprocess.Popen[bytes], url: str, make: Callable[[int], Request], requests: int,
             clients: int, keep_alive: bool, seconds: float | None = None, client: str = "python",
             threads: str = "cores") -> dict[str, Any]:
    """One cell's run on one server, with the server's CPU per request and the busiest worker's share."""
    total, before = _server_cpu(process.pid)
    run = (_drive_wrk(url, make, requests, clients, keep_alive, seconds or 3.0, threads) if client == "wrk"
           else _drive(url, make, requests, clients, keep_alive, seconds))
    after_total, after = _server_cpu(process.pid)
    used = [b - a for a, b in zip(before, after, strict=False)]
    run["split"] = max(used) / sum(used) if len(used) > 1 and sum(used) > 0 else 1.0
    run["server_ms"] = (after_total - total) / run["requests"] * 1000
    return run


def _servers(db_url: str | None, balances: tuple[str, ...]) -> dict[str, tuple[subprocess.Popen[bytes], str]]:
    """sadame serve with 1 worker ("1"), with 2 in each balance design ("2:shared", ...), and
    uvicorn's own --workers 2 ("uvicorn"), each on its own fresh database unless ``db_url`` is given."""
    tmp = Path(tempfile.mkdtemp(prefix="sadame-bench-web-"))
    servers = {"1": _start_server(db_url or f"sqlite:///{tmp / 'bench1.db'}", 1)}
    for balance in balances:
        servers[f"2:{balance}"] = _start_server(db_url or f"sqlite:///{tmp / f'bench2{balance}.db'}", 2,
                                                balance=balance)
    upstream_db = db_url or f"sqlite:///{tmp / 'bench0.db'}"
    upgrade(upstream_db)  # uvicorn's workers would each migrate at once
    servers["uvicorn"] = _start_server(upstream_db, 2, upstream=True)
    for _process, url in servers.values():  # every worker loads its packs and compiles every puzzle's
        for _name, make in _routes():        # table before timing (new connections reach both workers)
            _drive(url, make, 800, 16, keep_alive=False)
    return servers


def cpu_per_request(db_url: str | None, requests: int, rounds: int) -> None:
    """Server CPU per request of each route, one worker (``sadame serve --workers 1``), 4 keep-alive clients."""
    load_before = _load()
    tmp = Path(tempfile.mkdtemp(prefix="sadame-bench-web-"))
    process, url = _start_server(db_url or f"sqlite:///{tmp / 'cpu.db'}", 1)
    rows = []
    try:
        for name, make in _routes():
            _drive(url, make, 800, 4, keep_alive=True)
            runs = [_measure(process, url, make, requests, 4, True) for _ in range(rounds)]
            rows.append((name, _median(runs)))
    finally:
        process.terminate()
        process.wait(timeout=60)
    print(f"### Server CPU per request (`sadame serve --workers 1`, 4 keep-alive clients, median of {rounds} "
          f"rounds of {requests} requests, load average {load_before} before, {_load()} after)\n")
    print("| route | server CPU ms/request | req/s | p50 ms | client CPU |")
    print("|---|---:|---:|---:|---:|")
    for name, row in rows:
        print(f"| {name} | {row['server_ms']:.2f} | {row['rps']:.0f} | {row['p50']:.1f} | {row['client_cpu']:.0%} |")


def scaling(db_url: str | None, requests: int, rounds: int, seconds: float, client: str = "python",
            threads: str = "cores", balances: tuple[str, ...] = BALANCES[:1]) -> None:
    """req/s, p50 and p99 per route for 1, 4, 16 clients, keep-alive and not, with 1 and 2 workers.

    All servers run at once (an idle one costs nothing) and every cell alternates between
    them ``rounds`` times, the median kept: on a shared machine the load drifts, and this
    way every worker count sees the same drift. The ratio of each round (2 workers over the
    1 worker run just before) is shown too, lowest to highest.
    """
    results: dict[tuple[str, bool, str, int], dict[str, Any]] = {}  # by server name (see _servers)
    ratios: dict[tuple[str, bool, str, int], list[float]] = {}
    load_before = _load()
    servers = _servers(db_url, balances)
    try:
        for name, make in _routes():
            for keep_alive in (True, False):
                for clients in (1, 4, 16):
                    runs: dict[str, list[dict[str, Any]]] = {server: [] for server in servers}
                    for _round in range(rounds):
                        for server in runs:
                            process, url = servers[server]
                            runs[server].append(_measure(process, url, make, requests, clients, keep_alive,
                                                         seconds, client, threads))
                    for balance in balances:
                        ratios[(name, keep_alive, balance, clients)] = sorted(
                            two["rps"] / one["rps"] for one, two in zip(runs["1"], runs[f"2:{balance}"], strict=True))
                    for server, cell in runs.items():
                        results[(name, keep_alive, server, clients)] = _median(cell)
    finally:
        for process, _url in servers.values():
            process.terminate()
            process.wait(timeout=60)
    load_after = _load()
    for balance in balances:  # the same 1-worker and uvicorn runs in every table
        view = {(name, keep, workers, clients): results[(name, keep, server, clients)]
                for (name, keep, server, clients) in results
                for workers, wanted in ((1, "1"), (2, f"2:{balance}"), (0, "uvicorn")) if server == wanted}
        these = {(name, keep, clients): each for (name, keep, b, clients), each in ratios.items() if b == balance}
        _print_scaling(view, these, seconds, rounds, load_before, client, threads, balance, load_after)


def _print_scaling(results: dict[tuple[str, bool, int, int], dict[str, Any]],
                   ratios: dict[tuple[str, bool, int], list[float]], seconds: float, rounds: int,
                   load_before: str, client: str, threads: str, balance: str, load_after: str) -> None:
    print(f"### `sadame serve --workers N`, SADAME_WEB_BALANCE={balance} ({os.cpu_count()} cores, default workers "
          f"{default_workers()}, Python {platform.python_version()}, median of {rounds} rounds of {seconds:g} s "
          f"per cell, load average {load_before} before, {load_after} after)\n")
    described = WRK_CLIENT.format(threads=WRK_THREADS[threads]) if client == "wrk" else CLIENT
    print(f"Client: {described}; its CPU is shown as a share of one core while the 2-worker cell ran. "
          "Server CPU is user + system time of all its processes per request. No request failed "
          "(the run stops at the first failure).\n")
    print("| route | connection | clients | 1 worker req/s | 2 workers req/s | ratio | ratio per round | "
          "1 worker p50 ms | 2 workers p50 ms | server CPU ms/req 1 / 2 workers | "
          "2 workers: busiest's CPU share | client CPU | uvicorn --workers 2 req/s | its p50 ms | "
          "its busiest's CPU share |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for name, _make in _routes():
        for keep_alive in (True, False):
            for clients in (1, 4, 16):
                up, one, two = (results[(name, keep_alive, w, clients)] for w in (0, 1, 2))
                each = ratios[(name, keep_alive, clients)]
                print(f"| {name} | {'keep-alive' if keep_alive else 'close'} | {clients} | {one['rps']:.0f} | "
                      f"{two['rps']:.0f} | {two['rps'] / one['rps']:.2f}x | "
                      f"{' '.join(f'{r:.2f}' for r in each)} | {one['p50']:.1f} | {two['p50']:.1f} | "
                      f"{one['server_ms']:.1f} / {two['server_ms']:.1f} | {two['split']:.0%} | "
                      f"{two['client_cpu']:.0%} | {up['rps']:.0f} | {up['p50']:.1f} | {up['split']:.0%} |")
    _print_targets(results)


def _print_targets(results: dict[tuple[str, bool, int, int], dict[str, Any]]) -> None:
    """Issue 22's two figures, from the table above."""
    print("\n| issue 22 target | route | connection | measured | client CPU (2 workers) | result |")
    print("|---|---|---|---:|---:|---|")
    for name, _make in _routes():
        for keep_alive in (True, False):
            one, two = (results[(name, keep_alive, w, 16)] for w in (1, 2))
            ratio = two["rps"] / one["rps"]
            print(f"| 2 workers ≥ 1.6x the req/s of 1 at 16 clients | {name} | "
                  f"{'keep-alive' if keep_alive else 'close'} | {ratio:.2f}x | {two['client_cpu']:.0%} | "
                  f"{'PASS' if ratio >= 1.6 else 'MISSED'} |")
    for name, _make in _routes():
        one, two = (results[(name, True, w, 1)] for w in (1, 2))
        ratio = two["p50"] / one["p50"]
        print(f"| p50 at 1 keep-alive client, {default_workers()} workers, within 1.5x of 1 worker | {name} | "
              f"keep-alive | {two['p50']:.1f} / {one['p50']:.1f} ms = {ratio:.2f}x | {two['client_cpu']:.0%} | "
              f"{'PASS' if ratio <= 1.5 else 'MISSED'} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per route (default 300)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads (default 4)")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--rounds", type=int, default=3, help="--scaling: rounds per cell (default 3)")
    parser.add_argument("--scaling", action="store_true", help="the workers table instead (see above)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="--scaling: seconds per cell, every client busy throughout (default 3; "
                             "--requests distinct requests are cycled)")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto",
                        help="--scaling: the load generator (default auto: wrk when installed, else the "
                             "Python raw-socket client)")
    parser.add_argument("--wrk-threads", choices=tuple(WRK_THREADS), default="cores",
                        help="--scaling with wrk: its threads (default cores: min(clients, cores); "
                             "per-client: one thread per client, as before 2026-12-02)")
    parser.add_argument("--balance", default=BALANCES[0],
                        help=f"--scaling: comma-separated 2-worker designs, each its own server in the same rounds "
                             f"(of {', '.join(BALANCES)}; default {BALANCES[0]})")
    parser.add_argument("--cpu", action="store_true", help="server CPU per request of the list and question routes")
    args = parser.parse_args()
    if args.scaling:
        client = args.client if args.client != "auto" else ("wrk" if shutil.which("wrk") else "python")
        balances = tuple(b.strip() for b in args.balance.split(",") if b.strip())
        if not balances or any(b not in BALANCES for b in balances):
            parser.error(f"--balance: comma-separated values of {', '.join(BALANCES)}")
        scaling(args.db, args.requests, args.rounds, args.seconds, client, args.wrk_threads, balances)
        return
    if args.cpu:
        cpu_per_request(args.db, args.requests, args.rounds)
        return

    tmp = Path(tempfile.mkdtemp(prefix="sadame-bench-web-"))
    db_url = args.db or f"sqlite:///{tmp / 'bench.db'}"
    app = create_app(db_url, settings=WebSettings(judge_fallback=None))
    key = create_key(db_url, tenant="bench").key
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"

    pack = bundled_pack("engineering")
    puzzles = list(pack.puzzles.values())
    questions = [(p.id, e.q) for p in puzzles for e in p.examples]
    auth = {"Authorization": f"Bearer {key}"}
    n, c = args.requests, args.clients
    rows = [
        _run("GET /puzzles (HTML page)", url, n, c, lambda cl, i: cl.get("/puzzles")),
        _run("POST /api/normalize (explain)", url, n, c,
             lambda cl, i: cl.post("/api/normalize", json={"text": f"ＣＳＳ？ｷｬｯｼｭ{i}", "explain": True})),
        _run("POST /api/puzzles/.../ask (judge + save history)", url, n, c,
             lambda cl, i: cl.post(f"/api/puzzles/{pack.name}/{questions[i % len(questions)][0]}/ask",
                                   json={"question": questions[i % len(questions)][1]})),
        _run("POST /api/quote/check (3 KB source)", url, n, c,
             lambda cl, i: cl.post("/api/quote/check", json={"source": SOURCE, "output": OUTPUT})),
        _run("POST /api/track/ingest (3 insights, 1 user per client)", url, n, c,
             lambda cl, i: cl.post("/api/track/ingest", json={
                 "user_id": f"user-{i % c}", "session_id": f"s{i}",
                 "insights": ["安定性が不足している", "タイミングにばらつきがある", f"その他の指摘{i % 7}"]}),
             headers=auth),
        _run("GET /api/track/users/{u}/issues", url, n, c,
             lambda cl, i: cl.get(f"/api/track/users/user-{i % c}/issues"), headers=auth),
    ]
    server.should_exit = True
    thread.join(timeout=10)

    backend = "PostgreSQL" if db_url.startswith("postgresql") else "SQLite"
    print(f"### Web service over HTTP ({backend}, {c} client threads, one uvicorn process, "
          f"Python {platform.python_version()})\n")
    print("| route | requests | req/s | p50 ms | p95 ms | errors |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['requests']} | {r['rps']:.0f} | {r['p50']:.1f} | {r['p95']:.1f} | {r['errors']} |")


if __name__ == "__main__":
    main()
