"""sadame.judge.game: the puzzle game as a library -- one state machine, one set of
Japanese replies, and the puzzle list -- for any front end (``sadame play`` and the
web app both use exactly this).

>>> from sadame.judge import Judge, bundled_pack
>>> from sadame.judge.game import GameState, question_feedback
>>> puzzle = bundled_pack("engineering").puzzle("rainy-lunch-server")
>>> state = GameState(puzzle.id)
>>> question_feedback(state.ask(Judge(puzzle), "ｚｚｚ？"))
'判定できません　一度に一つのことだけを、はい／いいえで答えられる形で聞いてみてください（例：「〜は関係ありますか？」「〜を使いましたか？」）'
>>> len(state.history), state.status
(1, <GameStatus.IN_PROGRESS: 'in_progress'>)
"""

from __future__ import annotations

from sadame.judge._catalog import (
    REPLAY_ORDERS,
    STATUS_LABELS,
    CatalogEntry,
    MeasuredDifficulty,
    PackCatalog,
    measure_difficulty,
    parse_status,
    puzzle_catalog,
    puzzle_difficulty,
)
from sadame.judge._errors import GameError, GameFinished, UnknownPuzzle
from sadame.judge._game import (
    MAX_ATTEMPTS,
    MAX_MOVE_CHARS,
    MAX_QUESTIONS,
    GameState,
    GameStatus,
    PlayRecord,
    grade_answer,
    puzzle_hints,
)
from sadame.judge._messages import (
    GIVE_UP_CONFIRM,
    REPHRASE,
    VERDICT_LABELS,
    answer_feedback,
    answer_intro,
    answer_progress,
    hint_line,
    question_feedback,
    reply_note,
    result_summary,
    verdict_label,
)
from sadame.judge._play import HELP_TEXT, MENU_HELP, load_progress, play, save_progress

__all__ = [
    "GIVE_UP_CONFIRM",
    "HELP_TEXT",
    "MAX_ATTEMPTS",
    "MAX_MOVE_CHARS",
    "MAX_QUESTIONS",
    "MENU_HELP",
    "REPHRASE",
    "REPLAY_ORDERS",
    "STATUS_LABELS",
    "VERDICT_LABELS",
    "CatalogEntry",
    "GameError",
    "GameFinished",
    "GameState",
    "GameStatus",
    "MeasuredDifficulty",
    "PackCatalog",
    "PlayRecord",
    "UnknownPuzzle",
    "answer_feedback",
    "answer_intro",
    "answer_progress",
    "grade_answer",
    "hint_line",
    "load_progress",
    "measure_difficulty",
    "parse_status",
    "play",
    "puzzle_catalog",
    "puzzle_difficulty",
    "puzzle_hints",
    "question_feedback",
    "reply_note",
    "result_summary",
    "save_progress",
    "verdict_label",
]
