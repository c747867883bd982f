"""The READMEs: a landing page of at most 200 lines whose examples run, and a Japanese one in step.

``README.ja.md`` must have the same sections (as many ``##`` headings, in the same order of their
code), the same code blocks and the same measured figures as ``README.md``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from readme_examples import blocks, run_file  # noqa: E402

README = ROOT / "README.md"
README_JA = ROOT / "README.ja.md"
_FIGURE = re.compile(r"\d[\d,.]*(?:x| MB)?(?: / [\d,]+)?")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _sections(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("## ")]


def _measured(text: str) -> list[str]:
    """The figure column of the measured table (its rows end with a link to a docs page)."""
    rows = [line for line in text.splitlines() if re.match(r"\| .*\| \[\w+\]\(docs/[\w/.-]+\) \|$", line)]
    return [row.split("|")[2].strip() for row in rows]


def test_readme_is_a_landing_page() -> None:
    text = _text(README)
    assert len(text.splitlines()) <= 200
    assert "pip install sadame" in text
    quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)```", quickstart, re.S)
    assert commands == ["make run\nmake test\n"], "the Quickstart is exactly the two commands"


def test_readme_examples_run(tmp_path: Path) -> None:
    for path in (README, README_JA):
        ran, skipped = run_file(path, require_all=True)
        assert ran >= 4 and skipped == []


def test_the_japanese_readme_has_the_same_sections_examples_and_figures() -> None:
    en, ja = _text(README), _text(README_JA)
    assert len(_sections(en)) == len(_sections(ja))
    assert [b.code for b in blocks(en)] == [b.code for b in blocks(ja)]
    assert _measured(en) == _measured(ja) != []
    figures = sorted(_FIGURE.findall(" ".join(_measured(en))))
    assert figures == sorted(_FIGURE.findall(" ".join(_measured(ja))))


def test_every_local_link_of_the_readmes_exists() -> None:
    for path in (README, README_JA):
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", _text(path)):
            assert (ROOT / target).exists(), f"{path.name} links to missing {target}"


def test_the_changelog_has_a_section_for_this_version() -> None:
    import sadame

    assert f"## [{sadame.__version__}] - " in _text(ROOT / "CHANGELOG.md")


def test_every_measured_figure_is_on_the_page_it_links() -> None:
    """A headline figure is copied from its page; when the page's figure changes, so must the README's."""
    stale = []
    for line in _text(README).splitlines():
        link = re.search(r"\| \[\w+\]\((docs/[\w/.-]+)\) \|$", line)
        if link is None:
            continue
        page = _text(ROOT / link.group(1))
        figure = line.split("|")[2]
        stale += [(number, link.group(1)) for number in re.findall(r"\d[\d,.]*\d|\d", figure) if number not in page]
    assert stale == []
