"""Table cells read with their headers' unit (sadame.quote._tables), and grounded only by a claim
that names their row and column (sadame.quote._ground).

The blind grounding sets showed every faithful figure read from a table whose unit sits in a
header as ✘ (evals/quote/blind_ground3, blind_ground4).
"""

from __future__ import annotations

from sadame.quote import ground_numbers
from sadame.quote._ground import numeric_mentions

TOURISM = """## 観光統計

| 指標 | 令和3年 | 令和4年 | 令和5年 |
|---|---|---|---|
| 観光消費額（億円） | 2,380 | 3,415 | 4,376 |
| 1人当たり消費額・宿泊（円） | 35,200 | 37,650 | 41,280 |
| 破損件数（件） | 60以下 | 66 | 74 |
"""


def _values(source: str) -> list[tuple[str, str]]:
    return [(m.text, m.value) for m in numeric_mentions(source)]


def _grounded(claim: str, source: str) -> list[bool]:
    return [number.grounded for number in ground_numbers(claim, source).numbers]


def test_a_bare_cell_takes_the_unit_of_its_row_label() -> None:
    values = dict(_values(TOURISM))
    assert values["41,280"] == "41280円"
    assert values["4,376"] == "437600000000円"
    assert values["74"] == "74件"
    assert values["60"] == "60"  # 「60以下」 is not a whole bare cell


def test_a_column_header_or_a_caption_gives_the_unit_when_the_row_label_has_none() -> None:
    by_column = "| 学部 | 志願者数（人） | 倍率 |\n|---|---|---|\n| 文学部 | 3,412 | 3.8 |\n"
    assert _values(by_column)[-2:] == [("3,412", "3412人"), ("3.8", "3.8")]
    captioned = "（単位：件）\n\n| 区分 | 8月 | 9月 |\n|---|---|---|\n| 誤配 | 52 | 47 |\n"
    assert [v for _t, v in _values(captioned)][-2:] == ["52件", "47件"]


def test_brackets_that_name_no_unit_leave_the_cell_bare() -> None:
    source = (
        "| 種目 | 参加料（税込） | 定員 |\n|---|---|---|\n| ハーフ（21.0975km） | 5,500 | 3,000 |\n"
        "| MRSA（新規検出） | 27 | 9件 |\n"
    )
    values = _values(source)
    assert ("5,500", "5500") in values and ("3,000", "3000") in values and ("27", "27") in values
    assert ("9件", "9件") in values  # a cell with its own unit is read as before


def test_the_header_row_and_text_outside_tables_are_not_changed() -> None:
    source = "| 年 | 2023 |\n|---|---|\n| 件数（件） | 5 |\n\n売上は 5 です。| 件数（件） |\n"
    values = _values(source)
    assert values[0] == ("2023", "2023")  # a header cell
    assert ("5", "5件") in values and values[-1] == ("5", "5")


def test_a_cell_grounds_a_claim_that_names_its_row_and_column() -> None:
    assert _grounded("令和5年の宿泊客の消費額は4万1280円でした。", TOURISM) == [True, True]
    assert _grounded("令和4年の破損件数は66件でした。", TOURISM) == [True, True]


def test_a_cell_does_not_ground_a_claim_naming_another_period_or_another_row() -> None:
    # 3,415億円 is 令和4年's: the claim says 令和5年
    assert _grounded("令和5年の観光消費額は3,415億円でした。", TOURISM) == [True, False]
    # 66件 is a 破損件数, not a 観光消費額 row ... and no row of the claim names 破損
    assert _grounded("令和4年の観光客は66件でした。", TOURISM) == [True, False]


def test_a_claim_naming_no_period_reads_the_latest_column() -> None:
    assert _grounded("宿泊客の消費額は4万1280円です。", TOURISM) == [True]
    assert _grounded("宿泊客の消費額は3万7650円です。", TOURISM) == [False]  # 令和4年's
    newest_first = "| 指標 | 2024年 | 2023年 |\n|---|---|---|\n| 来場者数（人） | 5,100 | 4,800 |\n"
    assert _grounded("来場者数は5,100人でした。", newest_first) == [True]
    assert _grounded("来場者数は4,800人でした。", newest_first) == [False]
    assert _grounded("2023年の来場者数は4,800人でした。", newest_first) == [True, True]


