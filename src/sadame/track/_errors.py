"""Errors of the tracker.

::

    TrackError
     ├── RulesetError (ValueError)        a ruleset file that cannot be used
     ├── InvalidInsight (ValueError)      ingest input that is not a list of insights
     ├── InvalidExport (ValueError)       import rows that are not an export, or that would overwrite a user
     ├── IssueNotFound (KeyError)         no such issue for this tenant and user
     ├── IllegalTransition (ValueError)   the issue's current state forbids the event
     ├── MergeError (ValueError)          a merge/unmerge that makes no sense
     ├── MigrationNeedsReview (ValueError) a migration that splits issues, applied without allow_splits
     └── SessionConflict (ValueError)     a session id reused with different findings
"""

from __future__ import annotations

__all__ = [
    "IllegalTransition",
    "InvalidExport",
    "InvalidInsight",
    "IssueNotFound",
    "MergeError",
    "MigrationNeedsReview",
    "RulesetError",
    "SessionConflict",
    "TrackError",
]


class TrackError(Exception):
    """Base class of every error raised by :mod:`sadame.track`."""


class RulesetError(TrackError, ValueError):
    """A ruleset file is missing, malformed, or has a word that normalizes to nothing."""


class InvalidInsight(TrackError, ValueError):
    """Ingest input is not a list of strings / ``{text, confidence?, kind?}`` objects."""


class IssueNotFound(TrackError, KeyError):
    """No issue with this id exists for the tenant and user."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "issue not found"


class IllegalTransition(TrackError, ValueError):
    """An event the issue's current state does not allow; the message names that state."""

    def __init__(self, state: str, event: str, detail: str = "") -> None:
        self.state = state
        self.event = event
        message = f"cannot {event} an issue in state {state!r}"
        super().__init__(f"{message}: {detail}" if detail else message)


class MergeError(TrackError, ValueError):
    """A merge or unmerge request that cannot be carried out (self-merge, nothing merged...)."""


class SessionConflict(TrackError, ValueError):
    """A session id that was already ingested with different findings (an identical replay
    is fine: it returns the stored report)."""


class InvalidExport(TrackError, ValueError):
    """Rows given to import that are not what export writes, or that would overwrite a user."""


class MigrationNeedsReview(TrackError, ValueError):
    """A ruleset migration that would split issues was applied without ``allow_splits``: read the
    dry run first."""
