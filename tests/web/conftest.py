"""Fixtures of the web tests: a real uvicorn server on 127.0.0.1 and a real Chromium.

* ``live_server``: the app from ``create_app(db_url)`` served by uvicorn in a
  thread on a random free port, once on SQLite and once on PostgreSQL (``db_url``).
* ``browser``: Debian's Chromium driven by Playwright (one per test session).
* ``page``: a fresh browser context (its own cookies) per test.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from sadame.web import WebSettings, create_app
from sadame.web._serve import _KEEP_ALIVE as KEEP_ALIVE
from sadame.web.admin import create_key

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass
class LiveServer:
    url: str
    db_url: str
    app: Any

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, **kwargs)

    def key(self, tenant: str) -> str:
        """A fresh API key for ``tenant`` (created through the library, as the CLI does)."""
        return create_key(self.db_url, tenant=tenant).key


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])



def wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    """Until a ``sadame serve`` subprocess answers ``/api/puzzles`` (60 s; fails with its stderr if it exits)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        try:
            if httpx.get(f"{url}/api/puzzles", timeout=10).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError("sadame serve did not answer within 60 s")


def stop_server(process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Stop a ``sadame serve`` subprocess as Ctrl+C does; kill it if it is still there after ``timeout``."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()

def serve(app: Any) -> tuple[uvicorn.Server, threading.Thread, str]:
    port = _free_port()
    # as `sadame serve` runs it: X-Forwarded-For is the app's to read (from trusted proxies only),
    # and idle keep-alive connections stay open 65 s (uvicorn's 5 s default let a client reusing one
    # after a slow step of a test race the server closing it: a reset, seen once in CI)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off",
                            proxy_headers=False, timeout_keep_alive=KEEP_ALIVE)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{port}"


@contextmanager
def running(db_url: str, settings: WebSettings | None = None) -> Iterator[LiveServer]:
    """The app for ``db_url`` served on a free loopback port until the block ends."""
    app = create_app(db_url) if settings is None else create_app(db_url, settings=settings)
    server, thread, url = serve(app)
    try:
        yield LiveServer(url, db_url, app)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.ctx.engine.dispose()


@pytest.fixture
def live_server(db_url: str) -> Iterator[LiveServer]:
    with running(db_url) as live:
        yield live


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="ja-JP", viewport={"width": 1100, "height": 900})
    context.set_default_timeout(15_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def screenshot_dir() -> Path:
    """Where browser tests save screenshots: a temporary directory, so that a test run never
    rewrites tracked files; ``make screenshots`` points it at docs/screenshots."""
    configured = os.environ.get("SADAME_SCREENSHOT_DIR")
    if configured:
        return Path(configured)
    return Path(tempfile.gettempdir()) / "sadame-screenshots"
