"""Settings of the web service (what ``create_app`` may be told beyond the database URL)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

from sadame.judge import JudgeFallback

__all__ = ["COOKIE_SECURE_ENV", "DEFAULT_MAX_BODY_BYTES", "WebSettings", "env_flag"]

DEFAULT_MAX_BODY_BYTES = 1_000_000
COOKIE_SECURE_ENV = "SADAME_COOKIE_SECURE"

_HOUR = 3600
_DAY = 24 * _HOUR


def env_flag(name: str) -> bool:
    """Whether environment variable ``name`` is set to a true value (1, true, yes, on)."""
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _cookie_secure_default() -> bool:
    return env_flag(COOKIE_SECURE_ENV)


@dataclass(frozen=True)
class WebSettings:
    """How the app behaves.

    * ``max_body_bytes``: request bodies above this size get 413 before any parsing.
    * ``packs``: puzzle packs to serve, bundled names (``engineering``) or file paths;
      empty (the default) serves every bundled pack.
    * ``judge_fallback``: ``"env"`` (the default) builds the LLM fallback that
      ``SADAME_LLM_*`` configures, or none when nothing is configured; pass a
      ``sadame.judge.JudgeFallback`` to use that one, or None for rules only. Without a
      fallback the game is rules-only and the AI toggle is hidden.
    * ``cookie_secure``: mark cookies ``Secure`` (set it when served over HTTPS; the
      default comes from ``SADAME_COOKIE_SECURE``).
    * ``migrate``: apply the database migrations when the app is created.
    * ``session_absolute`` / ``session_idle``: seconds a dashboard sign-in lasts at most,
      and without any request.
    * ``anonymous_ttl``: seconds after its last move an anonymous session (and its game
      states) is purged.
    * ``max_questions`` / ``max_attempts``: per browser and puzzle.
    * ``budget_window``, ``client_sessions``, ``client_questions``, ``client_attempts``:
      what one client address may create or ask per window (seconds), over all its
      cookies: new sessions, and questions and answers per puzzle.
    * ``client_daily_questions`` / ``client_daily_answers``: what one client address may ask
      and answer per window over all puzzles together. With the per-puzzle limits alone an
      address could store every puzzle's worth (about 0.5 GB a day over 73 puzzles); a player
      asks a few hundred questions a day, and these caps hold three players' worth.
    * ``trusted_origins``: origins (``https://example.org``) besides the request's own
      host that may post forms (a reverse proxy that rewrites ``Host``).
    * ``allowed_hosts``: host names (no port) the ``Host`` header may name; any other gets 400,
      so a DNS-rebinding page cannot reach the service. ``"*"`` allows any. The default is the
      loopback names; ``sadame serve --host`` adds the address it listens on.
    * ``trusted_proxies``: addresses or networks (``10.0.0.0/8``) of reverse proxies whose
      ``X-Forwarded-For`` names the client; from anyone else the header is ignored.
    * ``quote_slots``: quote checks that run at once in one process; more wait (up to
      ``quote_wait`` seconds, then 503), which bounds the memory of a worker.
    * ``metrics_key``: when set, ``/metrics`` needs ``Authorization: Bearer <key>``.
    """

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    packs: tuple[str, ...] = ()
    judge_fallback: JudgeFallback | Literal["env"] | None = "env"
    cookie_secure: bool = field(default_factory=_cookie_secure_default)
    migrate: bool = True
    session_absolute: int = 12 * _HOUR
    session_idle: int = 1 * _HOUR
    anonymous_ttl: int = 14 * _DAY
    max_questions: int = 300
    max_attempts: int = 100
    budget_window: int = _DAY
    client_sessions: int = 50
    client_questions: int = 900
    client_attempts: int = 300
    client_daily_questions: int = 1_500
    client_daily_answers: int = 500
    trusted_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
    trusted_proxies: tuple[str, ...] = ()
    quote_slots: int = 2
    quote_wait: float = 30.0
    metrics_key: str | None = field(default=None, repr=False)
