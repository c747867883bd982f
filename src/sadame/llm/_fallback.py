"""``LLMFallback``: the judge's fallback, asked only when no rule matched (seed 001, step 4).

Order of business on a rule miss:

1. the verdict cache (same table version, puzzle, normalized question, model):
   a hit answers with ``source="cache"`` and makes no LLM call;
2. the LLM, with :func:`build_judge_messages`; the reply is reduced to one
   answer of the table's closed set by :func:`parse_verdict` -- the reply text
   itself is dropped here and never reaches the player (the truth-leak guard);
3. a verdict is stored in the cache, so the next asker gets the same one.

Nothing raises to the player: a timeout, an HTTP error, an unreadable reply or
a broken cache gives ``verdict=None`` with a fixed ``reason`` (never model text),
which the judge shows as ``UNKNOWN``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from sadame.llm._cache import VerdictCache
from sadame.llm._config import LLMConfig, load_config
from sadame.llm._errors import (
    LLMError,
    LLMHTTPError,
    LLMResponseError,
    LLMTransportError,
    LLMUnavailable,
)
from sadame.llm._gemini import GeminiProvider
from sadame.llm._matcher import LLMMatcher
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._prompt import build_judge_messages, verdicts_for
from sadame.llm._provider import LLMProvider
from sadame.llm._types import PuzzleLike, TableLike
from sadame.llm._verdict import parse_verdict

if TYPE_CHECKING:
    from sadame.judge import FallbackAnswer, JudgeFallback
    from sadame.track import IssueMatcher

__all__ = ["LLMFallback", "load_fallback_from_env", "load_matcher_from_env", "make_provider", "reason_for"]

log = logging.getLogger("sadame.llm")


def make_provider(config: LLMConfig) -> LLMProvider:
    """The provider ``config`` describes (OpenAI-compatible URL, or native Gemini)."""
    if config.provider == "gemini":
        return GeminiProvider.from_config(config)
    return OpenAICompatProvider.from_config(config)


def reason_for(error: BaseException) -> str:
    """A fixed, player-safe description of a failure: no model text, no URL, no key."""
    if isinstance(error, LLMTransportError):
        return "LLM unreachable or timed out"
    if isinstance(error, LLMHTTPError):
        return f"LLM endpoint answered HTTP {error.status}"
    if isinstance(error, LLMResponseError):
        return "LLM answered with an unreadable response"
    if isinstance(error, LLMUnavailable):
        return "LLM provider not installed"
    if isinstance(error, LLMError):
        return f"LLM error ({type(error).__name__})"
    return f"LLM fallback failed ({type(error).__name__})"


def _answer(verdict: str | None, source: str, reason: str | None = None) -> FallbackAnswer:
    from sadame.judge import FallbackAnswer

    return FallbackAnswer(verdict=verdict, source="cache" if source == "cache" else "llm", reason=reason)


class LLMFallback:
    """Implements ``sadame.judge.JudgeFallback`` with an LLM provider and an optional verdict cache."""

    def __init__(
        self, provider: LLMProvider, *, cache: VerdictCache | None = None, max_tokens: int = 16
    ) -> None:
        self.provider = provider
        self.cache = cache
        self.max_tokens = max_tokens

    def __repr__(self) -> str:
        return f"LLMFallback(provider={self.provider!r}, cache={'on' if self.cache else 'off'})"

    def __call__(
        self, question: str, *, normalized: str, table: TableLike, puzzle: PuzzleLike | None
    ) -> FallbackAnswer:
        """The verdict for ``question`` on a rule miss (see the module docstring)."""
        if not normalized:
            return _answer(None, "llm", "empty question")
        puzzle_id = puzzle.id if puzzle is not None else None
        model = self.provider.model
        if self.cache is not None:
            try:
                cached = self.cache.get(
                    table_version=table.version, puzzle_id=puzzle_id, normalized=normalized, model=model
                )
            except Exception as exc:  # a broken cache must not break the game
                log.warning("verdict cache read failed: %s", type(exc).__name__)
                cached = None
            if cached is not None and cached in verdicts_for(table):
                return _answer(cached, "cache")
        try:
            reply = self.provider.complete(
                build_judge_messages(question, table, puzzle), max_tokens=self.max_tokens
            )
        except Exception as exc:
            reason = reason_for(exc)
            log.info("LLM fallback gave no verdict: %s", reason)
            return _answer(None, "llm", reason)
        verdict = parse_verdict(reply, verdicts_for(table))
        if verdict is None:
            return _answer(None, "llm", f"LLM reply was not one of {', '.join(verdicts_for(table))}")
        if self.cache is not None:
            try:
                verdict = self.cache.put(
                    table_name=table.name,
                    table_version=table.version,
                    puzzle_id=puzzle_id,
                    normalized=normalized,
                    question=question,
                    model=model,
                    verdict=verdict,
                )
            except Exception as exc:
                log.warning("verdict cache write failed: %s", type(exc).__name__)
        return _answer(verdict, "llm")


def load_fallback_from_env(
    *,
    env: Mapping[str, str] | None = None,
    db_url: str | None = None,
    cache: bool = True,
) -> LLMFallback | None:
    """The fallback the environment configures, or ``None`` when no LLM is configured.

    With ``None`` the judge runs exactly rules-only. The verdict cache lives in
    the project's database (``db_url``, else ``$SADAME_DB``, else ``sadame.db``);
    ``cache=False`` turns it off (every miss then asks the LLM).
    """
    config = load_config(env=env)
    if config is None:
        return None
    provider = make_provider(config)
    return LLMFallback(provider, cache=VerdictCache(db_url) if cache else None)


def load_matcher_from_env(*, env: Mapping[str, str] | None = None) -> LLMMatcher | None:
    """The tracker's semantic matcher the environment configures, or ``None`` (rules only).

    >>> load_matcher_from_env(env={}) is None
    True
    """
    config = load_config(env=env)
    if config is None:
        return None
    return LLMMatcher(make_provider(config))


if TYPE_CHECKING:  # mypy proves the classes satisfy the judge's and the tracker's protocols

    def _conforms(provider: LLMProvider) -> tuple[JudgeFallback, IssueMatcher]:
        return LLMFallback(provider), LLMMatcher(provider)
