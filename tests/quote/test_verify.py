"""verify_quote / verify_quotes: statuses, spans in the original source, ellipsis, bad input."""

from __future__ import annotations

import json

import pytest

from sadame.normalize import normalize
from sadame.quote import QuoteVerifier, verify_quote, verify_quotes
from sadame.quote._verify import split_ellipsis

SOURCE = (
    "## 課題\n"
    "- **安定性**: 照合結果が不足している。\n"
    "- `cache` が  残る\n"
    "売上は１億２０００万円で、前年比 3割増。\n"
    "㈱サダメの報告\n"
)


def test_exact_reports_raw_span() -> None:
    r = verify_quote("照合結果が不足", SOURCE)
    assert r.status == "exact" and r.verified
    assert r.span is not None
    assert SOURCE[r.span.start : r.span.end] == "照合結果が不足" == r.span.text
    assert r.occurrences == 1 and not r.ambiguous


def test_dropped_bold_is_normalized_and_span_covers_the_pair() -> None:
    r = verify_quote("安定性: 照合結果が不足している。", SOURCE)
    assert r.status == "normalized" and r.verified
    assert r.span is not None
    assert r.span.text == "**安定性**: 照合結果が不足している。"
    assert SOURCE[r.span.start : r.span.end] == r.span.text


def test_code_and_spacing_and_fullwidth() -> None:
    code = verify_quote("cache が 残る", SOURCE)
    assert code.status == "normalized" and code.span is not None
    assert code.span.text == "`cache` が  残る"
    amount = verify_quote("売上は1億2000万円", SOURCE)
    assert amount.status == "normalized" and amount.span is not None
    assert amount.span.text == "売上は１億２０００万円"


def test_missing_near_quote() -> None:
    r = verify_quote("安定性: 照合結果が十分である。", SOURCE)
    assert r.status == "missing" and not r.verified
    assert r.span is None and r.spans == () and r.occurrences == 0


def test_all_spans_first_span_and_ambiguity() -> None:
    source = "- **確認済み**\n- 確認済み\n確認済み"
    exact = verify_quote("確認済み", source)
    assert exact.status == "exact"
    assert exact.occurrences == 3 and exact.ambiguous
    assert [s.start for s in exact.spans] == [4, 13, 18]
    assert exact.span == exact.spans[0]
    normalized = verify_quote("- 確認済み", "**確認済み** と 確認済み")
    assert normalized.status == "normalized"
    assert normalized.occurrences == 2 and normalized.ambiguous


def test_max_spans_caps_occurrences() -> None:
    r = verify_quote("あ", "あ" * 500, max_spans=10)
    assert r.status == "exact" and r.occurrences == 10 and len(r.spans) == 10


def test_unaligned_hit_inside_expanding_character_is_missing_with_reason() -> None:
    r = verify_quote("株", SOURCE)  # only inside ㈱, which normalizes to (株)
    assert r.status == "missing"
    assert "normalize to more" in r.reason
    whole = verify_quote("(株)サダメ", SOURCE)
    assert whole.status == "normalized" and whole.span is not None and whole.span.text == "㈱サダメ"


@pytest.mark.parametrize(
    ("quote", "parts"),
    [
        ("A…B", ["A", "B"]),
        ("A……B", ["A", "B"]),
        ("A ... B", ["A", "B"]),
        ("A（中略）B(中略)C", ["A", "B", "C"]),
        ("…A", ["A"]),
        ("A・・・B‥C", ["A", "B", "C"]),
        ("……", []),
        ("3.14", ["3.14"]),
    ],
)
def test_split_ellipsis(quote: str, parts: list[str]) -> None:
    assert split_ellipsis(quote) == parts


