"""Negation scope: which negators follow a word inside its clause.

This is the shared base; the judge (questions) and the tracker (findings) build
their polarity rules on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sadame.lang._analyzer import Token

__all__ = ["is_negator", "negations_after"]

# Auxiliary negators: ない (ない/無い), ぬ/ん/ず (normalized ず), and the noun 無し.
_NEGATOR_NORMALIZED = frozenset({"ない", "無い", "ず", "ぬ", "無し", "なし"})
# A clause ends at sentence punctuation or at a conjunction that starts a new predicate.
_CLAUSE_END_POS = frozenset({"補助記号"})
_CLAUSE_END_SURFACES = frozenset({"が", "けど", "けれど", "けれども", "し", "から", "ので", "のに"})


def is_negator(token: Token) -> bool:
    """True for a token that negates the predicate before it (ない, ぬ/ん, ず, 無し)."""
    if token.normalized not in _NEGATOR_NORMALIZED and token.lemma not in _NEGATOR_NORMALIZED:
        return False
    if token.pos[0] == "助動詞":
        return True
    if token.pos[0] == "形容詞" and token.pos[1] == "非自立可能":
        return True
    return token.pos[0] == "名詞" and token.lemma in ("無し", "なし")


def _ends_clause(token: Token) -> bool:
    if token.pos[0] in _CLAUSE_END_POS:
        return True
    return token.pos[0] == "助詞" and token.pos[1] == "接続助詞" and token.surface in _CLAUSE_END_SURFACES


def negations_after(tokens: Sequence[Token], index: int) -> list[int]:
    """Indexes of the negators after ``tokens[index]`` up to the end of its clause.

    >>> from sadame.lang import analyze
    >>> toks = analyze("改善が見られない")
    >>> negations_after(toks, 0)
    [4]
    >>> negations_after(analyze("関係なくない？"), 0)
    [1, 2]
    """
    found: list[int] = []
    for position in range(index + 1, len(tokens)):
        token = tokens[position]
        if _ends_clause(token):
            break
        if is_negator(token):
            found.append(position)
    return found
