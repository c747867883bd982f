"""The puzzle game over HTTP. The browser's session cookie carries the game.

Nothing here returns the truth or the rules of an unfinished puzzle (see
:mod:`sadame.web._game`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie
from pydantic import BaseModel, ConfigDict, Field

from sadame.web.deps import COOKIE_NAME, BrowserCookie, Client, Ctx, ShortText

__all__ = ["AnswerRequest", "AskRequest", "router"]

router = APIRouter(prefix="/puzzles", tags=["puzzles"])

#: The session cookie as sent (reads never create a session).
SentCookie = Annotated[str | None, Cookie(alias=COOKIE_NAME, include_in_schema=False)]


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: ShortText = Field(description="質問 (free Japanese text)")
    use_llm: bool = Field(False, description="Ask the LLM fallback when no rule matches (only when configured).")


class AnswerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer: ShortText


class HistoryEntry(BaseModel):
    question: str
    verdict: str
    note: str | None
    source: str


class AttemptEntry(BaseModel):
    answer: str
    correct: bool
    matched: int
    total: int
    message: str


class GameView(BaseModel):
    pack: str
    id: str
    title: str
    statement: str
    history: list[HistoryEntry]
    attempts: list[AttemptEntry]
    solved: bool
    gave_up: bool
    finished: bool
    truth: str | None
    llm_available: bool


class PuzzleSummary(BaseModel):
    id: str
    title: str
    questions: int
    solved: bool
    gave_up: bool


class PackListing(BaseModel):
    name: str
    title: str
    puzzles: list[PuzzleSummary]


@router.get("", response_model=list[PackListing])
def list_puzzles(ctx: Ctx, cookie: SentCookie = None) -> list[dict[str, Any]]:
    """Every pack and its puzzles (ids and titles only), with this browser's progress."""
    return ctx.game.listing(cookie)


@router.get("/{pack}/{puzzle_id}", response_model=GameView)
def show_puzzle(pack: str, puzzle_id: str, ctx: Ctx, cookie: SentCookie = None) -> dict[str, Any]:
    """The statement and this browser's history; the truth only once solved or given up."""
    return ctx.game.view(cookie, pack, puzzle_id)


@router.post("/{pack}/{puzzle_id}/ask", response_model=HistoryEntry)
def ask(pack: str, puzzle_id: str, body: AskRequest, ctx: Ctx, cookie: BrowserCookie,
        client: Client) -> dict[str, Any]:
    """Judge a question: verdict (YES/NO/IRRELEVANT/UNCERTAIN/UNKNOWN), the author's note, source."""
    return ctx.game.ask(cookie, pack, puzzle_id, body.question, use_llm=body.use_llm, client=client)


@router.post("/{pack}/{puzzle_id}/answer", response_model=AttemptEntry)
def answer(pack: str, puzzle_id: str, body: AnswerRequest, ctx: Ctx, cookie: BrowserCookie,
           client: Client) -> dict[str, Any]:
    """Check an answer; a wrong one says how many of the solution's points it got."""
    return ctx.game.answer(cookie, pack, puzzle_id, body.answer, client=client)


@router.post("/{pack}/{puzzle_id}/give-up", response_model=GameView)
def give_up(pack: str, puzzle_id: str, ctx: Ctx, cookie: BrowserCookie, client: Client) -> dict[str, Any]:
    """Give up and get the truth (真相)."""
    ctx.game.give_up(cookie, pack, puzzle_id, client=client)
    return ctx.game.view(cookie, pack, puzzle_id)
