#!/usr/bin/env bash
# Installs what sadame needs on a fresh machine, idempotently.
#   scripts/bootstrap.sh run   -> Python venv with the package and every extra (sadame[all])
#   scripts/bootstrap.sh test  -> sadame[dev] (all extras, psycopg[binary], the tools), and the system pieces the test suite drives for real:
#                                 PostgreSQL server binaries, Chromium, Node.js, CJK fonts, wrk (benchmarks)
set -euo pipefail
mode="${1:-run}"
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

need_apt=()
if [ "$mode" = "test" ]; then
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
  command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
  command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
  fc-list 2>/dev/null | grep -qi "noto.*cjk" || need_apt+=(fonts-noto-cjk)
  command -v wrk >/dev/null 2>&1 || need_apt+=(wrk)  # the load generator of benchmarks/web.py --scaling
fi
python3 -m venv --help >/dev/null 2>&1 || need_apt+=(python3-venv)

if [ "${#need_apt[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "bootstrap: missing system packages: ${need_apt[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "bootstrap: installing ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# One stamp per mode; re-install when pyproject.toml changed since.
if [ "$mode" = "test" ]; then stamp=.venv/.sadame-dev; spec='.[dev]'; else stamp=.venv/.sadame-run; spec='.[all]'; fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e "$spec"
  touch "$stamp"
fi