def test_ellipsis_parts_in_order_with_spans() -> None:
    r = verify_quote("安定性…（中略）…前年比 3割増", SOURCE)
    assert r.status == "exact" and r.verified
    assert [p.text for p in r.parts] == ["安定性", "前年比 3割増"]
    assert all(p.found and p.span is not None for p in r.parts)
    first, last = r.parts[0].span, r.parts[-1].span
    assert first is not None and last is not None
    assert r.span is not None and (r.span.start, r.span.end) == (first.start, last.end)
    assert SOURCE[last.start : last.end] == "前年比 3割増"


def test_ellipsis_normalized_parts() -> None:
    r = verify_quote("安定性: 照合結果…cache が 残る", SOURCE)
    assert r.status == "normalized"
    assert [p.span.text for p in r.parts if p.span] == ["**安定性**: 照合結果", "`cache` が  残る"]


def test_ellipsis_wrong_order_is_missing_and_reports_found_prefix() -> None:
    r = verify_quote("前年比…安定性", SOURCE)
    assert r.status == "missing"
    assert [p.found for p in r.parts] == [True, False]
    assert "part 2 of 2" in r.reason


def test_ellipsis_in_source_matches_whole_quote_first() -> None:
    source = "月平均12時間にのぼりました……この負担を減らす"
    r = verify_quote("にのぼりました……この負担", source)
    assert r.status == "exact" and r.parts == ()


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        ("", "empty quote"),
        ("   \u3000\n", "quote is only whitespace"),
        ("……", "quote is only an ellipsis"),
        ("（中略）", "quote is only an ellipsis"),
        ("- ", "normalizes to empty"),
        ("## ", "normalizes to empty"),
        (None, "NoneType, not a string"),
        (42, "int, not a string"),
    ],
)
def test_invalid_quotes_have_reasons(quote: object, reason: str) -> None:
    r = verify_quote(quote, SOURCE)  # type: ignore[arg-type]
    assert r.status == "invalid" and not r.verified
    assert reason in r.reason


def test_regex_metacharacters_are_plain_text() -> None:
    source = "正規表現 a.*b と (x|y)+ と [abc] を使う"
    for quote in ["a.*b", "(x|y)+", "[abc]"]:
        assert verify_quote(quote, source).status == "exact"
    for quote in ["a.+b", "(?:", "[abd]", "\\", "x|z", ".*?"]:
        assert verify_quote(quote, source).status == "missing"


def test_quote_longer_than_source() -> None:
    r = verify_quote("短い本文よりもずっと長い引用", "短い本文")
    assert r.status == "missing" and "longer than the source" in r.reason


def test_empty_source() -> None:
    r = verify_quote("何か", "")
    assert r.status == "missing"


def test_lone_surrogates_are_ordinary_code_points() -> None:
    source = "前\ud800後 と テキスト"
    assert verify_quote("\ud800後", source).status == "exact"
    assert verify_quote("\udfff", source).status == "missing"
    # results stay JSON-serialisable (escaped) even with surrogates
    assert "\\ud800" in json.dumps(verify_quote("\ud800後", source).to_dict())


def test_to_dict_is_json_and_complete() -> None:
    r = verify_quote("安定性: 照合結果", SOURCE)
    data = json.loads(json.dumps(r.to_dict(), ensure_ascii=False))
    assert data["status"] == "normalized"
    assert data["span"]["text"] == "**安定性**: 照合結果"
    assert set(data) == {
        "quote",
        "status",
        "verified",
        "preset",
        "span",
        "spans",
        "occurrences",
        "truncated",
        "ambiguous",
        "parts",
        "score",
        "reason",
    }


def test_verify_quotes_keeps_every_quote_in_order() -> None:
    quotes: list[object] = ["安定性", "", "ない", None, "安定性: 照合", "…"]
    results = verify_quotes(quotes, SOURCE)
    assert [r.status for r in results] == ["exact", "invalid", "missing", "invalid", "normalized", "invalid"]
    assert [r.quote for r in results][:3] == ["安定性", "", "ない"]


