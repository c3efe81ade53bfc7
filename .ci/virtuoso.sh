#!/usr/bin/env bash
# Installs Debian's virtuoso-opensource (7.2.x) non-interactively, for the
# SPARQL integration test in sparql/virtuoso_test.go. Idempotent and quiet:
# does nothing when virtuoso-t is already on PATH.
#
# The test starts its own virtuoso-t in a temporary directory on free
# loopback ports; the Debian service is neither needed nor started. A
# policy-rc.d that forbids service starts is put in place for the duration of
# the install when the system has none (Docker images usually have one), and
# the debconf DBA password is preseeded with a random value so the package's
# postinst never prompts.
set -euo pipefail

if command -v virtuoso-t >/dev/null 2>&1; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "virtuoso.sh: must run as root to install virtuoso-opensource" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive

pw="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
debconf-set-selections <<EOF
virtuoso-opensource-7 virtuoso-opensource-7/dba-password password $pw
virtuoso-opensource-7 virtuoso-opensource-7/dba-password-again password $pw
EOF

policy=/usr/sbin/policy-rc.d
made_policy=
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  made_policy=1
fi
cleanup() {
  if [ -n "$made_policy" ]; then rm -f "$policy"; fi
}
trap cleanup EXIT

log="$(mktemp)"
trap 'cleanup; rm -f "$log"' EXIT
if ! apt-cache show virtuoso-opensource >/dev/null 2>&1; then
  apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
fi
if ! apt-get install -y -qq --no-install-recommends virtuoso-opensource >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi

command -v virtuoso-t >/dev/null && command -v isql-vt >/dev/null
