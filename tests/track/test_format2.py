"""Ruleset format 2 (the bundled default) and the ruleset tooling: rules test, lint, suggest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sadame.cli import cli
from sadame.track import default_ruleset, is_positive, issue_key, load_ruleset, parse_ruleset
from sadame.track._errors import RulesetError
from sadame.track._meaning import finding_meaning
from sadame.track._rules import lint_ruleset, suggest_patterns, test_ruleset
from tests.track._helpers import SEED, tracker

RS = default_ruleset()


@pytest.mark.parametrize("text", ["安定性が向上していない", "良好とは言えない", "改善が見られない",
                                  "向上の余地がある", "対応は良好とは言い難い", "遅れがなくなっていない"])
def test_negated_praise_is_a_problem(text: str) -> None:
    assert not is_positive(text, RS)
    assert is_positive(text, SEED) or "遅れ" in text  # the seed's substring test drops most of them


@pytest.mark.parametrize("text", ["前回より良くなっている点は少ない", "ミスが少なくない", "前回の課題がまだ解消されていない"])
def test_hedged_praise_and_unresolved_problems_are_problems(text: str) -> None:
    assert not is_positive(text, RS)


@pytest.mark.parametrize("text", ["遅れがなくなった", "前回より安定性が向上しています", "踏み込みに問題はない",
                                  "特に大きな問題は見当たらない", "ミスが少ない",
                                  "前回の課題だった腕の振りの小ささが解消されている"])
def test_praise_is_praise(text: str) -> None:
    assert is_positive(text, RS)


def test_keys_keep_their_subject_and_ignore_markup() -> None:
    assert issue_key("踏み込みが弱い", RS) != issue_key("握力が弱い", RS)
    assert issue_key("踏み込みが弱い", RS) == issue_key("踏み込みの弱さ", RS) == "insufficient_control@踏み込み"
    assert issue_key("栄養バランスが悪い", RS) != issue_key("上半身のバランスが崩れている", RS)
    for marked in ("**踏み込みが弱い**", "- 踏み込みが弱い", "1. 踏み込みが弱い", "「踏み込みが弱い」", "### 踏み込みが弱い",
                   "2) **「踏み込みが弱い」**", "・踏み込みが弱い。"):
        assert issue_key(marked, RS) == "insufficient_control@踏み込み", marked
    for marked in ("**フォームが崩れる**", "1. フォームが崩れる", "「フォームが崩れる」"):  # no pattern word
        assert issue_key(marked, RS) == issue_key("フォームが崩れる", RS), marked
    for text in ("1.5倍遅い処理がある", "-5%の低下がある", "#3のバグが再発"):  # numbers, not list markers
        assert issue_key(text, RS) != issue_key(text[1:], RS), text


def test_a_finding_in_other_markup_is_read_once_with_the_same_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    from sadame.track import _ruleset
    from sadame.track._ruleset import finding_kind

    readings: list[str] = []

    def counted(text: str, positive: tuple[str, ...], negative: tuple[str, ...]) -> str:
        readings.append(text)
        return finding_meaning(text, positive, negative)

    monkeypatch.setattr(_ruleset, "finding_meaning", counted)
    _ruleset._meaning_short.cache_clear()
    fresh = parse_ruleset(RS.to_dict())  # empty per-text caches
    base = "前回の課題だった腕の振りの小ささが解消されている"
    variants = [base, f"**{base}**", f"1. 「{base}」", f"- {base}", f"課題：{base}"]
    kinds = {finding_kind(text, fresh) for text in variants}
    assert kinds == {"improvement"} and readings == [base]  # one reading for the five texts
    assert [finding_kind(text, fresh) for text in ("向上の余地がある", "**向上の余地がある**")] == ["problem"] * 2
    assert readings == [base, "向上の余地がある"]
    long = "、".join(["腕の振りが小さい"] * 40)  # longer than the kept texts: read each time, the same answer
    assert finding_kind(long, fresh) == finding_kind(f"**{long}**", fresh)
    assert sum(len(text) > 300 for text in readings) == 2


def test_format_2_fields_are_checked() -> None:
    data = RS.to_dict()
    assert data["format"] == "sadame.track-ruleset/2" and any(p.get("subject") for p in data["patterns"])
    assert parse_ruleset(data).version == RS.version  # examples are not part of the version
    v1 = SEED.to_dict()
    v1["patterns"][0]["subject"] = True
    with pytest.raises(RulesetError, match="unknown field"):
        parse_ruleset(v1)
    bad = {**data, "examples": {"keys": [{"text": "x"}]}}
    with pytest.raises(RulesetError, match=r"examples\.keys"):
        parse_ruleset(bad)
    with pytest.raises(RulesetError, match="subject must be true or false"):
        parse_ruleset({**data, "patterns": [{"token": "a", "words": ["x"], "subject": "yes"}]})


def test_rules_test_runs_the_examples_and_fails_on_a_wrong_one(tmp_path: Path) -> None:
    report = test_ruleset(RS)
    assert report.ok and report.passed >= 15
    raw = yaml.safe_load((Path(__file__).resolve().parents[2] / "src/sadame/data/rulesets/coaching-ja.yaml")
                         .read_text(encoding="utf-8"))
    raw["examples"]["same"].append(["踏み込みが弱い", "握力が弱い"])
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    broken = test_ruleset(load_ruleset(path))
    assert [f for f in broken.failures if "握力" in f] and not broken.ok
    out = CliRunner().invoke(cli, ["track", "rules", "test", str(path)])
    assert out.exit_code == 1 and "FAIL same key expected" in out.output
    assert CliRunner().invoke(cli, ["track", "rules", "test", "coaching-ja"]).exit_code == 0


TEXTS = ["踏み込みが弱い", "握力が弱い", "体幹が弱い", "フォームが崩れる", "フォームの崩れが大きい", "フォームが崩れやすい",
         "テンポが乱れる", "テンポの乱れ"]


def test_lint_reports_a_generic_token_merging_different_subjects() -> None:
    found = lint_ruleset(SEED, TEXTS)
    [f] = [f for f in found if f.token == "insufficient_control"]
    assert set(f.subjects) >= {"踏み込み", "握力", "体幹"} and f.findings == 3
    assert lint_ruleset(RS, TEXTS) == []  # format 2 keeps the subjects apart


def test_suggest_counts_uncovered_lemmas() -> None:
    found = {s.lemma: s.count for s in suggest_patterns(RS, TEXTS)}
    assert found["フォーム"] == 3 and found["テンポ"] == 2 and "踏み込み" not in found


def test_lint_and_suggest_read_the_tenants_findings(db_url: str) -> None:
    t = tracker(db_url, tenant="acme")
    t.ingest("u", "s1", TEXTS)
    assert [f.token for f in t.lint_ruleset()] == ["insufficient_control"]
    assert t.lint_ruleset(RS) == []
    out = CliRunner().invoke(cli, ["track", "rules", "suggest", "--db", db_url, "--tenant", "acme", "--json"])
    assert out.exit_code == 0, out.output
    assert {s["lemma"] for s in json.loads(out.output)} >= {"フォーム", "テンポ"}
