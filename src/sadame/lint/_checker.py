"""The SDM001 checker: find every way a module reaches ``unicodedata.normalize``.

The rule exists because of seed 002's post-mortem: five gates each normalized a
little differently and the same quote passed one gate and failed the next. In a
code base that adopts :mod:`sadame.normalize`, the contract module is the only
place allowed to call :func:`unicodedata.normalize`; everything else uses a named
preset. This module is pure (no I/O): it looks at one source text's AST.

What it catches (``ud``/``n`` stand for any alias)::

    import unicodedata;  unicodedata.normalize("NFKC", s)    # call
    import unicodedata as ud;  ud.normalize("NFKC", s)        # aliased module
    from unicodedata import normalize as n                    # the import itself ...
    n("NFKC", s);  map(n, ...)                                # ... and every use of the alias
    from unicodedata import *                                 # star import brings it in
    f = unicodedata.normalize                                 # referenced without a call
    getattr(ud, "normalize")                                  # getattr with a literal name
    x = ud;  x.normalize(...)                                 # simple re-binding of the module
    __import__("unicodedata").normalize / importlib.import_module("unicodedata").normalize
    sys.modules["unicodedata"].normalize

Name tracking is deliberately flow-insensitive: a name bound to ``unicodedata``
(or to its ``normalize``) anywhere in the file counts everywhere in the file.
That can over-report when a file re-uses the same name for something else,
which is the safe direction for this rule. A deliberate use (a benchmark timing
bare NFKC, say) is silenced with ``# noqa: SDM001`` on its line, as in flake8.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

__all__ = [
    "CODE",
    "PARSE_ERROR_CODE",
    "Violation",
    "check_source",
    "check_tree",
]

#: The rule's code, as printed and as selected in flake8 (``--select SDM``).
CODE = "SDM001"
#: Code of the diagnostic for a file that cannot be read or parsed (``sadame lint`` only;
#: flake8 reports those itself as E902/E999).
PARSE_ERROR_CODE = "SDM000"

_MODULE = "unicodedata"
_FUNCTION = "normalize"
_ADVICE = "use sadame.normalize(text, preset=...) instead"
_IMPORTERS = frozenset({"__import__", "import_module"})
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z0-9]+(?:[,\s]+[A-Za-z0-9]+)*))?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Violation:
    """One finding: where it is (``line`` and ``col`` are 1-based) and what it is."""

    path: str
    line: int
    col: int
    code: str
    message: str

    def format(self) -> str:
        """The one-line form ``path:line:col: CODE message`` (as flake8 and ruff print)."""
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "message": self.message,
        }


def _const_str(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class _Bindings(ast.NodeVisitor):
    """First pass: which names refer to the module and which to its ``normalize``."""

    def __init__(self) -> None:
        self.module_names: set[str] = set()
        self.function_names: set[str] = set()
        self.import_sites: list[tuple[ast.AST, str]] = []

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == _MODULE:
                self.module_names.add(alias.asname or alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module != _MODULE or node.level:
            return
        for alias in node.names:
            if alias.name == _FUNCTION:
                bound = alias.asname or alias.name
                self.function_names.add(bound)
                shown = _FUNCTION if bound == _FUNCTION else f"{_FUNCTION} as {bound}"
                self.import_sites.append((node, f"'from unicodedata import {shown}' outside the contract"))
            elif alias.name == "*":
                self.function_names.add(_FUNCTION)
                self.import_sites.append(
                    (node, "'from unicodedata import *' brings in unicodedata.normalize outside the contract")
                )


def _resolve_aliases(tree: ast.AST, bindings: _Bindings) -> None:
    """Follow simple re-bindings (``x = ud``, ``n = normalize_alias``) to a fixed point."""
    assigns = [node for node in ast.walk(tree) if isinstance(node, ast.Assign)]
    changed = True
    while changed:
        changed = False
        for node in assigns:
            if not isinstance(node.value, ast.Name):
                continue
            source = node.value.id
            for target in node.targets:
                if not isinstance(target, ast.Name):
                    continue
                if source in bindings.module_names and target.id not in bindings.module_names:
                    bindings.module_names.add(target.id)
                    changed = True
                if source in bindings.function_names and target.id not in bindings.function_names:
                    bindings.function_names.add(target.id)
                    changed = True


def _is_module_expr(node: ast.AST, module_names: set[str]) -> bool:
    """True when ``node`` evaluates to the ``unicodedata`` module."""
    if isinstance(node, ast.Name):
        return node.id in module_names
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in _IMPORTERS and _const_str(node.args[0]) == _MODULE
    if isinstance(node, ast.Subscript):
        # sys.modules["unicodedata"]
        value = node.value
        return (
            isinstance(value, ast.Attribute)
            and value.attr == "modules"
            and isinstance(value.value, ast.Name)
            and value.value.id == "sys"
            and _const_str(node.slice) == _MODULE
        )
    return False


class _Uses(ast.NodeVisitor):
    """Second pass: every expression that reaches ``unicodedata.normalize``."""

    def __init__(self, bindings: _Bindings) -> None:
        self.bindings = bindings
        self.found: list[tuple[ast.AST, str]] = []
        self._called: set[int] = set()

    def _report(self, node: ast.AST, what: str) -> None:
        verb = "called" if id(node) in self._called else "referenced"
        self.found.append((node, f"{what} {verb} outside the contract"))

    def visit_Call(self, node: ast.Call) -> None:
        self._called.add(id(node.func))
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id == "getattr"
            and len(node.args) >= 2
            and _is_module_expr(node.args[0], self.bindings.module_names)
            and _const_str(node.args[1]) == _FUNCTION
        ):
            self.found.append((node, "getattr(unicodedata, 'normalize') outside the contract"))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == _FUNCTION and _is_module_expr(node.value, self.bindings.module_names):
            self._report(node, "unicodedata.normalize")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self.bindings.function_names:
            self._report(node, f"{node.id!r} (unicodedata.normalize)")


def check_tree(tree: ast.AST, filename: str) -> list[Violation]:
    """SDM001 violations in an already-parsed module, sorted by position.

    This ignores the allowed-modules configuration: deciding whether ``filename``
    is exempt is the caller's job (:func:`sadame.lint.check_paths`, the flake8 plugin).
    """
    bindings = _Bindings()
    bindings.visit(tree)
    _resolve_aliases(tree, bindings)
    uses = _Uses(bindings)
    uses.visit(tree)
    found = [*bindings.import_sites, *uses.found]
    violations = {
        Violation(
            filename,
            getattr(node, "lineno", 1),
            getattr(node, "col_offset", 0) + 1,
            CODE,
            f"{what}; {_ADVICE}",
        )
        for node, what in found
    }
    return sorted(violations, key=lambda v: (v.line, v.col, v.message))


def check_source(source: str, filename: str) -> list[Violation]:
    """SDM001 violations in Python ``source`` (``filename`` is only used for reporting).

    A source that does not parse gives one ``SDM000`` violation saying why, never an
    exception: a linter that crashes on one bad file hides the findings in the others.

    >>> found = check_source("import unicodedata as ud\\nud.normalize('NFKC', s)\\n", "m.py")
    >>> [(v.line, v.col, v.code) for v in found]
    [(2, 1, 'SDM001')]
    """
    if not isinstance(source, str):
        raise TypeError(f"check_source expects the source as str, got {type(source).__name__}")
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset or 1
        return [Violation(filename, line, col, PARSE_ERROR_CODE, f"cannot check this file: {exc.msg}")]
    except ValueError as exc:  # e.g. source code string cannot contain null bytes
        return [Violation(filename, 1, 1, PARSE_ERROR_CODE, f"cannot check this file: {exc}")]
    lines = source.splitlines()
    return [v for v in check_tree(tree, filename) if not _suppressed(lines, v)]


def _suppressed(lines: list[str], violation: Violation) -> bool:
    """True when the violation's line carries ``# noqa`` or ``# noqa: ...SDM001...``
    (the same comment flake8 honours, so one marker serves both runners)."""
    if not 0 < violation.line <= len(lines):
        return False
    match = _NOQA.search(lines[violation.line - 1])
    if match is None:
        return False
    codes = match.group("codes")
    return codes is None or violation.code in {c.strip().upper() for c in re.split(r"[,\s]+", codes)}
