"""The issue lifecycle: one enum of states, one enum of events, one transition table.

Every status change of an issue goes through :func:`transition`; every change is
written to the append-only event log, and :func:`rebuild` replays that log with
this same table, so an issue's history always explains its current status.

=========== =========================================================================
candidate   first seen; may be an LLM false positive, not yet shown as a problem
open        confirmed: seen again in a later session, or first seen with high confidence
resolved    not seen for N consecutive sessions, or matched by a confident improvement;
            found again (key, alias or a merge a person confirmed) it is open again: a regression
ignored     dismissed by the user; sticky: detections are recorded, the status never moves
expired     a candidate not seen again within M sessions (kept, not deleted); found again it is
            open and a regression (再発), like a resolved issue
=========== =========================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType

from sadame.track._errors import IllegalTransition

__all__ = ["CREATION_EVENTS", "TRANSITIONS", "Event", "Status", "rebuild", "transition"]


class Status(StrEnum):
    """The state of an issue."""

    CANDIDATE = "candidate"
    OPEN = "open"
    RESOLVED = "resolved"
    IGNORED = "ignored"
    EXPIRED = "expired"


class Event(StrEnum):
    """What can happen to an issue after it was created."""

    REDETECT = "redetect"  #: detected again in a later session
    RETURN = "return"  #: detected again after it was resolved or expired: a regression (再発)
    CONFIRM = "confirm"  #: detected with confidence at or above the ruleset's open_confidence
    MISS_LIMIT = "miss_limit"  #: not detected for N consecutive sessions
    IMPROVE = "improve"  #: an improvement matched it with confidence >= improvement_match
    EXPIRE = "expire"  #: a candidate not seen again within M sessions
    IGNORE = "ignore"  #: the user dismisses it (sticky)
    REOPEN = "reopen"  #: the user puts it back on the list


#: Events that create an issue (``create``: first detection, ``split``: a ruleset migration
#: split an issue, the new one carrying the old one's status).
CREATION_EVENTS = frozenset({"create", "split"})

S, E = Status, Event
#: The whole lifecycle. A (state, event) pair missing here is illegal. Pairs that map a state
#: to itself are allowed no-ops (they are not logged): ignored stays ignored whatever is detected.
TRANSITIONS: Mapping[tuple[Status, Event], Status] = MappingProxyType(
    {
        (S.CANDIDATE, E.REDETECT): S.OPEN,
        (S.CANDIDATE, E.CONFIRM): S.OPEN,
        (S.CANDIDATE, E.IMPROVE): S.RESOLVED,
        (S.CANDIDATE, E.EXPIRE): S.EXPIRED,
        (S.CANDIDATE, E.IGNORE): S.IGNORED,
        (S.CANDIDATE, E.REOPEN): S.OPEN,
        (S.OPEN, E.REDETECT): S.OPEN,
        (S.OPEN, E.CONFIRM): S.OPEN,
        (S.OPEN, E.MISS_LIMIT): S.RESOLVED,
        (S.OPEN, E.IMPROVE): S.RESOLVED,
        (S.OPEN, E.IGNORE): S.IGNORED,
        (S.RESOLVED, E.REDETECT): S.OPEN,  # a regression (logs written before RETURN existed)
        (S.RESOLVED, E.CONFIRM): S.OPEN,  # a regression (logs written before RETURN existed)
        (S.RESOLVED, E.RETURN): S.OPEN,  # a regression
        (S.EXPIRED, E.RETURN): S.OPEN,  # a regression: an expired issue found again
        (S.RESOLVED, E.IMPROVE): S.RESOLVED,
        (S.RESOLVED, E.IGNORE): S.IGNORED,
        (S.RESOLVED, E.REOPEN): S.OPEN,
        (S.IGNORED, E.REDETECT): S.IGNORED,
        (S.IGNORED, E.CONFIRM): S.IGNORED,
        (S.IGNORED, E.IMPROVE): S.IGNORED,
        (S.IGNORED, E.REOPEN): S.OPEN,
        (S.EXPIRED, E.REDETECT): S.CANDIDATE,  # logs written before RETURN existed
        (S.EXPIRED, E.CONFIRM): S.OPEN,
        (S.EXPIRED, E.IGNORE): S.IGNORED,
        (S.EXPIRED, E.REOPEN): S.OPEN,
    }
)
del S, E

_WHY: Mapping[Event, str] = {
    Event.MISS_LIMIT: "only open issues resolve by absence",
    Event.EXPIRE: "only candidates expire",
    Event.IGNORE: "it is already ignored",
    Event.REOPEN: "it is already open",
    Event.IMPROVE: "an expired candidate has nothing to improve",
    Event.RETURN: "only a resolved or expired issue can come back",
}


def transition(state: Status | str, event: Event | str) -> Status:
    """The state after ``event`` in ``state``; raises :class:`IllegalTransition` naming the state."""
    st, ev = Status(state), Event(event)
    try:
        return TRANSITIONS[(st, ev)]
    except KeyError:
        raise IllegalTransition(st.value, ev.value, _WHY.get(ev, "")) from None


def rebuild(events: Iterable[Mapping[str, object]]) -> Status | None:
    """Replay an issue's event log (``event``, ``to_state`` per row, oldest first) through the
    table. Raises :class:`IllegalTransition` or ``ValueError`` when the log contradicts it."""
    state: Status | None = None
    for row in events:
        name = str(row["event"])
        if name in CREATION_EVENTS:
            state = Status(str(row["to_state"]))
            continue
        if name in ("merge", "unmerge", "migrate"):
            if state is not None and row.get("to_state"):  # an unmerge may restore a status
                state = Status(str(row["to_state"]))
            continue  # links between issues, not transitions of the table
        if state is None:
            raise ValueError(f"event {name!r} before the issue was created")
        state = transition(state, name)
        if state.value != row["to_state"]:
            raise ValueError(f"log says {name!r} led to {row['to_state']!r}, the table says {state.value!r}")
    return state
