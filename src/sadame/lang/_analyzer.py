"""The analyzer: SudachiPy tokens with lemma, normalized form, reading and offsets.

Loaded on first use and shared by every thread (one ``Dictionary``; one tokenizer
per thread, because a Sudachi tokenizer keeps per-call state).
"""

from __future__ import annotations

import functools
import threading
import time
import tracemalloc
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from sadame._extras import missing_message
from sadame.normalize._steps import KANA_TABLE

__all__ = [
    "AnalyzerInfo",
    "AnalyzerUnavailable",
    "Token",
    "analyze",
    "analyzer_info",
    "analyzer_versions",
    "to_hiragana",
]

#: Texts longer than this are refused: the analyzer is for questions and findings,
#: and Sudachi's input limit is about 49,000 bytes per call.
MAX_ANALYZE_CHARS = 10_000

class AnalyzerUnavailable(RuntimeError):
    """SudachiPy or its dictionary is missing or too old (``pip install 'sadame[ja]'`` brings both)."""


#: The oldest SudachiPy whose API this module uses (0.7: ``Dictionary.tokenizer``), as in pyproject.
MIN_SUDACHIPY = (0, 7)


def _check_version(module: Any) -> None:
    """Refuse a SudachiPy older than :data:`MIN_SUDACHIPY` (installed with ``--no-deps`` or forced
    by another package) with one line, instead of an ``AttributeError`` deep in a tokenizer call."""
    version = str(getattr(module, "__version__", "0"))
    parts = tuple(int(p) if p.isdigit() else 0 for p in version.split(".")[:2])
    if parts < MIN_SUDACHIPY:
        raise AnalyzerUnavailable(
            f"SudachiPy {version} is installed, sadame needs 0.7 or newer: pip install 'sadame[ja]' "
            "(GiNZA 5 pins sudachipy<0.7: use separate environments)"
        )


@dataclass(frozen=True, slots=True)
class Token:
    """One morpheme, with offsets into the analyzed text (``text[begin:end] == surface``)."""

    surface: str
    lemma: str  #: dictionary form as written (``落ち`` -> ``落ちる``)
    normalized: str  #: Sudachi's normalized form: spelling variants unified (``シュミレーション`` -> ``シミュレーション``)
    reading: str  #: reading in hiragana (``しょうめいしょ``)
    pos: tuple[str, ...]  #: part of speech, Sudachi's six levels
    begin: int
    end: int
    #: Offsets strictly inside the token where Sudachi's short units (split mode A)
    #: begin (「電子レンジ」 -> ``(begin + 2,)``); filled for nouns of 3+ characters.
    parts: tuple[int, ...] = ()
    #: Not in the dictionary: Sudachi made it up from a run of characters
    #: (「デバッグログ」「エラーログ」 are one unknown katakana word).
    oov: bool = False

    @property
    def is_content(self) -> bool:
        """Nouns, verbs, adjectives and the like: words a rule can be about."""
        return self.pos[0] in _CONTENT_POS

    @property
    def is_symbol(self) -> bool:
        return self.pos[0] in ("補助記号", "空白")


_CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞", "副詞", "代名詞", "接頭辞", "連体詞"})


@dataclass(frozen=True, slots=True)
class AnalyzerInfo:
    """What was loaded and what it cost (measured once, at first load)."""

    sudachipy_version: str
    dictionary: str
    load_seconds: float
    load_bytes: int  #: Python-heap bytes allocated by the load (tracemalloc; the mmapped dictionary is extra)
    dictionary_version: str = "unknown"  #: the dictionary package's version (``20261015``)


