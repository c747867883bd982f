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
    IssueNotFound,
    MergeError,
    RulesetError,
    SessionConflict,
    TrackError,
)
from sadame.track._lifecycle import Status
from sadame.track._matching import IssueMatcher, StaticMatcher
from sadame.track._ruleset import (
    Ruleset,
    default_ruleset,
    is_positive,
    issue_id,
    issue_key,
    load_ruleset,
    parse_ruleset,
)
from sadame.track._tracker import Tracker
from sadame.track._views import LinkTier

__all__ = [
    "IllegalTransition",
    "IssueMatcher",
    "IssueNotFound",
    "LinkTier",
    "MergeError",
    "Ruleset",
    "RulesetError",
    "SessionConflict",
    "StaticMatcher",
    "Status",
    "TrackError",
    "Tracker",
    "default_ruleset",
    "is_positive",
    "issue_id",
    "issue_key",
    "load_ruleset",
    "parse_ruleset",
]