def test_a_value_also_written_outside_the_table_grounds_as_before() -> None:
    source = TOURISM + "\n令和4年の観光消費額は3,415億円と回復した。\n"
    assert _grounded("観光消費額は3,415億円でした。", source) == [True]


def _marks(claim: str, source: str) -> list[str]:
    """✔ / △ / ✘ of each number of ``claim``."""
    return [
        "✔" if n.grounded else "△" if n.context_differs else "✘" for n in ground_numbers(claim, source).numbers
    ]


RACE = """| 種目 | 申込者 | 出走者 | 完走率 |
|---|---|---|---|
| ハーフ | 2,846名 | 2,611名 | 95.7% |
| 10km | 1,972名 | 1,835名 | 98.7% |
"""


def test_a_cell_with_its_own_unit_under_another_column_or_row_is_a_hedge() -> None:
    assert _marks("ハーフの出走者は2,611名でした。", RACE) == ["✔"]
    assert _marks("ハーフの申込者は2,611名でした。", RACE) == ["△"]  # 出走者's figure
    assert _marks("ハーフの完走率は98.7%でした。", RACE) == ["△"]  # 10km's
    assert ground_numbers("ハーフの申込者は2,611名でした。", RACE).numbers[0].elsewhere  # where it is


def test_a_heading_is_needed_only_where_it_tells_cells_apart() -> None:
    one_row = "| 項目 | 前年度 | 今年度 |\n|---|---|---|\n| 件数 | 4,987件 | 5,412件 |\n"
    assert _marks("今年度は5,412件でした。", one_row) == ["✔"]  # one row: its label needs no naming
    budget = (
        "| 事業名 | 補正額 | 内容 |\n|---|---|---|\n| 給付金 | 9,800万円 | 非課税世帯 約2,450世帯に4万円 |\n"
        "| 空調設備 | 6,300万円 | 体育館 |\n"
    )
    # one value cell in the row (the 内容 cell is text): the column header needs no naming
    assert _marks("給付金は9800万円です。", budget) == ["✔"]
    assert _marks("空調設備は9800万円です。", budget) == ["△"]  # the 給付金 row's


def test_amounts_in_thousands_and_millions_are_read_and_a_caption_is_no_figure() -> None:
    assert _values("売上高 48,652百万円、経費 3,118千円、来場 12千人") == [
        ("48,652百万円", "48652000000円"), ("3,118千円", "3118000円"), ("12千人", "12000人"),
    ]
    captioned = "（単位：百万円）\n\n| 区分 | 当期 | 前期 |\n|---|---|---|\n| 売上高 | 48,652 | 45,340 |\n"
    assert [v for _t, v in _values(captioned)] == ["48652000000円", "45340000000円"]  # no 1000000円 of the caption
    assert _marks("当期の売上高は486億5200万円でした。", captioned) == ["✔"]
    assert _marks("売上高は453億4000万円でした。", captioned) == ["△"]  # 前期's: the claim names no column


def test_the_suffix_shortcut_gives_what_scanning_the_cell_with_its_unit_gives() -> None:
    from sadame.quote._ground import _with_unit
    from sadame.quote._tables import _by_suffix

    suffixes: dict[str, tuple[str, str, str] | None] = {}
    used = 0
    for unit in ("件", "円", "%", "人", "千個", "万人泊", "億円", "名", "校"):
        for number in ("7", "74", "41,280", "1,774,205", "100", "6.1", "0"):
            shortcut = _by_suffix(number, unit, suffixes, _with_unit)
            if shortcut is not None:
                used += 1
                assert shortcut == _with_unit(number, unit), (number, unit)
    assert used >= 30  # integers under every unit here (千個: 7000個, 1234000個 — a suffix too)
    assert _by_suffix("6.1", "件", suffixes, _with_unit) is None  # a decimal is scanned
