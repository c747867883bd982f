"""Exceptions of sadame.quote.

::

    ValueError
     └── QuoteError              anything sadame.quote rejects
          ├── GateInputError     a gate's document cannot be read (bad JSON, bad path)
          └── EvalFileError      an evaluation JSONL file is malformed (line number in the message)

Bad *quotes* are never exceptions: they come back as results with status
``invalid`` and a reason, so every input quote appears in the output.
"""

from __future__ import annotations

from sadame._errors import SadameError

__all__ = ["EvalFileError", "GateInputError", "QuoteError"]


class QuoteError(SadameError, ValueError):
    """Base class of the errors raised by sadame.quote."""


class GateInputError(QuoteError):
    """A gate was given a document it cannot read (invalid JSON, malformed path)."""


class EvalFileError(QuoteError):
    """An evaluation file is malformed; the message names the file and line."""
