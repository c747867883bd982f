"""The s20p pass on problems lost (``tests/track/data/problems_lost.tsv``, issue 20): problems whose
words look like praise or progress, each class beside the improvements its rule must leave alone,
read by ``coaching-ja`` the way the tracker reads a finding."""

from __future__ import annotations

import pytest

from tests.track._helpers import assert_reads_as, golden_rows

CASES = golden_rows("problems_lost.tsv")


def test_each_class_has_problems_and_controls() -> None:
    by_class: dict[str, set[str]] = {}
    for cls, _, kind in CASES:
        by_class.setdefault(cls, set()).add(kind)
    assert all("problem" in kinds and len(kinds) > 1 for kinds in by_class.values()), by_class


@pytest.mark.parametrize(("cls", "text", "kind"), CASES)
def test_each_finding_reads_as_its_kind(cls: str, text: str, kind: str) -> None:
    assert_reads_as(text, kind, cls)
