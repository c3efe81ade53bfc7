"""Writes networkx_graphqa.json: graphs and gold answers computed by networkx
3.6.1 (the independent oracle of the task package's GraphQA tests).

Run: python3 gen_networkx.py > networkx_graphqa.json
"""
import itertools
import json
import random

import networkx as nx


def case(name, G, seed):
    rnd = random.Random(seed)
    nodes = list(G.nodes())
    pairs = [tuple(rnd.sample(nodes, 2)) for _ in range(4)]
    caps = {}
    for (u, v) in G.edges():
        caps[(u, v)] = rnd.randint(1, 10)
    nx.set_edge_attributes(G, {e: c for e, c in caps.items()}, "weight")
    H = nx.Graph(G)
    H.remove_edges_from(nx.selfloop_edges(H))
    out = {
        "name": name,
        "n": G.number_of_nodes(),
        "edges": [list(e) for e in G.edges()],
        "capacities": [caps[e] for e in G.edges()],
        "adj": [list(G.adj[u]) for u in nodes],
        "num_edges": G.number_of_edges(),
        "triangles": sum(nx.triangles(H).values()) // 3,
        "has_cycle": True,
        "components": nx.number_connected_components(G),
        "connected": nx.is_connected(G),
        "max_clique": max(len(c) for c in nx.find_cliques(H)),
        "pairs": [],
        "nodes": [],
    }
    try:
        nx.find_cycle(G)
    except nx.NetworkXNoCycle:
        out["has_cycle"] = False
    core = nx.core_number(H)
    out["core_sizes"] = {str(k): len(nx.k_core(H, k)) for k in range(1, max(core.values()) + 2)}
    d = 0
    for u, dist in nx.all_pairs_shortest_path_length(G):
        d = max([d] + list(dist.values()))
    out["diameter"] = d
    bc = nx.betweenness_centrality(H)
    best = max(bc.values())
    out["betweenness_top"] = min(u for u in nodes if bc[u] >= best - 1e-12)
    for (s, t) in pairs:
        rec = {"s": s, "t": t, "edge": G.has_edge(s, t), "path": nx.has_path(G, s, t)}
        rec["dist"] = nx.shortest_path_length(G, s, t) if rec["path"] else -1
        rec["flow"] = nx.maximum_flow_value(G, s, t, capacity="weight")
        ks = []
        if rec["path"]:
            for p in itertools.islice(nx.shortest_simple_paths(H, s, t), 3):
                ks.append(len(p) - 1)
        rec["k_lengths"] = ks
        out["pairs"].append(rec)
    for u in nodes:
        out["nodes"].append({
            "degree": G.degree(u),
            "clustering": round(nx.clustering(H, u), 2),
            "clustering_str": f"{nx.clustering(H, u):.2f}",
            "neighbours": list(G.adj[u]),
            "non_neighbours": sorted([str(v) for v in nodes if v != u and not G.has_edge(u, v)]),
            "high_deg": {str(k): sum(1 for v in H.adj[u] if H.degree(v) >= k) for k in range(1, 6)},
        })
    return out


cases = []
for seed, n, p in [(1, 8, 0.3), (2, 12, 0.5), (3, 15, 0.15), (4, 20, 0.1), (5, 6, 0.0)]:
    cases.append(case(f"er-{seed}", nx.gnp_random_graph(n, p, seed=random.Random(seed)), seed))
for seed, n, m in [(11, 10, 1), (12, 12, 2), (13, 15, 3), (14, 19, 4), (15, 20, 7), (16, 50, 2)]:
    random.seed(seed)
    cases.append(case(f"ba-{seed}-{n}-{m}", nx.barabasi_albert_graph(n, m), seed))
for seed, n in [(31, 8), (32, 12), (33, 19), (34, 40)]:
    random.seed(seed)
    cases.append(case(f"sfn-{seed}-{n}", nx.Graph(nx.scale_free_graph(n)), seed))
cases.append(case("complete-7", nx.complete_graph(7), 21))
cases.append(case("star-9", nx.star_graph(8), 22))
cases.append(case("path-10", nx.path_graph(10), 23))
json.dump({"networkx": nx.__version__, "cases": cases}, __import__("sys").stdout, indent=None)
