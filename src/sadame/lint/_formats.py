"""The lint report in the formats code-review tools read: SARIF 2.1.0 and GitHub annotations.

SARIF is what code scanning uploads (``github/codeql-action/upload-sarif``); a GitHub workflow
command (``::error file=...,line=...::message``) puts the finding on the pull request's diff.

>>> from sadame.lint import Violation
>>> print(github_annotations([Violation("a.py", 3, 1, "SDM001", "x, y")]))
::error file=a.py,line=3,col=1,title=SDM001::x, y
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from sadame import __version__
from sadame.lint._checker import CODE, PARSE_ERROR_CODE, Violation

__all__ = ["FORMATS", "github_annotations", "sarif_report"]

#: The output formats of ``sadame lint --format``.
FORMATS = ("text", "json", "sarif", "github")

_RULES = {
    CODE: ("normalize-outside-contract",
           "unicodedata.normalize called outside the modules allowed to normalize; "
           "use sadame.normalize(text, preset=...)"),
    PARSE_ERROR_CODE: ("unparsable-file", "the file does not parse, so it could not be checked"),
}


def sarif_report(violations: Sequence[Violation]) -> dict[str, object]:
    """A SARIF 2.1.0 log with one run of ``sadame lint`` and one result per violation."""
    rules = [
        {"id": code, "name": name, "shortDescription": {"text": text}, "defaultConfiguration": {"level": "error"}}
        for code, (name, text) in _RULES.items()
    ]
    results = [
        {
            "ruleId": v.code,
            "ruleIndex": list(_RULES).index(v.code) if v.code in _RULES else 0,
            "level": "error",
            "message": {"text": v.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": PurePath(v.path).as_posix()},
                "region": {"startLine": v.line, "startColumn": v.col},
            }}],
        }
        for v in violations
    ]
    driver = {"name": "sadame lint", "version": __version__, "rules": rules}
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


def _escape(text: str, *, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def github_annotations(violations: Sequence[Violation]) -> str:
    """One GitHub Actions ``::error`` workflow command per violation (escaped as GitHub requires)."""
    return "\n".join(
        f"::error file={_escape(PurePath(v.path).as_posix(), property_value=True)},line={v.line},"
        f"col={v.col},title={v.code}::{_escape(v.message)}"
        for v in violations
    )
