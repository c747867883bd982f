"""Issue keys and ids: the seed's table, and parity with the seed's TypeScript under Node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.track import is_positive, issue_id, issue_key, load_ruleset, parse_ruleset
from sadame.track._errors import RulesetError
from sadame.track._ruleset import issue_tokens, normalize_issue_text, strip_label
from tests.track._helpers import SEED

DATA = Path(__file__).parent / "data"
SEED_JS = Path(__file__).parent / "js" / "seed_issue.mjs"
NODE = "/usr/bin/node"


def _seed() -> dict[str, list[dict[str, object]]]:
    return json.loads((DATA / "seed_keys.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", _seed()["cases"], ids=lambda c: str(c["text"]))
def test_seed_table_keys(case: dict[str, str]) -> None:
    assert issue_key(case["text"], SEED) == case["key"]


@pytest.mark.parametrize("case", _seed()["positive"], ids=lambda c: str(c["text"]))
def test_seed_praise_is_positive(case: dict[str, object]) -> None:
    assert is_positive(str(case["text"]), SEED) is case["positive"]


def _corpus() -> list[str]:
    frags = json.loads((DATA / "key_fragments.json").read_text(encoding="utf-8"))
    rng = random.Random(5)
    texts: list[str] = []
    for body in frags["bodies"]:
        texts.append(body)
        for label in frags["labels"]:
            texts.append(label + body)
    while len(texts) < 900:
        text = rng.choice(frags["edges"])
        if rng.random() < 0.5:
            text += rng.choice(frags["labels"])
        text += rng.choice(frags["bodies"])
        if rng.random() < 0.4:
            text += rng.choice(["、", "。", " ", "/", ""]) + rng.choice(frags["bodies"])
        text += rng.choice(frags["edges"])
        texts.append(text)
    return texts


def _run_seed_js(texts: list[str]) -> list[dict[str, object]]:
    if not Path(NODE).exists() and shutil.which("node") is None:
        pytest.fail("Node.js is required for the seed parity test: install it (`make test` does) at /usr/bin/node")
    node = NODE if Path(NODE).exists() else str(shutil.which("node"))
    proc = subprocess.run(
        [node, str(SEED_JS)], input=json.dumps(texts), capture_output=True, text=True, encoding="utf-8",
        timeout=60, check=False,
    )
    assert proc.returncode == 0, f"seed JS failed: {proc.stderr}"
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_keys_ids_and_tokens_equal_the_seed_typescript_under_node() -> None:
    texts = _corpus()
    assert len(texts) >= 500
    expected = _run_seed_js(texts)
    rs = SEED
    mismatches = []
    for text, exp in zip(texts, expected, strict=True):
        key = issue_key(text, rs)
        got = {"key": key, "id": issue_id(key), "tokens": issue_tokens(text, rs)}
        want = {"key": exp["key"], "id": exp["id"], "tokens": exp["tokens"]}
        if got != want:
            mismatches.append((text, got, want))
    assert not mismatches, f"{len(mismatches)} texts differ from the seed, first: {mismatches[:3]!r}"


def test_praise_filter_equals_the_seed_on_normalization_stable_texts() -> None:
    # The seed tests praise on the raw text; we test the issue-normalized text, so we
    # compare on texts whose words are not changed by normalization (no half-width kana etc.).
    texts = [t for t in _corpus() if "ﾊﾞ" not in t and "ｱ" not in t and "Ｂ" not in t]
    expected = _run_seed_js(texts)
    rs = SEED
    diffs = [t for t, e in zip(texts, expected, strict=True) if is_positive(t, rs) is not e["positive"]]
    assert not diffs, diffs[:5]


def test_issue_id_is_40_hex_and_stable() -> None:
    assert issue_id("stability_issue") == issue_id("stability_issue")
    assert len(issue_id("x")) == 40 and int(issue_id("x"), 16) >= 0
    assert issue_id("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4"
    assert len(issue_id("\ud800")) == 40  # lone surrogate: no crash, U+FFFD like Node


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_a_label_never_changes_the_key(text: str) -> None:
    rs = SEED
    key = issue_key(text, rs)
    assert issue_key(text, rs) == key  # deterministic
    if normalize_issue_text(text, rs) and strip_label(text, rs) == text:
        for label in ("課題：", "改善ポイント:", "最優先改善点：　"):
            assert issue_key(label + text, rs) == key


def test_token_order_does_not_matter() -> None:
    rs = SEED
    assert issue_key("安定性が不足している", rs) == issue_key("不足しているのは安定性です", rs)


def test_version_is_a_digest_of_content(tmp_path: Path) -> None:
    rs = SEED
    assert len(rs.version) == 64
    again = parse_ruleset(rs.to_dict())
    assert again.version == rs.version
    changed = rs.to_dict()
    changed["patterns"][0]["words"].append("ふらつき")
    assert parse_ruleset(changed).version != rs.version
    path = tmp_path / "r.yaml"
    path.write_text(json.dumps(rs.to_dict(), ensure_ascii=False), encoding="utf-8")
    assert load_ruleset(path).version == rs.version


def test_regex_patterns_run_on_re2() -> None:
    data = SEED.to_dict()
    data["patterns"].append({"token": "speed_issue", "words": [], "regex": "速(さ|度)"})
    rs = parse_ruleset(data)
    assert issue_key("速度が出ない", rs) == "speed_issue"
    data["patterns"][-1]["regex"] = "(a"
    with pytest.raises(RulesetError, match="re2"):
        parse_ruleset(data)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="x"), "format"),
        (lambda d: d["patterns"][0].update(words=["、。"]), "normalizes to an empty string"),
        (lambda d: d["patterns"][0].update(token="Bad Token"), "token"),
        (lambda d: d["thresholds"].update(token_overlap=2), "token_overlap"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d["patterns"].append(dict(d["patterns"][0])), "defined twice"),
    ],
)
def test_bad_rulesets_are_clear_errors(mutate: object, message: str) -> None:
    data = SEED.to_dict()
    mutate(data)  # type: ignore[operator]
    with pytest.raises(RulesetError, match=message):
        parse_ruleset(data)


def test_missing_ruleset_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="cannot read"):
        load_ruleset(tmp_path / "nope.yaml")
    (tmp_path / "bad.yaml").write_text("a: [", encoding="utf-8")
    with pytest.raises(RulesetError, match="YAML"):
        load_ruleset(tmp_path / "bad.yaml")


def test_the_default_is_format_2_and_seed_example_stays_format_1() -> None:
    from sadame.track import default_ruleset

    assert (default_ruleset().name, default_ruleset().format_version) == ("coaching-ja", 2)
    assert SEED.format_version == 1 and SEED.to_dict()["format"] == "sadame.track-ruleset/1"
