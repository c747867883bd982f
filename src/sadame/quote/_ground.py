"""Number grounding: does every amount, percentage and date of a claim occur in the source?

Numeric expressions are found by the contract's own scanner,
:func:`sadame.normalize.numeric.scan_numeric`, so grounding and the ``numeric``
preset cannot disagree about what ``1億2000万円`` means. Both the claim and the
source are first normalized with :data:`GROUNDING_FLAGS` -- NFKC and Markdown
stripping, exactly the steps the ``numeric`` preset runs *before* its numeric step,
and nothing that would merge tokens (whitespace is kept, so ``3 5%`` never becomes
``35%``). Every match is mapped back through the offsets, so spans are in the
**original** claim and source.

Two expressions are the same value when their canonical spellings are equal
(``NumericMatch.value`` when the scanner provides one, else its ``replacement``):
``1億2000万円``, ``120,000,000円`` and ``一億二千万円`` all read ``120000000円``;
``1億円`` does not. ``2026年7月`` (``2026-07``) does not ground ``2026年7月18日``.

Context: a number is grounded by a source mention of the same value *whose neighbouring
words agree*. The words are the content-character bigrams (kanji, katakana, Latin letters;
not kana particles) within :data:`CONTEXT_WINDOW` characters on each side of the number,
inside its sentence and not past another number. A number is **not** grounded
(``context_differs`` true, ``elsewhere`` holding where the value does appear) when

* every same-value mention of the source has words of its own, none shared with the claim's, and
* the source puts a *different* number of the same category next to one of the claim's words

(``保育士を3名増員`` against a source with ``保健師3名`` and ``保育士を2名増員``). Without
that contradiction a paraphrase is decided on its value (``影響額は約3,500,000円`` against
``金額にして 約350万円``), as is a number with no neighbouring words (``1.2億円`` alone) or a
source mention with none (a bare table cell). Dates are decided on their value: a document
puts many dates by the same nouns (``会議``, ``開催``), so their words would flag true claims.
A grounded number's ``spans`` list the same-value mentions whose words agree first.

Two more things are part of what a number means (a same-value mention disagreeing on them
does not ground it: ``context_differs``): the *period* it is counted per, read right before
it (``月1回`` is not ``年1回``; ``毎月``, ``年間``, ``1日あたり``, ``月額``, ``1人あたり``), at the
claim's precision (a claim stating none is grounded by ``1人あたり3万円``, never the other
way); and for a count, the *noun it counts* (``保健師を2名`` is not ``保育士を2名``), unless
either noun shares a word with the other side's context or one side has none.
A number's *role* is read too: an earlier period's value (``0.62％（前年同期 0.75％）``: after
``前年``, ``前年同期``, ``前年度``, ``前回``, ``改定前`` ...; a ratio such as ``前年同期比`` is not one) or a
replaced one (``14,800円 → 19,600円``, ``220円から255円に``) grounds only a claim stating it as the
earlier value, and a new value grounds any claim but one stating it as the earlier
(``19,600円から14,800円に`` against that source: both △).
Numbers that span several scanner matches (``11時30分``, ``10月31日（金）17時``, ``〜28日`` after
a date, ``2024年（令和6年）7月19日``, ``第3編成``, a heading's number) are read together first:
:mod:`sadame.quote._compose`.
Counter spellings are one value: ``2名`` reads ``2人`` (and ``カ所`` ``か所``, ``カ国`` ``か国``).

Dates ground at the precision the claim states: ``2023年4月`` and ``令和5年4月`` (a month)
are grounded by ``令和5年4月1日``; ``2023年`` (a year) by any date of 2023; ``4月1日`` by
``2023年4月1日``; ``4月`` alone by any date in April. ``R5年4月``, ``R5.4``, ``R5.4.1`` (R, H, S:
令和, 平成, 昭和) and ``2023/04``, which the scanner reads as separate numbers, are read as dates here. Never the other way: ``2023年4月1日`` is not grounded by ``2023年4月``.

Units (decided here, on top of the scanner's values; the contract's output is untouched):

* Currency signs: ``¥``/``￥`` before a number is ``円`` and ``$``/``＄`` is ``ドル``
  (``￥120,000,000`` = ``1億2000万円`` = ``120000000円``; ``$1,200`` = ``1,200ドル``);
  ``米ドル`` is ``ドル``. A currency-sign number has kind ``amount``.
* Durations: a number of ``秒``, ``分``/``分間`` or ``時間`` is compared in seconds, with
  ``半`` after ``分`` or ``時間`` adding half that unit: ``2分`` = ``120秒``,
  ``1時間半`` = ``90分`` = ``5400秒``. Not durations: ``時`` (a clock time), ``日``,
  ``週``, ``月``, ``年`` (a calendar position or a length that varies), and ``5分の1``
  (a fraction).
* Every mention has a ``category`` for people to read: ``money`` (円, ドル, ユーロ ...),
  ``count`` (人, 名, 件, 社, 個, 台 ... -- counts, never money), ``percent``, ``date``,
  ``duration``, ``quantity`` (any other unit: 倍, 階, km, 年 ...) and ``number``.
  ``kinds=`` still filters by the scanner's kinds (``number``, ``amount``, ``percent``, ``date``).

Output is capped: each number reports at most :data:`MAX_NUMBER_SPANS` source spans
(``occurrences`` counts them all, ``truncated`` says some were left out) and a claim
reports at most :data:`MAX_CLAIM_NUMBERS` numbers (its status still covers all of them;
``truncated`` says so). A text with more than :data:`MAX_MENTIONS` numerals (a claim or a
source) is scanned only up to there: later numbers are not checked (a claim's) or not
indexed (a source's), and the result is ``truncated`` -- this can only make a claim less
grounded, never more. The work is linear in the claim and the source.

Claim statuses: ``grounded`` (every expression found in the source), ``partial``
(some), ``ungrounded`` (none), ``no_numbers`` (nothing to check -- not verified),
``invalid`` (the claim is not a string or is empty).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Context, Decimal
from typing import Any, Literal, get_args

from sadame.normalize import PRESETS, NormalizeFlags, WhitespaceMode, normalize, normalize_with_offsets
from sadame.normalize._core import NormalizedText
from sadame.normalize.numeric import NumericKind, scan_spans
from sadame.quote._compose import compose
from sadame.quote._tables import TableLines, cell_of, column_headers, table_units, value_column_at
from sadame.quote._verify import Span

__all__ = [
    "CONTEXT_WINDOW",
    "GROUNDING_FLAGS",
    "MAX_CLAIM_NUMBERS",
    "MAX_MENTIONS",
    "MAX_NUMBER_SPANS",
    "NUMERIC_KINDS",
    "ClaimResult",
    "ClaimStatus",
    "GroundedNumber",
    "NumberCategory",
    "NumberIndex",
    "NumberMention",
    "ground_claims",
    "ground_numbers",
    "numeric_mentions",
    "scan_mentions",
]

ClaimStatus = Literal["grounded", "partial", "ungrounded", "no_numbers", "invalid"]
CLAIM_STATUSES: tuple[str, ...] = get_args(ClaimStatus)
NUMERIC_KINDS: tuple[str, ...] = get_args(NumericKind)
NumberCategory = Literal["money", "count", "percent", "date", "duration", "quantity", "number"]

_MONEY_UNITS: dict[str, str] = {
    "円": "円", "銭": "銭", "ドル": "ドル", "米ドル": "ドル", "ユーロ": "ユーロ", "ポンド": "ポンド", "ウォン": "ウォン",
}  # fmt: skip
_COUNT_UNITS = frozenset(
    ["人", "名", "件", "社", "個", "台", "枚", "冊", "店", "校", "軒", "匹", "頭", "羽", "株", "票", "棟", "戸", "世帯", "点", "か所", "カ所", "ヶ所", "ケ所", "箇所", "か国", "カ国", "ヶ国", "ケ国"]
)
#: Spellings of one counter (the same count, written differently); 件 and 個 are not one.
_COUNT_SYNONYMS: dict[str, str] = {
    "名": "人", "カ所": "か所", "ヶ所": "か所", "ケ所": "か所", "箇所": "か所", "カ国": "か国", "ヶ国": "か国", "ケ国": "か国",
}  # fmt: skip
_CURRENCY_SIGNS: dict[str, str] = {"¥": "円", "$": "ドル"}  # after NFKC: ￥ is ¥, ＄ is $
_SECONDS: dict[str, int] = {"秒": 1, "分": 60, "時間": 3600}
_THEN_READ = frozenset("の半")  # the characters after a duration that _with_units reads
#: Source spans reported per number of a claim.
MAX_NUMBER_SPANS = 10
#: Numbers reported per claim.
MAX_CLAIM_NUMBERS = 1000
#: Numerals scanned per text (claim or source); the numeric scanner costs microseconds per number.
MAX_MENTIONS = 5_000
_NUMERALS = "0-9０-９〇零一二三四五六七八九十百千万億兆"
_NUMERAL_RUN = re.compile(f"[{_NUMERALS}]+")
#: :data:`MAX_MENTIONS` numeral runs and what follows them up to the next run's start: matches
#: only a text with more runs, and ends where scanning stops (possessive and atomic: linear).
_PAST_MENTIONS = re.compile(f"(?>(?:[^{_NUMERALS}]*+[{_NUMERALS}]++){{{MAX_MENTIONS}}})[^{_NUMERALS}]*+(?=[{_NUMERALS}])")
#: Characters on each side of a number whose words are its context.
CONTEXT_WINDOW = 12
_SENTENCE_END = re.compile("[。．！？!?\n]")
_CONTENT_CHARS = "A-Za-z\u30a1-\u30fa\u30fc\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ"
#: Every two consecutive content characters (kanji, katakana, Latin letters), overlapping.
_BIGRAM = re.compile(f"(?=([{_CONTENT_CHARS}]{{2}}))")
_NO_WORDS: frozenset[str] = frozenset()
#: The period or unit a number is counted per, right before it (``月1回``, ``毎月``, ``年間``,
#: ``1日あたり``, ``月額``, ``1人あたり``): not after another numeral or kanji (``今年``, ``2021年``).
_RATE = re.compile(
    "(?:(?<![0-9年月\u3400-\u9fff])(?:1|一)(年|月|週|日|時間|人|名|件|世帯|台|戸|社)|毎(年|月|週|日|時間|時)"
    "|(?<![0-9\u3400-\u9fff々])(年|月|週|日)|(年|月|週|日)(?:間|額))"
    "(?:あたり|当たり|につき|ごと|毎|に)?\\s*$"
)
#: Fitting mentions of a value read per claim number (the spans reported come from them).
_FITTING_READ = 100
_RATE_SPELLING: dict[str, str] = {"名": "人", "時": "時間"}
#: How far before a number its period is read (``1日あたり`` is six characters).
_RATE_WINDOW = 8
#: The noun a counter counts: the content run right before the number, past a particle
#: and an approximation (``保健師を約2名`` -> ``保健師``).
_HEAD = re.compile(
    f"([{_CONTENT_CHARS}]{{2,}})(?:を|が|は|の|も|で|と)?\\s*(?:約|計|合計|延べ|およそ|ほぼ)?\\s*$"
)
#: Dates the scanner reads as separate numbers: ``R5年4月``, ``R5.4``, ``R5.4.1`` (令和, 平成,
#: 昭和 by their initials) and ``2023/04``; ``2023/04/01`` the scanner reads itself. Written
#: first character first (the era's initial, or the 1 or 2 of the year), the character before
#: it checked by a two-character lookbehind: a search skips to those characters instead of
#: trying the lookbehind at every position. Groups: the era's year, month and day (年/月/日),
#: month and day (dotted), then the month after a year (the era and the year are read from
#: the text at the match's start).
_ABBREVIATED_DATE = re.compile(
    "[RHS12](?<![A-Za-z0-9][RHS12])"
    "(?:(?<=[RHS])([0-9]{1,2})(?:年([0-9]{1,2})月(?:([0-9]{1,2})日)?|\\.([0-9]{1,2})(?:\\.([0-9]{1,2}))?)"
    "|(?:(?<=1)9|(?<=2)0)[0-9]{2}/([0-9]{1,2})(?![0-9/]))(?![0-9.])"
)
_ERA_BASE: dict[str, int] = {"R": 2018, "H": 1988, "S": 1925}
#: An amount in thousands or millions, as financial statements write them (「48,652百万円」,
#: 「3,118千円」, 「7,846百万kWh」), which the contract's scanner does not read.
_SCALED = re.compile(
    r"(?<![0-9.,])([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?[ \t]?(百万|千万|千)"
    r"(円|人|件|台|個|本|店|社|世帯|kWh|MWh|kW|t)"
)
_SCALE = {"千": 1_000, "百万": 1_000_000, "千万": 10_000_000}
#: The unit a table's caption states (「（単位：百万円）」): no figure of the text.
_CAPTION = re.compile(r"単位[ \t]*[:：][ \t]*[^\s()\[\]、,|0-9]{1,6}")
_DATE_VALUE = re.compile(r"([0-9]{4})-([0-9]{2})(?:-([0-9]{2}))?")
_DAY_OF_YEAR = re.compile(r"--([0-9]{2})-[0-9]{2}")
_CUT_MARGIN = 80  # mentions ending this close to a cut may have been cut short: dropped

_EXACT = Context(prec=400)  # exact for every number _convertible() lets through
_MAX_DIGITS = 120
_VALUE = re.compile(r"(-?[0-9]+(?:\.[0-9]+)?)(.*)", re.DOTALL)

#: The ``numeric`` preset without its numeric step and without whitespace deletion:
#: the steps that run *before* the numeric step (NFKC, Markdown stripping), so the
#: scanner sees what the preset's scanner sees, and nothing that merges tokens.
#: Derived from the preset, so a step added to the contract is inherited, not forgotten.
GROUNDING_FLAGS: NormalizeFlags = replace(PRESETS["numeric"], numeric=False, whitespace=WhitespaceMode.KEEP)
_NFKC_ONLY: NormalizeFlags = replace(GROUNDING_FLAGS, markdown_strip=False)

#: Before a number: it is an earlier period's value (``前年同期 0.75%``, ``前年度：4,987件``); not a
#: ratio to one (``前年同期比``).
_BEFORE_MARK = re.compile(
    "(?:前年同期末?|前年同月末?|前年度末?|前年|前期末?|前月末?|前回|前四半期末?|昨年度?|改定前|変更前)"
    "\\s*(?:[:：]|は|の|が|で)?\\s*(?:約)?\\s*$"
)
#: After a number: it is replaced (``220円 → 255円``; ``220円から255円に``).
_ARROW_NEXT = re.compile("\\s*(?:→|⇒|➡|->)")
_CHANGE_FROM = re.compile("\\s*から\\s*(?:約)?\\s*[0-9][0-9,.]*[^\\s、。0-9]{0,4}\\s*(?:に|へ)")
#: Before a number: it replaces one (``→ 255円``); ``から`` when it ends a change (:data:`_CHANGE_TO`).
_ARROW_BEFORE = re.compile("(?:→|⇒|➡|->)\\s*(?:約)?\\s*$")
_FROM = re.compile("\\s*から\\s*(?:約)?\\s*")
_CHANGE_TO = re.compile("\\s*(?:に|へ)")

@dataclass(frozen=True, slots=True)
class NumberMention:
    """A numeric expression of a text: original ``text[start:end]``, its kind and canonical value."""

    text: str
    start: int
    end: int
    kind: str
    value: str
    category: str = "number"

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "value": self.value,
            "category": self.category,
        }


@dataclass(frozen=True, slots=True)
class GroundedNumber:
    """One expression of a claim and the source spans (original offsets) with the same value."""

    mention: NumberMention
    grounded: bool
    spans: tuple[Span, ...] = ()
    occurrences: int = 0
    truncated: bool = False
    #: the value is in the source, but only among other words (not grounded)
    context_differs: bool = False
    #: where the value is in the source in another context (when ``context_differs``)
    elsewhere: tuple[Span, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.mention.to_dict(),
            "grounded": self.grounded,
            "spans": [s.to_dict() for s in self.spans],
            "occurrences": self.occurrences,
            "truncated": self.truncated,
            "context_differs": self.context_differs,
            "elsewhere": [s.to_dict() for s in self.elsewhere],
        }


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The verdict on one claim: each numeric expression, grounded or not."""

    claim: str
    status: ClaimStatus
    numbers: tuple[GroundedNumber, ...] = ()
    reason: str = ""
    truncated: bool = False

    @property
    def verified(self) -> bool:
        """True when the claim has numbers and all of them are grounded."""
        return self.status == "grounded"

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "status": self.status,
            "verified": self.verified,
            "numbers": [n.to_dict() for n in self.numbers],
            "reason": self.reason,
            "truncated": self.truncated,
        }


