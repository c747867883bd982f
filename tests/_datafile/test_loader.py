"""The one data-file loader: every YAML/JSON kind is refused the same way (file, line, English and
Japanese), the libyaml loader refuses what the pure-Python one refuses, and no bad file ends
in a traceback on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sadame._datafile import MAX_DEPTH, MAX_INT_DIGITS, DataFileError, load_file, parse_text, read_jsonl
from sadame._datafile import _yaml as strict
from sadame.cli import cli
from sadame.judge import TableError, load_table
from sadame.judge.engine._loader import parse_yaml
from sadame.track import load_ruleset
from sadame.track._errors import RulesetError

DATA = Path(strict.__file__).resolve().parents[1] / "data"

REFUSED = {
    "duplicate key": "a: 1\na: 2\n",
    "anchor": "a: &x 1\nb: 2\n",
    "alias": "a: &x [1]\nb: *x\n",
    "bomb": "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n",
    "python tag": "a: !!python/object/apply:os.system [echo]\n",
    "unknown tag": "a: !custom 1\n",
    "non-scalar key": "? [1, 2]\n: x\n",
    "tab": "a:\n\tb: 1\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "empty": "",
    "only a comment": "# nothing here\n",
    "too deep": "a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n",
    "very deep": "[" * 100_000 + "]" * 100_000,
    "huge integer": "a: " + "9" * 5_000 + "\n",
}

PY_LOADER, C_LOADER = strict._LOADERS[False]


def test_libyaml_is_used_for_texts_without_anchors() -> None:
    assert C_LOADER is not None and issubclass(C_LOADER, yaml.CSafeLoader)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_loader_refuses_with_file_and_both_languages(name: str) -> None:
    text = REFUSED[name]
    with pytest.raises(DataFileError) as caught:
        parse_text(text, file="x.yaml")
    error = caught.value
    assert str(error).startswith("x.yaml: ") and "\n" not in str(error)
    assert error.japanese.startswith("x.yaml: ") and error.japanese != str(error)
    with pytest.raises(TableError):
        parse_yaml(text)
    for loader in (PY_LOADER, C_LOADER):
        if "&" in text or "*" in text or name in ("empty", "only a comment", "too deep", "very deep"):
            continue  # only the pure-Python loader sees anchors; emptiness and depth are checked after parsing
        with pytest.raises((yaml.YAMLError, DataFileError)):
            yaml.load(text, Loader=loader)


@pytest.mark.parametrize(("text", "code", "line"), [
    ("a: 1\nb:\n  c: 2\n  c: 3\n", "duplicate_key", 4),
    ("a:\n  b: 1\n\tc: 2\n", "tab", 3),
    ("a: 1\nb: " + "1" * (MAX_INT_DIGITS + 1) + "\n", "big_int", 2),
])
def test_the_line_is_named(text: str, code: str, line: int) -> None:
    with pytest.raises(DataFileError) as caught:
        parse_text(text, file="x.yaml")
    assert (caught.value.problem, caught.value.line) == (code, line)
    assert f"(line {line}," in str(caught.value) and f"（{line} 行目" in caught.value.japanese


@pytest.mark.parametrize("text", ['{"a": 1, "a": 2}', '{"a": NaN}', "[" * 100_000, "[" * 40 + "]" * 40,
                                  '{"a": ' + "9" * 5_000 + "}", "", "{"])
def test_json_is_as_strict(text: str) -> None:
    with pytest.raises(DataFileError) as caught:
        parse_text(text, file="x.json", suffix=".json")
    assert str(caught.value).startswith("x.json: ")


def test_scalars_are_yaml_core_and_the_same_on_both_loaders() -> None:
    text = "a: YES\nb: on\nc: true\nd: 1.5\ne: 2026-01-01\nf: 0x10\ng: 42\nh: ~\ni: '7'\n"
    expected = {"a": "YES", "b": "on", "c": True, "d": "1.5", "e": "2026-01-01", "f": "0x10", "g": 42, "h": None,
                "i": "7"}
    for loader in (PY_LOADER, C_LOADER):
        assert yaml.load(text, Loader=loader) == expected
    assert parse_text(text) == expected
    assert parse_text(text, floats=True) == {**expected, "d": 1.5}


@pytest.mark.slow
def test_bundled_files_read_the_same_with_both_loaders() -> None:
    files = sorted(DATA.glob("*/*.yaml"))
    assert len(files) >= 5
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=C_LOADER) == yaml.load(text, Loader=PY_LOADER)
        assert load_file(path, floats="rulesets" in path.parts) is not None


def _ruleset(body: str) -> str:
    return f"format: sadame.track-ruleset/2\n{body}patterns: []\n"


def _table(body: str) -> str:
    return f"format: sadame.rules/1\n{body}answers: [はい, いいえ]\nrules:\n  - any: [x]\n    answer: はい\n"


def _pack(body: str) -> str:
    return ("format: sadame.puzzles/1\ntitle: t\nanswers: [はい, いいえ]\n" + body
            + "puzzles: []\n")


def test_a_ruleset_a_table_and_a_pack_with_a_duplicate_key_are_refused_the_same_way(tmp_path: Path) -> None:
    body = "name: first\nname: second\n"
    messages = []
    for kind, text, load, error in (("ruleset", _ruleset(body), load_ruleset, RulesetError),
                                    ("table", _table(body), load_table, TableError),
                                    ("pack", _pack(body), load_table, TableError)):
        path = tmp_path / f"{kind}.yaml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(error) as caught:
            load(path)
        messages.append(str(caught.value).replace(str(path), "FILE"))
    assert messages[0] == messages[1] == "FILE: invalid YAML: duplicate key 'name' (line 3, column 1)"
    assert messages[2] == "FILE: invalid YAML: duplicate key 'name' (line 5, column 1)"


def test_jsonl_lines_are_numbered_and_strict(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\n\n# note\n{"a": 1, "a": 2}\n', encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        list(read_jsonl(path, comments=True))
    assert caught.value.line == 4 and "duplicate key 'a' (line 4)" in str(caught.value)
    with pytest.raises(DataFileError, match="line 3"):
        list(read_jsonl(path))  # without comments, "# note" is a bad line
    path.write_bytes(b'{"a": 1}\n\xff\n')
    with pytest.raises(DataFileError, match="not UTF-8"):
        list(read_jsonl(path))


BAD_FILES = {
    "deep.yaml": "[" * 100_000 + "]" * 100_000,
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "bigint.yaml": _ruleset("name: r\n") + "thresholds:\n  token_overlap: " + "9" * 5_000 + "\n",
    "bigint.json": '{"format": "sadame.track-ruleset/2", "name": "r", "x": ' + "9" * 5_000 + "}",
    "dup.yaml": _ruleset("name: a\nname: b\n"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
@pytest.mark.parametrize("command", [["track", "rules", "test", "{file}"],
                                     ["track", "rules", "lint", "--db", "{db}", "--ruleset", "{file}"],
                                     ["track", "migrate", "--db", "{db}", "--ruleset", "{file}"],
                                     ["rules", "lint", "{file}"]])
def test_bad_data_files_get_one_line_on_the_command_line(tmp_path: Path, name: str, command: list[str]) -> None:
    path = tmp_path / name
    path.write_text(BAD_FILES[name], encoding="utf-8")
    db = f"sqlite:///{tmp_path / 't.db'}"
    args = [part.format(file=path, db=db) for part in command]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert str(path) in result.output
