"""Serving the app: one process, or ``--workers N`` worker processes.

Every worker builds its own app from the environment (:func:`app_from_env`): the
database URL and the settings travel as ``SADAME_*`` variables, and all state is in
the database, so the workers need nothing else in common. The parent process
migrates the database once before the workers start (they skip it).

With more than one worker this module is the supervisor (uvicorn's own is not used). By
default (``SADAME_WEB_BALANCE=reuseport``) it holds the port with a bound socket that never
listens and each worker opens its own ``SO_REUSEPORT`` listener once its app is built; with
``shared`` it opens one listener that every worker inherits and accepts from one connection per
wake-up, once its app is built (:mod:`sadame.web._listen` compares the two). Either way no
connection is handed to a worker that is still starting. It starts the workers (``spawn``),
restarts one that dies after it had started, and stops them all with ``SIGTERM`` on ``SIGINT``
or ``SIGTERM``. Every mode serves with the protocol that sets ``TCP_NODELAY``.

The environment is read through one settings object, :class:`sadame.web._env.EnvSettings`
(every ``SADAME_*`` variable; the table in docs/guide/web.md is generated from it).

uvicorn's own ``X-Forwarded-For`` handling (which trusts loopback by default) is turned off:
the app reads the header only from ``trusted_proxies`` (see :mod:`sadame.web._trust`).
"""

from __future__ import annotations

import logging
import logging.config
import multiprocessing
import os
import shutil
import signal
import socket
import tempfile
import threading
import time
from dataclasses import replace
from types import FrameType
from typing import TYPE_CHECKING, Any

from sadame.db import resolve_url
from sadame.web._env import load_env, web_settings
from sadame.web._listen import BALANCES, listeners, nodelay_protocol, one_accept_per_wake, rejoin, reserve
from sadame.web._logs import log_config
from sadame.web._ops import MULTIPROC_ENV
from sadame.web._settings import WebSettings

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    import uvicorn
    from fastapi import FastAPI

__all__ = ["app_from_env", "default_workers", "serve", "settings_from_env"]

log = logging.getLogger("sadame.web")

_GRACE = 30  # seconds a stopping worker gives open requests
# Seconds an idle keep-alive connection stays open: longer than the 60 s a reverse proxy
# (nginx, most load balancers) keeps its idle upstream connections, so the server never
# closes one the proxy is about to reuse (uvicorn's 5 s default makes that race a 502).
_KEEP_ALIVE = 65
_SETTLE = 5.0  # a worker that dies sooner after its start stops the server instead of restarting


def default_workers() -> int:
    """One worker per core."""
    return max(1, os.cpu_count() or 1)


def with_listen_host(settings: WebSettings, host: str) -> WebSettings:
    """``settings`` whose allowed hosts include the address the server listens on (not a wildcard)."""
    if host in ("0.0.0.0", "::", "") or host in settings.allowed_hosts:
        return settings
    return replace(settings, allowed_hosts=(*settings.allowed_hosts, host))


def settings_from_env(base: WebSettings | None = None) -> WebSettings:
    """``base`` (default settings) with what the ``SADAME_*`` variables say (:mod:`sadame.web._env`).

    A bad value raises ``ValueError`` naming the variable.
    """
    return web_settings(load_env(), base)


def app_from_env() -> FastAPI:
    """The app as the environment describes it (``SADAME_DB`` and the settings)."""
    from sadame.web._app import create_app

    return create_app(load_env().db, settings=settings_from_env())


def server_config(app: Any, log_level: str, log_format: str = "json") -> uvicorn.Config:
    """The uvicorn configuration of every serving mode (the TCP_NODELAY protocol, our logs)."""
    import uvicorn

    return uvicorn.Config(app, http=nodelay_protocol(), log_level=log_level, access_log=False,
                          log_config=log_config(log_level, log_format),
                          timeout_graceful_shutdown=_GRACE, timeout_keep_alive=_KEEP_ALIVE,
                          server_header=False, proxy_headers=False)


def _worker(address: tuple[str, int], url: str, settings: WebSettings, logs: tuple[str, str],
            shared: socket.socket | None) -> None:  # spawned
    import uvicorn

    from sadame.web._app import create_app

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the supervisor, which stops us
    app = create_app(url, settings=replace(settings, migrate=False))  # the supervisor migrated
    # Not warmed before accepting: a worker that began seconds after the other would get none
    # of the keep-alive connections opened meanwhile. The packs load on the first request, in a
    # thread (the list route never loads them on the event loop).
    # Accept only now: no connection waits for a worker still starting.
    sock = one_accept_per_wake(shared) if shared is not None else rejoin(*address)
    uvicorn.Server(server_config(app, *logs)).run(sockets=[sock])


