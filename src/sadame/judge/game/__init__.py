"""sadame.judge.game: the puzzle game as a library -- one state machine, one set of
Japanese replies, and the puzzle list (the rest of the game's constants and helpers
stay in its private modules) -- for any front end (``sadame play`` and the
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

from sadame.judge.engine._errors import GameError, UnknownPuzzle
from sadame.judge.game._catalog import measure_difficulty, puzzle_catalog
from sadame.judge.game._game import GameState, GameStatus
from sadame.judge.game._messages import answer_feedback, question_feedback
from sadame.judge.game._play import play

__all__ = [
    "GameError",
    "GameState",
    "GameStatus",
    "UnknownPuzzle",
    "answer_feedback",
    "measure_difficulty",
    "play",
    "puzzle_catalog",
    "question_feedback",
]
