"""The change forms of ``tests/track/data/change_forms.tsv`` (issue 20): how coaches report change
for the better, and the worsenings, losses and returns that must stay problems, read by
``coaching-ja`` the way the tracker reads a finding."""

from __future__ import annotations

import pytest

from sadame.track import default_ruleset
from sadame.track._ruleset import finding_kind
from tests.track._helpers import assert_reads_as, golden_rows

CASES = golden_rows("change_forms.tsv")


def test_the_golden_file_covers_every_kind_and_many_classes() -> None:
    kinds = {kind for _, _, kind in CASES}
    assert kinds == {"improvement", "praise", "problem"}
    assert len({cls for cls, _, _ in CASES}) >= 30


@pytest.mark.parametrize(("form", "text", "kind"), CASES)
def test_each_change_form_reads_as_its_kind(form: str, text: str, kind: str) -> None:
    assert_reads_as(text, kind, form)


#: Each pass's fresh sets and what it read of each after it (improvements recognised, problems lost):
#: a floor, so a later change that loses any of them fails here and must say so. ``problems``: the
#: pass counted every kind but improvement and praise as a problem. ``least``: the rows a set has.
FLOORS: dict[str, tuple[bool, int, dict[str, tuple[int, int]]]] = {
    "ninth_pass_fresh.tsv": (False, 25, {
        "set1": (30, 0), "set2": (26, 1), "set3": (26, 0), "set4": (25, 1), "set5": (24, 1), "set6": (25, 0),
        "set7": (19, 0), "set8": (16, 0), "set9": (21, 0), "set10": (15, 0), "set11": (12, 0),
        "set12": (11, 0), "final": (19, 1)}),
    "tenth_pass_fresh.tsv": (False, 9, {
        "cause": (7, 0), "improve": (11, 0), "residual": (4, 0), "scalar": (4, 0), "remove": (6, 0),
        "achieved": (2, 0), "kept": (0, 0), "refrain": (1, 0)}),
    "eleventh_pass_fresh.tsv": (False, 20, {
        "shift": (18, 0), "broad": (18, 0), "late": (12, 0), "fourth": (11, 0), "fifth": (8, 0)}),
    "precision_pass_fresh.tsv": (True, 13, {
        "s1": (4, 0), "s2": (4, 0), "s3": (4, 0), "s4": (3, 0), "s5": (3, 0), "s6": (4, 0), "s7": (3, 0),
        "s8": (3, 0), "s9": (3, 0), "s10": (3, 0), "s11": (3, 1), "s12": (3, 0), "s13": (1, 0),
        "s14": (2, 1), "s15": (2, 0)}),
    "twelfth_pass_fresh.tsv": (True, 7, {
        "t1": (2, 0), "t2": (1, 0), "t3": (1, 0), "t4": (2, 0), "t5": (2, 0), "t6": (2, 0), "t7": (2, 0)}),
}


@pytest.mark.parametrize(("file", "name"), [(f, n) for f, (_, _, floors) in FLOORS.items() for n in sorted(floors)])
def test_each_pass_s_fresh_sets_read_at_least_as_well_as_after_it(file: str, name: str) -> None:
    problems, least, floors = FLOORS[file]
    rows = [(text, "problem" if problems and kind not in ("improvement", "praise") else kind)
            for s, _, text, kind in golden_rows(file) if s == name]
    assert len(rows) >= least
    _assert_floor(name, rows, *floors[name])


def _assert_floor(name: str, rows: list[tuple[str, str]], least: int, most: int) -> None:
    """At least ``least`` improvements of ``rows`` read as improvements, at most ``most`` problems lost."""
    rs = default_ruleset()
    improved = sum(finding_kind(t, rs) == "improvement" for t, k in rows if k == "improvement")
    lost = sum(finding_kind(t, rs) != "problem" for t, k in rows if k == "problem")
    assert improved >= least and lost <= most, (name, improved, lost)
