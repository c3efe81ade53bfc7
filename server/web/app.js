// The isolda playground: vanilla JS, no dependencies, served with a strict
// Content-Security-Policy (this script runs by its hash; it only talks to
// the server that served it).
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("config").textContent);
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const DEFAULT_FORMATS = ["isolda", "turtle", "ntriples", "jsonld-compact", "jsonld"];
  let formatInfo = [];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function setStatus(msg, isError) {
    $("status").textContent = msg;
    $("status").className = isError ? "error" : "";
  }

  const isISOLDA = (name) => name === "isolda" || name.startsWith("isolda-");
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

  // describeError turns an API error body into a message with the position.
  function describeError(body, status) {
    let msg = (body && body.error) || ("HTTP " + status);
    if (body && body.line) msg += " (line " + body.line + (body.column ? ", column " + body.column : "") + ")";
    return msg;
  }

  // postJSON posts payload; a failure throws an Error whose graph property
  // says the graph itself could not be read (the same for every format).
  async function postJSON(path, payload) {
    const resp = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    let body = null;
    try { body = await resp.json(); } catch (e) { body = null; }
    if (!resp.ok) {
      const err = new Error(describeError(body, resp.status));
      err.graph = !!(body && typeof body.error === "string" && body.error.startsWith("graph"));
      throw err;
    }
    return body;
  }

  // formatGroup renders one group of format check boxes, sorted by name,
  // with buttons to tick all or none.
  function formatGroup(title, hint, list, wanted) {
    const box = el("div", { class: "choices" });
    for (const f of list.slice().sort(byName)) {
      const cb = el("input", { type: "checkbox", value: f.name, name: "format" });
      cb.checked = wanted.includes(f.name);
      let note = f.family;
      if (f.loses) note += f.lossless ? " · lossless on what it keeps; loses " + f.loses : " · loses " + f.loses;
      box.append(el("label", { title: f.name + ": " + note }, cb,
        el("span", {}, el("span", { class: "name" }, f.name), " ", el("span", { class: "note" }, f.family))));
    }
    const tick = (on) => () => { for (const cb of box.querySelectorAll("input")) cb.checked = on; };
    const all = el("button", { type: "button", class: "link" }, "all");
    const none = el("button", { type: "button", class: "link" }, "none");
    all.addEventListener("click", tick(true));
    none.addEventListener("click", tick(false));
    const legend = el("legend", {}, title + " (" + list.length + ")");
    return el("fieldset", { class: "format-group" }, legend, el("div", { class: "group-head" }, el("span", {}, hint), all, none), box);
  }

  async function loadFormats() {
    const resp = await fetch("/v1/formats");
    if (!resp.ok) throw new Error("cannot list the formats: HTTP " + resp.status);
    formatInfo = (await resp.json()).formats;
    const names = formatInfo.map((f) => f.name);
    let wanted = DEFAULT_FORMATS.filter((n) => names.includes(n));
    if (wanted.length === 0) wanted = names.slice(0, 4);
    $("format-groups").replaceChildren(
      formatGroup("Lossless", "decode back to the same graph", formatInfo.filter((f) => f.lossless), wanted),
      formatGroup("Lossy", "drop information: for reading, not for round trips", formatInfo.filter((f) => !f.lossless), wanted));
  }

  function loadTokenizers() {
    const sel = $("tokenizer");
    for (const name of config.tokenizers) {
      const opt = el("option", { value: name }, name);
      if (name === config.defaultTokenizer) opt.selected = true;
      sel.append(opt);
    }
  }

  function loadExamples() {
    const examples = config.examples || [];
    if (examples.length === 0) return;
    for (const ex of examples) $("example").append(el("option", { value: ex.name }, ex.name + " (" + ex.text.length + " bytes)"));
    $("examples-row").hidden = false;
    $("load-example").addEventListener("click", () => {
      const ex = examples.find((x) => x.name === $("example").value);
      if (!ex) return;
      if (config.sparql) { $("source-text").checked = true; $("source-text").dispatchEvent(new Event("change")); }
      $("graph").value = ex.text;
      $("syntax").value = ex.syntax;
      setStatus("loaded the example " + ex.name);
    });
  }

  const EXTENSIONS = { nt: "nt", nq: "nq", ttl: "ttl", turtle: "ttl", trig: "trig", rdf: "rdfxml", owl: "rdfxml",
    xml: "rdfxml", jsonld: "jsonld", json: "jsonld", html: "html", htm: "html" };

  async function upload(ev) {
    const file = ev.target.files[0];
    if (!file) return;
    if (file.size > config.maxRequestBytes) {
      setStatus(file.name + " is larger than the server's limit of " + config.maxRequestBytes + " bytes", true);
      return;
    }
    $("graph").value = await file.text();
    const ext = file.name.toLowerCase().split(".").pop();
    $("syntax").value = EXTENSIONS[ext] || "";
    setStatus("loaded " + file.name);
  }

  function useSPARQL() {
    return config.sparql && $("source-sparql").checked;
  }

  function loadSources() {
    if (!config.sparql) return;
    $("source").hidden = false;
    for (const url of config.sparqlEndpoints) $("endpoints").append(el("option", { value: url }));
    if (config.sparqlEndpoints.length > 0) $("endpoint").value = config.sparqlEndpoints[0];
    const toggle = () => {
      $("sparql").hidden = !useSPARQL();
      $("text").hidden = useSPARQL();
    };
    $("source-text").addEventListener("change", toggle);
    $("source-sparql").addEventListener("change", toggle);
  }

  function graph() {
    if (useSPARQL()) return { endpoint: $("endpoint").value, query: $("query").value, method: $("method").value };
    const g = { data: $("graph").value };
    if ($("syntax").value) g.format = $("syntax").value;
    if ($("base").value) g.base = $("base").value;
    return g;
  }

  const OPTION_SELECTS = ["version", "ids", "glossary", "layout"];
  const OPTION_FLAGS = ["no_constants", "no_types", "continuation", "inline_blanks", "inverse_index", "iri_ids", "datatype_prefixes"];

  // isoldaOptions returns the ISOLDA options set on the page (null: none).
  function isoldaOptions() {
    const o = {};
    for (const k of OPTION_SELECTS) if ($("opt-" + k).value) o[k] = $("opt-" + k).value;
    for (const k of OPTION_FLAGS) if ($("opt-" + k).checked) o[k] = true;
    if ($("opt-theta").value !== "") o.theta = Number($("opt-theta").value);
    if ($("opt-hops").value !== "") o.hops = parseInt($("opt-hops").value, 10);
    return Object.keys(o).length > 0 ? o : null;
  }

  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  const FILE_EXTENSIONS = { ntriples: "nt", nquads: "nq", turtle: "ttl", trig: "trig", rdfxml: "rdf", jsonld: "jsonld" };

  function card(res, info) {
    // A lossless format that still names what it drops (named graphs, or
    // what the labelled-graph view leaves out) gets a starred badge.
    const badge = info && info.lossless
      ? (info.loses
        ? el("span", { class: "badge ok", title: "lossless on what it keeps; loses " + info.loses }, "lossless*")
        : el("span", { class: "badge ok", title: "the format keeps every triple" }, "lossless"))
      : el("span", { class: "badge lossy", title: info && info.loses ? "loses " + info.loses : "may lose information" }, "lossy");
    const head = el("span", { class: "badges" }, badge);
    if (res.truncated) head.append(" ", el("span", { class: "badge lossy", title: "cut to the token budget" }, "cut"));
    const btn = el("button", { type: "button", class: "secondary" }, "Download");
    btn.addEventListener("click", () => download("graph." + (FILE_EXTENSIONS[res.format] || "txt"), res.text));
    const c = el("article", { class: "card" },
      el("h2", {}, el("span", {}, res.format), head),
      el("div", { class: "meta" }, res.tokens + " tokens (" + res.tokenizer + "), " + res.bytes + " bytes, " + res.quads + " quads "));
    if (res.truncated) {
      const d = res.dropped || {};
      c.append(el("div", { class: "meta cut" }, "cut to the budget: " + d.records + " records, " + d.tokens + " tokens, " + d.bytes + " bytes left out"));
    }
    c.append(btn);
    if (res.text === "") c.append(el("p", { class: "hint" }, "The format wrote nothing for this graph."));
    c.append(el("pre", {}, res.text));
    return c;
  }

  function errorCard(name, err) {
    return el("article", { class: "card failed" }, el("h2", {}, name), el("p", { class: "error" }, err.message));
  }

  function colourClass(r) {
    if (isISOLDA(r.format)) return "isolda";
    return r.lossless ? "lossless" : "lossy";
  }
  const COLOURS = { isolda: "#2f6fb3", lossless: "#8aa4c2", lossy: "#c8ced6" };

  // drawChart draws one bar a format, fewest tokens first; formats that
  // wrote nothing get no bar but a line saying so.
  function drawChart(results) {
    const box = $("chart");
    box.replaceChildren();
    if (results.length === 0) return;
    const shown = results.filter((r) => r.tokens > 0).sort((a, b) => a.tokens - b.tokens || (a.format < b.format ? -1 : 1));
    const empty = results.filter((r) => r.tokens === 0).map((r) => r.format).sort();
    const max = Math.max(1, ...shown.map((r) => r.tokens));
    box.append(el("h2", {}, "Tokens per format (" + results[0].tokenizer + "), fewest first"));
    box.append(el("div", { class: "legend" },
      el("span", {}, el("span", { class: "key isolda" }), "ISOLDA"),
      el("span", {}, el("span", { class: "key lossless" }), "lossless"),
      el("span", {}, el("span", { class: "key lossy" }), "lossy")));
    const bars = el("div", { class: "bars", role: "list" });
    for (const r of shown) {
      const svg = svgEl("svg", { viewBox: "0 0 100 10", preserveAspectRatio: "none", "aria-hidden": "true" });
      const rect = svgEl("rect", { x: 0, y: 1, width: (100 * r.tokens / max).toFixed(3), height: 8, fill: COLOURS[colourClass(r)] });
      rect.append(svgEl("title", {}, r.format + ": " + r.tokens + " tokens"));
      svg.append(rect);
      bars.append(el("div", { class: "label", role: "listitem" }, r.format), svg, el("div", { class: "value" }, String(r.tokens)));
    }
    box.append(bars);
    if (empty.length > 0) box.append(el("p", { class: "hint" }, "No text, no bar: " + empty.join(", ") + "."));
  }

  async function roundTrip(g, options, anchor) {
    const box = $("roundtrip");
    box.replaceChildren();
    const payload = { graph: g };
    if (options) payload.options = options;
    if (anchor) payload.anchor = anchor;
    try {
      const res = await postJSON("/v1/check", payload);
      const msg = res.isomorphic
        ? "ISOLDA round trip: the decoded document is the same graph."
        : "ISOLDA round trip: " + res.missing_count + " triples missing, " + res.extra_count + " extra.";
      box.append(el("p", { class: res.isomorphic ? "ok" : "error" }, msg));
      if (!res.isomorphic) box.append(el("pre", {}, res.missing.concat(res.extra).join("\n")));
    } catch (err) {
      box.append(el("p", { class: "error" }, "ISOLDA round trip: " + err.message));
    }
  }

  async function run() {
    const names = [...document.querySelectorAll("#format-groups input:checked")].map((cb) => cb.value);
    if (useSPARQL() ? !$("endpoint").value || !$("query").value.trim() : !$("graph").value.trim()) {
      setStatus(useSPARQL() ? "name an endpoint and a query first" : "paste, upload or load a graph first", true);
      return;
    }
    if (names.length === 0) { setStatus("pick at least one format", true); return; }
    const budget = $("budget").value === "" ? 0 : parseInt($("budget").value, 10);
    if (!(budget >= 0)) { setStatus("the token budget is a whole number of tokens", true); return; }
    const g = graph();
    const options = isoldaOptions();
    const anchor = $("opt-anchor").value.trim();
    $("run").disabled = true;
    $("outputs").replaceChildren();
    $("chart").replaceChildren();
    $("roundtrip").replaceChildren();
    setStatus("serializing…");
    const results = [];
    let failed = 0;
    for (const name of names) {
      const payload = { graph: g, format: name, tokenizer: $("tokenizer").value };
      if (budget > 0) { payload.budget = budget; payload.truncation = $("truncation").value; }
      if (isISOLDA(name)) {
        if (options) payload.options = options;
        if (anchor) payload.anchor = anchor;
      }
      try {
        const res = await postJSON("/v1/serialize", payload);
        results.push(res);
        $("outputs").append(card(res, formatInfo.find((f) => f.name === name)));
      } catch (err) {
        if (err.graph) {
          // The graph itself cannot be read: every format would say the
          // same. Say it once.
          $("outputs").replaceChildren(errorCard("Graph", err));
          $("run").disabled = false;
          setStatus("0 formats written: the graph could not be read", true);
          return;
        }
        failed++;
        $("outputs").append(errorCard(name, err));
      }
    }
    drawChart(results);
    await roundTrip(g, options, anchor);
    $("run").disabled = false;
    setStatus(results.length + " formats written" + (failed ? ", " + failed + " failed" : ""), failed > 0);
  }

  $("file").addEventListener("change", upload);
  $("run").addEventListener("click", run);
  loadTokenizers();
  loadSources();
  loadExamples();
  loadFormats().catch((err) => setStatus(err.message, true));
})();
