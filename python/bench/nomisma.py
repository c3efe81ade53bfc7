"""Nomisma figures for BENCHMARKS.md (not a test): the time of
isolda.encode(graph) for a graph already in rdflib, rdflib's own parse not
counted, and the memory it adds beside rdflib's.

    /tmp/venv/bin/python python/bench/nomisma.py ../shared/data/big/nomisma.ttl [RUNS]

It prints the sha256 of both documents, to compare with
`isolda encode FILE | sha256sum` (from N-Triples, the same bytes; from
Turtle, encode(graph) differs by the prefixes, which a graph does not
send).

isolda.encode(path) against the CLI is timed from outside with farm-bench
(see BENCHMARKS.md).
"""

import hashlib
import resource
import sys
import time

import rdflib

import isolda


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        text = isolda.encode(path)
        print("isolda.encode(path), in process: wall %.2f s, cpu %.2f s" % (time.perf_counter() - t0, time.process_time() - c0))
    print("isolda.encode(path): sha256 %s" % hashlib.sha256(text.encode()).hexdigest())
    del text
    t = time.perf_counter()
    g = rdflib.Graph().parse(path)
    parse = time.perf_counter() - t
    base_rss, base_peak = rss_mib(), peak_mib()
    print("rdflib parse: %d triples, %.1f s; RSS %.0f MiB, peak %.0f MiB" % (len(g), parse, base_rss, base_peak))
    times = []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        text = isolda.encode(g)
        times.append((time.perf_counter() - t0, time.process_time() - c0))
    print("isolda.encode(graph): %d bytes; wall %s s; cpu %s s" % (
        len(text.encode()), ", ".join("%.2f" % w for w, _ in times), ", ".join("%.2f" % c for _, c in times)))
    print("isolda.encode(graph): sha256 %s" % hashlib.sha256(text.encode()).hexdigest())
    print("peak %.0f MiB (rdflib alone %.0f MiB: +%.0f MiB for isolda)" % (peak_mib(), base_peak, peak_mib() - base_peak))


if __name__ == "__main__":
    main()
