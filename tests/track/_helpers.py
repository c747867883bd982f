"""Test helpers shared by the tracker tests (not a test module)."""

from __future__ import annotations

from typing import Any

from sadame.track import Tracker, load_ruleset
from sadame.track._views import TrackerConfig

#: The lifecycle tests are written against the seed's keys.
SEED = load_ruleset("seed-example")


def tracker(db_url: str, **kwargs: Any) -> Tracker:
    """A tracker on the seed's ruleset unless the test gives one."""
    config = kwargs.pop("config", None) or TrackerConfig()
    kwargs.setdefault("ruleset", SEED)
    return Tracker(db_url, config=config, **kwargs)


def snapshot(t: Tracker, user: str) -> list[dict[str, Any]]:
    """Every issue of a user with its keys and detections (events excluded)."""
    out = []
    for view in t.list_issues(user, include_merged=True):
        detail = t.show(user, view.issue_id).to_dict()
        out.append({"issue": detail["issue"], "keys": detail["keys"],
                    "detections": [(d["session_id"], d["position"], d["issue_id"]) for d in detail["detections"]]})
    return out
