"""Loading rule tables and puzzle packs: safe YAML/JSON, schema, semantic checks.

Loading is all-or-nothing: the file is read (size-capped), parsed (YAML without
aliases, anchors, duplicate keys or YAML 1.1 surprises such as ``NO`` -> False),
validated against the JSON Schema shipped in ``sadame/judge/schema/``, checked
(closed answer set, unique ids, words that survive normalization) and only then
turned into immutable objects. Any problem raises :class:`TableError` naming the
file, puzzle, rule (index and id) and field.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import jsonschema

from sadame._datafile import MAX_BYTES, DataFileError, parse_bytes
from sadame.judge.engine._errors import TableError
from sadame.judge.engine._model import (
    AnswerExample,
    Example,
    Puzzle,
    PuzzlePack,
    Question,
    Rule,
    RuleTable,
    Solution,
)
from sadame.normalize import normalize

__all__ = [
    "MAX_TABLE_BYTES",
    "PACK_FORMAT",
    "PACK_FORMAT2",
    "PACK_FORMAT3",
    "TABLE_FORMAT",
    "TABLE_FORMAT2",
    "bundled_names",
    "bundled_pack",
    "bundled_table",
    "load_pack",
    "load_table",
    "parse_table",
    "resolve_table",
    "table_schema",
]

#: Files larger than this are refused before parsing (the data-file loader's limit).
MAX_TABLE_BYTES = MAX_BYTES
TABLE_FORMAT = "sadame.rules/1"
PACK_FORMAT = "sadame.puzzles/1"
#: Format 2: format 1 plus ``matching`` (natural | seed), ``synonyms``, ``questions``,
#: and for puzzles ``difficulty``, ``hints`` and ``answer_examples[].kind``.
TABLE_FORMAT2 = "sadame.rules/2"
PACK_FORMAT2 = "sadame.puzzles/2"
#: The verdict kind of format 3 (``_facts.MATTERS``; spelled here so that loading never analyzes).
MATTERS = "MATTERS"
#: Format 3: format 2 plus per-puzzle ``facts`` (what is true of the story; see ``_facts``).
PACK_FORMAT3 = "sadame.puzzles/3"
_SCHEMA_FILES = {
    TABLE_FORMAT: "rules.schema.json",
    PACK_FORMAT: "puzzles.schema.json",
    TABLE_FORMAT2: "rules-2.schema.json",
    PACK_FORMAT2: "puzzles-2.schema.json",
    PACK_FORMAT3: "puzzles-3.schema.json",
}
_PACK_FORMATS = (PACK_FORMAT, PACK_FORMAT2, PACK_FORMAT3)
#: In natural mode an answer longer than twice the truth (and than this) is "too long".
_MIN_ANSWER_CHARS = 200
_PRESET = "judge"


# --------------------------------------------------------------------------- parse


def _parse_bytes(raw: bytes, file: str, suffix: str) -> object:
    """The one data-file loader (:mod:`sadame._datafile`), its error as a :class:`TableError`."""
    try:
        return parse_bytes(raw, file=file, suffix=suffix, max_bytes=MAX_TABLE_BYTES)
    except DataFileError as exc:
        raise TableError(exc.detail, file=file) from None


# --------------------------------------------------------------------------- schema


@cache
def _schema_text(fmt: str) -> str:
    return (resources.files("sadame.judge") / "schema" / _SCHEMA_FILES[fmt]).read_text("utf-8")


def table_schema(fmt: str = TABLE_FORMAT) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``fmt`` (``sadame.rules/1|2`` or ``sadame.puzzles/1|2``)."""
    if fmt not in _SCHEMA_FILES:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(_SCHEMA_FILES)}")
    data: dict[str, Any] = json.loads(_schema_text(fmt))
    return data


