"""The transition table itself (pure, no database)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.track import IllegalTransition, Status
from sadame.track._lifecycle import TRANSITIONS, Event, rebuild, transition


def test_ignored_is_sticky_for_everything_but_the_user() -> None:
    for ev in (Event.REDETECT, Event.CONFIRM, Event.IMPROVE):
        assert transition(Status.IGNORED, ev) is Status.IGNORED
    for ev in (Event.MISS_LIMIT, Event.EXPIRE):
        with pytest.raises(IllegalTransition):
            transition(Status.IGNORED, ev)
    assert transition(Status.IGNORED, Event.REOPEN) is Status.OPEN


def test_the_seed_lifecycle() -> None:
    assert transition("candidate", "redetect") is Status.OPEN
    assert transition("candidate", "confirm") is Status.OPEN
    assert transition("open", "miss_limit") is Status.RESOLVED
    assert transition("open", "improve") is Status.RESOLVED
    assert transition("resolved", "redetect") is Status.OPEN  # regression
    assert transition("candidate", "expire") is Status.EXPIRED


@pytest.mark.parametrize(
    ("state", "event", "named"),
    [("open", "reopen", "'open'"), ("ignored", "ignore", "'ignored'"), ("resolved", "miss_limit", "'resolved'"),
     ("open", "expire", "'open'"), ("expired", "improve", "'expired'")],
)
def test_illegal_transitions_name_the_state_that_forbids_them(state: str, event: str, named: str) -> None:
    with pytest.raises(IllegalTransition, match=named) as info:
        transition(state, event)
    assert info.value.state == state and info.value.event == event


def test_every_state_has_a_way_out_and_every_target_is_a_state() -> None:
    for state in Status:
        assert any(s is state and t is not state for (s, _), t in TRANSITIONS.items()), state
    assert set(TRANSITIONS.values()) <= set(Status)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list(Event)), max_size=30), st.sampled_from(["candidate", "open"]))
def test_rebuild_replays_any_legal_history(events: list[Event], start: str) -> None:
    state = Status(start)
    log: list[dict[str, object]] = [{"event": "create", "to_state": start}]
    for ev in events:
        if (state, ev) not in TRANSITIONS:
            with pytest.raises(IllegalTransition):
                transition(state, ev)
            continue
        after = transition(state, ev)
        if after is not state:
            log.append({"event": ev.value, "to_state": after.value})
        state = after
    assert rebuild(log) is state


def test_rebuild_rejects_a_log_that_contradicts_the_table() -> None:
    with pytest.raises(ValueError, match="table says"):
        rebuild([{"event": "create", "to_state": "candidate"}, {"event": "redetect", "to_state": "resolved"}])
