"""The judge preset's one-translate path gives exactly NFKC + lower-case + the fused table."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import normalize
from sadame.normalize._core import _FAST_AFTER, _JUDGE_SHAPED


def _warm() -> list[int | None]:
    for _ in range(_FAST_AFTER + 1):
        normalize("x", preset="judge")
    shaped = _JUDGE_SHAPED["judge"]
    assert shaped.search is not None  # the fast path is built and in use
    return shaped.table


def _slow(text: str, table: list[int | None]) -> str:
    return unicodedata.normalize("NFKC", text).lower().translate(table)  # noqa: SDM001 - the reference


def test_every_bmp_character_alone_and_in_context() -> None:
    table = _warm()
    for cp in range(0x10000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        char = chr(cp)
        for text in (char, "a" + char, char + "\u0301", "Σ" + char, char + "\u3099", "ｶ" + char):
            assert normalize(text, preset="judge") == _slow(text, table), hex(cp)


ALPHABET = st.sampled_from(list("ａＡ１ｱｶﾞﾞﾟ…・　 \tΣσＳßİ㈱①Å\u0301\u3099한\u1161\u11a8𠮷ﬁ？！。、「」ｷｬｯｼｭ")) | st.characters()


@settings(max_examples=500, deadline=None)
@given(st.lists(ALPHABET, max_size=30).map("".join))
def test_random_texts(text: str) -> None:
    table = _warm()
    assert normalize(text, preset="judge") == _slow(text, table)
