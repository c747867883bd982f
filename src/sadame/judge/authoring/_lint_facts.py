"""Lint for the facts of pack format 3 (warnings, as J101-J106).

* J107 a written fact on which no rule fires: it is about no thing the rules know,
  so it can never state a question's detail (name the thing as a rule word does);
* J108 a fact whose polarity cannot be read (written as a question, 「〜か？」): it can
  never answer; write it as one plain statement.
"""

from __future__ import annotations

from collections.abc import Iterable

from sadame.judge.authoring._lint_natural import Finding
from sadame.judge.engine._facts import fact_book
from sadame.judge.engine._model import RuleTable

__all__ = ["fact_findings"]


def fact_findings(table: RuleTable) -> Iterable[Finding]:
    """J107/J108 for the written facts of a format-3 table."""
    if not table.weighs_details:
        return
    book = fact_book(table)
    for fact in book.facts[: len(table.facts)]:
        if not fact.rules:
            yield "J107", f"fact {fact.text!r} fires no rule: name the thing as a rule word does", None
        if fact.polarity == "unclear":
            yield "J108", f"fact {fact.text!r} has no clear polarity: write one plain statement", None
