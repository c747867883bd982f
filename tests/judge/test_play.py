"""The terminal game loop ``play`` (and ``sadame play``): list, filters, hints, give-up
confirmation, replay and saved progress."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sadame.cli import cli as cli_main
from sadame.judge import PuzzlePack, bundled_pack
from sadame.judge.engine._loader import bundled_names
from sadame.judge.game import GameError, GameState, GameStatus, play
from sadame.judge.game._messages import REPHRASE
from sadame.judge.game._play import load_progress, save_progress


def _lines(*lines: str) -> Iterator[str]:
    yield from lines


def _run(packs: PuzzlePack | list[PuzzlePack], *lines: str, **kwargs: object) -> tuple[list[GameState], str]:
    feed = _lines(*lines)
    out: list[str] = []

    def read_line(prompt: str) -> str | None:
        line = next(feed, None)
        out.append(prompt + (line or ""))
        return line

    states = play(packs, read_line, out.append, **kwargs)  # type: ignore[arg-type]
    return states, "\n".join(out)


def test_play_loop(seed_pack: PuzzlePack) -> None:
    states, text = _run(
        seed_pack, "9", "1", "ｷｬｯｼｭ？", "メモリ不足？", "/history", "/answer", "/answer 大文字の話",
        "/nope", "/help", "/answer ファイル名の大文字小文字", "/quit",
    )
    assert "「9」という問題はありません" in text
    assert "本番だけ画像が出ない" in text and "ローカルでは表示される" in text
    assert "→ いいえ" in text
    assert f"→ 判定できません　{REPHRASE}" in text
    assert "1. ｷｬｯｼｭ？ → いいえ" in text
    assert "真相のポイントは2つです" in text, "partial credit is explained before the first answer"
    assert "使い方: /answer" in text
    assert "→ 惜しい、2つのうち1つは合っています" in text and "残りはあと1つです" in text
    assert "知らないコマンドです: /nope" in text
    assert "→ 正解です！" in text and "【真相】参照している名前" in text
    assert "質問 2 回・ヒント 0 回で正解しました" in text
    [state] = states
    assert state.solved and len(state.history) == 2


def test_give_up_asks_first_and_a_finished_puzzle_can_be_replayed(seed_pack: PuzzlePack) -> None:
    states, text = _run(seed_pack, "大文字？", "/giveup", "n", "/giveup", "はい", "キャッシュ？", "/again",
                        "キャッシュ？", puzzle_id="prod-only-images")
    assert "→ はい　そこが核心です" in text
    assert text.count("本当にギブアップしますか？") == 2 and "続けましょう" in text
    assert text.count("【真相】") == 1 and "質問 1 回・ヒント 0 回でギブアップしました" in text
    assert "この問題はギブアップ済みです（/again でもう一度遊べます）" in text
    assert text.endswith("またどうぞ")
    [state] = states
    assert state.status is GameStatus.IN_PROGRESS and len(state.history) == 1
    assert [p.outcome for p in state.past] == [GameStatus.GAVE_UP]
    states, text = _run(seed_pack, "prod-only-images", "大文字？")
    assert len(states) == 1 and not states[0].finished and text.endswith("またどうぞ")
    states, text = _run(seed_pack, "/giveup", puzzle_id="prod-only-images")
    assert not states[0].finished, "end of input at the confirmation does not give up"


def test_list_shows_packs_difficulty_progress_and_filters(game_pack: PuzzlePack, seed_pack: PuzzlePack) -> None:
    _states, text = _run(
        [game_pack, seed_pack], "1", "/hint", "/hint", "省エネ？", "/answer 節電のタイマー設定", "/list",
        "/status solved", "/status 未挑戦", "/pack game-test", "/pack nope", "/status done", "/help", "/quit",
    )
    assert "== ゲームのテスト（game-test・2問・正解 0）==" in text
    assert "== 記事の例（seed・1問・正解 0）==" in text
    assert "夜だけ静かなプリンター　難易度★★★☆☆ 実測" in text
    assert "→ ヒント1：夜のあいだ、プリンターは壊れているわけではありません。" in text
    assert "→ ヒント2：" in text and "質問 1 回・ヒント 2 回で正解しました" in text
    listing = text.split("質問> /list", 1)[1]
    assert "正解（質問 1 回・ヒント 2 回）" in listing and "== ゲームのテスト（game-test・2問・正解 1）==" in listing
    solved_only = listing.split("番号> /status solved", 1)[1].split("番号> /status 未挑戦", 1)[0]
    assert "夜だけ静かなプリンター" in solved_only and "毎朝遅れるバス" not in solved_only
    unplayed = listing.split("番号> /status 未挑戦", 1)[1].split("番号> /pack game-test", 1)[0]
    assert "毎朝遅れるバス" in unplayed and "夜だけ静かなプリンター" not in unplayed and "本番だけ画像が出ない" in unplayed
    one_pack = listing.split("番号> /pack game-test", 1)[1].split("番号> /pack nope", 1)[0]
    assert "記事の例" not in one_pack
    assert "「nope」というパックはありません" in text and "「done」という状態はありません" in text
    assert "/status 状態" in text


def test_progress_is_saved_and_loaded(game_pack: PuzzlePack, tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    _run(game_pack, "late-bus", "/answer 時刻表が冬のままで夏のダイヤ", "/quit", progress=progress)
    saved = load_progress(progress)
    assert saved[("game-test", "late-bus")].solved
    _states, text = _run(game_pack, "/quit", progress=progress)
    assert "毎朝遅れるバス　難易度★☆☆☆☆ 実測" in text and "正解（質問 0 回・ヒント 0 回）" in text
    save_progress(progress, saved)
    assert json.loads(progress.read_text(encoding="utf-8"))["format"] == "sadame.progress/1"
    progress.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(GameError, match="読めません"):
        load_progress(progress)


def test_cli_play_lists_every_bundled_pack_and_saves_progress(tmp_path: Path) -> None:
    progress = tmp_path / "p.json"
    result = CliRunner().invoke(cli_main, ["play", "--progress", str(progress)], input="/status solved\n/status\n1\n/quit\n")
    assert result.exit_code == 0, result.output
    first_pack = bundled_pack(bundled_names()[0])  # "1" is the first puzzle of the first pack listed
    assert [key for key in load_progress(progress)] == [(first_pack.name, next(iter(first_pack.puzzles)))]
    assert "== エンジニア編（engineering・" in result.output
    assert "条件に合う問題はありません" in result.output
    table = CliRunner().invoke(cli_main, ["play", "faq-routing"], input="")
    assert table.exit_code != 0 and "not a puzzle pack" in table.output
    missing = CliRunner().invoke(cli_main, ["play", "engineering", "--puzzle", "nope"], input="")
    assert missing.exit_code != 0 and "nope" in missing.output