@cache
def _validator(fmt: str) -> jsonschema.protocols.Validator:
    schema = table_schema(fmt)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def _locate(data: Any, path: Sequence[object], file: str | None, message: str) -> TableError:
    """Turn a JSON path into (puzzle, rule index, rule id, field) for the error."""
    parts = list(path)
    puzzle: str | None = None
    if len(parts) >= 2 and parts[0] == "puzzles" and isinstance(parts[1], int):
        raw_puzzle = _get(data, ["puzzles", parts[1]])
        pid = raw_puzzle.get("id") if isinstance(raw_puzzle, dict) else None
        puzzle = pid if isinstance(pid, str) else f"#{parts[1]}"
        data, parts = raw_puzzle, parts[2:]
    if len(parts) >= 2 and parts[0] == "rules" and isinstance(parts[1], int):
        raw_rule = _get(data, ["rules", parts[1]])
        rid = raw_rule.get("id") if isinstance(raw_rule, dict) else None
        field = ".".join(str(p) for p in parts[2:]) or None
        return TableError(
            message, file=file, puzzle=puzzle, index=parts[1],
            rule_id=rid if isinstance(rid, str) else None, field=field,
        )
    field = _dotted(parts) or None
    return TableError(message, file=file, puzzle=puzzle, field=field)


