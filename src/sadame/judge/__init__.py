"""sadame.judge: deterministic answers from rule tables (seed 001), and the game.

Load a table (YAML/JSON, schema-checked, all-or-nothing), judge free-text
Japanese questions in one automaton pass, check answers with partial credit,
lint/test/cover tables, and play the bundled lateral-thinking puzzles.

>>> from sadame.judge import Judge, bundled_table
>>> Judge(bundled_table("faq-routing")).ask("請求書を再発行してほしい").verdict
'BILLING'
"""

from __future__ import annotations

from sadame.judge._answer import KEYWORDS_ADVICE, TOO_LONG_ADVICE
from sadame.judge._engine import (
    AnswerCheck,
    CompiledTable,
    RuleMatch,
    check_answer,
    compile_table,
    judge_by_rules,
    normalize_question,
)
from sadame.judge._errors import GameError, GameFinished, JudgeError, TableError, UnknownPuzzle
from sadame.judge._game import GameState, GameStatus
from sadame.judge._import import import_seed_rules
from sadame.judge._judge import (
    MISS_NOTE,
    UNKNOWN,
    FallbackAnswer,
    Judge,
    JudgeFallback,
    JudgeResult,
    JudgeSource,
)
from sadame.judge._loader import (
    MAX_TABLE_BYTES,
    PACK_FORMAT,
    PACK_FORMAT2,
    TABLE_FORMAT,
    TABLE_FORMAT2,
    bundled_names,
    bundled_pack,
    bundled_table,
    load_pack,
    load_table,
    parse_table,
    resolve_table,
    table_schema,
)
from sadame.judge._messages import answer_feedback
from sadame.judge._model import (
    MATCHING_MODES,
    AnswerExample,
    Example,
    Puzzle,
    PuzzlePack,
    Question,
    Rule,
    RuleTable,
    Solution,
)
from sadame.judge._natural import DEFAULT_POLICY, POLICIES, NaturalHit, NaturalOutcome, natural_match
from sadame.judge._play import play
from sadame.judge._questions import (
    POLARITY_TAGS,
    PuzzleFigures,
    QuestionOutcome,
    QuestionReport,
    load_questions,
    render_questions,
    run_questions,
)
from sadame.judge._tools import (
    CoverageReport,
    ExampleFailure,
    ExampleReport,
    LintFinding,
    LintReport,
    coverage,
    lint_table,
    run_examples,
)

__all__ = [
    "DEFAULT_POLICY",
    "KEYWORDS_ADVICE",
    "MATCHING_MODES",
    "MAX_TABLE_BYTES",
    "MISS_NOTE",
    "PACK_FORMAT",
    "PACK_FORMAT2",
    "POLARITY_TAGS",
    "POLICIES",
    "TABLE_FORMAT",
    "TABLE_FORMAT2",
    "TOO_LONG_ADVICE",
    "UNKNOWN",
    "AnswerCheck",
    "AnswerExample",
    "CompiledTable",
    "CoverageReport",
    "Example",
    "ExampleFailure",
    "ExampleReport",
    "FallbackAnswer",
    "GameError",
    "GameFinished",
    "GameState",
    "GameStatus",
    "Judge",
    "JudgeError",
    "JudgeFallback",
    "JudgeResult",
    "JudgeSource",
    "LintFinding",
    "LintReport",
    "NaturalHit",
    "NaturalOutcome",
    "Puzzle",
    "PuzzleFigures",
    "PuzzlePack",
    "Question",
    "QuestionOutcome",
    "QuestionReport",
    "Rule",
    "RuleMatch",
    "RuleTable",
    "Solution",
    "TableError",
    "UnknownPuzzle",
    "answer_feedback",
    "bundled_names",
    "bundled_pack",
    "bundled_table",
    "check_answer",
    "compile_table",
    "coverage",
    "import_seed_rules",
    "judge_by_rules",
    "lint_table",
    "load_pack",
    "load_questions",
    "load_table",
    "natural_match",
    "normalize_question",
    "parse_table",
    "play",
    "render_questions",
    "resolve_table",
    "run_examples",
    "run_questions",
    "table_schema",
]
