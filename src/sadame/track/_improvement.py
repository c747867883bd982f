"""Which issue an improvement finding improves, when its key names none.

「かかと着地は見られなくなった」 never shares a key with 「かかと着地が続いている」: the words that
say "it got better" are not the words of the problem. So an improvement whose key and aliases
link to nothing is compared with the user's open, candidate and resolved issues by the score
of :func:`sadame.track.similarity`; the best one at or above :data:`IMPROVEMENT_LINK_SCORE` is
the issue it improves (tier ``similar``). Such a link is evidence, not proof: it marks the
issue 改善 for the session and the issue is not counted as seen, so its misses run on toward
解決; only a link at or above the ruleset's ``improvement_match`` resolves it at once.

When no issue scores that high, the improvement is linked by its **subject**
(:func:`subject_issue`): 「声の大きさは改善された」 shares one word with 「声が小さく聞き取りにくい」,
but what it is about (声 and the dimension 大きさ, of which 小さい is a pole) is all in the issue.
The words that only say "better" (the polarity lexicon's praise and change words) are left out,
the dimensions come from ``data/lang/dimensions-ja.yaml``, and only a single issue covering the
whole subject is linked, at the lowest linking score (evidence, never a resolution by itself).
One subject word must match strongly (a word, a part of two or more characters, or the issue's
words run together: 腕振り for 腕の振り), and an issue that is not a problem is never linked.

The same score links a problem that says it came back (また, 再び, ぶり返す) to the issue it is
the return of, whatever that issue's status (open, candidate, resolved, expired, ignored), but
never to an issue of the other polarity (praise or an improvement stored as an issue). Whether it
is a regression (再発) or a continuation (継続) is the lifecycle step's call: resolved, expired, or
not seen in the previous session is 再発.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sadame._datafile import DataFileError, load_file
from sadame.lang._findings import content_terms
from sadame.lang._lexicon import lexicon
from sadame.track._errors import TrackError
from sadame.track._matching import MatchCandidate
from sadame.track._ruleset import Ruleset, finding_kind
from sadame.track._similar import MERGE_OFFER_SCORE, similarity

__all__ = ["DIMENSIONS_FILE", "IMPROVEMENT_LINK_SCORE", "RETURN_STATUSES", "Dimensions", "DimensionsError",
           "dimensions", "improved_issue", "improvement_target", "parse_dimensions", "returning_issue",
           "subject_issue"]

DIMENSIONS_FILE = Path(__file__).resolve().parent.parent / "data" / "lang" / "dimensions-ja.yaml"
_DIMENSIONS_FORMAT = "sadame.dimensions/1"

#: The lowest similarity at which an improvement is linked to an issue (the calibrated score
#: below which a suggestion carries no merge button).
IMPROVEMENT_LINK_SCORE = MERGE_OFFER_SCORE
_STATUSES = frozenset({"open", "candidate", "resolved"})
#: Issues a finding that says "again" (また, 再び, ぶり返す) may be the return of: any status.
RETURN_STATUSES = frozenset({"open", "candidate", "resolved", "expired", "ignored"})


def improved_issue(text: str, candidates: Sequence[MatchCandidate],
                   statuses: frozenset[str] = _STATUSES) -> tuple[str, float] | None:
    """The candidate issue ``text`` most likely improves, and the score; None below the threshold."""
    best: tuple[float, str] | None = None
    for cand in candidates:
        if cand.status not in statuses:
            continue
        score = similarity([text], [cand.title])
        if score >= IMPROVEMENT_LINK_SCORE and (best is None or score > best[0]):
            best = (score, cand.issue_id)
    return None if best is None else (best[1], best[0])


def returning_issue(text: str, candidates: Sequence[MatchCandidate],
                    ruleset: Ruleset) -> tuple[str, float] | None:
    """For a problem that says it is back (「冒頭の自己紹介がまた長くなっている」) and whose key links
    nothing: the issue of the same polarity it most likely is, and the score, or None."""
    scored = sorted(((similarity([text], [c.title]), c.issue_id, c.title) for c in candidates
                     if c.status in RETURN_STATUSES), key=lambda s: (-s[0], s[1]))
    polarity = finding_kind(text, ruleset)  # read only for the few issues scored high enough
    for score, iid, title in scored:
        if score < IMPROVEMENT_LINK_SCORE:
            break
        if finding_kind(title, ruleset) == polarity:
            return iid, score
    return None


class DimensionsError(TrackError, ValueError):
    """The dimensions file is malformed."""


@dataclass(frozen=True)
class Dimensions:
    """Each word of a dimension mapped to its whole group, and the words that only say how it changed."""

    groups: Mapping[str, frozenset[str]]
    change_words: frozenset[str]


def _word_list(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(w, str) and w for w in value):
        raise DimensionsError(f"{DIMENSIONS_FILE.name}: {where} must be a non-empty list of words")
    return value


def parse_dimensions(data: object) -> Dimensions:
    """Check and build :class:`Dimensions` from the parsed data file."""
    if not isinstance(data, Mapping) or data.get("format") != _DIMENSIONS_FORMAT:
        raise DimensionsError(f"{DIMENSIONS_FILE.name}: format must be {_DIMENSIONS_FORMAT!r}")
    raw = data.get("dimensions")
    if not isinstance(raw, list):
        raise DimensionsError(f"{DIMENSIONS_FILE.name}: dimensions must be a list of word lists")
    groups: dict[str, frozenset[str]] = {}
    for n, words in enumerate(raw):
        group = frozenset(_word_list(words, f"dimensions[{n}]"))
        for word in group:
            groups[word] = groups.get(word, frozenset()) | group
    return Dimensions(groups, frozenset(_word_list(data.get("change_words"), "change_words")))


@functools.cache
def dimensions() -> Dimensions:
    """The bundled dimensions (loaded once)."""
    try:
        return parse_dimensions(load_file(DIMENSIONS_FILE))
    except DataFileError as exc:
        raise DimensionsError(f"{DIMENSIONS_FILE}: cannot load: {exc}") from None


@functools.cache
def _not_subject() -> frozenset[str]:
    """Words of an improvement that say it got better, not what did."""
    lex = lexicon()
    return (lex.better_words | lex.positive_states | lex.positive_nouns | lex.decrease_verbs | lex.increase_verbs
            | lex.growth_verbs | lex.success_verbs | lex.existence_verbs | lex.decrease_transitive
            | lex.past_words | dimensions().change_words)


def _strong(term: str, issue_words: frozenset[str]) -> bool:
    """``term`` is an issue word, a part of one of at least two characters, or the issue's words
    run together (腕振り for 腕の振り): a one-character part (指 of 指摘) may be chance."""
    return (term in issue_words or (len(term) >= 2 and any(term in word for word in issue_words))
            or _segments(term, issue_words))


def _segments(term: str, words: frozenset[str]) -> bool:
    """``term`` is two or more of ``words`` run together."""
    return any(term.startswith(w) and len(w) < len(term) and (term[len(w):] in words or _segments(term[len(w):], words))
               for w in words)


def _covered(subject: frozenset[str], issue_words: frozenset[str]) -> bool:
    """Every subject word is in the issue (as a word, a part of a compound, or a pole of its
    dimension), and at least one of them strongly (:func:`_strong`): a bare dimension names no topic."""
    groups, strong = dimensions().groups, False
    for term in subject:
        if _strong(term, issue_words):
            strong = True
        elif not (any(term in word for word in issue_words) or groups.get(term, frozenset()) & issue_words):
            return False
    return strong


def subject_issue(text: str, candidates: Sequence[MatchCandidate], statuses: frozenset[str] = _STATUSES,
                  ruleset: Ruleset | None = None) -> tuple[str, float] | None:
    """The one candidate issue whose words cover the subject of the improvement ``text``, linked
    at :data:`IMPROVEMENT_LINK_SCORE`; None when no issue or more than one does. With a
    ``ruleset``, an issue that is not a problem (praise or an improvement stored as an issue) is never it."""
    subject = content_terms(text).lemmas - _not_subject()
    if not subject:
        return None
    found = {c.issue_id: c.title for c in candidates
             if c.status in statuses and _covered(subject, content_terms(c.title).lemmas)}
    if ruleset is not None:
        found = {iid: title for iid, title in found.items() if finding_kind(title, ruleset) == "problem"}
    return (next(iter(found)), IMPROVEMENT_LINK_SCORE) if len(found) == 1 else None


def improvement_target(text: str, candidates: Sequence[MatchCandidate],
                       ruleset: Ruleset | None = None) -> tuple[str, float] | None:
    """The issue an improvement whose key links nothing improves: by score, else by subject."""
    return improved_issue(text, candidates) or subject_issue(text, candidates, ruleset=ruleset)
