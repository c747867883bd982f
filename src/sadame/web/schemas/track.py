"""The issue tracker: the answers of ``/api/track/...``.

The tracker's own result types are dataclasses; they are the response models as they are,
so the API cannot drift from the library.
"""

from __future__ import annotations

from pydantic import BaseModel

from sadame.track._similar import SimilarIssue
from sadame.track._views import IssueDetail, IssueView, SessionReport

__all__ = ["IssueDetail", "IssueView", "SessionReport", "SimilarIssue", "TimelinePoint"]


class TimelinePoint(BaseModel):
    """One session of a user's timeline: issues surfaced, open and resolved after it, regressions."""

    session_id: str
    at: str
    new: int
    open: int
    resolved: int
    regressions: int
