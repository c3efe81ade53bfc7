#!/usr/bin/env python3
"""Writes py_fixtures.json: CPython 3.11 outputs of str methods, json.dumps,
urllib.parse.quote, ast.literal_eval and set iteration order for the tests
of internal/py. Run from this directory:
python3 gen_py_fixtures.py > py_fixtures.json"""
import json, ast, os, sys, urllib.parse
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)
cases = {}
strs = ["", "  a b\t", "\x1c x \x1f", "\u3000Ünïcode\u2028", "İstanbul", "ΟΔΟΣ", "ΣΑΣ.", "aΣ b", "it's", 'say "hi"', "both ' and \"", "tab\there", "\x00\x7f\x80\xff", "\u200b\u00ad", "😀", "\ud7ff", "a\\b", "ǅ", "x\u0301y"]
cases["lower"] = [[s, s.lower()] for s in strs]
cases["strip"] = [[s, s.strip()] for s in strs]
cases["split"] = [[s, s.split()] for s in strs]
cases["repr"] = [[s, repr(s)] for s in strs]
cases["reprlist"] = [[strs[:5], repr(strs[:5])], [[], repr([])]]
cases["json"] = [[s, json.dumps(s), json.dumps(s, ensure_ascii=False)] for s in strs]
cases["quote"] = [[s, urllib.parse.quote(s, safe='/')] for s in strs + ["a/b c", "%2F", "~_.-"]]
cases["isspace"] = [c for c in range(0x110000) if chr(c).isspace()]
lits = ["['A', 'B']", "('a', 'b')", "'a', 'b'", "[]", "['x',]", "{'a': 1, 'a': 2}", "{1, 2, 1}", "b'ab'", "r'\\n'", "'\\x41\\u00e9\\N{BULLET}'", "'a' 'b'", "[1, -2.5, 0x1F, 1e3, 3j]", "True", "None", "[ 'a' ,\n 'b' ]", "'''tri\nple'''", "012", "[1, 2", "foo", "{'k': [1]}", "{[1]: 2}", "'\\t'", "(1)", "(1,)", "  ['a']", "# c\n['a']"]
out = []
for l in lits:
    try:
        v = ast.literal_eval(l)
        def enc(v):
            if isinstance(v, str): return ["str", v]
            if isinstance(v, bytes): return ["bytes", list(v)]
            if isinstance(v, bool) or v is None: return ["const", repr(v)]
            if isinstance(v, (int, float, complex)): return ["num"]
            if isinstance(v, list): return ["list", [enc(x) for x in v]]
            if isinstance(v, tuple): return ["tuple", [enc(x) for x in v]]
            if isinstance(v, set): return ["set", len(v)]
            if isinstance(v, dict): return ["dict", len(v)]
        out.append([l, enc(v)])
    except Exception as e:
        out.append([l, None])
cases["literal"] = out
s = set()
seq = [5, 13, 21, 29, 3, 8, 100, 37, 64, 2, 45, 77, 1, 0, 33, 999, 17, 9, 4, 250]
order = []
for x in seq:
    s.add(x); order.append(list(s))
cases["intset"] = {"adds": seq, "orders": order}
hs = strs + ["http://example.org/countries#" + str(i) for i in range(40)] + ["é" * 9, "€uro", "a" * 17]
cases["strhash"] = [[x, hash(x)] for x in hs]
cases["tuplehash"] = [[[hash(a), hash(b), hash(c)], hash((a, b, c))] for a, b, c in zip(hs, hs[1:], hs[2:])][:30] + [[[], hash(())]]
orders = []
# Keys are "http://example.org/countries#<k>" for k = (i * 7919) % 5003;
# orders are lists of k.
for n in [3, 5, 6, 20, 100, 333, 1000]:
    ks = [(i * 7919) % 5003 for i in range(n)]
    st = set()
    for k in ks + ks[:3]:
        st.add("http://example.org/countries#%d" % k)
    num = lambda it: [int(x.rsplit("#", 1)[1]) for x in it]
    orders.append({"n": n, "order": num(st), "copy": num(st.copy())})
cases["setorder"] = orders
json.dump({"python": sys.version.split()[0], "cases": cases}, sys.stdout, ensure_ascii=True, indent=0)
