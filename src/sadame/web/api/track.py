"""The issue tracker over HTTP (``/api/track/...``), one tenant per API key.

Every route needs ``Authorization: Bearer <key>``; the key's tenant scopes every
read and write (``Tracker(db_url, tenant=...)``), so one tenant can never see or
change another tenant's users, even with the same user ids.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from sadame.track import Status
from sadame.web.deps import Ctx, Identifier, ShortText, Tenant, clean_text
from sadame.web.schemas.track import IssueDetail, IssueView, SessionReport, SimilarIssue, TimelinePoint

__all__ = ["IngestRequest", "MergeRequest", "TransitionRequest", "router"]

router = APIRouter(prefix="/track", tags=["track"])

Key = Annotated[str, AfterValidator(clean_text), Field(min_length=1, max_length=100)]
Scalar = Annotated[str, AfterValidator(clean_text), Field(max_length=2_000)] | int | float | bool | None
Insight = ShortText | dict[Key, Scalar]
UserPath = Annotated[str, Path(min_length=1, max_length=200)]
IssuePath = Annotated[str, Path(min_length=1, max_length=100)]


class IngestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: Identifier
    session_id: Identifier
    # An empty list is a session without findings: it counts as a miss for open issues.
    insights: list[Insight] = Field(
        max_length=500, description="Finding texts, or objects with `text`, `kind`, `confidence`."
    )
    at: datetime | None = None


class TransitionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: ShortText | None = None


class MergeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    target_id: Key
    source_ids: list[Key] = Field(min_length=1, max_length=100)


def _actor(tenant: str) -> str:
    return f"api:{tenant}"


def _checked_path(value: str) -> str:
    return clean_text(value)


@router.post("/ingest", response_model=SessionReport)
def ingest(body: IngestRequest, ctx: Ctx, tenant: Tenant) -> SessionReport:
    """Ingest one session's findings; the same (user, session) twice changes nothing the second time."""
    return ctx.tracker(tenant).ingest(body.user_id, body.session_id, body.insights, at=body.at)


@router.get("/users", response_model=list[str])
def users(ctx: Ctx, tenant: Tenant) -> list[str]:
    """Users of this tenant that have issues."""
    return ctx.tracker(tenant).users()


@router.get("/users/{user_id}/issues", response_model=list[IssueView])
def list_issues(
    user_id: UserPath, ctx: Ctx, tenant: Tenant, status: Annotated[Status | None, Query()] = None
) -> list[IssueView]:
    """A user's issues, optionally of one status."""
    return ctx.tracker(tenant).list_issues(_checked_path(user_id), status=status)


@router.get("/users/{user_id}/issues/{issue_id}", response_model=IssueDetail)
def show_issue(user_id: UserPath, issue_id: IssuePath, ctx: Ctx, tenant: Tenant) -> IssueDetail:
    """One issue with its detections and its event history."""
    return ctx.tracker(tenant).show(_checked_path(user_id), _checked_path(issue_id))


@router.get("/users/{user_id}/timeline", response_model=list[TimelinePoint])
def timeline(user_id: UserPath, ctx: Ctx, tenant: Tenant) -> list[dict[str, Any]]:
    """Per session: new, open, resolved issues and regressions (what the dashboard chart draws)."""
    return ctx.tracker(tenant).timeline(_checked_path(user_id))


@router.post("/users/{user_id}/issues/{issue_id}/ignore", response_model=IssueDetail)
def ignore(user_id: UserPath, issue_id: IssuePath, body: TransitionRequest, ctx: Ctx, tenant: Tenant) -> IssueDetail:
    """Ignore an issue (sticky: later detections are recorded, the status stays)."""
    tracker = ctx.tracker(tenant)
    tracker.ignore(_checked_path(user_id), _checked_path(issue_id), actor=_actor(tenant), reason=body.reason)
    return tracker.show(user_id, issue_id)


@router.post("/users/{user_id}/issues/{issue_id}/reopen", response_model=IssueDetail)
def reopen(user_id: UserPath, issue_id: IssuePath, body: TransitionRequest, ctx: Ctx, tenant: Tenant) -> IssueDetail:
    """Reopen an ignored or resolved issue."""
    tracker = ctx.tracker(tenant)
    tracker.reopen(_checked_path(user_id), _checked_path(issue_id), actor=_actor(tenant), reason=body.reason)
    return tracker.show(user_id, issue_id)


@router.post("/users/{user_id}/merge", response_model=IssueView)
def merge(user_id: UserPath, body: MergeRequest, ctx: Ctx, tenant: Tenant) -> IssueView:
    """Merge ``source_ids`` into ``target_id`` (undo with unmerge)."""
    return ctx.tracker(tenant).merge(_checked_path(user_id), body.target_id, list(body.source_ids),
                                     actor=_actor(tenant))


@router.post("/users/{user_id}/issues/{issue_id}/unmerge", response_model=list[IssueView])
def unmerge(user_id: UserPath, issue_id: IssuePath, ctx: Ctx, tenant: Tenant) -> list[IssueView]:
    """Restore the issues merged into this one, exactly as they were."""
    return ctx.tracker(tenant).unmerge(_checked_path(user_id), _checked_path(issue_id), actor=_actor(tenant))


@router.get("/users/{user_id}/issues/{issue_id}/similar", response_model=list[SimilarIssue])
def similar(user_id: UserPath, issue_id: IssuePath, ctx: Ctx, tenant: Tenant,
            limit: Annotated[int, Query(ge=1, le=50)] = 5) -> list[SimilarIssue]:
    """The user's issues most similar to this one, with a score (suggestions: nothing is merged)."""
    return ctx.tracker(tenant).similar(_checked_path(user_id), _checked_path(issue_id), limit=limit)


@router.delete("/users/{user_id}", response_model=dict[str, int])
def delete_user(user_id: UserPath, ctx: Ctx, tenant: Tenant) -> dict[str, int]:
    """Erase every finding, issue and event of this user (logged as a tenant event without content)."""
    return ctx.tracker(tenant).delete_user(_checked_path(user_id), actor=_actor(tenant))
