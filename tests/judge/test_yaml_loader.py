"""The strict YAML loader on libyaml refuses what the pure-Python one refuses and reads
everything else the same."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sadame.judge import TableError
from sadame.judge.engine import _loader
from sadame.judge.engine._loader import parse_yaml

DATA = Path(_loader.__file__).resolve().parents[2] / "data"

REFUSED = {
    "duplicate key": "a: 1\na: 2\n",
    "anchor": "a: &x 1\nb: 2\n",
    "alias": "a: &x [1]\nb: *x\n",
    "bomb": "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n",
    "python tag": "a: !!python/object/apply:os.system [echo]\n",
    "unknown tag": "a: !custom 1\n",
    "non-scalar key": "? [1, 2]\n: x\n",
}


def test_libyaml_is_used_for_texts_without_anchors() -> None:
    assert _loader._StrictCLoader is not None and issubclass(_loader._StrictCLoader, yaml.CSafeLoader)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_both_loaders_refuse(name: str) -> None:
    text = REFUSED[name]
    with pytest.raises(TableError):
        parse_yaml(text)
    for loader in (_loader._StrictLoader, _loader._StrictCLoader):
        if "&" in text or "*" in text:
            continue  # only the pure-Python loader ever sees those
        with pytest.raises(yaml.YAMLError):
            yaml.load(text, Loader=loader)


def test_scalars_resolve_the_same_way() -> None:
    text = "a: YES\nb: on\nc: true\nd: 1.5\ne: 2026-01-01\nf: 0x10\ng: 42\nh: ~\ni: '7'\n"
    expected = {"a": "YES", "b": "on", "c": True, "d": "1.5", "e": "2026-01-01", "f": "0x10", "g": 42, "h": None,
                "i": "7"}
    for loader in (_loader._StrictLoader, _loader._StrictCLoader):
        assert yaml.load(text, Loader=loader) == expected
    assert parse_yaml(text) == expected


def test_bundled_files_read_the_same_with_both_loaders() -> None:
    files = sorted(DATA.glob("*/*.yaml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=_loader._StrictCLoader) == yaml.load(text, Loader=_loader._StrictLoader)


def test_schema_errors_in_any_rule_are_still_found_and_worded() -> None:
    from sadame.judge import parse_table

    rules = [{"id": f"r{i}", "any": [f"語{i}"], "answer": "YES"} for i in range(50)]
    table = {"format": "sadame.rules/1", "name": "t", "answers": ["YES", "NO"], "rules": rules}
    assert len(parse_table(table).rules) == 50
    for broken, field in (({"any": [], "answer": "YES"}, "any"), ({"any": ["x"], "answer": 3}, "answer"),
                          ({"any": ["x"], "answer": "YES", "extra": 1}, "extra"), ({"any": [True], "answer": "YES"}, "any"),
                          ({"id": "bad id", "any": ["x"], "answer": "YES"}, "id")):
        with pytest.raises(TableError) as caught:
            parse_table({**table, "rules": [*rules[:30], broken, *rules[30:]]})
        assert "rules[30]" in str(caught.value) or "rules.30" in str(caught.value) or field in str(caught.value)
