"""What the service believes about a request: which host it was sent to, which client sent it.

* **Host.** Only the host names of ``WebSettings.allowed_hosts`` are answered (``"*"``: any);
  a page on another name that resolves to this server (DNS rebinding) gets 400 before any
  route runs, so it can neither read pages nor post anonymous moves.
* **Client address.** The peer address of the connection, unless the peer is one of
  ``WebSettings.trusted_proxies``: then the last address of ``X-Forwarded-For`` that is not
  itself a trusted proxy (the first hop a trusted proxy saw). Nobody else can choose the
  address the per-client budgets count against. (uvicorn's own proxy handling is turned off
  by :func:`sadame.web.serve`, so this is the only place the header is read.)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

__all__ = ["Networks", "client_address", "host_allowed", "host_name", "parse_proxies"]

Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def parse_proxies(values: Iterable[str]) -> Networks:
    """Networks of trusted proxies from addresses or CIDR ranges; a bad one is a ``ValueError``."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an address or network of a trusted proxy: {value!r}") from None
    return tuple(networks)


def _in(address: str, networks: Networks) -> bool:
    try:
        parsed = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return any(parsed.version == net.version and parsed in net for net in networks)


def client_address(peer: str | None, forwarded_for: str | None, proxies: Networks) -> str | None:
    """The client's address (see the module docstring)."""
    if peer is None or not forwarded_for or not _in(peer, proxies):
        return peer
    hops = [hop.strip() for hop in forwarded_for[:4096].split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _in(hop, proxies):
            return hop[:100]
    return peer


def host_name(host_header: str) -> str:
    """The name of a ``Host`` header, without the port, lowercased (IPv6 without brackets)."""
    text = host_header.strip().lower()
    if text.startswith("["):
        return text[1:].split("]", 1)[0]
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def host_allowed(host_header: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a request sent to ``host_header`` is answered."""
    if "*" in allowed:
        return True
    if not host_header:
        return False
    return host_name(host_header) in {name.strip().lower().strip("[]") for name in allowed}
