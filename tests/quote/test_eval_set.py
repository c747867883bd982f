"""The shipped evaluation set and the eval runner. The claim cases of the set
depend on the contract's numeric scanner (``sadame.normalize.numeric``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sadame.quote import run_eval
from sadame.quote._errors import EvalFileError
from sadame.quote._eval import load_cases

EVAL_SET = Path(__file__).resolve().parents[2] / "evals" / "quote" / "cases.jsonl"


def test_eval_set_meets_every_expectation() -> None:
    report = run_eval(EVAL_SET)
    failures = [f"{c.case.id}: {f}" for c in report.cases for f in c.failures]
    assert not failures, "\n".join(failures)
    summary = report.summary()
    assert summary["cases"] >= 60
    assert summary["expectations"] == summary["expectations_met"] >= 100


def test_eval_set_covers_what_issue_4_asks_for() -> None:
    cases = load_cases(EVAL_SET)
    statuses = [q.expect for c in cases for q in c.quotes]
    claim_statuses = [q.expect for c in cases for q in c.claims]
    for status in ("exact", "normalized", "missing", "invalid", "fuzzy"):
        assert status in statuses
    assert statuses.count("missing") >= 10  # negatives that must stay missing
    assert claim_statuses.count("grounded") >= 10 and claim_statuses.count("ungrounded") >= 8
    notes = " ".join(c.note for c in cases)
    for topic in ("bold", "和暦", "ellipsis", "full-width", "negative", "line break"):
        assert topic in notes


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_failed_expectations_are_reported(tmp_path: Path) -> None:
    (tmp_path / "src.md").write_text("- **安定性**: 不足\n", encoding="utf-8")
    path = _write(
        tmp_path,
        [
            json.dumps(
                {
                    "id": "ok",
                    "source_path": "src.md",
                    "quotes": [{"text": "安定性: 不足", "expect": "normalized"}],
                }
            ),
            json.dumps({"id": "bad", "source": "本文", "quotes": [{"text": "本文", "expect": "missing"}]}),
            "# a comment",
            "",
        ],
    )
    report = run_eval(path)
    assert [c.passed for c in report.cases] == [True, False]
    assert "expected missing, got exact" in report.cases[1].failures[0]
    assert not report.passed


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "invalid JSON"),
        ('{"quotes": ["a"]}', "exactly one of 'source' and 'source_path'"),
        ('{"source": "a", "source_path": "b", "quotes": ["a"]}', "exactly one"),
        ('{"source": "a"}', "needs 'quotes' or 'claims'"),
        ('{"source": "a", "quotes": [{"text": "a", "expect": "found"}]}', "expect 'found'"),
        ('{"source": "a", "quotes": ["a"], "extra": 1}', "unknown key"),
        ('{"source_path": "nope.md", "quotes": ["a"]}', "cannot read source_path"),
        ('{"source": "a", "quotes": ["a"], "preset": "nope"}', "unknown preset"),
        ("[1, 2]", "must be a JSON object"),
        ('{"source": "a", "claims": ["1円"], "kinds": "date"}', "'kinds' must be a list"),
    ],
)
def test_malformed_files_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = _write(tmp_path, ["# header", line])
    with pytest.raises(EvalFileError, match=r"cases\.jsonl(:2|: .*\(line 2,)") as info:
        load_cases(path)
    assert message in str(info.value)


def test_empty_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(EvalFileError, match="no cases"):
        load_cases(_write(tmp_path, ["# nothing"]))
