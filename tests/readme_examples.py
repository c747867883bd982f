"""Run the ``python`` examples of a Markdown file as tests: ``EXPR  # => VALUE`` asserts ``EXPR == VALUE``.

A script as well as a module, so the wheel tests run it with a clean virtualenv's interpreter
against the *installed* package (``python tests/readme_examples.py README.md``; the source tree
is not on its path)::

    ```yaml
    # my-faq.yaml             <- a YAML block whose first line names a file is written to the cwd
    ```
    ```python
    # pip install 'sadame[track]'   <- the extras a block needs; skipped (and reported) without them
    import sadame
    sadame.normalize("ｷｬｯｼｭ？", preset="judge")   # => 'きゃっしゅ'
    ```

Blocks run in order in one namespace per file, in a temporary working directory.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Block", "blocks", "checked_source", "main", "run_file"]

_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
_EXTRAS = re.compile(r"pip install 'sadame\[([a-z,]+)\]'")
_ARROW = re.compile(r"^(?P<expr>.*?\S)\s+# => (?P<value>.+?)\s*$")

#: extra -> a module it installs (enough to tell whether the extra is there)
_PROBES = {"ja": "sudachipy", "track": "sqlalchemy", "postgres": "psycopg", "web": "fastapi",
           "llm": "httpx", "gemini": "google.genai"}


@dataclass(frozen=True)
class Block:
    language: str
    code: str
    line: int  #: line of the opening fence in the file

    @property
    def extras(self) -> tuple[str, ...]:
        first = self.code.splitlines()[0] if self.code else ""
        found = _EXTRAS.search(first) if first.startswith("#") else None
        return tuple(found.group(1).split(",")) if found else ()

    @property
    def file_name(self) -> str | None:
        first = self.code.splitlines()[0] if self.code else ""
        name = first.removeprefix("# ").strip()
        return name if first.startswith("# ") and re.fullmatch(r"[\w.-]+\.ya?ml", name) else None


def blocks(text: str) -> list[Block]:
    """The fenced ``python`` and ``yaml`` blocks of a Markdown text."""
    return [
        Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1)
        for m in _FENCE.finditer(text)
        if m.group(1) in ("python", "yaml")
    ]


def checked_source(code: str) -> str:
    """``code`` with each ``EXPR  # => VALUE`` line (or ``EXPR`` then a ``# => VALUE`` line) turned
    into an assertion. A ``# =>`` line with no expression before it is an error, never ignored."""
    out: list[str] = []
    lines = code.splitlines()
    for number, line in enumerate(lines):
        if line.lstrip().startswith("# => "):
            if not out or not out[-1].strip() or out[-1].lstrip().startswith(("#", "__check(")):
                raise ValueError(f"line {number + 1}: '# =>' follows no expression")
            line = f"{out.pop()}  {line.strip()}"
        match = _ARROW.match(line)
        if match is None or line.lstrip().startswith("#"):
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        expr, value = match.group("expr").strip(), match.group("value")
        ast.parse(value, mode="eval")  # the expected value must be a Python expression
        ast.parse(expr, mode="eval")  # and what it checks an expression (not an assignment)
        out.append(f"{indent}__check({expr!r}, ({expr}), ({value}))")
    return "\n".join(out) + "\n"


def _check(source: str, actual: object, expected: object) -> None:
    if actual != expected:
        raise AssertionError(f"{source}\n  gave     {actual!r}\n  expected {expected!r}")


def _installed(extra: str) -> bool:
    try:
        return importlib.util.find_spec(_PROBES[extra]) is not None
    except ModuleNotFoundError:
        return False


def run_file(path: Path, *, require_all: bool = False) -> tuple[int, list[str]]:
    """Run the examples of ``path``: (blocks run, blocks skipped for a missing extra).

    ``require_all`` turns a skipped block into a failure (the ``sadame[all]`` run).
    """
    found = blocks(path.read_text(encoding="utf-8"))
    namespace: dict[str, object] = {"__check": _check, "__name__": "__readme__"}
    ran, skipped = 0, []
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        try:
            for block in found:
                if block.language == "yaml":
                    if block.file_name:
                        Path(block.file_name).write_text(block.code, encoding="utf-8")
                    continue
                missing = [extra for extra in block.extras if not _installed(extra)]
                if missing:
                    if require_all:
                        raise AssertionError(f"{path.name}:{block.line}: extras {missing} are not installed")
                    skipped.append(f"{path.name}:{block.line} (needs {', '.join(missing)})")
                    continue
                code = compile(checked_source(block.code), f"{path.name}:{block.line}", "exec")
                exec(code, namespace)
                ran += 1
        finally:
            os.chdir(here)
    return ran, skipped


def main(argv: list[str]) -> int:
    require_all = "--all" in argv
    total = 0
    for name in [a for a in argv if a != "--all"]:
        ran, skipped = run_file(Path(name).resolve(), require_all=require_all)
        total += ran
        for entry in skipped:
            print(f"skipped {entry}")
    print(f"{total} example block(s) passed")
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
