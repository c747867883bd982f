"""Loading tables and packs: schema, semantic checks, safety, all-or-nothing."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from sadame.judge import PuzzlePack, RuleTable, TableError, load_pack, load_table, parse_table
from sadame.judge.engine._loader import (
    MAX_TABLE_BYTES,
    PACK_FORMAT,
    TABLE_FORMAT,
    resolve_table,
    table_schema,
)
from sadame.judge.game import UnknownPuzzle


def test_seed_pack_loads_with_words_normalized(seed_pack: PuzzlePack) -> None:
    assert seed_pack.name == "seed"
    assert seed_pack.answers == ("YES", "NO", "IRRELEVANT", "UNCERTAIN")
    puzzle = seed_pack.puzzle("prod-only-images")
    cache = puzzle.table.rule("cache")
    assert cache.any == ("キャッシュ",) and cache.any_normalized == ("きゃっしゅ",)
    assert cache.not_normalized == ("ぶらうざ",)
    # YAML 1.1 would read NO as False and 403 as an int: here they are the strings.
    assert cache.answer == "NO"
    assert "403" in puzzle.table.rule("permission").any
    assert puzzle.table.rule(0).note == "そこが核心です"
    assert len(seed_pack.version) == 64 and len(puzzle.table.version) == 64


def test_json_tables_load_like_yaml(data_dir: Path) -> None:
    table = load_table(data_dir / "seed.json")
    assert isinstance(table, RuleTable)
    assert [r.answer for r in table.rules] == ["YES", "NO", "IRRELEVANT"]


def test_version_is_stable_and_content_sensitive(data_dir: Path, tmp_path: Path) -> None:
    first = load_table(data_dir / "seed.json")
    again = load_table(data_dir / "seed.json")
    assert first.version == again.version
    data = json.loads((data_dir / "seed.json").read_text("utf-8"))
    data["rules"][0]["note"] = "変えた"
    changed = parse_table(data)
    assert changed.version != first.version


@pytest.mark.parametrize(
    ("name", "fragments"),
    [
        ("unknown_key.yaml", ["unknown_key.yaml", "rule #1", "'typo'", "field 'anser'", "unknown key"]),
        ("duplicate_id.yaml", ["rule #1", "'same'", "field 'id'", "duplicate rule id"]),
        ("wrong_type.yaml", ["rule #1", "'any-is-str'", "field 'any'", "not of type 'array'"]),
        ("answer_outside.yaml", ["puzzle 'p1'", "rule #1", "'maybe'", "field 'answer'", "MAYBE"]),
        ("empty_word.yaml", ["rule #1", "'punct'", "field 'any'", "empty string"]),
        ("bomb.yaml", ["anchors and aliases", "line 4"]),
        ("python_tag.yaml", ["python/object"]),
        ("duplicate_key.yaml", ["duplicate key 'answer'"]),
        ("duplicate_key.json", ["duplicate key 'name'"]),
        ("syntax.yaml", ["invalid YAML", "line 4"]),
        ("syntax.json", ["invalid JSON"]),
        ("not_mapping.yaml", ["must be a mapping"]),
        ("unknown_format.yaml", ["unknown format", "sadame.rules/9"]),
    ],
)
def test_bad_files_raise_a_table_error_naming_the_place(data_dir: Path, name: str, fragments: list[str]) -> None:
    with pytest.raises(TableError) as info:
        load_table(data_dir / "bad" / name)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message
    assert isinstance(info.value, ValueError)
    assert info.value.to_dict()["file"] == str(data_dir / "bad" / name)


def test_error_fields_are_structured(data_dir: Path) -> None:
    with pytest.raises(TableError) as info:
        load_table(data_dir / "bad" / "answer_outside.yaml")
    error = info.value
    assert (error.puzzle, error.index, error.rule_id, error.field) == ("p1", 1, "maybe", "answer")


def test_yaml_bomb_is_refused_quickly(data_dir: Path) -> None:
    # Unchecked, the file expands to 9**8 (43 million) strings.
    with pytest.raises(TableError, match="aliases"):
        load_table(data_dir / "bad" / "bomb.yaml")


def test_size_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"format: sadame.rules/1\n#" + b"x" * MAX_TABLE_BYTES)
    with pytest.raises(TableError, match="limit"):
        load_table(big)


def test_deep_nesting_is_an_error_not_a_crash(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TableError):
        load_table(deep)


def test_not_utf8_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "latin.yaml"
    bad.write_bytes("name: caf\xe9".encode("latin-1"))
    with pytest.raises(TableError, match="UTF-8"):
        load_table(bad)
    with pytest.raises(TableError, match="cannot read"):
        load_table(tmp_path / "missing.yaml")
    with pytest.raises(TypeError):
        load_table(42)  # type: ignore[arg-type]


def _pack(**puzzle_overrides: object) -> dict[str, object]:
    puzzle: dict[str, object] = {
        "id": "p", "title": "t", "statement": "s", "truth": "t",
        "rules": [{"any": ["a"], "answer": "YES"}], "solution": [["a"]],
    }
    puzzle.update(puzzle_overrides)
    return {"format": PACK_FORMAT, "name": "pk", "title": "T", "answers": ["YES", "NO"], "puzzles": [puzzle]}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (_pack(rules=[]), "should be non-empty"),
        (_pack(rules=[{"any": [], "answer": "YES"}]), "should be non-empty"),
        (_pack(rules=[{"any": [True], "answer": "YES"}]), "not of type"),
        (_pack(rules=[{"any": ["a"], "answer": "YES", "note": 3}]), "not of type 'string'"),
        (_pack(solution=[["・"]]), "empty string"),
        (_pack(solution=[]), "should be non-empty"),
        (_pack(examples=[{"q": "a", "expect": "MAYBE"}]), "MAYBE"),
        (_pack(answer_examples=[{"a": "a", "correct": True, "matched": 5}]), "exceeds"),
        (_pack(id="Bad Id"), "does not match"),
        ({"format": TABLE_FORMAT, "name": "x", "answers": ["YES", "UNKNOWN"], "rules": [{"any": ["a"], "answer": "YES"}]},
         "UNKNOWN"),
        ({"format": TABLE_FORMAT, "name": "x", "answers": ["YES", "YES"], "rules": [{"any": ["a"], "answer": "YES"}]},
         "non-unique"),
        ({"format": TABLE_FORMAT, "name": "x", "answers": ["YES"]}, "'rules' is a required property"),
    ],
)
def test_semantic_and_schema_errors(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(TableError, match=fragment):
        parse_table(data)


def test_duplicate_puzzle_ids() -> None:
    data = _pack()
    data["puzzles"] = [*data["puzzles"], *data["puzzles"]]  # type: ignore[misc]
    with pytest.raises(TableError, match="duplicate puzzle id 'p'"):
        parse_table(data)


def test_integer_words_are_read_as_decimal_strings() -> None:
    pack = parse_table(_pack(rules=[{"any": [404, "0123"], "answer": "NO"}]))
    assert isinstance(pack, PuzzlePack)
    assert pack.puzzle("p").table.rules[0].any == ("404", "0123")


def test_load_pack_refuses_a_plain_table(data_dir: Path) -> None:
    with pytest.raises(TableError, match="puzzle pack"):
        load_pack(data_dir / "seed.json")


def test_unknown_puzzle(seed_pack: PuzzlePack) -> None:
    with pytest.raises(UnknownPuzzle, match="prod-only-images"):
        seed_pack.puzzle("nope")


def test_resolve_table_accepts_paths_and_bundled_names(data_dir: Path) -> None:
    assert isinstance(resolve_table(str(data_dir / "seed.json")), RuleTable)
    assert isinstance(resolve_table("faq-routing"), RuleTable)
    assert isinstance(resolve_table("engineering"), PuzzlePack)
    with pytest.raises(TableError, match="no bundled"):
        resolve_table("no-such-table")


def test_shipped_schemas_are_valid_and_accept_good_data(data_dir: Path) -> None:
    rules_schema, pack_schema = table_schema(TABLE_FORMAT), table_schema(PACK_FORMAT)
    jsonschema.Draft202012Validator.check_schema(rules_schema)
    jsonschema.Draft202012Validator.check_schema(pack_schema)
    jsonschema.validate(json.loads((data_dir / "seed.json").read_text("utf-8")), rules_schema)
    jsonschema.validate(_pack(), pack_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(_pack(extra=1), pack_schema)
    with pytest.raises(ValueError, match="unknown format"):
        table_schema("sadame.rules/3")
