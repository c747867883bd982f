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

from sadame.llm._cache import CachedVerdict, VerdictCache, VerdictRow, question_hash
from sadame.llm._config import ENV_PREFIX, LLMConfig, Secret, load_config
from sadame.llm._errors import (
    LLMConfigError,
    LLMError,
    LLMHTTPError,
    LLMResponseError,
    LLMTransportError,
    LLMUnavailable,
    redact,
)
from sadame.llm._eval import (
    EvalSetError,
    MatcherPair,
    MatcherReport,
    MatcherScore,
    NamedMatcher,
    evaluate_matchers,
    load_pairs,
)
from sadame.llm._fallback import (
    LLMFallback,
    load_fallback_from_env,
    load_matcher_from_env,
    make_provider,
    reason_for,
)
from sadame.llm._gemini import GeminiProvider, gemini_request
from sadame.llm._matcher import MATCH_SCHEMA, LLMMatcher, build_match_messages, parse_match
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._prompt import MAX_PROMPT_RULES, build_judge_messages, encode_untrusted
from sadame.llm._provider import (
    RETRYABLE_STATUS,
    ChatMessage,
    LLMProvider,
    RetryPolicy,
    call_with_retries,
    parse_retry_after,
    process_semaphore,
)
from sadame.llm._suggest import RuleSuggestion, render_suggestions, suggest_rules
from sadame.llm._verdict import JAPANESE_ANSWERS, parse_verdict

__all__ = [
    "ENV_PREFIX",
    "JAPANESE_ANSWERS",
    "MATCH_SCHEMA",
    "MAX_PROMPT_RULES",
    "RETRYABLE_STATUS",
    "CachedVerdict",
    "ChatMessage",
    "EvalSetError",
    "GeminiProvider",
    "LLMConfig",
    "LLMConfigError",
    "LLMError",
    "LLMFallback",
    "LLMHTTPError",
    "LLMMatcher",
    "LLMProvider",
    "LLMResponseError",
    "LLMTransportError",
    "LLMUnavailable",
    "MatcherPair",
    "MatcherReport",
    "MatcherScore",
    "NamedMatcher",
    "OpenAICompatProvider",
    "RetryPolicy",
    "RuleSuggestion",
    "Secret",
    "VerdictCache",
    "VerdictRow",
    "build_judge_messages",
    "build_match_messages",
    "call_with_retries",
    "encode_untrusted",
    "evaluate_matchers",
    "gemini_request",
    "load_config",
    "load_fallback_from_env",
    "load_matcher_from_env",
    "load_pairs",
    "make_provider",
    "parse_match",
    "parse_retry_after",
    "parse_verdict",
    "process_semaphore",
    "question_hash",
    "reason_for",
    "redact",
    "render_suggestions",
    "suggest_rules",
]
