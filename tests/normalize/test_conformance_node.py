"""Conformance: the ``judge`` and ``issue`` presets equal the seeds' JavaScript under Node.

The seeds' functions are copied verbatim into ``tests/normalize/js/*.mjs`` and are the
reference oracle. A deterministic corpus (seeded ``random``) of several thousand mixed
strings goes to Node once (one subprocess, JSON over stdin/stdout, ``ensure_ascii`` so
lone surrogates survive) and every output is compared, UTF-16 code unit for code unit
(JavaScript strings are UTF-16), with ``normalize(s, preset="judge")`` and
``normalize(strip_label(s), preset="issue")``.

Unicode versions: random code points are restricted to characters assigned in Python's
``unicodedata`` (category != "Cn"). Node's ``process.versions.unicode`` and Python's
``unicodedata.unidata_version`` are recorded; when they differ, cases holding a code
point that is unassigned in either version (Node reports ``\\p{Cn}`` for us) are
excluded, counted and printed. Assigned characters keep their NFKC mapping across
versions (Unicode normalization stability), so nothing else is excluded.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from sadame.normalize import normalize
from sadame.normalize._flags import JS_WHITESPACE

pytestmark = pytest.mark.node

JS_DIR = Path(__file__).parent / "js"
SEED = 20260718
RANDOM_CASES = 6000

#: Seed 000's ISSUE_CATEGORY_LABEL_PATTERN; JavaScript's ``\s`` is JS_WHITESPACE, not Python's.
LABEL = re.compile(
    "^(?:最優先改善点|改善ポイント|影響分析|改善期待効果|意識するポイント|課題)[：:]["
    + re.escape(JS_WHITESPACE)
    + "]*"
)
LABELS = [
    "最優先改善点：",
    "改善ポイント:",
    "影響分析：",
    "改善期待効果:",
    "意識するポイント：\u3000",
    "課題: \ufeff",
]

#: Whitespace-ish characters where JavaScript's ``\s`` and Python's ``str.isspace`` disagree
#: (or that look like whitespace and are neither).
WHITESPACE_ISH = [
    *range(0x09, 0x0E), 0x20, 0x1C, 0x1D, 0x1E, 0x1F, 0x85, 0xA0, 0x1680, 0x180E, *range(0x2000, 0x200B),
    0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF,
]  # fmt: skip
#: The punctuation of both seeds (judge deletes, issue turns into spaces), plus
#: half-width and small/vertical forms that NFKC maps onto them.
PUNCTUATION = [
    *map(ord, "、。，．,.!?！？「」『』【】（）()［］[]・:;：；'\"`/／ー〜~"),
    *range(0xFF61, 0xFF66), *range(0xFE10, 0xFE1A), *range(0xFE30, 0xFE6C),
]  # fmt: skip
#: Case mapping edges: dotted I, final sigma, sharp s, titlecase digraphs, expansions,
#: Greek/Cyrillic/Armenian/Georgian/Cherokee/Deseret/Adlam.
CASE_SPECIAL = [
    0x130, 0x131, 0x3A3, 0x3C2, 0x3C3, 0xDF, 0x1E9E, 0x1C4, 0x1C5, 0x1C6, 0x1C7, 0x1C8, 0x1CA, 0x1CB,
    0x1F1, 0x1F2, 0x149, 0x17F, 0x390, 0x3F4, 0x2126, 0x212A, 0x212B, 0x1FBC, *range(0x1F88, 0x1F90),
    *range(0xFB00, 0xFB07), *range(0xFB13, 0xFB18), *range(0x370, 0x400), *range(0x400, 0x530),
    *range(0x531, 0x58B), *range(0x10A0, 0x1100), *range(0x1C90, 0x1CC0), *range(0x13A0, 0x13F6),
    *range(0xAB70, 0xABC0), *range(0x10400, 0x10450), *range(0x1E900, 0x1E944), *range(0x100, 0x250),
    *range(0x1E00, 0x1F00), *range(0x1F00, 0x2000),
]  # fmt: skip
COMBINING = [
    *range(0x300, 0x370), 0x3099, 0x309A, 0xFF9E, 0xFF9F, *range(0x20D0, 0x20F1), *range(0x591, 0x5C8),
    0x93C, 0xCBC, *range(0x1AB0, 0x1ACF), *range(0xFE20, 0xFE30), 0x1D165, 0x1D16D,
]  # fmt: skip
COMPATIBILITY = [
    *range(0x2460, 0x2474), *range(0x3220, 0x3244), *range(0x3300, 0x3400), *range(0x32C0, 0x3300),
    0xFB03, 0xB9, 0xB2, 0xB3, 0xBD, 0xAA, 0xBA, *range(0x2070, 0x209D), 0x2122, 0x2121, 0x2103,
    *range(0x2160, 0x2189), *range(0x1D400, 0x1D800, 7), *range(0x1F100, 0x1F1AE), *range(0xF900, 0xFB00, 3),
    *range(0x2F00, 0x2FD6, 3), *range(0x3131, 0x318F), *range(0xFFA0, 0xFFDD), 0x2025, 0x2026, 0x2024,
]  # fmt: skip
EMOJI = [
    *range(0x1F300, 0x1F650), *range(0x1F900, 0x1FA00), *range(0x1F3FB, 0x1F400), 0x200D, 0xFE0F, 0xFE0E,
    *range(0x1F1E6, 0x1F200), *range(0x2600, 0x2700),
]  # fmt: skip
POOLS: dict[str, list[int]] = {
    "hiragana": [*range(0x3041, 0x3097), *range(0x3099, 0x30A0)],
    "katakana": list(range(0x30A0, 0x3100)),
    "halfwidth_kana": list(range(0xFF61, 0xFFA0)),
    "kanji": [*range(0x4E00, 0xA000), *range(0x3400, 0x4DC0, 5), *range(0x20000, 0x2A6E0, 97)],
    "fullwidth_ascii": [*range(0xFF01, 0xFF5F), *range(0xFFE0, 0xFFEF)],
    "ascii": list(range(0x20, 0x7F)),
    "punctuation": PUNCTUATION,
    "whitespace": WHITESPACE_ISH,
    "case_special": CASE_SPECIAL,
    "combining": COMBINING,
    "compatibility": COMPATIBILITY,
    "emoji": EMOJI,
    "hangul": [*range(0x1100, 0x1200), *range(0xAC00, 0xD7A4, 13)],
    "surrogate": list(range(0xD800, 0xE000)),
    "control": [*range(0x00, 0x20), *range(0x7F, 0xA0)],
}
WEIGHTS = {
    "hiragana": 10, "katakana": 10, "halfwidth_kana": 6, "kanji": 8, "fullwidth_ascii": 6, "ascii": 10,
    "punctuation": 10, "whitespace": 10, "case_special": 10, "combining": 5, "compatibility": 6,
    "emoji": 3, "hangul": 2, "surrogate": 2, "control": 3, "any": 6,
}  # fmt: skip
#: Minimal examples of the known issue-preset mismatch (Final_Sigma after case-ignorable
#: characters that the seed turns into spaces *before* lower-casing); see the report test.
FINAL_SIGMA_EXAMPLES = ["AΣ.B", "A.Σ", "AΣ\ufeffB", "ΑΣ.Β", "ΟΔΟΣ.ΣΟΦΙΑ"]


def _assigned(cp: int) -> bool:
    return unicodedata.category(chr(cp)) != "Cn"


@cache
def _all_assigned() -> list[int]:
    return [cp for cp in range(0x110000) if _assigned(cp)]


def _break_surrogate_pairs(s: str) -> str:
    """Keep lone surrogates lone: a high surrogate directly followed by a low one would
    reach JavaScript as one valid pair, i.e. as a different input than Python's."""
    out: list[str] = []
    for ch in s:
        if out and 0xD800 <= ord(out[-1]) <= 0xDBFF and 0xDC00 <= ord(ch) <= 0xDFFF:
            out.append("x")
        out.append(ch)
    return "".join(out)


