"""The public surface is deliberate: a change to any package's ``__all__`` must update
``tests/data/public_api.json`` and ``docs/guide/api.md`` in the same commit (and the CHANGELOG
when it removes a name). One list per module (its ``__all__``), one guard (this file).

Budget: at most 120 public names in all, of which ``sadame.judge`` with its game takes at most
30 (with ``sadame.judge.authoring`` and ``sadame.judge.game``; that package's own curation and test belong to the judge work) and ``sadame.quote`` at most
20; so every other module together stays within 90."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN: dict[str, list[str]] = json.loads(
    (Path(__file__).parent / "data" / "public_api.json").read_text(encoding="utf-8")
)
API_PAGE = Path(__file__).parents[1] / "docs" / "guide" / "api.md"
TOTAL_BUDGET, JUDGE_BUDGET, QUOTE_BUDGET = 120, 30, 20
#: Documented on their own pages and curated with the judge (see the module docstring).
JUDGE_MODULES = ("sadame.judge", "sadame.judge.authoring", "sadame.judge.game")
OTHERS = sorted(m for m in GOLDEN if m not in JUDGE_MODULES)


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


def test_the_surface_stays_within_its_budget() -> None:
    others = sum(len(GOLDEN[m]) for m in OTHERS)
    judge = sum(len(GOLDEN[m]) for m in JUDGE_MODULES)
    assert judge <= JUDGE_BUDGET, f"{judge} names in the judge's modules"
    assert others + JUDGE_BUDGET <= TOTAL_BUDGET, f"{others} names outside judge"
    assert others + judge <= TOTAL_BUDGET
    assert len(GOLDEN["sadame.quote"]) <= QUOTE_BUDGET


def _documented() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in API_PAGE.read_text(encoding="utf-8").splitlines():
        heading = re.fullmatch(r"## `([a-z_.]+)`", line)
        if heading:
            current = sections.setdefault(heading.group(1), [])
        elif current is not None and (row := re.match(r"\| `([A-Za-z_][A-Za-z0-9_]*)` \|", line)):
            current.append(row.group(1))
    return sections


def test_the_api_page_documents_every_exported_name_and_no_other() -> None:
    documented = _documented()
    assert sorted(documented) == OTHERS
    for module in OTHERS:
        assert documented[module] == GOLDEN[module], module


def _public_callables() -> list[tuple[str, object]]:
    found = []
    for module in OTHERS:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found.append((f"{module}.{name}", obj))
    return found


def test_db_url_comes_first_and_the_rest_by_keyword() -> None:
    checked = 0
    for name, obj in _public_callables():
        try:
            params = list(inspect.signature(obj).parameters.values())
        except (TypeError, ValueError):
            continue
        params = [p for p in params if p.name != "self"]
        db_url = next((p for p in params if p.name == "db_url"), None)
        if db_url is None:
            continue
        checked += 1
        if db_url.kind is db_url.KEYWORD_ONLY:
            continue  # keyword-only everywhere: no order to get wrong
        assert params[0] is db_url, name
        assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in params[1:]), name
    assert checked >= 5  # Tracker, create_app, create_key, list_keys, revoke_key, purge_sessions
