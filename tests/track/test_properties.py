"""Invariants of the tracker over random session histories (hypothesis), on both databases.
Each example runs in its own tenant, which also exercises tenant isolation."""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sadame.track import SessionConflict, Tracker, is_positive, issue_key
from sadame.track._lifecycle import rebuild
from sadame.track._ruleset import normalize_issue_text
from sadame.track._views import TrackerConfig
from tests.track._helpers import SEED
from tests.track._workers import TEXTS

_TENANTS = itertools.count()
insight = st.one_of(
    st.sampled_from(TEXTS),
    st.builds(lambda t, c: {"text": t, "confidence": c}, st.sampled_from(TEXTS), st.floats(0, 1)),
)
history = st.lists(
    st.tuples(st.lists(insight, max_size=4), st.sampled_from([None, "ignore", "reopen"]), st.booleans()),
    min_size=1, max_size=8,
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history, st.integers(1, 3), st.integers(0, 2))
def test_invariants_hold_for_any_history(db_url: str, sessions: list, n_miss: int, k_new: int) -> None:
    config = TrackerConfig(miss_sessions_to_resolve=n_miss, max_new_per_session=k_new)
    t = Tracker(db_url, tenant=f"prop{next(_TENANTS)}", config=config, ruleset=SEED)
    rs = SEED
    expected: Counter[str] = Counter()
    for n, (insights, action, repeat) in enumerate(sessions):
        report = t.ingest("u", f"s{n}", insights, at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=n))
        if repeat:
            assert t.ingest("u", f"s{n}", insights).to_dict() == {**report.to_dict(), "replayed": True}
            with pytest.raises(SessionConflict):
                t.ingest("u", f"s{n}", [*insights, "別の指摘"])
        texts = [i if isinstance(i, str) else i["text"] for i in insights]
        expected.update({issue_key(x, rs) for x in texts if normalize_issue_text(x, rs) and not is_positive(x, rs)})
        assert len(report.new) <= k_new
        now = Counter(v.status for v in t.list_issues("u"))
        point = t.timeline("u")[-1]
        assert (point["open"], point["resolved"]) == (now["open"], now["resolved"])  # counters never drift
        views = t.list_issues("u")
        if action and views:
            # IllegalTransition is a ValueError: the tracker may refuse, never corrupt
            with contextlib.suppress(ValueError):
                getattr(t, action)("u", views[n % len(views)].issue_id)
    views = t.list_issues("u")
    assert {v.key: v.occurrence_count for v in views} == dict(expected)  # one issue per key, no lost counts
    for v in views:
        assert rebuild([e.to_dict() for e in t.show("u", v.issue_id).events]) == v.status
    t.close()
