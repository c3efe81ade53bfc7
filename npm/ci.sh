#!/usr/bin/env bash
# The npm package end to end: npm ci (typescript, pinned in
# package-lock.json), npm run build (the Go core compiled to
# GOOS=js GOARCH=wasm, Go's wasm_exec.js copied, the .d.ts checked by
# tsc), the size budget (≤ 8 MB gzipped), npm test (node's test runner
# against the CLI built once here), and npm pack with a check of what the
# tarball holds. Needs Go, node 20+ and the npm registry.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$here"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node -e 'const [major] = process.versions.node.split(".").map(Number); if (major < 20) { console.error(`node ${process.versions.node}: need 20+`); process.exit(1); }'
npm ci --no-audit --no-fund --loglevel=error
npm run build

gz=$(gzip -9 -c isolda.wasm | wc -c)
echo "isolda.wasm: $(wc -c <isolda.wasm) bytes, $gz gzipped (budget 8 MB = 8388608)"
if [ "$gz" -gt 8388608 ]; then
  echo "isolda.wasm is over the size budget" >&2
  exit 1
fi

go -C "$repo" build -o "$tmp/isolda" ./cmd/isolda
ISOLDA="$tmp/isolda" npm test

npm pack --pack-destination "$tmp" --loglevel=error >/dev/null
tarball=$(ls "$tmp"/isolda-*.tgz)
tar -tzf "$tarball" | sort >"$tmp/contents"
for f in package/package.json package/index.js package/index.d.ts package/isolda.wasm package/wasm_exec.js package/README.md; do
  grep -qx "$f" "$tmp/contents" || { echo "npm pack: $f missing from $(basename "$tarball")" >&2; cat "$tmp/contents" >&2; exit 1; }
done
# The tarball installs and runs outside the repository.
mkdir "$tmp/app"
(cd "$tmp/app" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$tarball" &&
  node --input-type=module -e '
import { encode, countTokens } from "isolda";
const doc = await encode("<https://example.org/a> <http://schema.org/name> \"A\" .", { format: "nt" });
const n = await countTokens(doc);
if (!doc.includes("A") || !(n > 0)) { console.error("the installed package failed"); process.exit(1); }
console.log(`installed tarball: encode gave ${n} tokens`);
')
echo "npm pack: $(basename "$tarball") holds $(wc -l <"$tmp/contents") files, $(wc -c <"$tarball") bytes"
