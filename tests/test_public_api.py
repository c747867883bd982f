"""The public surface is deliberate: a change to any package's ``__all__`` must update
``tests/data/public_api.json`` in the same commit (and the CHANGELOG when it removes a name)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN: dict[str, list[str]] = json.loads(
    (Path(__file__).parent / "data" / "public_api.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("module_name", sorted(GOLDEN))
def test_exported_names_match_the_golden(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert sorted(module.__all__) == GOLDEN[module_name]


@pytest.mark.parametrize("module_name", sorted(GOLDEN))
def test_every_exported_name_resolves(module_name: str) -> None:
    module = importlib.import_module(module_name)
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing


def test_import_sadame_stays_light() -> None:
    code = (
        "import sys, sadame; sadame.normalize('x', preset='judge'); "
        "print(sorted(m for m in ('sqlalchemy', 'fastapi', 'httpx', 'ahocorasick') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_top_level_names_come_from_the_feature_packages() -> None:
    import sadame
    import sadame.judge
    import sadame.quote
    import sadame.track

    assert sadame.Judge is sadame.judge.Judge
    assert sadame.verify_quote is sadame.quote.verify_quote
    assert sadame.Tracker is sadame.track.Tracker
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        sadame.nope  # noqa: B018
