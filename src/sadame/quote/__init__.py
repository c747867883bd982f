"""Quote verification and number grounding: check what an LLM cites against its source.

>>> from sadame.quote import verify_quote
>>> verify_quote("安定性: 不足", "- **安定性**: 不足している").status
'normalized'
"""

from __future__ import annotations

from sadame.quote._check import (
    CHECK_MAX_SPANS,
    MAX_HINTS,
    CheckedQuote,
    CheckResult,
    Segment,
    check_output,
)
from sadame.quote._errors import EvalFileError, GateInputError, QuoteError
from sadame.quote._eval import CaseResult, EvalCase, EvalItem, EvalReport, load_cases, run_case, run_eval
from sadame.quote._extract import MAX_QUOTES, ExtractedQuote, QuoteOrigin, extract_quotes
from sadame.quote._gates import (
    Gate,
    GateItem,
    GateKind,
    GateReport,
    GateSummary,
    claims_gate,
    evidence_spans_gate,
    extract_path,
    quote_list_gate,
)
from sadame.quote._ground import (
    GROUNDING_FLAGS,
    MAX_CLAIM_NUMBERS,
    MAX_MENTIONS,
    MAX_NUMBER_SPANS,
    NUMERIC_KINDS,
    ClaimResult,
    ClaimStatus,
    GroundedNumber,
    NumberCategory,
    NumberIndex,
    NumberMention,
    ground_claims,
    ground_numbers,
    numeric_mentions,
)
from sadame.quote._hint import NearestPassage, nearest_passage
from sadame.quote._verify import (
    ALIGN_BUDGET,
    DEFAULT_MAX_SPANS,
    ELLIPSIS_MARKERS,
    MAX_PARTS,
    VERIFIED_STATUSES,
    QuotePart,
    QuoteResult,
    QuoteStatus,
    QuoteVerifier,
    Span,
    split_ellipsis,
    verify_quote,
    verify_quotes,
)

__all__ = [
    "ALIGN_BUDGET",
    "CHECK_MAX_SPANS",
    "DEFAULT_MAX_SPANS",
    "ELLIPSIS_MARKERS",
    "GROUNDING_FLAGS",
    "MAX_CLAIM_NUMBERS",
    "MAX_HINTS",
    "MAX_MENTIONS",
    "MAX_NUMBER_SPANS",
    "MAX_PARTS",
    "MAX_QUOTES",
    "NUMERIC_KINDS",
    "VERIFIED_STATUSES",
    "CaseResult",
    "CheckResult",
    "CheckedQuote",
    "ClaimResult",
    "ClaimStatus",
    "EvalCase",
    "EvalFileError",
    "EvalItem",
    "EvalReport",
    "ExtractedQuote",
    "Gate",
    "GateInputError",
    "GateItem",
    "GateKind",
    "GateReport",
    "GateSummary",
    "GroundedNumber",
    "NearestPassage",
    "NumberCategory",
    "NumberIndex",
    "NumberMention",
    "QuoteError",
    "QuoteOrigin",
    "QuotePart",
    "QuoteResult",
    "QuoteStatus",
    "QuoteVerifier",
    "Segment",
    "Span",
    "check_output",
    "claims_gate",
    "evidence_spans_gate",
    "extract_path",
    "extract_quotes",
    "ground_claims",
    "ground_numbers",
    "load_cases",
    "nearest_passage",
    "numeric_mentions",
    "quote_list_gate",
    "run_case",
    "run_eval",
    "split_ellipsis",
    "verify_quote",
    "verify_quotes",
]
