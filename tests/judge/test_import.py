"""``sadame rules import``: seed-shaped rules (JSON array or `const RULES = [...]`)
become a sadame table that judges exactly like the seed (the naive port)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.cli import cli
from sadame.judge import Judge, TableError, load_table
from sadame.judge.authoring._import import import_seed_rules
from sadame.judge.engine._engine import judge_by_rules
from sadame.normalize import normalize
from tests.judge import seed_port

SEED_QUESTIONS = [
    "ファイル名の大文字・小文字は関係アル？", "ｷｬｯｼｭが残ってるとか？", "ブラウザキャッシュの可能性は？",
    "時間帯は関係ありますか？", "何時ごろに起きるんですか？", "サーバーのメモリ不足ですか？",
]
SEED_JS = """
// the seed's rule table, as written in JavaScript
const RULES = [
  { any: ["大文字", "小文字", "case sensitive"], a: "YES", note: "そこが核心です" },
  { any: ["ファイル名", "命名", "つづり"], a: "YES" },
  { any: ["os", "windows", "mac", "linux"], a: "YES" },
  { any: ['キャッシュ'], not: ["ブラウザ"], a: "NO" },   /* single quotes too */
  { any: ["権限", "パーミッション", "403"], a: "NO" },
  { any: ["時間", "時刻", "タイミング", "曜日"], a: "IRRELEVANT", },
]

const SOLUTION = [["大文字"]]
"""
SEED_RULES: list[dict[str, Any]] = [
    {"any": ["大文字", "小文字", "case sensitive"], "a": "YES", "note": "そこが核心です"},
    {"any": ["ファイル名", "命名", "つづり"], "a": "YES"},
    {"any": ["os", "windows", "mac", "linux"], "a": "YES"},
    {"any": ["キャッシュ"], "not": ["ブラウザ"], "a": "NO"},
    {"any": ["権限", "パーミッション", "403"], "a": "NO"},
    {"any": ["時間", "時刻", "タイミング", "曜日"], "a": "IRRELEVANT"},
]


def _port_rules(rules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "answer": r["a"]} for r in rules]


@pytest.mark.parametrize("text", [SEED_JS, json.dumps(SEED_RULES, ensure_ascii=False)], ids=["js", "json"])
def test_imported_table_judges_like_the_seed(text: str) -> None:
    table, dumped = import_seed_rules(text, "seed-001")
    assert table.matching == "seed" and table.answers == ("YES", "NO", "IRRELEVANT")
    assert dumped.startswith("format: sadame.rules/1\n")
    for question in SEED_QUESTIONS:
        hit = judge_by_rules(question, table)
        expected = seed_port.judge_by_rules(question, _port_rules(SEED_RULES))
        assert (None if hit is None else (hit.rule.index, hit.matched_word)) == expected
    assert Judge(table).ask(SEED_QUESTIONS[0]).note == "そこが核心です"
    assert Judge(table).ask(SEED_QUESTIONS[2]).answered is False


_ALPHABET = "あいアイaAb・？ "
_word = st.text(_ALPHABET, min_size=1, max_size=4).filter(lambda w: normalize(w, preset="judge") != "")
_rule = st.fixed_dictionaries(
    {"any": st.lists(_word, min_size=1, max_size=3), "a": st.sampled_from(["YES", "NO", "IRRELEVANT"])},
    optional={"not": st.lists(_word, max_size=2), "note": st.text(max_size=5)},
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_rule, min_size=1, max_size=6), st.text(_ALPHABET, max_size=8))
def test_any_json_table_imports_and_judges_like_the_port(rules: list[dict[str, Any]], question: str) -> None:
    table, _ = import_seed_rules(json.dumps(rules, ensure_ascii=False), "prop")
    hit = judge_by_rules(question, table)
    expected = seed_port.judge_by_rules(question, _port_rules(rules))
    assert (None if hit is None else (hit.rule.index, hit.matched_word)) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "unexpected end"),
        ("{}", "must be an array"),
        ('[{"any": ["x"]}]', "'a' (the answer)"),
        ('[{"any": "x", "a": "YES"}]', "array of strings"),
        ('[{"any": ["x"], "a": "YES", "b": 1}]', "unknown key 'b'"),
        ('[{"any": ["x"], "a": "yes"}]', "answers"),
        ("const RULES = [{ any: [\"x\"], a: \"YES\" }", "expected ','"),
        ("const RULES = [{ any: [\"x\n\"], a: \"YES\" }]", "unterminated string"),
        ("[1] trailing", "extra text"),
        ("[" * 100 + "]" * 100, "nested too deeply"),
        ('[{"any": ["、"], "a": "YES"}]', "empty string"),
    ],
)
def test_bad_input_is_one_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(TableError) as info:
        import_seed_rules(text, "t")
    assert fragment in str(info.value)


def test_cli_import_writes_a_loadable_table(tmp_path: Path) -> None:
    source = tmp_path / "Engine.mjs"
    source.write_text(SEED_JS, "utf-8")
    output = tmp_path / "table.yaml"
    result = CliRunner().invoke(cli, ["rules", "import", str(source), "-o", str(output)])
    assert result.exit_code == 0, result.output
    table = load_table(output)
    assert table.name == "engine" and len(table.rules) == 6
    result = CliRunner().invoke(cli, ["rules", "import", str(source), "--name", "Bad Name"])
    assert result.exit_code == 1 and "must match" in result.output
    result = CliRunner().invoke(cli, ["rules", "import", str(source)])
    assert result.exit_code == 0 and result.output.startswith("format: sadame.rules/1")
