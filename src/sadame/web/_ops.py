"""Operating the service: ``/healthz``, ``/readyz``, ``/metrics``, request ids and access logs.

* ``GET /healthz`` — 200 while the process serves (no database access).
* ``GET /readyz`` — 200 when the database answers and its schema has every migration this
  code needs (:func:`sadame.db._revisions.schema_state`); 503 with ``database``
  ``unreachable``, ``timeout`` (no answer in 5 s) or ``behind`` (run ``sadame db upgrade``).
  A SQLite file deleted or replaced under the server is followed (its connections are reopened
  on the file now at the path, :mod:`sadame.db._fileguard`): 503 while the path holds no file,
  a directory, a file that is not SQLite, or a database without the sadame schema.
* ``GET /metrics`` — Prometheus text (prometheus-client); with ``SADAME_METRICS_KEY`` set
  it needs ``Authorization: Bearer <key>``. Under ``sadame serve --workers N`` the counts
  of all workers are summed (prometheus-client's multiprocess mode, one directory per
  server that the supervisor creates and removes).

Metrics: ``sadame_http_requests_total{method,route,status}``,
``sadame_http_request_duration_seconds{method,route}`` (``route`` is the route's template,
``unmatched`` for no route, so labels stay bounded), ``sadame_verdicts_total{source}``,
``sadame_llm_calls_total{outcome}`` (``verdict``, ``no_verdict``, ``cache``),
``sadame_llm_failures_total``, ``sadame_ingests_total{status}`` and
``sadame_quote_checks_total{kind}``.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import re
import time
import uuid
from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sadame.judge import JudgeFallback
from sadame.web._logs import request_id

__all__ = ["MULTIPROC_ENV", "Metrics", "OpsMiddleware", "count_verdicts", "counting_fallback", "router"]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
READY_TIMEOUT = 5.0

access = logging.getLogger("sadame.access")

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# (method, route template) -> (counter, label) of the feature event a successful request is
_QUOTE_ROUTES = {("POST", "/api/quote/verify"): "api_verify", ("POST", "/api/quote/ground"): "api_ground",
                 ("POST", "/api/quote/check"): "api_check", ("POST", "/quote"): "page"}
_INGEST_ROUTE = ("POST", "/api/track/ingest")


class Metrics:
    """The app's Prometheus metrics, on a registry of its own (several apps may share a process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("sadame_http_requests", "HTTP requests served", ["method", "route", "status"],
                                registry=r)
        self.latency = Histogram("sadame_http_request_duration_seconds", "Time to serve a request",
                                 ["method", "route"], buckets=_BUCKETS, registry=r)
        self.verdicts = Counter("sadame_verdicts", "Game questions judged, by verdict source", ["source"],
                                registry=r)
        self.llm_calls = Counter("sadame_llm_calls", "Judge fallback calls, by outcome", ["outcome"], registry=r)
        self.llm_failures = Counter("sadame_llm_failures", "Judge fallback calls the LLM gave no verdict for",
                                    registry=r)
        self.ingests = Counter("sadame_ingests", "Tracker ingests over HTTP, by result", ["status"], registry=r)
        self.quote_checks = Counter("sadame_quote_checks", "Quote checks served, by kind", ["kind"], registry=r)

    def render(self) -> bytes:
        """The exposition text: this process's, or every worker's when in multiprocess mode."""
        directory = os.environ.get(MULTIPROC_ENV)
        if directory and os.path.isdir(directory):
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
            return bytes(generate_latest(registry))
        return bytes(generate_latest(self.registry))

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one request, and the feature event it was."""
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)
        if (method, route) == _INGEST_ROUTE:
            self.ingests.labels("ok" if status < 400 else "rejected").inc()
        kind = _QUOTE_ROUTES.get((method, route))
        if kind is not None and status < 400:
            self.quote_checks.labels(kind).inc()


_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[A-Za-z]+)?\}")


def _route(scope: Scope) -> str:
    """The full template of the route that served the request (bounded labels: no ids).

    Starlette leaves the matched route in ``scope["route"]``; for a route of an included
    router its ``path`` lacks the router's prefix, which is read off the request's path
    (the route's template with the request's parameters is the path's tail).
    """
    route_path = getattr(scope.get("route"), "path", None)
    path = str(scope.get("path", ""))
    if not isinstance(route_path, str) or not route_path:
        return "/static/{path}" if path.startswith("/static/") else "unmatched"
    params = scope.get("path_params") or {}
    tail = _PARAM.sub(lambda m: str(params.get(m.group(1), m.group(0))), route_path)
    if path.endswith(tail):
        return path[: len(path) - len(tail)] + route_path
    return route_path


def _incoming_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = bytes(value).decode("latin-1")
            if _REQUEST_ID.fullmatch(text):
                return text
    return uuid.uuid4().hex


class OpsMiddleware:
    """ASGI middleware: a request id on every request and response, one access log line
    and the request metrics."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = _incoming_id(scope)
        token = request_id.set(rid)
        status = 500
        started = time.perf_counter()

        async def tagged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", rid.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        finally:
            self._record(scope, status, time.perf_counter() - started)
            request_id.reset(token)

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        method, route = str(scope.get("method", "")), _route(scope)
        self.metrics.observe(method, route, status, seconds)
        client = scope.get("client")
        access.info("%s %s %d", method, scope.get("path", ""), status, extra={
            "method": method, "path": scope.get("path", ""), "route": route, "status": status,
            "duration_ms": round(seconds * 1000, 2), "client": client[0] if client else None})


def count_verdicts(game: Any, metrics: Metrics) -> None:
    """Make ``game.ask`` (the web game service) count each verdict by its source."""
    ask = game.ask

    def counted(*args: Any, **kwargs: Any) -> Any:
        entry = ask(*args, **kwargs)
        metrics.verdicts.labels(str(entry.get("source") or "rules")).inc()
        return entry

    game.ask = counted


def counting_fallback(fallback: JudgeFallback, metrics: Metrics) -> JudgeFallback:
    """``fallback`` (a ``sadame.judge.JudgeFallback``) counting its calls and failures."""

    def counted(question: str, *, normalized: str, table: Any, puzzle: Any) -> Any:
        answer = fallback(question, normalized=normalized, table=table, puzzle=puzzle)
        if answer.source == "cache":
            metrics.llm_calls.labels("cache").inc()
        elif answer.verdict is not None:
            metrics.llm_calls.labels("verdict").inc()
        else:
            metrics.llm_calls.labels("no_verdict").inc()
            metrics.llm_failures.inc()
        return answer

    return cast(JudgeFallback, counted)


router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


def _unreachable(reason: str) -> dict[str, Any]:
    return {"status": "unavailable", "database": "unreachable", "reason": reason}


def _failure_reason(exc: Exception) -> str:
    """Why the database could not be read, in words that do not name it (``/readyz`` is public)."""
    text = str(exc).lower()
    if "not a database" in text:
        return "the SQLite file is not a SQLite database (was it replaced?)"
    if "deleted while in use" in text or "unable to open database file" in text:
        return "the SQLite file cannot be opened (deleted or replaced?)"
    return type(exc).__name__


def _database_state(ctx: Any) -> dict[str, Any]:
    from sadame.db._checks import sqlite_path
    from sadame.db._revisions import schema_state

    path = sqlite_path(ctx.db_url)
    if path is not None and not path.exists():  # connecting would create an empty file
        return _unreachable("the SQLite file is gone")
    if path is not None and not path.is_file():
        return _unreachable("the SQLite path is not a file (a directory?)")
    try:
        state = schema_state(ctx.engine)  # a replaced file is reopened first (sadame.db._fileguard)
    except Exception as exc:  # any failure to reach the database means not ready
        return _unreachable(_failure_reason(exc))
    if not state.current:
        return {"status": "unavailable", "database": "behind", "missing": list(state.missing),
                "reason": "the database has no sadame schema (replaced by another file?): "
                          "run `sadame db upgrade` or restore the database"}
    if state.behind:
        return {"status": "unavailable", "database": "behind", "missing": list(state.missing),
                "reason": "run `sadame db upgrade` before starting this release"}
    return {"status": "ready", "database": "ok", "revisions": list(state.current), "unknown": list(state.unknown)}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    try:
        body = await asyncio.wait_for(run_in_threadpool(_database_state, request.app.state.ctx), READY_TIMEOUT)
    except TimeoutError:
        body = {"status": "unavailable", "database": "timeout", "reason": f"no answer in {READY_TIMEOUT:g} s"}
    return JSONResponse(body, status_code=200 if body["status"] == "ready" else 503)


@router.get("/metrics")
def metrics(request: Request) -> Response:
    ctx = request.app.state.ctx
    key = ctx.settings.metrics_key
    if key:
        given = request.headers.get("authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {key}".encode()):
            return JSONResponse({"error": "unauthorized", "message": "/metrics needs Authorization: Bearer <key>"},
                                status_code=401, headers={"WWW-Authenticate": "Bearer"})
    return Response(request.app.state.metrics.render(), media_type=CONTENT_TYPE_LATEST)
