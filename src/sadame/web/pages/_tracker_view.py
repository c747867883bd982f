"""What the tracker dashboard shows, in Japanese: markers, event reasons, relative times.

The tracker stores its history in English (for the API and the CLI); the dashboard
says the same things in Japanese, built from the event type and its data, and shows
times relative to now in the viewer's timezone (JST unless ``?tz=`` names another).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sadame.track._labels import tracker_labels

__all__ = [
    "DEFAULT_TZ",
    "MARKER_LABELS",
    "absolute_time",
    "event_reason_ja",
    "merge_event_ids",
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


def _named(issue_id: object, titles: Mapping[str, str]) -> str:
    """An issue as a coach knows it: 「its title」, or 課題 and its short id when the title is not at hand."""
    title = titles.get(str(issue_id or ""))
    return f"「{title}」" if title else f"課題 {_short(issue_id)} "


def _merge_reason(event: dict[str, Any], titles: Mapping[str, str]) -> str:
    data = event.get("data") or {}
    if event["event"] == "merge":
        if "into" in data:
            return f"{_named(data['into'], titles)}に統合されました"
        sources = [str(s) for s in data.get("sources", [])]
        if sources and all(s in titles for s in sources):
            return f"{'、'.join(_named(s, titles) for s in sources)}を統合しました"
        return f"{len(sources)} 件の課題を統合しました"
    if "from" in data:
        return f"{_named(data['from'], titles)}との統合を解除しました"
    if "source" in data:
        return f"{_named(data['source'], titles)}の統合を解除しました"
    return "統合前の状態に戻しました"


def merge_event_ids(events: list[dict[str, Any]]) -> list[str]:
    """The other issues the merge and unmerge entries of a history name (to look their titles up)."""
    found: list[str] = []
    for event in events:
        if event.get("event") in ("merge", "unmerge"):
            data = event.get("data") or {}
            found += [str(data[k]) for k in ("into", "from", "source") if data.get(k)]
            found += [str(s) for s in data.get("sources", [])]
    return list(dict.fromkeys(found))


def _session_count(reason: object) -> str:
    found = _SESSIONS_IN_REASON.search(str(reason or ""))
    return found.group(1) if found else "規定の"


def event_reason_ja(event: dict[str, Any], titles: Mapping[str, str] | None = None, *, regressed: bool = False) -> str:
    """A Japanese sentence for one history entry (the reason a person typed is kept as typed);
    ``titles`` (issue id -> title) names the issues a merge joined by their titles; ``regressed``:
    a re-detection the session's report marks 再発 (a return cue after a gap)."""
    name, session, actor = event.get("event"), event.get("session_id"), str(event.get("actor") or "")
    where = f"セッション {session} で" if session else ""
    if name == "redetect" and regressed:
        return f"{where}、しばらく指摘がなかった課題が「また」などの言葉とともに再び指摘されました"
    if name in ("merge", "unmerge"):
        return _merge_reason(event, titles or {})
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
