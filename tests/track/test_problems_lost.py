"""The s20p pass on problems lost (``tests/track/data/problems_lost.tsv``, issue 20): problems whose
words look like praise or progress, each class beside the improvements its rule must leave alone,
read by ``coaching-ja`` the way the tracker reads a finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.track import default_ruleset
from sadame.track._ruleset import finding_kind

CASES = [
    tuple(line.split("\t"))
    for line in (Path(__file__).parent / "data" / "problems_lost.tsv").read_text("utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def test_each_class_has_problems_and_controls() -> None:
    by_class: dict[str, set[str]] = {}
    for cls, _, kind in CASES:
        by_class.setdefault(cls, set()).add(kind)
    assert all("problem" in kinds and len(kinds) > 1 for kinds in by_class.values()), by_class


@pytest.mark.parametrize(("cls", "text", "kind"), CASES)
def test_each_finding_reads_as_its_kind(cls: str, text: str, kind: str) -> None:
    got = finding_kind(text, default_ruleset())
    if kind == "praise":  # praise may read as progress; never as a problem
        assert got in ("praise", "improvement"), cls
    else:
        assert got == kind, cls