class _Analyzer:
    def __init__(self) -> None:
        try:
            import sudachipy
            from sudachipy import Dictionary, SplitMode
        except ImportError:
            raise AnalyzerUnavailable(missing_message("ja", "SudachiPy")) from None
        _check_version(sudachipy)
        versions = analyzer_versions()
        if versions["sudachidict_core"] is None:
            raise AnalyzerUnavailable(missing_message("ja", "sudachidict_core"))
        traced = tracemalloc.is_tracing()
        if not traced:
            tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        started = time.perf_counter()
        try:
            self._dictionary: Any = Dictionary(dict="core")
        except Exception as exc:
            raise AnalyzerUnavailable(f"the Sudachi dictionary could not be loaded: {exc}") from exc
        self._mode: Any = SplitMode.C
        self._short: Any = SplitMode.A
        self._local = threading.local()
        self._local.tokenizer = self._dictionary.tokenizer(mode=self._mode)
        self._words: dict[tuple[int, str], tuple[Any, ...]] = {}
        seconds = time.perf_counter() - started
        allocated = tracemalloc.get_traced_memory()[0] - before
        if not traced:
            tracemalloc.stop()
        self.info = AnalyzerInfo(
            sudachipy_version=getattr(sudachipy, "__version__", "unknown"),
            dictionary="sudachidict_core",
            dictionary_version=versions["sudachidict_core"] or "unknown",
            load_seconds=seconds,
            load_bytes=max(0, allocated),
        )

    def tokenize(self, text: str) -> tuple[Token, ...]:
        tokenizer = getattr(self._local, "tokenizer", None)
        if tokenizer is None:
            tokenizer = self._local.tokenizer = self._dictionary.tokenizer(mode=self._mode)
        return tuple(self._token(m) for m in tokenizer.tokenize(text))

    def _token(self, m: Any) -> Token:
        begin, end = m.begin(), m.end()
        surface = m.surface()
        oov = m.is_oov()
        # What a dictionary word gives wherever it stands (its forms, part of speech and the
        # short units inside it, relative to its start), read from Sudachi once per word and
        # spelling: building them was most of the time of a token. Unknown words are read each time.
        found = None if oov else self._words.get((m.word_id(), surface))
        if found is None:
            pos = tuple(m.part_of_speech())
            rel: tuple[int, ...] = ()
            if end - begin >= 3 and pos[0] == "名詞":
                rel = tuple(sub.begin() - begin for sub in list(m.split(self._short))[1:])
            found = (m.dictionary_form(), m.normalized_form(), to_hiragana(m.reading_form()), pos, rel)
            if not oov:
                if len(self._words) >= _WORD_CACHE:
                    self._words.clear()
                self._words[(m.word_id(), surface)] = found
        lemma, normalized, reading, pos, rel = found
        # (positional: a frozen dataclass takes keywords slower)
        return Token(surface, lemma, normalized, reading, pos, begin, end,
                     tuple(begin + r for r in rel) if rel else (), oov)


#: Dictionary words whose readings :meth:`_Analyzer._token` keeps (cleared when full).
_WORD_CACHE = 50_000


def analyzer_versions() -> dict[str, str | None]:
    """The installed SudachiPy and dictionary versions (``None``: not installed), read from the
    package metadata without loading either. Natural-mode verdicts and the tracker's meaning
    depend on both, so ``sadame contract --json`` records them.

    >>> sorted(analyzer_versions())
    ['sudachidict_core', 'sudachipy']
    """
    found: dict[str, str | None] = {}
    for distribution in ("sudachipy", "sudachidict_core"):
        try:
            found[distribution] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            found[distribution] = None
    return found


_lock = threading.Lock()
_analyzer: _Analyzer | None = None


def _get() -> _Analyzer:
    global _analyzer
    if _analyzer is None:
        with _lock:
            if _analyzer is None:
                _analyzer = _Analyzer()
    return _analyzer


def analyze(text: str) -> tuple[Token, ...]:
    """Split ``text`` into morphemes (Sudachi split mode C: the longest units).

    Raises ``ValueError`` for a non-string or a text over ``MAX_ANALYZE_CHARS``.
    """
    if not isinstance(text, str):
        raise ValueError(f"analyze() takes a str, not {type(text).__name__}")
    if len(text) > MAX_ANALYZE_CHARS:
        raise ValueError(f"text too long to analyze: {len(text)} characters (limit {MAX_ANALYZE_CHARS})")
    if not text:
        return ()
    if len(text) <= _CACHED_CHARS:
        return _analyze_short(text)
    return _get().tokenize(text)


#: Texts up to this long are analyzed once per process while they stay among the last
#: :data:`_CACHED_TEXTS` (a tracker finding is read by several checks: its meaning, a return cue,
#: its key's subject, each of which used to run the analyzer on the same text again).
_CACHED_CHARS = 300
_CACHED_TEXTS = 4096


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _analyze_short(text: str) -> tuple[Token, ...]:
    return _get().tokenize(text)  # tokens are frozen: one tuple can be handed to every caller


def analyzer_info() -> AnalyzerInfo:
    """Load the analyzer if needed and say what it is and what loading it cost."""
    return _get().info


def to_hiragana(text: str) -> str:
    """Katakana to hiragana (ヷ-ヺ and ー are kept).

    >>> to_hiragana("タイムゾーン")
    'たいむぞーん'
    """
    return text.translate(KANA_TABLE)
