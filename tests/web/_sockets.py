"""Looking at a server process's accepted sockets from the test (Linux ``pidfd_getfd``).

The test process starts ``sadame serve``, so its workers are descendants and their
file descriptors may be duplicated here: each server-side socket is matched to a
client connection by its peer address, and its options are read for real.
"""

from __future__ import annotations

import ctypes
import os
import socket
from pathlib import Path

__all__ = ["accepted_sockets"]

_SYS_PIDFD_GETFD = 438  # the same number on every Linux architecture
_libc = ctypes.CDLL(None, use_errno=True)


def accepted_sockets(pid: int) -> dict[tuple[str, int], bool]:
    """Peer address -> whether TCP_NODELAY is set, for every connected TCP socket of ``pid``."""
    found: dict[tuple[str, int], bool] = {}
    pidfd = os.pidfd_open(pid)
    try:
        for entry in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if not os.readlink(entry).startswith("socket:"):
                    continue
            except OSError:
                continue
            fd = _libc.syscall(_SYS_PIDFD_GETFD, pidfd, int(entry.name), 0)
            if fd < 0:
                continue
            with socket.socket(fileno=fd) as sock:
                if sock.family != socket.AF_INET or sock.type != socket.SOCK_STREAM:
                    continue
                try:
                    peer = sock.getpeername()
                except OSError:  # a listener
                    continue
                found[(peer[0], peer[1])] = bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    finally:
        os.close(pidfd)
    return found
