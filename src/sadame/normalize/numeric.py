"""Numeric normalization: amounts, percentages and dates in one canonical spelling.

Why: a grounding check has to see that ``1億2000万円``, ``一億二千万円`` and
``120,000,000円`` are the same amount, and that ``令和8年7月18日`` is
``2026-07-18``. Seed 002 forbids shipping this step with undefined boundaries, so
every rule is written down here and pinned by the golden table
``tests/normalize/data/numeric.json``.

>>> apply_numeric("売上は1億2000万円、前年比3割5分増、令和8年7月18日発表")
'売上は120000000円、前年比35%増、2026-07-18発表'

Input
=====
The contract runs this step on text that is already NFKC-normalized (full-width
digits are ASCII, ``％`` is ``%``, ``～`` is ``~``, ``㍻`` is ``平成``) and
Markdown-stripped; the ``numeric`` preset deletes whitespace *after* it. Only ASCII
digits ``0-9`` are digits (other scripts' digits are left alone). "Space" below
means a run of ``" "``, ``"\\t"`` or ``"\\u3000"``. :func:`scan_numeric` reports
spans into the text it is given; :func:`apply_numeric` replaces them.

Numerals
========
* Arabic number: ``[0-9]+`` with an optional decimal part ``.[0-9]+``. Commas are
  thousands separators only in the exact form ``d{1,3}(,ddd)+`` (``1,234``,
  ``120,000,000``); any other comma pattern (``1,23``, ``1,2,3``, ``1,234,5``)
  makes the whole run a list, left unchanged. Two decimal points (``1.2.3``,
  version strings) leave the run unchanged.
* Kanji digits ``〇零一二三四五六七八九`` (``〇`` and ``零`` are both 0), small
  multipliers ``十百千`` and large multipliers ``万億兆`` (``京`` and beyond are
  not supported: ``京`` is usually Kyoto). 大字 (``壱弐参拾萬``) and the circle
  ``○`` are not numerals here: they are rare in LLM output, and ``参`` or ``○``
  are far more often a word or a mask (``衆参両院``, ``○○円``).
* A numeral run is a maximal sequence of arabic numbers and kanji numerals;
  spaces may stand only next to a multiplier ``十百千万億兆`` (``1 億 2000 万``,
  ``5 千円``). The whole run must parse, or all of it is left unchanged
  (``万一``, ``七五三``, ``1万2億``):
  - groups with strictly decreasing ``兆 > 億 > 万``, each coefficient a small
    part; every group after the first has a coefficient below 10000;
  - a small part is either positional kanji digits (two or more, at least one
    ``〇``/``零``: ``二〇二六`` = 2026, ``一〇〇`` = 100; without a zero, as in
    ``七五三`` or ``二三日`` "two or three days", it is not a number), or terms
    with strictly decreasing ``千 > 百 > 十``, each with an optional coefficient
    below 10 (a kanji digit or an arabic number, decimals allowed: ``1.5千`` = 1500),
    then an optional trailing coefficient smaller than the last multiplier
    (``2千300`` = 2300);
  - runs longer than 64 characters are left unchanged (no quantity is written
    like that, and it bounds the arithmetic).
* A run that is not a plain arabic number and touches another numeral through
  ``.`` or ``,`` (``8.六百割``, ``5,百円``) is left unchanged: its digits would
  merge with that number.
* Values are exact. A result is printed as an integer when whole, else as an exact
  decimal without trailing zeros: ``1.5万`` -> ``15000``, ``1.23456万`` ->
  ``12345.6`` (the value is kept, never rounded).
* Plain arabic numbers without multipliers keep their spelling except for the
  thousands separators: ``1,234`` -> ``1234``; ``1.50``, ``1.50%`` and ``007`` stay
  as written (``Python 3.10`` must not become ``3.1``).

When a number is converted (the quantity rule)
==============================================
* An arabic number combined with any kanji multiplier is converted:
  ``5000万人`` -> ``50000000人``, ``3千円`` -> ``3000円``, ``20億`` -> ``2000000000``.
* A number written only in kanji is converted when it is a quantity:
  (a) it is followed (after optional space) by a counter of :data:`COUNTERS`, by
  ``%``, ``パーセント`` or ``割``, or it is part of a date or a range (below); or
  (b) it contains ``万``/``億``/``兆`` whose coefficient has an explicit digit
  (``一億二千万`` -> ``120000000``, ``一万`` -> ``10000``; but ``千万`` or
  ``百万`` alone stay, as in ``百万遍``).
  Never when preceded by ``数``, ``何`` or ``幾`` (``数千万円``, ``何十人``: the
  value is unknown), nor inside the idioms of :data:`KANJI_IDIOMS` (``一個人``).
* :data:`COUNTERS` deliberately omits counters that start common words after a
  kanji digit: ``分`` (``十分``), ``部`` (``一部``), ``番`` (``一番``), ``時``
  (``一時``), ``度`` (``一度``), ``方``, ``本`` (``六本木``), ``位``
  (``三位一体``), ``元`` (``一元化``), ``月`` (``五月雨``) and ``日`` (``四日市``).
  So ``十分`` and ``一日`` stay; ``三日間`` -> ``3日間``; months and days in kanji
  are converted by the date rules only.
* The ``万円`` of ``数万円`` or a standalone ``万円`` has no coefficient and stays.
* Signs are not part of a number: ``-``, ``−``, ``▲`` stay where they are
  (``-1.2億`` -> ``-120000000``).

Percentages (kind ``percent``)
==============================
``N%`` (after NFKC ``％``), ``Nパーセント`` -> ``N%``; ``N割`` -> ``10N%``, then an
optional single digit + ``分`` (1 %) and an optional single digit + ``厘`` (0.1 %):
``3割`` -> ``30%``, ``3割5分`` -> ``35%``, ``3割5分2厘`` -> ``35.2%``, ``2割引`` ->
``20%引``, ``三割五分`` -> ``35%``. ``分``/``厘`` without a preceding ``割`` are
not percentages (``5分`` stays: minutes; ``五分五分`` stays); ``3割12分`` ->
``30%12分`` (``分`` takes one digit).

Ranges
======
``A〜B`` with a separator of ``〜 ~ - ‐ –`` (spaces allowed around it), where B
carries a multiplier, a unit or a percent sign and A has no unit of its own:

* A bare A shares B's multiplier, as Japanese writes it: ``3〜5割`` ->
  ``30〜50%``, ``1〜2万円`` -> ``10000〜20000円``, ``3〜5千万円`` ->
  ``30000000〜50000000円``, ``三千〜五千円`` -> ``3000〜5000円``. A takes B's
  leading place value when A has no multiplier, or B's ``万億兆`` when A has only
  ``十百千``; never when that would pass B (``100〜1.5万`` -> ``100〜15000``).
* A kanji A follows B into arabic digits (``二〜三人`` -> ``2〜3人``), unless B
  is an arabic number whose only mark is a counter.
* A takes B's kind and unit in its ``value`` (``1〜2万円``: ``10000円`` and
  ``20000円``), except for units starting with ``年``: a year count is not shared.
* ``NNNN-MM`` formed this way (``千6-十`` = ``1006-10``) is a year-month date.
* The separator and the unit stay as written. ``から`` is not a range separator.

Dates (kind ``date``)
=====================
* ``Y年M月D日`` -> ``YYYY-MM-DD``; ``Y年M月`` -> ``YYYY-MM``; ``Y/M/D``,
  ``Y-M-D``, ``Y.M.D`` -> ``YYYY-MM-DD``. Y must come out as a 4-digit year
  1000-9999 (``2026``, ``二〇二六``, ``二千二十六``), M 1-12, D a real day of
  that month (proleptic Gregorian: ``2024年2月29日`` yes, ``2026年2月29日`` no).
  Spaces are allowed around ``年月日``; the slash forms need 1-2 digit M and D
  and must not be preceded by ``/``, ``-`` or ``.`` (paths, versions).
  ``YYYY-MM`` (two-digit month) is recognised as a date, unchanged, so that the
  output of ``2026年7月`` reads as the same date again.
* Era dates ``<era>N年M月D日``, ``<era>N年M月``, with ``元年`` = year 1:
  ``令和8年7月18日`` -> ``2026-07-18``; ``令和元年5月1日`` -> ``2019-05-01``.
  An era year alone becomes the Gregorian year (kind ``amount`` like ``2026年``
  itself): ``令和8年`` -> ``2026年``, ``平成31年度`` -> ``2019年度``. Enforced
  ranges (both boundary days belong to both eras, as in official usage):

  ====  ==========  ==========  ==============================================
  era   first day   last day    last year
  ====  ==========  ==========  ==============================================
  明治  1873-01-01  1912-07-30  45 (years 1-5 exist, but their month/day are
                                lunisolar: full dates there are left unchanged)
  大正  1912-07-30  1926-12-25  15
  昭和  1926-12-25  1989-01-07  64
  平成  1989-01-08  2019-04-30  31
  令和  2019-05-01  9999-12-31  7981
  ====  ==========  ==========  ==============================================

  ``平成31年5月1日``, ``令和元年4月30日``, ``平成32年``, ``昭和64年2月`` are
  invalid. An era expression directly preceded by another era name or by a
  numeral (``令和令和2年``, ``一兆令和2年``) is left unchanged: its output would
  merge into what precedes it.
* Invalid dates are left entirely unchanged, kanji included: ``2026年13月40日``,
  ``2026年2月30日``, ``平成32年``, ``二〇二六年十三月一日``.
* ``M月D日`` without a year stays a month-day: arabic is left as is, kanji
  becomes arabic (``七月十八日`` -> ``7月18日``), value ``--07-18``; an impossible
  one (``2月30日``) is unchanged. ISO ``--MM-DD`` is not written into text: no
  source or LLM answer spells dates that way, so it would never match.
* A year alone (``2026年``) is not a date and is left unchanged.
* A date directly followed by a digit or kanji numeral (``2026年7月18日万``) is
  left unchanged: its output would run into that number.

Kinds, values, units
====================
``date`` for dates, ``percent`` for ``%``/``割``/``パーセント``, ``amount`` when a
counter/unit/currency follows (:data:`COUNTERS`, :data:`ARABIC_UNITS`), else
``number``. A match's ``value`` is its canonical value (``120000000円``, ``35%``,
``2026-07-18``, ``--07-18``) and ``unit`` the unit that follows (``円``, ``%``).
Scanning a text and scanning its canonical output with ``include_unchanged=True``
give the same kinds and values (a tested property): grounding may compare either.

Idempotence
===========
``apply_numeric(apply_numeric(t)) == apply_numeric(t)`` (a tested property): every
replacement is already canonical, and the merge rules above stop a replacement
from joining a neighbouring numeral into a new number.

Complexity
==========
Linear in the input: candidates are found with possessive, look-behind-anchored
regular expressions that never rescan a numeral run, and every run is parsed a
bounded number of times. Plain digit runs and lone kanji digits with nothing
convertible after them cost only the regex scan.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

__all__ = [  # scan_spans and MatchTuple are the quote feature's fast path, not public API
    "NumericMatch",
    "apply_numeric",
    "scan_numeric",
]

NumericKind = Literal["number", "amount", "percent", "date"]
_Value: TypeAlias = "int | Fraction"  # exact; Fraction only when a decimal point was read


@dataclass(frozen=True, slots=True)
class NumericMatch:
    """One numeric expression found in a text.

    ``start``/``end`` are offsets into the text given to :func:`scan_numeric`;
    ``replacement`` is the canonical spelling that replaces ``text[start:end]``.
    ``value`` is the canonical value including its unit (``120000000円``, ``35%``,
    ``2026-07-18``), useful for grounding numbers; ``unit`` is the following unit
    or ``%`` (empty when none).
    """

    start: int
    end: int
    replacement: str
    kind: NumericKind
    value: str = ""
    unit: str = ""


#: Counters and units after which a number is a quantity (kind ``amount``), and
#: after which a kanji numeral is converted. Ambiguous ones are left out on purpose
#: (see the module docstring): 分 部 番 時 度 方 本 位 元 月 日.
COUNTERS: tuple[str, ...] = (
    "円", "ドル", "米ドル", "ユーロ", "ポンド", "ウォン", "銭",
    "人", "名", "件", "個", "台", "枚", "冊", "社", "店", "校", "軒", "匹", "頭", "羽",
    "株", "票", "棟", "戸", "世帯", "点", "歳", "倍", "回", "階", "番目", "項目",
    "か所", "カ所", "ヶ所", "ケ所", "箇所", "か国", "カ国", "ヶ国", "ケ国",
    "年", "年間", "年度", "か月", "カ月", "ヶ月", "ケ月", "箇月", "週", "週間", "日間", "時間", "秒",
    "キロ", "メートル", "グラム", "トン", "リットル",
)  # fmt: skip

#: Extra units that only decide the kind (``amount``) of an arabic number; a kanji
#: numeral before them is not converted.
ARABIC_UNITS: tuple[str, ...] = (
    "日", "月", "分", "時", "本", "位", "度", "部", "番", "元", "号", "才",
    "km", "kg", "cm", "mm", "m", "g", "t", "L", "mL", "ml",
)  # fmt: skip

#: Words whose kanji numeral is never converted, though a counter follows it: set
#: phrases where the number is not a quantity (一個人 "an individual", 人一倍 "more
#: than others", 一枚岩 "monolithic" ...). Ambiguous ones (二枚目 "handsome man" or
#: "the second sheet") are not listed.
KANJI_IDIOMS: tuple[str, ...] = (
    "一個人", "人一倍", "十人十色", "一枚岩", "一件落着", "一点張り", "一億総", "三人寄れば",
)  # fmt: skip

#: Era name -> (Gregorian year of era year 1, first convertible day, last day, last era year).
ERAS: dict[str, tuple[int, _dt.date, _dt.date, int]] = {
    "明治": (1868, _dt.date(1873, 1, 1), _dt.date(1912, 7, 30), 45),
    "大正": (1912, _dt.date(1912, 7, 30), _dt.date(1926, 12, 25), 15),
    "昭和": (1926, _dt.date(1926, 12, 25), _dt.date(1989, 1, 7), 64),
    "平成": (1989, _dt.date(1989, 1, 8), _dt.date(2019, 4, 30), 31),
    "令和": (2019, _dt.date(2019, 5, 1), _dt.date(9999, 12, 31), 7981),
}

_SP = " \t\u3000"
_KDIGITS = "〇零一二三四五六七八九"
_KDIGIT_VALUE = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0}
_SMALL_EXP = {"十": 1, "百": 2, "千": 3}
_BIG_EXP = {"万": 4, "億": 8, "兆": 12}
_KNUM = _KDIGITS + "十百千万億兆"
_NUMERAL_CHARS = frozenset("0123456789" + _KNUM)
_RANGE_SEPS = "〜~-‐–"
_MAX_RUN = 64
_BU_RIN: tuple[tuple[str, _Value], ...] = (("分", 1), ("厘", Fraction(1, 10)))  # 1 % and 0.1 % after 割
_UNKNOWN_PREFIX = "数何幾"

_ERA_ALT = "|".join(ERAS)
_UNIT_FIRST = "".join(sorted({u[0] for u in COUNTERS + ARABIC_UNITS}))
# What may follow a plain digit run for it to matter: kanji numerals (mixed
# numbers), date, percent and range characters. Anything else leaves it unchanged.
_TRIGGERS = re.escape("十百千万億兆年月割%パ/" + _RANGE_SEPS)
_ERA_HEAD = rf"(?:{_ERA_ALT})(?=[{_SP}]*+(?:元|[0-9.,{_KNUM}{_SP}]{{1,{_MAX_RUN + 8}}}+)年)"

# Candidate starts. Possessive quantifiers and a look-behind at every run start keep
# the search linear: a rejected run is never re-entered from its middle. Plain digit
# runs and single kanji digits are candidates only when something that can change
# them follows (a multiplier, a date/percent/range character, a counter).
# Every candidate starts with a digit, a kanji numeral or an era name's first character: the
# leading look-ahead says so, which lets the regex engine skip other characters at C speed.
_FIRST = "(?=[0-9" + _KNUM + "".join(sorted({era[0] for era in ERAS})) + "])"
_START = re.compile(
    rf"{_FIRST}(?:(?<![0-9])(?:[0-9]++(?:[.,][0-9]++)++|[0-9]++(?=[{_KNUM}]|[{_SP}]*+[{_TRIGGERS}]))"
    rf"|(?<![{_KNUM}])(?:[{_KNUM}]{{2,}}+"
    rf"|[十百千万億兆](?=[{_SP}]*+[0-9{_KNUM}{_TRIGGERS}{re.escape(_UNIT_FIRST)}])"
    rf"|[{_KDIGITS}](?=[0-9]|[{_SP}]*+[{_TRIGGERS}{re.escape(_UNIT_FIRST)}]))"
    rf"|{_ERA_HEAD})"
)
_START_ALL = re.compile(rf"{_FIRST}(?:(?<![0-9])[0-9]|(?<![{_KNUM}])[{_KNUM}]|{_ERA_HEAD})")
_RUN = re.compile(rf"(?:[0-9]++(?:[.,][0-9]++)*+|[{_KDIGITS}]++|[{_SP}]*+[十百千万億兆][{_SP}]*+)++")
_RUN_TOKEN = re.compile(rf"[0-9]+(?:[.,][0-9]+)*|[{_KNUM}]|[{_SP}]+")
_THOUSANDS = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")
_SP_RUN = re.compile(rf"[{_SP}]*+")
_DOT_DATE = re.compile(r"([0-9]{4})\.([0-9]{1,2})\.([0-9]{1,2})")
_SLASH_TAIL = re.compile(r"([/-])([0-9]{1,2})\1([0-9]{1,2})")
_YEAR_MONTH_TAIL = re.compile(r"-(0[1-9]|1[0-2])")
_MONTH2 = re.compile(r"0[1-9]|1[0-2]")
_YEAR_CANON = re.compile(r"[1-9][0-9]{3}")
_SMALL_CANON = re.compile(r"[0-9]{1,4}")

_IDIOM_AT: dict[str, tuple[tuple[str, int], ...]] = {}
for _idiom in KANJI_IDIOMS:
    for _k, _ch in enumerate(_idiom):
        if _ch in _KNUM:
            _IDIOM_AT[_ch] = (*_IDIOM_AT.get(_ch, ()), (_idiom, _k))

_UNITS_BY_FIRST: dict[str, tuple[tuple[str, bool], ...]] = {}
for _unit, _counts in sorted(
    [(u, True) for u in COUNTERS] + [(u, False) for u in ARABIC_UNITS],
    key=lambda pair: -len(pair[0]),
):
    _UNITS_BY_FIRST[_unit[0]] = (*_UNITS_BY_FIRST.get(_unit[0], ()), (_unit, _counts))

# -- one parse per distinct expression (see "Memo" in scan_numeric) -------------------------
#: Characters the parser steps over inside one expression: numerals, spaces, separators,
#: date, percent and era-year marks. It reads nothing else except the words below.
_EXPR_CHARS = f"0-9{_KNUM}{_SP}" + re.escape(".,/" + _RANGE_SEPS) + "年月日割分厘%元"
_MEMO_SPAN = 40  # an expression (or a left context) longer than this is parsed directly
_EXTENT = re.compile(f"[{_EXPR_CHARS}]{{0,{_MEMO_SPAN}}}")
#: Words the parser compares with the text at or after an expression's end (``startswith``).
_TAIL_WORDS = (*COUNTERS, *ARABIC_UNITS, "パーセント", *KANJI_IDIOMS)
_TAIL_PREFIXES = frozenset(w[i:j] for w in _TAIL_WORDS for i in range(len(w)) for j in range(i + 1, len(w) + 1))
_TAIL_MAX = max(len(w) for w in _TAIL_WORDS)
#: Characters whose presence just before an expression can change its parse (lookbehinds:
#: 数何幾, separators, numerals, spaces, era names, idioms).
_LEFT_CHARS = "".join(
    sorted(set(_SP + _UNKNOWN_PREFIX + "/-.,0123456789" + _KNUM + "".join(ERAS) + "".join(KANJI_IDIOMS)))
)
_LEFT_SET = frozenset(_LEFT_CHARS)
_LEFT_SPAN = 3  # the parser looks at most 2 characters before an expression (after its spaces)


@dataclass(frozen=True, slots=True)
class _Num:
    """A parsed numeral run ``text[start:end]``."""

    start: int
    end: int
    value: _Value
    canon: str  # canonical spelling of the number alone
    plain: bool  # one arabic number, no multiplier
    kanji_only: bool  # no arabic digits
    has_mult: bool  # any of 十百千万億兆
    has_big: bool  # any of 万億兆
    big_with_digit: bool  # some 万億兆 has a coefficient with an explicit digit
    lead_exp: int  # place value (power of ten) of the first coefficient
    top_big_exp: int  # exponent of the first 万億兆 (0 when none)
    unknown_prefix: bool  # kanji-only and preceded by 数/何/幾 or inside an idiom


def _fmt(value: _Value) -> str:
    """Exact decimal spelling of a value whose denominator divides a power of ten."""
    if value.denominator == 1:
        return str(value.numerator)
    k = 0
    while (10**k) % value.denominator:
        k += 1
    digits = str(value.numerator * (10**k // value.denominator)).rjust(k + 1, "0")
    return f"{digits[:-k]}.{digits[-k:].rstrip('0')}"


def _arabic(token: str) -> tuple[_Value, str] | None:
    """Value and comma-free spelling of one arabic token, or None if malformed."""
    if "," in token:
        if not _THOUSANDS.fullmatch(token):
            return None
        token = token.replace(",", "")
    if token.count(".") > 1:
        return None
    return (Fraction(token) if "." in token else int(token)), token


@dataclass(slots=True)
class _Small:
    value: _Value
    next_index: int
    has_digit: bool
    lead_exp: int


def _parse_small(tokens: list[str], i: int) -> _Small | None:
    """The small part (below 万) starting at ``tokens[i]``."""
    n = len(tokens)
    if tokens[i] in _KDIGIT_VALUE and i + 1 < n and tokens[i + 1] in _KDIGIT_VALUE:
        j = i
        while j < n and tokens[j] in _KDIGIT_VALUE:
            j += 1
        if j < n and tokens[j] in _SMALL_EXP:
            return None
        digits = tokens[i:j]
        if "〇" not in digits and "零" not in digits:
            return None
        return _Small(int("".join(str(_KDIGIT_VALUE[d]) for d in digits)), j, True, 0)
    value: _Value = 0
    last = 99
    lead: int | None = None
    has_digit = False
    j = i
    while j < n:
        token = tokens[j]
        if token in _BIG_EXP:
            break
        if token in _SMALL_EXP:
            exp = _SMALL_EXP[token]
            if exp >= last:
                return None
            value += 10**exp
            last = exp
            lead = exp if lead is None else lead
            j += 1
            continue
        if token in _KDIGIT_VALUE:
            coef: _Value = _KDIGIT_VALUE[token]
        else:
            parsed = _arabic(token)
            if parsed is None:
                return None
            coef = parsed[0]
        has_digit = True
        if j + 1 < n and tokens[j + 1] in _SMALL_EXP:
            exp = _SMALL_EXP[tokens[j + 1]]
            if exp >= last or coef >= 10:
                return None
            value += coef * 10**exp
            last = exp
            lead = exp if lead is None else lead
            j += 2
            continue
        if last != 99 and coef >= 10**last:
            return None
        value += coef
        lead = 0 if lead is None else lead
        j += 1
        break
    if j == i or lead is None:
        return None
    return _Small(value, j, has_digit, lead)


def _parse_run(text: str, start: int, end: int) -> _Num | None:
    """Parse ``text[start:end]`` as one number, or None when it is not one."""
    whole = text[start:end]
    if whole.isascii() and whole.isdigit():  # fast path: plain digits
        return _Num(start, end, int(whole), whole, True, False, False, False, False, 0, 0, False)
    if whole in _KDIGIT_VALUE:  # fast path: one kanji digit
        digit = _KDIGIT_VALUE[whole]
        unknown = _unknown_context(text, start)
        return _Num(start, end, digit, str(digit), False, True, False, False, False, 0, 0, unknown)
    tokens = [t for t in _RUN_TOKEN.findall(text, start, end) if t[0] not in _SP]
    n = len(tokens)
    has_arabic = any(t[0].isascii() for t in tokens)
    if n == 1 and has_arabic:
        parsed = _arabic(tokens[0])
        if parsed is None:
            return None
        return _Num(start, end, parsed[0], parsed[1], True, False, False, False, False, 0, 0, False)
    total: _Value = 0
    last_big = 99
    lead: int | None = None
    top_big = 0
    big_with_digit = False
    has_big = False
    i = 0
    while i < n:
        small = _parse_small(tokens, i)
        if small is None:
            return None
        j = small.next_index
        if i > 0 and small.value >= 10**4:
            return None
        if j < n and tokens[j] in _BIG_EXP:
            exp = _BIG_EXP[tokens[j]]
            if exp >= last_big:
                return None
            if not has_big:
                top_big = exp
            has_big = True
            big_with_digit = big_with_digit or small.has_digit
            total += small.value * 10**exp
            lead = small.lead_exp + exp if lead is None else lead
            last_big = exp
            i = j + 1
        elif j == n:
            total += small.value
            lead = small.lead_exp if lead is None else lead
            i = j
        else:
            return None
    if lead is None:
        return None
    kanji_only = not has_arabic
    unknown = kanji_only and _unknown_context(text, start)
    has_mult = has_big or any(t in _SMALL_EXP for t in tokens)
    return _Num(
        start, end, total, _fmt(total), False, kanji_only, has_mult, has_big,
        big_with_digit, lead, top_big, unknown,
    )  # fmt: skip


def _unknown_context(text: str, start: int) -> bool:
    if start > 0 and text[start - 1] in _UNKNOWN_PREFIX:
        return True
    return any(
        start >= k and text.startswith(idiom, start - k) for idiom, k in _IDIOM_AT.get(text[start], ())
    )


def _number_at(text: str, start: int) -> tuple[_Num | None, int]:
    """The numeral run at ``start``: its parse (or None) and where the run ends."""
    run_end = _RUN.match(text, start)
    stop = run_end.end() if run_end else start
    end = stop
    while end > start and text[end - 1] in _SP:
        end -= 1
    if end == start or end - start > _MAX_RUN:
        return None, max(stop, start + 1)
    num = _parse_run(text, start, end)
    if num is not None and not num.plain and _glued(text, start, end):
        return None, stop
    return num, stop


def _glued(text: str, start: int, end: int) -> bool:
    """True when ``.``/``,`` joins the run to a numeral: converting it would merge numbers."""
    before = start >= 2 and text[start - 1] in ".," and text[start - 2] in _NUMERAL_CHARS
    after = end + 1 < len(text) and text[end] in ".," and text[end + 1] in _NUMERAL_CHARS
    return before or after


def _skip(text: str, i: int) -> int:
    """The first index at or after ``i`` that is not a space."""
    if i < len(text) and text[i] in _SP:
        m = _SP_RUN.match(text, i)
        return m.end() if m else i
    return i


def _numeral_follows(text: str, i: int) -> bool:
    return i < len(text) and text[i] in _NUMERAL_CHARS


def _unit_at(text: str, i: int) -> tuple[str, bool]:
    """The longest unit at ``i`` and whether it is a counter (in :data:`COUNTERS`)."""
    if i < len(text):
        for unit, counts in _UNITS_BY_FIRST.get(text[i], ()):
            if text.startswith(unit, i):
                return unit, counts
    return "", False


def _small_int_at(text: str, i: int) -> tuple[int, int] | None:
    """A 1-4 digit integer (arabic or kanji) at ``i``: (value, end of run)."""
    if not _numeral_follows(text, i):
        return None
    num, _ = _number_at(text, i)
    if num is None or not _SMALL_CANON.fullmatch(num.canon):
        return None
    return int(num.canon), num.end


@dataclass(slots=True)
class _MonthDay:
    month: int
    day: int | None
    end: int  # just after 月 or 日


def _month_day(text: str, i: int) -> _MonthDay | None:
    """``M月`` or ``M月D日`` starting at ``i``."""
    month = _small_int_at(text, i)
    if month is None:
        return None
    k = _skip(text, month[1])
    if not text.startswith("月", k):
        return None
    after_month = k + 1
    day = _small_int_at(text, _skip(text, after_month))
    if day is not None:
        k = _skip(text, day[1])
        if text.startswith("日", k):
            return _MonthDay(month[0], day[0], k + 1)
    return _MonthDay(month[0], None, after_month)


def _valid_day(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]


def _date_match(start: int, end: int, year: int, md: _MonthDay | None, unit: str = "年") -> NumericMatch:
    if md is None:
        # Same kind and value as the Gregorian spelling it becomes (2026年: amount, 年).
        return NumericMatch(start, end, f"{year}年", "amount", f"{year}{unit}", unit)
    iso = f"{year:04d}-{md.month:02d}" + ("" if md.day is None else f"-{md.day:02d}")
    return NumericMatch(start, end, iso, "date", iso, "")


def _era_before(text: str, start: int) -> bool:
    """True when an era name or a numeral precedes ``start`` (spaces between allowed)."""
    j = start
    while j > 0 and text[j - 1] in _SP:
        j -= 1
    glued = j >= 2 and text[j - 1] in ".," and text[j - 2] in _NUMERAL_CHARS
    return glued or (j >= 2 and text[j - 2 : j] in ERAS) or (j >= 1 and text[j - 1] in _NUMERAL_CHARS)


def _era_at(text: str, start: int, era: str) -> tuple[list[NumericMatch], int]:
    first_year, first_day, last_day, last_year = ERAS[era]
    if _era_before(text, start):  # 令和令和2年, 一兆令和2年: the output would merge
        return [], start + len(era)
    i = _skip(text, start + len(era))
    if text.startswith("元", i):
        era_year, i = 1, i + 1
    else:
        parsed = _small_int_at(text, i)
        if parsed is None:
            return [], start + len(era)
        era_year, i = parsed
    i = _skip(text, i)
    if not text.startswith("年", i):
        return [], start + len(era)
    after_year = i + 1
    year = first_year + era_year - 1
    md = _month_day(text, _skip(text, after_year))
    if md is None:
        if not 1 <= era_year <= last_year:
            return [], after_year
        unit = _unit_at(text, i)[0] or "年"  # 年度, 年間: the unit the rescanned text shows
        return [_date_match(start, after_year, year, None, unit)], after_year
    if _numeral_follows(text, md.end):
        return [], md.end
    ok = 1 <= era_year <= last_year and 1 <= md.month <= 12
    if ok and md.day is None:
        month_end = calendar.monthrange(year, md.month)[1]
        ok = _dt.date(year, md.month, 1) <= last_day and _dt.date(year, md.month, month_end) >= first_day
    elif ok and md.day is not None:
        ok = _valid_day(year, md.month, md.day) and first_day <= _dt.date(year, md.month, md.day) <= last_day
    return ([_date_match(start, md.end, year, md)] if ok else []), md.end


def _gregorian(text: str, num: _Num) -> tuple[list[NumericMatch], int] | None:
    """A date starting with the number ``num``, or None when there is no date form."""
    if num.unknown_prefix or not _YEAR_CANON.fullmatch(num.canon):
        return None  # 何千-10 is not a year
    year = int(num.canon)
    tail = _SLASH_TAIL.match(text, num.end)
    if tail and not (num.start and text[num.start - 1] in "/-."):
        end = tail.end()
        follows = text[end : end + 2]
        if not (
            _numeral_follows(text, end)
            or (len(follows) == 2 and follows[0] in "/-.," and follows[1].isdigit())
        ):
            month, day = int(tail.group(2)), int(tail.group(3))
            if _valid_day(year, month, day):
                iso = f"{year:04d}-{month:02d}-{day:02d}"
                return [NumericMatch(num.start, end, iso, "date", iso)], end
            return [], end
    year_month = _YEAR_MONTH_TAIL.match(text, num.end)
    if year_month and not (num.start and text[num.start - 1] in "/-."):
        # ISO year-month (the output of 2026年7月) is a date too, so it reads the same again.
        end = year_month.end()
        follows = text[end : end + 2]
        if not (
            _numeral_follows(text, end)
            or (len(follows) == 2 and follows[0] in "/-.," and follows[1].isdigit())
            or text.startswith(("%", "割", "パーセント"), end)
        ):
            iso = f"{year:04d}-{year_month.group(1)}"
            return [NumericMatch(num.start, end, iso, "date", iso)], end
    k = _skip(text, num.end)
    if not text.startswith("年", k):
        return None
    md = _month_day(text, _skip(text, k + 1))
    if md is None:
        return None
    if _numeral_follows(text, md.end):
        return [], md.end
    valid = 1 <= md.month <= 12 if md.day is None else _valid_day(year, md.month, md.day)
    return ([_date_match(num.start, md.end, year, md)] if valid else []), md.end


def _dot_date(text: str, start: int) -> tuple[list[NumericMatch], int] | None:
    m = _DOT_DATE.match(text, start)
    if not m or (start and text[start - 1] in "/-.,"):
        return None
    end = m.end()
    follows = text[end : end + 2]
    if _numeral_follows(text, end) or (len(follows) == 2 and follows[0] in "/-.," and follows[1].isdigit()):
        return None
    year, month, day = (int(g) for g in m.groups())
    if not _valid_day(year, month, day) or year < 1000:
        return [], end
    iso = f"{year:04d}-{month:02d}-{day:02d}"
    return [NumericMatch(start, end, iso, "date", iso)], end


@dataclass(slots=True)
class _Quantity:
    """A number with what follows it: the match to emit and the facts a range needs."""

    match: NumericMatch | None  # None: nothing to report
    num: _Num
    end: int  # end of the expression (after 割/分/厘/%/パーセント; after the number otherwise)
    converted: bool
    kind: NumericKind
    unit: str
    scale_exp: int  # exponent a bare range start takes from this expression
    percent_factor: int  # 10 for 割 (value x10 in %), 1 otherwise
    bare: bool  # no unit, no percent marker: may start a range
    value: _Value  # the expression's value (in % for percentages)


def _digit_at(text: str, i: int) -> tuple[int, int] | None:
    """A single digit (arabic or kanji) at ``i`` that is a run by itself."""
    if i >= len(text):
        return None
    c = text[i]
    if c.isascii() and c.isdigit():
        nxt = text[i + 1 : i + 3]
        if nxt[:1].isdigit() or (len(nxt) == 2 and nxt[0] in ".," and nxt[1].isdigit()):
            return None
        return int(c), i + 1
    if c in _KDIGIT_VALUE and not _numeral_follows(text, i + 1):
        return _KDIGIT_VALUE[c], i + 1
    return None


def _quantity(text: str, num: _Num, include: bool) -> _Quantity:
    k = _skip(text, num.end)
    value = num.value
    percent_end = -1
    factor = 1
    if text.startswith("%", k):
        percent_end = k + 1
    elif text.startswith("パーセント", k):
        percent_end = k + 5
    elif text.startswith("割", k):
        factor = 10
        value = num.value * 10
        percent_end = k + 1
        for marker, weight in _BU_RIN:
            digit = _digit_at(text, _skip(text, percent_end))
            if digit is None:
                break
            m = _skip(text, digit[1])
            if not text.startswith(marker, m):
                continue
            value += digit[0] * weight
            percent_end = m + 1
            if marker == "厘":
                break
    unknown = num.unknown_prefix
    if percent_end >= 0:
        # A plain number before % keeps its spelling (1.50% stays); 割 computes a value.
        canon = num.canon if factor == 1 else _fmt(value)
        converted = not unknown
        replacement = f"{canon}%"
        match = None
        if converted and (include or replacement != text[num.start : percent_end]):
            match = NumericMatch(num.start, percent_end, replacement, "percent", replacement, "%")
        return _Quantity(
            match, num, percent_end, converted, "percent", "%", num.lead_exp + (factor == 10),
            factor, False, value,
        )  # fmt: skip
    unit, counts = _unit_at(text, k)
    # Arabic digits are always a number; kanji only when they form a quantity.
    converted = not num.kanji_only or (not unknown and (counts or num.big_with_digit))
    kind: NumericKind = "amount" if unit else "number"
    match = None
    if converted and (include or num.canon != text[num.start : num.end]):
        match = NumericMatch(num.start, num.end, num.canon, kind, num.canon + unit, unit)
    return _Quantity(
        match, num, num.end, converted, kind, unit, num.lead_exp, 1,
        not unit, num.value,
    )  # fmt: skip


def _is_iso_year_month(text: str, sep: int, a_end: int, b_start: int, a_num: _Num, b_num: _Num) -> bool:
    """``A-B`` written tight, a four-digit year then a two-digit month, and nothing after it
    that would make it part of a longer date or a quantity."""
    return (
        text[sep] == "-"
        and sep == a_end
        and b_start == sep + 1
        and _YEAR_CANON.fullmatch(a_num.canon) is not None
        and _MONTH2.fullmatch(b_num.canon) is not None
        and not (a_num.start and text[a_num.start - 1] in "/-.")
        and not _numeral_follows(text, b_num.end)
        and not (
            text[b_num.end : b_num.end + 1] in ("/", "-", ".", ",") and _numeral_follows(text, b_num.end + 1)
        )
        and not text.startswith(("%", "割", "パーセント"), _skip(text, b_num.end))
    )


def _range(text: str, a: _Quantity, include: bool) -> tuple[list[NumericMatch], int] | None:
    """``A〜B`` with a bare A taking B's multiplier, or None when it is not such a range."""
    k = _skip(text, a.end)
    if k >= len(text) or text[k] not in _RANGE_SEPS:
        return None
    b_start = _skip(text, k + 1)
    if not _numeral_follows(text, b_start):
        return None
    b_num, _ = _number_at(text, b_start)
    if b_num is None or _gregorian(text, b_num) is not None:  # B is (or fails as) a date
        return None
    b = _quantity(text, b_num, include)
    # B must carry something to share: a multiplier, a percent sign or a unit.
    if not b.converted or not (b_num.has_mult or b.kind == "percent" or b.unit):
        return None
    if b.unit.startswith("年"):
        return None  # a year count is not shared: B may be an era year's output (7十〜令和1年)
    a_num = a.num
    if a_num.unknown_prefix:
        return None
    if _is_iso_year_month(text, k, a.end, b_start, a_num, b_num):
        # 千6-十 reads 1006-10, an ISO year-month: say so now, as a second pass would.
        iso = f"{a_num.canon}-{b_num.canon}"
        return [NumericMatch(a_num.start, b_num.end, iso, "date", iso)], b_num.end
    # A kanji A follows an arabic B only for a multiplier or a percent sign: an arabic B
    # with a counter may be another rule's output (一-令和8年 -> 一-2026年), and the
    # result must not change on a second pass.
    if (
        a_num.kanji_only
        and not a.converted
        and not (b_num.has_mult or b.kind == "percent" or b_num.kanji_only)
    ):
        return None
    if a_num.has_big:
        exp = 0
    elif a_num.has_mult:
        exp = b.num.top_big_exp + (b.percent_factor == 10)
    else:
        exp = b.scale_exp
    scaled = a_num.value * 10**exp
    # Without a multiplier to share (or when sharing would pass B), A keeps its own
    # value and only takes B's kind and unit.
    canon = a_num.canon if exp == 0 or scaled > b.value else _fmt(scaled)
    matches: list[NumericMatch] = []
    if include or canon != text[a_num.start : a_num.end]:
        matches.append(NumericMatch(a_num.start, a_num.end, canon, b.kind, canon + b.unit, b.unit))
    if not b.unit:
        # B carries only a multiplier: leave it to the main loop, so that it can start the
        # next range of a chain (3〜5百〜6兆割) exactly as it would on a second pass.
        return matches, b_start
    if b.match is not None:
        matches.append(b.match)
    return matches, b.end


