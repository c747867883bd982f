"""Regenerate the per-module tables of docs/guide/api.md from each public module's ``__all__``.

The page's prose before the first module heading and from ``## Over HTTP`` on is kept; a line
already on the page is kept, a new name's line is the first line of its docstring (a constant says what it is by its own comment).
Usage: ``.venv/bin/python scripts/api_page.py`` (tests/test_public_api.py checks the result).
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guide" / "api.md"
GOLDEN = ROOT / "tests" / "data" / "public_api.json"
JUDGE_MODULES = ("sadame.judge", "sadame.judge.authoring", "sadame.judge.game")
LIMIT = 150


def _summary(obj: object, name: str) -> str:
    if name == "__version__":
        return "the installed version"
    doc = inspect.getdoc(obj) if (inspect.isclass(obj) or callable(obj) or inspect.ismodule(obj)) else None
    if not doc:
        return f"`{obj!r}`"[:LIMIT] if isinstance(obj, (str, int, tuple, frozenset)) else "see the module"
    line = " ".join(doc.split("\n\n")[0].split())
    line = line.replace("|", "\\|")
    return line if len(line) <= LIMIT else line[: LIMIT - 4] + " ..."


def main() -> None:
    modules = [m for m in json.loads(GOLDEN.read_text(encoding="utf-8")) if m not in JUDGE_MODULES]
    text = PAGE.read_text(encoding="utf-8")
    known: dict[tuple[str, str], str] = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        heading = re.match(r"`([a-z_.]+)`", section)
        for row in re.findall(r"^\| `([A-Za-z_][A-Za-z0-9_]*)` \| (.*) \|$", section, re.M):
            if heading:
                known[heading.group(1), row[0]] = row[1]
    head = text[: text.index("\n## `")]
    tail = text[text.index("## Over HTTP"):]
    parts = [head]
    for name in modules:
        module = importlib.import_module(name)
        rows = [f"| `{n}` | {known.get((name, n)) or _summary(getattr(module, n), n)} |" for n in sorted(module.__all__)]
        parts.append(f"\n## `{name}`\n\n| name | what it is |\n|---|---|\n" + "\n".join(rows) + "\n")
    PAGE.write_text("".join(parts) + "\n" + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
