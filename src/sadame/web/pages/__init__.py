"""The HTML pages (Japanese UI): home, puzzle game, tracker dashboard, quote checker.

Plain forms with post/redirect/get work without JavaScript; ``static/app.js`` only
adds conveniences.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from sadame.web.deps import Ctx
from sadame.web.pages import apidocs, game, quote, tracker
from sadame.web.pages._common import render

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
def home(request: Request, ctx: Ctx) -> HTMLResponse:
    return render(request, None, "home.html", {"llm": ctx.game.llm_available})


router.include_router(game.router)
router.include_router(tracker.router)
router.include_router(quote.router)
router.include_router(apidocs.router)
