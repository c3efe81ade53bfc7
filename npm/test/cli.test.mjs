// The package against the CLI: for the example graphs and the test
// corpus, encode (several option sets), decode, convert and countTokens
// must give the CLI's bytes. The expected outputs are computed here by
// running the isolda CLI of this checkout ($ISOLDA, else built into a
// temporary folder with go build), never stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode, decode, countTokens, convert, init } from '../index.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let cli = process.env.ISOLDA;
let tmp;

before(async () => {
  if (!cli) {
    tmp = mkdtempSync(join(tmpdir(), 'isolda-npm-'));
    cli = join(tmp, 'isolda');
    execFileSync('go', ['build', '-o', cli, './cmd/isolda'], { cwd: repo, stdio: 'inherit' });
  }
  await init();
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// run runs the CLI with input on standard input.
function run(args, input) {
  const r = spawnSync(cli, args, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { ok: r.status === 0, out: r.stdout, err: r.stderr };
}

// runAsync runs the CLI with input on standard input, without blocking.
function runAsync(args, input) {
  return new Promise((resolve, reject) => {
    const p = spawn(cli, args);
    const out = [], err = [];
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => err.push(d));
    p.stdin.on('error', () => {}); // the CLI may exit before reading all
    p.on('error', reject);
    p.on('close', (code) => resolve({ ok: code === 0, out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8') }));
    p.stdin.end(input);
  });
}

// compareAll runs the CLI for every case, several at a time, then checks
// that each package call gives the same bytes, or fails where it fails.
// A case is {what, args, input, call}; it returns the number compared.
async function compareAll(cases) {
  const wants = new Array(cases.length);
  let next = 0;
  await Promise.all(Array.from({ length: 6 }, async () => {
    while (next < cases.length) {
      const i = next++;
      wants[i] = await runAsync(cases[i].args, cases[i].input);
    }
  }));
  let compared = 0;
  for (const [i, c] of cases.entries()) {
    if ((await same(c.what, () => wants[i], c.call)) !== null) compared++;
  }
  return compared;
}

// syntax is the -f of a test graph, by its extension.
const syntaxes = { '.ttl': 'ttl', '.trig': 'trig', '.nq': 'nq', '.nt': 'nt', '.html': 'html', '.owl': 'rdfxml', '.rdf': 'rdfxml', '.jsonld': 'jsonld' };

function graphs() {
  const out = [];
  for (const [dir, keep] of [['examples', (f) => f.endsWith('.ttl')], ['testdata/corpus', (f) => syntaxes[extname(f)]]]) {
    for (const f of readdirSync(join(repo, dir)).sort()) {
      if (keep(f)) out.push({ name: `${dir}/${f}`, format: syntaxes[extname(f)], text: readFileSync(join(repo, dir, f), 'utf8') });
    }
  }
  return out;
}

// The option sets: the CLI's flags and the same options as the package
// takes them (in camelCase, kebab-case and snake_case alike).
const optionSets = [
  [[], {}],
  [['--spec', '0.2'], { spec: '0.2' }],
  [['--spec', '0.3', '--glossary', 'none'], { spec: '0.3', glossary: 'none' }],
  [['--spec', '0.1'], { spec: '0.1' }],
  [['--layout', 'blocks', '--no-types', '--no-constants'], { layout: 'blocks', noTypes: true, 'no-constants': true }],
  [['--ids', 'slug', '--inline-bnodes', '--inverse-index', '--glossary', 'legend'], { ids: 'slug', inlineBnodes: true, inverse_index: true, glossary: 'legend' }],
  [['--layout', 'hybrid', '--theta', '0.6', '--continuation', '--datatype-prefixes', '--iri-ids'],
    { layout: 'hybrid', theta: 0.6, continuation: true, datatypePrefixes: true, iriIds: true }],
  [['--spec', '0.2', '--no-preferred-language', '--no-row-label-ids', '--no-term-aliases', '--no-vocab-prefix'],
    { spec: '0.2', noPreferredLanguage: true, noRowLabelIds: true, noTermAliases: true, noVocabPrefix: true }],
];

// same checks that the package gives the CLI's output, or fails where it fails.
async function same(what, cliRun, pkgCall) {
  const want = cliRun();
  let got, failure;
  try {
    got = await pkgCall();
  } catch (e) {
    failure = e;
  }
  if (!want.ok) {
    assert.ok(failure, `${what}: the CLI failed (${want.err.trim()}) but the package did not`);
    return null;
  }
  assert.ifError(failure);
  assert.ok(got === want.out, `${what}: the package's ${got.length} bytes differ from the CLI's ${want.out.length}`);
  return got;
}

test('encode gives the CLI bytes for every graph and option set', async () => {
  const cases = [];
  for (const [i, g] of graphs().entries()) {
    // The example graphs with every option set; the corpus graphs with
    // the defaults and three of the others, turn by turn.
    const sets = g.name.startsWith('examples/') ? optionSets
      : [optionSets[0], ...[1, 2, 3].map((k) => optionSets[1 + (i + k * 2) % (optionSets.length - 1)])];
    for (const [flags, options] of sets) {
      cases.push({ what: `encode ${g.name} ${flags.join(' ')}`, args: ['encode', '-f', g.format, ...flags, '-'], input: g.text,
        call: () => encode(g.text, { format: g.format, ...options }) });
    }
  }
  const demo = readFileSync(join(repo, 'examples/demo.ttl'), 'utf8');
  for (const hops of [0, 1, 2]) {
    cases.push({ what: `encode --anchor --hops ${hops}`, input: demo,
      args: ['encode', '-f', 'ttl', '--anchor', 'https://example.org/ada', '--hops', String(hops), '-'],
      call: () => encode(demo, { format: 'ttl', anchor: 'https://example.org/ada', hops }) });
  }
  const compared = await compareAll(cases);
  assert.ok(compared >= 150, `only ${compared} encodings compared`);
});

test('decode gives the CLI bytes', async () => {
  const cases = [];
  for (const [i, g] of graphs().entries()) {
    const spec = ['0.4', '0.2', '0.1'][i % 3];
    let doc;
    try {
      doc = await encode(g.text, { format: g.format, spec });
    } catch {
      continue;
    }
    for (const to of ['nquads', i % 2 ? 'turtle' : 'jsonld']) {
      cases.push({ what: `decode ${g.name} (spec ${spec}) -t ${to}`, args: ['decode', '-t', to, '-'], input: doc,
        call: () => decode(doc, { to }) });
    }
  }
  assert.ok(await compareAll(cases) >= 60);
});

test('convert gives the CLI bytes', async () => {
  const targets = ['ntriples', 'turtle', 'trig', 'jsonld-compact', 'rdfxml', 'b-ttl-ids', 'isolda-0.2', 'pretty_json'];
  const cases = [];
  for (const [i, g] of graphs().entries()) {
    // Every graph to two targets, the targets turn by turn.
    for (const to of [targets[i % targets.length], targets[(i + 3) % targets.length]]) {
      cases.push({ what: `convert ${g.name} -t ${to}`, args: ['convert', '-f', g.format, '-t', to, '-'], input: g.text,
        call: () => convert(g.text, { from: g.format, to }) });
    }
  }
  // From a lossless lab format back to RDF.
  const text = readFileSync(join(repo, 'examples/wikidata-L691820-lexeme.ttl'), 'utf8');
  const doc = await encode(text, { format: 'ttl' });
  cases.push({ what: 'convert -f isolda -t turtle', args: ['convert', '-f', 'isolda', '-t', 'turtle', '-'], input: doc,
    call: () => convert(doc, { from: 'isolda', to: 'turtle' }) });
  assert.ok(await compareAll(cases) >= 60);
});

test('countTokens gives the CLI count', async () => {
  const cases = [];
  for (const g of graphs()) {
    const doc = await encode(g.text, { format: g.format }).catch(() => g.text);
    for (const [text, tokenizer] of [[g.text, 'cl100k_base'], [doc, 'o200k_base']]) {
      cases.push({ what: `${g.name} ${tokenizer}`, args: ['tokens', '--tokenizer', tokenizer, '-'], input: text,
        call: async () => `${await countTokens(text, tokenizer)}\n` });
    }
  }
  const ada = 'Ada Lovelace wrote the first program.';
  cases.push({ what: 'a Uint8Array', args: ['tokens', '-'], input: ada, call: async () => `${await countTokens(new TextEncoder().encode(ada))}\n` });
  assert.ok(await compareAll(cases) >= 70);
});

test('a budget cuts the document within it, and the cut document decodes', async () => {
  for (const f of ['demo.ttl', 'lod-datagovuk-reference-intervals.ttl', 'wikidata-L691820-lexeme.ttl']) {
    const text = readFileSync(join(repo, 'examples', f), 'utf8');
    const full = await encode(text, { format: 'ttl' });
    const fullTokens = Number(run(['tokens', '-'], full).out.trim());
    for (const budget of [400, 800, 1500, fullTokens]) {
      const doc = await encode(text, { format: 'ttl', budget });
      const n = Number(run(['tokens', '-'], doc).out.trim());
      assert.ok(n <= budget, `${f} budget ${budget}: ${n} tokens`);
      if (budget >= fullTokens) {
        assert.equal(doc, full, `${f}: a budget the document fits leaves it whole`);
      } else {
        assert.ok(doc.length < full.length && full.startsWith(doc.split('\n')[0]), `${f} budget ${budget}: not a cut of the document`);
      }
      const dec = run(['decode', '-'], doc);
      assert.ok(dec.ok, `${f} budget ${budget}: the cut document does not decode: ${dec.err}`);
    }
  }
});

test('errors reject with the line and column the CLI names', async () => {
  const cases = [
    ['encode', ['encode', '-f', 'ttl', '-'], '@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:d ex:e .\n', (t) => encode(t, { format: 'ttl' })],
    ['encode nt', ['encode', '-f', 'nt', '-'], '<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> "x\n', (t) => encode(t, { format: 'nt' })],
    ['decode', ['decode', '-'], '@isolda 0.4\n\nPerson[2]{name\n', (t) => decode(t)],
    ['convert', ['convert', '-f', 'ttl', '-t', 'nquads', '-'], '<urn:a> <urn:b> .\n', (t) => convert(t, { from: 'ttl', to: 'nquads' })],
  ];
  for (const [what, args, text, call] of cases) {
    const want = run(args, text);
    assert.ok(!want.ok, `${what}: the CLI accepted the input`);
    const m = want.err.match(/:(\d+):(\d+):/);
    assert.ok(m, `${what}: no line:column in the CLI's error ${want.err}`);
    await assert.rejects(call(text), (e) => {
      assert.ok(e instanceof Error);
      assert.match(e.message, new RegExp(`:${m[1]}:${m[2]}:`), `${what}: ${e.message} vs the CLI's ${want.err}`);
      assert.equal(e.line, Number(m[1]));
      assert.equal(e.column, Number(m[2]));
      return true;
    });
  }
});

test('bad options and inputs reject with an Error, and the core keeps serving', async () => {
  await assert.rejects(encode('<urn:a> <urn:b> <urn:c> .', { bogus: true }), /unknown option bogus/);
  await assert.rejects(encode('<urn:a> <urn:b> <urn:c> .', { budget: 'ten' }), /budget: want an integer/);
  await assert.rejects(encode('<urn:a> <urn:b> <urn:c> .', { spec: '9.9' }), Error);
  await assert.rejects(countTokens('text', 'no-such-tokenizer'), /unknown tokenizer/);
  await assert.rejects(convert('<urn:a> <urn:b> <urn:c> .', {}), /to is required/);
  await assert.rejects(convert('<urn:a> <urn:b> <urn:c> .', { to: 'nope' }), /unknown format "nope"/);
  await assert.rejects(encode(42), TypeError);
  assert.equal(await convert('<urn:a> <urn:b> <urn:c> .', { from: 'nt', to: 'nt' }), '<urn:a> <urn:b> <urn:c> .\n');
});
