"""Pack format ``sadame.puzzles/2`` (and ``sadame.rules/2``): the extra fields load,
are validated, and format 1 keeps loading exactly as before."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from sadame.judge import PuzzlePack, RuleTable, TableError, load_pack, parse_table
from sadame.judge.engine._loader import PACK_FORMAT2, TABLE_FORMAT2, table_schema
from sadame.judge.engine._model import Question


@pytest.fixture(scope="module")
def raw_pack(data_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((data_dir / "natural.yaml").read_text("utf-8"))
    return data


def test_format2_pack_carries_the_new_fields(data_dir: Path) -> None:
    pack = load_pack(data_dir / "natural.yaml")
    assert pack.format == PACK_FORMAT2
    assert pack.matching == "natural" and pack.description == "テスト用の小さなパズル。"
    assert dict(pack.synonyms) == {"証明書": ("SSL証明書", "証明")}
    puzzle = pack.puzzle("lunch-breaker")
    assert puzzle.difficulty == 2
    assert puzzle.hints[0].startswith("雨の日の昼休み")
    assert puzzle.table.matching == "natural"
    assert puzzle.table.synonyms == pack.synonyms
    assert puzzle.questions[0] == Question("れんじ使った？", "YES", ("kana", "casual"), False)
    assert puzzle.questions[-1].none_ok is True
    assert puzzle.table.questions == puzzle.questions
    assert [a.kind for a in puzzle.answer_examples][:4] == ["correct", "partial", "wrong", "denial"]


def test_format1_packs_stay_seed_mode(seed_pack: PuzzlePack) -> None:
    assert seed_pack.matching == "seed" and seed_pack.format == "sadame.puzzles/1"
    puzzle = next(iter(seed_pack.puzzles.values()))
    assert puzzle.table.matching == "seed"
    assert puzzle.difficulty is None and puzzle.hints == () and puzzle.questions == ()
    assert all(a.kind is None for a in puzzle.answer_examples)


def test_matching_defaults_to_natural_and_seed_opts_out(raw_pack: dict[str, Any]) -> None:
    data = copy.deepcopy(raw_pack)
    del data["matching"]
    assert isinstance(pack := parse_table(data), PuzzlePack) and pack.matching == "natural"
    data["matching"] = "seed"
    pack2 = parse_table(data)
    assert isinstance(pack2, PuzzlePack) and pack2.matching == "seed"
    assert pack2.puzzle("lunch-breaker").table.version != pack.puzzle("lunch-breaker").table.version


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        (("puzzles", 0, "difficulty"), 6, "difficulty"),
        (("puzzles", 0, "hints"), ["ひとつだけ"], "hints"),
        (("puzzles", 0, "questions", 0, "tags"), ["kanji"], "questions[0].tags"),
        (("puzzles", 0, "questions", 0, "expect"), "MAYBE", "questions[0].expect"),
        (("puzzles", 0, "answer_examples", 0, "kind"), "great", "answer_examples[0].kind"),
        (("matching",), "fuzzy", "matching"),
        (("synonyms",), {"証明書": []}, "synonyms"),
        (("synonyms",), {"証明書": ["、"]}, "synonyms.証明書"),
    ],
)
def test_format2_fields_are_validated(
    raw_pack: dict[str, Any], path: tuple[Any, ...], value: object, fragment: str
) -> None:
    data = copy.deepcopy(raw_pack)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(TableError) as info:
        parse_table(data)
    assert fragment in str(info.value)


def test_format1_refuses_format2_fields(raw_pack: dict[str, Any]) -> None:
    data = copy.deepcopy(raw_pack)
    data["format"] = "sadame.puzzles/1"
    with pytest.raises(TableError, match="unknown key 'matching'"):
        parse_table(data)


def test_rules_format2_table() -> None:
    table = parse_table({
        "format": TABLE_FORMAT2, "name": "t", "answers": ["YES", "NO"],
        "synonyms": {"サーバー": ["鯖"]},
        "rules": [{"any": ["サーバー"], "answer": "YES"}],
        "questions": [{"q": "鯖落ち？", "expect": "YES", "tags": ["synonym"]}],
    })
    assert isinstance(table, RuleTable)
    assert table.matching == "natural" and table.synonyms["サーバー"] == ("鯖",)
    assert table.questions == (Question("鯖落ち？", "YES", ("synonym",), False),)


def test_format2_schemas_are_served() -> None:
    assert table_schema(PACK_FORMAT2)["properties"]["format"] == {"const": PACK_FORMAT2}
    assert "matching" in table_schema(TABLE_FORMAT2)["properties"]


def test_format2_schemas_are_valid_json_schema() -> None:
    import jsonschema

    for fmt in (PACK_FORMAT2, TABLE_FORMAT2):
        jsonschema.Draft202012Validator.check_schema(table_schema(fmt))
