"""Benchmark of the LLM tier: what a question costs on each path, and what the concurrency limit does.

Everything runs against the loopback fake OpenAI server (no network, no model):
the figures are sadame's own overhead -- rules, the verdict cache (SQLite),
the HTTP client -- plus a simulated model latency where stated. Prints markdown.

    .venv/bin/python benchmarks/llm.py [--questions 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sadame.judge import Judge, bundled_pack
from sadame.llm._cache import VerdictCache
from sadame.llm._fallback import LLMFallback
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._provider import RetryPolicy
from sadame.llm.testing import FakeOpenAIServer, Reply


def _timed(fn: Callable[[], object], n: int) -> list[float]:
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _row(name: str, samples: list[float], note: str) -> str:
    ordered = sorted(samples)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return f"| {name} | {len(samples)} | {statistics.median(samples):.3f} | {p95:.3f} | {note} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=200)
    args = parser.parse_args()
    n = args.questions
    puzzle = bundled_pack("engineering").puzzle("rainy-lunch-server")
    policy = RetryPolicy(max_retries=0)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAIServer(default="NO") as server:
        cache = VerdictCache(f"sqlite:///{Path(tmp) / 'bench.db'}")
        provider = OpenAICompatProvider(server.base_url, "fake-model", retry_policy=policy)
        with_cache = Judge(puzzle, fallback=LLMFallback(provider, cache=cache))
        without_cache = Judge(puzzle, fallback=LLMFallback(provider))
        rules_only = Judge(puzzle)

        rows.append(
            _row(
                "rules hit", _timed(lambda: rules_only.ask("電子レンジを使っていた？"), n), "no fallback call"
            )
        )
        rows.append(
            _row("rules miss, no LLM", _timed(lambda: rules_only.ask("窓は開いていましたか？"), n), "UNKNOWN")
        )
        before = server.request_count
        rows.append(
            _row(
                "miss -> LLM (loopback, 0 ms model)",
                _timed(lambda: without_cache.ask("窓は開いていましたか？"), n),
                "HTTP round trip + prompt + parse",
            )
        )
        counter = iter(range(10**9))
        rows.append(
            _row(
                "miss -> LLM + cache write",
                _timed(lambda: with_cache.ask(f"窓は開いていましたか{next(counter)}？"), n),
                "first asker of a question",
            )
        )
        with_cache.ask("社長は関わっていますか？")
        calls = server.request_count
        rows.append(
            _row(
                "miss -> cache hit (SQLite)",
                _timed(lambda: with_cache.ask("社長は関わっていますか？"), n),
                "no LLM call",
            )
        )
        assert server.request_count == calls, "a cache hit must not call the LLM"
        llm_calls = server.request_count - before

    print("## LLM tier: cost of one question by path\n")
    print("| path | questions | median ms | p95 ms | note |")
    print("|---|---:|---:|---:|---|")
    print("\n".join(rows))
    print(f"\n{llm_calls} LLM requests in total; cache hits made none.\n")

    print("## Concurrency limit: 32 requests from 8 threads, model latency 50 ms\n")
    print("| SADAME_LLM_CONCURRENCY | wall s | max in flight at the server |")
    print("|---:|---:|---:|")
    for limit in (1, 2, 4, 8):
        with FakeOpenAIServer(default=Reply(content="YES", delay=0.05)) as server:
            client = OpenAICompatProvider(server.base_url, "m", concurrency=limit, retry_policy=policy)
            started = time.perf_counter()

            def worker(client: OpenAICompatProvider = client) -> None:
                for _ in range(4):
                    client.complete([{"role": "user", "content": "q"}])

            threads = [threading.Thread(target=worker) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - started
            print(f"| {limit} | {wall:.2f} | {server.max_in_flight} |")


if __name__ == "__main__":
    main()
