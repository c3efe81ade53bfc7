#!/usr/bin/env python3
"""Writes networkx_fixtures.json: networkx's answers on seeded random graphs,
an oracle for package graph independent of its brute-force tests.

    cd graph/testdata && python3 gen_networkx.py      # networkx 3.6.1, CPython 3.11.7
"""
import json
import random
import itertools
import networkx as nx

rng = random.Random(2026)
cases = []
for i in range(60):
    directed = i % 2 == 0
    n = rng.randint(1, 14)
    p = rng.choice([0.1, 0.2, 0.3, 0.5])
    g = nx.gnp_random_graph(n, p, seed=rng.randint(0, 10**6), directed=directed)
    c = {"n": n, "directed": directed, "edges": sorted([list(e) for e in g.edges()])}
    c["betweenness"] = [nx.betweenness_centrality(g, normalized=False)[v] for v in range(n)]
    c["betweenness_normalized"] = [nx.betweenness_centrality(g, normalized=True)[v] for v in range(n)]
    sp = dict(nx.all_pairs_shortest_path_length(g))
    c["distances"] = [[sp[s].get(t, -1) for t in range(n)] for s in range(n)]
    u = g.to_undirected() if directed else g
    c["clustering"] = [nx.clustering(u)[v] for v in range(n)]
    c["core_number"] = [nx.core_number(u)[v] for v in range(n)]
    c["triangles"] = [nx.triangles(u)[v] for v in range(n)]
    c["components"] = nx.number_connected_components(u)
    c["max_clique_size"] = max((len(q) for q in nx.find_cliques(u)), default=0)
    if directed:
        c["is_dag"] = nx.is_directed_acyclic_graph(g)
        if c["is_dag"]:
            c["topological_sort"] = list(nx.lexicographical_topological_sort(g))
    else:
        c["has_cycle"] = len(nx.cycle_basis(g)) > 0
        if nx.is_connected(g):
            c["diameter"] = nx.diameter(g)
    # Maximum flow from 0 to n-1 with capacity 1 + (7u + 3v) % 5 (u < v
    # for undirected edges).
    if n >= 2:
        for u, v in g.edges():
            a, b = (u, v) if directed else (min(u, v), max(u, v))
            g[u][v]["capacity"] = 1 + (a * 7 + b * 3) % 5
        c["max_flow_0_last"] = nx.maximum_flow_value(g, 0, n - 1)
    # Yen's k shortest simple paths: the lengths of the first 5.
    s, t = 0, n - 1
    try:
        c["yen_lengths_0_last"] = [len(p) - 1 for p in itertools.islice(nx.shortest_simple_paths(g, s, t), 5)]
    except nx.NetworkXNoPath:
        c["yen_lengths_0_last"] = []
    cases.append(c)

with open("networkx_fixtures.json", "w") as h:
    json.dump({"networkx": nx.__version__, "cases": cases}, h)