def _fmt(value: Decimal) -> str:
    """Exact decimal spelling without trailing zeros (the inputs are finite decimals)."""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


_Units = tuple[int, int, str, str, str]  # start shift, end shift, kind, value, category


def _with_units(value: str, kind: str, sign: str, then: str) -> _Units:
    """(start shift, end shift, kind, value, category) of a match of canonical ``value`` and
    scanner ``kind`` after the unit rules of the module docstring; ``sign`` is the character
    before the match, ``then`` the one after it (the unit included)."""
    parsed = _VALUE.fullmatch(value)
    if kind in ("percent", "date") or parsed is None:
        return 0, 0, kind, value, kind if kind in ("percent", "date") else "number"
    unit = parsed[2]
    number = Decimal(parsed[1]) if len(parsed[1]) <= _MAX_DIGITS else Decimal(0)
    if not unit and sign in _CURRENCY_SIGNS:
        return -1, 0, "amount", f"{parsed[1]}{_CURRENCY_SIGNS[sign]}", "money"
    if unit in _MONEY_UNITS:
        return 0, 0, kind, f"{parsed[1]}{_MONEY_UNITS[unit]}", "money"
    if unit in _COUNT_UNITS:
        return 0, 0, kind, f"{parsed[1]}{_COUNT_SYNONYMS.get(unit, unit)}", "count"
    if unit in _SECONDS and then != "の" and len(parsed[1]) <= _MAX_DIGITS:
        more = 0
        if unit != "秒" and then == "半":
            number, more = _EXACT.add(number, Decimal("0.5")), 1
        return 0, more, kind, f"{_fmt(_EXACT.multiply(number, Decimal(_SECONDS[unit])))}秒", "duration"
    return 0, 0, kind, value, "quantity" if unit else "number"


