"""The tracker dashboard: sign in with an API key, then a user's issues, history and chart.

Signing in issues a new browser session (stored in the database) tied to the key
and its tenant; the key itself is not kept in the cookie (see ``_sessions``). Actions (ignore / reopen /
merge / unmerge) are plain form posts that redirect back.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote as urlquote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from sadame.web._chart import SERIES, build_chart
from sadame.web._convert import to_jsonable
from sadame.web.deps import Ctx
from sadame.web.pages._common import Browser, redirect, render

__all__ = ["EVENT_LABELS", "STATUS_LABELS", "router"]

router = APIRouter()

#: Issue statuses in dashboard order with their Japanese labels.
STATUS_LABELS: dict[str, str] = {
    "open": "未解決",
    "candidate": "候補",
    "resolved": "解決済み",
    "ignored": "無視",
    "expired": "期限切れ",
}

#: Japanese names of the tracker's event log entries.
EVENT_LABELS: dict[str, str] = {
    "create": "新規検出",
    "redetect": "再検出",
    "confirm": "確定",
    "miss_limit": "未検出が続き解決",
    "improve": "改善を確認して解決",
    "expire": "期限切れ",
    "ignore": "無視",
    "reopen": "再オープン",
    "merge": "統合",
    "merged": "統合",
    "unmerge": "統合解除",
    "split": "分割",
}


def _signed_in(request: Request, ctx: Ctx) -> tuple[Browser, str | None]:
    browser = Browser(request, ctx)
    return browser, ctx.sessions.tenant(browser.sent)


def _login(request: Request, browser: Browser, error: str | None = None, status: int = 200) -> HTMLResponse:
    return render(request, browser, "tracker_login.html", {"error": error}, status=status)


def _user_url(user_id: str) -> str:
    return f"/tracker/users/{urlquote(user_id, safe='')}"


def _failure(request: Request, browser: Browser, exc: Exception) -> HTMLResponse:
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = 404 if "IssueNotFound" in names else 409 if "IllegalTransition" in names else 400
    message = str(exc.args[0]) if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
    return render(request, browser, "error.html", {"message": message}, status=status)


@router.get("/tracker", response_class=HTMLResponse)
def tracker_home(request: Request, ctx: Ctx) -> HTMLResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    users = to_jsonable(ctx.tracker(tenant).users())
    return render(request, browser, "tracker_users.html", {"tenant": tenant, "users": users})


@router.post("/tracker/login", response_model=None)
def login(request: Request, ctx: Ctx, api_key: Annotated[str, Form()] = "") -> HTMLResponse | RedirectResponse:
    browser = Browser(request, ctx)
    cookie = ctx.sessions.sign_in(browser.sent, api_key.strip())
    if cookie is None:
        return _login(request, browser, "APIキーが正しくないか、無効になっています", status=401)
    browser.replace(cookie)  # a new session id at every sign-in (no session fixation)
    return redirect("/tracker", browser)


@router.post("/tracker/logout")
def logout(request: Request, ctx: Ctx) -> RedirectResponse:
    browser = Browser(request, ctx)
    ctx.sessions.sign_out(browser.sent)
    return redirect("/tracker", browser)


def _issues_by_status(issues: list[dict[str, Any]]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    groups: list[tuple[str, str, list[dict[str, Any]]]] = []
    for status, label in STATUS_LABELS.items():
        groups.append((status, label, [i for i in issues if i.get("status") == status]))
    return groups


@router.get("/tracker/users/{user_id}", response_class=HTMLResponse)
def user_dashboard(user_id: str, request: Request, ctx: Ctx) -> HTMLResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    tracker = ctx.tracker(tenant)
    try:
        issues = to_jsonable(tracker.list_issues(user_id))
        timeline = to_jsonable(tracker.timeline(user_id))
    except (ValueError, LookupError) as exc:
        return _failure(request, browser, exc)
    regressions = sum(int(p.get("regressions", 0) or 0) for p in timeline)
    context = {
        "tenant": tenant,
        "user_id": user_id,
        "user_url": _user_url(user_id),
        "groups": _issues_by_status(issues),
        "issues": issues,
        "chart": build_chart(timeline),
        "series": SERIES,
        "timeline": timeline,
        "regressions": regressions,
    }
    return render(request, browser, "tracker_user.html", context)


@router.get("/tracker/users/{user_id}/issues/{issue_id}", response_class=HTMLResponse)
def issue_page(user_id: str, issue_id: str, request: Request, ctx: Ctx) -> HTMLResponse:
    browser, tenant = _signed_in(request, ctx)
    if tenant is None:
        return _login(request, browser)
    try:
        detail = to_jsonable(ctx.tracker(tenant).show(user_id, issue_id))
    except (ValueError, LookupError) as exc:
        return _failure(request, browser, exc)
    issue = detail.get("issue", detail)
    context = {
        "tenant": tenant,
        "user_id": user_id,
        "user_url": _user_url(user_id),
        "issue": issue,
        "detections": detail.get("detections", []),
        "events": detail.get("events", []),
        "labels": STATUS_LABELS,
        "events_ja": EVENT_LABELS,
    }
    return render(request, browser, "tracker_issue.html", context)


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
    if issue_id and action != "merge":
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
