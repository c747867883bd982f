"""Numbers that are one value across several scanner matches, read together for grounding.

The contract's scanner reads ``11時30分`` as a clock hour and a 30-minute duration, the
``22日`` of ``11月18日〜22日`` as a bare day count, ``2024年（令和6年）7月19日`` as two years and
a day of the year, and the ``3`` of ``第3編成`` like the count ``3編成``. Grounding compares
values, so each of these would ground (or miss) for the wrong reason: ``11時30分`` was ✔ by
any ``11時`` and any ``30分``. :func:`compose` rewrites the scanner's mentions of one text
(claim or source alike, so both sides read the same way) before they are compared:

* **Clock times**: ``N時`` followed at once by ``M分`` is one time (``11時30分``; ``10時00分`` is
  ``10時``); ``午後`` right before adds 12 hours (``午後5時`` = ``17時``).
* **A time on a date**: a time right after a date (past a weekday in brackets, ``午前``/``午後``
  or spaces) is that date's time: ``10月31日（金）17時`` reads ``--10-31T17時``. Such a source
  time also grounds the bare time (see ``_precisions`` in ``_ground``), never the other way.
* **Split dates**: ``10月`` and ``31日`` read apart with nothing between are ``--10-31``; a year
  followed by the same year in brackets and a month or a day (``2024年（令和6年）7月19日``) is
  one date.
* **A day that continues a date**: ``N日`` right after a date and a range sign
  (``2024年7月24日〜28日``), or after ``翌``/``同`` with a date earlier in its sentence, is a date of
  that date's month (``2024-07-28``).
* **Ordinals**: a number right after ``第`` reads ``第3``, so ``第3編成`` is not ``3編成``.
* **A rate's unit**: the ``1日`` of ``1日2回`` (``1人あたり3万円``, ``1件20分``) is the unit the next
  number is counted per (grounding reads it as that number's period), not a figure of its own:
  it is not checked apart, so it is not ✔ by any ``1日`` of the source.
* **Heading numbers**: the bare number of a Markdown heading (``## 3 その他``) is a section's
  number, not a figure of the text: it grounds nothing.

Nothing else changes; the work is one pass over the mentions (linear).
"""

from __future__ import annotations

import re

__all__ = ["compose"]

# normalized start, end; original start, end; value, category (``_ground._Found``)
_Found = tuple[int, int, int, int, str, str]

_HOUR = re.compile(r"([0-9]{1,2})時")
_MINUTES = re.compile(r"([0-9]+)秒")
_DAY = re.compile(r"([0-9]{1,2})日")
_MONTH = re.compile(r"([0-9]{1,2})月")
_YEAR = re.compile(r"([0-9]{4})年")
_DAY_DATE = re.compile(r"([0-9]{4}|-)-([0-9]{2})-[0-9]{2}")
#: Between a date and its time: a weekday in brackets, 午前/午後, spaces (NFKC: ASCII brackets).
_DATE_TO_TIME = re.compile(r"\s*(?:\([^()]{1,3}\))?\s*(?:午前|午後)?\s*")
#: Between a date and the day that ends its range.
_RANGE_SIGN = re.compile(r"\s*(?:\([^()]{1,3}\))?\s*(?:〜|~|-|‐|–|―|から)\s*")
_NEXT_DAY = ("翌", "同")
#: After a bare ``N日``: a length of days, not a day of the month (``3日間``, ``14日以内``).
_DAYS_LENGTH = ("間", "以内", "以上", "未満", "程度", "ほど", "後", "前", "分", "連続")
_SENTENCE_END = re.compile("[。．！？!?\n]")
#: The start of a Markdown heading line up to its number.
#: ``1日``, ``1人``, ``1件`` ... that a rate is counted per, and what may stand between it and the count.
_RATE_UNIT = re.compile("1(?:日|週|週間|か月|カ月|ヶ月|ケ月|月|年|人|件|回|台|戸|世帯|社|時間)")
_RATE_GLUE = ("", "あたり", "当たり", "につき", "ごと")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}[ \t]+")


