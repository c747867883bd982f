"""Benchmark: the hostile inputs of issue 11 at 8 KB, 64 KB and 1 MB, through the library and the web route.

Each measurement runs in a fresh Python process, so its peak memory is its own:
the child builds the input, resets the kernel's peak-RSS counter
(``/proc/self/clear_refs``), runs the call once and reports the wall time, the peak
RSS above the baseline taken just before the call, and the size of the answer.

Cases (the sizes are of the JSON request body, UTF-8):

* ``repeated-numbers``  -- ground ``{"claim": "1 "*k, "source": "1 "*k}`` (every number
  of the claim equals every number of the source).
* ``combining-marks``   -- verify a quote ``"a" + U+0301 * k`` against the same source.
* ``many-ellipsis``     -- verify a quote ``"あ…" * k`` (k parts) against ``"あい" * k``.
* ``many-spans``        -- verify 1,000 short quotes, each occurring everywhere in the source.
* ``check-*``           -- the same inputs through the quote checker (``/api/quote/check``:
  extraction, verification, grounding, highlighting), the combining marks and repeated
  numbers as the source and an output that quotes and repeats them.

Routes: ``lib`` calls :mod:`sadame.quote` directly; ``web`` posts the body to the ASGI
app in-process (``create_app`` on a temporary SQLite file, through Starlette's
``TestClient``), so the measurement includes JSON parsing, validation and serialization.

    .venv/bin/python benchmarks/quote_adversarial.py            # every case, 3 sizes, lib + web
    .venv/bin/python benchmarks/quote_adversarial.py --quick    # 8 KB and 64 KB only
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["CASES", "build", "main"]

SIZES = {"8 KB": 8_000, "64 KB": 64_000, "1 MB": 990_000}  # the web service accepts bodies up to 1,000,000 bytes
TARGET_SECONDS = 2.0
TARGET_EXTRA_MB = 200.0


def _fit(unit: str, size: int, overhead: int = 200) -> int:
    """How many repetitions of ``unit`` fill ``size`` bytes of JSON (two fields of equal size)."""
    return max(1, (size - overhead) // 2 // len(json.dumps(unit, ensure_ascii=False).encode()[1:-1]))


def _numbers(size: int) -> tuple[str, dict[str, Any]]:
    k = _fit("1 ", size)
    return "/api/quote/ground", {"claim": "1 " * k, "source": "1 " * k}


def _combining(size: int) -> tuple[str, dict[str, Any]]:
    k = _fit("\u0301", size)
    text = "a" + "\u0301" * k
    return "/api/quote/verify", {"source": text, "quotes": [text]}


def _ellipsis(size: int) -> tuple[str, dict[str, Any]]:
    k = _fit("あ…", size)
    return "/api/quote/verify", {"source": "あい" * k, "quotes": ["あ…" * k]}


def _spans(size: int) -> tuple[str, dict[str, Any]]:
    quotes = min(1000, size // 64)  # 10 bytes of JSON each; the source takes the rest
    k = max(1, (size - 200 - 10 * quotes) // 6)
    return "/api/quote/verify", {"source": "引用" * k, "quotes": ["引用"] * quotes}


def _check(builder: Callable[[int], tuple[str, dict[str, Any]]]) -> Callable[[int], tuple[str, dict[str, Any]]]:
    def build_check(size: int) -> tuple[str, dict[str, Any]]:
        _, body = builder(size)
        if "claim" in body:
            return "/api/quote/check", {"source": body["source"], "output": body["claim"]}
        quotes = body["quotes"]
        output = "\n".join(f"「{q}」" for q in quotes)
        return "/api/quote/check", {"source": body["source"], "output": output}

    return build_check


CASES: dict[str, Callable[[int], tuple[str, dict[str, Any]]]] = {
    "repeated-numbers": _numbers,
    "combining-marks": _combining,
    "many-ellipsis": _ellipsis,
    "many-spans": _spans,
    "check-repeated-numbers": _check(_numbers),
    "check-combining-marks": _check(_combining),
    "check-many-ellipsis": _check(_ellipsis),
}


def build(case: str, size: int) -> tuple[str, dict[str, Any]]:
    """The route and the JSON body of ``case`` at about ``size`` bytes."""
    return CASES[case](size)


def _call_library(route: str, body: dict[str, Any]) -> Any:
    from sadame.quote import check_output, ground_numbers, verify_quotes

    if route.endswith("/ground"):
        return ground_numbers(body["claim"], body["source"]).to_dict()
    if route.endswith("/verify"):
        return [r.to_dict() for r in verify_quotes(body["quotes"], body["source"])]
    return check_output(body["source"], body["output"]).to_dict()


def _rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _child(case: str, size: int, mode: str) -> dict[str, Any]:
    route, body = build(case, size)
    payload = json.dumps(body, ensure_ascii=False).encode()
    with tempfile.TemporaryDirectory() as tmp:
        client = None
        if mode == "web":
            from starlette.testclient import TestClient

            from sadame.web import WebSettings, create_app

            app = create_app(f"sqlite:///{tmp}/bench.db", settings=WebSettings(judge_fallback=None))
            # the app answers only its allowed hosts (TestClient's default "testserver" gets a 400)
            client = TestClient(app, base_url="http://127.0.0.1")
            client.post(route, content=b"{}", headers={"content-type": "application/json"})  # warm up
        else:
            _call_library("/api/quote/ground", {"claim": "1", "source": "1"})  # warm up imports
        Path("/proc/self/clear_refs").write_text("5")
        baseline = _rss_kb("VmRSS")
        start = time.perf_counter()
        if client is not None:
            response = client.post(route, content=payload, headers={"content-type": "application/json"})
            status, answer = response.status_code, len(response.content)
        else:
            status, answer = 200, len(json.dumps(_call_library(route, body), ensure_ascii=False).encode())
        seconds = time.perf_counter() - start
        extra_mb = (_rss_kb("VmHWM") - baseline) / 1024
    return {"bytes": len(payload), "status": status, "seconds": seconds, "extra_mb": extra_mb, "answer": answer}


def _measure(case: str, size: int, mode: str) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", case, str(size), mode]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"}
    return dict(json.loads(out.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="8 KB and 64 KB only")
    parser.add_argument("--child", nargs=3, metavar=("CASE", "SIZE", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        case, size, mode = args.child
        print(json.dumps(_child(case, int(size), mode)))
        return 0
    sizes = {k: v for k, v in SIZES.items() if not (args.quick and v > 100_000)}
    print(f"Adversarial quote inputs; Python {platform.python_version()}, one fresh process per row.\n")
    print("| case | route | body | HTTP | seconds | peak extra MB | answer bytes |")
    print("|---|---|---:|---:|---:|---:|---:|")
    misses = 0
    for case in CASES:
        for label, size in sizes.items():
            for mode in ("lib", "web"):
                r = _measure(case, size, mode)
                if "error" in r:
                    misses += 1
                    print(f"| {case} | {mode} | {label} | - | - | - | {r['error']} |")
                    continue
                slow = size > 100_000 and (r["seconds"] >= TARGET_SECONDS or r["extra_mb"] >= TARGET_EXTRA_MB)
                misses += slow or r["status"] not in (200, 413)  # a 400 or 500 measured no check
                print(
                    f"| {case} | {mode} | {r['bytes']:,} | {r['status']} | {r['seconds']:.3f} "
                    f"| {r['extra_mb']:.1f} | {r['answer']:,} |"
                )
    print(f"\nTarget (1 MB rows): under {TARGET_SECONDS:.0f} s and {TARGET_EXTRA_MB:.0f} MB extra: "
          f"{'PASS' if not misses else f'MISS ({misses})'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
