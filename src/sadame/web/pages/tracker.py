"""The tracker dashboard: sign in with an API key, then a user's issues, history and chart.

Signing in issues a new browser session (stored in the database) tied to the key
and its tenant; the key itself is not kept in the cookie (see ``_sessions``). Actions (ignore / reopen /
merge / unmerge) are plain form posts that redirect back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote as urlquote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from sadame.db import DatabaseError
from sadame.track._labels import tracker_labels
from sadame.web._chart import TOTAL_SERIES, build_chart
from sadame.web._convert import to_jsonable
from sadame.web._present import present
from sadame.web.deps import UNKNOWN_KEY_JA, Ctx, log_refused_key
from sadame.web.pages._common import Browser, redirect, render
from sadame.web.pages._tracker_view import (
    MARKER_LABELS,
    absolute_time,
    event_reason_ja,
    merge_event_ids,
    relative_time,
    viewer_zone,
)

if TYPE_CHECKING:
    from sadame.track import Tracker

__all__ = ["EVENT_LABELS", "STATUS_LABELS", "TIER_LABELS", "router"]

router = APIRouter()

_LABELS = tracker_labels()
#: Issue statuses in dashboard order with their Japanese labels (from the labels catalogue).
STATUS_LABELS: dict[str, str] = dict(_LABELS.statuses)
#: Japanese names of the tracker's event log entries.
EVENT_LABELS: dict[str, str] = dict(_LABELS.events)
#: How a detection was linked to its issue.
TIER_LABELS: dict[str, str] = dict(_LABELS.tiers)


def _signed_in(request: Request, ctx: Ctx) -> tuple[Browser, str | None]:
    browser = Browser(request, ctx)
    return browser, ctx.sessions.tenant(browser.sent)


def _login(request: Request, browser: Browser, error: str | None = None, status: int = 200) -> HTMLResponse:
    return render(request, browser, "tracker_login.html", {"error": error}, status=status)


def _user_url(user_id: str) -> str:
    return f"/tracker/users/{urlquote(user_id, safe='')}"


def _failure(request: Request, browser: Browser, exc: Exception) -> HTMLResponse:
    """The error page: the same status as the API gives for ``exc``, in Japanese."""
    if isinstance(exc, DatabaseError):
        raise exc  # 503 from the app's handler, without the database's details
    found = present(exc)
    return render(request, browser, "error.html", {"message": found.japanese}, status=found.status)


PAGE_SIZE = 50
#: Merged issues shown by title on an issue's page (the rest by id).
MAX_MERGED_TITLES = 50
#: Issues (of the page, open first) drawn in the per-issue timeline.
TIMELINE_ISSUES = 20


def _page_number(raw: str | None) -> int:
    return int(raw) if raw and raw.isdigit() and len(raw) < 7 else 1


@router.get("/tracker", response_class=HTMLResponse)
def tracker_home(request: Request, ctx: Ctx, page: str | None = None, tz: str | None = None) -> HTMLResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    number, zone = _page_number(page), viewer_zone(tz)
    users, total = ctx.tracker(tenant).user_summaries(offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    for u in users:
        u["last_relative"], u["last_absolute"] = relative_time(u["last_at"], zone), absolute_time(u["last_at"], zone)
    context = {"tenant": tenant, "users": users, "page": number, "pages": max(1, -(-total // PAGE_SIZE)),
               "total": total, "labels": STATUS_LABELS}
    return render(request, browser, "tracker_users.html", context)


@router.post("/tracker/login", response_model=None)
def login(request: Request, ctx: Ctx, api_key: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    browser = Browser(request, ctx)
    cookie = ctx.sessions.sign_in(browser.sent, api_key.strip())
    if cookie is None:
        log_refused_key(ctx, "dashboard sign-in")
        return _login(request, browser, UNKNOWN_KEY_JA, status=401)
    browser.replace(cookie)  # a new session id at every sign-in (no session fixation)
    return redirect("/tracker", browser)


@router.post("/tracker/logout")
def logout(request: Request, ctx: Ctx) -> RedirectResponse:
    browser = Browser(request, ctx)
    ctx.sessions.sign_out(browser.sent)
    return redirect("/tracker", browser)


def _dashboard(tracker: Any, user_id: str, number: int, tz: str | None) -> dict[str, Any]:
    zone = viewer_zone(tz)
    issues, counts = tracker.issue_page(user_id, offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    markers = tracker.latest_markers(user_id)
    rows = []
    for view in issues:
        row = to_jsonable(view)
        marker = markers.get(view.issue_id)
        row["marker"] = (marker, *MARKER_LABELS[marker]) if marker else None
        row["last_relative"] = relative_time(view.last_detected_at, zone)
        row["last_absolute"] = absolute_time(view.last_detected_at, zone)
        rows.append(row)
    summaries = tracker.session_summaries(user_id)
    latest = tracker.latest_report(user_id)
    total = sum(counts.values())
    said = [e for e in latest.improvements if e.source != "progress"] if latest else []
    absent = ([e for e in latest.improvements if e.source == "progress"] + latest.absent) if latest else []
    timeline = tracker.issue_timelines(user_id, [r["issue_id"] for r in rows[:TIMELINE_ISSUES]])
    titles = {r["issue_id"]: r["title"] for r in rows}
    absent_rows = to_jsonable(absent)
    for row in absent_rows:  # named by the issue, not by the last sentence that mentioned it (〜がまた〜)
        row["name"] = titles.get(row["issue_id"]) or row["text"]
    for line in timeline["rows"]:
        line["title"] = titles[line["issue_id"]]
        line["cells"] = [(m, *MARKER_LABELS[m]) if m else None for m in line["cells"]]
    return {
        "issues": rows, "counts": counts, "page": number, "pages": max(1, -(-total // PAGE_SIZE)),
        "total": total, "labels": STATUS_LABELS,
        "total_chart": build_chart(summaries, TOTAL_SERIES, "regressed"), "total_series": TOTAL_SERIES,
        "summaries": summaries, "improvements": to_jsonable(said), "absent": absent_rows,
        "deferred": to_jsonable(latest.deferred) if latest else [], "timeline": timeline, "ui": _LABELS,
        "markers": MARKER_LABELS,
        "latest": latest.session_id if latest else None,
        "latest_relative": relative_time(latest.at, zone) if latest else "",
        "regressions": len(latest.regressions) if latest else 0, "tz": zone.key,
    }


@router.get("/tracker/users/{user_id}", response_class=HTMLResponse)
def user_dashboard(user_id: str, request: Request, ctx: Ctx, page: str | None = None,
                   tz: str | None = None) -> HTMLResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    try:
        data = _dashboard(ctx.tracker(tenant), user_id, _page_number(page), tz)
    except (ValueError, LookupError) as exc:
        return _failure(request, browser, exc)
    context = {"tenant": tenant, "user_id": user_id, "user_url": _user_url(user_id), **data}
    return render(request, browser, "tracker_user.html", context)


def _titles(tracker: Tracker, user_id: str, issue_ids: list[str]) -> dict[str, str]:
    """Titles of the issues a page names (merged ones, those its history names), at most
    :data:`MAX_MERGED_TITLES`; an issue no longer there (its user erased) is left out."""
    titles: dict[str, str] = {}
    for iid in list(dict.fromkeys(issue_ids))[:MAX_MERGED_TITLES]:
        try:
            titles[iid] = tracker.show(user_id, iid).issue.title
        except LookupError:
            continue
    return titles


def _regressed_sessions(tracker: Tracker, user_id: str, issue_id: str) -> set[str]:
    """The recent sessions whose report marks the issue 再発: a return cue after a gap reopens
    no resolved issue, so its event is a 再検出, yet the user's page says 再発 (the history must too)."""
    timeline = tracker.issue_timelines(user_id, [issue_id])
    cells: list[str | None] = next((row["cells"] for row in timeline["rows"] if row["issue_id"] == issue_id), [])
    return {sid for sid, mark in zip(timeline["sessions"], cells, strict=False) if mark == "regressed"}