def _time_value(norm: str, hour_at: _Found, minutes: _Found | None) -> str | None:
    """``N時`` or ``N時M分`` (24-hour) of an hour mention and an optional minutes mention."""
    hour = _HOUR.fullmatch(hour_at[4])
    if hour is None or int(hour.group(1)) > 24:
        return None
    h = int(hour.group(1))
    if norm.endswith("午後", 0, hour_at[0]) and h < 12:
        h += 12
    if minutes is None:
        return f"{h}時"
    seconds = _MINUTES.fullmatch(minutes[4])
    if seconds is None or int(seconds.group(1)) % 60 or int(seconds.group(1)) >= 3600:
        return None
    m = int(seconds.group(1)) // 60
    return f"{h}時{m}分" if m else f"{h}時"


def _merged(first: _Found, last: _Found, value: str, category: str) -> _Found:
    return (first[0], last[1], first[2], last[3], value, category)


def _clock_times(norm: str, found: list[_Found], kinds: list[str]) -> tuple[list[_Found], list[str]]:
    out: list[_Found] = []
    out_kinds: list[str] = []
    i = 0
    while i < len(found):
        mention = found[i]
        following = found[i + 1] if i + 1 < len(found) else None
        if following is not None and following[0] == mention[1] and following[5] == "duration":
            value = _time_value(norm, mention, following)
            if value is not None:
                out.append(_merged(mention, following, value, "quantity"))
                out_kinds.append(kinds[i])
                i += 2
                continue
        value = _time_value(norm, mention, None) if mention[4].endswith("時") else None
        out.append(mention if value is None else (*mention[:4], value, mention[5]))
        out_kinds.append(kinds[i])
        i += 1
    return out, out_kinds


def _split_date(norm: str, found: list[_Found], i: int) -> tuple[int, str] | None:
    """(mentions used, date value) when ``found[i]`` starts a date the scanner read apart."""
    first = found[i]
    if i + 1 >= len(found):
        return None
    second = found[i + 1]
    month, day = _MONTH.fullmatch(first[4]), _DAY.fullmatch(second[4])
    if month and day and second[0] == first[1] and 1 <= int(month[1]) <= 12 and 1 <= int(day[1]) <= 31:
        return 2, f"--{int(month[1]):02d}-{int(day[1]):02d}"
    year = _YEAR.fullmatch(first[4])
    if year is None or i + 2 >= len(found) or second[4] != first[4]:
        return None
    third = found[i + 2]
    if norm[first[1] : second[0]].strip() != "(" or norm[second[1] : third[0]].strip() != ")":
        return None
    if third[4].startswith("--") and len(third[4]) == 7:
        return 3, f"{year[1]}{third[4][1:]}"
    month = _MONTH.fullmatch(third[4])
    if month and 1 <= int(month[1]) <= 12:
        return 3, f"{year[1]}-{int(month[1]):02d}"
    return None


def _dates(norm: str, found: list[_Found], kinds: list[str]) -> tuple[list[_Found], list[str]]:
    out: list[_Found] = []
    out_kinds: list[str] = []
    i = 0
    while i < len(found):
        split = _split_date(norm, found, i)
        if split is None:
            out.append(found[i])
            out_kinds.append(kinds[i])
            i += 1
            continue
        used, value = split
        out.append(_merged(found[i], found[i + used - 1], value, "date"))
        out_kinds.append("date")
        i += used
    return out, out_kinds


