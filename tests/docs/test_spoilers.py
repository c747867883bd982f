"""No puzzle's answer appears in any doc or help text.

A text gives a puzzle away when one paragraph names the puzzle (its id, title or a piece of it) and holds a word of
every solution group (what ``check_answer`` would call correct), or when it repeats a sentence of
the puzzle's truth (真相). Checked over the READMEs, every page of docs/ and every command's --help.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.judge import Puzzle, bundled_pack
from sadame.judge.engine._loader import bundled_names
from sadame.normalize import normalize

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", ROOT / "README.ja.md", *(ROOT / "docs").rglob("*.md")])


@cache
def _puzzles() -> tuple[Puzzle, ...]:
    return tuple(p for name in bundled_names("puzzles") for p in bundled_pack(name).puzzles.values())


def _key(text: str) -> str:
    return normalize(text, preset="judge")


def _truth_sentences(puzzle: Puzzle) -> list[str]:
    sentences = re.split(r"[。\n]", puzzle.truth or "")
    return [_key(s) for s in sentences if len(s.strip()) >= 12]


def _names(puzzle: Puzzle) -> list[str]:
    """How a text can point at a puzzle: its id, its title, or a 3+ character piece of the title
    between kana (「氷の上の10円玉」 -> 10円玉)."""
    title = puzzle.title or ""
    pieces = [p for p in re.split(r"[\u3041-\u309f]+", title) if len(p) >= 3]
    return [_key(n) for n in (puzzle.id, title, *pieces) if n]


def spoiled(text: str) -> list[str]:
    """The puzzles that ``text`` gives away, each with the paragraph that does it."""
    found: list[str] = []
    paragraphs = [_key(p) for p in re.split(r"\n\s*\n", text)]
    whole = _key(text)
    for puzzle in _puzzles():
        names = _names(puzzle)
        solution = [[_key(w) for w in group] for group in puzzle.solution]
        for paragraph in paragraphs:
            if any(n in paragraph for n in names) and solution and all(
                any(w and w in paragraph for w in group) for group in solution
            ):
                found.append(f"{puzzle.id}: {paragraph[:120]!r}")
        found.extend(f"{puzzle.id} (truth): {s!r}" for s in _truth_sentences(puzzle) if s in whole)
    return found


def _helps(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = [prefix]
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            paths.extend(_helps(command, (*prefix, name)))
        else:
            paths.append((*prefix, name))
    return paths


def test_the_check_finds_a_spoiler() -> None:
    puzzle = _puzzles()[0]
    words = "、".join(group[0] for group in puzzle.solution)
    assert spoiled(f"{puzzle.id} の答えは {words}")
    assert spoiled(f"真相: {puzzle.truth}")
    assert not spoiled(f"{puzzle.id} を遊んでみよう")


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_no_doc_gives_an_answer_away(path: Path) -> None:
    assert spoiled(path.read_text(encoding="utf-8")) == []


def test_no_help_text_gives_an_answer_away() -> None:
    runner = CliRunner()
    texts = {" ".join(p): runner.invoke(cli, [*p, "--help"]).output for p in _helps(cli)}
    assert {name: spoiled(text) for name, text in texts.items() if spoiled(text)} == {}
