"""Listening sockets and the HTTP protocol of every serving mode.

Two things uvicorn does not do for a multi-process server, done here:

* **TCP_NODELAY on every accepted connection.** asyncio sets it only when the listening
  socket's ``proto`` is ``IPPROTO_TCP``; uvicorn's pre-bound socket for ``--workers``
  has ``proto`` 0 (upstream issue #3149), so every keep-alive response after the first
  waited for the client's delayed ACK (about 40 ms). :func:`nodelay_protocol` is
  uvicorn's own HTTP protocol that sets the option itself when a connection is made, and
  :func:`listeners` creates sockets with ``proto`` ``IPPROTO_TCP`` as well.
* **Connections spread over the workers.** asyncio accepts every pending connection each
  time a listener is readable, so with one shared listener whichever worker woke first took
  a burst of them (16 keep-alive clients landed on one worker in 5 of 6 trials). Two designs,
  chosen by ``SADAME_WEB_BALANCE``:

  - ``reuseport`` (the default): each worker its own ``SO_REUSEPORT`` listener on the same
    port; the kernel hashes each new connection to one of them, busy or not, so keep-alive
    connections spread whatever the scheduler does.
  - ``shared``: one listener, inherited by every worker, each accepting
    :class:`OneAcceptPerWake` — one connection per event-loop wake-up, so the other worker,
    woken by the same readiness, takes the next. Work-conserving: a new connection goes to a
    worker that is free (more requests per second with a new connection per request), and
    connections queue (not refused) while a worker restarts. But a worker the scheduler does
    not run (a busy machine) takes none: in a CI run one worker took all 16 connections of a
    keep-alive burst, which is why it is not the default.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

__all__ = [
    "BACKLOG", "BALANCES", "OneAcceptPerWake", "PortInUse", "listeners", "nodelay_protocol", "one_accept_per_wake",
    "rejoin", "reserve", "set_nodelay",
]

BACKLOG = 2048
BALANCES = ("reuseport", "shared")  # SADAME_WEB_BALANCE, the default first (see the module docstring)


class PortInUse(OSError):
    """The address cannot be bound (another server, or another ``sadame serve``, has it)."""


def set_nodelay(sock: Any) -> bool:
    """Turn Nagle's algorithm off on a TCP socket; whether the option was set."""
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return False
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:  # the peer already went away
        return False
    return True


class OneAcceptPerWake(socket.socket):
    """A listening socket that hands asyncio one connection per wake-up.

    asyncio's accept handler calls ``accept()`` until it raises ``BlockingIOError``; here
    every second call raises it, so the handler returns after one connection, the loop
    serves what is ready, and a connection still pending (the listener is level-triggered)
    is left for the next wake-up of this worker or of another.
    """

    _taken = False

    def accept(self) -> tuple[socket.socket, Any]:
        if self._taken:
            self._taken = False
            raise BlockingIOError
        conn, address = super().accept()
        self._taken = True
        return conn, address


def one_accept_per_wake(sock: socket.socket) -> OneAcceptPerWake:
    """``sock`` (a listener; its file descriptor moves) as a :class:`OneAcceptPerWake`."""
    return OneAcceptPerWake(sock.family, sock.type, sock.proto, fileno=sock.detach())


def _base_protocol() -> type[Any]:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        return HttpToolsProtocol
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol


def nodelay_protocol() -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools when installed, else h11) with TCP_NODELAY set on
    each connection as it is made."""
    base = _base_protocol()

    def connection_made(self: Any, transport: asyncio.BaseTransport) -> None:
        set_nodelay(transport.get_extra_info("socket"))
        base.connection_made(self, transport)

    protocol: type[asyncio.Protocol] = type("NoDelay" + base.__name__, (base,), {"connection_made": connection_made})
    return protocol


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _socket(host: str, *, reuse_port: bool) -> socket.socket:
    sock = socket.socket(_family(host), socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    return sock


def _free(host: str, port: int) -> int:
    """The port to use (``port``, or a free one for 0), after checking nothing holds it.

    The probe binds without ``SO_REUSEPORT``, so it fails when any socket has the address,
    another ``sadame serve`` included (a second server of the same user would otherwise
    silently join the first one's ``SO_REUSEPORT`` group and take half its connections).
    """
    probe = _socket(host, reuse_port=False)
    try:
        probe.bind((host, port))
        return int(probe.getsockname()[1])
    except OSError as exc:
        raise PortInUse(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
    finally:
        probe.close()


def _bound(host: str, port: int, *, reuse_port: bool) -> socket.socket:
    """A TCP socket bound to ``host:port``; :class:`PortInUse` (and nothing left open) when taken."""
    sock = _socket(host, reuse_port=reuse_port)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise PortInUse(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


def listeners(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` listening TCP sockets on ``host:port`` (one per worker process).

    With ``count`` 1 it is a plain socket; with more, each has ``SO_REUSEPORT`` and the
    kernel balances new connections across them. Port 0 picks one free port for all.
    Raises :class:`PortInUse` when the address is taken.
    """
    if count <= 1:
        sock = _bound(host, port, reuse_port=False)
        sock.listen(BACKLOG)
        return [sock]
    port = _free(host, port)
    made: list[socket.socket] = []
    try:
        for _ in range(count):
            made.append(rejoin(host, port))
    except PortInUse:
        for other in made:
            other.close()
        raise
    return made


def reserve(host: str, port: int) -> socket.socket:
    """Hold ``host:port`` for the workers' ``SO_REUSEPORT`` listeners (port 0: a free one).

    The socket is bound with ``SO_REUSEPORT`` but never listens, so it takes no connection:
    a worker joins with :func:`rejoin` once its app is built, and the kernel never hands a
    connection to a worker that is still starting. Raises :class:`PortInUse` when taken.
    """
    return _bound(host, _free(host, port), reuse_port=True)


def rejoin(host: str, port: int) -> socket.socket:
    """One more ``SO_REUSEPORT`` listener on ``host:port`` (for a worker that replaces a dead one)."""
    sock = _bound(host, port, reuse_port=True)
    sock.listen(BACKLOG)
    return sock
