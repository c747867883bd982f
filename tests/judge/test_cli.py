"""The judge commands through click's CliRunner (the real command objects)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from sadame.cli import cli


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_judge_prints_json(data_dir: Path) -> None:
    code, out = _run("judge", str(data_dir / "seed.yaml"), "--puzzle", "prod-only-images", "ｷｬｯｼｭ？")
    assert code == 0
    assert json.loads(out) == {
        "verdict": "NO", "note": None, "source": "rules", "rule": {"id": "cache", "index": 3},
        "matched": "キャッシュ", "reason": None,
    }
    code, out = _run("judge", "faq-routing", "明日の天気は？")
    assert code == 0 and json.loads(out)["verdict"] == "UNKNOWN"


def test_judge_argument_errors(data_dir: Path) -> None:
    code, out = _run("judge", str(data_dir / "seed.yaml"), "大文字？")
    assert code == 2 and "--puzzle" in out
    code, out = _run("judge", "faq-routing", "--puzzle", "x", "請求書")
    assert code == 2 and "not a puzzle pack" in out
    code, out = _run("judge", str(data_dir / "seed.yaml"), "--puzzle", "nope", "q")
    assert code == 1 and "no puzzle 'nope'" in out
    code, out = _run("judge", str(data_dir / "bad" / "bomb.yaml"), "q")
    assert code == 1 and "aliases" in out


def test_answer_prints_partial_credit(data_dir: Path) -> None:
    code, out = _run("answer", str(data_dir / "seed.yaml"), "--puzzle", "prod-only-images", "大文字小文字の違い")
    assert code == 0
    assert json.loads(out) == {"correct": False, "matched": 1, "total": 2, "matched_groups": [0],
                               "advice": None, "feedback": "惜しい、2つのうち1つは合っています"}


def test_rules_is_a_group_others_can_extend() -> None:
    group = cli.commands["rules"]
    assert isinstance(group, click.Group)
    assert {"lint", "test", "coverage", "schema"} <= set(group.commands)


def test_rules_lint_exit_codes(data_dir: Path) -> None:
    code, out = _run("rules", "lint", str(data_dir / "seed.yaml"))
    assert code == 0 and "0 error(s), 0 warning(s)" in out
    code, out = _run("rules", "lint", str(data_dir / "failing.yaml"))
    assert code == 1 and "ERROR   J001" in out and "WARNING J003" in out and "3 error(s), 6 warning(s)" in out
    code, out = _run("rules", "lint", "--json", str(data_dir / "failing.yaml"))
    assert code == 1 and json.loads(out)["errors"] == 3


def test_rules_test_exit_codes(data_dir: Path) -> None:
    code, out = _run("rules", "test", str(data_dir / "seed.yaml"))
    assert code == 0 and "8/8 example(s) passed" in out
    code, out = _run("rules", "test", str(data_dir / "failing.yaml"))
    assert code == 1 and "rule #0 (broad) on 'ファイル'" in out and "1/3 example(s) passed" in out


def test_rules_coverage(data_dir: Path, tmp_path: Path) -> None:
    questions = tmp_path / "q.txt"
    questions.write_text("# comment\n大文字？\nprod-only-images\tキャッシュ？\n\nメモリ？\n", encoding="utf-8")
    code, out = _run("rules", "coverage", str(data_dir / "seed.yaml"), str(questions), "--puzzle",
                     "prod-only-images", "--json")
    assert code == 0
    report = json.loads(out)
    assert (report["questions"], report["hits"], report["misses"]) == (3, 2, 1)
    assert len(report["never_fired"]) == 4
    code, out = _run("rules", "coverage", str(data_dir / "seed.yaml"), str(questions))
    assert code == 1 and "needs --puzzle" in out
    code, out = _run("rules", "coverage", "faq-routing", str(questions))
    assert code == 0 and "3 question(s)" in out and "never fired" in out


def test_rules_schema() -> None:
    code, out = _run("rules", "schema", "--pack")
    assert code == 0 and json.loads(out)["properties"]["format"] == {"const": "sadame.puzzles/1"}


def test_play_with_piped_input(data_dir: Path) -> None:
    code, out = _run("play", str(data_dir / "seed.yaml"), input="1\n大文字？\n/history\n/giveup\ny\n/quit\n")
    assert code == 0
    assert "== 記事の例（seed・1問・正解 0）==" in out and "→ はい　そこが核心です" in out
    assert "1. 大文字？ → はい" in out and "本当にギブアップしますか？" in out
    assert "【真相】" in out and "またどうぞ" in out
    code, out = _run("play", "faq-routing", input="")
    assert code == 1 and "not a puzzle pack" in out


def test_commands_document_an_example() -> None:
    group = cli.commands["rules"]
    assert isinstance(group, click.Group)
    for command in [cli.commands[n] for n in ("judge", "answer", "play", "rules")] + list(group.commands.values()):
        assert command.epilog and "Example:" in command.epilog


def test_rules_test_prints_natural_question_figures(data_dir: Path) -> None:
    code, out = _run("rules", "test", str(data_dir / "natural.yaml"))
    assert code == 0, out
    assert "natural questions (rules only, policy conjunction)" in out
    assert "lunch-breaker" in out and "thresholds: right >= 90%, wrong <= 2% per puzzle: ok" in out
    code, out = _run("rules", "test", "--json", str(data_dir / "natural.yaml"))
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["questions"]["total"]["wrong"] == 0
    assert report["questions"]["polarity"]["total"] > 10


def test_rules_test_fails_a_puzzle_under_the_thresholds(data_dir: Path, tmp_path: Path) -> None:
    text = (data_dir / "natural.yaml").read_text("utf-8")
    broken = tmp_path / "broken.yaml"
    for question in ("ブレーカーが落ちた？", "ぶれーかーが落ちた？"):  # two of 53 wrong: 3.8%
        assert f"{{q: {question}, expect: \"YES\"" in text
        text = text.replace(f"{{q: {question}, expect: \"YES\"", f"{{q: {question}, expect: \"NO\"")
    broken.write_text(text, "utf-8")
    code, out = _run("rules", "test", str(broken))
    assert code == 1 and "WRONG [lunch-breaker] 'ブレーカーが落ちた？'" in out and "FAIL lunch-breaker" in out
    code, out = _run("rules", "test", "--max-wrong", "0.05", str(broken))
    assert code == 0, out
    code, out = _run("rules", "test", "--json", "--policy", "agree", str(broken))
    assert code == 1 and json.loads(out)["questions"]["policy"] == "agree"


def test_answer_in_natural_mode_prints_advice(data_dir: Path) -> None:
    code, out = _run("answer", str(data_dir / "natural.yaml"), "--puzzle", "lunch-breaker", "電子レンジ、ブレーカー")
    data = json.loads(out)
    assert code == 0 and data["correct"] is False and data["advice"].startswith("キーワードを並べるだけ")


def test_rules_test_with_held_out_questions(data_dir: Path, tmp_path: Path) -> None:
    held_out = tmp_path / "held_out.yaml"
    held_out.write_text(
        "format: sadame.questions/1\nquestions:\n"
        "  - {puzzle: lunch-breaker, q: 電子レンジは関係ない？, expect: \"NO\", tags: [negation]}\n"
        "  - {puzzle: lunch-breaker, q: ケトルのせいじゃない？, expect: \"YES\", tags: [suggestion]}\n"
        "  - {puzzle: lunch-breaker, q: 火星人？, expect: \"NO\"}\n", "utf-8")
    code, out = _run("rules", "test", "--json", "--questions", str(held_out), str(data_dir / "natural.yaml"))
    report = json.loads(out)["questions"]
    assert code == 1 and report["total"] == {
        "name": "total", "total": 3, "right": 2, "wrong": 0, "none": 1, "matters": 0, "right_rate": 0.6667, "wrong_rate": 0.0}
    assert report["polarity"]["right"] == 2
    held_out.write_text("format: sadame.questions/1\nquestions:\n  - {puzzle: nope, q: x, expect: null}\n", "utf-8")
    code, out = _run("rules", "test", "--questions", str(held_out), str(data_dir / "natural.yaml"))
    assert code == 1 and "does not have: nope" in out
    held_out.write_text("questions: []\n", "utf-8")
    code, out = _run("rules", "test", "--questions", str(held_out), str(data_dir / "natural.yaml"))
    assert code == 1 and "sadame.questions/1" in out


def test_the_blind_evaluation_set_loads_for_the_bundled_pack() -> None:
    from sadame.judge import bundled_pack
    from sadame.judge.authoring import load_questions, run_questions

    root = Path(__file__).resolve().parents[2]
    questions = load_questions(root / "evals" / "judge" / "blind_questions.yaml")
    pack = bundled_pack("engineering")
    assert set(questions) <= set(pack.puzzles) and sum(map(len, questions.values())) >= 140
    report = run_questions(pack, questions=questions)
    assert report.total.total == sum(map(len, questions.values()))
