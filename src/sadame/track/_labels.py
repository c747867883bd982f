"""The tracker's labels catalogue: every Japanese state, marker and message of its UI.

One data file (``src/sadame/data/labels/tracker-ja.yaml``) holds them; the dashboard and the
CLI read them through :func:`tracker_labels`. A catalogue missing a status, marker, event or tier
the tracker can produce is a :class:`LabelsError` at load time, not a blank on a page.

>>> tracker_labels().markers["absent"][0]
'今回は指摘なし'
>>> tracker_labels().message("deferred_more", n=3)
'ほか 3 件は保留中'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sadame._datafile import DataFileError, load_file
from sadame.track._errors import TrackError
from sadame.track._lifecycle import Event, Status
from sadame.track._views import LinkTier

__all__ = ["LABELS_FILE", "MARKER_NAMES", "LabelsError", "TrackerLabels", "parse_labels", "tracker_labels"]

LABELS_FILE = Path(__file__).resolve().parent.parent / "data" / "labels" / "tracker-ja.yaml"
_FORMAT = "sadame.tracker-labels/1"
#: Markers :func:`sadame.track._queries.latest_markers` can return.
MARKER_NAMES = ("regressed", "new", "improved", "resolved", "continuing", "absent", "deferred")


class LabelsError(TrackError, ValueError):
    """A labels catalogue that is malformed or misses a name the tracker uses."""


@dataclass(frozen=True)
class TrackerLabels:
    """The catalogue, by section."""

    statuses: Mapping[str, str]
    markers: Mapping[str, tuple[str, str]]
    progress: Mapping[str, str]
    events: Mapping[str, str]
    tiers: Mapping[str, str]
    messages: Mapping[str, str]

    def message(self, name: str, **values: object) -> str:
        """A message with its ``{placeholders}`` filled."""
        return self.messages[name].format(**values)


def _section(data: Mapping[str, Any], name: str, required: tuple[str, ...]) -> dict[str, Any]:
    raw = data.get(name)
    if not isinstance(raw, Mapping) or not all(isinstance(k, str) for k in raw):
        raise LabelsError(f"labels: {name} must be a mapping")
    missing = [k for k in required if k not in raw]
    if missing:
        raise LabelsError(f"labels: {name} misses {', '.join(missing)}")
    return dict(raw)


def _strings(section: dict[str, Any], name: str) -> dict[str, str]:
    if not all(isinstance(v, str) and v for v in section.values()):
        raise LabelsError(f"labels: every {name} label must be a non-empty string")
    return section


def parse_labels(data: object) -> TrackerLabels:
    """Check and build a catalogue from parsed YAML."""
    if not isinstance(data, Mapping) or data.get("format") != _FORMAT:
        raise LabelsError(f"labels: format must be {_FORMAT!r}")
    markers = _section(data, "markers", MARKER_NAMES)
    if not all(isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) and x for x in v)
               for v in markers.values()):
        raise LabelsError("labels: every marker is [label, css class]")
    return TrackerLabels(
        statuses=_strings(_section(data, "statuses", tuple(s.value for s in Status)), "status"),
        markers={k: (v[0], v[1]) for k, v in markers.items()},
        progress=_strings(_section(data, "progress", ("improved", "absent", "resolved", "regressed")), "progress"),
        events=_strings(_section(data, "events", ("create", "split", "merge", "unmerge", *(e.value for e in Event))),
                        "event"),
        tiers=_strings(_section(data, "tiers", tuple(t.value for t in LinkTier)), "tier"),
        messages=_strings(_section(data, "messages", ("deferred_more", "no_merge_button", "regressions_banner")),
                          "message"),
    )


@functools.cache
def tracker_labels() -> TrackerLabels:
    """The bundled catalogue (loaded once)."""
    try:
        data = load_file(LABELS_FILE)
    except DataFileError as exc:
        raise LabelsError(f"{LABELS_FILE}: cannot load: {exc}") from None
    return parse_labels(data)