def _at_number(text: str, start: int, include: bool) -> tuple[list[NumericMatch], int]:
    """Matches for the expression starting with a numeral at ``start`` and its end."""
    dot = _dot_date(text, start)
    if dot is not None:
        return dot
    num, stop = _number_at(text, start)
    if num is None:
        return [], stop
    date = _gregorian(text, num)
    if date is not None:
        return date
    if text.startswith("月", _skip(text, num.end)) and _SMALL_CANON.fullmatch(num.canon):
        md = _month_day(text, start)
        if md is not None and md.day is not None and not _numeral_follows(text, md.end):
            if not _valid_day(2000, md.month, md.day):
                return [], md.end
            if num.unknown_prefix:
                return [], md.end
            replacement = f"{md.month}月{md.day}日"
            if include or replacement != text[start : md.end]:
                iso = f"--{md.month:02d}-{md.day:02d}"
                return [NumericMatch(start, md.end, replacement, "date", iso)], md.end
            return [], md.end
    quantity = _quantity(text, num, include)
    if quantity.bare:
        ranged = _range(text, quantity, include)
        if ranged is not None:
            return ranged
    return ([quantity.match] if quantity.match else []), max(quantity.end, stop)


def scan_numeric(text: str, *, include_unchanged: bool = False) -> list[NumericMatch]:
    """Every numeric expression in ``text`` that the rules rewrite, sorted and non-overlapping.

    With ``include_unchanged=True`` expressions already in canonical form are
    reported too (``replacement == text[start:end]``), which is what number
    grounding wants; the default reports only the spans :func:`apply_numeric`
    changes. Raises :class:`TypeError` for a non-``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"scan_numeric expects str, got {type(text).__name__}")
    return [NumericMatch(*t) for t in scan_spans(text, include_unchanged)]


#: One match as a tuple: ``(start, end, replacement, kind, value, unit)``.
MatchTuple: TypeAlias = tuple[int, int, str, NumericKind, str, str]


# The memo of scan_spans: an expression is parsed once per distinct *context* in a text and its
# matches reused, shifted, wherever the same context recurs. The context is what the parser can
# read from a candidate start: the expression itself (the run of _EXPR_CHARS from it, an era name
# first), the longest piece of a unit, パーセント or an idiom after it (any other character there
# reads as "not a unit", like the end of the text, except an other-script digit, which is kept),
# and the two characters before it (after its spaces) when one of them could matter (_LEFT_CHARS).
# memo=False parses every candidate (the tests compare the two on every golden case and random texts).
def scan_spans(text: str, include_unchanged: bool = False, *, memo: bool = True) -> list[MatchTuple]:
    """:func:`scan_numeric` as ``(start, end, replacement, kind, value, unit)`` tuples, each
    distinct expression parsed once per context (see the comment above)."""
    pattern = _START_ALL if include_unchanged else _START
    search, extent = pattern.search, _EXTENT.match
    out: list[MatchTuple] = []
    seen: dict[tuple[str, str, str], tuple[tuple[MatchTuple, ...], int]] = {}
    n = len(text)
    pos = 0
    while True:
        m = search(text, pos)
        if m is None:
            break
        start = m.start()
        era = text[start : start + 2]
        is_era = era in ERAS
        key: tuple[str, str, str] | None = None
        if memo:  # the context (see above); None when too long to be worth keeping
            head = start + 2 if is_era else start
            x = extent(text, head).end()  # type: ignore[union-attr]  # (matches the empty string)
            j = start
            while j and text[j - 1] in _SP:
                j -= 1
            if x - head < _MEMO_SPAN and start - j < _MEMO_SPAN:
                left = text[j - _LEFT_SPAN if j > _LEFT_SPAN else 0 : start]
                if _LEFT_SET.isdisjoint(left):
                    left = ""
                k = 0
                while k < _TAIL_MAX and x + k < n and text[x : x + k + 1] in _TAIL_PREFIXES:
                    k += 1
                tail = text[x : x + k] if k or x == n or not text[x].isdigit() else text[x]
                key = (left, text[start:x], tail)
        found = seen.get(key) if key is not None else None
        if found is not None:
            relative, rel_end = found
            if len(relative) == 1:  # (the common case, without a comprehension)
                a, b, r, c, v, u = relative[0]
                out.append((a + start, b + start, r, c, v, u))
            elif relative:
                out.extend([(a + start, b + start, r, c, v, u) for a, b, r, c, v, u in relative])
            end = rel_end + start
        else:
            if is_era:
                matches, end = _era_at(text, start, era)
            else:
                matches, end = _at_number(text, start, include_unchanged)
            kept = [
                (x.start, x.end, x.replacement, x.kind, x.value, x.unit)
                for x in matches
                if include_unchanged or x.replacement != text[x.start : x.end]
            ]
            out.extend(kept)
            if key is not None:
                seen[key] = (tuple((a - start, b - start, r, c, v, u) for a, b, r, c, v, u in kept), end - start)
        pos = max(end, m.end() if is_era else start + 1)
    return out


def apply_numeric(text: str) -> str:
    """``text`` with every match of :func:`scan_numeric` replaced by its canonical spelling.

    >>> apply_numeric("売上は1億2000万円、前年比3割5分増")
    '売上は120000000円、前年比35%増'
    """
    matches = scan_numeric(text)
    if not matches:
        return text
    parts: list[str] = []
    pos = 0
    for m in matches:
        parts.append(text[pos : m.start])
        parts.append(m.replacement)
        pos = m.end
    parts.append(text[pos:])
    return "".join(parts)
