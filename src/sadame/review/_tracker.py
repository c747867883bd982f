"""Tracker exports under both sides: which issue keys a ruleset change would merge or split."""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sadame._datafile import read_jsonl
from sadame.review._report import Change, FileDiff
from sadame.review._spec import Side
from sadame.track import Ruleset, is_positive, issue_key, load_ruleset, parse_ruleset

__all__ = ["diff_tracker_export", "is_tracker_export"]


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    for _, row in read_jsonl(path):
        if isinstance(row, dict):
            yield row


def is_tracker_export(path: Path) -> bool:
    """True for a ``sadame track export`` file (JSON lines with a ``type`` field)."""
    try:
        with path.open(encoding="utf-8") as handle:
            first = next((line for line in handle if line.strip()), "")
        row = json.loads(first)
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(row, dict) and row.get("type") in {"ruleset", "session", "issue", "key", "detection", "event"}


def _pinned_ruleset(rows: list[dict[str, Any]], path: Path) -> Ruleset:
    pinned = [r for r in rows if r.get("type") == "ruleset" and r.get("active")] or [
        r for r in rows if r.get("type") == "ruleset"
    ]
    if not pinned:
        raise ValueError(f"{path}: the export holds no ruleset; name one with ruleset= on both sides")
    return parse_ruleset(pinned[-1]["content"], source=f"{path} (pinned ruleset)")


def _findings(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(user, text) of every stored problem finding (kind ``issue``), in export order."""
    found: dict[tuple[str, str], None] = {}
    for row in rows:
        if row.get("type") == "detection" and row.get("kind", "issue") == "issue" and isinstance(row.get("text"), str):
            found[(str(row.get("user_id")), row["text"])] = None
    return list(found)


def _keys(findings: list[tuple[str, str]], ruleset: Ruleset) -> dict[tuple[str, str], str]:
    """(user, text) -> issue key, for every finding the ruleset does not filter out as praise."""
    return {f: issue_key(f[1], ruleset) for f in findings if not is_positive(f[1], ruleset)}


def _praise_changes(old: dict[tuple[str, str], str], new: dict[tuple[str, str], str]) -> list[Change]:
    changes = [Change("newly_dropped", f"{u}: {t}", old[(u, t)], "(praise: not tracked)")
               for (u, t) in old if (u, t) not in new]
    changes += [Change("newly_tracked", f"{u}: {t}", "(praise: not tracked)", new[(u, t)])
                for (u, t) in new if (u, t) not in old]
    return changes


def _regroup(old: dict[tuple[str, str], str], new: dict[tuple[str, str], str]) -> list[Change]:
    forward: dict[tuple[str, str], set[str]] = defaultdict(set)  # (user, old key) -> new keys
    backward: dict[tuple[str, str], set[str]] = defaultdict(set)  # (user, new key) -> old keys
    for (user, text), old_key in old.items():
        if (user, text) in new:
            forward[(user, old_key)].add(new[(user, text)])
            backward[(user, new[(user, text)])].add(old_key)
    changes: list[Change] = []
    for (user, new_key), old_keys in sorted(backward.items()):
        if len(old_keys) > 1:
            changes.append(Change("keys_merged", f"{user}: {new_key}", " | ".join(sorted(old_keys)), new_key))
    for (user, old_key), new_keys in sorted(forward.items()):
        if len(new_keys) > 1:
            changes.append(Change("keys_split", f"{user}: {old_key}", old_key, " | ".join(sorted(new_keys))))
        elif (new_key := next(iter(new_keys))) != old_key and len(backward[(user, new_key)]) == 1:
            changes.append(Change("key_renamed", f"{user}: {old_key}", old_key, new_key))
    return changes


def diff_tracker_export(path: Path, before: Side, after: Side) -> FileDiff:
    """Recompute every stored finding's key under both sides' rulesets and compare the grouping."""
    rows = list(_rows(path))
    findings = _findings(rows)
    pinned = functools.cache(lambda: _pinned_ruleset(rows, path))  # parsed once, only if a side needs it
    old_rules = load_ruleset(before.ruleset) if before.ruleset else pinned()
    new_rules = load_ruleset(after.ruleset) if after.ruleset else pinned()
    old, new = _keys(findings, old_rules), _keys(findings, new_rules)
    diff = FileDiff(str(path), "tracker-export", compared=len(findings))
    diff.changes = _praise_changes(old, new) + _regroup(old, new)
    return diff
