#!/usr/bin/env python3
"""Table, CSV and plot of scripts/bench-grid-bcast.sh's simulated broadcast timings.

    scripts/bench-grid-bcast-report.py OUTDIR CONFIG HOSTFILE   (reads OUTDIR/bcast-raw.csv)

CONFIG is the gridcoll configuration of the platform (examples/korea8.cfg: cluster names
and host globs, the wide-area latency and bandwidth matrices, the LAN alpha); HOSTFILE maps
ranks to hosts (one host a line, rank order), hence the root's cluster.

SPT bound of a broadcast of m bytes from cluster r: the message must reach every cluster c
over some path of wide-area hops, each hop costing its one-way latency plus m / its
bandwidth (store and forward, whole message), plus the host-to-host LAN alpha (50 us):
    bound(m) = max over c of [ shortest path r -> c with hop weight lat + m/bw ] + alpha
(Dijkstra at every m; for small m this is the shortest-path latency, the SPT's own time).
It ignores the spread inside the last cluster beyond one alpha, so a tree can come within a
few hundred us of it but not below it at small m. For large m a pipelined tree can beat the
per-hop m/bw terms; the "pipelined bound" (path latencies, ONE m/bw, alpha) is also printed.
Writes OUTDIR/bcast.csv (one row per root, algorithm and size: time, ratio to flat, to the
best SMPI algorithm, to the SPT bound) and OUTDIR/bcast.png (root 0: time against size).
"""
import csv
import fnmatch
import heapq
import os
import re
import sys

UNITS = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "bit/s": 1 / 8, "kbit/s": 1e3 / 8,
         "Mbit/s": 1e6 / 8, "Gbit/s": 1e9 / 8}
GRIDCOLL = ["flat", "binomial", "hlot", "spt", "greedy", "multilevel", "auto"]


def value(s):
    s = s.strip().strip('"')
    num, _, unit = s.partition(" ")
    return float(num) * UNITS.get(unit, 1)


def matrix(text, key):
    body = re.search(key + r"\s*=\s*\((.*?)\)\s*;", text, re.S).group(1)
    return [[value(v) for v in re.findall(r'"[^"]*"', row)] for row in re.findall(r"\(([^()]*)\)", body)]


def load_config(path):
    text = "\n".join(l.split("#")[0] for l in open(path))
    clusters = re.findall(r'name\s*=\s*"([^"]+)"\s*;\s*hosts\s*=\s*\[([^\]]*)\]', text)
    clusters = [(n, re.findall(r'"([^"]+)"', g)) for n, g in clusters]
    alpha = value(re.search(r'lan\s*=\s*\{[^}]*alpha\s*=\s*("[^"]+")', text).group(1))
    return clusters, alpha, matrix(text, "latency"), matrix(text, "bandwidth")


def cluster_of(host, clusters):
    return next(i for i, (_, globs) in enumerate(clusters) if any(fnmatch.fnmatch(host, g) for g in globs))


