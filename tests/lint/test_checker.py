"""The SDM001 checker on golden source snippets, plus its bad-input behaviour."""

from __future__ import annotations

import keyword
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sadame.lint import Violation, check_source
from sadame.lint._checker import CODE, PARSE_ERROR_CODE

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "data" / "sdm001_cases.yaml").read_text("utf-8")
)


def test_case_table_has_positives_and_negatives() -> None:
    assert sum(1 for c in CASES if c["expect"]) >= 15
    assert sum(1 for c in CASES if not c["expect"]) >= 5


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_case(case: dict[str, Any]) -> None:
    found = check_source(case["source"], "case.py")
    assert [[v.line, v.col] for v in found] == case["expect"], [v.format() for v in found]
    assert all(v.code == CODE and v.path == "case.py" for v in found)


def test_message_says_what_and_what_to_do_instead() -> None:
    (violation,) = check_source("import unicodedata\nunicodedata.normalize('NFKC', s)\n", "m.py")
    assert violation.format() == (
        "m.py:2:1: SDM001 unicodedata.normalize called outside the contract; "
        "use sadame.normalize(text, preset=...) instead"
    )
    referenced = check_source("import unicodedata\nf = unicodedata.normalize\n", "m.py")
    assert "referenced" in referenced[0].message


def test_syntax_error_is_a_diagnostic_not_a_crash() -> None:
    found = check_source("import unicodedata\ndef broken(:\n    pass\n", "broken.py")
    assert len(found) == 1
    assert found[0].code == PARSE_ERROR_CODE
    assert found[0].line == 2
    assert "cannot check this file" in found[0].message


def test_null_byte_is_a_diagnostic_not_a_crash() -> None:
    found = check_source("x = 1\x00\n", "nul.py")
    assert [v.code for v in found] == [PARSE_ERROR_CODE]


def test_empty_source_is_clean() -> None:
    assert check_source("", "empty.py") == []


def test_non_str_source_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expects the source as str"):
        check_source(b"import unicodedata", "b.py")  # type: ignore[arg-type]


def test_violation_round_trips_to_dict() -> None:
    v = Violation("a.py", 3, 5, CODE, "msg")
    assert v.to_dict() == {"path": "a.py", "line": 3, "col": 5, "code": CODE, "message": "msg"}


_IDENTIFIER = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True).filter(
    lambda s: not keyword.iskeyword(s) and s not in {"unicodedata", "normalize", "getattr", "print"}
)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_a_list_never_an_exception(source: str) -> None:
    found = check_source(source, "fuzz.py")
    assert all(isinstance(v, Violation) and v.line >= 1 and v.col >= 1 for v in found)


@settings(max_examples=100, deadline=None)
@given(module_alias=_IDENTIFIER, function_alias=_IDENTIFIER)
def test_every_alias_is_caught(module_alias: str, function_alias: str) -> None:
    source = (
        f"import unicodedata as {module_alias}\n"
        f"from unicodedata import normalize as {function_alias}\n"
        # the argument's name is longer than any generated alias, so an alias can never shadow it
        f"print({module_alias}.normalize('NFKC', the_text_to_normalize))\n"
    )
    assume(module_alias != function_alias)  # else the second import rebinds the name
    found = check_source(source, "alias.py")
    assert [(v.line, v.col) for v in found] == [(2, 1), (3, 7)]
