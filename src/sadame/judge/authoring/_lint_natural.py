"""Lint checks for natural-mode tables and for leaks in notes and hints.

=====  =======  ===============================================================
code   level    meaning
=====  =======  ===============================================================
J101   warning  a word too short to mean one thing (one kana, one latin letter
                or digit)
J102   warning  the analyzer splits the word so that it never matches on token
                boundaries, even in 「<word>は関係ある？」 (e.g. a stem cut inside
                a noun); write the whole word
J103   warning  the word is shadowed: 「<word>は関係ある？」 gets another rule's
                different verdict
J104   warning  two different words share a reading, so that reading is not
                used for either (雨/飴: あめ); the kana spelling must be listed
J105   warning  a note names a solution word of another concept of this puzzle,
                or a solution word found in no other puzzle of the pack than
                its own (another puzzle's core)
J106   warning  a hint names a solution word
=====  =======  ===============================================================

Each check yields ``(code, message, rule)`` with ``rule`` None for puzzle-level
findings; :mod:`sadame.judge.authoring._tools` turns them into ``LintFinding``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sadame.judge.engine._model import Puzzle, PuzzlePack, Rule, RuleTable
from sadame.judge.engine._natural import fold, natural_match, natural_table

__all__: list[str] = []

Finding = tuple[str, str, Rule | None]


def _too_short(word: str) -> bool:
    """One kana, or one latin letter or digit (two-letter acronyms such as 「OS」「IP」
    are kept apart by token boundaries)."""
    folded = fold(word)
    return len(folded) == 1 and ("\u3041" <= folded <= "\u30ff" or (folded.isascii() and folded.isalnum()))


def _frames(word: str) -> tuple[str, str]:
    return f"{word}は関係ある？", f"{word}？"


def _alone(rule: Rule) -> RuleTable:
    return RuleTable("lint", (rule.answer,), (rule,), "lint", matching="natural")


def _word_findings(table: RuleTable, rule: Rule, word: str) -> Iterable[Finding]:
    if _too_short(word):
        yield "J101", f"any word {word!r} is very short: it may fire on questions about other things", rule
    alone = _alone(rule)
    if not any(natural_match(frame, alone).candidates for frame in _frames(word)):
        yield "J102", (f"any word {word!r} is split by the analyzer so that it never matches on token "
                       f"boundaries, even in {_frames(word)[0]!r}: write the whole word"), rule
        return
    outcome = natural_match(_frames(word)[0], table)
    other = outcome.hit
    if other is not None and other.rule.index != rule.index and other.verdict != rule.answer:
        yield "J103", (f"any word {word!r} is shadowed: {_frames(word)[0]!r} gets rule {other.rule.label} "
                       f"({other.verdict}, on {other.matched_word!r})"), rule


def natural_rule_findings(table: RuleTable) -> Iterable[Finding]:
    """J101-J104 for one natural-mode table."""
    for rule in table.rules:
        for word in rule.any:
            yield from _word_findings(table, rule, word)
    for reading, words in natural_table(table).dropped_readings():
        yield "J104", (f"words {', '.join(repr(w) for w in words)} all read {reading!r}: the reading is "
                       "ambiguous and not used; list the kana spelling under the word it means"), None


def _owned(rule: Rule, group: Sequence[str]) -> bool:
    mine = [fold(w) for w in rule.any]
    return any(g in m or m in g for g in (fold(w) for w in group) for m in mine)


def _text(puzzle: Puzzle) -> str:
    return fold(puzzle.statement + puzzle.truth + "".join(w for g in puzzle.solution for w in g))


def _distinctive(puzzle: Puzzle, pack: PuzzlePack) -> list[tuple[str, str]]:
    """(other puzzle id, word): solution words of other puzzles that occur in no
    puzzle's statement, truth or solution but their own -- that puzzle's core."""
    texts = {p.id: _text(p) for p in pack.puzzles.values()}
    found: list[tuple[str, str]] = []
    for other in pack.puzzles.values():
        if other.id == puzzle.id:
            continue
        for word in {w for g in other.solution for w in g}:
            folded = fold(word)
            if len(folded) >= 2 and sum(folded in t for t in texts.values()) == 1:
                found.append((other.id, word))
    return sorted(found)


def note_leaks(puzzle: Puzzle, pack: PuzzlePack) -> Iterable[Finding]:
    """J105: notes that give away another concept's words or another puzzle's."""
    foreign = _distinctive(puzzle, pack)
    for rule in puzzle.table.rules:
        if not rule.note:
            continue
        note = fold(rule.note)
        for g, group in enumerate(puzzle.solution):
            leaked = [w for w in group if len(fold(w)) >= 2 and fold(w) in note]
            if leaked and not _owned(rule, group):
                yield "J105", (f"note {rule.note!r} names {leaked[0]!r} of solution group {g}, "
                               "another concept than the rule's words"), rule
        for other, word in foreign:
            if fold(word) in note:
                yield "J105", f"note {rule.note!r} names {word!r}, a solution word of puzzle {other}", rule


def hint_leaks(puzzle: Puzzle) -> Iterable[Finding]:
    """J106: hints must not contain a solution group's words."""
    for h, hint in enumerate(puzzle.hints):
        folded = fold(hint)
        for g, group in enumerate(puzzle.solution):
            leaked = [w for w in group if len(fold(w)) >= 2 and fold(w) in folded]
            if leaked:
                yield "J106", f"hint {h + 1} names {leaked[0]!r} of solution group {g}", None
