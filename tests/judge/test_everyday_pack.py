"""The bundled everyday-mystery pack (日常の謎編): shape, lint, examples and the
natural-question replay targets (≥ 90 % right, ≤ 2 % wrong per puzzle)."""

from __future__ import annotations

import pytest

from sadame.judge import Judge, Puzzle, PuzzlePack, bundled_pack
from sadame.judge.authoring import lint_table
from sadame.judge.authoring._tools import run_examples
from sadame.judge.engine._judge import MATTERS, UNKNOWN
from sadame.judge.engine._loader import bundled_names


@pytest.fixture(scope="module")
def everyday() -> PuzzlePack:
    return bundled_pack("everyday")


def _puzzles(pack: PuzzlePack) -> list[Puzzle]:
    return list(pack.puzzles.values())


def test_everyday_pack_is_bundled_in_natural_mode(everyday: PuzzlePack) -> None:
    assert "everyday" in bundled_names("puzzles")
    assert everyday.title == "日常の謎編"
    assert everyday.matching == "natural"
    assert len(everyday.puzzles) == 27


def test_everyday_puzzle_ids_are_unique_across_bundled_packs(everyday: PuzzlePack) -> None:
    others = {pid for name in bundled_names("puzzles") if name != "everyday" for pid in bundled_pack(name).puzzles}
    assert others.isdisjoint(everyday.puzzles)


def test_everyday_puzzles_have_the_required_shape(everyday: PuzzlePack) -> None:
    for puzzle in _puzzles(everyday):
        where = puzzle.id
        assert len(puzzle.table.rules) >= 20, where
        assert len(puzzle.questions) >= 40, where
        assert 2 <= len(puzzle.hints) <= 3, where
        assert 2 <= len(puzzle.solution) <= 3, where
        assert puzzle.difficulty is not None and 1 <= puzzle.difficulty <= 5, where
        assert 3 <= puzzle.truth.count("。") <= 6, where
        kinds = {a.kind for a in puzzle.answer_examples}
        assert {"correct", "partial", "wrong", "denial"} <= kinds, where
        shaped = [q for q in puzzle.questions if {"negation", "suggestion", "confirm-neg"} & set(q.tags)]
        assert len(shaped) >= 5, where




def test_everyday_pack_is_lint_clean(everyday: PuzzlePack) -> None:
    assert [f.render() for f in lint_table(everyday).findings] == []


def test_everyday_examples_and_answer_examples_pass(everyday: PuzzlePack) -> None:
    report = run_examples(everyday)
    assert [f.render() for f in report.failures] == []
    assert report.total >= 27 * 12


def test_everyday_natural_questions_meet_the_targets(everyday: PuzzlePack) -> None:
    below: list[str] = []
    for puzzle in _puzzles(everyday):
        judge = Judge(puzzle.table)
        right = wrong = 0
        for question in puzzle.questions:
            verdict = judge.ask(question.q).verdict
            got = None if verdict == UNKNOWN else verdict
            if got == question.expect or (got is None and question.none_ok):
                right += 1
            elif got is not None and got != MATTERS:  # MATTERS hedges: neither right nor wrong
                wrong += 1
        total = len(puzzle.questions)
        if right < 0.9 * total or wrong > 0.02 * total:
            below.append(f"{puzzle.id}: {right}/{total} right, {wrong} wrong")
    assert below == []


#: Questions with no content word of any puzzle, in kana: a short reading of a rule word
#: (蟻 = あり, 市 = し, 木 = き, 溜め = ため) or a word whose ー is dropped (スキー = すき) must not fire on
#: the verbs and particles of such a frame.
_NEUTRAL_FRAMES = (
    "それはしてきた？", "それってありますか？", "それしてる？", "それでした？", "それになった？",
    "それかな？", "それじゃないよね？", "それっす", "それだけど？", "それなんだ？", "それしてみた？",
    "それはいますか？", "それはきた？", "それはみた？", "それはめだつ？", "それはひがたった？",
    "それはきにしてる？", "それはいった？", "それはとった？", "それはかった？", "それはでた？",
    "それはあった？", "それしかない？", "それってわけ？", "あるかね？", "そのあと？", "かんじ？",
    "それのため？", "それでいい？", "それはまだ？", "それもある？",
)


def test_everyday_rules_stay_silent_on_neutral_kana_frames(everyday: PuzzlePack) -> None:
    fired = [
        (puzzle.id, frame, result.rule_id)
        for puzzle in _puzzles(everyday)
        for frame in _NEUTRAL_FRAMES
        if (result := Judge(puzzle.table).ask(frame)).verdict != UNKNOWN
    ]
    assert fired == []
