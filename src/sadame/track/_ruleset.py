"""Tracker rulesets, issue keys and issue ids (seed 000), as pure functions over data.

A ruleset is a YAML file: label prefixes stripped from the raw text, canonical
patterns (``token`` + plain ``words``, optionally one ``regex`` run by the
linear-time ``re2`` engine), positive/negative words that filter praise, and
thresholds. Words are normalized with the ``issue`` preset when the file is
loaded, exactly like the text they are matched against, so matching is a plain
substring test on normalized text.

>>> rs = default_ruleset()
>>> issue_key("改善ポイント：安定性が不足している", rs)
'insufficient_control::stability_issue'
>>> issue_id("stability_issue")[:12]
'fd48bc7f5293'
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sadame._datafile import MAX_BYTES, DataFileError, parse_bytes
from sadame.normalize import NormalizeFlags, PunctuationMode, WhitespaceMode, normalize
from sadame.normalize._flags import JS_WHITESPACE
from sadame.track._errors import RulesetError
from sadame.track._meaning import SUBJECT_SEPARATOR, clean_markup, finding_meaning, subject_of

__all__ = [
    "DEFAULT_RULESET",
    "RULESET_FORMAT",
    "RULESET_FORMAT_2",
    "CanonicalPattern",
    "Ruleset",
    "RulesetExamples",
    "Thresholds",
    "bundled_rulesets",
    "default_ruleset",
    "finding_kind",
    "is_positive",
    "issue_id",
    "issue_key",
    "issue_tokens",
    "key_tokens",
    "load_ruleset",
    "normalize_issue_text",
    "parse_ruleset",
    "strip_label",
]

RULESET_FORMAT = "sadame.track-ruleset/1"
#: Format 2: negation-aware praise, subject-carrying tokens, markup-proof keys, examples.
RULESET_FORMAT_2 = "sadame.track-ruleset/2"
_FORMATS = {RULESET_FORMAT: 1, RULESET_FORMAT_2: 2}
#: The bundled ruleset used when none is given (format 2). ``seed-example`` is the seed's, kept exactly.
DEFAULT_RULESET = "coaching-ja"

_RULESET_DIR = Path(__file__).resolve().parent.parent / "data" / "rulesets"
_CACHE_SIZE = 20_000
_TOKEN_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_JS_WS = frozenset(JS_WHITESPACE)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# The seed's fallback key is ``text.toLowerCase()``: the contract's casefold step alone.
_LOWER_ONLY = NormalizeFlags(
    nfkc=False,
    markdown_strip=False,
    numeric=False,
    casefold=True,
    kana=False,
    punctuation=PunctuationMode.KEEP,
    punctuation_chars="",
    whitespace=WhitespaceMode.KEEP,
    equivalences=frozenset(),
)


@dataclass(frozen=True)
class Thresholds:
    """Numbers a ruleset fixes; every one is a share in ``[0, 1]``."""

    #: progress: two findings are "the same family" when this share of the shorter token set overlaps
    token_overlap: float = 0.5
    #: a first detection with ``confidence >=`` this is opened at once instead of staying a candidate
    open_confidence: float = 0.9
    #: a semantic match links a detection to an existing issue only at or above this confidence
    detection_match: float = 0.78
    #: an improvement resolves an issue only at or above this confidence (misattribution breaks progress)
    improvement_match: float = 0.9


@dataclass(frozen=True)
class CanonicalPattern:
    """One canonical token and what makes it match (normalized words, optional re2 regex)."""

    token: str
    words: tuple[str, ...]
    regex: str | None = None
    _compiled: Any = field(default=None, compare=False, repr=False)
    #: format 2: the token carries the noun its word is about (``insufficient_control@踏み込み``)
    subject: bool = False

    def matches(self, normalized: str) -> bool:
        """True when a word is a substring of ``normalized`` or the regex finds a match."""
        if any(word in normalized for word in self.words):
            return True
        return self._compiled is not None and self._compiled.search(normalized) is not None

    def first_word(self, normalized: str) -> str | None:
        """The word of this pattern that occurs first in ``normalized`` (None: only the regex matched)."""
        hits = [(normalized.find(w), -len(w), w) for w in self.words if w in normalized]
        return min(hits)[2] if hits else None


@dataclass(frozen=True)
class RulesetExamples:
    """Format 2 examples, run by ``sadame track rules test`` (not part of the version digest)."""

    keys: tuple[tuple[str, str], ...] = ()  #: (text, expected key)
    same: tuple[tuple[str, str], ...] = ()  #: pairs that must share a key
    different: tuple[tuple[str, str], ...] = ()  #: pairs that must not share a key
    praise: tuple[str, ...] = ()  #: texts that must be filtered as praise
    problems: tuple[str, ...] = ()  #: texts that must be tracked


@dataclass(frozen=True)
class Ruleset:
    """A loaded tracker ruleset. ``version`` is the SHA-256 of its canonical JSON content."""

    name: str
    label_prefixes: tuple[str, ...]
    label_separators: tuple[str, ...]
    patterns: tuple[CanonicalPattern, ...]
    positive: tuple[str, ...]
    negative: tuple[str, ...]
    thresholds: Thresholds
    version: str
    source: str | None = None
    format_version: int = 1
    examples: RulesetExamples = field(default_factory=RulesetExamples, compare=False)
    #: normalized text per raw text (LLMs repeat themselves; bounded, cleared when full)
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: praise verdicts of format 2 (the analyzer is the expensive part)
    _praise_cache: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)
    #: problem / praise / improvement verdicts of format 2
    _kind_cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The canonical content (what ``version`` digests), loadable by :func:`parse_ruleset`."""
        return _canonical(self)


