"""The JSON HTTP API (``/api/...``), one router per feature."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.routing import APIRoute

from sadame.web.api import normalize, puzzles, quote, tables, track
from sadame.web.schemas.errors import ERROR_RESPONSES, error_responses

__all__ = ["FEATURE_ROUTERS", "SUMMARIES", "router"]

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)
#: The Japanese summary of every operation, shown by ``/docs`` (the docstring stays its description).
SUMMARIES: dict[str, str] = {
    "normalize_text": "テキストをプリセットで正規化する",
    "list_puzzles": "問題集と問題の一覧（この端末の進み具合つき）",
    "show_puzzle": "問題を見る（解くまで答えは出ません）",
    "ask": "はい・いいえで答えられる質問をする",
    "answer": "答えを出す",
    "hint": "ヒントを 1 つもらう",
    "restart": "問題を最初から解き直す",
    "give_up": "降参して答えを見る",
    "list_tables": "同梱のルール表の一覧",
    "judge": "ルール表で質問を判定する",
    "verify": "引用が原文にあるか確かめる",
    "ground": "主張の数値が原文にあるか確かめる",
    "check": "LLM の出力の引用と数値をまとめて確かめる",
    "ingest": "セッションの指摘を取り込む",
    "users": "テナントの利用者の一覧",
    "list_issues": "利用者の課題の一覧",
    "show_issue": "課題の詳細（検出と履歴）",
    "timeline": "利用者のセッションごとの推移",
    "ignore": "課題を無視に設定する",
    "reopen": "課題を再オープンする",
    "merge": "課題を統合する",
    "unmerge": "課題の統合を解除する",
    "similar": "似ている課題を探す",
    "delete_user": "利用者のデータをすべて削除する",
}
#: The feature routers, in the order ``/docs`` lists them.
FEATURE_ROUTERS = (normalize.router, puzzles.router, tables.router, quote.router, track.router)
for _route in (route for feature in FEATURE_ROUTERS for route in feature.routes):
    if isinstance(_route, APIRoute):
        _route.summary = SUMMARIES[_route.name]

router.include_router(normalize.router)
router.include_router(puzzles.router, responses=error_responses(404, 409, 429))
router.include_router(tables.router, responses=error_responses(404))
router.include_router(quote.router, responses=error_responses(503))
router.include_router(track.router, responses=error_responses(401, 404, 409))
