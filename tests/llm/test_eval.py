"""The labelled matcher set and its evaluation (rules-only and LLM matchers)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from sadame.llm import LLMMatcher
from sadame.llm._eval import EvalSetError, evaluate_matchers, load_pairs
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm.testing import FakeOpenAIServer, RecordedRequest, Reply
from sadame.track import issue_key, load_ruleset
from tests.llm.conftest import FAST

ROOT = Path(__file__).resolve().parents[2]
PAIRS = ROOT / "evals" / "matcher" / "pairs.jsonl"
KNOWN = ROOT / "evals" / "matcher" / "known_rule_merges.jsonl"


def test_the_set_is_big_balanced_and_multi_domain() -> None:
    pairs = load_pairs(PAIRS)
    assert len(pairs) >= 150
    domains = Counter(p.domain for p in pairs)
    assert len(domains) >= 3 and min(domains.values()) >= 30
    labels = Counter(p.same for p in pairs)
    assert labels[True] >= 60 and labels[False] >= 60
    assert sum(1 for p in pairs if p.purpose == "improvement") >= 10
    assert len({(p.a, p.b) for p in pairs}) == len(pairs)


def test_rules_only_never_merges_different_issues() -> None:
    report = evaluate_matchers(load_pairs(PAIRS))
    rules = report.score("rules-only")
    assert rules.fp == 0, rules.false_merge_ids
    assert rules.false_merge_rate == 0.0
    assert rules.precision == 1.0 and rules.tp >= 1


def test_known_rule_merges_are_real_merges_of_the_seed_ruleset() -> None:
    """Kept apart and honest: pairs the seed ruleset does merge although they differ."""
    rs = load_ruleset("seed-example")
    for pair in load_pairs(KNOWN):
        assert not pair.same
        assert issue_key(pair.a, rs) == issue_key(pair.b, rs), pair.id


def _oracle(labels: dict[str, tuple[bool, float]]) -> object:
    """A scripted model that answers from the labels with a fixed confidence per finding."""

    def answer(request: RecordedRequest) -> Reply | str:
        finding = json.loads(re.search(r"<finding>(.*?)</finding>", request.prompt).group(1))  # type: ignore[union-attr]
        candidate = re.search(r'"issueId": "([0-9a-f]{40})"', request.prompt).group(1)  # type: ignore[union-attr]
        same, confidence = labels[finding]
        if finding.startswith("ERR"):
            return Reply(status=500)
        kind = "existing" if same else "new"
        return json.dumps(
            {"matchType": kind, "issueId": candidate if same else None, "confidence": confidence}
        )

    return answer


def test_llm_matcher_scores_at_the_trackers_thresholds(tmp_path: Path) -> None:
    rows = [
        {"id": "1", "a": "トスが毎回ずれる", "b": "トスの位置が一定しない", "same": True},  # 0.95: merged
        {
            "id": "2",
            "a": "打点が近い",
            "b": "当たる位置が懐に入る",
            "same": True,
            "purpose": "improvement",
        },  # 0.85 < 0.9
        {
            "id": "3",
            "a": "グリップが厚い",
            "b": "グリップを強く握る",
            "same": False,
        },  # model wrongly says 0.8: false merge
        {"id": "4", "a": "語彙が偏る", "b": "冠詞が曖昧", "same": False},
        {
            "id": "5",
            "a": "ERR返信が遅い",
            "b": "一次回答に時間がかかる",
            "same": True,
        },  # server error: no match
        {
            "id": "6",
            "a": "改善ポイント：安定性が不足している",
            "b": "不足しているのは安定性です",
            "same": True,
        },
    ]
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    labels = {
        "トスが毎回ずれる": (True, 0.95),
        "打点が近い": (True, 0.85),
        "グリップが厚い": (True, 0.8),
        "語彙が偏る": (False, 0.9),
        "ERR返信が遅い": (True, 1.0),
        "改善ポイント：安定性が不足している": (False, 0.6),
    }
    with FakeOpenAIServer(responder=_oracle(labels)) as server:  # type: ignore[arg-type]
        matcher = LLMMatcher(OpenAICompatProvider(server.base_url, "oracle", retry_policy=FAST))
        report = evaluate_matchers(load_pairs(path), [matcher])
    rules, llm, hybrid = (
        report.score("rules-only"),
        report.score("llm:oracle"),
        report.score("rules+llm:oracle"),
    )
    assert (rules.tp, rules.fp, rules.fn, rules.tn) == (1, 0, 3, 2)
    assert (llm.tp, llm.fp, llm.fn, llm.tn) == (1, 1, 3, 1)
    assert llm.false_merge_ids == ("3",)
    assert (hybrid.tp, hybrid.fp, hybrid.fn, hybrid.tn) == (2, 1, 2, 1)
    assert hybrid.false_merge_rate == 0.5
    assert "| rules+llm:oracle | 0.78 / 0.9 | 2 | 1 | 2 | 1 | 0.667 | 0.500 | 0.500 |" in report.to_markdown()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "no pairs"),
        ("{not json}\n", "(line 1, column 2)"),
        ('{"id": "x", "a": "a", "b": "b"}\n', "'same'"),
        ('{"id": "x", "a": "", "b": "b", "same": true}\n', "'a'"),
        ('{"id": "x", "a": "a", "b": "b", "same": true, "purpose": "other"}\n', "purpose"),
        (
            '{"id": "x", "a": "a", "b": "b", "same": true}\n{"id": "x", "a": "c", "b": "d", "same": false}\n',
            ":2: duplicate id",
        ),
        ("[1]\n", "JSON object"),
    ],
)
def test_bad_pair_files_are_clear_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(EvalSetError, match=re.escape(message)):
        load_pairs(path)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EvalSetError, match="cannot read"):
        load_pairs(tmp_path / "none.jsonl")
