"""Pure pieces of the web layer: source segments for highlighting, quote extraction, the chart."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.web._chart import build_chart
from sadame.web._quotecheck import extract_quotes, segments


@st.composite
def source_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, int]]]:
    source = draw(st.text(alphabet="あいう安定性**- \n", min_size=0, max_size=40))
    spans = []
    for index in range(draw(st.integers(0, 5))):
        a = draw(st.integers(0, len(source)))
        b = draw(st.integers(a, len(source)))
        spans.append((a, b, index))
    return source, spans


@settings(max_examples=200, deadline=None)
@given(source_and_spans())
def test_segments_tile_the_source_and_know_their_quotes(case: tuple[str, list[tuple[int, int, int]]]) -> None:
    source, spans = case
    parts = segments(source, spans)
    assert "".join(p.text for p in parts) == source
    position = 0
    for part in parts:
        assert part.start == position and source[part.start : part.end] == part.text and part.text
        position = part.end
        expected = {i for a, b, i in spans if a <= part.start and part.end <= b and a < b}
        assert set(part.quotes) == expected


def test_extract_quotes_by_kind_of_output() -> None:
    as_json = json.dumps({"summary": "x", "evidence_spans": [{"text": "安定性: 不足"}, {"quote": "遅延"}, "生の文字列"]})
    assert extract_quotes(as_json) == ["安定性: 不足", "遅延", "生の文字列"]
    assert extract_quotes("報告では「安定性: 不足」と『遅延』、“英語”もある") == ["安定性: 不足", "遅延", "英語"]
    assert extract_quotes("前置き\n> 一つ目の引用\n> 二つ目\n後書き") == ["一つ目の引用", "二つ目"]
    assert extract_quotes("行その1\n\n行その2\n") == ["行その1", "行その2"]
    assert extract_quotes("{not json") == ["{not json"]
    assert extract_quotes("") == []


def test_chart_scales_every_session_and_marks_regressions() -> None:
    timeline = [
        {"session_id": "s1", "new": 1, "open": 1, "resolved": 0, "regressions": 0},
        {"session_id": "s2", "new": 0, "open": 0, "resolved": 1, "regressions": 0},
        {"session_id": "s3", "new": 0, "open": 4, "resolved": 0, "regressions": 2},
    ]
    chart = build_chart(timeline)
    lines = {line["key"]: line for line in chart.lines}
    assert set(lines) == {"open", "resolved", "new"}
    assert all(len(line["dots"]) == 3 for line in lines.values())
    ys = [dot["y"] for dot in lines["open"]["dots"]]
    assert ys[2] < ys[0] < ys[1], "more issues are drawn higher"
    assert [(r["session"], r["count"]) for r in chart.regressions] == [("s3", 2)]
    assert build_chart([]).lines[0]["dots"] == []

