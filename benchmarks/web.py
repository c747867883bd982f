"""Benchmark of the web service: request latency and throughput over real HTTP.

Starts ``create_app`` under uvicorn on 127.0.0.1 (one process, as ``sadame serve``
does) on a fresh SQLite file -- or the PostgreSQL URL given with ``--db`` -- and
drives it with ``httpx`` from a few client threads. Figures include the HTTP stack,
JSON (de)serialisation, the database round trips of the route and the feature's
own work. Prints a markdown table; no pass/fail targets (issue 7 sets none).

    .venv/bin/python benchmarks/web.py                 # ~30 s on an idle 2-core machine
    .venv/bin/python benchmarks/web.py --requests 100 --clients 2
    .venv/bin/python benchmarks/web.py --db postgresql+psycopg://me@localhost/bench
    .venv/bin/python benchmarks/web.py --scaling       # req/s and p99 for 1/4/16 clients x 1/2 workers

``--scaling`` starts ``sadame serve --workers N`` (a real multi-process server) for
N = 1 and 2 and drives two routes with 1, 4 and 16 client threads.
"""

from __future__ import annotations

import argparse
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

from sadame.judge import bundled_pack
from sadame.web import WebSettings, create_app
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


BIG_SOURCE = SOURCE * 34  # ~100 KB


def _start_server(db_url: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SADAME_LLM")}
    sadame = str(Path(sys.executable).parent / "sadame")
    process = subprocess.Popen([sadame, "serve", "--workers", str(workers), "--port", str(port), "--db", db_url],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("sadame serve did not start")


def scaling(db_url: str, requests: int) -> None:
    """req/s and p99 per route for 1, 4, 16 clients with 1 and 2 worker processes."""
    routes: list[tuple[str, Callable[[httpx.Client, int], httpx.Response]]] = [
        ("GET /api/puzzles", lambda cl, i: cl.get("/api/puzzles")),
        ("POST /api/quote/check, 100 KB source (same source)",
         lambda cl, i: cl.post("/api/quote/check", json={"source": BIG_SOURCE, "output": OUTPUT})),
    ]
    results: dict[tuple[str, int, int], dict[str, Any]] = {}
    for workers in (1, 2):
        process, url = _start_server(db_url, workers)
        try:
            for name, make in routes:
                for clients in (1, 4, 16):
                    results[(name, workers, clients)] = _run(name, url, requests, clients, make)
        finally:
            process.terminate()
            process.wait(timeout=30)
    print(f"### `sadame serve --workers N` ({os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{requests} requests per cell)\n")
    print("| route | clients | 1 worker req/s | 1 worker p99 ms | 2 workers req/s | 2 workers p99 ms | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, _make in routes:
        for clients in (1, 4, 16):
            one, two = results[(name, 1, clients)], results[(name, 2, clients)]
            print(f"| {name} | {clients} | {one['rps']:.1f} | {one['p99']:.0f} | {two['rps']:.1f} | "
                  f"{two['p99']:.0f} | {one['errors'] + two['errors']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per route (default 300)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads (default 4)")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--scaling", action="store_true", help="the workers table instead (see above)")
    args = parser.parse_args()
    if args.scaling:
        tmp = Path(tempfile.mkdtemp(prefix="sadame-bench-web-"))
        scaling(args.db or f"sqlite:///{tmp / 'bench.db'}", args.requests)
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