@router.get("/tracker/users/{user_id}/issues/{issue_id}", response_class=HTMLResponse)
def issue_page(user_id: str, issue_id: str, request: Request, ctx: Ctx, tz: str | None = None) -> HTMLResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    tracker, zone = ctx.tracker(tenant), viewer_zone(tz)
    try:
        detail = to_jsonable(tracker.show(user_id, issue_id))
        similar = [] if detail["issue"]["merged_into"] else to_jsonable(
            tracker.similar(user_id, detail["issue"]["issue_id"], limit=5))
    except (ValueError, LookupError) as exc:
        return _failure(request, browser, exc)
    linked = [*detail["merged"], *([detail["issue"]["merged_into"]] if detail["issue"]["merged_into"] else [])]
    titles = _titles(tracker, user_id, [*linked, *merge_event_ids(detail["events"])])
    regressed = _regressed_sessions(tracker, user_id, detail["issue"]["issue_id"])
    for e in detail["events"]:
        again = e["event"] == "redetect" and e.get("session_id") in regressed
        e["reason_ja"], e["when"] = event_reason_ja(e, titles, regressed=again), relative_time(e["at"], zone)
        e["when_absolute"] = absolute_time(e["at"], zone)
        if again:
            e["label"] = _LABELS.markers["regressed"][0]
    context = {
        "tenant": tenant, "user_id": user_id, "user_url": _user_url(user_id), "issue": detail["issue"],
        "detections": detail["detections"], "events": detail["events"], "merged": detail["merged"],
        "titles": titles, "ui": _LABELS,
        "similar": similar, "labels": STATUS_LABELS, "events_ja": EVENT_LABELS, "tiers": TIER_LABELS,
        "last_absolute": absolute_time(detail["issue"]["last_detected_at"], zone),
    }
    return render(request, browser, "tracker_issue.html", context)


