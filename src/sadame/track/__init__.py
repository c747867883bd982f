"""sadame.track: stable issue ids and a lifecycle for LLM findings (seed 000).

Pure functions turn a finding into a key and an id (:func:`issue_key`, :func:`issue_id`)
under a versioned ruleset; :class:`Tracker` stores sessions of findings per tenant and
user on SQLite or PostgreSQL and reports what is new, remaining, improved or regressed.
"""

from __future__ import annotations

from sadame._extras import require

require("track")

from sadame.track._errors import (
    IllegalTransition,
    InvalidExport,
    InvalidInsight,
    IssueNotFound,
    MergeError,
    MigrationNeedsReview,
    RulesetError,
    SessionConflict,
    TrackError,
)
from sadame.track._ingest import Insight, parse_insights
from sadame.track._lifecycle import TRANSITIONS, Event, Status, rebuild, transition
from sadame.track._matching import IssueMatcher, MatchCandidate, MatchResult, StaticMatcher, tokens_match
from sadame.track._ruleset import (
    Ruleset,
    Thresholds,
    bundled_rulesets,
    default_ruleset,
    is_positive,
    issue_id,
    issue_key,
    issue_tokens,
    load_ruleset,
    normalize_issue_text,
    parse_ruleset,
    strip_label,
)
from sadame.track._similar import SimilarIssue, similarity
from sadame.track._tracker import Tracker
from sadame.track._views import (
    DetectionView,
    EventView,
    IssueDetail,
    IssueView,
    LinkTier,
    Outcome,
    ReportEntry,
    SessionReport,
    TrackerConfig,
    TransitionEntry,
)

__all__ = [
    "TRANSITIONS",
    "DetectionView",
    "Event",
    "EventView",
    "IllegalTransition",
    "Insight",
    "InvalidExport",
    "InvalidInsight",
    "IssueDetail",
    "IssueMatcher",
    "IssueNotFound",
    "IssueView",
    "LinkTier",
    "MatchCandidate",
    "MatchResult",
    "MergeError",
    "MigrationNeedsReview",
    "Outcome",
    "ReportEntry",
    "Ruleset",
    "RulesetError",
    "SessionConflict",
    "SessionReport",
    "SimilarIssue",
    "StaticMatcher",
    "Status",
    "Thresholds",
    "TrackError",
    "Tracker",
    "TrackerConfig",
    "TransitionEntry",
    "bundled_rulesets",
    "default_ruleset",
    "is_positive",
    "issue_id",
    "issue_key",
    "issue_tokens",
    "load_ruleset",
    "normalize_issue_text",
    "parse_insights",
    "parse_ruleset",
    "rebuild",
    "similarity",
    "strip_label",
    "tokens_match",
    "transition",
]
