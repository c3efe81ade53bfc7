// End-to-end test of `isolda mcp` with the official MCP Inspector CLI
// (@modelcontextprotocol/inspector-cli, pinned in package-lock.json), over
// stdio and the streamable HTTP transport. The answers are compared with
// the CLI's own (isolda encode, decode, chunk) for the same inputs.
// Run by run.sh, which builds the binary and sets ISOLDA and ISOLDA_REPO.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { tmpdir } from "node:os";
import { mkdtemp, rm, writeFile } from "node:fs/promises";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const isolda = process.env.ISOLDA;
const repo = process.env.ISOLDA_REPO;
assert.ok(isolda && repo, "set ISOLDA (the binary) and ISOLDA_REPO (run run.sh)");
// inspector-cli 1.0.3 looks for its package.json relative to the working
// directory, not to its module: run it from its build folder.
const cliDir = path.join(here, "node_modules/@modelcontextprotocol/inspector-cli/build");

// inspect runs the inspector against target and returns its JSON answer.
async function inspect(target, ...args) {
  const { stdout } = await run(process.execPath, ["index.js", ...target, ...args], {
    cwd: cliDir, timeout: 120_000, maxBuffer: 16 << 20,
  });
  return JSON.parse(stdout);
}

// cli runs the isolda CLI in the repository and returns its standard output.
async function cli(...args) {
  const { stdout } = await run(isolda, args, { cwd: repo, timeout: 120_000, maxBuffer: 16 << 20 });
  return stdout;
}

const stdio = [isolda, "mcp", "--root", repo];
const call = (target, tool, ...args) =>
  inspect(target, "--method", "tools/call", "--tool-name", tool, ...args.flatMap((a) => ["--tool-arg", a]));
const textOf = (res) => {
  assert.equal(res.content.length, 1);
  assert.equal(res.content[0].type, "text");
  return res.content[0].text;
};

test("tools/list names the six tools with schemas", async () => {
  const { tools } = await inspect(stdio, "--method", "tools/list");
  assert.deepEqual(tools.map((t) => t.name).sort(),
    ["chunk", "compare_formats", "count_tokens", "decode", "describe", "encode"]);
  for (const t of tools) {
    assert.ok(t.description.length > 40, t.name);
    assert.equal(t.inputSchema.type, "object", t.name);
    for (const [name, p] of Object.entries(t.inputSchema.properties)) assert.ok(p.description, `${t.name}.${name}`);
    assert.ok(t.outputSchema, t.name);
  }
});

test("encode, decode and chunk give the CLI's bytes", async () => {
  const want = await cli("encode", "examples/demo.ttl");
  const enc = await call(stdio, "encode", "path=examples/demo.ttl");
  assert.equal(textOf(enc), want);
  assert.equal(enc.structuredContent.quads, 28);
  assert.equal(enc.structuredContent.lossless, true);

  const dir = await mkdtemp(path.join(tmpdir(), "isolda-mcp-"));
  const doc = path.join(dir, "demo.isolda");
  await writeFile(doc, want);
  for (const to of ["nquads", "turtle"]) {
    const dec = await call(stdio, "decode", `text=${want}`, `to=${to}`);
    assert.equal(dec.structuredContent.quads, 28);
    assert.equal(textOf(dec), await cli("decode", doc, "-t", to));
  }
  await rm(dir, { recursive: true });

  assert.equal(textOf(await call(stdio, "chunk", "path=examples/demo.ttl")), await cli("chunk", "examples/demo.ttl"));
});

test("count_tokens: the first word is the count", async () => {
  const res = await call(stdio, "count_tokens", "text=hello world");
  assert.match(textOf(res), /^2 tokens/);
  assert.equal(res.structuredContent.tokens, 2);
});

test("compare_formats ranks the formats lossless for RDF", async () => {
  const res = await call(stdio, "compare_formats", "path=examples/demo.ttl");
  const f = res.structuredContent.formats;
  assert.ok(f.length >= 10);
  for (let i = 1; i < f.length; i++) assert.ok(f[i - 1].tokens <= f[i].tokens);
  assert.ok(f.some((r) => r.format === "isolda"));
  assert.ok(!f.some((r) => r.format === "csv"));
});

test("a bad graph is a tool error with its position; a path outside the root is refused", async () => {
  const bad = await call(stdio, "encode", "data=<http://a> <http://b> .");
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /^data:1:23: /);
  const out = await call(stdio, "encode", "path=../../../etc/passwd");
  assert.equal(out.isError, true);
  assert.match(textOf(out), /outside the root/);
});

// The streamable HTTP transport: the server on a free loopback port.
let server, url;
before(async () => {
  server = spawn(isolda, ["mcp", "--http", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
  url = await new Promise((resolve, reject) => {
    let err = "";
    server.stderr.on("data", (b) => {
      err += b;
      const m = err.match(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`isolda mcp --http exited ${code}: ${err}`)));
  });
});
after(() => server?.kill());

test("streamable HTTP: list and call", async () => {
  const { tools } = await inspect([url], "--method", "tools/list");
  assert.equal(tools.length, 6);
  const res = await call([url], "encode", "data=<http://example.org/a> <http://schema.org/name> \"A\" .", "to=ntriples");
  assert.equal(textOf(res), "<http://example.org/a> <http://schema.org/name> \"A\" .\n");
  const bad = await call([url], "decode", "text=not ISOLDA");
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /^text:1:/);
});
