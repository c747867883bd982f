"""Settings of the web service (what ``create_app`` may be told beyond the database URL)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sadame.judge import JudgeFallback

__all__ = ["DEFAULT_MAX_BODY_BYTES", "WebSettings"]

DEFAULT_MAX_BODY_BYTES = 1_000_000


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
    * ``cookie_secure``: mark cookies ``Secure`` (set it when served over HTTPS).
    * ``migrate``: apply the database migrations when the app is created.
    """

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    packs: tuple[str, ...] = ()
    judge_fallback: JudgeFallback | Literal["env"] | None = "env"
    cookie_secure: bool = False
    migrate: bool = True
