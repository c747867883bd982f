"""The JSON HTTP API (``/api/...``), one router per feature."""

from __future__ import annotations

from fastapi import APIRouter

from sadame.web.api import normalize, puzzles, quote, tables, track

__all__ = ["router"]

router = APIRouter(prefix="/api")
router.include_router(normalize.router)
router.include_router(puzzles.router)
router.include_router(tables.router)
router.include_router(quote.router)
router.include_router(track.router)
