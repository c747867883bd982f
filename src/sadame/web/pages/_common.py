"""What the HTML pages share: the Jinja2 environment and the browser cookie."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from sadame.web._budget import client_id
from sadame.web._context import WebContext
from sadame.web.deps import COOKIE_NAME, set_browser_cookie

__all__ = ["Browser", "redirect", "render", "templates"]

templates = Jinja2Templates(directory=str(Path(__file__).parent.parent / "templates"))


class Browser:
    """This request's browser session (stored hashed).

    Reading pages never creates a session (a crawler leaves no rows behind); the first
    move that has to be remembered does (in ``GameStore.update``), and :meth:`attach`
    then sets the cookie. :meth:`replace` installs the new cookie of a sign-in.
    """

    def __init__(self, request: Request, ctx: WebContext) -> None:
        self.ctx = ctx
        self.sent: str | None = request.cookies.get(COOKIE_NAME)
        self.client = client_id(request.client.host if request.client else None)
        self._cookie: str | None = None
        self.fresh = False

    @property
    def cookie(self) -> str:
        """The session cookie; a fresh value (not stored yet) when this browser has none."""
        if self._cookie is None:
            self._cookie, self.fresh = self.ctx.games.resolve(self.sent)
        return self._cookie

    def replace(self, cookie: str) -> None:
        """Use ``cookie`` from now on and send it with the response (a new session id)."""
        self._cookie, self.fresh = cookie, True

    @property
    def known(self) -> str | None:
        """The cookie to read this browser's data with, without creating a session."""
        return self._cookie or self.sent

    def attach(self, response: HTMLResponse | RedirectResponse) -> None:
        if self.fresh and self._cookie is not None:
            set_browser_cookie(response, self.ctx, self._cookie)


def render(
    request: Request, browser: Browser | None, name: str, context: dict[str, Any], status: int = 200
) -> HTMLResponse:
    response = templates.TemplateResponse(request, name, context, status_code=status)
    if browser is not None:
        browser.attach(response)
    return response


def redirect(url: str, browser: Browser | None = None) -> RedirectResponse:
    """303 See Other back to a page (post/redirect/get, so a reload never re-posts)."""
    response = RedirectResponse(url, status_code=303)
    if browser is not None:
        browser.attach(response)
    return response