def spt_bound(r, m, lat, bw, alpha, pipelined=False):
    """max over clusters of the cheapest path from r (Dijkstra, hop = lat + m/bw) + alpha."""
    n = len(lat)
    dist, hops_bw = [float("inf")] * n, [0.0] * n
    dist[r] = 0.0
    heap = [(0.0, r)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        for j in range(n):
            if j != i and bw[i][j] > 0:
                w = lat[i][j] + (0 if pipelined else m / bw[i][j])
                if d + w < dist[j]:
                    dist[j] = d + w
                    hops_bw[j] = bw[i][j] if not hops_bw[i] else min(hops_bw[i], bw[i][j])
                    heapq.heappush(heap, (dist[j], j))
    if pipelined:  # one bandwidth term: the slowest link of the path
        return max(d + (m / b if b else 0) for d, b in zip(dist, hops_bw)) + alpha
    return max(dist) + alpha


def size_name(m):
    return f"{m >> 20} MiB" if m >= 1 << 20 else f"{m >> 10} KiB" if m >= 1024 else f"{m} B"


def is_smpi(a):
    return a not in GRIDCOLL and not a.endswith("+seg")


def main():
    out, config, hostfile = sys.argv[1:4]
    clusters, alpha, lat, bw = load_config(config)
    hosts = [l.split(":")[0].strip() for l in open(hostfile) if l.strip()]
    times = {}  # (root, algorithm) -> {m: seconds}
    with open(os.path.join(out, "bcast-raw.csv")) as f:
        for row in csv.DictReader(f):
            times.setdefault((int(row["root"]), row["algorithm"]), {})[int(row["m"])] = float(row["seconds"])
    roots = sorted({r for r, _ in times})
    rows = []
    for root in roots:
        rc = cluster_of(hosts[root], clusters)
        sizes = sorted({m for (r, _), t in times.items() if r == root for m in t})
        algos = sorted((a for r, a in times if r == root),
                       key=lambda a: (is_smpi(a), a.startswith("selector") is False,
                                      GRIDCOLL.index(a.split("+")[0]) if not is_smpi(a) else 0,
                                      min(times[(root, a)].values())))
        flat = times.get((root, "flat"), {})
        bound = {m: spt_bound(rc, m, lat, bw, alpha) for m in sizes}
        pipe = {m: spt_bound(rc, m, lat, bw, alpha, pipelined=True) for m in sizes}
        best = {m: min(((t[m], a) for (r, a), t in times.items() if r == root and is_smpi(a) and m in t),
                       default=None) for m in sizes}
        print(f"\n== korea8, root rank {root} (cluster {clusters[rc][0]}): simulated ms; "
              "(x.xx) = time / best SMPI algorithm's, [x.xx] = time / SPT bound")
        print(f"{'algorithm':28s}" + "".join(f"{size_name(m):>24s}" for m in sizes))
        print(f"{'SPT bound':28s}" + "".join(f"{bound[m] * 1e3:24.3f}" for m in sizes))
        print(f"{'pipelined bound':28s}" + "".join(f"{pipe[m] * 1e3:24.3f}" for m in sizes))
        print(f"{'best SMPI':28s}" + "".join(f"{best[m][1]:>24s}" if best[m] else f"{'-':>24s}" for m in sizes))
        for a in algos:
            cells = []
            for m in sizes:
                t = times[(root, a)].get(m)
                if t is None:
                    cells.append(f"{'-':>24s}")
                    continue
                rf = t / flat[m] if flat.get(m) else None
                rb = t / best[m][0] if best[m] else None
                rows.append([root, clusters[rc][0], a, m, t, rf, rb, t / bound[m], bound[m], pipe[m]])
                cells.append(f"{t * 1e3:10.3f} ({rb:5.2f}) [{t / bound[m]:5.2f}]")
            print(f"{a:28s}" + "".join(cells))
        print("ratio to flat: " + "; ".join(
            f"{a} " + " ".join(f"{times[(root, a)][m] / flat[m]:.3f}" for m in sizes if m in times[(root, a)] and flat.get(m))
            for a in algos if not is_smpi(a)))
    with open(os.path.join(out, "bcast.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["root", "root_cluster", "algorithm", "m", "seconds", "ratio_to_flat",
                    "ratio_to_best_smpi", "ratio_to_spt_bound", "spt_bound_s", "pipelined_bound_s"])
        for r in rows:
            w.writerow(["" if v is None else (f"{v:.6g}" if isinstance(v, float) else v) for v in r])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench-grid-bcast: matplotlib missing (python3-matplotlib): no plot")
        return
    root = roots[0]
    rc = cluster_of(hosts[root], clusters)
    sizes = sorted({m for (r, _), t in times.items() if r == root for m in t})
    fig, ax = plt.subplots(figsize=(10, 7))
    for (r, a), t in sorted(times.items()):
        if r != root:
            continue
        ms = sorted(t)
        style = dict(lw=2.5) if not is_smpi(a) else dict(lw=0.8, alpha=0.6, ls=":")
        ax.plot(ms, [t[m] for m in ms], marker=".", label=a, **style)
    ax.plot(sizes, [spt_bound(rc, m, lat, bw, alpha) for m in sizes], color="black", lw=2,
            ls="--", label="SPT bound")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sizes, [size_name(m) for m in sizes])
    ax.set_xlabel("message size")
    ax.set_ylabel("simulated time until the last rank has it (s)")
    ax.set_title(f"MPI_Bcast, SMPI korea8 (32 ranks), root rank {root} (cluster {clusters[rc][0]})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, ncol=3, loc="upper left")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bcast.png"), dpi=110)
    print(f"bench-grid-bcast: {out}/bcast.csv, {out}/bcast.png")


if __name__ == "__main__":
    main()
