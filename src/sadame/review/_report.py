"""What a contract diff found: every changed outcome, counted by kind, with examples."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHANGE_KINDS", "WORSE_KINDS", "Change", "DiffReport", "FileDiff"]

#: Every kind of changed outcome, with what it means for the user's data.
CHANGE_KINDS: dict[str, str] = {
    "newly_found": "a quote that was missing is now found",
    "newly_missing": "a quote that was found is now missing",
    "span_changed": "a quote is found under both, at a different place or with another status",
    "newly_grounded": "a number of a claim that was not grounded now is",
    "newly_ungrounded": "a number of a claim that was grounded no longer is",
    "verdict_flipped": "a question gets a different verdict",
    "newly_answered": "a question that got no verdict now gets one",
    "newly_unanswered": "a question that got a verdict now gets none",
    "newly_dropped": "a problem finding is now filtered out as praise (it would no longer be tracked)",
    "newly_tracked": "a finding that was filtered out as praise is now tracked as a problem",
    "keys_merged": "findings that had different issue keys now share one (their issues would merge)",
    "keys_split": "findings that shared an issue key now get different keys (their issue would split)",
    "key_renamed": "all findings of an issue key move to one new key (a new issue id, same grouping)",
}

#: The kinds of change each kind of file can show (reported with 0 when none occurred).
KINDS_BY_FILE: dict[str, tuple[str, ...]] = {
    "quote-eval": ("newly_found", "newly_missing", "span_changed"),
    "rule-table": ("verdict_flipped", "newly_answered", "newly_unanswered"),
    "tracker-export": ("keys_merged", "keys_split", "key_renamed", "newly_dropped", "newly_tracked"),
}

#: The kinds ``--fail-on`` accepts, by the short name a person types.
WORSE_KINDS: dict[str, str] = {
    "missing": "newly_missing",
    "ungrounded": "newly_ungrounded",
    "flipped": "verdict_flipped",
    "unanswered": "newly_unanswered",
    "dropped": "newly_dropped",
    "merged": "keys_merged",
    "split": "keys_split",
    "renamed": "key_renamed",
    "span": "span_changed",
}


@dataclass(frozen=True, slots=True)
class Change:
    """One outcome that differs between the two sides."""

    kind: str
    item: str  #: what changed: a case id and quote, a question, an issue key
    before: str
    after: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "item": self.item, "before": self.before, "after": self.after}


@dataclass(slots=True)
class FileDiff:
    """The outcomes of one input file under both sides."""

    path: str
    kind: str  #: quote-eval | llm-output | rule-table | tracker-export
    compared: int = 0  #: outcomes computed on each side
    changes: list[Change] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        return Counter(change.kind for change in self.changes)


@dataclass(slots=True)
class DiffReport:
    """Every changed outcome of every file, comparing ``before`` with ``after``."""

    before: str
    after: str
    files: list[FileDiff] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for diff in self.files:
            total.update(diff.counts())
        return total

    def worse(self, fail_on: set[str]) -> list[str]:
        """The ``--fail-on`` kinds (short names) that occurred."""
        counts = self.counts()
        return sorted(name for name in fail_on if counts.get(WORSE_KINDS[name], 0))

    def to_dict(self, max_examples: int = 5) -> dict[str, Any]:
        return {
            "before": self.before,
            "after": self.after,
            "counts": dict(sorted(self.counts().items())),
            "files": [
                {
                    "path": diff.path,
                    "kind": diff.kind,
                    "compared": diff.compared,
                    "counts": dict(sorted(diff.counts().items())),
                    "examples": _examples(diff, max_examples),
                }
                for diff in self.files
            ],
        }

    def to_json(self, max_examples: int = 5) -> str:
        return json.dumps(self.to_dict(max_examples), ensure_ascii=False, indent=2)

    def to_text(self, max_examples: int = 5) -> str:
        lines = [f"contract diff: {self.before} -> {self.after}"]
        for diff in self.files:
            summary = ", ".join(f"{kind} {n}" for kind, n in sorted(diff.counts().items())) or "no change"
            lines.append(f"{diff.path} [{diff.kind}]: {diff.compared} compared; {summary}")
            for kind, examples in _examples(diff, max_examples).items():
                for example in examples:
                    lines.append(f"  {kind}: {example['item']}")
                    lines.append(f"      before: {example['before']}")
                    lines.append(f"      after:  {example['after']}")
        return "\n".join(lines)

    def to_markdown(self, max_examples: int = 5) -> str:
        lines = [f"Comparing `{self.before}` (before) with `{self.after}` (after).", ""]
        kinds = sorted(set(self.counts()).union(*(KINDS_BY_FILE.get(d.kind, ()) for d in self.files)))
        header = "| file | kind | compared | " + " | ".join(kinds) + " |" if kinds else "| file | kind | compared |"
        lines += [header, "|" + "---|" * (3 + len(kinds))]
        for diff in self.files:
            counts = diff.counts()
            cells = [f"`{diff.path}`", diff.kind, str(diff.compared), *(str(counts.get(k, 0)) for k in kinds)]
            lines.append("| " + " | ".join(cells) + " |")
        for diff in self.files:
            for kind, examples in _examples(diff, max_examples).items():
                lines += ["", f"### `{diff.path}`: {kind} ({CHANGE_KINDS[kind]})", ""]
                for example in examples:
                    lines.append(f"- {_md(example['item'])}: {_md(example['before'])} → {_md(example['after'])}")
        return "\n".join(lines) + "\n"


def _examples(diff: FileDiff, limit: int) -> dict[str, list[dict[str, str]]]:
    found: dict[str, list[dict[str, str]]] = {}
    for change in diff.changes:
        bucket = found.setdefault(change.kind, [])
        if len(bucket) < limit:
            bucket.append(change.to_dict())
    return dict(sorted(found.items()))


def _md(text: str) -> str:
    return "`" + text.replace("`", "'").replace("\n", "⏎") + "`"