class _Supervisor:
    """Worker processes on one shared listener, or one ``SO_REUSEPORT`` listener each."""

    def __init__(self, url: str, settings: WebSettings, *, host: str, port: int, count: int,
                 logs: tuple[str, str], balance: str = BALANCES[0]) -> None:
        if balance not in BALANCES:
            raise ValueError(f"SADAME_WEB_BALANCE: one of {', '.join(BALANCES)} (got {balance!r})")
        self.url, self.settings, self.host, self.logs = url, settings, host, logs
        self.count, self.balance = count, balance
        # shared: the listener itself (connections queue in it until a worker accepts);
        # reuseport: a bound socket that never listens, holding the port for the workers' own
        self.hold = listeners(host, port, 1)[0] if balance == "shared" else reserve(host, port)
        self.port = int(self.hold.getsockname()[1])
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[tuple[BaseProcess, float]] = []
        self.stopping = threading.Event()

    def _start(self) -> tuple[BaseProcess, float]:
        shared = self.hold if self.balance == "shared" else None
        process = self.context.Process(target=_worker, args=((self.host, self.port), self.url, self.settings,
                                                             self.logs, shared), daemon=False)
        process.start()  # reuseport: a dead worker's listener closes with it and leaves the group
        return process, time.monotonic()

    def _stop(self, signum: int, _frame: FrameType | None) -> None:
        self.stopping.set()

    def run(self) -> int:
        """Serve until SIGINT/SIGTERM; the exit status (1 when a worker failed at start)."""
        previous = {s: signal.signal(s, self._stop) for s in (signal.SIGINT, signal.SIGTERM)}
        own_metrics = MULTIPROC_ENV not in os.environ  # workers sum their metrics through these files
        if own_metrics:
            os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="sadame-metrics-")
        status = 0
        try:
            self.workers = [self._start() for _ in range(self.count)]
            how = ("one shared listener, one accept per wake-up" if self.balance == "shared"
                   else "one SO_REUSEPORT listener each")
            log.info("sadame: %d workers on %s:%d, %s", len(self.workers), self.host, self.port, how)
            while not self.stopping.wait(0.5):
                status = self._watch()
                if status:
                    break
        finally:
            self._shutdown()
            self.hold.close()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            if own_metrics:
                shutil.rmtree(os.environ.pop(MULTIPROC_ENV), ignore_errors=True)
        return status

    def _watch(self) -> int:
        for index, (process, started) in enumerate(self.workers):
            if process.is_alive():
                continue
            if time.monotonic() - started < _SETTLE:
                log.error("sadame: worker %d exited at start-up (status %s)", process.pid, process.exitcode)
                return 1
            log.warning("sadame: worker %d exited (status %s); starting another", process.pid, process.exitcode)
            self.workers[index] = self._start()
        return 0

    def _shutdown(self) -> None:
        for process, _started in self.workers:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        for process, _started in self.workers:
            process.join(_GRACE + 10)
            if process.is_alive():
                process.kill()
                process.join()


def serve(db_url: str | None, *, host: str, port: int, workers: int, settings: WebSettings,
          log_level: str = "info", log_format: str = "json", balance: str = BALANCES[0]) -> None:
    """Run the service until interrupted: in this process, or in ``workers`` processes.

    The app is created here first either way: that migrates the database once and
    fails early (a ``ValueError``) on a bad configuration; a port that is taken raises
    :class:`sadame.web._listen.PortInUse` (an ``OSError``). ``balance`` is how ``workers`` > 1
    share connections (:data:`sadame.web._listen.BALANCES`).
    """
    import uvicorn

    from sadame.web._app import create_app

    logging.config.dictConfig(log_config(log_level, log_format))
    url = resolve_url(db_url)
    settings = with_listen_host(settings, host)
    app = create_app(url, settings=settings)
    if workers <= 1:
        sock = listeners(host, port, 1)[0]  # a taken port fails at once; connections queue while warming
        app.state.ctx.game.warm()
        uvicorn.Server(server_config(app, log_level, log_format)).run(sockets=[sock])
        return
    app.state.ctx.engine.dispose()
    supervisor = _Supervisor(url, settings, host=host, port=port, count=workers, logs=(log_level, log_format),
                             balance=balance)
    if supervisor.run():
        raise SystemExit(1)
