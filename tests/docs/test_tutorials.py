"""The ``# =>`` examples of the tutorials and how-to pages run (every extra installed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from readme_examples import blocks, checked_source, run_file  # noqa: E402

PAGES = sorted([*(ROOT / "docs" / "tutorial").glob("*.md"), *(ROOT / "docs" / "howto").glob("*.md")])
WITH_EXAMPLES = [p for p in PAGES if any(b.language == "python" for b in blocks(p.read_text("utf-8")))]


def test_most_tutorials_have_examples() -> None:
    tutorials = [p for p in WITH_EXAMPLES if p.parent.name == "tutorial"]
    assert len(tutorials) >= 4


@pytest.mark.parametrize("page", WITH_EXAMPLES, ids=[p.name for p in WITH_EXAMPLES])
def test_the_examples_of_a_page_run(page: Path) -> None:
    ran, skipped = run_file(page, require_all=True)
    assert ran >= 1 and skipped == []


def test_an_arrow_after_nothing_is_an_error_not_a_pass() -> None:
    with pytest.raises(ValueError, match="follows no expression"):
        checked_source("# => 1\n")
    assert "__check(" in checked_source("1 + 1\n# => 2\n")
