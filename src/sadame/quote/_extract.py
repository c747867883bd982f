"""Finding the quotes an LLM output makes (behind :func:`sadame.quote.check_output`).

Every kind of quote in one output is taken, in order of appearance:

* JSON: when the output (or the first fenced ```` ```json ```` block of it) is JSON,
  every string in a list under ``evidence_spans``, ``quotes``, ``evidence`` or
  ``citations`` (a string, or the ``quote`` / ``text`` / ``evidence`` / ``span`` of
  an object). Nothing else of a JSON output is a quote.
* Bracketed text: ``「…」``, ``『…』``, ``“…”`` and ``"…"`` (one line). Only the
  outermost pair counts: in ``「市長は『…』と述べた」`` the whole 「」 is the quote.
* Markdown block quotes: consecutive lines starting with ``>`` form one quote (joined
  with line breaks, markers removed); brackets inside a block quote are part of it.
* Only when none of the above is found: every non-empty line of the output.

At most :data:`MAX_QUOTES` quotes are taken (:func:`count_quotes` says how many the output
makes, the ones past the cap included). Every step is linear in the output (bracket pairs are
matched with one stack per bracket kind).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["MAX_QUOTES", "ExtractedQuote", "QuoteOrigin", "count_quotes", "extract_quotes"]

#: The most quotes taken from one output.
MAX_QUOTES = 1000

QuoteOrigin = Literal["json", "bracket", "blockquote", "line"]

_PAIRS = {"「": "」", "『": "』", "“": "”"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_ASCII_QUOTE = re.compile(r'"([^"\n]+)"')
_BLOCK_LINE = re.compile(r"^[ \t]*>[ \t]?(.*)$", re.MULTILINE)
_FENCE = re.compile(r"```(?:json)?[ \t]*\n(.*?)\n```", re.DOTALL)
_JSON_LISTS = ("evidence_spans", "quotes", "evidence", "citations")
_JSON_TEXT_KEYS = ("quote", "text", "evidence", "span")
_MAX_DEPTH = 20


@dataclass(frozen=True, slots=True)
class ExtractedQuote:
    """A quote found in an output: its text, what marked it, and where it starts in the output
    (-1 for JSON values)."""

    text: str
    origin: QuoteOrigin
    position: int

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "origin": self.origin, "position": self.position}


def _json_strings(node: Any, depth: int, found: list[str]) -> None:
    # every string is collected (references into the parsed JSON, linear in its size): the
    # caller keeps the first MAX_QUOTES and counts the rest
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _JSON_LISTS and isinstance(value, list):
                texts = (_json_item(item) for item in value)
                found.extend(text for text in texts if text is not None)
            else:
                _json_strings(value, depth + 1, found)
    elif isinstance(node, list):
        for item in node:
            _json_strings(item, depth + 1, found)


def _json_item(item: Any) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        for key in _JSON_TEXT_KEYS:
            if isinstance(item.get(key), str):
                return str(item[key])
    return None


def _from_json(output: str) -> list[ExtractedQuote] | None:
    """The quotes of a JSON output, or None when the output is not JSON."""
    candidates = [output]
    fence = _FENCE.search(output)
    if fence is not None:
        candidates.append(fence.group(1))
    for text in candidates:
        stripped = text.strip()
        if not stripped.startswith(("{", "[")):
            continue
        try:
            data = json.loads(stripped)
        except (ValueError, RecursionError):
            continue
        found: list[str] = []
        _json_strings(data, 0, found)
        return [ExtractedQuote(q, "json", -1) for q in found]
    return None


def _bracket_pairs(text: str, blocked: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Outermost (open, close) positions of 「」『』“” and one-line "" pairs outside ``blocked``."""
    stacks: dict[str, list[int]] = {opener: [] for opener in _PAIRS}
    pairs: list[tuple[int, int]] = []
    for i, char in enumerate(text):
        if char in stacks:
            stacks[char].append(i)
        elif char in _CLOSERS and stacks[_CLOSERS[char]]:
            pairs.append((stacks[_CLOSERS[char]].pop(), i))
    pairs.extend((m.start(), m.end() - 1) for m in _ASCII_QUOTE.finditer(text))
    pairs.sort(key=lambda pair: (pair[0], -pair[1]))
    outermost: list[tuple[int, int]] = []
    reach = -1
    block_index = 0
    for start, end in pairs:
        if start <= reach or end - start < 2:
            continue
        while block_index < len(blocked) and blocked[block_index][1] <= start:
            block_index += 1
        if block_index < len(blocked) and blocked[block_index][0] <= start:
            continue  # inside a block quote: the block quote is the quote
        outermost.append((start, end))
        reach = end
    return outermost


def _blockquotes(text: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of each run of consecutive ``>`` lines."""
    blocks: list[tuple[int, int, str]] = []
    current: list[str] = []
    start = end = -1
    for match in _BLOCK_LINE.finditer(text):
        if current and match.start() == end + 1:
            current.append(match.group(1))
        else:
            if current:
                blocks.append((start, end, "\n".join(current)))
            current, start = [match.group(1)], match.start()
        end = match.end()
    if current:
        blocks.append((start, end, "\n".join(current)))
    return [b for b in blocks if b[2].strip()]


def _all_quotes(output: str) -> list[ExtractedQuote]:
    if not isinstance(output, str):
        raise TypeError(f"output must be a str, got {type(output).__name__}")
    from_json = _from_json(output)
    if from_json is not None:
        return from_json
    blocks = _blockquotes(output)
    found = [ExtractedQuote(body, "blockquote", start) for start, _end, body in blocks]
    spans = [(start, end) for start, end, _body in blocks]
    for start, end in _bracket_pairs(output, spans):
        found.append(ExtractedQuote(output[start + 1 : end], "bracket", start))
    found.sort(key=lambda q: q.position)
    if not found:
        lines, pos = [], 0
        for line in output.splitlines(keepends=True):
            if line.strip():
                lines.append(ExtractedQuote(line.strip(), "line", pos))
            pos += len(line)
        found = lines
    return found


def count_quotes(output: str) -> tuple[list[ExtractedQuote], int]:
    """The quotes :func:`extract_quotes` takes (at most :data:`MAX_QUOTES`) and how many quotes
    ``output`` makes in all: more than taken when it passes the cap.

    >>> taken, total = count_quotes("「い」" * 1200)
    >>> len(taken), total
    (1000, 1200)
    """
    found = _all_quotes(output)
    return found[:MAX_QUOTES], len(found)


def extract_quotes(output: str) -> list[ExtractedQuote]:
    """The quotes ``output`` makes, by the rules of the module docstring.

    >>> [q.text for q in extract_quotes("要点は「在庫が不足している」です。\\n> 次回までに対応する")]
    ['在庫が不足している', '次回までに対応する']
    """
    return _all_quotes(output)[:MAX_QUOTES]
