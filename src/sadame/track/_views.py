"""What the tracker returns: plain frozen dataclasses with ``to_dict()`` for JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "DetectionView",
    "EventView",
    "IssueDetail",
    "IssueView",
    "LinkTier",
    "Outcome",
    "ReportEntry",
    "SessionReport",
    "TrackerConfig",
    "TransitionEntry",
]


@dataclass(frozen=True)
class TrackerConfig:
    """Lifecycle numbers; ``None`` thresholds come from the ruleset."""

    #: N: consecutive sessions without a detection that resolve an open issue (one miss proves nothing)
    miss_sessions_to_resolve: int = 2
    #: M: sessions after its last sighting in which a candidate must be seen again, or it expires
    candidate_expiry_sessions: int = 3
    #: K: new issues surfaced per session (the seed shows one); the rest are deferred candidates
    max_new_per_session: int = 1
    #: seconds a semantic matcher may take before the finding is treated as new (None: no limit)
    matcher_timeout: float | None = 5.0
    #: attempts for one session's transaction on lock timeouts / serialization failures
    retries: int = 8
    token_overlap: float | None = None
    open_confidence: float | None = None
    detection_match: float | None = None
    improvement_match: float | None = None

    def __post_init__(self) -> None:
        for name in ("miss_sessions_to_resolve", "candidate_expiry_sessions", "retries"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"TrackerConfig.{name} must be an int >= 1, got {value!r}")
        k = self.max_new_per_session
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"TrackerConfig.max_new_per_session must be an int >= 0, got {k!r}")
        for name in ("token_overlap", "open_confidence", "detection_match", "improvement_match"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                      or not 0 <= value <= 1):
                raise ValueError(f"TrackerConfig.{name} must be None or a number in [0, 1], got {value!r}")
        if self.matcher_timeout is not None and not self.matcher_timeout > 0:
            raise ValueError("TrackerConfig.matcher_timeout must be > 0 or None")


@dataclass(frozen=True)
class IssueView:
    """One issue as a list shows it."""

    issue_id: str
    key: str
    title: str
    status: str
    occurrence_count: int
    first_detected_at: str
    last_detected_at: str
    resolved_at: str | None
    last_session_id: str | None
    merged_into: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DetectionView:
    """One stored insight and how it was linked: tier ``exact``/``alias``/``semantic``/``new``
    (or ``filtered``/``none``) and the link's confidence."""

    session_id: str
    seq: int
    position: int
    text: str
    kind: str
    confidence: float | None
    key: str
    issue_id: str | None
    tier: LinkTier
    link_confidence: float | None
    outcome: Outcome
    at: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class EventView:
    """One row of the append-only event log."""

    issue_id: str
    event: str
    from_state: str | None
    to_state: str
    actor: str
    reason: str | None
    at: str
    session_id: str | None
    data: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class IssueDetail:
    """An issue with its keys, detections and full history."""

    issue: IssueView
    keys: list[dict[str, str]]
    detections: list[DetectionView]
    events: list[EventView]
    merged: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "issue": self.issue.to_dict(),
            "keys": list(self.keys),
            "merged": list(self.merged),
            "detections": [d.to_dict() for d in self.detections],
            "events": [e.to_dict() for e in self.events],
        }


class LinkTier(StrEnum):
    """How a finding was linked to an issue."""

    EXACT = "exact"  #: its key is the issue's own key
    ALIAS = "alias"  #: its key is an old key of the issue (kept by a merge or migration)
    SEMANTIC = "semantic"  #: the matcher linked it at or above the ruleset's threshold
    #: an improvement, or a problem that says it is back (また), linked to the issue its words are
    #: most similar to (score >= the merge-offer score) or, an improvement, whose words cover its subject
    SIMILAR = "similar"
    NEW = "new"  #: nothing matched: it created an issue
    NONE = "none"  #: an improvement that matched no issue
    FILTERED = "filtered"  #: praise or empty: not tracked


class Outcome(StrEnum):
    """What a finding did in its session (stored on the detection, listed in the report)."""

    NEW = "new"  #: a new issue, surfaced to the user
    REMAINING = "remaining"  #: an existing issue seen again (or a new one of a family seen last time)
    DEFERRED = "deferred"  #: a new issue held back by the per-session cap (stays a candidate)
    DUPLICATE = "duplicate"  #: a second finding of an issue already seen in this session
    IGNORED = "ignored"  #: seen again, but the user ignores that issue
    IMPROVEMENT = "improvement"  #: an improvement: a finding of kind improvement, or one that says so in words
    FILTERED = "filtered"  #: praise or empty


@dataclass
class ReportEntry:
    """One line of a session report."""

    text: str
    key: str
    issue_id: str | None = None
    tier: LinkTier | None = None
    confidence: float | None = None
    status: str | None = None
    link_confidence: float | None = None
    #: filtered: ``empty``, ``positive`` or ``contradicted`` (an improvement of an issue detected in the same session)
    reason: str | None = None
    #: improvements: ``improvement``; absent and resolved: ``progress`` (a previous finding not seen
    #: now; older reports listed those under improvements)
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReportEntry:
        tier = data.get("tier")
        return cls(**{**data, "tier": None if tier is None else LinkTier(tier)})


@dataclass(frozen=True)
class TransitionEntry:
    """A status change made by a session."""

    issue_id: str
    event: str
    from_state: str | None
    to_state: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ENTRY_LISTS = ("new", "remaining", "improvements", "regressions", "deferred", "filtered", "ignored", "duplicates",
                "absent", "resolved")


@dataclass
class SessionReport:
    """What one ingest did, as lists of :class:`ReportEntry`.

    Every issue appears in at most one of ``new``, ``remaining``, ``improvements``,
    ``deferred``, ``ignored``, ``duplicates`` and ``absent``; ``regressions`` is the part of
    ``remaining`` that was resolved or expired before (再発). ``improvements`` are findings that
    say something got better (改善); ``absent`` are last session's issues not mentioned now
    (今回は指摘なし), which is not an improvement; ``resolved`` are issues this session resolved by
    absence (解決: not listed as absent too). ``replayed`` is True when the session had been
    ingested before and this is the stored report.
    """

    user_id: str
    session_id: str
    at: str
    seq: int
    ruleset_version: str
    new: list[ReportEntry] = field(default_factory=list)
    remaining: list[ReportEntry] = field(default_factory=list)
    improvements: list[ReportEntry] = field(default_factory=list)
    regressions: list[ReportEntry] = field(default_factory=list)
    deferred: list[ReportEntry] = field(default_factory=list)
    filtered: list[ReportEntry] = field(default_factory=list)
    ignored: list[ReportEntry] = field(default_factory=list)
    duplicates: list[ReportEntry] = field(default_factory=list)
    absent: list[ReportEntry] = field(default_factory=list)
    resolved: list[ReportEntry] = field(default_factory=list)
    transitions: list[TransitionEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    replayed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SessionReport:
        """Rebuild a stored report (older reports may lack ``duplicates`` and ``resolved``)."""
        fields: dict[str, Any] = dict(data)
        for name in _ENTRY_LISTS:
            fields[name] = [ReportEntry.from_dict(e) for e in data.get(name, [])]
        fields["transitions"] = [TransitionEntry(**t) for t in data.get("transitions", [])]
        return cls(**fields)
