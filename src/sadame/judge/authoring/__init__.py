"""sadame.judge.authoring: tools for people who write rule tables and puzzle packs.

Lint a table, run its examples and natural-question sets, measure coverage, import the
seed's rules, probe a pack for false confirmations and print the JSON Schema an editor validates against.

>>> from sadame.judge import bundled_table
>>> from sadame.judge.authoring import lint_table
>>> lint_table(bundled_table("faq-routing")).errors
()
"""

from __future__ import annotations

from sadame.judge.authoring._probe import probe_table
from sadame.judge.authoring._questions import load_questions, run_questions
from sadame.judge.authoring._tools import lint_table

__all__ = [
    "lint_table",
    "load_questions",
    "probe_table",
    "run_questions",
]
