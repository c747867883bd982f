"""Grounding units of issue 11: currency signs, durations, counts labelled as counts."""

from __future__ import annotations

import pytest

from sadame.quote import ground_numbers
from sadame.quote._ground import numeric_mentions


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("￥120,000,000", "売上高は1億2000万円"),
        ("売上高は1億2000万円", "売上高は ¥120,000,000"),
        ("¥1.2億", "一億二千万円"),
        ("$1,200", "1,200ドル"),
        ("12米ドル", "＄12"),
        ("2分", "120秒"),
        ("1時間半", "90分"),
        ("90分間", "1時間半"),
        ("2分半", "150秒"),
    ],
)
def test_same_value_in_another_unit_is_grounded(claim: str, source: str) -> None:
    assert ground_numbers(claim, source).status == "grounded"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("¥1,200", "1,200ドル"),  # yen is not dollars
        ("2時", "7200秒"),  # 時 is a clock time, not a duration
        ("5分の1", "300秒"),  # a fraction, not five minutes
        ("2日", "48時間"),  # days are not converted
        ("30名", "30円"),  # a count is not money
        ("1.0000000000000000000000000000001分", "60秒"),  # exact, never rounded
    ],
)
def test_different_units_are_not_grounded(claim: str, source: str) -> None:
    assert ground_numbers(claim, source).status != "grounded"


@pytest.mark.parametrize(
    ("text", "category", "kind"),
    [
        ("30名", "count", "amount"),
        ("8,420社", "count", "amount"),
        ("3,200件", "count", "amount"),
        ("120人", "count", "amount"),
        ("1億2000万円", "money", "amount"),
        ("￥120,000,000", "money", "amount"),
        ("$5", "money", "amount"),
        ("18.2%", "percent", "percent"),
        ("2026年9月18日", "date", "date"),
        ("75分", "duration", "amount"),
        ("1.4倍", "quantity", "amount"),
        ("42", "number", "number"),
    ],
)
def test_every_mention_has_a_category(text: str, category: str, kind: str) -> None:
    (mention,) = numeric_mentions(text)
    assert (mention.category, mention.kind) == (category, kind)
    assert mention.text == text
    assert mention.to_dict()["category"] == category


def test_currency_sign_is_part_of_the_reported_span() -> None:
    source = "目標は ￥120,000,000 です"
    (number,) = ground_numbers("1億2000万円", source).numbers
    assert [s.text for s in number.spans] == ["￥120,000,000"]
    assert source[number.spans[0].start : number.spans[0].end] == "￥120,000,000"


def test_kinds_filter_still_uses_the_scanner_kinds() -> None:
    claim = "30名が￥5,000を払い、18.2%増えた"
    amounts = ground_numbers(claim, "", kinds={"amount"})
    assert [n.mention.text for n in amounts.numbers] == ["30名", "￥5,000"]
    percents = ground_numbers(claim, "", kinds={"percent"})
    assert [n.mention.text for n in percents.numbers] == ["18.2%"]
