"""The web's game service on a real database: the stored state is the judge's GameState,
older documents still load, the list filters, and API errors are 4xx with Japanese messages."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from sadame.db import make_engine, upgrade
from sadame.judge.engine._errors import GameFinished
from sadame.judge.game import GameError, GameState, GameStatus, UnknownPuzzle
from sadame.web._game import GameService
from sadame.web._store import GameStore
from tests.web.conftest import LiveServer

PACK = Path(__file__).parents[1] / "judge" / "data" / "game.yaml"


@pytest.fixture
def service(db_url: str) -> tuple[GameService, GameStore]:
    engine = make_engine(db_url)
    upgrade(engine)
    store = GameStore(engine)
    return GameService(store, (str(PACK),)), store


def test_the_stored_document_is_a_game_state(service: tuple[GameService, GameStore]) -> None:
    game, store = service
    cookie, _fresh = store.ensure_session(None)
    game.ask(cookie, "game-test", "quiet-printer", "省エネ？")
    game.hint(cookie, "game-test", "quiet-printer")
    doc = store.load(cookie, "game-test", "quiet-printer")
    assert doc is not None
    state = GameState.from_dict(doc)
    assert state.hints_used == 1 and state.history[0][1].rule_id == "power-saving"
    view = game.view(cookie, "game-test", "quiet-printer")
    assert "rule" not in view["history"][0] and "power-saving" not in str(view), "no rule ids in the view"
    assert view["hints"] == [state.hints_shown(game.puzzle("game-test", "quiet-printer"))[0]]


def test_a_state_stored_by_the_old_web_game_still_loads(service: tuple[GameService, GameStore]) -> None:
    game, store = service
    cookie, _fresh = store.ensure_session(None)
    old = {"history": [{"question": "故障？", "verdict": "NO", "note": "故障ではありません", "source": "rules"}],
           "attempts": [{"answer": "節電", "correct": False, "matched": 1, "total": 2,
                         "message": "惜しい、2つのうち1つは合っています"}],
           "solved": False, "gave_up": True}
    store.update(cookie, "game-test", "quiet-printer", lambda _doc: old)
    view = game.view(cookie, "game-test", "quiet-printer")
    assert view["gave_up"] and view["history"][0]["label"] == "いいえ"
    assert view["attempts"][0]["message"] == "惜しい、2つのうち1つは合っています"
    game.restart(cookie, "game-test", "quiet-printer")
    assert game.view(cookie, "game-test", "quiet-printer")["status"] == "gave_up"
    listed = game.listing(cookie, status="gave_up")
    assert [e["id"] for p in listed for e in p["puzzles"]] == ["quiet-printer"]


def test_moves_that_are_refused(service: tuple[GameService, GameStore]) -> None:
    game, store = service
    cookie, _fresh = store.ensure_session(None)
    with pytest.raises(UnknownPuzzle, match="問題集"):
        game.view(cookie, "nope", "x")
    with pytest.raises(UnknownPuzzle, match="という問題はありません"):
        game.ask(cookie, "game-test", "nope", "x")
    with pytest.raises(GameError, match="途中"):
        game.restart(cookie, "game-test", "quiet-printer")
    with pytest.raises(GameError, match="ヒントがありません"):
        game.hint(cookie, "game-test", "late-bus")
    game.give_up(cookie, "game-test", "late-bus")
    with pytest.raises(GameFinished):
        game.answer(cookie, "game-test", "late-bus", "時刻表")
    with pytest.raises(GameError, match="という状態はありません"):
        game.listing(cookie, status="finished")


def test_concurrent_hints_are_each_counted_once(service: tuple[GameService, GameStore], db_url: str) -> None:
    game, store = service
    cookie, _fresh = store.ensure_session(None)
    taken: list[dict[str, Any]] = []
    errors: list[Exception] = []

    def take() -> None:
        other = GameService(GameStore(make_engine(db_url)), (str(PACK),))  # like another app process
        try:
            taken.append(other.hint(cookie, "game-test", "quiet-printer"))
        except GameError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(h["number"] for h in taken) == [1, 2, 3] and len(errors) == 1
    assert game.view(cookie, "game-test", "quiet-printer")["hints_used"] == 3


def test_api_hint_restart_and_list_filters(live_server: LiveServer) -> None:
    base = "/api/puzzles/engineering/rainy-lunch-server"
    with live_server.client() as client:
        assert client.get("/api/puzzles", params={"status": "finished"}).status_code == 422
        assert client.get("/api/puzzles", params={"pack": "nope"}).status_code == 404
        hint = client.post(f"{base}/hint")
        assert hint.status_code == 200 and hint.json()["number"] == 1
        assert client.post(f"{base}/restart").status_code == 409
        listed = client.get("/api/puzzles", params={"status": "in_progress"}).json()
        assert [(p["name"], [e["id"] for e in p["puzzles"]]) for p in listed if p["puzzles"]] == [
            ("engineering", ["rainy-lunch-server"])]
        engineering = next(p for p in listed if p["name"] == "engineering")
        assert engineering["puzzles"][0]["hints_used"] == 1
        client.post(f"{base}/give-up")
        again = client.post(f"{base}/restart")
        assert again.status_code == 200 and again.json()["history"] == [] and again.json()["status"] == "gave_up"
        late = client.post(f"{base}/give-up")
        assert late.json()["gave_up"], "giving up the replay works too"
        assert client.post(f"{base}/hint").status_code == 409
        page = client.get("/puzzles", params={"status": "nope"})
        assert page.status_code == 400 and "という状態はありません" in page.text


def test_the_list_built_on_the_unplayed_catalog_is_the_judges_catalog(db_url: str) -> None:
    """The web lists only the played puzzles again over a catalog built once: for every mix of
    states, pack and status filter, the result is what ``puzzle_catalog`` gives from scratch."""
    from sadame.judge.game import puzzle_catalog

    engine = make_engine(db_url)
    upgrade(engine)
    store = GameStore(engine)
    game = GameService(store, (str(PACK), "engineering"))
    packs = game.packs()
    first, *rest = list(packs["engineering"].puzzles)
    cookie, _fresh = store.ensure_session(None)
    game.ask(cookie, "game-test", "quiet-printer", "省エネ？")
    game.give_up(cookie, "engineering", first)
    game.ask(cookie, "engineering", rest[0], "事故？")
    states = game.played(cookie)
    assert len(states) == 3
    for pack in (None, "game-test", "engineering"):
        for status in (None, "unplayed", "in_progress", "solved", "gave_up"):
            expected = [c.to_dict() for c in puzzle_catalog(packs.values(), states, pack=pack,
                                                           status=None if status is None else GameStatus(status))]
            assert game.listing(cookie, pack, status) == expected, (pack, status)
            fresh = [c.to_dict() for c in puzzle_catalog(packs.values(), {}, pack=pack,
                                                        status=None if status is None else GameStatus(status))]
            assert game.listing(None, pack, status) == fresh, (pack, status)
    with pytest.raises(UnknownPuzzle):
        game.listing(cookie, "no-such-pack")
