"""The per-process cache of prepared sources: built once, shared by quotes and numbers."""

from __future__ import annotations

from sadame.normalize import normalize_with_offsets
from sadame.quote import check_output
from sadame.quote._cache import MAX_CACHED_CHARS, LineIndex, prepare_source, prepared_source


def test_the_same_source_is_prepared_once_per_process() -> None:
    source = "引用元の文章です。売上は1億2000万円。" * 10
    first = prepared_source(source, "decoration", 10)
    assert prepared_source(source, "decoration", 10) is first
    assert prepared_source(source, "judge", 10) is not first
    assert prepared_source(source, "decoration", 5) is not first
    assert first.verifier.verify_many(["引用元の文章"])[0].verified
    assert first.numbers.ground("売上は1.2億円").status == "grounded"
    big = "あ" * (MAX_CACHED_CHARS // 2 + 1)
    prepared_source(big, "decoration", 10)
    prepared_source(big + "い", "decoration", 10)
    assert prepared_source(source, "decoration", 10) is not first  # evicted by size


def test_a_prepared_source_equals_normalizing_for_each_use_separately() -> None:
    source = "# 報告\n- **売上**: １億２０００万円（前年比 3割増）\n\n「在庫」は , 不足 ：  している\n"
    for preset in ("quote", "decoration", "numeric", "judge", "issue"):
        prepared = prepare_source(source, preset, 10)
        assert prepared.verifier.normalized == normalize_with_offsets(source, preset=preset)
    output = "「売上: 1億2000万円」と「在庫は、不足:している」。前年比30%増。"
    assert check_output(source, output).to_dict() == check_output(source, output, "quote").to_dict()


def test_line_index_gives_one_based_line_and_column() -> None:
    lines = LineIndex("ab\ncd\n\nef")
    assert [lines.at(i) for i in (0, 1, 3, 6, 7, 8)] == ["1:1", "1:2", "2:1", "3:1", "4:1", "4:2"]


def test_an_equal_source_built_anew_finds_the_entry_and_a_different_one_does_not() -> None:
    parts = ["引用元の", "文章です。", "\ud800"]  # (a lone surrogate is a str like any other)
    first = prepared_source("".join(parts), "quote", 10)
    again = "".join(parts[:1]) + "".join(parts[1:])
    assert again is not "".join(parts) and prepared_source(again, "quote", 10) is first
    assert prepared_source("".join(parts) + " ", "quote", 10) is not first
