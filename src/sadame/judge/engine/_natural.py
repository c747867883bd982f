"""Natural mode: rule words matched on token boundaries, by surface, reading,
normalized form and lemma, and answered with the question's polarity.

How a question is judged (see ``docs/guide/judge.md`` for the player's view):

1. **Clean and analyze.** NFKC (half-width kana), a dash after kana becomes ー
   (「サーバ－」「サーバ-」), then SudachiPy (split mode C; the short units of mode A
   give extra boundaries inside long nouns: 「アクセス|ログ」).
2. **Three views** of the question, each the concatenation of one string per token:
   the surface, Sudachi's normalized form (「シュミレーション」 -> シミュレーション,
   「サーバ」 -> サーバー) and the lemma (「使っ」 -> 使う). Every string is folded:
   the ``judge`` preset (NFKC, lower case, katakana -> hiragana) and ー removed.
3. **Word variants.** Each rule word (and its pack-level synonyms) is compiled into
   the same folded forms of its surface, lemma, normalized form and *reading*, all in
   one Aho-Corasick automaton. One pass per view finds every occurrence.
4. **Boundaries.** An occurrence counts for ``any`` only if it starts on a token
   boundary and ends on one (or inside a verb/adjective/auxiliary: authors write
   stems such as 「抜い」「何かを使」). So 「ログ」 never fires inside 「プログラム」
   「ブログ」. ``not`` words block on any occurrence, as in the seed.
5. **Readings only meet kana.** A reading variant (「しょうめいしょ」 for 証明書;
   only words with kanji, digits or latin letters get one) is kana, so it can only
   match kana the player typed (kanji typos aside, step 6): 飴 is never read as あめ
   and compared with 雨. A reading shared by
   two different words of different rules (雨/飴: あめ) is ambiguous and is not used
   at all (lint J104), and a reading of one or two kana must cover exactly one whole
   token.
6. **Kanji typos** (an IME slip: 「検策」 for 検索, 「正規可」 for 正規化): where the
   analyzer leaves a lone kanji or an unknown word, the question is also read aloud
   and compared with rule words' readings of four kana or more.
7. **Longest phrase wins.** An occurrence inside a longer firing one is dropped
   (「雨」 inside 「雨漏り」, 「外に出」 inside 「外に出ない」).
8. **Polarity** (:func:`sadame.lang.question_polarity`, strict) of each remaining
   phrase: a negated question flips YES/NO (IRRELEVANT/UNCERTAIN stay) when it
   negates the phrase's relevance, identity or own verb; negation inside the rule's
   own phrase does not count; the negation of another predicate, a wh-question, an
   incidental attribute (「キーボードの色」) or 「XはChrome？」 are ``unclear``: no
   verdict, never a guess.
9. **Conflicts** between phrases with different verdicts: see :data:`POLICIES`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import ahocorasick

from sadame.judge.engine._model import Rule, RuleTable
from sadame.lang import Token, analyze
from sadame.lang._question import Polarity, is_wh_question, question_polarity
from sadame.normalize import NormalizeFlags, PunctuationMode, WhitespaceMode, normalize

__all__ = ["DEFAULT_POLICY", "POLICIES", "NaturalHit", "NaturalOutcome", "natural_analysis", "natural_match"]

#: Longer questions get no verdict (a question is a sentence or two).
MAX_QUESTION_CHARS = 500
Policy = Literal["first", "focus", "agree", "conjunction"]
#: How conflicting phrases are settled: ``first`` = first in the table (the seed's
#: order); ``focus`` = the phrase nearest the predicate; ``agree`` = no verdict
#: unless all agree; ``conjunction`` = the focus, except that when the focus is a
#: YES/NO verdict and another phrase says NO, NO (a question asserting several
#: facts is true only if all are). Measured in ``docs/guide/judge.md``.
POLICIES: tuple[Policy, ...] = ("first", "focus", "agree", "conjunction")
DEFAULT_POLICY: Policy = "conjunction"

_DASH_AFTER_KANA = re.compile(r"(?<=[\u3041-\u309f\u30a1-\u30fa\u30fc])[-\u2010-\u2015\u2212\uff0d\uff70~〜～]")
#: Only words with kanji, digits or latin letters get a reading variant (kana typed
#: for kanji: 「しょうめいしょ」, 「でぃーえぬえす」; the analyzer's "reading" of
#: symbols is not one).
_READ = re.compile(r"[0-9A-Za-z\u3400-\u4dbf\u4e00-\u9fff々]")
#: Kanji typos are matched by reading only for readings this long (けんさく, not あめ).
_MIN_HOMOPHONE = 4
_INFLECTING = frozenset({"動詞", "形容詞", "助動詞"})
_FLIP = {"YES": "NO", "NO": "YES"}
_GRAMMAR_POS = frozenset({"助詞", "助動詞"})
_NATURAL_ATTR = "_sadame_natural_table"
_NFKC_ONLY = NormalizeFlags(
    nfkc=True, markdown_strip=False, numeric=False, casefold=False, kana=False,
    punctuation=PunctuationMode.KEEP, punctuation_chars="", whitespace=WhitespaceMode.KEEP,
    equivalences=frozenset(),
)


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """The folded form natural mode compares: ``judge`` preset, then ー removed."""
    return normalize(text, preset="judge").replace("ー", "")


def clean(text: str) -> str:
    """NFKC, and a dash (or wave dash) right after kana read as ー."""
    return _DASH_AFTER_KANA.sub("ー", normalize(text, flags=_NFKC_ONLY))


@dataclass(frozen=True, slots=True)
class NaturalHit:
    """A rule that fired on a phrase: the verdict after polarity, and where."""

    rule: Rule
    matched_word: str
    verdict: str | None  #: None when the polarity is unclear
    polarity: Polarity
    begin: int  #: character offsets of the phrase in the cleaned question
    end: int
    token_end: int  #: index of the first token after the phrase


@dataclass(frozen=True, slots=True)
class NaturalOutcome:
    """The chosen hit (or None) and why there is no verdict when there is none."""

    hit: NaturalHit | None
    reason: str | None
    candidates: tuple[NaturalHit, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()  #: every phrase a rule fired on (begin, end)


@dataclass(frozen=True, slots=True)
class _Variant:
    words: tuple[int, ...]  #: word ids spelled this way
    length: int
    reading: bool  #: a reading-only variant (kana), guarded against collisions
    grammar: bool = False  #: one of its words holds a particle or auxiliary itself (「ソフトが速い」)


@dataclass(frozen=True, slots=True)
class _Occurrence:
    word: int
    begin: int
    end: int
    token_end: int


def _has_grammar(word: str) -> bool:
    """Whether a rule word holds a particle or an auxiliary of its own (a phrase)."""
    return any(t.pos[0] in _GRAMMAR_POS or t.pos[1] == "非自立可能" for t in analyze(clean(word)))


def _word_forms(word: str) -> tuple[str, set[str], set[str]]:
    """(identity, spellings, readings) of a rule word, folded. The identity is the
    normalized spelling (引出し and 引き出し are one word; 雨 and 飴 are two)."""
    cleaned = clean(word)
    tokens = analyze(cleaned)
    identity = fold("".join(t.normalized for t in tokens)) or fold(cleaned)
    spellings = {fold(cleaned), identity, fold("".join(t.lemma for t in tokens))}
    readings = {fold("".join(t.reading for t in tokens))} if _READ.search(cleaned) else set()
    spellings.discard("")
    readings.discard("")
    return identity, spellings, readings - spellings


class NaturalTable:
    """The compiled natural-mode matcher of one table (built once, cached)."""

    def __init__(
        self, rules: Sequence[Rule], synonyms: Mapping[str, Sequence[str]], *, guard_grammar: bool = False
    ) -> None:
        self.rules = tuple(rules)
        self.guard_grammar = guard_grammar  #: format 3: readings never cross grammar (see _in_grammar)
        self.words: list[str] = []
        ids: dict[str, int] = {}
        any_rules: list[list[int]] = []
        self._not_ids: list[frozenset[int]] = []
        folded_synonyms = {fold(key): tuple(values) for key, values in synonyms.items()}
        for position, rule in enumerate(self.rules):
            for word in rule.any:
                for variant in (word, *folded_synonyms.get(fold(word), ())):
                    wid = self._word_id(variant, ids, any_rules)
                    if position not in any_rules[wid]:
                        any_rules[wid].append(position)
            self._not_ids.append(frozenset(self._word_id(w, ids, any_rules) for w in rule.not_))
        self._any_rules = tuple(tuple(r) for r in any_rules)
        self._origin = self._origins(folded_synonyms)
        self._dropped: list[tuple[str, tuple[str, ...]]] = []
        self.variants, self.automaton = self._compile()

    def _word_id(self, word: str, ids: dict[str, int], any_rules: list[list[int]]) -> int:
        found = ids.get(word)
        if found is None:
            found = ids[word] = len(self.words)
            self.words.append(word)
            any_rules.append([])
        return found

    def _origins(self, folded_synonyms: Mapping[str, Sequence[str]]) -> dict[tuple[int, int], str]:
        """(rule position, word id) -> the rule's own word a synonym stands for."""
        index = {w: i for i, w in enumerate(self.words)}
        origin: dict[tuple[int, int], str] = {}
        for position, rule in enumerate(self.rules):
            for word in rule.any:
                for variant in (word, *folded_synonyms.get(fold(word), ())):
                    origin.setdefault((position, index[variant]), word)
        return origin

    def _compile(self) -> tuple[list[_Variant], ahocorasick.Automaton | None]:
        spelled: dict[str, set[int]] = {}
        read: dict[str, set[int]] = {}
        identity: list[str] = []
        phrasal = [_has_grammar(word) for word in self.words]
        for wid, word in enumerate(self.words):
            same, spellings, readings = _word_forms(word)
            identity.append(same)
            for form in spellings:
                spelled.setdefault(form, set()).add(wid)
            for form in readings:
                read.setdefault(form, set()).add(wid)
        variants: list[_Variant] = []
        automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        for form, wids in spelled.items():
            automaton.add_word(form, len(variants))
            variants.append(_Variant(tuple(sorted(wids)), len(form), False, any(phrasal[w] for w in wids)))
        for form, wids in read.items():
            if form in spelled:
                continue
            if len({identity[w] for w in wids}) > 1 and len({self._any_rules[w] for w in wids}) > 1:
                self._dropped.append((form, tuple(self.words[w] for w in sorted(wids))))
                continue  # ambiguous reading (雨/飴: あめ)
            automaton.add_word(form, len(variants))
            variants.append(_Variant(tuple(sorted(wids)), len(form), True, any(phrasal[w] for w in wids)))
        if not variants:
            return variants, None
        automaton.make_automaton()
        return variants, automaton

    def dropped_readings(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Readings shared by different words, not used for matching: (reading, words)."""
        return tuple(self._dropped)

    def rules_for(self, word: int) -> tuple[int, ...]:
        return self._any_rules[word]

    def blocked(self, position: int, present: set[int]) -> bool:
        return not self._not_ids[position].isdisjoint(present)

    def rule_word(self, position: int, word: int) -> str:
        return self._origin.get((position, word), self.words[word])


def natural_table(table: RuleTable) -> NaturalTable:
    """The table's natural matcher, compiled on first use and kept on the table."""
    cached = table.__dict__.get(_NATURAL_ATTR)
    if not isinstance(cached, NaturalTable):
        cached = NaturalTable(table.rules, table.synonyms, guard_grammar=table.guards_grammar)
        object.__setattr__(table, _NATURAL_ATTR, cached)
    return cached


# --------------------------------------------------------------------------- matching


@dataclass(frozen=True, slots=True)
class _View:
    text: str
    starts: dict[int, tuple[int, int]]  #: view offset -> (token index, text offset)
    ends: dict[int, tuple[int, int]]  #: view offset -> (index of the next token, text offset)
    owner: list[int]  #: view character -> token index


def _inner_boundaries(token: Token) -> Sequence[int]:
    """Sudachi's short-unit seams (「アクセス|ログ」); inside an unknown word (「デバッグログ」)
    every position, since the analyzer could not split it."""
    if token.oov and len(token.surface) > 2:
        return range(token.begin + 1, token.end)
    return token.parts


def _build_view(tokens: Sequence[Token], pieces: Sequence[str], surface: Sequence[str]) -> _View:
    starts: dict[int, tuple[int, int]] = {}
    ends: dict[int, tuple[int, int]] = {}
    owner: list[int] = []
    offset = 0
    for i, (token, piece) in enumerate(zip(tokens, pieces, strict=True)):
        starts.setdefault(offset, (i, token.begin))
        if piece == surface[i]:
            for part in _inner_boundaries(token):
                inner = offset + len(fold(token.surface[: part - token.begin]))
                starts.setdefault(inner, (i, part))
                ends.setdefault(inner, (i + 1, part))
        owner.extend([i] * len(piece))
        offset += len(piece)
        ends.setdefault(offset, (i + 1, token.end))
    return _View("".join(pieces), starts, ends, owner)


def _views(tokens: Sequence[Token]) -> list[_View]:
    surface = [fold(t.surface) for t in tokens]
    views = [_build_view(tokens, surface, surface)]
    for pieces in ([fold(t.normalized) for t in tokens], [fold(t.lemma) for t in tokens]):
        if pieces != surface and all(v.text != "".join(pieces) for v in views):
            views.append(_build_view(tokens, pieces, surface))
    return views


def _script(char: str) -> int:
    """0 kanji, 1 kana, 2 latin/digit, 3 other (the view is folded: katakana is kana)."""
    if "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf" or char in "々〆":
        return 0
    if "\u3041" <= char <= "\u30ff":
        return 1
    return 2 if char.isascii() and char.isalnum() else 3


def _script_change(view: _View, left: int) -> bool:
    """True when view positions ``left`` and ``left + 1`` are in one token but change
    script: a compound seam (「うるう|年」) or okurigana (「間違|い」)."""
    owner = view.owner
    if left < 0 or left + 1 >= len(owner) or owner[left] != owner[left + 1]:
        return False
    return _script(view.text[left]) != _script(view.text[left + 1])


def _head(view: _View, tokens: Sequence[Token], start: int, variant: _Variant) -> tuple[int, int] | None:
    head = view.starts.get(start)
    if head is None and not variant.reading and variant.length >= 2 and _script_change(view, start - 1):
        i = view.owner[start]
        head = (i, tokens[i].begin)
    return head


def _tail(view: _View, tokens: Sequence[Token], stop: int, variant: _Variant) -> tuple[int, int] | None:
    tail = view.ends.get(stop)
    if tail is None and not variant.reading:
        i = view.owner[stop - 1]
        if tokens[i].pos[0] in _INFLECTING or (variant.length >= 2 and _script_change(view, stop - 1)):
            tail = (i + 1, tokens[i].end)  # a stem: 「抜い」 in 「抜いた」, 「押し間違」 in 「押し間違い」
    return tail


def _bounded(
    view: _View, tokens: Sequence[Token], start: int, stop: int, variant: _Variant
) -> tuple[int, int, int] | None:
    """(begin, end, token_end) if the occurrence sits on token boundaries."""
    head = _head(view, tokens, start, variant)
    tail = _tail(view, tokens, stop, variant) if head is not None else None
    if head is None or tail is None:
        return None
    if variant.reading and variant.length <= 2:
        whole = head[1] == tokens[head[0]].begin and tail[1] == tokens[tail[0] - 1].end
        if not whole or tail[0] - head[0] != 1:
            return None
    return head[1], tail[1], tail[0]


def _is_kana(char: str) -> bool:
    return "\u3041" <= char <= "\u30ff"


def _in_grammar(
    view: _View, tokens: Sequence[Token], start: int, stop: int, span: tuple[int, int, int]
) -> bool:
    """Format 3: a kana occurrence that spans a particle or an auxiliary (「かった|から」 read as
    宝, 「ない|よう」 as 内容) or starts at okurigana (「読|める」 meeting メール folded to める) is
    grammar, not the word."""
    first = view.owner[start] if start < len(view.owner) else None
    if first is None:
        return False
    occurrence = view.text[start:]
    if not _is_kana(occurrence[:1]):
        return False
    if start > 0 and view.owner[start - 1] == first and not _is_kana(view.text[start - 1]):
        return True  # starts at okurigana inside one token
    if _whole_kana_word(view, tokens, start, stop, span):
        return False
    covered = tokens[first:span[2]]
    return len(covered) > 1 and any(t.pos[0] in _GRAMMAR_POS or t.pos[1] == "非自立可能" for t in covered)


_MIN_KANA_WORD = 4
_AFTER_WORD = frozenset({"助詞"})


def _whole_kana_word(view: _View, tokens: Sequence[Token], start: int, stop: int, span: tuple[int, int, int]) -> bool:
    """A long word typed in kana (「さいねーじに」「すいえいきょうしつ？」) that the analyzer cut into
    fragments: the occurrence is a whole run of kana (nothing kana before it) of 4 kana or more,
    ended by the question's end, a non-kana character or a case particle -- so it is the word,
    not grammar (「しないように」 has し before ないよう)."""
    if stop - start < _MIN_KANA_WORD or (start > 0 and _is_kana(view.text[start - 1])):
        return False
    if stop >= len(view.text) or not _is_kana(view.text[stop]):
        return True
    following = span[2]
    return following < len(tokens) and tokens[following].pos[0] in _AFTER_WORD and tokens[following].pos[1] == "格助詞"


def _occurrences(
    table: NaturalTable, tokens: Sequence[Token], views: Sequence[_View]
) -> tuple[list[_Occurrence], set[int]]:
    """Bounded occurrences of ``any`` candidates, and every word present (for ``not``)."""
    found: list[_Occurrence] = []
    present: set[int] = set()
    automaton = table.automaton
    if automaton is None:
        return found, present
    for view in views:
        for last, vid in automaton.iter(view.text):
            variant = table.variants[vid]
            span = _bounded(view, tokens, last + 1 - variant.length, last + 1, variant)
            if (span is not None and table.guard_grammar and not variant.grammar
                    and _in_grammar(view, tokens, last + 1 - variant.length, last + 1, span)):
                span = None
            if not variant.reading or span is not None:
                present.update(variant.words)
            if span is not None:
                found.extend(_Occurrence(w, *span) for w in variant.words)
    found.extend(_homophones(table, tokens))
    return found, present


def _typo_fragment(token: Token) -> bool:
    """One lone kanji, or a word the dictionary does not know: where an IME slip
    (「検策」 for 検索 -> 「検|策」) leaves the question."""
    if token.oov:
        return True
    return len(token.surface) == 1 and _script(token.surface) == 0


def _homophones(table: NaturalTable, tokens: Sequence[Token]) -> list[_Occurrence]:
    """Kanji typos: the question read aloud, matched against the readings of rule
    words (4 kana or more), only where the phrase holds a lone kanji or an unknown
    word -- so 「構成」 (a real word) never stands in for 校正."""
    if not any(_typo_fragment(t) and _script(t.surface[:1]) == 0 for t in tokens):
        return []
    pieces = [fold(t.reading) for t in tokens]
    view = _build_view(tokens, pieces, pieces)
    found: list[_Occurrence] = []
    assert table.automaton is not None
    for last, vid in table.automaton.iter(view.text):
        variant = table.variants[vid]
        if not variant.reading or variant.length < _MIN_HOMOPHONE:
            continue
        start, stop = last + 1 - variant.length, last + 1
        head, tail = view.starts.get(start), view.ends.get(stop)
        if head is None or tail is None or not any(map(_typo_fragment, tokens[head[0]:tail[0]])):
            continue
        found.extend(_Occurrence(w, head[1], tail[1], tail[0]) for w in variant.words)
    return found


def _verdict(rule: Rule, tokens: Sequence[Token], token_end: int, wh: bool) -> tuple[str | None, Polarity]:
    if rule.answer not in _FLIP:
        return rule.answer, "positive"
    if wh:
        return None, "unclear"  # 「誰が設置した？」 cannot be answered yes or no
    polarity = question_polarity(tokens, token_end, strict=True)
    if polarity == "unclear":
        return None, polarity
    return (_FLIP[rule.answer] if polarity == "negative" else rule.answer), polarity


def fired_phrases(table: NaturalTable, tokens: Sequence[Token]) -> dict[tuple[int, int, int], _Occurrence]:
    """(rule position, begin, end) -> occurrence, for every rule that fires on a phrase
    (on token boundaries, not blocked by its ``not`` words)."""
    occurrences, present = _occurrences(table, tokens, _views(tokens))
    fired: dict[tuple[int, int, int], _Occurrence] = {}
    digits = _digit_offsets(tokens)
    for occ in occurrences:
        if (occ.begin in digits and occ.begin - 1 in digits) or (occ.end - 1 in digits and occ.end in digits):
            continue  # 「999」 inside 「1999」 is not the number 999
        for position in table.rules_for(occ.word):
            if not table.blocked(position, present):
                fired.setdefault((position, occ.begin, occ.end), occ)
    return fired


def _digit_offsets(tokens: Sequence[Token]) -> frozenset[int]:
    """The offsets of the question's digits (a phrase never starts or ends inside a number)."""
    return frozenset(
        t.begin + k for t in tokens for k, char in enumerate(t.surface)
        if char.isdigit() and len(t.surface) == t.end - t.begin
    )


def _inside_longer(spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The spans that lie inside a longer one, in one sweep (sorted by begin, longest
    first: a span is inside an earlier one iff some earlier span ends at or after it).
    Linear in the fired phrases after the sort, where the all-pairs test was quadratic."""
    inside: set[tuple[int, int]] = set()
    furthest = -1
    for begin, end in sorted(spans, key=lambda s: (s[0], -s[1])):
        if furthest >= end:
            inside.add((begin, end))
        furthest = max(furthest, end)
    return inside


def _covered(tokens: Sequence[Token], spans: set[tuple[int, int]]) -> set[int]:
    """Indexes of the tokens that overlap a fired phrase (one pass over tokens and spans)."""
    if not spans:
        return set()
    marks = bytearray(max(t.end for t in tokens) + 1 if tokens else 1)
    for begin, end in spans:
        marks[begin:end] = b"\x01" * (end - begin)
    return {i for i, t in enumerate(tokens) if any(marks[t.begin:t.end])}


def _hits(table: NaturalTable, tokens: Sequence[Token]) -> list[NaturalHit]:
    fired = fired_phrases(table, tokens)
    spans = {(occ.begin, occ.end) for occ in fired.values()}
    covered = _covered(tokens, spans)
    wh = bool(fired) and is_wh_question(tokens, covered)
    inside = _inside_longer(spans)
    hits: list[NaturalHit] = []
    for (position, begin, end), occ in sorted(fired.items()):
        if (begin, end) in inside:
            continue  # inside a longer phrase that fired: 「雨」 in 「雨漏り」
        rule = table.rules[position]
        token_end = _word_final_n(table, tokens, occ)
        verdict, polarity = _verdict(rule, tokens, token_end, wh)
        if table.guard_grammar and polarity == "negative" and _double_negative(tokens, token_end):
            verdict, polarity = rule.answer if rule.answer in _FLIP else verdict, "positive"
        if rule.answer in _FLIP and _attribute_of(tokens, occ.token_end, covered):
            verdict, polarity = None, "unclear"
        if polarity == "negative" and _compound_tail(tokens, begin):
            verdict, polarity = None, "unclear"
        hits.append(NaturalHit(
            rule, table.rule_word(position, occ.word), verdict, polarity, begin, end, occ.token_end
        ))
    return hits


def _double_negative(tokens: Sequence[Token], end: int) -> bool:
    """Format 3: a phrase that ends in its own negation 〜なく followed only by 「ない？」 (「目ぇ見えて
    なくない？」 on the rule word 見えてな): the final ない is the suggestion 〜なくない？, not a second
    negation, so the phrase is asked as it is."""
    if end == 0 or end >= len(tokens):
        return False
    before = tokens[end - 1]
    if before.surface != "なく" or before.lemma != "ない":
        return False
    rest = [t for t in tokens[end:] if t.pos[0] not in ("補助記号", "空白")]
    return len(rest) >= 1 and rest[0].lemma == "ない" and all(t.pos[1] == "終助詞" for t in rest[1:])


def _compound_tail(tokens: Sequence[Token], begin: int) -> bool:
    """The phrase is the tail of a longer noun (「電車|通勤」 in 「電車通勤じゃないよね？」): a
    negation of the whole noun does not deny the phrase, so it cannot flip its rule."""
    for i, token in enumerate(tokens):
        if token.begin < begin < token.end:
            return token.pos[0] == "名詞"
        if token.begin == begin:
            previous = tokens[i - 1] if i else None
            return previous is not None and previous.end == begin and previous.pos[0] == "名詞" and (
                previous.pos[1] == "普通名詞" and token.pos[0] == "名詞")
    return False


def _word_final_n(table: NaturalTable, tokens: Sequence[Token], occ: _Occurrence) -> int:
    """Where the phrase ends for its polarity: after a 「ん」 that spells the end of the rule
    word itself (「ていでん？」 cut て|いで|ん is 停電, not a Kansai negation of いでる)."""
    end = occ.token_end
    if end >= len(tokens) or tokens[end].surface != "ん":
        return end
    spelled = "".join(t.surface for t in tokens[:end + 1] if t.end > occ.begin)
    return end + 1 if fold(spelled).endswith(fold(table.words[occ.word])) else end


#: Incidental attributes: 「キーボードの色」 asks about the colour, not the keyboard.
_ATTRIBUTES = frozenset({
    "色", "何色", "色合い", "カラー", "メーカー", "ブランド", "値段", "価格", "柄", "素材", "重さ", "形", "デザイン",
    "大きさ", "サイズ", "広さ", "高さ", "機種", "型番", "製造元", "産地",
})


_FOLDED_ATTRIBUTES = frozenset(fold(a) for a in _ATTRIBUTES)


def _attribute_of(tokens: Sequence[Token], token_end: int, covered: set[int]) -> bool:
    """True when the phrase only names the owner of an incidental attribute that no
    rule covers (「キーボード|の|色」, 「テレビ|の|メーカー」): no verdict, not the owner's."""
    if token_end + 1 >= len(tokens) or tokens[token_end].surface != "の":
        return False
    head = tokens[token_end + 1]
    if token_end + 1 in covered:
        return False
    return head.lemma in _ATTRIBUTES or fold(head.surface) in _FOLDED_ATTRIBUTES


def _focus(hits: Sequence[NaturalHit]) -> NaturalHit:
    """The phrase nearest the predicate (latest end), then the longest, then table order."""
    return min(hits, key=lambda h: (-h.token_end, -(h.end - h.begin), h.rule.index))


def _one_per_rule(hits: Sequence[NaturalHit]) -> list[NaturalHit]:
    """A rule that fired on several phrases speaks once, through its phrase nearest
    the predicate (「誰も気づ|かなかった」 vs 「気づかな」 in 「誰も気づかなかった？」)."""
    best: dict[int, NaturalHit] = {}
    for hit in hits:
        kept = best.get(hit.rule.index)
        if kept is None or (hit.token_end, hit.end - hit.begin) > (kept.token_end, kept.end - kept.begin):
            best[hit.rule.index] = hit
    return sorted(best.values(), key=lambda h: h.rule.index)


def _settle(found: Sequence[NaturalHit], policy: Policy) -> NaturalOutcome:
    outcome = _settle_hits(found, policy)
    if not found:
        return outcome
    spans = tuple(sorted({(h.begin, h.end) for h in found}))
    return NaturalOutcome(outcome.hit, outcome.reason, outcome.candidates, spans)


def _settle_hits(found: Sequence[NaturalHit], policy: Policy) -> NaturalOutcome:
    hits = _one_per_rule(found)
    if not hits:
        return NaturalOutcome(None, None)
    verdicts = {h.verdict for h in hits}
    if policy == "first" or len(verdicts) == 1:
        chosen = hits[0]
    elif policy == "agree":
        return NaturalOutcome(None, "rules with different verdicts fired", tuple(hits))
    else:
        chosen = _focus(hits)
        if policy == "conjunction" and chosen.verdict in _FLIP and "NO" in verdicts:
            chosen = next(h for h in hits if h.verdict == "NO")  # YES and NO -> NO
    if chosen.verdict is None:
        return NaturalOutcome(None, "the polarity of the question is unclear", tuple(hits))
    return NaturalOutcome(chosen, None, tuple(hits))


def natural_match(question: object, table: RuleTable, policy: Policy = DEFAULT_POLICY) -> NaturalOutcome:
    """Judge ``question`` against ``table`` in natural mode (rules only).

    >>> from sadame.judge import parse_table
    >>> t = parse_table({"format": "sadame.rules/2", "name": "t", "answers": ["YES", "NO"],
    ...                  "rules": [{"any": ["ログ"], "answer": "NO"}, {"any": ["証明書"], "answer": "YES"}]})
    >>> natural_match("ブログは関係ある？", t).hit is None
    True
    >>> natural_match("しょうめいしょは関係ない？", t).hit.verdict
    'NO'
    """
    return natural_analysis(question, table, policy)[0]


def natural_analysis(
    question: object, table: RuleTable, policy: Policy = DEFAULT_POLICY
) -> tuple[NaturalOutcome, tuple[Token, ...]]:
    """:func:`natural_match` and the question's tokens (empty when it was not analyzed)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
    if not isinstance(question, str):
        return NaturalOutcome(None, f"question must be a str, got {type(question).__name__}"), ()
    text = clean(question)
    if len(text) > MAX_QUESTION_CHARS:
        reason = f"question too long ({len(text)} characters; limit {MAX_QUESTION_CHARS})"
        return NaturalOutcome(None, reason), ()
    tokens = analyze(text)
    if not any(fold(t.surface) for t in tokens):
        return NaturalOutcome(None, "question is empty after normalization"), tokens
    return _settle(_hits(natural_table(table), tokens), policy), tokens
