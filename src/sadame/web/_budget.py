"""Per-client budgets: what one client address may create or ask, over all its cookies.

A fresh cookie starts a fresh game, but not a fresh budget: every new anonymous
session, question and answer also counts against the client's address for a window
(``WebSettings.budget_window``). The count is one conditional ``UPDATE ... WHERE
used < limit`` in the transaction that stores the move, so parallel requests cannot
exceed it on either database.

The client is the request's peer address (uvicorn puts the ``X-Forwarded-For``
address there for trusted proxies only); IPv6 addresses count per /64 network,
since one host usually holds a whole /64. Only the SHA-256 of the address is stored.
"""

from __future__ import annotations

import hashlib
import ipaddress
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, case, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from sadame._errors import SadameError
from sadame.web._models import WebClientBudget

__all__ = ["BudgetExhausted", "client_id", "consume_budget", "purge_budgets"]


class BudgetExhausted(SadameError, ValueError):
    """The client used up a budget for the current window (HTTP 429)."""

    http_status, code, message_ja = 429, "budget_exhausted", "上限に達しました。時間をおいてお試しください"


def client_id(host: str | None) -> str:
    """The stored identity of a client address (an IPv6 address counts as its /64)."""
    text = (host or "unknown").strip()
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        network = text[:100]
    else:
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if isinstance(address, ipaddress.IPv6Address):
            network = str(ipaddress.IPv6Network((address, 64), strict=False))
        else:
            network = str(address)
    return hashlib.sha256(f"client:{network}".encode()).hexdigest()


_STALE = WebClientBudget.window_start < bindparam("b_cut", type_=WebClientBudget.window_start.type)
_WHERE = (WebClientBudget.client == bindparam("b_client"), WebClientBudget.scope == bindparam("b_scope"))
_COUNT = (  # built once: SQLAlchemy caches its compiled form
    update(WebClientBudget)
    .where(*_WHERE, or_(_STALE, WebClientBudget.used < bindparam("b_limit", type_=WebClientBudget.used.type)))
    .values(used=case((_STALE, 1), else_=WebClientBudget.used + 1),
            window_start=case((_STALE, bindparam("b_now", type_=WebClientBudget.window_start.type)),
                              else_=WebClientBudget.window_start))
)
_USED = select(WebClientBudget.used).where(*_WHERE)


def consume_budget(session: Session | Connection, client: str, scope: str, limit: int, window: int,
                   now: datetime) -> bool:
    """Count one use of ``scope`` for ``client``; False (nothing counted) when the budget is spent.

    Runs inside the caller's transaction: the row stays locked until it commits.
    """
    params = {"b_client": client, "b_scope": scope, "b_limit": limit, "b_now": now,
              "b_cut": now - timedelta(seconds=window)}
    for _attempt in range(3):
        if getattr(session.execute(_COUNT, params), "rowcount", 0) == 1:
            return True
        if session.execute(_USED, params).first() is not None:
            return False
        if limit < 1:
            return False
        try:
            with session.begin_nested():
                session.execute(insert(WebClientBudget).values(client=client, scope=scope, used=1, window_start=now))
            return True
        except IntegrityError:  # another request created the row first: count against it
            continue
    return False


def purge_budgets(session: Session, window: int, now: datetime) -> int:
    """Delete budget rows whose window is over (they would start from zero anyway)."""
    result = session.execute(
        delete(WebClientBudget).where(WebClientBudget.window_start < now - timedelta(seconds=window))
    )
    return int(getattr(result, "rowcount", 0) or 0)
