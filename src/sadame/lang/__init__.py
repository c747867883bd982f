"""sadame.lang: Japanese analysis shared by the features that need meaning.

One lazily loaded morphological analyzer (SudachiPy with the ``sudachidict_core``
dictionary, both from PyPI, fully offline). Nothing here is imported by
``sadame.normalize``; the features (``judge``, ``track``) import it only when a
natural mode is used, so the seed modes, ``sadame --help`` and the normalize CLI
never pay for loading the dictionary.

>>> from sadame.lang import analyze
>>> [t.lemma for t in analyze("サーバーは落ちない")]
['サーバー', 'は', '落ちる', 'ない']
>>> [t.normalized for t in analyze("シュミレーション")]
['シミュレーション']
>>> [t.reading for t in analyze("証明書")]
['しょうめいしょ']
"""

from __future__ import annotations

from sadame.lang._analyzer import (
    AnalyzerInfo,
    AnalyzerUnavailable,
    Token,
    analyze,
    analyzer_info,
    analyzer_versions,
    to_hiragana,
)
from sadame.lang._findings import FindingTerms, content_terms, praise_is_negated, subject_before
from sadame.lang._polarity import is_negator, negations_after
from sadame.lang._question import Polarity, is_wh_question, question_polarity

__all__ = [
    "AnalyzerInfo",
    "AnalyzerUnavailable",
    "FindingTerms",
    "Polarity",
    "Token",
    "analyze",
    "analyzer_info",
    "analyzer_versions",
    "content_terms",
    "is_negator",
    "is_wh_question",
    "negations_after",
    "praise_is_negated",
    "question_polarity",
    "subject_before",
    "to_hiragana",
]
