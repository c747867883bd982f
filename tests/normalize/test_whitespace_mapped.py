"""The ``cjk`` whitespace mode's offsets (a keep-mask from one translate, a step per kept run)
against its definition: every whitespace run, kept as one space spanning the run or deleted
by :func:`_cjk_keeps_run`."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import _steps as S
from sadame.normalize._flags import WhitespaceMode
from sadame.normalize._presets import resolve_flags

FLAGS = resolve_flags("quote", None)


def _definition(m: S.Mapped) -> tuple[str, list[int], list[int]]:
    text = S._whitespace_text(m.text, FLAGS)
    starts: list[int] = []
    ends: list[int] = []
    runs = dict(S._changing_runs(m.text, True))
    i = 0
    while i < len(m.text):
        if i in runs:
            b = runs[i]
            if S._cjk_keeps_run(m.text, i, b):
                starts.append(m.starts[i])
                ends.append(max(m.ends[i:b]))
            i = b
            continue
        starts.append(m.starts[i])
        ends.append(m.ends[i])
        i += 1
    return text, starts, ends


@settings(max_examples=500, deadline=None)
@given(
    st.text(alphabet=" \n\t\u3000\u00a0ab漢字。1\U00020000", max_size=40),
    st.lists(st.integers(1, 3), min_size=40, max_size=40),
)
def test_cjk_mode_offsets_equal_their_definition(text: str, widths: list[int]) -> None:
    assert FLAGS.whitespace is WhitespaceMode.CJK
    m = S.Mapped(text, S.offsets(range(len(text))), S.offsets(i + widths[i] for i in range(len(text))))
    got = S._whitespace_mapped(m, FLAGS)
    assert (got.text, list(got.starts), list(got.ends)) == _definition(m)
