#!/usr/bin/env python3
"""Tables, results.csv and a plot from scripts/bench-multihost.sh's runs.

usage: bench-multihost-report.py OUT GRID.cfg...

OUT/<grid>/ holds, per run NAME (alltoall-<alg>, bcast-<alg>): NAME.times (gridbench's
"op,root,bytes,rep,seconds"), NAME-0.csv (rank 0's gridcoll log: the algorithm each call
used and its prediction), grid.txt (scripts/grid-up's state: clusters, hosts, links) and
drops.txt (frames the backbone queues dropped per run)."""
import csv
import os
import statistics
import sys


def load_grid(path):
    hosts, clusters, links = [], [], []
    with open(path) as f:
        for line in f:
            w = line.split()
            if line.startswith("hosts="):
                hosts = line[len("hosts="):].split()
            elif w and w[0] == "cluster":
                clusters.append((w[1], w[2:]))
            elif w and w[0] == "link":
                links.append((w[1], w[2], float(w[3]), float(w[4]), int(w[5])))
    cluster_of = {h: c for c, hs in clusters for h in hs}
    return hosts, clusters, links, cluster_of


def alltoallv_table(d, g):
    """MPI_Alltoallv on grid g: native against lg per pattern and mean block, from
    alltoallv-<alg>.vtimes (alltoallv_bench: best of REPS, the slowest rank's time), and
    both models' predictions from lg's rank-0 log (every algorithm's prediction; the bench
    makes a warm-up call then REPS timed ones per size and pattern, so the last record of
    each group predicted on the matrix LG-v learnt from that pattern)."""
    t = {}
    for alg in ("native", "lg"):
        path = os.path.join(d, "alltoallv-%s.vtimes" % alg)
        if os.path.exists(path):
            for _, _, pattern, _, m, sec in csv.reader(open(path)):
                t[(alg, pattern, int(m))] = float(sec)
    if not t:
        return
    patterns = ("uniform", "skewed", "fft")
    sizes = sorted({k[2] for k in t})
    groups = [(m, p) for m in sizes for p in patterns]
    preds = {}
    logp = os.path.join(d, "alltoallv-lg-0.csv")
    if os.path.exists(logp):
        recs = [r for r in csv.DictReader(open(logp)) if r["op"] == "alltoallv"]
        if recs and len(recs) % len(groups) == 0:
            per = len(recs) // len(groups)
            for i, key in enumerate(groups):
                r = recs[(i + 1) * per - 1]
                preds[key] = dict((c.split("=")[0], float(c.split("=")[1]))
                                  for c in r["candidates"].split(";") if "=" in c)
    print(f"\n{g} alltoallv: ms, best of the timed calls (native / lg); predictions "
          "(linear-grid-v for native, lgv-backbone for lg) and their error")
    print(f"{'pattern':<8} {'m':>7} {'native':>9} {'lg':>9} {'ratio':>6} "
          f"{'pred nat':>9} {'err':>6} {'pred lg':>9} {'err':>6}  auto would pick")
    for m, p in groups:
        n, l = t.get(("native", p, m)), t.get(("lg", p, m))
        pr = preds.get((m, p), {})
        pn, pl = pr.get("native"), pr.get("lg")

        def ms(x):
            return f"{x * 1e3:9.2f}" if x is not None else f"{'-':>9}"

        def err(a, b):
            return f"{(a / b - 1) * 100:+5.0f}%" if a is not None and b else f"{'-':>6}"
        pick = "-" if pn is None or pl is None else ("lg" if pl < pn * (1 - 1e-9) else "native")
        ratio = f"{n / l:6.2f}" if n and l else f"{'-':>6}"
        print(f"{p:<8} {m:>7} {ms(n)} {ms(l)} {ratio} {ms(pn)} {err(pn, n)} {ms(pl)} {err(pl, l)}  {pick}")