def _canonical(rs: Ruleset) -> dict[str, Any]:
    return {
        "format": RULESET_FORMAT if rs.format_version == 1 else RULESET_FORMAT_2,
        "name": rs.name,
        "labels": {"prefixes": list(rs.label_prefixes), "separators": list(rs.label_separators)},
        "patterns": [
            {"token": p.token, "words": list(p.words), **({"regex": p.regex} if p.regex else {}),
             **({"subject": True} if p.subject else {})}
            for p in rs.patterns
        ],
        "positive": list(rs.positive),
        "negative": list(rs.negative),
        "thresholds": {
            "token_overlap": rs.thresholds.token_overlap,
            "open_confidence": rs.thresholds.open_confidence,
            "detection_match": rs.thresholds.detection_match,
            "improvement_match": rs.thresholds.improvement_match,
        },
    }


def _digest(content: Mapping[str, Any]) -> str:
    blob = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _words(raw: object, where: str, source: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(w, str) for w in raw):
        raise RulesetError(f"{source}: {where} must be a list of strings")
    out: list[str] = []
    for word in raw:
        norm = normalize(word, preset="issue")
        if not norm:
            raise RulesetError(f"{source}: {where}: word {word!r} normalizes to an empty string")
        if norm not in out:
            out.append(norm)
    return tuple(out)


def _share(raw: Mapping[str, Any], name: str, default: float, source: str) -> float:
    value = raw.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
        raise RulesetError(f"{source}: thresholds.{name} must be a number in [0, 1], got {value!r}")
    return float(value)


