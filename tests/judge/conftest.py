"""Fixtures of the judge tests: the data files under tests/judge/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadame.judge import PuzzlePack, RuleTable, load_pack

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def seed_pack() -> PuzzlePack:
    return load_pack(DATA / "seed.yaml")


@pytest.fixture(scope="session")
def seed_table(seed_pack: PuzzlePack) -> RuleTable:
    return seed_pack.puzzle("prod-only-images").table


@pytest.fixture(scope="module")
def game_pack(data_dir: Path) -> PuzzlePack:
    """A small format-2 pack (hints, difficulty) for the game tests."""
    return load_pack(data_dir / "game.yaml")