_Found = tuple[int, int, int, int, str, str]  # normalized start, end; original start, end; value, category


def _mentions_of(
    normalized: NormalizedText, keep_before: int
) -> tuple[list[_Found], list[str]]:
    """Every mention of ``normalized`` ending by ``keep_before``: (normalized start, end,
    original start, end, value, category), and each one's kind. The unit rules are applied
    once per distinct (value, kind, neighbouring characters)."""
    norm = normalized.text
    starts, ends = normalized.starts, normalized.ends
    rules: dict[tuple[str, str, str, str], _Units] = {}
    found: list[_Found] = []
    kinds: list[str] = []
    dates = _abbreviated_dates(norm, keep_before)
    scaled = _scaled_amounts(norm, keep_before) if ("千" in norm or "百万" in norm) else []
    covered = [(a, b) for a, b, _value in dates]
    if scaled or "単位" in norm:
        covered += [(a, b) for a, b, _value, _category, _kind in scaled]
        covered += [m.span() for m in _CAPTION.finditer(norm, 0, keep_before)]
        covered.sort()
    for start, end, replacement, kind, value, unit in scan_spans(norm, True):
        if not 0 <= start < end <= keep_before:
            continue  # (a scanner bug must not crash grounding)
        at = bisect.bisect_right(covered, (start, len(norm))) - 1
        if at >= 0 and covered[at][1] > start:
            continue  # part of an abbreviated date (read below)
        if unit and norm.startswith(unit, end):
            end += len(unit)  # report "1億2000万円", not "1億2000万": the value includes the unit
        # The neighbours as the unit rules read them: a currency sign or nothing before, "の" or
        # "半" or nothing after (any other character reads as nothing): few distinct keys.
        sign = norm[start - 1] if start else ""
        then = norm[end : end + 1]
        key = (value or replacement, kind, sign if sign in _CURRENCY_SIGNS else "", then if then in _THEN_READ else "")
        units = rules.get(key)
        if units is None:
            units = rules[key] = _with_units(*key)
        a, b = start + units[0], end + units[1]
        found.append((a, b, starts[a], ends[b - 1], units[3], units[4]))
        kinds.append(units[2])
    if scaled:
        found += [(a, b, starts[a], ends[b - 1], value, category) for a, b, value, category, _kind in scaled]
        kinds += [kind for _a, _b, _value, _category, kind in scaled]
    if dates:
        found += [(a, b, starts[a], ends[b - 1], value, "date") for a, b, value in dates]
        kinds += ["date"] * len(dates)
    if dates or scaled:
        order = sorted(range(len(found)), key=lambda i: found[i][0])
        found, kinds = [found[i] for i in order], [kinds[i] for i in order]
    found, kinds = compose(norm, found, kinds, normalized.original)
    return table_units(norm, found, kinds, _with_unit)


