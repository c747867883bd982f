"""Rewrite the table of SADAME_* variables in docs/guide/web.md from sadame.web._env.EnvSettings.

    .venv/bin/python scripts/env_table.py          # tests/web/test_env.py fails until this is run
"""

from __future__ import annotations

from pathlib import Path

from sadame.web._env import env_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "guide" / "web.md"
START, END = "<!-- env-table:start (scripts/env_table.py) -->", "<!-- env-table:end -->"


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{env_table()}{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
