"""sadame.judge: deterministic answers from rule tables (seed 001), and the game.

Load a table (YAML/JSON, schema-checked, all-or-nothing), judge free-text
Japanese questions in one automaton pass and check answers with partial credit.
The package has three rooms: ``engine`` (tables, matcher, answer checker; its names
are exported here), ``authoring`` (lint, tests, coverage, import, question sets,
probe: :mod:`sadame.judge.authoring`) and ``game`` (:mod:`sadame.judge.game`).

>>> from sadame.judge import Judge, bundled_table
>>> Judge(bundled_table("faq-routing")).ask("請求書を再発行してほしい").verdict
'BILLING'
"""

from __future__ import annotations

from sadame.judge.engine._engine import AnswerCheck, check_answer
from sadame.judge.engine._errors import JudgeError, TableError
from sadame.judge.engine._judge import FallbackAnswer, Judge, JudgeFallback, JudgeResult
from sadame.judge.engine._loader import (
    bundled_pack,
    bundled_table,
    load_pack,
    load_table,
    parse_table,
)
from sadame.judge.engine._model import MATCHING_MODES, Puzzle, PuzzlePack, RuleTable

__all__ = [
    "MATCHING_MODES",
    "AnswerCheck",
    "FallbackAnswer",
    "Judge",
    "JudgeError",
    "JudgeFallback",
    "JudgeResult",
    "Puzzle",
    "PuzzlePack",
    "RuleTable",
    "TableError",
    "bundled_pack",
    "bundled_table",
    "check_answer",
    "load_pack",
    "load_table",
    "parse_table",
]
