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

from sadame._errors import SadameError

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


class TrackError(SadameError):
    """Base class of every error raised by :mod:`sadame.track`."""

    message_ja = "課題トラッカーがこの操作を受け付けませんでした"


class RulesetError(TrackError, ValueError):
    """A ruleset file is missing, malformed, or has a word that normalizes to nothing."""

    code, message_ja = "invalid_ruleset", "ルールセットを読み込めません"


class InvalidInsight(TrackError, ValueError):
    """Ingest input is not a list of strings / ``{text, confidence?, kind?}`` objects."""

    code, message_ja = "invalid_insight", "指摘の形式が正しくありません"


class IssueNotFound(TrackError, KeyError):
    """No issue with this id exists for the tenant and user."""

    http_status, code, message_ja = 404, "not_found", "その課題は見つかりません"

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "issue not found"


class IllegalTransition(TrackError, ValueError):
    """An event the issue's current state does not allow; the message names that state."""

    http_status, code = 409, "illegal_transition"

    def __init__(self, state: str, event: str, detail: str = "") -> None:
        self.state = state
        self.event = event
        message = f"cannot {event} an issue in state {state!r}"
        super().__init__(f"{message}: {detail}" if detail else message,
                         japanese=f"この課題の今の状態（{state}）では、その操作（{event}）はできません")


class MergeError(TrackError, ValueError):
    """A merge or unmerge request that cannot be carried out (self-merge, nothing merged...)."""

    http_status, code, message_ja = 409, "merge_conflict", "この統合（または統合の解除）はできません"


class SessionConflict(TrackError, ValueError):
    """A session id that was already ingested with different findings (an identical replay
    is fine: it returns the stored report)."""

    http_status, code, message_ja = 409, "session_conflict", "このセッションは別の内容で取り込み済みです"


class InvalidExport(TrackError, ValueError):
    """Rows given to import that are not what export writes, or that would overwrite a user."""

    code, message_ja = "invalid_export", "取り込むデータの形式が正しくありません"


class MigrationNeedsReview(TrackError, ValueError):
    """A ruleset migration that would split issues was applied without ``allow_splits``: read the
    dry run first."""

    http_status, code, message_ja = 409, "needs_review", "課題が分かれる移行です。先に試行結果を確認してください"
