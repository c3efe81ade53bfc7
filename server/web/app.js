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

  // describeError turns an API error body into a message with the position.
  function describeError(body, status) {
    let msg = (body && body.error) || ("HTTP " + status);
    if (body && body.line) msg += " (line " + body.line + (body.column ? ", column " + body.column : "") + ")";
    return msg;
  }

  async function postJSON(path, payload) {
    const resp = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    let body = null;
    try { body = await resp.json(); } catch (e) { body = null; }
    if (!resp.ok) throw new Error(describeError(body, resp.status));
    return body;
  }

  async function loadFormats() {
    const resp = await fetch("/v1/formats");
    if (!resp.ok) throw new Error("cannot list the formats: HTTP " + resp.status);
    formatInfo = (await resp.json()).formats;
    const box = $("formats");
    const names = formatInfo.map((f) => f.name);
    let wanted = DEFAULT_FORMATS.filter((n) => names.includes(n));
    if (wanted.length === 0) wanted = names.slice(0, 4);
    for (const f of formatInfo) {
      const cb = el("input", { type: "checkbox", value: f.name, name: "format" });
      cb.checked = wanted.includes(f.name);
      const label = el("label", { title: f.lossless ? "lossless" : ("loses " + (f.loses || "information")) }, cb, " " + f.name);
      box.append(label);
    }
  }

  function loadTokenizers() {
    const sel = $("tokenizer");
    for (const name of config.tokenizers) {
      const opt = el("option", { value: name }, name);
      if (name === config.defaultTokenizer) opt.selected = true;
      sel.append(opt);
    }
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
    const btn = el("button", { type: "button", class: "secondary" }, "Download");
    btn.addEventListener("click", () => download("graph." + (FILE_EXTENSIONS[res.format] || "txt"), res.text));
    return el("article", { class: "card" },
      el("h2", {}, el("span", {}, res.format), badge),
      el("div", { class: "meta" }, res.tokens + " tokens (" + res.tokenizer + "), " + res.bytes + " bytes, " + res.quads + " quads "), btn,
      el("pre", {}, res.text));
  }

  function errorCard(name, err) {
    return el("article", { class: "card" }, el("h2", {}, name), el("p", { class: "error" }, err.message));
  }

  // drawChart draws horizontal bars of tokens per format as inline SVG.
  function drawChart(results) {
    const box = $("chart");
    box.replaceChildren();
    if (results.length === 0) return;
    const max = Math.max(1, ...results.map((r) => r.tokens));
    const rowH = 24, labelW = 140, barW = 480, numW = 80;
    const svg = svgEl("svg", { width: labelW + barW + numW, height: rowH * results.length + 28, role: "img",
      "aria-label": "Tokens per format" });
    svg.append(svgEl("text", { x: 0, y: 14 }, "Tokens per format (" + results[0].tokenizer + ")"));
    results.forEach((r, i) => {
      const y = 24 + i * rowH;
      const w = Math.max(1, Math.round(barW * r.tokens / max));
      svg.append(svgEl("text", { x: 0, y: y + 15 }, r.format));
      const bar = svgEl("rect", { x: labelW, y: y + 3, width: w, height: rowH - 8, fill: r.format.startsWith("isolda") ? "#2f6fb3" : "#8aa4c2" });
      bar.append(svgEl("title", {}, r.format + ": " + r.tokens + " tokens"));
      svg.append(bar);
      svg.append(svgEl("text", { x: labelW + w + 6, y: y + 15 }, String(r.tokens)));
    });
    box.append(svg);
  }

  async function roundTrip(g) {
    const box = $("roundtrip");
    box.replaceChildren();
    try {
      const res = await postJSON("/v1/check", { graph: g });
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
    const names = [...document.querySelectorAll("#formats input:checked")].map((cb) => cb.value);
    if (useSPARQL() ? !$("endpoint").value || !$("query").value.trim() : !$("graph").value.trim()) {
      setStatus(useSPARQL() ? "name an endpoint and a query first" : "paste or upload a graph first", true);
      return;
    }
    if (names.length === 0) { setStatus("pick at least one format", true); return; }
    const g = graph();
    $("run").disabled = true;
    $("outputs").replaceChildren();
    setStatus("serializing…");
    const results = [];
    let failed = 0;
    for (const name of names) {
      try {
        const res = await postJSON("/v1/serialize", { graph: g, format: name, tokenizer: $("tokenizer").value });
        results.push(res);
        $("outputs").append(card(res, formatInfo.find((f) => f.name === name)));
      } catch (err) {
        failed++;
        $("outputs").append(errorCard(name, err));
      }
    }
    drawChart(results);
    await roundTrip(g);
    $("run").disabled = false;
    setStatus(results.length + " formats written" + (failed ? ", " + failed + " failed" : ""), failed > 0);
  }

  $("file").addEventListener("change", upload);
  $("run").addEventListener("click", run);
  loadTokenizers();
  loadSources();
  loadFormats().catch((err) => setStatus(err.message, true));
})();
