"""Security of every response and every form: headers, a strict same-origin check, HEAD.

**CSRF: strict origin check, no tokens.** A request that can change state (any
method but GET, HEAD and OPTIONS) is refused with 403 when the browser says it
comes from another site or another origin:

* ``Sec-Fetch-Site: cross-site`` or ``same-site`` (another port on the same host is
  *same-site* but not *same-origin*) is refused;
* ``Origin`` must name this server: its host and port equal the request's ``Host``
  header, or it is one of ``WebSettings.trusted_origins``; ``Origin: null`` is refused;
* without ``Origin``, a ``Referer`` must name this server in the same way;
* a request with neither header is not from a browser form (browsers send ``Origin``
  on every POST), so it is let through: curl and API clients keep working.

This covers the sign-in form too (login CSRF) and the JSON API (whose puzzle
routes use the cookie).

**Headers on every response:** a Content-Security-Policy without inline script or
style and with ``frame-ancestors 'none'``, ``X-Frame-Options: DENY``,
``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``,
``Cross-Origin-Opener-Policy: same-origin`` and ``Cache-Control: no-store`` on
everything but ``/static`` (pages show per-browser progress and tenant data).

**HEAD** is answered like GET without the body, on every route. A path or query with a
NUL character gets 400 before any route sees it (PostgreSQL cannot store NUL).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sadame.web._trust import client_address, host_allowed, parse_proxies
from sadame.web.pages._common import templates

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "FORM_NUL_MESSAGE",
    "SECURITY_HEADERS",
    "SecurityMiddleware",
    "refusal",
    "same_origin",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": "80", "https": "443"}
_NUL_MESSAGE = "URL に NUL 文字は使えません。"
FORM_NUL_MESSAGE = "入力に NUL 文字は使えません。"
_HOST_MESSAGE = "このホスト名では応答しません。サーバーの管理者が許可したアドレスから開いてください。"
_REFUSED_MESSAGE = "別のサイトから送られた操作は受け付けません。このサイトのページから操作してください。"


def _authority(url: str) -> str | None:
    """``host:port`` of an origin or URL (default port spelled out), lowercased."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{host}:{port or _DEFAULT_PORTS[parts.scheme]}".lower()


def _host_authority(host: str, scheme: str) -> str | None:
    return _authority(f"{scheme if scheme in _DEFAULT_PORTS else 'http'}://{host}") if host else None


def same_origin(headers: Headers, scheme: str, trusted: tuple[str, ...] = ()) -> bool:
    """Whether a state-changing request may proceed (see the module docstring)."""
    if headers.get("sec-fetch-site", "").lower() in ("cross-site", "same-site"):
        return False
    claimed = headers.get("origin")
    if claimed is None:
        claimed = headers.get("referer")
        if claimed is None:
            return True
    if claimed.strip() == "null":
        return False
    authority = _authority(claimed)
    if authority is None:
        return False
    allowed = {_authority(origin) for origin in trusted}
    allowed.add(_host_authority(headers.get("host", ""), scheme))
    return authority in allowed


class SecurityMiddleware:
    """ASGI middleware: the origin check, the security headers and HEAD (module docstring)."""

    def __init__(self, app: ASGIApp, trusted_origins: tuple[str, ...] = (),
                 allowed_hosts: tuple[str, ...] = ("*",), trusted_proxies: tuple[str, ...] = ()) -> None:
        self.app = app
        self.trusted = trusted_origins
        self.allowed_hosts = allowed_hosts
        self.proxies = parse_proxies(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        wrapped = self._wrap(send, head, private=not scope["path"].startswith("/static/"))
        headers = Headers(scope=scope)
        if not host_allowed(headers.get("host"), self.allowed_hosts):
            await refusal(scope, 400, "host_not_allowed", _HOST_MESSAGE)(scope, receive, wrapped)
            return
        peer = scope.get("client")
        if peer and self.proxies:
            scope = dict(scope, client=(client_address(peer[0], headers.get("x-forwarded-for"), self.proxies),
                                        peer[1]))
        if "\x00" in scope["path"] or b"%00" in scope.get("query_string", b""):
            await refusal(scope, 400, "bad_request", _NUL_MESSAGE)(scope, receive, wrapped)
            return
        if scope["method"] not in _SAFE_METHODS and not same_origin(
            Headers(scope=scope), scope.get("scheme", "http"), self.trusted
        ):
            await refusal(scope, 403, "cross_origin", _REFUSED_MESSAGE)(scope, receive, wrapped)
            return
        await self.app(dict(scope, method="GET") if head else scope, receive, wrapped)

    @staticmethod
    def _wrap(send: Send, head: bool, private: bool) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if private:
                    headers["Cache-Control"] = "no-store"
            elif head and message["type"] == "http.response.body":
                message = {"type": "http.response.body", "body": b"", "more_body": message.get("more_body", False)}
            await send(message)

        return wrapped


def refusal(scope: Scope, status: int, error: str, message: str) -> Response:
    """A refusal before the app runs: JSON under /api, a Japanese page elsewhere."""
    if scope["path"].startswith("/api/"):
        return JSONResponse({"error": error, "message": message}, status_code=status)
    return templates.TemplateResponse(Request(scope), "error.html", {"message": message}, status_code=status)
