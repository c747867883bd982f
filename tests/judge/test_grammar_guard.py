"""Readings and kana words never match across grammar (format 3), and lint J109 finds the
words that do in a table without the guard (宝 in 〜かったから, メール in 読める, 内容 in 〜ないよう)."""

from __future__ import annotations

import pytest

from sadame.judge import Judge, PuzzlePack, bundled_pack, parse_table
from sadame.judge.authoring import lint_table
from sadame.judge.engine._loader import bundled_names


def _pack(fmt: str) -> PuzzlePack:
    rules = [
        {"id": "treasure", "any": ["宝"], "answer": "NO"},
        {"id": "mail", "any": ["メール"], "answer": "YES"},
        {"id": "content", "any": ["内容"], "answer": "IRRELEVANT"},
        {"id": "phrase", "any": ["靴がきつ"], "answer": "YES"},
    ]
    puzzle = {"id": "p", "title": "t", "statement": "s", "truth": "t", "rules": rules, "solution": [["靴"]]}
    loaded = parse_table({"format": fmt, "name": "t", "title": "t", "answers": ["YES", "NO", "IRRELEVANT"],
                          "puzzles": [puzzle]})
    assert isinstance(loaded, PuzzlePack)
    return loaded


@pytest.mark.parametrize(("question", "rule"), [
    ("新品の靴がきつかったからじゃない？", "phrase"),  # 〜かったから is not 宝
    ("母は字が読めない？", None),                       # 読める is not メール
    ("忘れないようにした？", None),                     # 〜ないよう is not 内容
    ("宝が埋まってた？", "treasure"),
    ("たからは関係ある？", "treasure"),                 # the reading still meets kana the player typed
    ("めーるで届いた？", "mail"),
    ("ないようは関係ある？", "content"),
])
def test_format3_never_matches_kana_across_grammar(question: str, rule: str | None) -> None:
    assert Judge(_pack("sadame.puzzles/3").puzzle("p")).ask(question).rule_id == rule


def test_format2_keeps_its_matching() -> None:
    judge = Judge(_pack("sadame.puzzles/2").puzzle("p"))
    assert judge.ask("母は字が読めない？").rule_id == "mail"  # unchanged behaviour, reported by J109


def test_lint_j109_finds_the_collisions_in_a_table_without_the_guard() -> None:
    found = [f for f in lint_table(_pack("sadame.puzzles/2")).findings if f.code == "J109"]
    assert {f.rule_id for f in found} == {"treasure", "mail", "content"}
    assert not [f for f in lint_table(_pack("sadame.puzzles/3")).findings if f.code == "J109"]


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_packs_are_clean_under_the_collision_lint(name: str) -> None:
    assert [f.render() for f in lint_table(bundled_pack(name)).findings if f.code == "J109"] == []


def test_lint_j110_finds_a_solution_group_broad_enough_for_a_wrong_mechanism() -> None:
    pack = _pack("sadame.puzzles/3")
    raw = {"format": "sadame.puzzles/3", "name": "t", "title": "t", "answers": ["YES", "NO", "IRRELEVANT"],
           "puzzles": [{"id": "p", "title": "t", "statement": "s", "truth": "t", "rules": [{"any": ["鍵"], "answer": "YES"}],
                        "solution": [["円記号", "記号"], ["キーボード"]]}]}
    broad = parse_table(raw)
    codes = [f.code for f in lint_table(broad).findings]  # type: ignore[arg-type]
    assert codes.count("J110") == 1
    assert "J110" not in [f.code for f in lint_table(pack).findings]
