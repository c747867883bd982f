"""Benchmark of the web service: request latency and throughput over real HTTP.

Starts ``create_app`` under uvicorn on 127.0.0.1 (one process, as ``sadame serve``
does) on a fresh SQLite file -- or the PostgreSQL URL given with ``--db`` -- and
drives it with ``httpx`` from a few client threads. Figures include the HTTP stack,
JSON (de)serialisation, the database round trips of the route and the feature's
own work. Prints a markdown table; no pass/fail targets (issue 7 sets none).

    .venv/bin/python benchmarks/web.py                 # ~30 s on an idle 2-core machine
    .venv/bin/python benchmarks/web.py --requests 100 --clients 2
    .venv/bin/python benchmarks/web.py --db postgresql+psycopg://me@localhost/bench
    .venv/bin/python benchmarks/web.py --scaling       # 1/4/16 clients x keep-alive/close x 1/2 workers

``--scaling`` starts ``sadame serve --workers N`` (a real multi-process server) for
N = 1 and 2 and drives the list and question routes with 1, 4 and 16 clients, each
over one keep-alive connection and each with a new connection per request, in one
run; clients are threads in up to 4 client processes (``http.client``), and the load
average before and after is printed (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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




_BENCH_ENV = {  # budgets far above what a run asks, so every cell measures serving, not 429s
    "SADAME_MAX_QUESTIONS": "1000000", "SADAME_CLIENT_QUESTIONS": "1000000", "SADAME_CLIENT_SESSIONS": "1000000",
    "SADAME_LOG_LEVEL": "warning",
}


def _start_server(db_url: str, workers: int, upstream: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """``sadame serve --workers N``; with ``upstream``, uvicorn's own ``--workers`` server of the same
    app (what a user would run without sadame's supervisor)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_")} | _BENCH_ENV | {"SADAME_DB": db_url}
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


def _client(port: int, requests: list[Request], keep_alive: bool, out: list[float], errors: list[int],
            start: threading.Barrier) -> None:
    """One client: a warm-up request (it gets the session cookie), then ``requests`` timed."""
    import http.client

    cookie = ""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def send(method: str, path: str, body: bytes) -> int:
        nonlocal conn, cookie
        headers = {"Content-Type": "application/json"} if body else {}
        if cookie:
            headers["Cookie"] = cookie
        if not keep_alive:
            headers["Connection"] = "close"
        conn.request(method, path, body=body or None, headers=headers)
        response = conn.getresponse()
        response.read()
        cookies = [v.split(";", 1)[0] for k, v in response.getheaders() if k.lower() == "set-cookie"]
        cookie = "; ".join(cookies) or cookie
        if not keep_alive:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        return response.status

    send(*requests[0])
    start.wait()
    for method, path, body in requests:
        started = time.perf_counter()
        status = send(method, path, body)
        out.append(time.perf_counter() - started)
        if status >= 400:
            errors.append(status)
    conn.close()


def _load_process(port: int, plans: list[list[Request]], keep_alive: bool, ready: Any, go: Any,
                  results: Any) -> None:
    """A client process: one thread per plan, started together when ``go`` is set."""
    latencies: list[float] = []
    errors: list[int] = []
    start = threading.Barrier(len(plans) + 1)
    threads = [threading.Thread(target=_client, args=(port, plan, keep_alive, latencies, errors, start))
               for plan in plans]
    for t in threads:
        t.start()
    ready.set()
    go.wait()
    start.wait()
    began = time.perf_counter()  # CLOCK_MONOTONIC: comparable between the client processes
    for t in threads:
        t.join()
    results.put((latencies, len(errors), began, time.perf_counter()))


def _drive(url: str, make: Callable[[int], Request], count: int, clients: int, keep_alive: bool) -> dict[str, Any]:
    """``count`` requests from ``clients`` clients spread over up to 4 client processes
    (so the client's own GIL does not cap what two server workers can serve)."""
    import multiprocessing

    port = int(url.rsplit(":", 1)[1])
    ctx = multiprocessing.get_context("fork")
    plans = [[make(i) for i in range(c, count, clients)] for c in range(clients)]
    groups = [plans[g::min(4, clients)] for g in range(min(4, clients))]
    go, results = ctx.Event(), ctx.Queue()
    procs = []
    for group in groups:
        ready = ctx.Event()
        proc = ctx.Process(target=_load_process, args=(port, group, keep_alive, ready, go, results))
        proc.start()
        ready.wait()
        procs.append(proc)
    time.sleep(0.2)  # let the warm-up requests finish
    go.set()
    latencies: list[float] = []
    errors, began, ended = 0, float("inf"), 0.0
    for _ in procs:
        part, failed, first, last = results.get()
        latencies += part
        errors += failed
        began, ended = min(began, first), max(ended, last)
    wall = ended - began
    for proc in procs:
        proc.join()
    latencies.sort()
    return {"rps": len(latencies) / wall, "p50": statistics.median(latencies) * 1000,
            "p99": latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000, "errors": errors}


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


def _workers_cpu(pid: int) -> list[float]:
    """CPU seconds (user + system) of each worker process of the server ``pid``, by pid order."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = []
    for entry in sorted(Path("/proc").iterdir(), key=lambda p: p.name):
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == pid and b"spawn_main" in (entry / "cmdline").read_bytes():
            found.append((int(stat[11]) + int(stat[12])) / ticks)
    return found


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {key: statistics.median(run[key] for run in runs) for key in ("rps", "p50", "p99", "split")} | {
        "errors": sum(run["errors"] for run in runs)}


def scaling(db_url: str | None, requests: int, rounds: int) -> None:
    """req/s, p50 and p99 per route for 1, 4, 16 clients, keep-alive and not, with 1 and 2 workers.

    Both servers run at once (an idle one costs nothing) and every cell alternates between
    them ``rounds`` times, the median kept: on a shared machine the load drifts, and this
    way both worker counts see the same drift.
    """
    results: dict[tuple[str, bool, int, int], dict[str, Any]] = {}  # worker count 0: uvicorn's own --workers 2
    load_before = _load()
    tmp = Path(tempfile.mkdtemp(prefix="sadame-bench-web-"))
    servers = {w: _start_server(db_url or f"sqlite:///{tmp / f'bench{w}.db'}", max(1, w)) for w in (1, 2)}
    upstream_db = db_url or f"sqlite:///{tmp / 'bench0.db'}"
    upgrade(upstream_db)  # uvicorn's workers would each migrate at once
    servers[0] = _start_server(upstream_db, 2, upstream=True)  # uvicorn's own --workers
    try:
        for name, make in _routes():
            for keep_alive in (True, False):
                for clients in (1, 4, 16):
                    runs: dict[int, list[dict[str, Any]]] = {0: [], 1: [], 2: []}
                    for _round in range(rounds):
                        for workers, (process, url) in servers.items():
                            before = _workers_cpu(process.pid)
                            run = _drive(url, make, requests, clients, keep_alive)
                            used = [b - a for a, b in zip(before, _workers_cpu(process.pid), strict=False)]
                            run["split"] = max(used) / sum(used) if len(used) > 1 and sum(used) > 0 else 1.0
                            runs[workers].append(run)
                    for workers, cell in runs.items():
                        results[(name, keep_alive, workers, clients)] = _median(cell)
    finally:
        for process, _url in servers.values():
            process.terminate()
            process.wait(timeout=60)
    print(f"### `sadame serve --workers N` ({os.cpu_count()} cores, default workers {default_workers()}, "
          f"Python {platform.python_version()}, median of {rounds} rounds of {requests} requests per cell, "
          f"load average {load_before} before, {_load()} after)\n")
    print("| route | connection | clients | 1 worker req/s | 2 workers req/s | ratio | 1 worker p50 ms | "
          "2 workers p50 ms | 2 workers: busiest's CPU share | uvicorn --workers 2 req/s | its p50 ms | "
          "its busiest's CPU share | errors |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, _make in _routes():
        for keep_alive in (True, False):
            for clients in (1, 4, 16):
                up, one, two = (results[(name, keep_alive, w, clients)] for w in (0, 1, 2))
                print(f"| {name} | {'keep-alive' if keep_alive else 'close'} | {clients} | {one['rps']:.0f} | "
                      f"{two['rps']:.0f} | {two['rps'] / one['rps']:.2f}x | {one['p50']:.1f} | {two['p50']:.1f} | "
                      f"{two['split']:.0%} | {up['rps']:.0f} | {up['p50']:.1f} | {up['split']:.0%} | "
                      f"{up['errors'] + one['errors'] + two['errors']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per route (default 300)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads (default 4)")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--rounds", type=int, default=3, help="--scaling: rounds per cell (default 3)")
    parser.add_argument("--scaling", action="store_true", help="the workers table instead (see above)")
    args = parser.parse_args()
    if args.scaling:
        scaling(args.db, args.requests, args.rounds)
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