def build_corpus() -> list[str]:
    """The corpus: minimal examples, every curated character in four contexts, seed
    phrases with random insertions, and random mixed strings. Deterministic."""
    rng = random.Random(SEED)
    pools = {name: [cp for cp in cps if _assigned(cp)] for name, cps in POOLS.items()}
    pools["any"] = _all_assigned()
    names = list(WEIGHTS)
    weights = [WEIGHTS[n] for n in names]

    def draw() -> str:
        return chr(rng.choice(pools[rng.choices(names, weights)[0]]))

    cases: list[str] = ["", *FINAL_SIGMA_EXAMPLES]
    curated = sorted(
        {cp for name in ("whitespace", "punctuation", "combining", "control") for cp in pools[name]}
    )
    curated += [cp for cp in pools["case_special"] if cp < 0x400 or cp > 0x1000][::2]
    curated += pools["compatibility"][::4] + pools["halfwidth_kana"] + pools["emoji"][::25]
    for cp in curated:
        ch = chr(cp)
        cases += [ch, "A" + ch + "b", "ΑΣ" + ch + "Β", "Α" + ch + "Σ"]  # both Final_Sigma sides
    phrases = (JS_DIR / "phrases.txt").read_text("utf-8").splitlines()
    for _ in range(1000):
        phrase = list(rng.choice(phrases))
        for _ in range(rng.randint(0, 4)):
            phrase.insert(rng.randint(0, len(phrase)), draw())
        cases.append("".join(phrase))
    for _ in range(RANDOM_CASES):
        text = "".join(draw() for _ in range(rng.randint(0, 24)))
        if rng.random() < 0.15:
            text = rng.choice(LABELS) + text
        cases.append(text)
    return [_break_surrogate_pairs(s) for s in cases]


