"""The blind-set scorers (evals/track/blind): shapes, clear errors, and what a matcher costs."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import cli
from sadame.llm import LLMMatcher
from sadame.llm._openai import OpenAICompatProvider
from sadame.llm._provider import RetryPolicy
from sadame.track import StaticMatcher
from sadame.track._eval_blind import BlindEvalError, observed_meaning, run_meaning_eval
from sadame.track._eval_paraphrase import ParaphraseEvalError, format_paraphrase, run_paraphrase_eval
from sadame.track._matching import MatchCandidate, MatchResult, Purpose
from sadame.track._views import ReportEntry, SessionReport

BLIND = Path(__file__).resolve().parents[2] / "evals" / "track" / "blind"
SMALL = [{"user": "u", "domain": "sports", "earlier": [{"id": "e1", "text": "踏み込みが弱い"},
                                                      {"id": "e2", "text": "ストライドが狭い"},
                                                      {"id": "e3", "text": "視線が下がる"}],
          "later": [{"text": "歩幅が小さい", "same_as": "e2"}, {"text": "呼吸が浅い", "same_as": None}]}]


def test_the_blind_sets_are_there_unchanged_in_shape() -> None:
    rows = [json.loads(x) for x in (BLIND / "track_meaning.jsonl").read_text(encoding="utf-8").splitlines() if x]
    assert len(rows) == 240 and len({r["domain"] for r in rows}) == 6
    users = json.loads((BLIND / "track_paraphrase.json").read_text(encoding="utf-8"))
    assert len(users) == 6 and all(len(u["earlier"]) == 36 and len(u["later"]) == 12 for u in users)


def test_observed_meaning_reads_the_report() -> None:
    base = {"user_id": "u", "session_id": "s", "at": "", "seq": 1, "ruleset_version": ""}
    assert observed_meaning(SessionReport(**base, new=[ReportEntry("x", "k")])) == "problem"
    assert observed_meaning(SessionReport(**base, improvements=[ReportEntry("x", "k")])) == "improvement"
    assert observed_meaning(SessionReport(**base, filtered=[ReportEntry("x", "k", reason="positive")])) == "praise"
    assert observed_meaning(SessionReport(**base, filtered=[ReportEntry("x", "k", reason="empty")])) == "none"


def test_bad_blind_files_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "m.jsonl").write_text('{"id": "a", "domain": "d", "text": "t", "kind": "joke"}\n', encoding="utf-8")
    with pytest.raises(BlindEvalError, match=r"m\.jsonl:1: needs"):
        run_meaning_eval(tmp_path / "m.jsonl")
    (tmp_path / "p.json").write_text('[{"user": 1}]', encoding="utf-8")
    with pytest.raises(ParaphraseEvalError, match="needs a list"):
        run_paraphrase_eval(tmp_path / "p.json")


class SlowMatcher:
    def match(self, text: str, candidates: Sequence[MatchCandidate], *, purpose: Purpose) -> MatchResult | None:
        time.sleep(0.3)
        return None


def test_a_matcher_s_cost_and_time_outs_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "track_paraphrase.json"
    path.write_text(json.dumps(SMALL, ensure_ascii=False), encoding="utf-8")
    plain = run_paraphrase_eval(path)
    assert plain.cost is None and plain.totals()["top1"] == 0  # 歩幅/ストライド: no shared word
    static = run_paraphrase_eval(path, matcher=StaticMatcher({"歩幅": ("ストライドが狭い", 0.95)}))
    assert static.totals()["top1"] == 1 and static.cost is not None
    assert static.cost.sessions == 2 and static.cost.calls >= 2 and static.cost.timeouts == 0
    slow = run_paraphrase_eval(path, matcher=SlowMatcher(), matcher_timeout=0.05)
    assert slow.cost is not None and slow.cost.timeouts == 2 and slow.totals()["new"] == 1  # timed out: new


class AskedMatcher:
    """Records what it was asked about and matches nothing."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def match(self, text: str, candidates: Sequence[MatchCandidate], *, purpose: Purpose) -> MatchResult | None:
        self.asked.append(text)
        return None


def test_a_matcher_is_measured_on_the_later_findings_only(tmp_path: Path) -> None:
    # the user's earlier issues are the set-up: asking the matcher about each of them (35 calls a
    # pair on the blind set, an hour against a server that is down) made 「per session」 a cost of the set-up
    path = tmp_path / "track_paraphrase.json"
    path.write_text(json.dumps(SMALL, ensure_ascii=False), encoding="utf-8")
    spy = AskedMatcher()
    report = run_paraphrase_eval(path, matcher=spy)
    earlier = {e["text"] for e in SMALL[0]["earlier"]}
    assert spy.asked and not earlier & set(spy.asked)
    assert report.cost is not None and report.cost.calls == len(spy.asked) and report.cost.sessions == 2


def test_track_eval_scores_a_blind_directory(tmp_path: Path) -> None:
    (tmp_path / "track_paraphrase.json").write_text(json.dumps(SMALL, ensure_ascii=False), encoding="utf-8")
    out = CliRunner().invoke(cli, ["track", "eval", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "Blind paraphrases" in out.output and "Top-1 0.0%, top-3" in out.output
    bad = CliRunner().invoke(cli, ["track", "eval", str(tmp_path), "--llm"], env={"SADAME_LLM_BASE_URL": ""})
    assert bad.exit_code != 0 and "SADAME_LLM" in bad.output


def test_track_eval_prints_the_headline_rates_to_paste(tmp_path: Path) -> None:
    rows = [{"id": "a", "domain": "d", "text": "キックの無駄な力みが取れてきた", "kind": "improvement"},
            {"id": "b", "domain": "d", "text": "手際が良いとは言えない", "kind": "negated_praise"},
            {"id": "c", "domain": "d", "text": "盛り付けが美しい", "kind": "praise"},
            {"id": "d", "domain": "d", "text": "保留時間がまた長くなっている", "kind": "regression"}]
    (tmp_path / "track_meaning.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    out = CliRunner().invoke(cli, ["track", "eval", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "| set | improvement recognised | problems lost | praise right | negated praise right |" in out.output
    assert "| this set | 100.0% (1/1) | 0.0% (0/2) | 100.0% (1/1) | 100.0% (1/1) | 100.0% (1/1) | - |" in out.output
    figures = run_meaning_eval(tmp_path / "track_meaning.jsonl").figures()
    assert figures["regression_right"] == 1.0 and figures["problem_with_praise_word_n"] == 0


def _closed_port() -> int:
    with socket.socket() as s:  # bound, then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_matcher_whose_server_is_down_is_reported_as_provider_errors(tmp_path: Path) -> None:
    # the LLM matcher answers "no match" when its provider raises, so the tracker sees no failure:
    # the report must still say that every call failed, not "failures 0" alone
    path = tmp_path / "track_paraphrase.json"
    path.write_text(json.dumps(SMALL, ensure_ascii=False), encoding="utf-8")
    fast = RetryPolicy(max_retries=0, backoff_base=0.01, backoff_max=0.01)
    dead = LLMMatcher(OpenAICompatProvider(f"http://127.0.0.1:{_closed_port()}/v1", "m", timeout=1.0, retry_policy=fast))
    report = run_paraphrase_eval(path, matcher=dead)
    assert report.cost is not None and report.cost.calls > 0
    assert report.cost.provider_errors == report.cost.calls
    assert "provider errors " + str(report.cost.calls) in format_paraphrase(report)
