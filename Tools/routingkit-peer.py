#!/usr/bin/env python3
"""Same-run reference for the router benchmark: RoutingKit's customizable
contraction hierarchies (PyPI `routingkit-cch`) on the very graph of a
mytaxi graph file.

Reads the graph file (docs/graph-file.md), builds RoutingKit's CCH with its
inertial-flow order on the free-flow durations, and times, with the same
random node pairs the Swift benchmark uses (seeded, written to --pairs):
point-to-point queries and 1xN one-to-many tables (targets pinned, as a
dispatcher pins the pickup's surroundings once). Prints one JSON object
with p50/p99 in microseconds, plus the build and customization times.
"""
import argparse
import json
import random
import struct
import sys
import time

import numpy as np

try:
    import routingkit_cch as rk
except ImportError:
    sys.exit("routingkit-peer: install the reference first: python3 -m pip install routingkit-cch")


def read_graph(path):
    """The sections of a mytaxi graph file, by name."""
    data = open(path, "rb").read()
    if data[:8] != b"MYTAXIRG":
        sys.exit(f"routingkit-peer: {path} is not a mytaxi graph file")
    (count,) = struct.unpack_from("<I", data, 12)
    offset, sections = 16, {}
    for _ in range(count):
        name = data[offset:offset + 8].rstrip(b"\0").decode()
        (length,) = struct.unpack_from("<Q", data, offset + 8)
        offset += 16
        sections[name] = data[offset:offset + length]
        offset += (length + 7) // 8 * 8
    return sections


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed(function, repeats):
    """Microseconds per call, one sample per call."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        function()
        samples.append((time.perf_counter_ns() - start) / 1000)
    return {"p50_us": percentile(samples, 0.5), "p99_us": percentile(samples, 0.99)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graph")
    parser.add_argument("--queries", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pairs", help="write the query pairs here (source,target per line)")
    args = parser.parse_args()

    sections = read_graph(args.graph)
    coords = np.frombuffer(sections["coords"], dtype="<f8").reshape(-1, 2)
    first = np.frombuffer(sections["firstedg"], dtype="<u4")
    head = np.frombuffer(sections["edgehead"], dtype="<u4").astype(np.int64).tolist()
    duration = np.frombuffer(sections["duration"], dtype="<u4").astype(np.int64).tolist()
    nodes = len(coords)
    tail = np.repeat(np.arange(nodes), np.diff(first)).tolist()

    start = time.perf_counter()
    order = rk.compute_order_inertial(nodes, tail, head, coords[:, 1].tolist(), coords[:, 0].tolist())
    cch = rk.CCH(order, tail, head, False)
    build_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    metric = rk.CCHMetric(cch, duration)
    customize_ms = (time.perf_counter() - start) * 1000

    rng = random.Random(args.seed)
    pairs = [(rng.randrange(nodes), rng.randrange(nodes)) for _ in range(args.queries)]
    if args.pairs:
        with open(args.pairs, "w") as out:
            out.writelines(f"{s},{t}\n" for s, t in pairs)

    query = rk.CCHQuery(metric)
    it = iter(pairs * 2)
    point_to_point = timed(lambda: query.run(*next(it)), len(pairs))

    result = {"nodes": nodes, "edges": len(head), "build_ms": build_ms, "customize_ms": customize_ms,
              "point_to_point": point_to_point}
    for size in (500, 2000):
        targets = [rng.randrange(nodes) for _ in range(size)]
        table = rk.CCHOneToMany(metric, targets)
        sources = iter([rng.randrange(nodes) for _ in range(2000)])
        result[f"one_to_many_{size}"] = timed(lambda: table.distances_from(next(sources)), 2000)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