def _dotted(parts: Sequence[object]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _get(data: Any, path: Sequence[object]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


_RULE_KEYS = frozenset({"id", "any", "not", "answer", "note"})
_RULE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def _word_ok(word: object) -> bool:
    return (isinstance(word, str) and word != "") or (isinstance(word, int) and not isinstance(word, bool))


def _rule_ok(rule: object) -> bool:
    """Whether ``rule`` is certainly valid under ``$defs/rule`` (the same in every format).

    A fast, conservative check: True only for what the schema accepts; anything
    unusual is left to jsonschema.
    """
    if not isinstance(rule, dict) or not rule.keys() <= _RULE_KEYS or "any" not in rule or "answer" not in rule:
        return False
    rid, any_words, not_words = rule.get("id", "x"), rule["any"], rule.get("not", [])
    return (
        isinstance(rid, str) and _RULE_ID.fullmatch(rid) is not None
        and isinstance(any_words, list) and len(any_words) > 0 and all(map(_word_ok, any_words))
        and isinstance(not_words, list) and all(map(_word_ok, not_words))
        and isinstance(rule["answer"], str) and isinstance(rule.get("note", ""), str)
    )


def _skeleton(data: dict[str, Any]) -> dict[str, Any] | None:
    """``data`` with every rule list cut to its first rule, when all the others are
    certainly valid (:func:`_rule_ok`); None otherwise.

    jsonschema then checks the skeleton, not 100,000 rules one by one: the rules
    are where nearly all the time of a validation went. On any doubt the whole
    document goes to jsonschema, which words the error.
    """
    def cut(owner: dict[str, Any]) -> dict[str, Any] | None:
        rules = owner.get("rules")
        if not isinstance(rules, list) or len(rules) <= 1:
            return owner
        if not all(map(_rule_ok, rules[1:])):
            return None
        return {**owner, "rules": rules[:1]}

    top = cut(data)
    puzzles = data.get("puzzles")
    if top is None or not isinstance(puzzles, list):
        return top
    cut_puzzles = [cut(p) if isinstance(p, dict) else p for p in puzzles]
    if any(p is None for p in cut_puzzles):
        return None
    return {**top, "puzzles": cut_puzzles}


def _validate(data: object, file: str | None) -> str:
    if not isinstance(data, dict):
        raise TableError(f"the document must be a mapping, got {type(data).__name__}", file=file)
    fmt = data.get("format")
    if fmt not in _SCHEMA_FILES:
        raise TableError(
            f"unknown format {fmt!r}: expected one of {', '.join(_SCHEMA_FILES)}", file=file, field="format"
        )
    skeleton = _skeleton(data)
    errors = sorted(_validator(fmt).iter_errors(skeleton if skeleton is not None else data),
                    key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        path = list(first.absolute_path)
        if first.validator == "additionalProperties" and isinstance(first.instance, dict):
            known = first.schema.get("properties", {}) if isinstance(first.schema, dict) else {}
            unknown = sorted(str(key) for key in first.instance if key not in known)
            if unknown:
                path.append(unknown[0])
                allowed = ", ".join(known)
                raise _locate(data, path, file, f"unknown key {unknown[0]!r} (allowed: {allowed}){more}")
        raise _locate(data, path, file, first.message + more)
    return str(fmt)


# --------------------------------------------------------------------------- build


def _digest(content: object) -> str:
    canonical = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _words(raw: Sequence[object], error: TableError) -> tuple[tuple[str, ...], tuple[str, ...]]:
    words = tuple(str(w) for w in raw)
    normalized = tuple(normalize(w, preset=_PRESET) for w in words)
    for word, norm in zip(words, normalized, strict=True):
        if not norm:
            raise TableError(
                f"word {word!r} normalizes to the empty string (it would match every question)",
                file=error.file, puzzle=error.puzzle, index=error.index, rule_id=error.rule_id,
                field=error.field,
            )
    return words, normalized


def _build_rules(
    raw_rules: Sequence[Mapping[str, Any]], answers: tuple[str, ...], file: str | None, puzzle: str | None
) -> tuple[Rule, ...]:
    rules: list[Rule] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(raw_rules):
        rid = raw.get("id")

        def where(field: str, message: str = "", *, _i: int = index, _id: Any = rid) -> TableError:
            return TableError(message, file=file, puzzle=puzzle, index=_i, rule_id=_id, field=field)

        if rid is not None:
            if rid in seen:
                raise where("id", f"duplicate rule id {rid!r} (first used by rule #{seen[rid]})")
            seen[rid] = index
        answer = raw["answer"]
        if answer not in answers:
            raise where("answer", f"{answer!r} is not one of the declared answers ({', '.join(answers)})")
        any_words, any_norm = _words(raw["any"], where("any"))
        not_words, not_norm = _words(raw.get("not", ()), where("not"))
        rules.append(
            Rule(index, rid, any_words, not_words, answer, raw.get("note"), any_norm, not_norm)
        )
    return tuple(rules)


def _build_examples(
    raw: Sequence[Mapping[str, Any]], answers: tuple[str, ...], file: str | None, puzzle: str | None
) -> tuple[Example, ...]:
    examples = []
    for i, item in enumerate(raw):
        expect = item["expect"]
        if expect is not None and expect not in answers:
            raise TableError(
                f"expect {expect!r} is not one of the declared answers ({', '.join(answers)}) or null",
                file=file, puzzle=puzzle, field=f"examples[{i}].expect",
            )
        examples.append(Example(item["q"], expect))
    return tuple(examples)


def _build_questions(
    raw: Sequence[Mapping[str, Any]], answers: tuple[str, ...], file: str | None, puzzle: str | None
) -> tuple[Question, ...]:
    questions = []
    for i, item in enumerate(raw):
        expect = item["expect"]
        if expect is not None and expect not in answers:
            raise TableError(
                f"expect {expect!r} is not one of the declared answers ({', '.join(answers)}) or null",
                file=file, puzzle=puzzle, field=f"questions[{i}].expect",
            )
        questions.append(Question(item["q"], expect, tuple(item.get("tags", ())), bool(item.get("none_ok", False))))
    return tuple(questions)


def _build_synonyms(raw: Mapping[str, Sequence[object]], file: str | None) -> Mapping[str, tuple[str, ...]]:
    """Pack-level synonyms: each key and variant must survive normalization."""
    synonyms: dict[str, tuple[str, ...]] = {}
    for key, variants in raw.items():
        words, _ = _words([key, *variants], TableError("", file=file, field=f"synonyms.{key}"))
        synonyms[words[0]] = words[1:]
    return MappingProxyType(synonyms)


def _mode(data: Mapping[str, Any], fmt: str, file: str | None) -> tuple[str, Mapping[str, tuple[str, ...]]]:
    """(matching, synonyms): format 1 is always seed mode; format 2 defaults to natural."""
    if fmt in (TABLE_FORMAT, PACK_FORMAT):
        return "seed", MappingProxyType({})
    return str(data.get("matching", "natural")), _build_synonyms(data.get("synonyms", {}), file)


def _build_table(data: dict[str, Any], file: str | None, fmt: str) -> RuleTable:
    answers = tuple(data["answers"])
    rules = _build_rules(data["rules"], answers, file, None)
    examples = _build_examples(data.get("examples", ()), answers, file, None)
    questions = _build_questions(data.get("questions", ()), answers, file, None)
    matching, synonyms = _mode(data, fmt, file)
    return RuleTable(
        data["name"], answers, rules, _digest(data), examples, file, matching, synonyms, questions
    )


def _build_solution(raw: Sequence[Sequence[object]], file: str | None, pid: str) -> tuple[tuple[str, ...], ...]:
    solution: list[tuple[str, ...]] = []
    for g, group in enumerate(raw):
        words, _ = _words(group, TableError("", file=file, puzzle=pid, field=f"solution[{g}]"))
        solution.append(words)
    return tuple(solution)


def _build_answer_examples(
    raw: Sequence[Mapping[str, Any]], groups: int, file: str | None, pid: str
) -> tuple[AnswerExample, ...]:
    answer_examples = tuple(
        AnswerExample(item["a"], item["correct"], item.get("matched"), item.get("kind")) for item in raw
    )
    for i, item in enumerate(answer_examples):
        if item.matched is not None and item.matched > groups:
            raise TableError(
                f"matched {item.matched} exceeds the {groups} solution group(s)",
                file=file, puzzle=pid, field=f"answer_examples[{i}].matched",
            )
    return answer_examples


def _pack_version(data: Mapping[str, Any], fmt: str, raw: Mapping[str, Any]) -> str:
    if fmt == PACK_FORMAT:
        return _digest({"format": PACK_FORMAT, "answers": data["answers"], "puzzle": raw})
    return _digest({
        "format": fmt, "answers": data["answers"], "matching": data.get("matching", "natural"),
        "synonyms": data.get("synonyms", {}), "puzzle": raw,
    })


def _build_puzzle(
    data: Mapping[str, Any], raw: Mapping[str, Any], fmt: str, file: str | None,
    mode: tuple[str, Mapping[str, tuple[str, ...]]],
) -> Puzzle:
    pid = raw["id"]
    answers = tuple(data["answers"])
    rules = _build_rules(raw["rules"], answers, file, pid)
    expectable = (*answers, MATTERS) if fmt == PACK_FORMAT3 else answers  # format 3 may expect MATTERS
    examples = _build_examples(raw.get("examples", ()), expectable, file, pid)
    questions = _build_questions(raw.get("questions", ()), expectable, file, pid)
    solution = _build_solution(raw["solution"], file, pid)
    if mode[0] == "natural":
        solution = Solution(solution, "natural", mode[1], max(_MIN_ANSWER_CHARS, 2 * len(raw["truth"])))
    answer_examples = _build_answer_examples(raw.get("answer_examples", ()), len(solution), file, pid)
    table = RuleTable(
        f"{data['name']}/{pid}", answers, rules, _pack_version(data, fmt, raw), examples, file,
        mode[0], mode[1], questions, tuple(raw.get("facts", ())), raw["statement"], raw["truth"],
        fmt == PACK_FORMAT3 and mode[0] == "natural" and "facts" in raw, fmt == PACK_FORMAT3,
    )
    return Puzzle(
        pid, raw["title"], raw["statement"], raw["truth"], table, solution, examples, answer_examples,
        raw.get("difficulty"), tuple(raw.get("hints", ())), questions,
    )


def _build_pack(data: dict[str, Any], file: str | None, fmt: str) -> PuzzlePack:
    answers = tuple(data["answers"])
    mode = _mode(data, fmt, file)
    puzzles: dict[str, Puzzle] = {}
    for raw in data["puzzles"]:
        pid = raw["id"]
        if pid in puzzles:
            raise TableError(f"duplicate puzzle id {pid!r}", file=file, puzzle=pid, field="id")
        puzzles[pid] = _build_puzzle(data, raw, fmt, file, mode)
    return PuzzlePack(
        data["name"], data["title"], answers, MappingProxyType(puzzles), _digest(data), file,
        fmt, mode[0], mode[1], data.get("description"),
    )


def parse_yaml(text: str, file: str = "<text>") -> object:
    """Parse YAML the way table files are parsed (no aliases, no duplicate keys,
    YAML 1.2 scalars: ``NO`` stays a string). Raises :class:`TableError`."""
    return _parse_bytes(text.encode("utf-8"), file, ".yaml")


def parse_table(data: object, *, file: str | None = None) -> RuleTable | PuzzlePack:
    """Validate already-parsed data (a dict as from YAML/JSON) and build the table
    or pack its ``format`` names. Raises :class:`TableError`; never returns half."""
    fmt = _validate(data, file)
    assert isinstance(data, dict)
    if fmt in _PACK_FORMATS:
        return _build_pack(data, file, fmt)
    return _build_table(data, file, fmt)


def load_table(path: str | Path) -> RuleTable | PuzzlePack:
    """Load a ``.yaml``/``.yml``/``.json`` rule table or puzzle pack from ``path``."""
    if not isinstance(path, str | Path):
        raise TypeError(f"path must be str or Path, got {type(path).__name__}")
    file = str(path)
    p = Path(path)
    try:
        with p.open("rb") as handle:
            raw = handle.read(MAX_TABLE_BYTES + 1)
    except OSError as exc:
        raise TableError(f"cannot read: {exc.strerror or exc}", file=file) from None
    data = _parse_bytes(raw, file, p.suffix.lower())
    return parse_table(data, file=file)


def load_pack(path: str | Path) -> PuzzlePack:
    """Load a puzzle pack; a plain rule table is a :class:`TableError`."""
    loaded = load_table(path)
    if not isinstance(loaded, PuzzlePack):
        raise TableError(f"expected a puzzle pack ({', '.join(_PACK_FORMATS)}), got a rule table", file=str(path))
    return loaded


def _bundled_dir(kind: str) -> Any:
    return resources.files("sadame") / "data" / kind


def bundled_names(kind: str = "puzzles") -> tuple[str, ...]:
    """Names of the bundled packs (``kind="puzzles"``) or tables (``kind="tables"``)."""
    if kind not in ("puzzles", "tables"):
        raise ValueError("kind must be 'puzzles' or 'tables'")
    folder = _bundled_dir(kind)
    if not folder.is_dir():
        return ()
    return tuple(sorted(item.name.rsplit(".", 1)[0] for item in folder.iterdir() if item.name.endswith(".yaml")))


def _load_bundled(kind: str, name: str) -> RuleTable | PuzzlePack:
    if not isinstance(name, str) or name not in bundled_names(kind):
        known = ", ".join(bundled_names(kind)) or "none"
        raise TableError(f"no bundled {kind[:-1] if kind == 'tables' else 'pack'} {name!r} (bundled: {known})")
    return _load_bundled_file(kind, name)


@lru_cache(maxsize=64)
def _load_bundled_file(kind: str, name: str) -> RuleTable | PuzzlePack:
    # Bundled data never changes while the process runs and loaded tables are immutable, so one
    # load serves every caller (each web app, each worker thread, each game).
    resource = _bundled_dir(kind) / f"{name}.yaml"
    with resources.as_file(resource) as path:
        return load_table(path)


def bundled_pack(name: str = "engineering") -> PuzzlePack:
    """A puzzle pack shipped with sadame (``sadame/data/puzzles/<name>.yaml``)."""
    loaded = _load_bundled("puzzles", name)
    assert isinstance(loaded, PuzzlePack)
    return loaded


def bundled_table(name: str) -> RuleTable:
    """A rule table shipped with sadame (``sadame/data/tables/<name>.yaml``)."""
    loaded = _load_bundled("tables", name)
    if not isinstance(loaded, RuleTable):
        raise TableError(f"bundled table {name!r} is not a rule table")
    return loaded


def resolve_table(source: str | Path) -> RuleTable | PuzzlePack:
    """A path to a table/pack file, or else the name of a bundled pack or table."""
    path = Path(source)
    if path.exists():
        return load_table(path)
    name = str(source)
    if name in bundled_names("puzzles"):
        return bundled_pack(name)
    if name in bundled_names("tables"):
        return bundled_table(name)
    packs = ", ".join(bundled_names("puzzles")) or "none"
    tables = ", ".join(bundled_names("tables")) or "none"
    raise TableError(f"no such file, and no bundled pack or table by that name (packs: {packs}; tables: {tables})",
                     file=name)
