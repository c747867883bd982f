"""The tracker dashboard's chart: open / resolved / new issues per session, as inline SVG data.

Computed on the server and drawn by a Jinja template with plain SVG elements, so
the page needs no JavaScript, no CDN and no build step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SERIES", "SESSION_SERIES", "TOTAL_SERIES", "Chart", "build_chart"]

#: (key in a timeline point, Japanese label, CSS class)
SERIES: tuple[tuple[str, str, str], ...] = (
    ("open", "未解決", "s-open"),
    ("resolved", "解決済み", "s-resolved"),
    ("new", "新規", "s-new"),
)

#: What each session did (counts of that session only).
SESSION_SERIES: tuple[tuple[str, str, str], ...] = (
    ("new", "新規", "s-new"),
    ("deferred", "保留中の候補", "s-deferred"),
    ("continuing", "継続", "s-continuing"),
    ("improved", "改善", "s-improved"),
    ("regressed", "再発", "s-regressed"),
    ("resolved", "解決", "s-resolved"),
)
#: Running totals after each session.
TOTAL_SERIES: tuple[tuple[str, str, str], ...] = (
    ("open_total", "未解決（累計）", "s-open"),
    ("resolved_total", "解決済み（累計）", "s-resolved"),
)

_W, _H = 640, 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 40, 56, 16, 40


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    lines: list[dict[str, Any]]
    x_labels: list[dict[str, Any]]
    y_ticks: list[dict[str, Any]]
    regressions: list[dict[str, Any]]
    points: list[dict[str, Any]]


def _number(point: dict[str, Any], key: str) -> int:
    value = point.get(key, 0)
    if isinstance(value, list | tuple):
        return len(value)
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def build_chart(timeline: list[dict[str, Any]], series: tuple[tuple[str, str, str], ...] = SERIES,
                marks: str = "regressions") -> Chart:
    """Scale a tracker timeline into SVG coordinates (one x step per session); ``marks`` names
    the count drawn as a vertical marker (regressions)."""
    count = len(timeline)
    peak = max([1] + [_number(p, key) for p in timeline for key, _l, _c in series])
    plot_w = _W - _LEFT - _RIGHT
    plot_h = _H - _TOP - _BOTTOM

    def x(i: int) -> float:
        return _LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: int) -> float:
        return _TOP + plot_h - plot_h * v / peak

    lines = []
    for key, label, css in series:
        coords = [(round(x(i), 1), round(y(_number(p, key)), 1)) for i, p in enumerate(timeline)]
        lines.append(
            {
                "key": key,
                "label": label,
                "css": css,
                "points": " ".join(f"{a},{b}" for a, b in coords),
                "dots": [{"x": a, "y": b, "value": _number(p, key)} for (a, b), p in zip(coords, timeline, strict=True)],
            }
        )
    x_labels = [
        {"x": round(x(i), 1), "y": _H - _BOTTOM + 16, "text": str(p.get("session_id", i + 1))[:12]}
        for i, p in enumerate(timeline)
    ]
    step = max(1, peak // 4)
    y_ticks = [{"y": round(y(v), 1), "text": str(v)} for v in range(0, peak + 1, step)]
    regressions = [
        {"x": round(x(i), 1), "y": _TOP, "count": _number(p, marks), "session": str(p.get("session_id", ""))}
        for i, p in enumerate(timeline)
        if _number(p, marks) > 0
    ]
    points = [
        {"session": str(p.get("session_id", "")), **{key: _number(p, key) for key, _l, _c in series},
         "regressions": _number(p, marks)}
        for p in timeline
    ]
    return Chart(_W, _H, lines, x_labels, y_ticks, regressions, points)
