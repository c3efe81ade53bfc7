"""A/B of two packers (not a test): the CPU time of packing an rdflib
dataset and of the Go core's unpack and encode of the packet, for this
package's isolda/_pack.py and another copy of it (say, main's), in one
process on one parsed graph, with the sha256 of both documents.

    git show main:python/isolda/_pack.py > /tmp/old_pack.py
    /tmp/venv/bin/python python/bench/pack_ab.py /tmp/nomisma.nt /tmp/old_pack.py [conjunctive|dataset|graph] [ROUNDS]
"""

import hashlib
import importlib.util
import sys
import time

import rdflib

from isolda import _pack
from isolda._lib import OP_ENCODE, lib
from isolda.options import coerce


def main():
    path, old_path = sys.argv[1], sys.argv[2]
    kind = sys.argv[3] if len(sys.argv) > 3 else "conjunctive"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    spec = importlib.util.spec_from_file_location("old_pack", old_path)
    old = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(old)
    g = {"conjunctive": rdflib.ConjunctiveGraph, "dataset": rdflib.Dataset, "graph": rdflib.Graph}[kind]()
    t = time.perf_counter()
    g.parse(path)
    print("rdflib parse into a %s: %d statements, %.1f s" % (kind, len(g), time.perf_counter() - t), flush=True)
    request = {"source": {"kind": "packed", "path": "", "format": "", "base": "", "strict": False}, "options": coerce(None).to_go()}
    for _ in range(rounds):
        for name, mod in (("old", old), ("new", _pack)):
            c0 = time.process_time()
            packet = mod.pack(g)
            c1 = time.process_time()
            text = lib().call_str(OP_ENCODE, request, packet)
            c2 = time.process_time()
            print("%s: pack %.2f s CPU, Go unpack+encode %.2f s CPU, sha256 %s" % (name, c1 - c0, c2 - c1, hashlib.sha256(text.encode()).hexdigest()[:16]), flush=True)
            del packet, text


if __name__ == "__main__":
    main()
