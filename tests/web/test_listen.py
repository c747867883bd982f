"""The shared listener's accept loop (``sadame.web._listen``), on real sockets."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from sadame.web._listen import BALANCES, OneAcceptPerWake, listeners, one_accept_per_wake


def _listener() -> socket.socket:
    return listeners("127.0.0.1", 0, 1)[0]


def test_accept_takes_one_connection_then_reports_nothing_pending_until_called_again() -> None:
    plain = _listener()
    port = plain.getsockname()[1]
    sock = one_accept_per_wake(plain)
    assert isinstance(sock, OneAcceptPerWake) and plain.fileno() == -1  # the descriptor moved
    sock.setblocking(False)
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
    try:
        taken = []
        for _wake in range(3):  # each wake-up: one connection, then "would block"
            conn, _address = sock.accept()
            taken.append(conn)
            with pytest.raises(BlockingIOError):
                sock.accept()
        with pytest.raises(BlockingIOError):  # the queue is empty now
            sock.accept()
        assert {c.getpeername() for c in taken} == {c.getsockname() for c in clients}
        for conn in taken:
            conn.close()
    finally:
        for client in clients:
            client.close()
        sock.close()


def test_an_asyncio_server_on_it_accepts_every_connection_one_per_loop_iteration() -> None:
    """asyncio's accept handler stops after one connection each time; level-triggered readiness
    brings it back for the rest, so a burst of 20 is still accepted whole."""
    sock = one_accept_per_wake(_listener())
    port = sock.getsockname()[1]
    accepts: list[int] = []

    async def run() -> list[int]:
        loop = asyncio.get_running_loop()
        iteration = 0

        async def tick() -> None:
            nonlocal iteration
            while True:
                iteration += 1
                await asyncio.sleep(0)

        ticker = asyncio.create_task(tick())
        made = asyncio.Event()

        class Counting(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepts.append(iteration)
                if len(accepts) == 20:
                    made.set()

        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]  # queued before serving
        server = await loop.create_server(Counting, sock=sock)
        await asyncio.wait_for(made.wait(), 10)
        ticker.cancel()
        server.close()
        for client in clients:
            client.close()
        return accepts

    # In a thread of its own: a test module run before this one in the same process (Playwright's
    # sync API) may leave an event loop running in the main thread.
    done: list[list[int]] = []
    thread = threading.Thread(target=lambda: done.append(asyncio.run(run())))
    thread.start()
    thread.join(30)
    assert done, "the server did not accept the 20 connections"
    got = done[0]
    assert len(got) == 20
    assert len(set(got)) >= 10, got  # spread over loop iterations, not one burst


def test_the_two_balance_designs_are_the_documented_ones() -> None:
    from sadame.web._env import EnvSettings

    assert EnvSettings().web_balance == "reuseport" == BALANCES[0]
    assert set(BALANCES) == {"shared", "reuseport"}
