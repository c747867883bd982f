"""``python -m sadame``: the same command line as ``sadame`` (for environments without the script)."""

from __future__ import annotations

from sadame.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    main()
