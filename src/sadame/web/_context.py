"""What every request handler shares: the engine, the stores, the game and the trackers.

One :class:`WebContext` per app, kept on ``app.state.ctx``. It holds no state of
its own beyond caches of immutable things (loaded packs, Tracker objects per
tenant), so any number of processes can serve the same database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from sadame.judge import JudgeFallback
from sadame.web._game import GameService
from sadame.web._sessions import SessionStore
from sadame.web._settings import WebSettings
from sadame.web._store import GameStore, KeyStore

if TYPE_CHECKING:
    from sadame.track import Tracker

__all__ = ["WebContext"]

_TRACKER_CACHE = 64


class WebContext:
    """Engine, stores and services of one app instance."""

    def __init__(
        self, db_url: str, engine: Engine, settings: WebSettings, fallback: JudgeFallback | None
    ) -> None:
        self.db_url = db_url
        self.engine = engine
        self.settings = settings
        self.keys = KeyStore(engine)
        self.games = GameStore(engine, settings)
        self.sessions = SessionStore(engine, self.keys, settings)
        self.game = GameService(self.games, settings.packs, fallback,
                                max_questions=settings.max_questions, max_attempts=settings.max_attempts)
        self.quote_slots = threading.BoundedSemaphore(max(1, settings.quote_slots))
        self._trackers: OrderedDict[str, Tracker] = OrderedDict()
        self._lock = threading.Lock()

    def tracker(self, tenant: str) -> Tracker:
        """The ``sadame.track.Tracker`` for a tenant (all its data is scoped by it)."""
        from sadame.track import Tracker

        with self._lock:
            tracker = self._trackers.get(tenant)
            if tracker is None:
                # The schema was migrated when the app was created. Every tenant's tracker
                # shares the app's engine: one bounded pool per process, however many tenants.
                tracker = Tracker(self.db_url, tenant=tenant, upgrade=False, engine=self.engine)
                self._trackers[tenant] = tracker
                while len(self._trackers) > _TRACKER_CACHE:
                    _name, evicted = self._trackers.popitem(last=False)
                    evicted.close()
            else:
                self._trackers.move_to_end(tenant)
            return tracker
