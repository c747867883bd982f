"""Number grounding. Every test here runs the contract's real scanner
(``sadame.normalize.numeric.scan_numeric``): they depend on the numeric step."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sadame.normalize import normalize_with_offsets
from sadame.quote import _ground, ground_numbers
from sadame.quote._ground import NumberIndex, ground_claims, numeric_mentions

SOURCE = (
    "## 業績\n"
    "- **売上高**: １億２０００万円（前年比 3割増）\n"
    "- 受注残高は 一億二千万円。\n"
    "- 研究開発費は 3,200,000円。\n"
    "株主総会は令和8年6月26日に開催した。\n"
)


@pytest.mark.parametrize(
    "claim", ["売上高は1億2000万円", "売上高は120,000,000円", "売上高は一億二千万円", "1.2億円"]
)
def test_same_amount_in_any_notation_is_grounded(claim: str) -> None:
    r = ground_numbers(claim, SOURCE)
    assert r.status == "grounded" and r.verified
    (number,) = r.numbers
    assert number.mention.value == "120000000円" and number.mention.kind == "amount"
    # both source spellings are reported, in ORIGINAL source offsets
    assert [s.text for s in number.spans] == ["１億２０００万円", "一億二千万円"]
    for span in number.spans:
        assert SOURCE[span.start : span.end] == span.text


def test_different_amount_is_not_grounded() -> None:
    r = ground_numbers("売上高は1億円", SOURCE)
    assert r.status == "ungrounded" and not r.verified
    assert r.numbers[0].spans == () and "1億円" in r.reason


def test_claim_spans_are_original_offsets() -> None:
    claim = "**売上**は ｜１億２０００万円｜"
    (m,) = numeric_mentions(claim)
    assert claim[m.start : m.end] == m.text == "１億２０００万円"


def test_percent_and_dates() -> None:
    assert ground_numbers("前年比30%増", SOURCE).status == "grounded"
    assert ground_numbers("総会は2026年6月26日", SOURCE).status == "grounded"
    assert ground_numbers("総会は2026/6/26", SOURCE).status == "grounded"
    assert ground_numbers("総会は2026年6月25日", SOURCE).status == "ungrounded"


def test_partial_and_no_numbers_and_invalid() -> None:
    partial = ground_numbers("研究開発費は320万円、利益は2000万円", SOURCE)
    assert partial.status == "partial"
    assert [n.grounded for n in partial.numbers] == [True, False]
    assert ground_numbers("利益が圧迫された", SOURCE).status == "no_numbers"
    assert ground_numbers("", SOURCE).status == "invalid"
    assert ground_numbers(None, SOURCE).status == "invalid"  # type: ignore[arg-type]


def test_kinds_filter() -> None:
    r = ground_numbers("総会は2026年6月26日、売上は9億円", SOURCE, kinds=["date"])
    assert [n.mention.kind for n in r.numbers] == ["date"] and r.status == "grounded"
    with pytest.raises(ValueError):
        ground_numbers("1億円", SOURCE, kinds=["money"])
    with pytest.raises(TypeError):
        ground_numbers("1億円", SOURCE, kinds="date")


def test_ground_claims_matches_one_by_one_and_is_json() -> None:
    claims: list[object] = ["1億2000万円", "1億円", "なし", 5]
    batch = ground_claims(claims, SOURCE)
    assert batch == [ground_numbers(c, SOURCE) for c in claims]  # type: ignore[arg-type]
    assert [r.status for r in batch] == ["grounded", "ungrounded", "no_numbers", "invalid"]
    data = json.loads(json.dumps([r.to_dict() for r in batch], ensure_ascii=False))
    assert data[0]["numbers"][0]["spans"][0]["text"] == "１億２０００万円"


def test_index_scans_source_once_and_rejects_non_str() -> None:
    index = NumberIndex(SOURCE)
    assert "120000000円" in index.by_value and "2026-06-26" in index.by_value
    with pytest.raises(TypeError):
        NumberIndex(b"1")  # type: ignore[arg-type]


CONTEXT_SOURCE = "来年度は保育士を2名増員する。\n別に保健師3名を配置する。\n施行は令和5年4月1日。\n"


def test_a_number_whose_words_the_source_gives_another_number_is_not_grounded() -> None:
    r = ground_numbers("保育士を3名増員", CONTEXT_SOURCE)
    assert r.status == "ungrounded" and not r.verified
    (number,) = r.numbers
    assert not number.grounded and number.context_differs and number.spans == ()
    assert [s.text for s in number.elsewhere] == ["3名"]
    assert "another context: 3名" in r.reason
    assert number.to_dict()["context_differs"] is True


@pytest.mark.parametrize("claim", ["保健師を3名配置", "3名", "保育士を2名増員", "配置は3名"])
def test_a_number_whose_words_agree_or_are_not_contradicted_is_grounded(claim: str) -> None:
    r = ground_numbers(claim, CONTEXT_SOURCE)
    assert r.status == "grounded", r.reason
    assert not r.numbers[0].context_differs


def test_a_paraphrase_the_source_does_not_contradict_is_grounded() -> None:
    r = ground_numbers("影響額は約3,500,000円", "影響を受けた取引は 1,284件、金額にして 約350万円 である。")
    assert r.status == "grounded"


def test_spans_whose_words_agree_come_first() -> None:
    r = ground_numbers("受注残高は1億2000万円", "売上高は１億２０００万円。受注残高は一億二千万円。")
    assert [s.text for s in r.numbers[0].spans] == ["一億二千万円", "１億２０００万円"]


@pytest.mark.parametrize("claim", ["令和5年4月", "2023年4月", "2023年", "4月1日", "令和5年4月1日", "2023/4/1", "4月", "４月"])
def test_dates_ground_at_the_precision_the_claim_states(claim: str) -> None:
    r = ground_numbers(f"{claim}に施行", CONTEXT_SOURCE)
    assert r.status == "grounded", r.reason
    assert r.numbers[0].spans[0].text == "令和5年4月1日"


@pytest.mark.parametrize(("claim", "source"), [("4月から新体制", "2023年4月に新体制"), ("4月から新体制", "4月1日に新体制")])
def test_a_bare_month_is_grounded_by_a_date_in_that_month(claim: str, source: str) -> None:
    # 「4月から」 against 「2023年4月に」 said ✘ 原文にありません
    assert ground_numbers(claim, source).status == "grounded"
    assert ground_numbers(claim.replace("4月", "5月"), source).status == "ungrounded"


@pytest.mark.parametrize("claim", ["令和5年4月2日", "2023年5月", "2024年", "2023年4月1日", "5月"])
def test_a_finer_or_different_date_is_not_grounded_by_a_coarser_one(claim: str) -> None:
    assert ground_numbers(claim, "施行は2023年4月。" if claim == "2023年4月1日" else CONTEXT_SOURCE).status == "ungrounded"


# -- the index's words and units, against their definitions (the index computes them faster) --


_PIECES = [*"0123456789一二三十百千万億年月日割%円名人分秒。！\n 、", "保育士", "増員", "売上", "会議", "¥", "$", "時間", "半", "の",
           "令和", "ドル", "API", "カ所"]  # fmt: skip
# Pieces repeated: the same words and numbers recur around different mentions.
_TEXT = st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join), min_size=1, max_size=5).flatmap(
    lambda pool: st.lists(st.sampled_from(pool), max_size=30).map("".join)
)


def _defined_words(piece: str) -> set[str]:
    """The bigrams of each run of two or more content characters (the module docstring)."""
    runs = _ground.re.findall("[A-Za-z\u30a1-\u30fa\u30fc\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ]{2,}", piece)
    return {run[i : i + 2] for run in runs for i in range(len(run) - 1)}


def _defined_contexts(norm: str, bounds: list[tuple[int, int]]) -> list[frozenset[str]]:
    """Within CONTEXT_WINDOW on each side, inside the sentence, not past the neighbours."""
    out = []
    for i, (start, end) in enumerate(bounds):
        lo = max(start - _ground.CONTEXT_WINDOW, bounds[i - 1][1] if i else 0)
        hi = min(end + _ground.CONTEXT_WINDOW, bounds[i + 1][0] if i + 1 < len(bounds) else len(norm))
        before = _ground.re.split("[。．！？!?\n]", norm[lo:start])[-1]
        after = _ground.re.split("[。．！？!?\n]", norm[end:hi])[0] if hi > end else ""
        out.append(frozenset(_defined_words(before) | _defined_words(after)))
    return out


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_words_around_mentions_follow_the_definition(text: str) -> None:
    normalized = normalize_with_offsets(text, flags=_ground.GROUNDING_FLAGS)
    found, _kinds = _ground._mentions_of(normalized, len(normalized.text))
    bounds = [(f[0], f[1]) for f in found]
    assert _ground._contexts(normalized.text, found) == _defined_contexts(normalized.text, bounds)


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.randoms(use_true_random=False))
def test_words_found_when_asked_are_the_eager_walk_s(text: str, rng: random.Random) -> None:
    # The index reads a mention's words only when a claim asks (in any order): the same
    # words as the walk over every mention.
    normalized = normalize_with_offsets(text, flags=_ground.GROUNDING_FLAGS)
    found, _kinds = _ground._mentions_of(normalized, len(normalized.text))
    order = list(range(len(found)))
    rng.shuffle(order)
    lazy = _ground._LazyContexts(normalized.text, found)
    eager = _ground._contexts(normalized.text, found)
    assert {i: lazy.at(i) for i in order} == dict(enumerate(eager))


def _eager_spans(
    index: NumberIndex, value: str, words: frozenset[str], category: str = "number",
    qualifiers: tuple[str, frozenset[str], str] = ("", frozenset(), ""),
) -> list[tuple[int, int]]:
    """The spans a claim's number is shown (the module docstring): the mentions whose words
    agree (none of their own, or one shared) first, then the others, at most MAX_NUMBER_SPANS."""
    every = index._spans.get(value, [])
    mentions = index._mention_of.get(value, [])
    fitting = [i for i, m in enumerate(mentions) if _fits(index, m, category, words, qualifiers)]
    theirs = {i: index._around.at(mentions[i]) for i in fitting}
    agree = [i for i in fitting if not words or not theirs[i] or theirs[i] & words]
    rest = [i for i in fitting if i not in agree]
    return [every[i] for i in (agree + rest)[: _ground.MAX_NUMBER_SPANS]]


def _fits(
    index: NumberIndex, mention: int, category: str, words: frozenset[str], qualifiers: tuple[str, frozenset[str], str]
) -> bool:
    """The module docstring's period, role and counted-noun rules, for one source mention."""
    period, noun, role = qualifiers
    if category == "date":
        return True
    their_period, their_noun, their_role = index._around.qualifiers(mention)
    if period and their_period != period:
        return False
    if their_role == "before" and role != "before":
        return False  # an earlier value grounds only a claim stating it as earlier
    if their_role == "after" and role == "before":
        return False
    return not (
        category == "count" and noun and their_noun
        and their_noun.isdisjoint(words) and noun.isdisjoint(index._around.at(mention))
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_spans_shown_are_the_agreeing_mentions_first(source: str, claim: str) -> None:
    index = NumberIndex(source * 4)  # (repeated: values with more mentions than are shown)
    if not claim.strip():
        return
    mentions, contexts, _cut = _ground._scan(claim)
    found, _kinds, norm, _cut = _ground._scan_found(claim)
    around = _ground._LazyContexts(norm, found)
    qualifiers = [around.qualifiers(i) for i in range(len(found))]
    pairs = zip(mentions, contexts, qualifiers, strict=True)
    for number, (mention, words, of_claim) in zip(index.ground(claim).numbers, pairs, strict=False):
        if not number.context_differs:
            expected = _eager_spans(index, mention.value, words, mention.category, of_claim)
            assert [(s.start, s.end) for s in number.spans] == expected


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_index_answers_as_a_fresh_index_per_claim(source: str, claim: str) -> None:
    # One index asked many claims (its word indexes built on first use, per value and per
    # category) answers each as an index built for that claim alone.
    shared = NumberIndex(source)
    for c in (claim, source, claim + source):
        if c.strip():
            assert shared.ground(c).to_dict() == NumberIndex(source).ground(c).to_dict()


def test_by_value_lists_the_source_spans_of_each_value() -> None:
    index = NumberIndex(SOURCE)
    amounts = index.by_value["120000000円"]
    assert [s.text for s in amounts] == ["１億２０００万円", "一億二千万円"]
    assert all(SOURCE[s.start : s.end] == s.text for spans in index.by_value.values() for s in spans)
    # a date is listed under its coarser precisions too
    assert [s.text for s in index.by_value["2026-06-26"]] == [s.text for s in index.by_value["2026-06"]]
    assert index.by_value["2026年"] == index.by_value["2026-06"]
