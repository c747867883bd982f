"""A behavioural fingerprint of the contract.

Two processes that print the same fingerprint normalize every probe string the
same way with every preset, on the same Unicode data version. The probe corpus is
a data file shipped with the package (``probe.txt``, one string per line, with
``\\uXXXX`` escapes for invisible characters).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from sadame.normalize._core import normalize
from sadame.normalize._presets import CONTRACT_VERSION, PRESETS

__all__ = ["CONTRACT_VERSION", "ContractInfo", "contract_info", "fingerprint", "probe_corpus"]



@dataclass(frozen=True, slots=True)
class ContractInfo:
    contract_version: str
    unidata_version: str
    probe_count: int
    presets: dict[str, str]
    fingerprint: str

    def to_dict(self) -> dict[str, object]:
        return {
            "contract_version": self.contract_version,
            "unidata_version": self.unidata_version,
            "probe_count": self.probe_count,
            "presets": dict(self.presets),
            "fingerprint": self.fingerprint,
        }


@lru_cache(maxsize=1)
def probe_corpus() -> tuple[str, ...]:
    """The built-in probe strings (escapes decoded)."""
    raw = resources.files("sadame.normalize").joinpath("probe.txt").read_text(encoding="utf-8")
    lines = [line for line in raw.split("\n") if line and not line.startswith("#")]
    return tuple(json.loads('"' + line.replace('"', '\\"') + '"') for line in lines)


@lru_cache(maxsize=1)
def contract_info() -> ContractInfo:
    corpus = probe_corpus()
    per_preset: dict[str, str] = {}
    whole = hashlib.sha256()
    whole.update(f"unicode={unicodedata.unidata_version}\n".encode())
    for name in sorted(PRESETS):
        digest = hashlib.sha256()
        for probe in corpus:
            digest.update(normalize(probe, preset=name).encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        per_preset[name] = digest.hexdigest()[:16]
        whole.update(f"{name}={digest.hexdigest()}\n".encode())
    return ContractInfo(
        contract_version=CONTRACT_VERSION,
        unidata_version=unicodedata.unidata_version,
        probe_count=len(corpus),
        presets=per_preset,
        fingerprint=f"nc{CONTRACT_VERSION}-{whole.hexdigest()[:24]}",
    )


def fingerprint() -> str:
    """The contract fingerprint, e.g. ``nc1-1f2e...``: equal fingerprints mean
    identical normalization on the probe corpus and the same Unicode data."""
    return contract_info().fingerprint


def _write_golden(path: str) -> None:
    """Maintainers' helper: write the fingerprint golden file (after a deliberate bump)."""
    info = contract_info().to_dict()
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(info, handle, ensure_ascii=False, indent=2)
        handle.write("\n")


if __name__ == "__main__":  # pragma: no cover - maintainer tool
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--write-golden":
        _write_golden(sys.argv[2])
    else:
        print(fingerprint())