def strip_label(text: str) -> str:
    """Seed 000's ``stripIssueCategoryLabel`` (label removal belongs to the tracker)."""
    return LABEL.sub("", text, count=1)


def _node() -> str:
    found = shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").exists() else None)
    if found is None:
        pytest.fail(
            "Node.js is required for the seed conformance tests and was not found "
            "(looked on PATH and at /usr/bin/node): run `make test`, which installs it"
        )
    return found


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


@dataclass(frozen=True)
class NodeRun:
    cases: list[str]
    node: str
    node_unicode: str
    python_unicode: str
    judge: list[str]
    strip: list[str]
    issue: list[str]
    excluded: frozenset[int]  # indices of cases left out for Unicode-version reasons
    unassigned_in_older: frozenset[int]


@pytest.fixture(scope="module")
def node_run() -> NodeRun:
    cases = build_corpus()
    code_points = sorted({ord(c) for s in cases for c in s})
    payload = json.dumps({"cases": cases, "code_points": code_points}, ensure_ascii=True)
    result = subprocess.run(
        [_node(), str(JS_DIR / "conformance_runner.mjs")],
        input=payload.encode("ascii"),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"node failed: {result.stderr.decode('utf-8', 'replace')}"
    out = json.loads(result.stdout.decode("utf-8"))
    assert len(out["judge"]) == len(out["issue"]) == len(out["strip"]) == len(cases)
    python_unicode = unicodedata.unidata_version
    unassigned: frozenset[int] = frozenset()
    if _version(out["unicode"]) != _version(python_unicode):
        # Unassigned in the older version = Cn in Node or in Python (the corpus holds only
        # Python-assigned code points, so in practice: Cn in Node when Node is older).
        unassigned = frozenset(out["unassigned"]) | frozenset(cp for cp in code_points if not _assigned(cp))
    excluded = frozenset(i for i, s in enumerate(cases) if any(ord(c) in unassigned for c in s))
    return NodeRun(
        cases, out["node"], out["unicode"], python_unicode, out["judge"], out["strip"], out["issue"],
        excluded, unassigned,
    )  # fmt: skip


def _utf16(s: str) -> bytes:
    return s.encode("utf-16-le", "surrogatepass")


def _cps(s: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in s) or "(empty)"


def _mismatches(run: NodeRun, expected: list[str], actual: Iterable[str]) -> list[str]:
    lines = []
    for i, (case, want, got) in enumerate(zip(run.cases, expected, actual, strict=True)):
        if i in run.excluded or _utf16(want) == _utf16(got):
            continue
        lines.append(f"#{i} input [{_cps(case)}]\n    node   [{_cps(want)}]\n    python [{_cps(got)}]")
    return lines


def _report(kind: str, lines: list[str], total: int) -> str:
    return f"{len(lines)} of {total} {kind} outputs differ from Node:\n" + "\n".join(lines)


def test_corpus_is_large_deterministic_and_covers_the_edges() -> None:
    cases = build_corpus()
    assert len(cases) >= 5000
    assert cases == build_corpus()
    seen = {ord(c) for s in cases for c in s}
    required = [*WHITESPACE_ISH, *map(ord, "İςΣßǅ①㈱㍻ﬃ¹\u0301\u3099ｶﾞ👍\x00\x1b\x7f\x9f")]
    assert [f"U+{cp:04X}" for cp in required if cp not in seen] == []
    assert any(0xD800 <= cp <= 0xDFFF for cp in seen), "no lone surrogates"
    assert any(cp > 0xFFFF for cp in seen), "no astral characters"
    assert any(LABEL.match(s) for s in cases), "no issue labels"
    for s in cases:  # lone surrogates stay lone
        assert not re.search("[\ud800-\udbff][\udc00-\udfff]", s)


def test_unicode_versions_are_recorded_and_exclusions_are_honest(
    node_run: NodeRun, capsys: pytest.CaptureFixture[str]
) -> None:
    with capsys.disabled():
        print(
            f"\n[node conformance] Node {node_run.node} Unicode {node_run.node_unicode}; "
            f"Python unicodedata {node_run.python_unicode}; {len(node_run.cases)} cases; "
            f"excluded {len(node_run.excluded)} (code points unassigned in the older version: "
            f"{len(node_run.unassigned_in_older)})"
        )
    assert _version(node_run.node_unicode) and _version(node_run.python_unicode)
    for i in node_run.excluded:
        assert any(ord(c) in node_run.unassigned_in_older for c in node_run.cases[i])
    # Exclusion must stay a small correction, never a way to hide the comparison.
    assert len(node_run.excluded) <= len(node_run.cases) // 10


def test_label_strip_port_matches_node(node_run: NodeRun) -> None:
    lines = _mismatches(node_run, node_run.strip, (strip_label(s) for s in node_run.cases))
    assert not lines, _report("label-strip", lines, len(node_run.cases))


def test_judge_preset_matches_seed_001_under_node(node_run: NodeRun) -> None:
    lines = _mismatches(node_run, node_run.judge, (normalize(s, preset="judge") for s in node_run.cases))
    assert not lines, _report("judge", lines, len(node_run.cases))


def test_issue_preset_matches_seed_000_under_node(node_run: NodeRun) -> None:
    got = (normalize(strip_label(s), preset="issue") for s in node_run.cases)
    lines = _mismatches(node_run, node_run.issue, got)
    assert not lines, _report("issue", lines, len(node_run.cases))


def test_issue_preset_final_sigma_minimal_examples(node_run: NodeRun) -> None:
    """Minimal examples of the one mismatch class found so far.

    The seed runs ``replace(/[\\s、。,.・/]+/g, ' ')`` *before* ``toLowerCase()``; the
    contract lower-cases first. Lower-casing is context-sensitive for U+03A3 (Final_Sigma:
    preceded by a cased letter, not followed by one, skipping Case_Ignorable characters),
    and ``.`` (Word_Break MidNumLet) and U+FEFF (Cf) are Case_Ignorable while the space the
    seed puts in their place is not. So ``AΣ.B`` is ``aς b`` in Node and ``aσ b`` here.
    """
    lines = []
    for text in FINAL_SIGMA_EXAMPLES:
        want = node_run.issue[node_run.cases.index(text)]
        got = normalize(text, preset="issue")
        if want != got:
            lines.append(f"{text!r}: node {want!r} != python {got!r}")
    assert not lines, (
        "issue preset: Final_Sigma is decided before punctuation/whitespace become spaces "
        "(contract bug in sadame.normalize, casefold runs before the seed's replace):\n" + "\n".join(lines)
    )
