"""Pure pieces of the web layer: the chart (quote extraction and
highlight segments moved to sadame.quote: tests/quote/test_check.py)."""

from __future__ import annotations

from sadame.web._chart import build_chart


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