def _continued_day(norm: str, mention: _Found, dates: list[_Found]) -> str | None:
    """The date value of a bare ``N日`` that continues the last date before it, or None."""
    day = _DAY.fullmatch(mention[4])
    if day is None or not dates or not 1 <= int(day[1]) <= 31:
        return None
    if norm.startswith(_DAYS_LENGTH, mention[1]):
        return None
    date = dates[-1]
    shape = _DAY_DATE.fullmatch(date[4])
    if shape is None:
        return None
    between = norm[date[1] : mention[0]]
    next_day = norm.endswith(_NEXT_DAY, 0, mention[0]) and not _SENTENCE_END.search(between)
    if not _RANGE_SIGN.fullmatch(between) and not next_day:
        return None
    return f"{date[4][:-2]}{int(day[1]):02d}"


def _range_end_year(norm: str, mention: _Found, previous: _Found, dates: list[_Found]) -> str | None:
    """``--MM-DD`` that ends a range begun by a full date (``2025年9月1日〜10月31日``) in that year."""
    if mention[5] != "date" or not mention[4].startswith("--") or not dates:
        return None
    year = dates[-1][4][:4]
    if not year.isdigit() or not _RANGE_SIGN.fullmatch(norm, previous[1], mention[0]):
        return None
    return f"{year}{mention[4][1:]}"


def _anchored(norm: str, found: list[_Found], kinds: list[str]) -> list[_Found]:
    """Days that continue a date and times on a date (see the module docstring), in place."""
    dates: list[_Found] = []
    previous: _Found | None = None
    for i, mention in enumerate(found):
        value = _continued_day(norm, mention, dates)
        if value is None and previous is not None:
            value = _range_end_year(norm, mention, previous, dates)
        if value is not None:
            found[i] = mention = (*mention[:4], value, "date")
            kinds[i] = "date"
        elif (
            previous is not None
            and previous[5] == "date"
            and _DAY_DATE.fullmatch(previous[4])
            and "時" in mention[4]
            and _HOUR.match(mention[4])
            and _DATE_TO_TIME.fullmatch(norm, previous[1], mention[0])
        ):
            found[i] = mention = (*mention[:4], f"{previous[4]}T{mention[4]}", mention[5])
        if mention[5] == "date":
            dates.append(mention)
        previous = mention
    return found


def _not_headings(original: str, found: list[_Found], kinds: list[str]) -> tuple[list[_Found], list[str]]:
    """Without the bare numbers that number a Markdown heading (``## 3 その他``)."""
    keep = [
        i
        for i, mention in enumerate(found)
        if mention[5] != "number"
        or not _HEADING.fullmatch(original, original.rfind("\n", 0, mention[2]) + 1, mention[2])
    ]
    if len(keep) == len(found):
        return found, kinds
    return [found[i] for i in keep], [kinds[i] for i in keep]


def _not_rate_units(norm: str, found: list[_Found], kinds: list[str]) -> tuple[list[_Found], list[str]]:
    """Without the ``1日`` of ``1日2回`` (see the module docstring)."""
    keep = [
        i
        for i, mention in enumerate(found)
        if i + 1 == len(found)
        or not _RATE_UNIT.fullmatch(mention[4])
        or norm[mention[1] : found[i + 1][0]].strip() not in _RATE_GLUE
    ]
    if len(keep) == len(found):
        return found, kinds
    return [found[i] for i in keep], [kinds[i] for i in keep]


def compose(
    norm: str, found: list[_Found], kinds: list[str], original: str = ""
) -> tuple[list[_Found], list[str]]:
    """The mentions of normalized text ``norm`` (in order, with their kinds; from ``original``)
    with the values of the module docstring read across neighbouring matches."""
    if not found:
        return found, kinds
    if "#" in original:
        found, kinds = _not_headings(original, found, kinds)
    found, kinds = _clock_times(norm, found, kinds)
    found, kinds = _dates(norm, found, kinds)
    found = _anchored(norm, found, kinds)
    found, kinds = _not_rate_units(norm, found, kinds)
    for i, mention in enumerate(found):
        if mention[0] and norm[mention[0] - 1] == "第" and mention[5] != "date":
            found[i] = (*mention[:4], f"第{mention[4]}", mention[5])
    return found, kinds
