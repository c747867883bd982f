"""Output caps of issue 11 (the times are measured by benchmarks/quote_adversarial.py, not here)."""

from __future__ import annotations

from sadame.quote import ground_numbers, verify_quote, verify_quotes
from sadame.quote._ground import MAX_CLAIM_NUMBERS, MAX_NUMBER_SPANS
from sadame.quote._verify import MAX_PARTS


def test_repeated_numbers_are_capped_per_number_and_per_claim() -> None:
    text = "1 " * 3000
    result = ground_numbers(text, text)
    assert result.status == "grounded" and result.truncated
    assert len(result.numbers) == MAX_CLAIM_NUMBERS
    for number in result.numbers:
        assert len(number.spans) == MAX_NUMBER_SPANS
        assert number.occurrences == 3000 and number.truncated
    data = result.to_dict()
    assert data["truncated"] and data["numbers"][0]["truncated"]


def test_a_few_numbers_are_not_truncated() -> None:
    result = ground_numbers("売上は1億2000万円", "売上高は１億２０００万円。受注残高は一億二千万円。")
    assert not result.truncated
    (number,) = result.numbers
    assert number.occurrences == 2 and len(number.spans) == 2 and not number.truncated


def test_a_claim_with_a_missing_number_far_beyond_the_cap_is_still_partial() -> None:
    claim = "1 " * (MAX_CLAIM_NUMBERS + 5) + "999"
    result = ground_numbers(claim, "1")
    assert result.status == "partial" and result.truncated and "999" in result.reason


def test_occurrences_per_quote_are_capped_with_a_flag() -> None:
    capped = verify_quote("あ", "あ" * 500, max_spans=10)
    assert capped.occurrences == 10 and len(capped.spans) == 10 and capped.truncated
    exact_fit = verify_quote("あ", "あ" * 10, max_spans=10)
    assert exact_fit.occurrences == 10 and not exact_fit.truncated
    normalized = verify_quote("ア", "ｱ" * 50, max_spans=5)
    assert normalized.status == "normalized" and len(normalized.spans) == 5 and normalized.truncated


def test_too_many_ellipsis_parts_is_invalid_and_the_maximum_still_works() -> None:
    source = "あい" * 200
    at_cap = verify_quote("あ…" * MAX_PARTS, source)
    assert at_cap.verified and len(at_cap.parts) == MAX_PARTS
    over = verify_quote("あ…" * (MAX_PARTS + 1), source)
    assert over.status == "invalid" and str(MAX_PARTS) in over.reason


def test_a_combining_mark_run_is_verified() -> None:
    text = "a" + "\u0301" * 20_000
    (result,) = verify_quotes([text], "前 " + text + " 後")
    assert result.status == "exact" and result.span is not None
    assert result.span.text == text


def test_alignment_work_is_capped() -> None:
    # "株" inside "㈱" never aligns (㈱ normalizes to "(株)"); a long quote of such hits
    # would be re-normalized for every hit and every widening without the budget.
    source = "**㈱**" * 20_000
    quote = "株)(" * 6_000 + "株"
    result = verify_quote(quote, source)
    assert result.status == "missing" and result.reason.startswith("search stopped")


def test_numerals_beyond_the_scan_cap_are_not_indexed_and_say_so() -> None:
    from sadame.quote._ground import MAX_MENTIONS

    source = "1 " * (MAX_MENTIONS + 10) + "999"
    result = ground_numbers("999", source)
    assert result.status == "ungrounded" and result.truncated  # less grounded, never more
    assert ground_numbers("999", "999").status == "grounded"
    long_claim = ground_numbers("2 " * (MAX_MENTIONS + 10), "2")
    assert long_claim.status == "grounded" and long_claim.truncated


def test_the_scan_stops_at_the_run_after_the_first_max_mentions_numeral_runs() -> None:
    import random

    from sadame.quote._ground import _NUMERAL_RUN, MAX_MENTIONS, _scan_limit

    def counted(text: str) -> int:  # the definition: the start of run MAX_MENTIONS + 1
        runs = list(_NUMERAL_RUN.finditer(text))
        return runs[MAX_MENTIONS].start() if len(runs) > MAX_MENTIONS else len(text)

    rng = random.Random(21)
    texts = ["", "1", "1 " * MAX_MENTIONS, "1 " * (MAX_MENTIONS + 1), " ２" * (MAX_MENTIONS + 1) + "x",
             "a" + "一億 " * (MAX_MENTIONS + 3), "1 " * MAX_MENTIONS + "x" * 10]
    texts += ["".join(rng.choice("1２二万 a") for _ in range(rng.randint(0, 6 * MAX_MENTIONS))) for _ in range(40)]
    for text in texts:
        assert _scan_limit(text) == counted(text)


def test_a_quote_longer_than_the_hint_cap_gets_no_nearest_passage() -> None:
    # An output of one long line with no quote marks is one quote; aligning it costs about
    # the cube of its length (9,700 characters took 17 s, 120,000 held a worker for minutes).
    from sadame.quote import check_output
    from sadame.quote._hint import MAX_HINT_CHARS, nearest_passage
    from sadame.quote._verify import QuoteVerifier

    source = "".join(f"項目{i}は{i % 97}名で{i % 13}%増加。" for i in range(2_000))
    near = "".join(f"項目は{i % 97}名で{i % 13}%増加。" for i in range(20))
    long = "".join(f"項目は{i % 97}名で{i % 13}%増加。" for i in range(MAX_HINT_CHARS // 10 + 10))
    verifier = QuoteVerifier(source)
    assert len(near) < MAX_HINT_CHARS < len(long)
    assert nearest_passage(verifier, near) is not None  # a short missing quote still gets its hint
    assert nearest_passage(verifier, long) is None
    (checked,) = check_output(source, long).quotes
    assert checked.result.status == "missing" and checked.nearest is None
