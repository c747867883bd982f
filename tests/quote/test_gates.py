"""Gates: JSON paths, per-item results in document order, summaries, bad documents."""

from __future__ import annotations

import json

import pytest

from sadame.quote import claims_gate, evidence_spans_gate, quote_list_gate, verify_quote
from sadame.quote._errors import GateInputError
from sadame.quote._gates import Gate, extract_path

SOURCE = "## 課題\n- **安定性**: 照合結果が不足している。\n- 売上は1億2000万円。\n"

LLM_OUTPUT = json.dumps(
    {
        "verdict": "needs_work",
        "evidence_spans": [
            {"text": "安定性: 照合結果が不足している。", "axis": "A"},
            {"text": "照合結果", "axis": "B"},
            {"axis": "C"},
            {"text": "存在しない根拠", "axis": "D"},
            {"text": 42},
        ],
    },
    ensure_ascii=False,
)


def test_evidence_spans_gate_reports_every_item_in_order() -> None:
    report = evidence_spans_gate().check(SOURCE, LLM_OUTPUT)
    assert [i.path for i in report.items] == [f"evidence_spans[{n}].text" for n in range(5)]
    assert [i.status for i in report.items] == ["normalized", "exact", "invalid", "missing", "invalid"]
    assert report.items[2].result.reason == "no value at evidence_spans[2].text"
    assert report.summary.total == 5 and report.summary.verified == 2
    assert report.summary.counts == {"exact": 1, "normalized": 1, "fuzzy": 0, "missing": 1, "invalid": 2}
    assert report.summary.verified_rate == 0.4
    assert not report.passed
    json.dumps(report.to_dict(), ensure_ascii=False)


def test_gate_uses_the_same_function_as_verify_quote() -> None:
    report = evidence_spans_gate().check(SOURCE, LLM_OUTPUT)
    assert report.items[0].result == verify_quote("安定性: 照合結果が不足している。", SOURCE)


def test_min_verified_rate_and_empty_documents() -> None:
    doc = {"evidence_spans": [{"text": "照合結果"}, {"text": "ない"}]}
    assert evidence_spans_gate(min_verified_rate=0.5).check(SOURCE, doc).passed
    assert not evidence_spans_gate().check(SOURCE, doc).passed
    empty = evidence_spans_gate().check(SOURCE, {"evidence_spans": []})
    assert empty.passed and empty.summary.total == 0 and empty.summary.verified_rate is None


def test_missing_top_level_key_is_an_invalid_item_not_a_silent_pass() -> None:
    report = evidence_spans_gate().check(SOURCE, {"answer": "x"})
    assert [i.status for i in report.items] == ["invalid"]
    assert not report.passed


@pytest.mark.parametrize(
    ("path", "document", "expected"),
    [
        ("quotes[]", {"quotes": ["a", "b"]}, [("quotes[0]", "a"), ("quotes[1]", "b")]),
        ("[]", ["x"], [("[0]", "x")]),
        ("[].q", [{"q": "x"}, {"q": "y"}], [("[0].q", "x"), ("[1].q", "y")]),
        ("a.b[1]", {"a": {"b": ["x", "y"]}}, [("a.b[1]", "y")]),
        (
            "a.b[][]",
            {"a": {"b": [["x"], ["y", "z"]]}},
            [("a.b[0][0]", "x"), ("a.b[1][0]", "y"), ("a.b[1][1]", "z")],
        ),
    ],
)
def test_extract_path(path: str, document: object, expected: list[tuple[str, str]]) -> None:
    assert extract_path(document, path) == expected


@pytest.mark.parametrize("path", ["", "a..b", "a[x]", "a.[0]", "a]", " "])
def test_malformed_paths_are_rejected(path: str) -> None:
    with pytest.raises(GateInputError):
        evidence_spans_gate(path)


def test_invalid_json_document_is_a_clear_error() -> None:
    with pytest.raises(GateInputError, match="not valid JSON"):
        evidence_spans_gate().check(SOURCE, '{"evidence_spans": [')


def test_list_gate_rejects_a_bare_string() -> None:
    with pytest.raises(GateInputError, match="expects a list"):
        quote_list_gate().check(SOURCE, "安定性")


def test_list_gate_and_presets() -> None:
    report = quote_list_gate(preset="numeric").check(SOURCE, ["売上は120,000,000円", "安定性:照合結果"])
    assert report.preset == "numeric"
    assert [i.status for i in report.items] == ["normalized", "normalized"]


def test_claims_gate_over_json() -> None:
    doc = {"claims": [{"text": "売上は120,000,000円"}, {"text": "売上は1億円"}]}
    report = claims_gate("claims[].text").check(SOURCE, doc)
    assert [i.status for i in report.items] == ["grounded", "ungrounded"]
    assert report.summary.counts["grounded"] == 1 and not report.passed


def test_gate_validation() -> None:
    with pytest.raises(ValueError):
        Gate("g", "other")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Gate("g", "quotes", min_verified_rate=1.5)
    with pytest.raises(ValueError):
        claims_gate(kinds=["money"])


def test_public_surface() -> None:
    import sadame.quote as quote

    for name in quote.__all__:
        assert getattr(quote, name) is not None
    assert sorted(quote.__all__) == sorted(set(quote.__all__))
