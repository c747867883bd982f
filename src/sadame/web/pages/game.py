"""Pages of the puzzle game: the list and one puzzle (ask, answer, give up)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from sadame.web._budget import BudgetExhausted
from sadame.web._game import GameError, PuzzleNotFound
from sadame.web.deps import Ctx, clean_text
from sadame.web.pages._common import Browser, redirect, render

__all__ = ["router"]

router = APIRouter()

_MAX_FORM_TEXT = 2_000


def _form_text(value: str) -> str:
    value = clean_text(value)
    if len(value) > _MAX_FORM_TEXT:
        raise GameError(f"{_MAX_FORM_TEXT}文字以内で入力してください")
    return value


@router.get("/puzzles", response_class=HTMLResponse)
def puzzle_list(request: Request, ctx: Ctx) -> HTMLResponse:
    browser = Browser(request, ctx)
    return render(request, browser, "puzzles.html", {"packs": ctx.game.listing(browser.sent)})


def _page(request: Request, ctx: Ctx, browser: Browser, pack: str, puzzle_id: str,
          error: str | None = None, status: int = 200) -> HTMLResponse:
    try:
        game = ctx.game.view(browser.known, pack, puzzle_id)
    except PuzzleNotFound as exc:
        return render(request, browser, "error.html", {"message": str(exc.args[0])}, status=404)
    return render(request, browser, "puzzle.html", {"game": game, "error": error}, status=status)


@router.get("/puzzles/{pack}/{puzzle_id}", response_class=HTMLResponse)
def puzzle_page(pack: str, puzzle_id: str, request: Request, ctx: Ctx) -> HTMLResponse:
    return _page(request, ctx, Browser(request, ctx), pack, puzzle_id)


def _move(request: Request, ctx: Ctx, pack: str, puzzle_id: str, action: str, text: str = "",
          use_llm: bool = False) -> HTMLResponse | RedirectResponse:
    browser = Browser(request, ctx)
    try:
        if action == "ask":
            ctx.game.ask(browser.cookie, pack, puzzle_id, _form_text(text), use_llm=use_llm,
                         client=browser.client)
        elif action == "answer":
            ctx.game.answer(browser.cookie, pack, puzzle_id, _form_text(text), client=browser.client)
        else:
            ctx.game.give_up(browser.cookie, pack, puzzle_id, client=browser.client)
    except PuzzleNotFound as exc:
        return render(request, browser, "error.html", {"message": str(exc.args[0])}, status=404)
    except BudgetExhausted as exc:
        return _page(request, ctx, browser, pack, puzzle_id, error=str(exc), status=429)
    except (GameError, ValueError) as exc:
        return _page(request, ctx, browser, pack, puzzle_id, error=str(exc), status=400)
    anchor = "#answer" if action == "answer" else "#ask"
    return redirect(f"/puzzles/{pack}/{puzzle_id}{anchor}", browser)


@router.post("/puzzles/{pack}/{puzzle_id}/ask", response_model=None)
def ask(pack: str, puzzle_id: str, request: Request, ctx: Ctx,
        question: Annotated[str, Form()] = "", use_llm: Annotated[bool, Form()] = False,
        ) -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "ask", question, use_llm)


@router.post("/puzzles/{pack}/{puzzle_id}/answer", response_model=None)
def answer(pack: str, puzzle_id: str, request: Request, ctx: Ctx,
           answer: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "answer", answer)


@router.post("/puzzles/{pack}/{puzzle_id}/give-up", response_model=None)
def give_up(pack: str, puzzle_id: str, request: Request, ctx: Ctx) -> HTMLResponse | RedirectResponse:
    return _move(request, ctx, pack, puzzle_id, "give-up")