def _with_unit(number: str, unit: str) -> tuple[str, str, str] | None:
    """The value, category and kind of ``number`` followed by ``unit`` read as one figure (a table
    cell under its header's unit, :mod:`sadame.quote._tables`); None unless the scanner reads
    them so, as a figure with a unit."""
    found, kinds, _norm, _truncated = _scan_found(number + unit)
    if len(found) != 1 or found[0][0] != 0 or found[0][1] <= len(number) or found[0][5] == "number":
        return None
    return found[0][4], found[0][5], kinds[0]


def _scaled_amounts(norm: str, keep_before: int) -> list[tuple[int, int, str, str, str]]:
    """The amounts of :data:`_SCALED` in ``norm`` ending by ``keep_before``: (start, end, value,
    category, kind), read as the scanner reads the amount written out (「48,652百万円」 as
    「48652000000円」), in order."""
    amounts: list[tuple[int, int, str, str, str]] = []
    for match in _SCALED.finditer(norm, 0, keep_before):
        digits, fraction, scale, unit = match.groups()
        whole = Decimal(digits.replace(",", "") + (fraction or "")) * _SCALE[scale]
        if whole != whole.to_integral_value() or len(digits) > _MAX_DIGITS:
            continue
        found, kinds, _norm, _truncated = _scan_found(f"{int(whole)}{unit}")
        if len(found) == 1:
            amounts.append((match.start(), match.end(), found[0][4], found[0][5], kinds[0]))
    return amounts


def _abbreviated_dates(norm: str, keep_before: int) -> list[tuple[int, int, str]]:
    """The dates of :data:`_ABBREVIATED_DATE` in ``norm`` ending by ``keep_before``:
    (start, end, canonical value), in order; an impossible month or day is not a date."""
    dates: list[tuple[int, int, str]] = []
    for match in _ABBREVIATED_DATE.finditer(norm, 0, keep_before):
        era_year, month_j, day_j, month_d, day_d, month_s = match.groups()
        first = match.start()
        if era_year is not None:
            year, month, day = str(_ERA_BASE[norm[first]] + int(era_year)), month_j or month_d, day_j or day_d
        else:
            year, month, day = norm[first : first + 4], month_s, None
        if int(era_year or 1) == 0 or not 1 <= int(month) <= 12 or (day is not None and not 1 <= int(day) <= 31):
            continue
        value = f"{year}-{int(month):02d}" + (f"-{int(day):02d}" if day else "")
        dates.append((match.start(), match.end(), value))
    return dates


_Qualifiers = tuple[str, frozenset[str], str]  # period, counted noun's words, role


def _role(norm: str, start: int, end: int, previous_end: int) -> str:
    """``before`` for an earlier or replaced value (``前年同期 0.75%``, ``220円 →``, ``220円から
    255円に``), ``after`` for the value that replaces it (``→ 255円``, ``から255円に``), else ""."""
    if _BEFORE_MARK.search(norm, max(start - CONTEXT_WINDOW, previous_end), start):
        return "before"
    if _ARROW_NEXT.match(norm, end) or _CHANGE_FROM.match(norm, end):
        return "before"
    left = norm[previous_end:start]
    if _ARROW_BEFORE.search(left) or (previous_end and _FROM.fullmatch(left) and _CHANGE_TO.match(norm, end)):
        return "after"
    return ""


def _qualifiers(norm: str, start: int, previous_end: int, end: int) -> _Qualifiers:
    """The period a number is counted per (``月``, ``人`` ... or ""), the words of the noun
    right before it (see :data:`_RATE`, :data:`_HEAD`) and its role (:func:`_role`)."""
    rate = _RATE.search(norm, max(start - _RATE_WINDOW, 0), start)
    period = ""
    if rate is not None:
        period = next(group for group in rate.groups() if group)
        period = _RATE_SPELLING.get(period, period)
    head = _HEAD.search(norm, max(start - CONTEXT_WINDOW, previous_end), start)
    return (
        period,
        frozenset(_BIGRAM.findall(head.group(1))) if head else _NO_WORDS,
        _role(norm, start, end, previous_end),
    )


def _words(piece: str) -> set[str]:
    return set(_BIGRAM.findall(piece))


def _contexts(norm: str, bounds: list[_Found]) -> list[frozenset[str]]:
    """For each mention (normalized ``start, end`` first, in order): the words around it
    (see the module docstring), within its sentence and not past its neighbours. The
    sentence ends are found once; each side's words are one ``findall`` of the bigrams, once
    per distinct piece, and their union once per distinct pair of pieces."""
    contexts: list[frozenset[str]] = []
    if not bounds:
        return contexts
    size = len(norm)
    stops = [m.start() for m in _SENTENCE_END.finditer(norm)]
    stops.append(size)  # (a sentinel: no mention ends after the text)
    findall = _BIGRAM.findall
    known: dict[tuple[str, str], frozenset[str]] = {("", ""): _NO_WORDS}  # words by the two pieces
    pieces: dict[str, list[str]] = {"": []}  # bigrams by piece
    window = CONTEXT_WINDOW
    starts = [bound[0] for bound in bounds]
    following = starts[1:]
    following.append(size)  # (the last mention's right side stops at the end of the text)
    k = 0  # the first sentence end at or after the current mention's start (both are in order)
    previous_end = 0
    for start, end, hi_limit in zip(starts, [bound[1] for bound in bounds], following, strict=True):
        lo = start - window
        if lo < previous_end:
            lo = previous_end
        hi = end + window
        if hi_limit < hi:
            hi = hi_limit
        while stops[k] < start:
            k += 1
        if k and stops[k - 1] >= lo:
            lo = stops[k - 1] + 1
        after_end = k
        while stops[after_end] < end:
            after_end += 1
        if stops[after_end] < hi:
            hi = stops[after_end]
        key = (norm[lo:start], norm[end:hi] if hi > end else "")
        words = known.get(key)
        if words is None:
            left, right = pieces.get(key[0]), pieces.get(key[1])
            if left is None:
                left = pieces[key[0]] = findall(key[0])
            if right is None:
                right = pieces[key[1]] = findall(key[1])
            words = known[key] = frozenset(left + right)
        contexts.append(words)
        previous_end = end
    return contexts


