"""Benchmark of the web service: request latency and throughput over real HTTP.

Starts ``create_app`` under uvicorn on 127.0.0.1 (one process, as ``sadame serve``
does) on a fresh SQLite file -- or the PostgreSQL URL given with ``--db`` -- and
drives it with ``httpx`` from a few client threads. Figures include the HTTP stack,
JSON (de)serialisation, the database round trips of the route and the feature's
own work. Prints a markdown table; no pass/fail targets (issue 7 sets none).

    .venv/bin/python benchmarks/web.py                 # ~30 s on an idle 2-core machine
    .venv/bin/python benchmarks/web.py --requests 100 --clients 2
    .venv/bin/python benchmarks/web.py --db postgresql+psycopg://me@localhost/bench
"""

from __future__ import annotations

import argparse
import platform
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from sadame.judge import bundled_pack
from sadame.web import WebSettings, create_app, create_key

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
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per route (default 300)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads (default 4)")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="sadame-bench-web-"))
    db_url = args.db or f"sqlite:///{tmp / 'bench.db'}"
    app = create_app(db_url, settings=WebSettings(judge_fallback=None))
    key = create_key("bench", db_url).key
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
