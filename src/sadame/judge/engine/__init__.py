"""The judge's engine room: rule tables and packs (model, loader, schema), the compiled
matcher, natural mode, the answer checker and the errors.

Its public names are exported once, by :mod:`sadame.judge`; the modules here are private.
"""

from __future__ import annotations

__all__: list[str] = []
