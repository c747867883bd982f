"""The public surface of sadame.judge: exported names and the docstring examples."""

from __future__ import annotations

import doctest
import importlib

import pytest

import sadame.judge

MODULES = [
    "_answer", "_engine", "_errors", "_game", "_import", "_judge", "_lint_natural", "_loader", "_model",
    "_natural", "_play", "_questions", "_tools",
]


def test_every_exported_name_exists_and_modules_declare_all() -> None:
    for name in sadame.judge.__all__:
        assert hasattr(sadame.judge, name), name
    for module in MODULES:
        mod = importlib.import_module(f"sadame.judge.{module}")
        assert set(mod.__all__) <= set(dir(mod)), module
        assert set(mod.__all__) <= set(sadame.judge.__all__) | {"HELP_TEXT", "Severity"}, module


def test_agreed_api_names_are_exported() -> None:
    agreed = {
        "load_table", "load_pack", "bundled_pack", "bundled_table", "RuleTable", "Rule", "Puzzle", "PuzzlePack",
        "judge_by_rules", "RuleMatch", "check_answer", "AnswerCheck", "JudgeFallback", "FallbackAnswer", "Judge",
        "JudgeResult", "GameState", "TableError",
    }
    assert agreed <= set(sadame.judge.__all__)


@pytest.mark.parametrize("module", ["sadame.judge", *(f"sadame.judge.{m}" for m in MODULES)])
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