def test_source_is_normalized_lazily_and_once() -> None:
    v = QuoteVerifier(SOURCE)
    v.verify("安定性")
    assert v._normalized is None  # exact quotes never normalize the source
    v.verify("安定性: 照合")
    first = v._normalized
    v.verify("cache が 残る")
    assert first is not None and v._normalized is first


def test_other_presets() -> None:
    r = verify_quote("安定性:照合結果が不足している。", SOURCE, preset="numeric")
    assert r.status == "normalized" and r.span is not None
    assert normalize(r.span.text, preset="numeric") == normalize(
        "安定性:照合結果が不足している。", preset="numeric"
    )


def test_fuzzy_is_opt_in_and_needs_threshold_to_verify() -> None:
    near = "安定性: 照合結果が不足していた。"
    assert verify_quote(near, SOURCE).status == "missing"
    r = verify_quote(near, SOURCE, fuzzy=True)
    assert r.status == "fuzzy" and r.score is not None and 0 < r.score < 100
    assert not r.verified and r.span is not None
    assert verify_quote(near, SOURCE, fuzzy=True, threshold=r.score).verified
    assert not verify_quote(near, SOURCE, fuzzy=True, threshold=min(100.0, r.score + 1)).verified
    # exact and normalized quotes are never downgraded to fuzzy
    assert verify_quote("安定性", SOURCE, fuzzy=True).status == "exact"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"preset": "nope"},
        {"threshold": 90.0},
        {"fuzzy": True, "threshold": 101.0},
        {"fuzzy": True, "threshold": -1.0},
        {"max_spans": 0},
    ],
)
def test_bad_options_raise_value_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        verify_quote("a", "a", **kwargs)  # type: ignore[arg-type]


def test_non_str_source_raises_type_error() -> None:
    with pytest.raises(TypeError):
        verify_quote("a", b"a")  # type: ignore[arg-type]


@pytest.mark.slow
def test_ten_megabyte_source() -> None:
    line = "- **売上**: 前年比で増加した。\n"
    source = line * (10_000_000 // len(line)) + "末尾の一文。"
    assert len(source) >= 9_900_000
    v = QuoteVerifier(source)
    exact = v.verify("末尾の一文。")
    assert exact.status == "exact" and exact.span is not None and exact.span.end == len(source)
    normalized = v.verify("売上: 前年比で増加した。")
    assert normalized.status == "normalized" and normalized.ambiguous
    assert normalized.span is not None and normalized.span.text == "**売上**: 前年比で増加した。"
    assert v.verify("存在しない文").status == "missing"


def test_adversarial_unalignable_hits_are_bounded() -> None:
    source = "㈱" * 200_000  # every hit of 株 sits inside a character that normalizes to (株)
    r = verify_quote("株", source)
    assert r.status == "missing" and "normalize to more" in r.reason


def test_partial_quote_starting_inside_a_bold_label_is_found() -> None:
    source = "## 評価\n- **保守性**: tools: 追加の設定が必要\n"
    r = verify_quote("守性: tools: 追加", source)
    assert r.status == "normalized" and r.verified
    assert r.span is not None and r.span.text == "守性**: tools: 追加"
    assert source[r.span.start : r.span.end] == r.span.text
    whole = verify_quote("保守性: tools: 追加", source)
    assert whole.span is not None and whole.span.text == "**保守性**: tools: 追加"


def test_a_shared_verifier_gives_each_thread_its_own_search_budget() -> None:
    from concurrent.futures import ThreadPoolExecutor

    # 株 hits only inside ㈱ (unalignable, spending the budget); 安定性 must still be found
    source = "㈱" * 300 + "\n- **安定性**: 不足\n"
    verifier = QuoteVerifier(source)
    quotes = ["株", "安定性: 不足"] * 200
    alone = [verify_quote(q, source) for q in quotes[:2]]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(verifier.verify, quotes))
    assert results == alone * 200
    settings = {"source", "preset", "fuzzy", "threshold", "max_spans", "_normalized"}
    assert set(QuoteVerifier.__slots__) == settings  # no per-call state on the shared object
