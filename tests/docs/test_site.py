"""The docs site builds offline with ``--strict`` and its CLI reference documents every command."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from sadame.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        found.append(path)
        if isinstance(command, click.Group):
            found.extend(_commands(command, path))
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return out


def test_every_command_is_in_the_cli_reference(site: Path) -> None:
    page = html.unescape(re.sub(r"<[^>]+>", " ", (site / "reference" / "cli" / "index.html").read_text("utf-8")))
    page = re.sub(r"\s+", " ", page)
    missing = [" ".join(p) for p in _commands(cli) if f"sadame {' '.join(p)}" not in page]
    assert missing == []


def test_the_api_reference_documents_the_front_door(site: Path) -> None:
    page = (site / "reference" / "api" / "index.html").read_text("utf-8")
    for name in ("sadame.normalize.normalize", "sadame.judge.Judge", "sadame.quote.verify_quote", "sadame.track.Tracker"):
        assert f'id="{name}"' in page, name


def test_every_markdown_page_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text("utf-8")
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert sorted(p for p in pages if f" {p}" not in config and f"- {p}" not in config) == []
