#!/usr/bin/env python3
"""Writes cpython_fixtures.json: outputs of CPython's random.Random for the
random tests of internal/py. Run from this directory: python3 gen_fixtures.py"""
import json
import random
import sys

SEEDS = [0, 1, 7, 42, -5, 123456789, 2**32 - 1, 2**32, 2**32 + 5,
         2**63 - 1, -(2**63), 2**100 + 3]

cases = []
for seed in SEEDS:
    r = random.Random(seed)
    c = {"seed": str(seed)}
    c["uint32"] = [r.getrandbits(32) for _ in range(10)]
    c["random"] = [r.random() for _ in range(8)]
    c["getrandbits"] = [[k, str(r.getrandbits(k))] for k in
                        [0, 1, 5, 31, 32, 33, 53, 63, 64, 65, 100, 200]]
    c["randrange"] = [[a, b, s, r.randrange(a, b, s)] for a, b, s in
                      [(0, 10, 1), (5, 6, 1), (-50, 50, 1), (0, 100, 7),
                       (100, 0, -3), (10, -10, -1), (0, 2**40, 1),
                       (3, 1000003, 2), (-7, 7, 5), (0, 1, 1)]]
    c["randint"] = [[a, b, r.randint(a, b)] for a, b in
                    [(1, 6), (0, 0), (-3, 3), (0, 2**31), (10, 1000)]]
    c["choice"] = [[size, r.choice(range(size))] for size in
                   [1, 2, 3, 7, 40, 43, 100, 1000, 65536, 65537]]
    x = list(range(25))
    r.shuffle(x)
    c["shuffle25"] = x
    c["sample"] = [[nn, k, r.sample(range(nn), k)] for nn, k in
                   [(10, 0), (10, 3), (10, 10), (30, 5), (30, 6), (100, 6),
                    (100, 50), (1000, 20), (50, 40), (5000, 300)]]
    c["after"] = r.getrandbits(32)
    cases.append(c)

json.dump({"python": sys.version.split()[0], "cases": cases},
          open("cpython_fixtures.json", "w"), indent=1)
