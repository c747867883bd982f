"""The web API judges in natural mode: negated questions get the negated verdict,
and answers that deny the solution or dump keywords do not solve a puzzle --
for every bundled puzzle, through a real server (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from sadame.judge import bundled_pack, check_answer
from tests.web.conftest import LiveServer


def test_negated_question_gets_the_negated_verdict(live_server: LiveServer) -> None:
    base = "/api/puzzles/engineering/rainy-lunch-server"
    with live_server.client() as player:
        positive = player.post(f"{base}/ask", json={"question": "電子レンジは関係ある？"}).json()
        negated = player.post(f"{base}/ask", json={"question": "電子レンジは関係ない？"}).json()
        suggestion = player.post(f"{base}/ask", json={"question": "電子レンジのせいじゃない？"}).json()
    assert (positive["verdict"], negated["verdict"], suggestion["verdict"]) == ("YES", "NO", "YES")
    assert negated["note"] == positive["note"], "the note states the fact, so it reads right after either"


@pytest.mark.slow
def test_denials_and_keyword_dumps_do_not_solve_any_puzzle(live_server: LiveServer) -> None:
    pack = bundled_pack("engineering")
    with live_server.client() as player:
        for puzzle in pack.puzzles.values():
            base = f"/api/puzzles/{pack.name}/{puzzle.id}"
            denial = next(e.a for e in puzzle.answer_examples if e.kind == "denial")
            dump = "、".join(word for group in puzzle.solution for word in group)
            correct = next(e.a for e in puzzle.answer_examples if e.kind == "correct")
            for answer in (denial, dump):
                reply = player.post(f"{base}/answer", json={"answer": answer})
                assert reply.status_code == 200 and reply.json()["correct"] is False, (puzzle.id, answer)
                assert player.get(base).json()["truth"] is None, "a wrong answer does not show the truth"
            assert check_answer(dump, puzzle.solution).advice is not None
            solved = player.post(f"{base}/answer", json={"answer": correct}).json()
            assert solved["correct"] is True, (puzzle.id, correct)
