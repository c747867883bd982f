"""The puzzle game over HTTP. The browser's session cookie carries the game.

Nothing here returns the truth or the rules of an unfinished puzzle (see
:mod:`sadame.web._game`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Query
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from starlette.concurrency import run_in_threadpool

from sadame.judge.game import GameStatus
from sadame.web._errors import SafeJSONResponse
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
    label: str = Field(description="The verdict in Japanese (はい / いいえ / 関係ありません / …)")
    note: str | None = Field(description="The author's note, or how to rephrase when there is no verdict")
    source: str


class AttemptEntry(BaseModel):
    answer: str
    correct: bool
    matched: int
    total: int
    message: str


class HintEntry(BaseModel):
    number: int
    hint: str
    hints_total: int


class Measured(BaseModel):
    median_questions: float | None = Field(description="Median questions to confirm every solution point "
                                                       "in the natural-question replay (null: never)")
    level: int
    questions: int


class GameView(BaseModel):
    pack: str
    pack_title: str
    id: str
    title: str
    statement: str
    difficulty: int | None = Field(description="The author's difficulty 1-5 (pack format 2)")
    measured: Measured
    history: list[HistoryEntry]
    attempts: list[AttemptEntry]
    hints: list[str] = Field(description="The hints taken so far, in order")
    hints_total: int
    hints_used: int
    status: str
    status_label: str
    solved: bool
    gave_up: bool
    finished: bool
    truth: str | None
    result: str | None
    answer_intro: str
    answer_progress: str | None
    llm_available: bool


class BestPlay(BaseModel):
    outcome: str
    questions: int
    hints: int
    attempts: int


class PuzzleSummary(BaseModel):
    pack: str
    id: str
    title: str
    difficulty: int | None
    measured: Measured
    hints: int
    status: str
    status_label: str
    questions: int
    hints_used: int
    best: BestPlay | None


class PackListing(BaseModel):
    name: str
    title: str
    description: str | None
    total: int
    solved: int
    puzzles: list[PuzzleSummary]


_LISTING = TypeAdapter(list[PackListing])


@router.get("", response_model=list[PackListing])
async def list_puzzles(ctx: Ctx, cookie: SentCookie = None,
                       pack: Annotated[str | None, Query(max_length=100)] = None,
                       status: Annotated[GameStatus | None, Query()] = None) -> Any:
    """Every pack (or only ``pack``) and its puzzles with difficulty and this browser's progress;
    ``status`` keeps only ``unplayed`` / ``in_progress`` / ``solved`` / ``gave_up`` puzzles."""
    # Async, so that a browser with nothing stored costs no thread hop: its list depends on the
    # packs only and is serialized once per (pack, status) -- through the response model, as FastAPI would.
    states = await run_in_threadpool(ctx.game.played, cookie) if cookie else {}
    if states:
        return await run_in_threadpool(ctx.game.listing_of, states, pack, status)
    key = ("api-listing", pack, status)
    body = ctx.game.memo(key)
    if body is None:  # built once, in a thread: loading the packs must not stall the event loop
        body = await run_in_threadpool(ctx.game.memo, key, lambda: bytes(SafeJSONResponse(_LISTING.dump_python(
            _LISTING.validate_python(ctx.game.listing_of({}, pack, status)), mode="json")).body))
    return Response(body, media_type="application/json")


@router.get("/{pack}/{puzzle_id}", response_model=GameView)
def show_puzzle(pack: str, puzzle_id: str, ctx: Ctx, cookie: SentCookie = None) -> dict[str, Any]:
    """The statement, this browser's history and hints taken; the truth only once solved or given up."""
    return ctx.game.view(cookie, pack, puzzle_id)


@router.post("/{pack}/{puzzle_id}/ask", response_model=HistoryEntry)
def ask(pack: str, puzzle_id: str, body: AskRequest, ctx: Ctx, cookie: BrowserCookie,
        client: Client) -> dict[str, Any]:
    """Judge a question: verdict (YES/NO/IRRELEVANT/UNCERTAIN/UNKNOWN), its label, the note, source."""
    return ctx.game.ask(cookie, pack, puzzle_id, body.question, use_llm=body.use_llm, client=client)


@router.post("/{pack}/{puzzle_id}/answer", response_model=AttemptEntry)
def answer(pack: str, puzzle_id: str, body: AnswerRequest, ctx: Ctx, cookie: BrowserCookie,
           client: Client) -> dict[str, Any]:
    """Check an answer; a wrong one says how many of the solution's points it got (never which)."""
    return ctx.game.answer(cookie, pack, puzzle_id, body.answer, client=client)


@router.post("/{pack}/{puzzle_id}/hint", response_model=HintEntry)
def hint(pack: str, puzzle_id: str, ctx: Ctx, cookie: BrowserCookie, client: Client) -> dict[str, Any]:
    """Reveal the next hint (counted and shown with the result); 409 when none is left."""
    return ctx.game.hint(cookie, pack, puzzle_id, client=client)


@router.post("/{pack}/{puzzle_id}/restart", response_model=GameView)
def restart(pack: str, puzzle_id: str, ctx: Ctx, cookie: BrowserCookie, client: Client) -> dict[str, Any]:
    """Play a solved or given-up puzzle again (409 while it is in progress)."""
    ctx.game.restart(cookie, pack, puzzle_id, client=client)
    return ctx.game.view(cookie, pack, puzzle_id)


@router.post("/{pack}/{puzzle_id}/give-up", response_model=GameView)
def give_up(pack: str, puzzle_id: str, ctx: Ctx, cookie: BrowserCookie, client: Client) -> dict[str, Any]:
    """Give up and get the truth (真相)."""
    ctx.game.give_up(cookie, pack, puzzle_id, client=client)
    return ctx.game.view(cookie, pack, puzzle_id)
