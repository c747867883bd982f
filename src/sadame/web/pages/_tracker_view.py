"""What the tracker dashboard shows, in Japanese: markers, event reasons, relative times.

The tracker stores its history in English (for the API and the CLI); the dashboard
says the same things in Japanese, built from the event type and its data, and shows
times relative to now in the viewer's timezone (JST unless ``?tz=`` names another).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sadame.track._labels import tracker_labels

__all__ = [
    "DEFAULT_TZ",
    "MARKER_LABELS",
    "absolute_time",
    "event_reason_ja",
    "relative_time",
    "viewer_zone",
]

DEFAULT_TZ = "Asia/Tokyo"

#: The latest session's marker of an issue -> (label, CSS class), from the labels catalogue.
MARKER_LABELS: dict[str, tuple[str, str]] = dict(tracker_labels().markers)
_SESSIONS_IN_REASON = re.compile(r"last (\d+) session")
_SYSTEM_ACTORS = frozenset({"tracker", "migrate"})


def viewer_zone(name: str | None) -> ZoneInfo:
    """The viewer's timezone: an IANA name (``Asia/Tokyo``, ``UTC``...), JST when absent or unknown."""
    if name and len(name) <= 64 and re.fullmatch(r"[A-Za-z0-9_+\-/]+", name) and ".." not in name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return ZoneInfo(DEFAULT_TZ)


def _parse(stamp: object) -> datetime | None:
    if not isinstance(stamp, str) or not stamp:
        return None
    try:
        at = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def absolute_time(stamp: object, zone: ZoneInfo) -> str:
    """``2026年1月5日 14:03 JST`` (empty for a missing or bad time)."""
    at = _parse(stamp)
    if at is None:
        return ""
    local = at.astimezone(zone)
    return f"{local.year}年{local.month}月{local.day}日 {local:%H:%M} {local.tzname()}"


def relative_time(stamp: object, zone: ZoneInfo, now: datetime | None = None) -> str:
    """``たった今``, ``5分前``, ``3時間前``, ``2日前``; older than a month: the date in ``zone``.

    >>> from zoneinfo import ZoneInfo
    >>> relative_time("2026-01-01T00:00:00+00:00", ZoneInfo("Asia/Tokyo"), datetime(2026, 1, 1, 3, tzinfo=UTC))
    '3時間前'
    """
    at = _parse(stamp)
    if at is None:
        return ""
    delta = (now or datetime.now(UTC)) - at
    if delta < timedelta(0):
        return absolute_time(stamp, zone)
    minutes = int(delta.total_seconds() // 60)
    if minutes < 1:
        return "たった今"
    if minutes < 60:
        return f"{minutes}分前"
    if minutes < 24 * 60:
        return f"{minutes // 60}時間前"
    if delta.days < 31:
        return f"{delta.days}日前"
    local = at.astimezone(zone)
    return f"{local.year}年{local.month}月{local.day}日"


def _short(issue_id: object) -> str:
    return str(issue_id or "")[:12]


def _merge_reason(event: dict[str, Any]) -> str:
    data = event.get("data") or {}
    if event["event"] == "merge":
        if "into" in data:
            return f"課題 {_short(data['into'])} に統合されました"
        return f"{len(data.get('sources', []))} 件の課題を統合しました"
    if "from" in data:
        return f"課題 {_short(data['from'])} との統合を解除しました"
    if "source" in data:
        return f"課題 {_short(data['source'])} の統合を解除しました"
    return "統合前の状態に戻しました"


def _session_count(reason: object) -> str:
    found = _SESSIONS_IN_REASON.search(str(reason or ""))
    return found.group(1) if found else "規定の"


def event_reason_ja(event: dict[str, Any]) -> str:
    """A Japanese sentence for one history entry (the reason a person typed is kept as typed)."""
    name, session, actor = event.get("event"), event.get("session_id"), str(event.get("actor") or "")
    where = f"セッション {session} で" if session else ""
    if name in ("merge", "unmerge"):
        return _merge_reason(event)
    if name in ("ignore", "reopen") and actor not in _SYSTEM_ACTORS:
        typed = str(event.get("reason") or "")
        default = typed == f"{name} by {actor}" or not typed
        return ("無視に設定しました" if name == "ignore" else "再オープンしました") if default else typed
    fixed = {
        "create": f"{where}初めて検出されました",
        "split": "ルールセットの変更で別の課題に分かれました",
        "redetect": f"{where}再び検出されました",
        "return": f"{where}解決済みまたは期限切れの課題が再び検出されました（再発）",
        "confirm": f"{where}確信度の高い検出があり、確定しました",
        "improve": f"{where}改善の報告と一致したため解決しました",
        "miss_limit": f"{_session_count(event.get('reason'))} セッション続けて検出されず、解決しました",
        "expire": f"候補のまま {_session_count(event.get('reason'))} セッション検出されず、期限切れになりました",
    }
    return fixed.get(str(name), "記録されました")
