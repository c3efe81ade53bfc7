# Generates hostile_rdf.json: a KG with adversarial labels textualized by
# rdflib 7.1.2 (run from its source tree: PYTHONPATH=<rdflib-7.1.2>) with
# KG-LLM-Bench's make_rdflib_graph logic (kg_builder.py) and the same
# serialize calls as to_rdf_turtle{1,2,3}, to_json_ld{1,2,3} and to_nt.
# Run with PYTHONHASHSEED=0. The Go tests only read the output.
import json, sys, urllib.parse
import rdflib
from rdflib import Graph, URIRef, Literal, Namespace
from rdflib.namespace import RDF, RDFS

labels = [
    "Belgium", "Belgium", "", "/", "a/b", "a/b/c", "1848", "1848 revolution", "St. Helena", "Co.", "end.",
    "it's", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", 'ends with quote"', 'three """ quotes',
    "multi\nline ending quote\"", "cr\rx", "nul\x00x", "R\xe9publique", "\uac70\uc81c", "emoji \U0001F600",
    "_under", "-dash", "%percent", "(paren)", "x:y", "#hash", "\u00b7middot", "caf\xe9/bar", "50%", "~tilde",
    "a.b.c", "\x7f", "<angle>", "{brace}", "pipe|x", "caret^x", "back`tick", "sp ace",
]
relations = ["shares border with", "it's", "top-level Internet domain", "languages spoken, written or signed",
             "K\xf6ppen climate classification", "1st rel", "a/b", "end.", "_x", "(p)", ""]

entities = {i: l for i, l in enumerate(labels)}
rels = {i * 3 + 1: l for i, l in enumerate(relations)}
rel_ids = list(rels)
edges = {}
n = len(labels)
for i in range(n):
    for k in range(3):
        t = (i * 5 + k * 11 + 1) % n
        edges.setdefault((i, t), rel_ids[(i + 2 * k) % len(rel_ids)])
edges[(0, 0)] = rel_ids[0]

def make_graph(use_entity_ids, use_relation_ids):
    g = Graph()
    ex = Namespace("http://example.org/countries#")
    g.bind("ex", ex)
    g.bind("rdf", RDF)
    g.bind("rdfs", RDFS)
    if use_entity_ids:
        for entity_id, label in entities.items():
            entity_uri = URIRef(f"http://example.org/countries#{urllib.parse.quote(str(entity_id))}")
            g.add((entity_uri, RDF.type, ex.Country))
            g.add((entity_uri, RDFS.label, Literal(label)))
    if use_relation_ids:
        for relation_id, label in rels.items():
            relation_uri = URIRef(f"http://example.org/countries#{urllib.parse.quote('R' + str(relation_id))}")
            g.add((relation_uri, RDF.type, RDF.Property))
            g.add((relation_uri, RDFS.label, Literal(label)))
    for (head, tail), rid in edges.items():
        h = str(head) if use_entity_ids else str(entities[head])
        r = 'R' + str(rid) if use_relation_ids else str(rels[rid])
        t = str(tail) if use_entity_ids else str(entities[tail])
        g.add((URIRef(f"http://example.org/countries#{urllib.parse.quote(h)}"),
               URIRef(f"http://example.org/countries#{urllib.parse.quote(r)}"),
               URIRef(f"http://example.org/countries#{urllib.parse.quote(t)}")))
    return g

context = {"@context": {"ex": "http://example.org/countries#", "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
                        "rdfs": "http://www.w3.org/2000/01/rdf-schema#", "label": "rdfs:label", "type": "@type"}}
out = {
    "entities": [[i, l] for i, l in entities.items()],
    "relations": [[i, l] for i, l in rels.items()],
    "edges": [[h, r, t] for (h, t), r in edges.items()],
    "rdflib": rdflib.__version__,
}
for k, (e, r) in enumerate([(False, False), (True, False), (True, True)], 1):
    out[f"rdf_turtle{k}"] = make_graph(e, r).serialize(format="turtle")
    out[f"json_ld{k}"] = make_graph(e, r).serialize(format="json-ld", indent=2, context=context)
out["nt"] = make_graph(False, False).serialize(format="nt")
json.dump(out, open(sys.argv[1], "w"), indent=1, ensure_ascii=True)
