"""Which issue an improvement finding improves, when its key names none.

「かかと着地は見られなくなった」 never shares a key with 「かかと着地が続いている」: the words that
say "it got better" are not the words of the problem. So an improvement whose key and aliases
link to nothing is compared with the user's open, candidate and resolved issues by the score
of :func:`sadame.track.similarity`; the best one at or above :data:`IMPROVEMENT_LINK_SCORE` is
the issue it improves (tier ``similar``). Such a link is evidence, not proof: it marks the
issue 改善 for the session and the issue is not counted as seen, so its misses run on toward
解決; only a link at or above the ruleset's ``improvement_match`` resolves it at once.

The same score links a problem that says it came back (また, 再び, ぶり返す) to the issue it is
the return of, whatever that issue's status (open, candidate, resolved, expired, ignored), but
never to an issue of the other polarity (praise or an improvement stored as an issue). Whether it
is a regression (再発) or a continuation (継続) is the lifecycle step's call: resolved, expired, or
not seen in the previous session is 再発.
"""

from __future__ import annotations

from collections.abc import Sequence

from sadame.track._matching import MatchCandidate
from sadame.track._ruleset import Ruleset, finding_kind
from sadame.track._similar import MERGE_OFFER_SCORE, similarity

__all__ = ["IMPROVEMENT_LINK_SCORE", "RETURN_STATUSES", "improved_issue", "returning_issue"]

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
    polarity = finding_kind(text, ruleset)
    same = [c for c in candidates if finding_kind(c.title, ruleset) == polarity]
    return improved_issue(text, same, RETURN_STATUSES)

