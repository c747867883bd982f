"""The examples in sadame.quote's docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["sadame.quote", "sadame.quote._verify", "sadame.quote._gates", "sadame.quote._ground"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_grounding_flags_are_the_numeric_preset_up_to_its_numeric_step() -> None:
    from sadame.normalize import PRESETS, WhitespaceMode
    from sadame.quote import GROUNDING_FLAGS

    assert GROUNDING_FLAGS.nfkc and GROUNDING_FLAGS.markdown_strip
    assert not GROUNDING_FLAGS.numeric and GROUNDING_FLAGS.whitespace is WhitespaceMode.KEEP
    assert PRESETS["numeric"].numeric
