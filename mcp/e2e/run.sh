#!/usr/bin/env bash
# End-to-end test of `isolda mcp` with the official MCP Inspector CLI,
# pinned in package-lock.json: npm ci, then node's test runner on
# inspector.test.mjs against the binary built from this checkout (built
# once: every inspector call starts its own server). Needs node 20+ and
# the npm registry.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go -C "$repo" build -o "$tmp/isolda" ./cmd/isolda
ISOLDA="$tmp/isolda" ISOLDA_REPO="$repo" node --test --test-concurrency=1 inspector.test.mjs
