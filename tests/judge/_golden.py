"""Golden fact tables (tests/judge/data/facts_*.yaml): a small format-3 pack and its `cases`,
question -> verdict per puzzle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from sadame.judge import PuzzlePack, parse_table

DATA = Path(__file__).parent / "data"


def golden_table(name: str) -> tuple[PuzzlePack, list[tuple[str, str, str]]]:
    """The pack of ``data/<name>`` and its cases as ``(puzzle, question, verdict)`` rows."""
    raw: dict[str, Any] = yaml.safe_load((DATA / name).read_text("utf-8"))
    cases = raw.pop("cases")
    pack = parse_table(raw)
    assert isinstance(pack, PuzzlePack)
    return pack, [(puzzle, question, verdict) for puzzle, rows in cases.items() for question, verdict in rows]
