"""Test helpers shared by the tracker tests (not a test module)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sadame.track import Tracker, default_ruleset, load_ruleset
from sadame.track._ruleset import finding_kind
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


def golden_rows(file: str) -> list[tuple[str, ...]]:
    """The tab-separated rows of a golden file in ``tests/track/data`` (blank and ``#`` lines skipped)."""
    lines = (Path(__file__).parent / "data" / file).read_text("utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line.strip() and not line.startswith("#")]


def assert_reads_as(text: str, kind: str, label: str) -> None:
    """``coaching-ja`` reads ``text`` as ``kind`` the way the tracker reads a finding; praise may
    read as progress, never as a problem."""
    got = finding_kind(text, default_ruleset())
    if kind == "praise":
        assert got in ("praise", "improvement"), label
    else:
        assert got == kind, label
