#!/usr/bin/env bash
# A newcomer's first hour, scripted: clone the repository (the committed
# HEAD) into a fresh folder with no ../shared beside it, build the binary as
# README.md says, and run every command of the README's example sessions,
# comparing each output with the README's (scripts/newcomer/main.go says
# which blocks are sessions and which differences are allowed: "..." lines
# and timings in ms).
#
#   scripts/newcomer.sh           # exit 0 when every output is as the README shows
#   scripts/newcomer.sh --print   # print the actual outputs, to update the README
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/isolda-newcomer.XXXXXX")"
trap 'rm -rf "$work"' EXIT

git clone -q "$repo" "$work/isolda"
cd "$work/isolda"
for d in . .. ../..; do
  if [ -d "$d/shared/conformance" ]; then
    echo "newcomer: a shared folder is visible from $work/isolda ($d/shared); use a TMPDIR outside it" >&2
    exit 2
  fi
done

# The README's set-up: build the binary into bin/ (ignored by git).
go build -o bin/isolda ./cmd/isolda
export PATH="$PWD/bin:$PATH"
isolda --version

go build -o "$work/newcomer" ./scripts/newcomer
if [ "${1:-}" = "--print" ]; then
  "$work/newcomer" -print README.md
else
  "$work/newcomer" README.md
fi
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "newcomer: the walk-through changed tracked files:" >&2
  git status --short --untracked-files=no >&2
  exit 1
fi
