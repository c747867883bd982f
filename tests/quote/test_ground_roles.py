"""A number's role in grounding: an earlier period's value or a replaced one (sadame.quote._ground._role).

The blind grounding sets showed these as false ✔ (evals/quote/blind_ground1, blind_ground2).
"""

from __future__ import annotations

from sadame.quote import ground_numbers


def _grounded(claim: str, source: str) -> list[bool]:
    return [number.grounded for number in ground_numbers(claim, source).numbers]


def test_an_earlier_value_grounds_only_a_claim_stating_it_as_earlier() -> None:
    source = "月次解約率：0.62％（前年同期 0.75％）"
    assert _grounded("月次解約率は0.75%まで低下しました。", source) == [False]
    assert _grounded("前年同期の0.75%から0.62%に低下しました。", source) == [True, True]
    result = ground_numbers("月次解約率は0.75%まで低下しました。", source)
    assert result.numbers[0].context_differs  # △: the value is there, for another period


def test_a_ratio_to_last_year_is_not_last_years_value() -> None:
    assert _grounded("売上高は前年同期比27.8%増でした。", "売上高 38.6億円（前年同期比 +27.8％）") == [True]
    assert _grounded("売上高は27.8%伸びました。", "売上高 38.6億円（前年同期比 27.8％増）") == [True]


def test_old_and_new_values_keep_their_roles() -> None:
    source = "修繕積立金：1戸あたり月額平均 14,800円 → 19,600円"
    assert _grounded("修繕積立金は平均14,800円から19,600円に改定されます。", source) == [True, True]
    assert _grounded("修繕積立金は平均19,600円から14,800円に改定されます。", source) == [False, False]
    assert _grounded("改定後の修繕積立金は19,600円です。", source) == [True]  # the new value, stated plainly
    assert _grounded("修繕積立金は14,800円です。", source) == [False]  # the old value given as current


def test_an_unmarked_source_value_grounds_a_claim_stating_it_as_earlier() -> None:
    assert _grounded(
        "前年度は4,987件でした。", "| 項目 | 前年度 | 今年度 |\n|---|---|---|\n| 件数 | 4,987件 | 5,412件 |"
    ) == [True]


def test_two_values_swapped_between_their_nouns_are_a_hedge() -> None:
    source = "- 社会動態：転入 4,731人、転出 4,885人、社会減 154人"
    assert _grounded("転入は4,731人、転出は4,885人でした。", source) == [True, True]
    swapped = ground_numbers("転入は4,885人、転出は4,731人でした。", source)
    assert [n.grounded for n in swapped.numbers] == [False, False]
    assert all(n.context_differs for n in swapped.numbers)  # △: both values are there, for the other noun


def test_a_value_also_stated_without_a_noun_is_not_a_swap() -> None:
    # 1億2000万円 is 受注残高's too, but the 売上高 line states it with no noun right before it
    source = "- **売上高**: 1億2000万円\n- 受注残高は 一億二千万円\n- 通期の売上高予想は 5億円"
    assert _grounded("売上高は1億2000万円だった。", source) == [True]
    # a noun that contains the claim's (志願者数 / 志願者) is the same noun
    assert _grounded("志願者は延べ18,742人でした。", "志願者数は延べ18,742人。推薦の志願者6,910人。") == [True]