@router.get("/tracker/users/{user_id}/merge", response_class=HTMLResponse)
def merge_confirm(user_id: str, request: Request, ctx: Ctx, target: str = "", source: str = "") -> HTMLResponse:
    """The confirmation step: both issues side by side, and one button that merges."""
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    tracker = ctx.tracker(tenant)
    try:
        if not target or not source:
            raise ValueError("統合先と統合する課題の両方を選んでください")
        into, away = tracker.show(user_id, target).issue, tracker.show(user_id, source).issue
        if into.issue_id == away.issue_id:
            raise ValueError("同じ課題どうしは統合できません")
    except (ValueError, LookupError) as exc:
        return _failure(request, browser, exc)
    context = {"tenant": tenant, "user_id": user_id, "user_url": _user_url(user_id), "target": to_jsonable(into),
               "source": to_jsonable(away), "labels": STATUS_LABELS}
    return render(request, browser, "tracker_merge.html", context)


def _action(request: Request, ctx: Ctx, user_id: str, issue_id: str | None, action: str,
            reason: str = "", sources: list[str] | None = None) -> HTMLResponse | RedirectResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser, "ログインしてください", status=401)
    tracker = ctx.tracker(tenant)
    actor = f"web:{tenant}"
    try:
        if issue_id is None:
            raise ValueError("統合先の課題を選んでください")
        if action == "ignore":
            tracker.ignore(user_id, issue_id, actor=actor, reason=reason or None)
        elif action == "reopen":
            tracker.reopen(user_id, issue_id, actor=actor, reason=reason or None)
        elif action == "merge":
            chosen = [s for s in (sources or []) if s and s != issue_id]
            if not chosen:
                raise ValueError("統合先と、統合する課題を1つ以上選んでください")
            tracker.merge(user_id, issue_id, chosen, actor=actor)
        elif action == "unmerge":
            tracker.unmerge(user_id, issue_id, actor=actor)
    except (ValueError, LookupError) as exc:
        return _failure(request, browser, exc)
    target = _user_url(user_id)
    if issue_id:
        target += f"/issues/{urlquote(issue_id, safe='')}"
    return redirect(target, browser)


@router.post("/tracker/users/{user_id}/issues/{issue_id}/ignore", response_model=None)
def ignore(user_id: str, issue_id: str, request: Request, ctx: Ctx,
           reason: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    return _action(request, ctx, user_id, issue_id, "ignore", reason)


@router.post("/tracker/users/{user_id}/issues/{issue_id}/reopen", response_model=None)
def reopen(user_id: str, issue_id: str, request: Request, ctx: Ctx,
           reason: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    return _action(request, ctx, user_id, issue_id, "reopen", reason)


@router.post("/tracker/users/{user_id}/issues/{issue_id}/unmerge", response_model=None)
def unmerge(user_id: str, issue_id: str, request: Request, ctx: Ctx) -> HTMLResponse | RedirectResponse:
    return _action(request, ctx, user_id, issue_id, "unmerge")


@router.post("/tracker/users/{user_id}/merge", response_model=None)
def merge(user_id: str, request: Request, ctx: Ctx, target_id: Annotated[str, Form()] = "",
          source_ids: Annotated[list[str] | None, Form()] = None) -> HTMLResponse | RedirectResponse:
    return _action(request, ctx, user_id, target_id or None, "merge", sources=source_ids or [])
