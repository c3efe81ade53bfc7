#!/usr/bin/env python3
"""Independent reference values for package stats.

Run from the stats directory:  python3 testdata/gen_fixtures.py > testdata/fixtures.json

Uses only the Python standard library (statistics.NormalDist for the normal
distribution, fractions/math for exact arithmetic, random for the replicates),
so it shares no code with the Go implementation.

* wilson: Wilson score interval (Wilson 1927) from its closed form.
* bca: bias-corrected and accelerated bootstrap intervals following Efron and
  Tibshirani (1993), An Introduction to the Bootstrap, §14.3, eqs. 14.9-14.15,
  with the mid-rank bias correction used by scipy.stats.bootstrap
  (z0 = Phi^-1((#{t* < t} + #{t* <= t}) / 2B)), the jackknife acceleration
  a = sum (tbar - t_i)^3 / (6 (sum (tbar - t_i)^2)^1.5), and the empirical
  quantile sorted[ceil(p B) - 1]. The replicates are drawn here with Python's
  own generator and stored, so the Go test feeds the same replicates.
* percentile: the plain percentile interval of the same replicates.
* holm: Holm (1979) step-down adjusted p-values by the textbook loop.
"""
import json
import math
import random
from statistics import NormalDist

N = NormalDist()


def wilson(k, n, conf):
    z = N.inv_cdf(1 - (1 - conf) / 2)
    p = k / n
    den = 1 + z * z / n
    center = (p + z * z / (2 * n)) / den
    half = z / den * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = center - half, center + half
    if k == 0:
        lo = 0.0
    if k == n:
        hi = 1.0
    return max(0.0, lo), min(1.0, hi)


def emp_quantile(p, s):
    p = min(1.0, max(0.0, p))
    i = math.ceil(p * len(s)) - 1
    return s[max(i, 0)]


def bca(theta, reps, jack, conf):
    B = len(reps)
    less = sum(1 for r in reps if r < theta)
    lesseq = sum(1 for r in reps if r <= theta)
    z0 = N.inv_cdf((less + lesseq) / (2 * B))
    tbar = sum(jack) / len(jack)
    num = sum((tbar - t) ** 3 for t in jack)
    den = sum((tbar - t) ** 2 for t in jack)
    a = num / (6 * den ** 1.5) if den > 0 else 0.0
    alpha = (1 - conf) / 2
    levels = []
    for q in (alpha, 1 - alpha):
        zq = N.inv_cdf(q)
        levels.append(N.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq))))
    s = sorted(reps)
    return z0, a, levels, (emp_quantile(levels[0], s), emp_quantile(levels[1], s))


def mean(x):
    return sum(x) / len(x)


def bca_case(name, data, B, seed, conf):
    rng = random.Random(seed)
    n = len(data)
    reps = [mean([data[rng.randrange(n)] for _ in range(n)]) for _ in range(B)]
    theta = mean(data)
    jack = [mean(data[:i] + data[i + 1:]) for i in range(n)]
    z0, a, levels, (lo, hi) = bca(theta, reps, jack, conf)
    s = sorted(reps)
    alpha = (1 - conf) / 2
    return {
        "name": name, "data": data, "confidence": conf, "theta": theta,
        "replicates": reps, "jackknife": jack, "z0": z0, "a": a,
        "alpha1": levels[0], "alpha2": levels[1], "lo": lo, "hi": hi,
        "pct_lo": emp_quantile(alpha, s), "pct_hi": emp_quantile(1 - alpha, s),
    }


def holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    adj = [0.0] * m
    for j in range(m):
        v = max(min(1.0, (m - r) * p[order[r]]) for r in range(j + 1))
        adj[order[j]] = v
    return adj


def main():
    out = {"wilson": [], "bca": [], "holm": []}
    for k, n in [(81, 263), (15, 148), (0, 20), (1, 29), (0, 1), (1, 1), (5, 10),
                 (29, 30), (50, 50), (377, 500), (9990, 10000), (3, 7)]:
        for conf in (0.95, 0.99, 0.9, 0.5):
            lo, hi = wilson(k, n, conf)
            out["wilson"].append({"k": k, "n": n, "confidence": conf, "lo": lo, "hi": hi})

    # Efron & Tibshirani (1993) Table 2.1: mouse survival times, treatment group.
    mouse = [94.0, 197.0, 16.0, 38.0, 99.0, 141.0, 23.0]
    out["bca"].append(bca_case("mouse-treatment", mouse, 2000, 1, 0.95))
    rng = random.Random(7)
    # Paired differences of two arms' correctness over 60 questions.
    d = [float(rng.choice([1, 0, 0, 0, -1, 1, 0])) for _ in range(60)]
    out["bca"].append(bca_case("paired-diff-60", d, 4000, 2, 0.95))
    # Skewed data (exponential), where the acceleration matters.
    e = [round(rng.expovariate(1 / 300), 3) for _ in range(25)]
    out["bca"].append(bca_case("exponential-25", e, 3000, 3, 0.90))

    for m in (1, 2, 4, 7, 12):
        p = [round(rng.random() ** 3, 6) for _ in range(m)]
        out["holm"].append({"p": p, "adjusted": holm(p)})
    p = [0.01, 0.04, 0.03, 0.005]
    out["holm"].append({"p": p, "adjusted": holm(p)})
    p = [0.02, 0.02, 0.5, 0.001, 0.02]  # ties
    out["holm"].append({"p": p, "adjusted": holm(p)})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