class _LazyContexts:
    """The words around each mention of a source, exactly :func:`_contexts`'s, each found
    when first asked for: a claim's number reads those of its value's mentions only up to
    the first :data:`MAX_NUMBER_SPANS` that agree (see :meth:`NumberIndex._agreeing`), so a
    new source is not read around each of its numbers. Thread-safe: a context is a pure
    function of the source, so two threads computing one store equal values."""

    __slots__ = ("_ends", "_known", "_norm", "_pieces", "_qualifiers", "_starts", "_stops", "_words")

    def __init__(self, norm: str, found: list[_Found]) -> None:
        self._norm = norm
        self._starts = [bound[0] for bound in found]
        self._ends = [bound[1] for bound in found]
        self._words: list[frozenset[str] | None] = [None] * len(found)
        self._stops: list[int] = []
        self._known: dict[tuple[str, str], frozenset[str]] = {("", ""): _NO_WORDS}
        self._pieces: dict[str, list[str]] = {"": []}
        self._qualifiers: dict[int, _Qualifiers] = {}
        if self._starts != sorted(self._starts):  # (_contexts walks its pointers in start order)
            self._words = list(_contexts(norm, found))

    def qualifiers(self, i: int) -> _Qualifiers:
        """The period, the counted noun's words and the role of mention ``i`` (:func:`_qualifiers`)."""
        known = self._qualifiers.get(i)
        if known is None:
            known = self._qualifiers[i] = _qualifiers(
                self._norm, self._starts[i], self._ends[i - 1] if i else 0, self._ends[i]
            )
        return known

    def at(self, i: int) -> frozenset[str]:
        """The words around mention ``i``."""
        words = self._words[i]
        if words is None:
            words = self._words[i] = self._find(i)
        return words

    def _find(self, i: int) -> frozenset[str]:
        """:func:`_contexts`'s loop body for mention ``i``, its pointers found by bisection."""
        norm, starts, ends, stops = self._norm, self._starts, self._ends, self._stops
        if not stops:
            stops = [m.start() for m in _SENTENCE_END.finditer(norm)]
            stops.append(len(norm))  # (a sentinel: no mention ends after the text)
            self._stops = stops
        start, end = starts[i], ends[i]
        lo = max(start - CONTEXT_WINDOW, ends[i - 1] if i else 0)
        hi = min(end + CONTEXT_WINDOW, starts[i + 1] if i + 1 < len(starts) else len(norm))
        k = bisect.bisect_left(stops, start)
        if k and stops[k - 1] >= lo:
            lo = stops[k - 1] + 1
        after_end = bisect.bisect_left(stops, end, k)
        if stops[after_end] < hi:
            hi = stops[after_end]
        key = (norm[lo:start], norm[end:hi] if hi > end else "")
        words = self._known.get(key)
        if words is None:
            pieces = self._pieces
            left, right = pieces.get(key[0]), pieces.get(key[1])
            if left is None:
                left = pieces[key[0]] = _BIGRAM.findall(key[0])
            if right is None:
                right = pieces[key[1]] = _BIGRAM.findall(key[1])
            words = self._known[key] = frozenset(left + right)
        return words


def _scan_limit(text: str) -> int:
    """Where scanning stops: the start of the numeral run after the first :data:`MAX_MENTIONS`
    (one match of :data:`_PAST_MENTIONS`, which builds no string per run)."""
    past = _PAST_MENTIONS.match(text)
    return len(text) if past is None else past.end()


def scan_mentions(text: str) -> tuple[list[NumberMention], bool]:
    """:func:`numeric_mentions` and whether the text had more numerals than were scanned."""
    mentions, _contexts_of, truncated = _scan(text)
    return mentions, truncated


