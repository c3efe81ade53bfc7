// Benchmarks encode in Node (this package) against the CLI: the three
// example graphs and a synthetic graph of 100,000 triples (isolda synth
// --triples 100000 --seed 1). For each graph it prints the median of RUNS
// runs (default 5, env RUNS) of:
//   node warm: one encode call in this process, the core loaded and warm;
//   node cold: a new node process that imports the package and encodes
//              the file once (loading the 24 MB .wasm included);
//   cli:       a new isolda encode process on the file (whole process).
// Usage: ISOLDA=/path/to/isolda node bench.mjs  (npm run bench)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode, init } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const cli = process.env.ISOLDA;
if (!cli) {
  console.error('set ISOLDA to an isolda binary (go build -o /tmp/isolda ./cmd/isolda)');
  process.exit(2);
}
const runs = Number(process.env.RUNS ?? 5);
const tmp = mkdtempSync(join(tmpdir(), 'isolda-bench-'));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function wall(cmd, args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return s;
}

const synth = join(tmp, 'synth-100k.nt');
writeFileSync(synth, spawnSync(cli, ['synth', '--triples', '100000', '--seed', '1'], { maxBuffer: 1 << 30 }).stdout);

const graphs = [
  ['examples/demo.ttl', join(repo, 'examples/demo.ttl'), 'ttl'],
  ['examples/lod-datagovuk-reference-intervals.ttl', join(repo, 'examples/lod-datagovuk-reference-intervals.ttl'), 'ttl'],
  ['examples/wikidata-L691820-lexeme.ttl', join(repo, 'examples/wikidata-L691820-lexeme.ttl'), 'ttl'],
  ['synth 100,000 triples (seed 1)', synth, 'nt'],
];

let t = process.hrtime.bigint();
await init();
const initS = Number(process.hrtime.bigint() - t) / 1e9;
console.log(`node ${process.version}; core load (compile + start of isolda.wasm): ${initS.toFixed(3)} s; ${runs} runs each, medians`);
console.log('| graph | bytes | node warm (s) | node cold (s) | cli (s) | same bytes |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
const indexURL = new URL('./index.js', import.meta.url).href;
for (const [name, file, format] of graphs) {
  const text = readFileSync(file, 'utf8');
  await encode(text, { format }); // warm-up
  const warm = [], cold = [], cliT = [];
  let out;
  for (let i = 0; i < runs; i++) {
    t = process.hrtime.bigint();
    out = await encode(text, { format });
    warm.push(Number(process.hrtime.bigint() - t) / 1e9);
    cold.push(wall(process.execPath, ['--input-type=module', '-e',
      `import { encode } from ${JSON.stringify(indexURL)}; import { readFileSync } from 'node:fs'; ` +
      `process.stdout.write(await encode(readFileSync(${JSON.stringify(file)}, 'utf8'), { format: '${format}' }));`]));
    cliT.push(wall(cli, ['encode', '-f', format, file]));
  }
  const want = spawnSync(cli, ['encode', '-f', format, '-'], { input: text, maxBuffer: 1 << 30, encoding: 'utf8' }).stdout;
  console.log(`| ${name} | ${text.length} | ${median(warm).toFixed(3)} | ${median(cold).toFixed(3)} | ${median(cliT).toFixed(3)} | ${out === want ? 'yes' : 'NO'} |`);
}
rmSync(tmp, { recursive: true, force: true });