def main():
    out, grids = sys.argv[1], [g[:-4] if g.endswith(".cfg") else g for g in sys.argv[2:]]
    rows = []  # grid, op, root cluster, algorithm, chosen, bytes, times, predictions
    for g in grids:
        d = os.path.join(out, g)
        hosts, clusters, links, cluster_of = load_grid(os.path.join(d, "grid.txt"))
        print(f"\n=== {g}: " + ", ".join(f"{c} = {' '.join(hs)}" for c, hs in clusters))
        print("    links (one way, rate, queue): " + "; ".join(
            f"{a}->{b} {dl * 1e3:g} ms {r * 8 / 1e6:g} Mbit/s {q // 1024} KiB" for a, b, dl, r, q in links))
        for name in sorted(n[:-6] for n in os.listdir(d) if n.endswith(".times")):
            op, alg = name.split("-", 1)
            times = {}
            with open(os.path.join(d, name + ".times")) as f:
                for o, root, m, _, s in csv.reader(f):
                    times.setdefault((int(root), int(m)), []).append(float(s))
            preds, chosen = {}, {}
            logp = os.path.join(d, name + "-0.csv")
            if os.path.exists(logp):
                with open(logp) as f:
                    for r in csv.DictReader(f):
                        if r["op"] != op:
                            continue
                        key = (int(r["root"]) if op == "bcast" else -1, int(r["bytes"]))
                        if r["predicted_s"]:  # empty: no prediction (relay where its routes relay nothing)
                            preds.setdefault(key, []).append(float(r["predicted_s"]))
                        chosen.setdefault(key, []).append(r["algorithm"])
            for (root, m), ts in sorted(times.items()):
                rc = cluster_of[hosts[root]] if root >= 0 else "-"
                ch = statistics.mode(chosen.get((root, m), ["?"]))
                rows.append((g, op, rc, alg, ch, m, ts, preds.get((root, m), [])))
    native = {(g, op, rc, m): statistics.median(ts)
              for g, op, rc, alg, _, m, ts, _ in rows if alg == "native"}
    with open(os.path.join(out, "results.csv"), "w") as f:
        f.write("grid,op,root_cluster,algorithm,chosen,bytes,measurements,median_s,native_over_this,"
                "median_predicted_s,median_rel_error\n")
        for g, op, rc, alg, ch, m, ts, ps in rows:
            med = statistics.median(ts)
            pred = statistics.median(ps) if ps else float("nan")
            err = statistics.median(abs(pred - t) / t for t in ts if t > 0) if ps else float("nan")
            f.write(f"{g},{op},{rc},{alg},{ch},{m},{len(ts)},{med:.6g},"
                    f"{native[(g, op, rc, m)] / med:.4g},{pred:.6g},{err:.4g}\n")

    def spt_bound(links, src):
        """Largest over clusters of the cheapest sum of one-way delays from src (Dijkstra):
        what no broadcast from src can beat, whatever its tree (small messages)."""
        dist, todo = {src: 0.0}, {a for a, *_ in links} | {b for _, b, *_ in links}
        while todo:
            u = min((c for c in todo if c in dist), key=dist.get, default=None)
            if u is None:
                break
            todo.discard(u)
            for a, b, dl, *_ in links:
                if a == u and dist[u] + dl < dist.get(b, float("inf")):
                    dist[b] = dist[u] + dl
        return max(dist.values())

    def table(g, op, rc):
        sel = [r for r in rows if r[0] == g and r[1] == op and r[2] == rc]
        sizes = sorted({r[5] for r in sel})
        algs = list(dict.fromkeys(r[3] for r in sel))
        algs.sort(key=lambda a: (a != "native", a == "auto"))
        head = "alltoall" if op == "alltoall" else f"bcast from cluster {rc}"
        print(f"\n{g} {head}: median ms (native / this) [median |predicted - actual| / actual]")
        if op == "bcast":
            links = load_grid(os.path.join(out, g, "grid.txt"))[2]
            direct = max(dl for a, b, dl, *_ in links if a == rc)
            print(f"(one-way delays from {rc}: largest direct {direct * 1e3:g} ms, "
                  f"largest over the cheapest routes {spt_bound(links, rc) * 1e3:g} ms)")
        print(f"{'algorithm':<18}" + "".join(f"{(str(m // 1024) + ' KiB') if m < 1 << 20 else '1 MiB':>25}" for m in sizes))
        for a in algs:
            cells, picks = [], set()
            for m in sizes:
                r = [x for x in sel if x[3] == a and x[5] == m]
                if not r:
                    cells.append(f"{'-':>25}")
                    continue
                _, _, _, _, ch, _, ts, ps = r[0]
                picks.add(ch)
                med = statistics.median(ts)
                err = f"{100 * statistics.median(abs(statistics.median(ps) - t) / t for t in ts if t > 0):4.0f}%" \
                    if ps else "    -"  # no prediction: relay where its routes relay nothing
                cells.append(f"{med * 1e3:9.2f} ({native[(g, op, rc, m)] / med:5.2f}) [{err}]")
            label = a if a != "auto" else "auto"
            print(f"{label:<18}" + "".join(f"{c:>25}" for c in cells))
        autos = [(x[5], x[4]) for x in sel if x[3] == "auto"]
        if autos:
            print("auto chose: " + ", ".join(f"{m // 1024} KiB {ch}" for m, ch in sorted(autos)))

    def errors_from(g, lo):
        """Per operation and algorithm, the median and the worst over (root, size >= lo) of
        each point's median |predicted - actual| / actual (issue 25's goal: median <= 25%
        from 64 KiB, on a configuration gridcoll-calibrate wrote on the rig)."""
        per = {}
        for gg, op, rc, alg, ch, m, ts, ps in rows:
            if gg != g or m < lo or not ps:
                continue
            pred = statistics.median(ps)
            per.setdefault((op, alg), []).append(
                statistics.median((pred - t) / t for t in ts if t > 0))
        if not per:
            return
        print(f"\n{g}: model errors from {lo // 1024} KiB, |predicted - actual| / actual "
              "over roots and sizes: median, worst (signed)")
        for (op, alg), es in sorted(per.items()):
            worst = max(es, key=abs)
            print(f"  {op:<9} {alg:<11} {100 * statistics.median(abs(e) for e in es):5.1f}%  "
                  f"{100 * worst:+6.1f}%  ({len(es)} points)")

    for g in grids:
        if any(r[0] == g and r[1] == "alltoall" for r in rows):
            table(g, "alltoall", "-")
        alltoallv_table(os.path.join(out, g), g)
        for rc in dict.fromkeys(r[2] for r in rows if r[0] == g and r[1] == "bcast"):
            table(g, "bcast", rc)
        errors_from(g, 64 * 1024)
        drops = os.path.join(out, g, "drops.txt")
        if os.path.exists(drops):
            with open(drops) as f:
                print(f"\n{g}: frames dropped by the backbone queues, per run: " +
                      ", ".join(" ".join(l.split()) for l in f if l.strip()))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no python3-matplotlib: no plot)")
        return
    panels = [(g, op, rc) for g in grids for op, rc in dict.fromkeys((r[1], r[2]) for r in rows if r[0] == g)]
    if not panels:  # only MPI_Alltoallv was run: its tables are the report
        return
    cols = max(sum(1 for p in panels if p[0] == g) for g in grids)
    fig, axes = plt.subplots(len(grids), cols, figsize=(4.2 * cols, 3.6 * len(grids)), squeeze=False)
    for i, g in enumerate(grids):
        mine = [p for p in panels if p[0] == g]
        for j in range(cols):
            ax = axes[i][j]
            if j >= len(mine):
                ax.axis("off")
                continue
            _, op, rc = mine[j]
            sel = [r for r in rows if r[0] == g and r[1] == op and r[2] == rc]
            for a in dict.fromkeys(r[3] for r in sel):
                pts = sorted((r[5], statistics.median(r[6]) * 1e3) for r in sel if r[3] == a)
                style = "k-o" if a == "native" else ("--" if a == "auto" else "-")
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=a, markersize=3)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"{g}: " + ("all-to-all" if op == "alltoall" else f"bcast from {rc}"), fontsize=9)
            ax.set_xlabel("bytes per block" if op == "alltoall" else "bytes")
            ax.set_ylabel("median ms")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bench-multihost.png"), dpi=110)


main()
