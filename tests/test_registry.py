"""One home per concept: every place that lists presets, matching modes or statuses derives
from its registry (``sadame.normalize.PRESETS``, ``sadame.judge.MATCHING_MODES``,
``sadame.track.Status``, ``sadame.judge.game.GameStatus``), so none can drift from it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import click
import pytest

from sadame.cli import cli
from sadame.judge import MATCHING_MODES
from sadame.judge.game import GameStatus
from sadame.normalize import PRESETS
from sadame.track import Status
from sadame.web import create_app
from sadame.web.pages.quote import PRESET_LABELS
from tests.web.conftest import running


def _walk(node: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}/{i}")


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    url = f"sqlite:///{tmp_path_factory.mktemp('registry') / 'app.db'}"
    schema: dict[str, Any] = create_app(url).openapi()
    return schema


def _commands(group: click.Group, ctx: click.Context) -> Iterator[tuple[str, click.Command]]:
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from ((f"{name} {sub}", c) for sub, c in _commands(command, ctx))
        else:
            yield name, command


def _cli_options(name: str) -> list[tuple[str, click.Parameter]]:
    ctx = click.Context(cli)
    return [(cmd, p) for cmd, command in _commands(cli, ctx) for p in command.params if p.name == name]


def test_every_preset_schema_in_the_api_is_the_registry(openapi: dict[str, Any]) -> None:
    found = [(path, node) for path, node in _walk(openapi["components"]["schemas"])
             if path.endswith("/properties/preset")]
    assert len(found) >= 4  # normalize, quote verify and check, ...
    for path, node in found:
        assert node.get("enum") == list(PRESETS), path


def test_every_status_query_in_the_api_is_its_registry(openapi: dict[str, Any]) -> None:
    expected = {"/api/track/users/{user_id}/issues": [s.value for s in Status],
                "/api/puzzles": [s.value for s in GameStatus]}
    for route, values in expected.items():
        (param,) = [p for p in openapi["paths"][route]["get"]["parameters"] if p["name"] == "status"]
        schema = json.dumps(param["schema"])
        ref = [node for _, node in _walk(param["schema"]) if isinstance(node, dict) and "$ref" in node]
        if ref:
            name = ref[0]["$ref"].rsplit("/", 1)[1]
            schema = json.dumps(openapi["components"]["schemas"][name])
        assert sorted(json.loads(schema).get("enum", [])) == sorted(values), (route, schema)


def test_every_cli_preset_option_takes_the_registry() -> None:
    options = _cli_options("preset")
    assert len(options) >= 4
    for command, option in options:
        metavar = option.type.get_metavar(option, click.Context(cli)) or ""  # type: ignore[arg-type]
        assert metavar.startswith("[" + "|".join(sorted(PRESETS)) + "]"), command


def test_every_cli_status_option_is_the_registry() -> None:
    options = _cli_options("status")
    assert options
    for command, option in options:
        assert isinstance(option.type, click.Choice), command
        assert sorted(option.type.choices) == sorted(s.value for s in Status), command


def test_the_quote_page_offers_every_preset_of_the_registry() -> None:
    assert set(PRESET_LABELS) == set(PRESETS)


def test_every_matching_schema_is_the_registry() -> None:
    folder = resources.files("sadame.judge") / "schema"
    enums = []
    for item in folder.iterdir():
        if item.name.endswith(".json"):
            schema = json.loads(item.read_text("utf-8"))
            enums += [node["enum"] for path, node in _walk(schema)
                      if path.endswith("/matching") and isinstance(node, dict) and "enum" in node]
    assert enums
    for values in enums:
        assert sorted(values) == sorted(MATCHING_MODES)


def test_review_sides_use_the_judge_matching_modes() -> None:
    from sadame.review._spec import MATCHING_MODES as review_modes  # the registry, imported there

    assert review_modes is MATCHING_MODES


def test_every_preset_of_the_registry_works_on_every_route_and_page(sqlite_url: str) -> None:
    with running(sqlite_url) as server, server.client() as client:
        for preset in PRESETS:
            response = client.post("/api/normalize", json={"text": "ｷｬｯｼｭ", "preset": preset})
            assert response.status_code == 200, (preset, response.text)
            response = client.post("/api/quote/verify", json={"source": "ab", "quotes": ["a"], "preset": preset})
            assert response.status_code == 200, (preset, response.text)
        page = client.get("/quote").text
        for preset in PRESETS:
            assert f'value="{preset}"' in page, preset
        assert client.post("/api/normalize", json={"text": "x", "preset": "nope"}).status_code == 422
