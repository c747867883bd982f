"""Quote verification and number grounding: check what an LLM cites against its source.

>>> from sadame.quote import verify_quote
>>> verify_quote("安定性: 不足", "- **安定性**: 不足している").status
'normalized'
"""

from __future__ import annotations

from sadame.quote._check import CheckResult, check_output
from sadame.quote._errors import QuoteError
from sadame.quote._eval import run_eval
from sadame.quote._gates import GateReport, claims_gate, evidence_spans_gate, quote_list_gate
from sadame.quote._ground import ClaimResult, ground_numbers
from sadame.quote._verify import QuoteResult, QuoteVerifier, verify_quote, verify_quotes

__all__ = [
    "CheckResult",
    "ClaimResult",
    "GateReport",
    "QuoteError",
    "QuoteResult",
    "QuoteVerifier",
    "check_output",
    "claims_gate",
    "evidence_spans_gate",
    "ground_numbers",
    "quote_list_gate",
    "run_eval",
    "verify_quote",
    "verify_quotes",
]
