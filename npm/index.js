// isolda: the Go core of isolda compiled to WebAssembly (GOOS=js
// GOARCH=wasm), loaded once on the first call. Every function returns a
// promise; a bad input rejects it with an Error whose message names the
// line and column (and whose line, column and file properties hold them).
import './wasm_exec.js';

let core;

function isNode() {
  return typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
}

async function instantiate(go) {
  const url = new URL('./isolda.wasm', import.meta.url);
  if (isNode() && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return (await WebAssembly.instantiate(await readFile(url), go.importObject)).instance;
  }
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`isolda: cannot load ${url}: HTTP ${response.status}`);
  }
  if (typeof WebAssembly.instantiateStreaming === 'function' &&
      (response.headers.get('content-type') ?? '').startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, go.importObject)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject)).instance;
}

function load() {
  core ??= (async () => {
    const go = new globalThis.Go();
    const instance = await instantiate(go);
    // Runs main until it waits for calls, having set globalThis.__isolda;
    // the promise of run settles only if the Go program ends.
    go.run(instance);
    const api = globalThis.__isolda;
    if (!api) {
      throw new Error('isolda: the WebAssembly core did not start');
    }
    return api;
  })();
  return core;
}

async function call(op, input, options) {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
    throw new TypeError(`isolda: ${op}: the input must be a string or a Uint8Array`);
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`isolda: ${op}: the options must be an object`);
  }
  const api = await load();
  const r = api[op](input, JSON.stringify(options ?? {}));
  if (r.error !== undefined) {
    const err = new Error(r.error);
    if (r.line > 0) {
      err.file = r.file;
      err.line = r.line;
      err.column = r.column;
    }
    throw err;
  }
  return op === 'countTokens' ? r.count : r.text;
}

/** Writes an RDF graph as an ISOLDA document; see index.d.ts. */
export function encode(text, options) {
  return call('encode', text, options);
}

/** Rebuilds the dataset of an ISOLDA document in an RDF syntax; see index.d.ts. */
export function decode(text, options) {
  return call('decode', text, options);
}

/** Counts the tokens of a text; see index.d.ts. */
export function countTokens(text, tokenizer) {
  return call('countTokens', text, tokenizer === undefined ? {} : { tokenizer });
}

/** Converts RDF between syntaxes, or to any format of the lab registry; see index.d.ts. */
export function convert(text, options) {
  return call('convert', text, options);
}

/** Loads the WebAssembly core now instead of on the first call. */
export async function init() {
  await load();
}
