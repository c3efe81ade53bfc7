# Generates hostile.json: adversarial labels textualized by the real
# PyYAML (yaml.dump(d, default_flow_style=False)) and json.dumps(d, indent=2),
# exactly as KG-LLM-Bench's to_structured_yaml / to_structured_json build d,
# and urllib.parse.quote of every label.
# Run once with python3 + PyYAML 6.0.x; the Go tests only read the output.
import json, sys, urllib.parse, yaml

labels = [
    "Belgium", "", " ", "  lead", "trail ", "yes", "No", "on", "OFF", "true", "null", "~", "Null",
    "12", "-3", "+7", "0x1F", "0o17", "017", "0b101", "1_000", "1.5", ".5", "1.", "1e3", "1.0e+3", ".inf", "-.Inf",
    ".NaN", "1:30", "190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
    "=", "<<", "-", "- x", "-x", "?", "? x", "?x", ":", ": x", "a: b", "a:b", "a #b", "a#b", "#x", ",x", "[x]", "{x}",
    "&x", "*x", "!x", "|x", ">x", "'x", '"x', "%x", "@x", "`x", "--- x", "...x", "x---",
    "it's", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", "two\n\nbreaks", "trail\n", "\nlead", "cr\rx",
    "sp \nbr", "br\n sp", "nul\x00x", "bell\x07", "esc\x1b", "del\x7f", "nel\x85x", "nbsp\xa0x", "ls\u2028x", "ps\u2029x",
    "bom\ufeffx", "R\xe9publique fran\xe7aise", "\uac70\uc81c\ub3c4", "emoji \U0001F600 face", "\U00010000", "\ud7ff\ue000\ufffd",
    "K\xf6ppen climate classification",
    "A very long label that goes on and on past the eighty column limit of the emitter so it must fold somewhere",
    "Averyveryverylonglabelwithoutanyspacesatallthatgoesonandonpastthewidthlimitofeightycolumnsforsure",
    "A long label with a 'quote' that forces: single quoting and also runs past the eighty column limit ok",
    "A long label with a \"double\" quote and non-ASCII \xe9 so double quoted and also runs past eighty columns ok",
    "Long  double  spaces  label  that  keeps  going  past  the  eighty  column  limit  of  the  yaml  emitter",
    "Long non-ASCII \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9 with spaces after the escapes here",
    "\xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9 \xe9",
    "multi line label\nthat is long enough to fold across the eighty column limit of the emitter in yaml dump",
    "x" * 122, "y" * 123, "z " * 70, "key with: colon " * 9,
]
rels = ["shares border with", "it's", "yes", "", "1.5", "a: b", "caf\xe9", "x" * 125, "two\nlines"]

edges = []
for i, h in enumerate(labels):
    for k in range(3):
        t = labels[(i * 7 + k * 13 + 1) % len(labels)]
        r = rels[(i + k) % len(rels)]
        edges.append((h, r, t))

d = {}
for h, r, t in edges:
    d.setdefault(h, {}).setdefault(r, []).append(t)

out = {
    "entities": labels,
    "relations": rels,
    "edges": [[labels.index(h), rels.index(r), labels.index(t)] for h, r, t in edges],
    "yaml": yaml.dump(d, default_flow_style=False),
    "json": json.dumps(d, indent=2),
    "quote": [urllib.parse.quote(s) for s in labels + rels],
    "pyyaml": yaml.__version__,
    "python": sys.version.split()[0],
}
json.dump(out, open(sys.argv[1], "w"), indent=1, ensure_ascii=True)
