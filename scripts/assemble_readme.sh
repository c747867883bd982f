#!/usr/bin/env bash
# Maintainer helper: README.md is assembled from the per-feature sections in docs/guide/.
set -euo pipefail
cd "$(dirname "$0")/.."
parts=(_head normalize review numeric judge puzzles puzzles-classic quote track llm web lint performance _tail)
{
  for p in "${parts[@]}"; do
    f="docs/guide/$p.md"
    [ -f "$f" ] || continue
    cat "$f"
    echo
  done
} > README.md
