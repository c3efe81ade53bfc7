#!/usr/bin/env bash
# Tests of the Python package (python/): installs Debian's rdflib, setuptools,
# venv, pytest, pip and wheel when missing, makes a venv that sees them,
# installs the package (which builds the Go core with go build
# -buildmode=c-shared) and runs pytest, whose oracle is the isolda CLI built
# from the same checkout. Exits non-zero on any failure, and when pytest
# collects no test (exit 5).
set -euo pipefail
cd "$(dirname "$0")"
echo "== the Python package (python/ci.sh)"
PY=/usr/bin/python3
if ! "$PY" -c 'import rdflib, setuptools, pytest, wheel, venv, pip' 2>/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-rdflib python3-setuptools python3-venv python3-pytest python3-pip python3-wheel >/dev/null
fi
VENV="${ISOLDA_PY_VENV:-${TMPDIR:-/tmp}/isolda-py-venv}"
rm -rf "$VENV"
"$PY" -m venv --system-site-packages "$VENV"
"$VENV/bin/pip" install -q --no-build-isolation --no-index .
"$VENV/bin/python" -c 'import isolda; print("isolda", isolda.__version__, "from", isolda.__file__)'
status=0
(cd tests && "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$@") || status=$?
if [ "$status" -eq 5 ]; then
  echo "python/ci.sh: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
