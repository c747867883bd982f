"""Pages of the puzzle game: the list and one puzzle (ask, hint, answer, give up, replay).

Every page works without JavaScript: moves are forms that post and redirect back
(post/redirect/get); giving up asks for confirmation first.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from sadame.db import DatabaseError
from sadame.judge.game import GameError, UnknownPuzzle
from sadame.judge.game._catalog import STATUS_LABELS
from sadame.judge.game._messages import GIVE_UP_CONFIRM
from sadame.web._budget import BudgetExhausted
from sadame.web.deps import Ctx, clean_text
from sadame.web.pages._common import Browser, redirect, render

__all__ = ["router"]

router = APIRouter()

_MAX_FORM_TEXT = 2_000
#: Where the cursor goes after each move. No URL fragment for the input boxes: a page whose
#: URL has a fragment gets no autofocus (browsers block it), so the question box would lose it.
_AFTER = {"ask": "", "answer": "?focus=answer", "hint": "", "restart": "", "give-up": "#truth"}


def _form_text(value: str) -> str:
    value = clean_text(value)
    if len(value) > _MAX_FORM_TEXT:
        raise GameError(f"{_MAX_FORM_TEXT}文字以内で入力してください")
    return value


@router.get("/puzzles", response_class=HTMLResponse)
def puzzle_list(request: Request, ctx: Ctx, pack: Annotated[str | None, Query(max_length=100)] = None,
                status: Annotated[str | None, Query(max_length=20)] = None) -> HTMLResponse:
    browser = Browser(request, ctx)
    pack, status = pack or None, status or None
    try:
        packs = ctx.game.listing(browser.sent, pack, status)
    except UnknownPuzzle as exc:
        return render(request, browser, "error.html", {"message": str(exc.args[0])}, status=404)
    except GameError as exc:
        return render(request, browser, "error.html", {"message": str(exc.args[0])}, status=400)
    context = {"packs": packs, "pack_names": [(p.name, p.title) for p in ctx.game.packs().values()],
               "statuses": list(STATUS_LABELS.items()), "pack": pack, "status": status}
    return render(request, browser, "puzzles.html", context)


def _page(request: Request, ctx: Ctx, browser: Browser, pack: str, puzzle_id: str, error: str | None = None,
          status: int = 200, confirm_give_up: bool = False, focus: str = "question") -> HTMLResponse:
    try:
        game = ctx.game.view(browser.known, pack, puzzle_id)
    except UnknownPuzzle as exc:
        return render(request, browser, "error.html", {"message": str(exc.args[0])}, status=404)
    context = {"game": game, "error": error, "confirm_give_up": confirm_give_up, "give_up_confirm": GIVE_UP_CONFIRM,
               "focus": focus}
    return render(request, browser, "puzzle.html", context, status=status)


@router.get("/puzzles/{pack}/{puzzle_id}", response_class=HTMLResponse)
def puzzle_page(pack: str, puzzle_id: str, request: Request, ctx: Ctx,
                focus: Annotated[str | None, Query(max_length=20)] = None) -> HTMLResponse:
    """One puzzle; the cursor is in the question box (``?focus=answer``: the answer box)."""
    return _page(request, ctx, Browser(request, ctx), pack, puzzle_id,
                 focus="answer" if focus == "answer" else "question")


def _move(request: Request, ctx: Ctx, pack: str, puzzle_id: str, action: str, text: str = "",
          use_llm: bool = False) -> HTMLResponse | RedirectResponse:
    browser = Browser(request, ctx)
    try:
        if action == "ask":
            ctx.game.ask(browser.cookie, pack, puzzle_id, _form_text(text), use_llm=use_llm,
                         client=browser.client)
        elif action == "answer":
            ctx.game.answer(browser.cookie, pack, puzzle_id, _form_text(text), client=browser.client)
        elif action == "hint":
            ctx.game.hint(browser.cookie, pack, puzzle_id, client=browser.client)
        elif action == "restart":
            ctx.game.restart(browser.cookie, pack, puzzle_id, client=browser.client)
        else:
            ctx.game.give_up(browser.cookie, pack, puzzle_id, client=browser.client)
    except UnknownPuzzle as exc:
        return render(request, browser, "error.html", {"message": str(exc.args[0])}, status=404)
    except BudgetExhausted as exc:
        return _page(request, ctx, browser, pack, puzzle_id, error=str(exc), status=429,
                     focus="answer" if action == "answer" else "question")
    except DatabaseError:
        raise  # 503 from the app's handler, without the database's details
    except ValueError as exc:  # GameError and bad text
        return _page(request, ctx, browser, pack, puzzle_id, error=str(exc), status=400,
                     focus="answer" if action == "answer" else "question")
    return redirect(f"/puzzles/{pack}/{puzzle_id}{_AFTER[action]}", browser)


@router.post("/puzzles/{pack}/{puzzle_id}/ask", response_model=None)
def ask(pack: str, puzzle_id: str, request: Request, ctx: Ctx,
        question: Annotated[str, Form()] = "", use_llm: Annotated[bool, Form()] = False,
        ) -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "ask", question, use_llm)


@router.post("/puzzles/{pack}/{puzzle_id}/answer", response_model=None)
def answer(pack: str, puzzle_id: str, request: Request, ctx: Ctx,
           answer: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "answer", answer)


@router.post("/puzzles/{pack}/{puzzle_id}/hint", response_model=None)
def hint(pack: str, puzzle_id: str, request: Request, ctx: Ctx) -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "hint")


@router.post("/puzzles/{pack}/{puzzle_id}/give-up", response_model=None)
def give_up(pack: str, puzzle_id: str, request: Request, ctx: Ctx,
            confirm: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    if confirm != "yes":  # not confirmed yet: ask first (the page works without JavaScript)
        return _page(request, ctx, Browser(request, ctx), pack, puzzle_id, confirm_give_up=True)
    return _move(request, ctx, pack, puzzle_id, "give-up")


@router.post("/puzzles/{pack}/{puzzle_id}/restart", response_model=None)
def restart(pack: str, puzzle_id: str, request: Request, ctx: Ctx) -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "restart")
