"""Game state storage: compare-and-set keeps every move when requests race."""

from __future__ import annotations

import threading
from typing import Any

from sadame.db import make_engine, upgrade
from sadame.web import GameStore, KeyStore


def test_concurrent_moves_are_never_lost(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    store = GameStore(engine)
    cookie, fresh = store.ensure_session(None)
    assert fresh and store.ensure_session(cookie) == (cookie, False)
    assert store.ensure_session("forged-cookie-that-was-never-issued")[0] != "forged-cookie-that-was-never-issued"

    def move(n: int) -> None:
        other = GameStore(make_engine(db_url))  # its own engine, like another app process

        def change(doc: dict[str, Any] | None) -> dict[str, Any]:
            doc = doc or {"history": [], "attempts": [], "solved": False, "gave_up": False}
            doc["history"].append(n)
            return doc

        for _ in range(5):
            other.update(cookie, "pack", "p", change)

    threads = [threading.Thread(target=move, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    state = store.load(cookie, "pack", "p")
    assert state is not None
    assert sorted(state["history"]) == sorted([n for n in range(4) for _ in range(5)])


def test_api_keys_name_their_tenant_until_revoked(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    keys = KeyStore(engine)
    created = keys.create_key("acme")
    assert keys.tenant_for_key(created.key) == "acme"
    assert keys.tenant_for_key(created.key + "x") is None
    assert keys.tenant_for_key("not-a-key") is None
