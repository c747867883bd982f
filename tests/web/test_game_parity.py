"""One game engine: the same moves get the same feedback in the terminal (``play``) and
over HTTP (the JSON API and the HTML page), on a real server."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

from sadame.judge import load_pack
from sadame.judge.game import play
from sadame.web import WebSettings, create_app
from tests.web.conftest import LiveServer, serve

PACK = Path(__file__).parents[1] / "judge" / "data" / "game.yaml"

#: (move, text): questions with a verdict and without one, hints, a partial and a correct answer.
SCRIPT = [
    ("ask", "省エネと関係ある？"),
    ("ask", "故障してる？"),
    ("ask", "プリンターの色は関係ある？"),
    ("ask", "ｚｚｚ？"),
    ("hint", ""),
    ("answer", "紙詰まり"),
    ("hint", ""),
    ("answer", "節電していた"),
    ("answer", "節電のためのタイマー設定で夜は止まっていた"),
]


def _terminal_feedback() -> list[str]:
    commands = {"ask": "{}", "hint": "/hint", "answer": "/answer {}"}
    lines: Iterator[str] = iter(commands[move].format(text) for move, text in SCRIPT)
    out: list[str] = []
    play(load_pack(PACK), lambda _prompt: next(lines, None), out.append, puzzle_id="quiet-printer")
    return [line.removeprefix("→ ") for line in out if line.startswith("→ ")]


def _web_feedback(live: LiveServer) -> tuple[list[str], str]:
    base = "/api/puzzles/game-test/quiet-printer"
    feedback = []
    with live.client() as client:
        for move, text in SCRIPT:
            if move == "ask":
                got = client.post(f"{base}/ask", json={"question": text}).json()
                feedback.append(f"{got['label']}　{got['note']}" if got["note"] else got["label"])
            elif move == "hint":
                got = client.post(f"{base}/hint").json()
                feedback.append(f"ヒント{got['number']}：{got['hint']}")
            else:
                feedback.append(client.post(f"{base}/answer", json={"answer": text}).json()["message"])
        page = client.get("/puzzles/game-test/quiet-printer").text
    return feedback, page


def test_terminal_and_browser_give_identical_feedback(db_url: str) -> None:
    app = create_app(db_url, settings=WebSettings(packs=(str(PACK),), judge_fallback=None))
    server, thread, url = serve(app)
    try:
        web, page = _web_feedback(LiveServer(url, db_url, app))
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.ctx.engine.dispose()
    terminal = _terminal_feedback()
    assert len(terminal) == len(SCRIPT)
    assert web == terminal
    # The kinds of reply the script covers: YES / NO / IRRELEVANT with and without notes, no verdict,
    # two hints, a wrong, a partial and a correct answer.
    assert terminal[0] == "はい　節電の設定が鍵です" and terminal[2] == "関係ありません"
    assert terminal[3].startswith("判定できません　一度に一つのことだけを")
    assert terminal[6].startswith("ヒント2：") and terminal[7] == "惜しい、2つのうち1つは合っています"
    assert terminal[-1] == "正解です！"
    # The page shows the same words (verdict label + note, answer messages, hints).
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for reply in terminal:
        for part in reply.removeprefix("ヒント1：").removeprefix("ヒント2：").split("　"):
            assert part in text, part
    assert "質問 4 回・ヒント 2 回で正解しました" in text