def _scan_found(
    text: str, prepared: NormalizedText | None = None
) -> tuple[list[_Found], list[str], str, bool]:
    """The mentions of ``text`` (:func:`_mentions_of`, offsets in ``text``), their kinds,
    the normalized text they were found in (their words are read from it: :func:`_contexts`
    or :class:`_LazyContexts`), and whether scanning stopped early.

    ``prepared``: ``text`` already normalized with :data:`GROUNDING_FLAGS` (used when the
    whole text is scanned).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if prepared is not None and (prepared.original is not text or prepared.flags != GROUNDING_FLAGS):
        prepared = None
    if _NUMERAL_RUN.search(prepared.text if prepared else normalize(text, flags=_NFKC_ONLY)) is None:
        return [], [], "", False  # no numeral even after NFKC (①, ¹, ㋀ ...): nothing to scan
    limit = _scan_limit(text)
    truncated = limit < len(text)
    if prepared is not None and not truncated:
        normalized = prepared
    else:
        normalized = normalize_with_offsets(text[:limit], flags=GROUNDING_FLAGS)
    keep_before = len(normalized.text) - _CUT_MARGIN if truncated else len(normalized.text)
    found, kinds = _mentions_of(normalized, keep_before)
    return found, kinds, normalized.text, truncated


def _scan(
    text: str, prepared: NormalizedText | None = None
) -> tuple[list[NumberMention], list[frozenset[str]], bool]:
    """The mentions of ``text``, the words around each, and whether scanning stopped early."""
    found, kinds, norm, truncated = _scan_found(text, prepared)
    contexts = _contexts(norm, found)
    mentions = [
        NumberMention(text[a:b], a, b, kind, value, category)
        for (_s, _e, a, b, value, category), kind in zip(found, kinds, strict=True)
    ]
    return mentions, contexts, truncated


def _precisions(value: str) -> tuple[str, ...]:
    """The coarser spellings a source date also grounds: ``2023-04-01`` grounds the month
    ``2023-04``, the year ``2023年``, the day of the year ``--04-01`` and the bare month ``4月``
    (the scanner's value of 「4月」 alone)."""
    if "T" in value:  # a time on a date also grounds the bare time and the time on a coarser date
        day, time = value.split("T", 1)
        return (time, *(f"{coarser}T{time}" for coarser in _precisions(day)))
    date = _DATE_VALUE.fullmatch(value)
    if date is None:
        day_of_year = _DAY_OF_YEAR.fullmatch(value)
        return (f"{int(day_of_year.group(1))}月",) if day_of_year else ()
    year, month, day = date.groups()
    if day is None:
        return (f"{year}年", f"{int(month)}月")
    return (f"{year}-{month}", f"{year}年", f"--{month}-{day}", f"{int(month)}月")


def numeric_mentions(text: str) -> list[NumberMention]:
    """Every numeric expression of ``text``, with spans in the original ``text``.

    Already-canonical expressions count too (``scan_numeric(..., include_unchanged=True)``).
    At most about :data:`MAX_MENTIONS` (see the module docstring).
    """
    return scan_mentions(text)[0]


#: What one table heading says: the dates it names (and their coarser spellings), its words
#: (bigrams), and its text.
_Heading = tuple[frozenset[str], frozenset[str], str]
#: the row's label, the column's header, and whether the column is the table's latest period
_Headers = tuple[_Heading, _Heading, bool]
#: What a claim's sentence says: the dates it names (and their coarser spellings), its words, its text.
_Sentence = tuple[frozenset[str], frozenset[str], str]
_NO_HEADING: _Heading = (frozenset(), frozenset(), "")
_DATE_LIKE = re.compile(r"[0-9]{4}年度?|[0-9]{1,2}月|[0-9]{4}-[0-9]{2}(?:-[0-9]{2})?|--[0-9]{2}-[0-9]{2}")
_UNIT_TAIL = re.compile(r"[(\[][^()\[\]]*[)\]]\s*$")


def _dates_of(found: Iterable[_Found]) -> frozenset[str]:
    dates: set[str] = set()
    for mention in found:
        if mention[5] == "date" or _DATE_LIKE.fullmatch(mention[4]):
            dates.add(mention[4])
            dates.update(_precisions(mention[4]))
    return frozenset(dates)


def _heading(text: str) -> _Heading:
    """What a row label or a column header says (its unit bracket left out)."""
    text = _UNIT_TAIL.sub("", text).strip()
    found = _scan_found(text)[0] if text else []
    return _dates_of(found), frozenset(_words(text)), text


class _Sentences:
    """The sentence of each mention of a claim (normalized ``norm``): its dates, words and text."""

    def __init__(self, norm: str, found: list[_Found]) -> None:
        self.norm, self.found = norm, found
        self.stops = [m.start() for m in _SENTENCE_END.finditer(norm)]
        self._starts = [mention[0] for mention in found]
        self._of: dict[int, _Sentence] = {}

    def at(self, i: int) -> _Sentence:
        start = self.found[i][0]
        k = bisect.bisect_left(self.stops, start)
        lo = self.stops[k - 1] + 1 if k else 0
        hi = self.stops[k] if k < len(self.stops) else len(self.norm)
        known = self._of.get(lo)
        if known is None:
            text = self.norm[lo:hi]
            first, last = bisect.bisect_left(self._starts, lo), bisect.bisect_left(self._starts, hi)
            known = self._of[lo] = (_dates_of(self.found[first:last]), frozenset(_words(text)), text)
        return known


_YEAR_HEADING = re.compile(r"([0-9]{4})年度?")


def _latest_column(heads: tuple[str, ...], heading: Callable[[str], _Heading] = _heading) -> int:
    """The column of a table's latest period: of the headers naming a date, the latest year
    when each names a year, else the last one (-1: none names a date). ``heading`` reads one
    header (a cache of :func:`_heading`)."""
    dated = [(j, heading(head)[0]) for j, head in enumerate(heads)]
    dated = [(j, dates) for j, dates in dated if dates]
    if not dated:
        return -1
    years: list[tuple[int, int]] = []  # (year, column)
    for j, dates in dated:
        named = [int(m[1]) for d in dates if (m := _YEAR_HEADING.fullmatch(d))]
        if not named:
            return dated[-1][0]
        years.append((max(named), j))
    return max(years)[1]


def _names(sentence: _Sentence | None, headers: _Headers) -> bool:
    """Whether a claim's sentence names a table cell's row and column: each heading's date
    (when it names one; a sentence naming no date reads the table's latest period), else a
    word of it (else its text)."""
    if sentence is None:
        return False
    dates, words, text = sentence
    row, column, latest = headers
    for heading_dates, heading_words, heading_text in (row, column):
        if heading_dates:
            if not dates and heading_dates is column[0] and latest:
                continue  # the latest period, which a summary cites without naming it
            if heading_dates.isdisjoint(dates):
                return False
        elif heading_words:
            if heading_words.isdisjoint(words):
                return False
        elif heading_text and heading_text not in text:
            return False
    return True


@dataclass(slots=True)
class NumberIndex:
    """The numeric expressions of one source, by canonical value (scanned once).

    ``by_value`` also lists each date under its coarser precisions (see the module docstring).
    """

    source: str
    kinds: frozenset[str] = field(default_factory=lambda: frozenset(NUMERIC_KINDS))
    #: the source spans ``(start, end)`` of each canonical value (:attr:`by_value` as Spans)
    _spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict, init=False, repr=False)
    truncated: bool = field(default=False, init=False)
    #: the source already normalized with :data:`GROUNDING_FLAGS` (shared with the quote
    #: check, which continues from it); used while scanning, not kept
    prepared: NormalizedText | None = field(default=None, repr=False, compare=False, kw_only=True)
    #: the mention (an index of ``_found``) of each span of ``_spans`` (same order)
    _mention_of: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False)
    #: every mention of the source, in order (:func:`_mentions_of`)
    _found: list[_Found] = field(default_factory=list, init=False, repr=False)
    #: the words around each mention of ``_found``, found when first read
    _around: _LazyContexts = field(default_factory=lambda: _LazyContexts("", []), init=False, repr=False, compare=False)
    _said_index: dict[str, dict[str, set[str]]] = field(default_factory=dict, init=False, repr=False)
    #: per value: the spans (indexes into its spans) that are table body cells, with what their
    #: headings say (:meth:`_table_cells`)
    _cells_of: dict[str, dict[int, _Headers]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _norm: str = field(default="", init=False, repr=False, compare=False)
    _lines: TableLines | None = field(default=None, init=False, repr=False, compare=False)
    _headings: dict[str, _Heading] = field(default_factory=dict, init=False, repr=False, compare=False)
    _latest: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _found_starts: list[int] | None = field(default=None, init=False, repr=False, compare=False)
    _nouns_of: dict[str, dict[frozenset[str], set[str]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _noun_words: dict[str, dict[str, list[frozenset[str]]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: the mentions of each value grouped by period and counted noun (:meth:`_groups`)
    _groups_of: dict[str, list[tuple[str, frozenset[str], frozenset[str], str, list[int]]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not isinstance(self.source, str):
            raise TypeError(f"source must be a str, got {type(self.source).__name__}")
        unknown = set(self.kinds) - set(NUMERIC_KINDS)
        if unknown:
            raise ValueError(
                f"unknown numeric kind(s) {sorted(unknown)}: choose from {', '.join(NUMERIC_KINDS)}"
            )
        found, _kinds, norm, self.truncated = _scan_found(self.source, self.prepared)
        self.prepared = None
        self._found, self._around, self._norm = found, _LazyContexts(norm, found), norm
        by_value, mention_of = self._spans, self._mention_of
        # per value: the lists of its spellings (the value and the coarser dates it grounds)
        lists: dict[str, tuple[tuple[list[tuple[int, int]], list[int]], ...]] = {}
        for i, (_s, _e, a, b, value, _category) in enumerate(found):
            span = (a, b)  # a Span only when reported
            targets = lists.get(value)
            if targets is None:
                targets = lists[value] = tuple(
                    (by_value.setdefault(v, []), mention_of.setdefault(v, [])) for v in (value, *_precisions(value))
                )
            for spans, mentions in targets:
                spans.append(span)
                mentions.append(i)

    @property
    def by_value(self) -> dict[str, list[Span]]:
        """The source spans of each canonical value, in source order (each date also under
        its coarser precisions)."""
        source = self.source
        return {value: [Span(a, b, source[a:b]) for a, b in spans] for value, spans in self._spans.items()}

    def _said(self, category: str) -> dict[str, set[str]]:
        """What the source says next to each word in ``category``: word -> values (built per
        category on first use: only a claim whose words agree with no same-value mention asks)."""
        said = self._said_index.get(category)
        if said is None:
            groups: dict[frozenset[str], set[str]] = {}  # mentions sharing their words
            around = self._around
            for i, (_s, _e, _a, _b, value, of_category) in enumerate(self._found):
                if of_category != category:
                    continue
                words = around.at(i)
                if not words:
                    continue
                group = groups.get(words)
                if group is None:
                    groups[words] = {value}
                else:
                    group.add(value)
            said = {}
            for words, values in groups.items():
                for word in words:
                    known = said.get(word)
                    if known is None:
                        said[word] = set(values)
                    else:
                        known |= values
            self._said_index[category] = said  # whole, once built: safe to share across threads
        return said

    def ground(self, claim: object) -> ClaimResult:
        """Ground every numeric expression of ``claim`` (of the index's kinds)."""
        if not isinstance(claim, str):
            return ClaimResult(
                repr(claim)[:200], "invalid", reason=f"claim is {type(claim).__name__}, not a string"
            )
        if not claim.strip():
            return ClaimResult(claim, "invalid", reason="empty claim")
        found, kinds, norm, cut = _scan_found(claim)
        contexts = _contexts(norm, found)
        sentences = _Sentences(norm, found)
        numbers = [
            self._grounded(
                NumberMention(claim[a:b], a, b, kind, value, category),
                contexts[i],
                _qualifiers(norm, found[i][0], found[i - 1][1] if i else 0, found[i][1]),
                sentences.at(i),
            )
            for i, ((_s, _e, a, b, value, category), kind) in enumerate(zip(found, kinds, strict=True))
            if kind in self.kinds
        ]
        if not numbers:
            return ClaimResult(claim, "no_numbers", reason="no amount, percentage, date or number to check")
        grounded = sum(n.grounded for n in numbers)
        status: ClaimStatus = "grounded" if grounded == len(numbers) else "ungrounded" if grounded == 0 else "partial"
        truncated = cut or self.truncated or len(numbers) > MAX_CLAIM_NUMBERS
        return ClaimResult(claim, status, tuple(numbers[:MAX_CLAIM_NUMBERS]), _reason(numbers), truncated)

    def _grounded(
        self,
        mention: NumberMention,
        words: frozenset[str],
        qualifiers: _Qualifiers = ("", _NO_WORDS, ""),
        sentence: _Sentence | None = None,
    ) -> GroundedNumber:
        every = self._spans.get(mention.value, [])
        source = self.source
        period, noun, role = qualifiers
        count, positions = len(every), None
        cells = self._table_cells(mention.value) if every and mention.category != "date" else {}
        allowed: list[int] | None = None
        if cells:  # a table cell grounds only a claim that names its row and column
            allowed = [k for k in range(len(every)) if k not in cells or _names(sentence, cells[k])]
            count, positions = len(allowed), allowed
            if not allowed:  # the value is there, in cells whose row or column the claim does not name
                return self._differs(mention, every)
        if every and noun and mention.category != "date" and self._swapped(mention, noun):
            return self._differs(mention, every)
        if (
            every
            and mention.category != "date"
            and (period or (noun and mention.category == "count") or role or self._has_roles(mention.value))
        ):
            count, positions = self._fitting(mention, words, qualifiers)
            if allowed is not None:
                kept = set(allowed)
                positions = [k for k in positions if k in kept]
                count = min(count, len(positions)) if len(positions) < _FITTING_READ else count
            if not count:  # the value is there, but per another period or counting another noun
                return self._differs(mention, every)
        if words:  # the mentions with no words of their own, or sharing one with the claim, first
            agree, others = self._agreeing(mention.value, words, positions)
            if every and not agree and self._says_otherwise(mention, words):
                return self._differs(mention, every)
            spans = [every[i] for i in agree]
            spans += [every[i] for i in others[: MAX_NUMBER_SPANS - len(spans)]]
        else:  # no words: every mention agrees
            spans = [every[i] for i in positions[:MAX_NUMBER_SPANS]] if positions is not None else every[:MAX_NUMBER_SPANS]
        return GroundedNumber(
            mention, bool(count), tuple(Span(a, b, source[a:b]) for a, b in spans), count, count > MAX_NUMBER_SPANS,
        )  # fmt: skip

    def _differs(self, mention: NumberMention, every: list[tuple[int, int]]) -> GroundedNumber:
        """△: the value is in the source (at ``every``), but not in the claim's context."""
        source = self.source
        elsewhere = tuple(Span(a, b, source[a:b]) for a, b in every[:MAX_NUMBER_SPANS])
        return GroundedNumber(mention, False, context_differs=True, elsewhere=elsewhere)

    def _table_cells(self, value: str) -> dict[int, _Headers]:
        """The spans of ``value`` (indexes into its spans) that are table body cells
        (:mod:`sadame.quote._tables`), with the dates and words of the headings that tell each apart
        (see :func:`_names`)."""
        cells = self._cells_of.get(value)
        if cells is None:
            cells = {}
            if "|" in self._norm:
                if self._lines is None:
                    self._lines = TableLines(self._norm)
                for k, i in enumerate(self._mention_of.get(value, [])):
                    start, end, _a, _b, _value, category = self._found[i]
                    if category in ("number", "date"):
                        continue
                    headers = cell_of(self._lines, start, end)
                    if headers is not None:
                        label, head, column, top, line = headers
                        competing = self._competes(line, column, category)
                        latest = self._latest.get(top)
                        if latest is None:
                            latest = self._latest[top] = _latest_column(column_headers(self._lines, top), self._heading)
                        # a heading distinguishes a cell only when its table has another row, its
                        # row another value
                        cells[k] = (
                            self._heading(label) if self._lines.body_rows(top) > 1 else _NO_HEADING,
                            self._heading(head) if competing else _NO_HEADING,
                            column == latest,
                        )
            self._cells_of[value] = cells  # whole, once built: safe to share across threads
        return cells

    def _competes(self, line: int, column: int, category: str) -> bool:
        """Whether another value cell of table line ``line`` holds a number of ``category``."""
        assert self._lines is not None
        if self._found_starts is None:
            self._found_starts = [mention[0] for mention in self._found]
        lo = self._lines.starts[line]
        hi = self._lines.starts[line + 1] if line + 1 < len(self._lines.starts) else len(self._norm)
        first, last = bisect.bisect_left(self._found_starts, lo), bisect.bisect_left(self._found_starts, hi)
        for start, _end, _a, _b, _value, other in self._found[first:last]:
            if other == category and value_column_at(self._lines, line, start) not in (column, 0, -1):
                return True
        return False

    def _swapped(self, mention: NumberMention, noun: frozenset[str]) -> bool:
        """Whether the source gives the claim's noun only other values of the claim's kind, and the
        claim's value only other nouns: two values swapped (「転入 4,731人、転出 4,885人」 against the
        claim 「転入4,885人」). Nouns are alike when one's words contain the other's (志願者, 志願者数)."""
        values: set[str] = set()
        for theirs in self._nouns_like(mention.category, noun):
            values |= self._nouns(mention.category)[theirs]
        if not values or mention.value in values:
            return False
        around = self._around
        elsewhere = False
        for i in self._mention_of.get(mention.value, [])[:_FITTING_READ]:
            if self._found[i][5] != mention.category:
                continue
            theirs = around.qualifiers(i)[1]
            if not theirs or theirs <= noun or noun <= theirs:
                return False  # the value is also stated without a noun, or for this one
            elsewhere = True
        return elsewhere

    def _nouns_like(self, category: str, noun: frozenset[str]) -> list[frozenset[str]]:
        """The source's nouns of ``category`` alike ``noun`` (see :meth:`_swapped`), found through
        the words they share."""
        self._nouns(category)
        by_word = self._noun_words[category]
        seen: set[frozenset[str]] = set()
        for word in noun:
            for theirs in by_word.get(word, ()):
                if theirs not in seen and (theirs <= noun or noun <= theirs):
                    seen.add(theirs)
        return list(seen)

    def _nouns(self, category: str) -> dict[frozenset[str], set[str]]:
        """The noun right before each mention of ``category`` -> the values the source gives it
        (built per category on first use, with each noun listed under its words)."""
        nouns = self._nouns_of.get(category)
        if nouns is None:
            nouns = {}
            around = self._around
            for i, found in enumerate(self._found):
                if found[5] == category:
                    noun = around.qualifiers(i)[1]
                    if noun:
                        nouns.setdefault(noun, set()).add(found[4])
            by_word: dict[str, list[frozenset[str]]] = {}
            for noun in nouns:
                for word in noun:
                    by_word.setdefault(word, []).append(noun)
            self._noun_words[category] = by_word
            self._nouns_of[category] = nouns  # whole, once built (after its word index): thread-safe
        return nouns

    def _heading(self, text: str) -> _Heading:
        heading = self._headings.get(text)
        if heading is None:
            heading = self._headings[text] = _heading(text)
        return heading

    def _has_roles(self, value: str) -> bool:
        """Whether some mention of ``value`` is an earlier or a new value (:func:`_role`)."""
        return any(group[3] for group in self._groups(value))

    def _fitting(
        self, mention: NumberMention, words: frozenset[str], qualifiers: _Qualifiers
    ) -> tuple[int, list[int]]:
        """How many spans of the claim's value fit the claim's period and counted noun, and the
        first :data:`_FITTING_READ` of them (indexes into the value's spans): the same period
        when the claim states one (the source may state one the claim leaves out: grounded at
        the claim's precision), and for a count, a noun sharing a word with the claim's context
        or the claim's noun with the mention's context (a paraphrase), or no noun on one side
        (a bare table cell); and the same role (:func:`_role`): an earlier value grounds only a
        claim stating it as one, and a new value grounds any claim but one stating it as the
        earlier. Decided once per group of mentions alike (:meth:`_groups`)."""
        period, noun, role = qualifiers
        count = 0
        fitting: list[list[int]] = []
        for their_period, their_noun, their_words, their_role, members in self._groups(mention.value):
            if period and their_period != period:
                continue
            if (their_role == "before" and role != "before") or (their_role == "after" and role == "before"):
                continue
            counts_another = noun and their_noun and mention.category == "count"
            if counts_another and their_noun.isdisjoint(words) and noun.isdisjoint(their_words):
                continue
            count += len(members)
            fitting.append(members)
        return count, list(itertools.islice(heapq.merge(*fitting), _FITTING_READ))

    def _groups(self, value: str) -> list[tuple[str, frozenset[str], frozenset[str], str, list[int]]]:
        """The mentions of ``value`` (indexes into its spans) grouped by (period, counted noun,
        words when there is a noun), in source order within each group; built once per value."""
        groups = self._groups_of.get(value)
        if groups is None:
            by_key: dict[tuple[str, frozenset[str], frozenset[str], str], list[int]] = {}
            around = self._around
            for i, index in enumerate(self._mention_of.get(value, ())):
                period, noun, role = around.qualifiers(index)
                by_key.setdefault((period, noun, around.at(index) if noun else _NO_WORDS, role), []).append(i)
            groups = self._groups_of[value] = [(*key, members) for key, members in by_key.items()]
        return groups

    def _agreeing(
        self, value: str, words: frozenset[str], positions: list[int] | None = None
    ) -> tuple[list[int], list[int]]:
        """The first :data:`MAX_NUMBER_SPANS` spans of ``value`` (indexes into its spans; only
        ``positions`` of them when given) whose mention has no words of its own or shares one
        with ``words``, and the first that do not: reading the mentions in order, only until
        that many agree."""
        agree: list[int] = []
        others: list[int] = []
        around = self._around.at
        mentions = self._mention_of.get(value, [])
        for i in range(len(mentions)) if positions is None else positions:
            theirs = around(mentions[i])
            if not theirs or not words.isdisjoint(theirs):
                agree.append(i)
                if len(agree) == MAX_NUMBER_SPANS:
                    break
            elif len(others) < MAX_NUMBER_SPANS:
                others.append(i)
        return agree, others

    def _says_otherwise(self, mention: NumberMention, words: frozenset[str]) -> bool:
        """True when the source puts a different number of the same category next to the
        claim's words (``2名増員`` against the claim ``保育士を3名増員``)."""
        if mention.category == "date":
            return False  # a document puts many dates by the same nouns (会議, 開催): decided by value
        said = self._said(mention.category)
        for word in words:
            for value in said.get(word, ()):
                if mention.value != value and mention.value not in _precisions(value):
                    return True
        return False

    def ground_many(self, claims: Iterable[object]) -> list[ClaimResult]:
        """One result per claim, in input order."""
        return [self.ground(c) for c in claims]


def _reason(numbers: list[GroundedNumber]) -> str:
    parts: list[str] = []
    for what, texts in (
        ("not in the source", [n.mention.text for n in numbers if not n.grounded and not n.context_differs]),
        ("in the source only in another context", [n.mention.text for n in numbers if n.context_differs]),
    ):
        if texts:
            more = f" (and {len(texts) - 20} more)" if len(texts) > 20 else ""
            parts.append(f"{what}: {', '.join(texts[:20])}{more}")
    return "; ".join(parts)


def _kinds(kinds: Iterable[str] | None) -> frozenset[str]:
    if kinds is None:
        return frozenset(NUMERIC_KINDS)
    if isinstance(kinds, str):
        raise TypeError("kinds must be an iterable of kind names, not a single str")
    return frozenset(kinds)


def ground_numbers(claim: str, source: str, *, kinds: Iterable[str] | None = None) -> ClaimResult:
    """Check every numeric expression of ``claim`` against ``source``.

    ``kinds`` restricts the check (``{"amount", "percent", "date"}``); by default
    plain numbers are checked too.
    """
    return NumberIndex(source, _kinds(kinds)).ground(claim)


def ground_claims(
    claims: Iterable[object], source: str, *, kinds: Iterable[str] | None = None
) -> list[ClaimResult]:
    """Ground many claims against one source, scanning the source once."""
    return NumberIndex(source, _kinds(kinds)).ground_many(claims)
