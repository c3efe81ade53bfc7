// Builds the package's WebAssembly: the Go command ../cmd/isolda-wasm
// compiled with GOOS=js GOARCH=wasm into isolda.wasm, and Go's own
// wasm_exec.js (the glue of that toolchain's version) copied beside it.
// Neither is committed: both come from the Go toolchain on the PATH.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
const glue = [join(goroot, 'lib', 'wasm', 'wasm_exec.js'), join(goroot, 'misc', 'wasm', 'wasm_exec.js')].find(existsSync);
if (!glue) {
  throw new Error(`wasm_exec.js not found in ${goroot}/lib/wasm nor ${goroot}/misc/wasm`);
}
execFileSync('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', join(here, 'isolda.wasm'), './cmd/isolda-wasm'], {
  cwd: repo,
  stdio: 'inherit',
  env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
});
copyFileSync(glue, join(here, 'wasm_exec.js'));
console.log(`isolda.wasm: ${statSync(join(here, 'isolda.wasm')).size} bytes; wasm_exec.js from ${glue}`);
