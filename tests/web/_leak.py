"""Helpers for the no-spoiler tests: which strings must not reach a browser early."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

import sadame

PACK_FILE = Path(sadame.__file__).parent / "data" / "puzzles" / "engineering.yaml"


def raw_puzzle(puzzle_id: str) -> dict[str, Any]:
    """The puzzle exactly as written in the bundled pack file (words as the author typed them)."""
    data = yaml.safe_load(PACK_FILE.read_text(encoding="utf-8"))
    for puzzle in data["puzzles"]:
        if puzzle["id"] == puzzle_id:
            result: dict[str, Any] = puzzle
            return result
    raise KeyError(puzzle_id)


def secrets_of(puzzle_id: str, visible: str) -> tuple[list[str], list[str]]:
    """(truth lines, rule words) of a puzzle that a player has no legitimate way to see.

    Rule words that also occur in ``visible`` (the statement, titles, the player's own
    questions, notes ...) are left out: their presence proves nothing.
    """
    raw = raw_puzzle(puzzle_id)
    truth_lines = [line.strip() for line in raw["truth"].splitlines() if len(line.strip()) >= 6]
    words: set[str] = set()
    for rule in raw["rules"]:
        words.update(str(w) for w in rule.get("any", []))
        words.update(str(w) for w in rule.get("not", []) or [])
    for group in raw.get("solution", []):
        words.update(str(w) for w in group)
    hidden = sorted(w for w in words if len(w) >= 2 and not w.isascii() and w not in visible)
    return truth_lines, hidden


def leaks(bodies: list[str], truth_lines: list[str], words: list[str]) -> list[str]:
    """Every secret found in any body, as ``kind: text``."""
    found = []
    for body in bodies:
        found.extend(f"truth: {line}" for line in truth_lines if line in body)
        found.extend(f"rule word: {word}" for word in words if word in body)
    return sorted(set(found))


def listed_text() -> list[str]:
    """What the puzzle list shows by design for every bundled pack: pack titles and
    descriptions, puzzle titles (rule words inside them prove nothing)."""
    from sadame.judge import bundled_pack
    from sadame.judge.engine._loader import bundled_names

    shown: list[str] = []
    for name in bundled_names():
        pack = bundled_pack(name)
        shown += [pack.title, pack.description or "", *(p.title for p in pack.puzzles.values())]
    return shown