def _labels(data: Mapping[str, Any], source: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    labels = data.get("labels") or {}
    if not isinstance(labels, Mapping):
        raise RulesetError(f"{source}: labels must be a mapping with prefixes and separators")
    prefixes = labels.get("prefixes") or []
    separators = labels.get("separators") or ["：", ":"]
    for what, values in (("labels.prefixes", prefixes), ("labels.separators", separators)):
        if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
            raise RulesetError(f"{source}: {what} must be a list of non-empty strings")
    return tuple(prefixes), tuple(separators)


def _compile_regex(regex: object, where: str, source: str) -> Any:
    if regex is None:
        return None
    if not isinstance(regex, str) or not regex:
        raise RulesetError(f"{source}: {where}.regex must be a non-empty string")
    import re2  # google-re2: linear time, no catastrophic backtracking

    try:
        return re2.compile(regex)
    except Exception as exc:  # re2 raises its own error type
        raise RulesetError(f"{source}: {where}.regex does not compile under re2: {exc}") from None


def _pattern(raw: object, where: str, source: str, version: int) -> CanonicalPattern:
    if not isinstance(raw, Mapping):
        raise RulesetError(f"{source}: {where} must be a mapping with token and words")
    allowed = {"token", "words", "regex"} | ({"subject"} if version >= 2 else set())
    unknown = set(raw) - allowed
    if unknown:
        raise RulesetError(f"{source}: {where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    token = raw.get("token")
    if not isinstance(token, str) or not _TOKEN_RE.match(token):
        raise RulesetError(f"{source}: {where}.token must match [a-z][a-z0-9_]*, got {token!r}")
    words = _words(raw.get("words"), f"{where}.words", source)
    compiled = _compile_regex(raw.get("regex"), where, source)
    if not words and compiled is None:
        raise RulesetError(f"{source}: {where} needs at least one word or a regex")
    subject = raw.get("subject", False)
    if not isinstance(subject, bool):
        raise RulesetError(f"{source}: {where}.subject must be true or false")
    return CanonicalPattern(token, words, raw.get("regex"), compiled, subject)


def _patterns(data: Mapping[str, Any], source: str, version: int) -> tuple[CanonicalPattern, ...]:
    raw_patterns = data.get("patterns") or []
    if not isinstance(raw_patterns, list):
        raise RulesetError(f"{source}: patterns must be a list")
    patterns: list[CanonicalPattern] = []
    for index, raw in enumerate(raw_patterns):
        pattern = _pattern(raw, f"patterns[{index}]", source, version)
        if any(p.token == pattern.token for p in patterns):
            raise RulesetError(f"{source}: patterns[{index}].token {pattern.token!r} is defined twice")
        patterns.append(pattern)
    return tuple(patterns)


def _thresholds(data: Mapping[str, Any], source: str) -> Thresholds:
    raw = data.get("thresholds") or {}
    if not isinstance(raw, Mapping):
        raise RulesetError(f"{source}: thresholds must be a mapping")
    d = Thresholds()
    unknown = set(raw) - set(d.__dataclass_fields__)
    if unknown:
        raise RulesetError(f"{source}: unknown threshold(s) {', '.join(sorted(map(str, unknown)))}")
    return Thresholds(**{name: _share(raw, name, getattr(d, name), source) for name in d.__dataclass_fields__})


def _text_list(raw: object, where: str, source: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(t, str) and t for t in raw):
        raise RulesetError(f"{source}: {where} must be a list of non-empty strings")
    return tuple(raw)


def _pairs(raw: object, where: str, source: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in raw):
        raise RulesetError(f"{source}: {where} must be a list of [text, text] pairs")
    return tuple((a, b) for a, b in (_text_list(p, where, source) for p in raw))


def _examples(data: Mapping[str, Any], source: str) -> RulesetExamples:
    raw = data.get("examples") or {}
    if not isinstance(raw, Mapping) or set(raw) - {"keys", "same", "different", "praise", "problems"}:
        raise RulesetError(f"{source}: examples must be a mapping of keys, same, different, praise, problems")
    keys = raw.get("keys") or []
    if not isinstance(keys, list) or not all(isinstance(k, Mapping) and set(k) == {"text", "key"} for k in keys):
        raise RulesetError(f"{source}: examples.keys must be a list of {{text, key}} mappings")
    return RulesetExamples(
        keys=tuple((str(k["text"]), str(k["key"])) for k in keys),
        same=_pairs(raw.get("same") or [], "examples.same", source),
        different=_pairs(raw.get("different") or [], "examples.different", source),
        praise=_text_list(raw.get("praise") or [], "examples.praise", source),
        problems=_text_list(raw.get("problems") or [], "examples.problems", source))


def parse_ruleset(data: object, *, source: str = "<ruleset>") -> Ruleset:
    """Build a :class:`Ruleset` from parsed YAML/JSON data; errors name the file and field."""
    if not isinstance(data, Mapping):
        raise RulesetError(f"{source}: a ruleset must be a mapping")
    version = _FORMATS.get(data.get("format"))  # type: ignore[arg-type]
    if version is None:
        raise RulesetError(f"{source}: format must be {RULESET_FORMAT!r} or {RULESET_FORMAT_2!r}, "
                           f"got {data.get('format')!r}")
    allowed = {"format", "name", "labels", "patterns", "positive", "negative", "thresholds"}
    unknown = set(data) - allowed - ({"examples"} if version >= 2 else set())
    if unknown:
        raise RulesetError(f"{source}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise RulesetError(f"{source}: name must be a non-empty string")
    prefixes, separators = _labels(data, source)
    draft = Ruleset(
        name=name, label_prefixes=prefixes, label_separators=separators,
        patterns=_patterns(data, source, version),
        positive=_words(data.get("positive"), "positive", source),
        negative=_words(data.get("negative"), "negative", source),
        thresholds=_thresholds(data, source), version="", source=source, format_version=version,
        examples=_examples(data, source) if version >= 2 else RulesetExamples(),
    )
    return replace(draft, version=_digest(_canonical(draft)), _cache={}, _praise_cache={}, _kind_cache={})


def load_ruleset(path: str | Path) -> Ruleset:
    """Load a ruleset YAML (or JSON) file; a bare name loads a bundled ruleset.

    The file goes through the one data-file loader (:mod:`sadame._datafile`): duplicate keys,
    tabs, anchors, an empty file, deep nesting and huge integers are refused with the line.
    """
    p = Path(path)
    if not p.exists() and isinstance(path, str) and "/" not in path and not path.endswith((".yaml", ".yml")):
        bundled = _RULESET_DIR / f"{path}.yaml"
        if bundled.is_file():
            return parse_ruleset(_load(bundled, path), source=path)
    return parse_ruleset(_load(p, str(path)), source=str(path))


def _load(path: Path, source: str) -> object:
    try:
        return parse_bytes(_read(path, source), file=source, suffix=path.suffix, floats=True)
    except DataFileError as exc:
        raise RulesetError(str(exc)) from None


def _read(path: Path, source: str) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise RulesetError(f"{source}: cannot read ruleset: {exc.strerror or exc}") from None


_DEFAULT: Ruleset | None = None


def default_ruleset() -> Ruleset:
    """The bundled seed example ruleset (``src/sadame/data/rulesets/seed-example.yaml``)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_ruleset(DEFAULT_RULESET)
    return _DEFAULT


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with sadame."""
    return sorted(p.stem for p in _RULESET_DIR.glob("*.yaml"))


def strip_label(text: str, ruleset: Ruleset) -> str:
    """Remove one leading label (``課題：`` ...) and the whitespace after it, like the seed's
    ``^(?:labels)[：:]\\s*`` on the raw text (first listed prefix wins, as in a JS alternation)."""
    for prefix in ruleset.label_prefixes:
        if text.startswith(prefix):
            rest = text[len(prefix) :]
            for sep in ruleset.label_separators:
                if rest.startswith(sep):
                    rest = rest[len(sep) :]
                    i = 0
                    while i < len(rest) and rest[i] in _JS_WS:
                        i += 1
                    return rest[i:]
    return text


def _check(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return text


def normalize_issue_text(text: str, ruleset: Ruleset) -> str:
    """The seed's ``normalizeIssueText``: sorted matching tokens joined by ``::``, else the
    normalized text itself (``""`` when nothing is left)."""
    cache = ruleset._cache
    found = cache.get(_check(text))
    if found is not None:
        return found
    if ruleset.format_version >= 2:
        result = _key_text_v2(text, ruleset)
    else:
        stripped = normalize(strip_label(text, ruleset), preset="issue")
        tokens = sorted({p.token for p in ruleset.patterns if p.matches(stripped)})
        result = "::".join(tokens) if tokens else stripped
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[text] = result
    return result


def issue_key(text: str, ruleset: Ruleset) -> str:
    """The issue key of ``text``; falls back to the lower-cased raw text when normalization
    leaves nothing (the seed's ``normalizeIssueText(text) || text.toLowerCase()``)."""
    return normalize_issue_text(text, ruleset) or normalize(_check(text), flags=_LOWER_ONLY)


def issue_tokens(text: str, ruleset: Ruleset) -> list[str]:
    """The seed's ``normalizeIssueKey(text).tokens``: the key split on ``::`` (empty parts dropped)."""
    return key_tokens(normalize_issue_text(text, ruleset))


def key_tokens(normalized: str) -> list[str]:
    """:func:`issue_tokens` of a text already through :func:`normalize_issue_text`."""
    return [t for t in normalized.split("::") if t]


def issue_id(key: str) -> str:
    """First 40 hex characters of SHA-256 over the UTF-8 key (lone surrogates as U+FFFD, like Node)."""
    found = _ID_CACHE.get(_check(key))
    if found is None:
        data = _LONE_SURROGATE.sub("\ufffd", key).encode("utf-8")
        found = hashlib.sha256(data).hexdigest()[:40]
        if len(_ID_CACHE) >= _CACHE_SIZE:
            _ID_CACHE.clear()
        _ID_CACHE[key] = found
    return found


_ID_CACHE: dict[str, str] = {}  # key -> id: a key is hashed several times per session


def is_positive(text: str, ruleset: Ruleset) -> bool:
    """Praise, not a problem: a positive word and no negative word (seed's ``isPositiveSummary``),
    tested on the ``issue``-normalized full text."""
    if ruleset.format_version >= 2:
        cache = ruleset._praise_cache
        found = cache.get(text)
        if found is None:
            found = finding_kind(text, ruleset) != "problem"
            if len(cache) >= _CACHE_SIZE:
                cache.clear()
            cache[text] = found
        return found
    norm = normalize(_check(text), preset="issue")
    return any(w in norm for w in ruleset.positive) and not any(w in norm for w in ruleset.negative)


def finding_kind(text: str, ruleset: Ruleset) -> str:
    """``problem``, ``praise`` or ``improvement`` (format 2, see ``_meaning.finding_meaning``);
    format 1 knows no improvements: praise is what :func:`is_positive` filters."""
    if ruleset.format_version < 2:
        return "praise" if is_positive(text, ruleset) else "problem"
    cache = ruleset._kind_cache
    found = cache.get(_check(text))
    if found is None:
        cleaned = clean_markup(strip_label(clean_markup(text), ruleset))
        found = _meaning(normalize(cleaned, preset="issue"), ruleset.positive, ruleset.negative)
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        cache[text] = found
    return found


#: Normalized findings up to this long have their reading kept (:func:`_meaning`), the last
#: :data:`_MEANING_TEXTS` of them: a few megabytes at most.
_MEANING_CHARS = 300
_MEANING_TEXTS = 4096


def _meaning(normalized: str, positive: tuple[str, ...], negative: tuple[str, ...]) -> str:
    """:func:`finding_meaning`, kept per normalized text (see :func:`_meaning_short`)."""
    if len(normalized) > _MEANING_CHARS:
        return finding_meaning(normalized, positive, negative)
    return _meaning_short(normalized, positive, negative)


@functools.lru_cache(maxsize=_MEANING_TEXTS)
def _meaning_short(normalized: str, positive: tuple[str, ...], negative: tuple[str, ...]) -> str:
    """A finding recurs with other markup or another label (``**課題：** 踏み込みが弱い``,
    ``1. 「踏み込みが弱い」``): new texts to :func:`finding_kind`'s per-text cache, one normalized
    text here, read once (least recently used dropped first)."""
    return finding_meaning(normalized, positive, negative)


def _key_text_v2(text: str, ruleset: Ruleset) -> str:
    """Format 2: markup removed, label stripped, tokens with their subjects (see ``_meaning``)."""
    cleaned = clean_markup(strip_label(clean_markup(text), ruleset))
    norm = normalize(cleaned, preset="issue")
    matched = [p for p in ruleset.patterns if p.matches(norm)]
    if not matched:
        return norm.strip(" 。．.、,!！?？")
    words = [w for p in matched for w in p.words if w in norm]
    tokens = set()
    for p in matched:
        word = p.first_word(norm) if p.subject else None
        subject = subject_of(norm, word, [w for w in words if w != word]) if word else None
        tokens.add(f"{p.token}{SUBJECT_SEPARATOR}{subject}" if subject else p.token)
    return "::".join(sorted(tokens))
