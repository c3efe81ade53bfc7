#!/usr/bin/env python3
r"""Writes the graphrag test fixtures from the GraphRAG article's reference
program (benchmark_graph_formats.py, ../shared/spec/002_20b823f74d856c24.txt,
lines 116-499), which is not committed here because its licence is unclear.

    sed -n 116,499p ../shared/spec/002_20b823f74d856c24.txt > /tmp/ref/benchmark_graph_formats.py
    # tiktoken is not installed offline; token counts are not part of the fixtures,
    # so a stub module whose encode returns [] is put on PYTHONPATH:
    mkdir -p /tmp/ref/stub && printf 'class _E:\n    def encode(self, t):\n        return []\ndef get_encoding(n):\n    return _E()\n' > /tmp/ref/stub/tiktoken.py
    cd formats/graphrag/testdata && PYTHONPATH=/tmp/ref:/tmp/ref/stub python3 gen_fixtures.py

Produced with CPython 3.11.7.
"""
import hashlib
import json
import os
import sys

import benchmark_graph_formats as ref

PARAMS = [(40, 80, 7), (4, 0, 7), (0, 5, 3), (5, 100, 7), (10, 20, 1),
          (100, 200, 7), (250, 500, 7), (500, 1000, 7), (40, 80, 0),
          (40, 80, -7), (60, 30, 2**40 + 11)]

out = {"python": sys.version.split()[0], "param_sets": []}
for services, noise, seed in PARAMS:
    nodes, edges = ref.make_graph(services, noise, seed)
    entry = {
        "services": services, "noise_edges": noise, "seed": seed,
        "nodes": len(nodes), "edges": len(edges),
        "gold_queries": ref.query_suite(nodes, edges),
        "formats": {},
    }
    for name, (enc, dec) in ref.FORMATS.items():
        text = enc(nodes, edges)
        data = text.encode("utf-8")
        entry["formats"][name] = {
            "utf8_bytes": len(data),
            "characters": len(text),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        if (services, noise, seed) == (40, 80, 7):
            os.makedirs("default", exist_ok=True)
            with open(f"default/graph.{name}.txt", "w", encoding="utf-8") as h:
                h.write(text)
    out["param_sets"].append(entry)

# Hostile identifiers: every format must escape them exactly as the reference
# encoders do. (No bare "\r": CPython before 3.11.9 does not quote it in CSV.)
N, E = ref.Node, ref.Edge
hostile_nodes = sorted([
    N("a|b", "service"), N("back\\slash", "service"), N("new\nline", "team"),
    N('quo"te', "data,base"), N("tab\tstop", "service"), N("->arrow", "service"),
    N("ünï©ødé 😀", "service"), N("\\p", "team"), N("ctl\x01\x1f\x7f", "service"),
    N("", "empty"), N("line\u2028sep", "service"), N(" lead", " type "),
])
hostile_edges = sorted([
    E("a|b", "depends_on", "back\\slash"), E("new\nline", "owned|by", "a|b"),
    E('quo"te', "depends_on", "tab\tstop"), E("->arrow", "x\\n", "ünï©ødé 😀"),
    E("\\p", "owned_by", "\\p"), E("ctl\x01\x1f\x7f", "depends_on", ""),
    E("orphan", "depends_on", "a|b"), E("line\u2028sep", "a,b", " lead"),
])
hostile = {"nodes": [[n.id, n.type] for n in hostile_nodes],
           "edges": [[e.source, e.relation, e.target] for e in hostile_edges],
           "texts": {}}
for name, (enc, dec) in ref.FORMATS.items():
    hostile["texts"][name] = enc(hostile_nodes, hostile_edges)
out["hostile"] = hostile

with open("reference.json", "w", encoding="utf-8") as h:
    json.dump(out, h, indent=1, ensure_ascii=False)
    h.write("\n")

# The reference program's own report for its default parameters
# (main() run with the stub tokenizer), with the token counts removed
# because they need tiktoken's o200k_base.
os.makedirs("/tmp/graphrag_report", exist_ok=True)
here = os.getcwd()
os.chdir("/tmp/graphrag_report")
sys.argv = ["benchmark_graph_formats.py", "--output", "baseline.json"]
import contextlib
with contextlib.redirect_stdout(open(os.devnull, "w")):
    ref.main()
report = json.load(open("baseline.json", encoding="utf-8"))
os.chdir(here)
for f in report["formats"].values():
    del f["tokens"]
with open("default/report.json", "w", encoding="utf-8") as h:
    json.dump(report, h, indent=2, ensure_ascii=False)
