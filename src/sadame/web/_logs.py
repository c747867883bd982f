"""Logs of the server: one JSON object per line, each with the request id of its request.

``SADAME_LOG_FORMAT=json`` (the default of ``sadame serve``) or ``text``; the level from
``--log-level`` / ``SADAME_LOG_LEVEL``. :func:`log_config` is the ``logging.config``
dictionary handed to uvicorn (in every worker) and applied by the supervisor.

A JSON line::

    {"time": "2026-12-01T10:00:00.123Z", "level": "info", "logger": "sadame.access",
     "message": "GET /api/puzzles 200", "request_id": "5f0c...", "method": "GET",
     "path": "/api/puzzles", "route": "/api/puzzles", "status": 200, "duration_ms": 3.1,
     "client": "127.0.0.1"}

The request id is the caller's ``X-Request-ID`` when it is short and plain
(``[A-Za-z0-9._-]{1,64}``), else a new one; every response carries it back. Query
strings are never logged (they may hold secrets).
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

__all__ = ["ACCESS_FIELDS", "JsonFormatter", "RequestIdFilter", "log_config", "request_id"]

#: the request being served in this task or thread (None outside a request)
request_id: ContextVar[str | None] = ContextVar("sadame_request_id", default=None)

#: extra fields of an access line, in the order they are written
ACCESS_FIELDS = ("method", "path", "route", "status", "duration_ms", "client")


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (``%(request_id)s`` in text logs too)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, request id, access fields."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        data: dict[str, Any] = {
            "time": stamp.replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id.get(),
        }
        for name in ACCESS_FIELDS:
            if hasattr(record, name):
                data[name] = getattr(record, name)
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def log_config(level: str = "info", fmt: str = "json") -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of the server: sadame's and uvicorn's loggers to stderr."""
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"} if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "main", "filters": ["request_id"],
               "stream": "ext://sys.stderr"}
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": f"{__name__}.RequestIdFilter"}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {
            "sadame": {"handlers": ["main"], "level": upper, "propagate": False},
            "uvicorn": {"handlers": ["main"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper},
            "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},  # ours is sadame.access
        },
    }
