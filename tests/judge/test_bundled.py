"""The data shipped in the package: the puzzle pack and the FAQ example table."""

from __future__ import annotations

import pytest

from sadame.judge import Judge, PuzzlePack, bundled_pack, bundled_table
from sadame.judge.authoring import lint_table
from sadame.judge.authoring._tools import run_examples
from sadame.judge.engine._loader import bundled_names


@pytest.fixture(scope="module")
def engineering() -> PuzzlePack:
    return bundled_pack("engineering")


def test_bundled_names() -> None:
    assert "engineering" in bundled_names("puzzles")
    assert "faq-routing" in bundled_names("tables")
    with pytest.raises(ValueError):
        bundled_names("other")


def test_engineering_pack_loads_and_is_lint_clean(engineering: PuzzlePack) -> None:
    assert engineering.name == "engineering"
    assert engineering.answers == ("YES", "NO", "IRRELEVANT", "UNCERTAIN")
    report = lint_table(engineering)
    assert [f.render() for f in report.findings] == []


def test_engineering_pack_examples_pass(engineering: PuzzlePack) -> None:
    report = run_examples(engineering)
    assert [f.render() for f in report.failures] == []
    assert report.total > 0


def test_engineering_pack_size(engineering: PuzzlePack) -> None:
    sizes = {p.id: (len(p.table.rules), len(p.examples)) for p in engineering.puzzles.values()}
    assert len(sizes) >= 12
    assert all(rules >= 15 and examples >= 8 for rules, examples in sizes.values()), sizes


def test_faq_routing_table() -> None:
    table = bundled_table("faq-routing")
    assert len(table.rules) >= 25 and len(table.examples) >= 20
    assert lint_table(table).findings == ()
    assert run_examples(table).ok
    assert Judge(table).ask("請求書を再発行してほしい").verdict == "BILLING"
