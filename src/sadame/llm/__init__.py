"""sadame.llm: the LLM tier behind the rules (off by default).

Rules first, always: the judge asks :class:`LLMFallback` only when no rule
matched, and the tracker asks :class:`LLMMatcher` only when normalization found
no existing issue. Both reduce the model's reply to a closed, validated answer
(a verdict of the table's answer set; an issue id from the candidate pool) and
turn every failure into "no answer" -- the model's text never reaches a player.

Providers: :class:`OpenAICompatProvider` (any OpenAI-compatible URL: OpenAI,
Gemini's compatible endpoint, Ollama, vLLM, llama.cpp, LM Studio) and
:class:`GeminiProvider` (``google-genai``, extra ``gemini``), configured by
``SADAME_LLM_*`` variables or a TOML file (:func:`load_config`).

>>> load_fallback_from_env(env={}) is None     # nothing configured: rules only
True
"""

from __future__ import annotations

from sadame._extras import require

require("llm", "track")

from sadame.llm._config import LLMConfig, load_config
from sadame.llm._errors import LLMError
from sadame.llm._fallback import load_fallback_from_env, load_matcher_from_env
from sadame.llm._matcher import LLMMatcher

# What a user calls. Everything else (prompt builders, parsers, the retry loop, the error
# subclasses) lives in the private modules and is reachable there for tests and experts.
__all__ = [
    "LLMConfig",
    "LLMError",
    "LLMMatcher",
    "load_config",
    "load_fallback_from_env",
    "load_matcher_from_env",
]
