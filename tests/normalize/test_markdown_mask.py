"""Markdown stripping's mask (only the lines that may change are stripped; inline rules cut
runs a match at a time) against its definition: every line stripped, each inline rule
applied to the positions the rules before it kept, a position at a time."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize._markdown import (
    _CODE,
    _LINE_MARKER,
    _changing_lines,
    markdown_gaps,
    markdown_keep,
    markdown_mask,
    markdown_strip_text,
)

# The inline rules as first written (the character each needs; each pattern's lookbehind
# first): the definition the module's faster forms must agree with.
_INLINE_AS_WRITTEN: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("[", re.compile(r"\[([^\[\]\n]+)\]\([^()\s]*\)")),
    ("*", re.compile(r"\*\*([^*\n]+)\*\*")),
    ("_", re.compile(r"__([^_\n]+)__")),
    ("~", re.compile(r"~~([^~\n]+)~~")),
    ("*", re.compile(r"(?<![0-9*])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?![0-9*])")),
    ("_", re.compile(r"(?<![A-Za-z0-9_])_([^_\s](?:[^_\n]*[^_\s])?)_(?![A-Za-z0-9_])")),
)


def _inline(text: str, start: int, end: int) -> list[int]:
    positions = list(range(start, end))
    segment = text[start:end]
    for trigger, pattern in _INLINE_AS_WRITTEN:
        if len(positions) < 2:
            break
        if trigger not in segment:
            continue
        drop: set[int] = set()
        for match in pattern.finditer(segment):
            drop.update(range(match.start(), match.start(1)))
            drop.update(range(match.end(1), match.end()))
        positions = [p for i, p in enumerate(positions) if i not in drop]
        segment = "".join(c for i, c in enumerate(segment) if i not in drop)
    return positions


def _definition(text: str) -> bytearray:
    kept: list[int] = []
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        marker = _LINE_MARKER.match(text, start, end)
        pos = marker.end() if marker and text[start : marker.end()].strip(" \t") else start
        for code in _CODE.finditer(text, pos, end):
            kept += _inline(text, pos, code.start())
            kept += range(code.start(1), code.end(1))
            pos = code.end()
        kept += _inline(text, pos, end)
        kept.append(end)  # the newline (past the end for the last line)
        start = end + 1
    mask = bytearray(len(text))
    for position in kept:
        if position < len(text):
            mask[position] = 1
    return mask


# What a line needs to change, as one pattern (the form _changing_lines splits in two).
_MAY_CHANGE = re.compile(r"^[ \t]*(?:>|#{1,6}[ \t]|[-*+][ \t]|[0-9]{1,9}[.)][ \t])|[\[*_~`]", re.MULTILINE)


def _lines_that_may_change(text: str) -> list[tuple[int, int]]:
    lines: list[tuple[int, int]] = []
    start = 0
    for line in text.split("\n"):
        if _MAY_CHANGE.search(text, start, start + len(line)) is not None:
            lines.append((start, start + len(line)))
        start += len(line) + 1
    return lines


PIECES = st.sampled_from(
    ["*", "**", "_", "__", "~", "~~", "`", "[", "]", "(", ")", "](", "#", "# ", "> ", ">", "- ", "+ ", "* ",
     "1. ", "2) ", " ", "\t", "\n", "安定", "性", "a", "B", "3", "x_y", "http://x", "\u3000"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(PIECES, max_size=40))
def test_mask_equals_its_definition(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert list(_changing_lines(text)) == _lines_that_may_change(text)
    expected = _definition(text)
    assert markdown_mask(text) == expected
    gone = bytearray(b"\x01") * len(text)
    for start, end in markdown_gaps(text):
        assert start < end
        gone[start:end] = bytes(end - start)
    assert gone == expected
    assert markdown_gaps(text) == sorted(markdown_gaps(text))
    assert list(markdown_keep(text)) == [i for i, flag in enumerate(expected) if flag]
    assert markdown_strip_text(text) == "".join(c for c, flag in zip(text, expected, strict=True) if flag)


def test_text_path_equals_the_mask_on_the_eval_sources() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "evals" / "quote"
    paths = sorted([*root.glob("sources/*.md"), *root.glob("hard_sources/*.md")])
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        mask = markdown_mask(text)
        assert markdown_strip_text(text) == "".join(c for c, flag in zip(text, mask, strict=True) if flag), path


def test_only_lines_that_may_change_are_touched() -> None:
    text = "漢字かな\n- **安定性**: 不足\n  字下げ\n1.5倍\n#見出しでない\n> 引用\n"
    mask = markdown_mask(text)
    assert "".join(c for c, flag in zip(text, mask, strict=True) if flag) == (
        "漢字かな\n安定性: 不足\n  字下げ\n1.5倍\n#見出しでない\n引用\n"
    )
    assert re.fullmatch(r"\x01+", bytes(markdown_mask("漢字\n" * 50)).decode())
