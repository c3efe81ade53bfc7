#!/usr/bin/python3
"""Reference values for package stats from scipy and statsmodels.

Run from the stats directory with Debian's Python and packages
(apt-get install python3-scipy python3-statsmodels; scipy 1.10.1,
statsmodels 0.13.5 when generated):

    /usr/bin/python3 testdata/gen_scipy.py > testdata/scipy_fixtures.json

* mcnemar: statsmodels.stats.contingency_tables.mcnemar(exact=True) and
  scipy.stats.binomtest(k, n, 0.5) p-values; the mid-p value as
  2·binom.cdf(k−1) + binom.pmf(k) with scipy.stats.binom, capped at 1.
* wilson: statsmodels.stats.proportion.proportion_confint(method="wilson").
* holm: statsmodels.stats.multitest.multipletests(method="holm").
* bca: scipy.stats._resampling._bca_interval, the routine behind
  scipy.stats.bootstrap(method="BCa"), applied to stored replicates (drawn
  here with numpy) of the mean; gives alpha_1, alpha_2 and the acceleration,
  with z0 from scipy's _percentile_of_score.
"""
import json

import numpy as np
import scipy
import statsmodels
from scipy.special import ndtri
from scipy.stats import binom, binomtest
from scipy.stats import _resampling
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint


def main():
    out = {"versions": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__},
           "mcnemar": [], "wilson": [], "holm": [], "bca": []}
    pairs = [(0, 0), (1, 0), (0, 1), (3, 3), (0, 12), (12, 0), (2, 8), (3, 11), (7, 6), (10, 25),
             (40, 60), (101, 99), (250, 300), (480, 520), (0, 60), (1, 1999), (700, 900),
             (1900, 2250), (4000, 4300), (9990, 10010), (20000, 20600)]
    for b, c in pairs:
        n, k = b + c, min(b, c)
        exact = float(mcnemar([[5, b], [c, 7]], exact=True).pvalue)
        bt = float(binomtest(k, n, 0.5).pvalue) if n > 0 else 1.0
        if n == 0 or 2 * k == n:
            mid = 1.0
        else:
            mid = min(1.0, float(2 * binom.cdf(k - 1, n, 0.5) + binom.pmf(k, n, 0.5)))
        out["mcnemar"].append({"b": b, "c": c, "exact": exact, "binomtest": bt, "midp": mid})
    for k, n in [(81, 263), (15, 148), (0, 20), (1, 29), (0, 1), (1, 1), (5, 10), (29, 30),
                 (50, 50), (377, 500), (9990, 10000), (3, 7), (1, 2)]:
        for conf in (0.95, 0.99, 0.9):
            lo, hi = proportion_confint(k, n, alpha=1 - conf, method="wilson")
            out["wilson"].append({"k": k, "n": n, "confidence": conf, "lo": float(lo), "hi": float(hi)})
    rng = np.random.default_rng(20261129)
    for m in (1, 3, 5, 10, 20):
        p = [float(x) for x in np.round(rng.random(m) ** 3, 6)]
        out["holm"].append({"p": p, "adjusted": [float(x) for x in multipletests(p, method="holm")[1]]})
    p = [0.01, 0.04, 0.03, 0.005, 0.04]
    out["holm"].append({"p": p, "adjusted": [float(x) for x in multipletests(p, method="holm")[1]]})

    cases = [
        ("mouse-control", [52.0, 104.0, 146.0, 10.0, 51.0, 30.0, 40.0, 27.0, 46.0], 2000, 0.95),
        ("paired-diff-80", [float(x) for x in rng.choice([-1, 0, 0, 0, 1, 1], size=80)], 4000, 0.95),
        ("lognormal-30", [float(x) for x in np.round(rng.lognormal(3, 1, size=30), 4)], 3000, 0.90),
    ]
    for name, data, B, conf in cases:
        x = np.array(data)
        idx = rng.integers(0, len(x), size=(B, len(x)))
        reps = x[idx].mean(axis=1)
        a1, a2, a = _resampling._bca_interval((x,), np.mean, -1, (1 - conf) / 2, reps, None)
        z0 = ndtri(_resampling._percentile_of_score(reps, np.mean(x), axis=-1))
        out["bca"].append({"name": name, "data": data, "confidence": conf,
                           "replicates": [float(v) for v in reps],
                           "z0": float(z0), "a": float(a), "alpha1": float(a1), "alpha2": float(a2)})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
