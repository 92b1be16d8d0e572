#!/usr/bin/env python3
"""Table and plot of scripts/bench-alltoallv.sh's raw.csv.

For every layout, pattern and mean block size: gridcoll's lg and auto, the best of the
MPI library's own alltoallv algorithms (SMPI's, and the mpich and ompi selectors) and the
ratio best native / lg (above 1: lg is faster). For the uniform pattern the MPI_Alltoall
points too: gridcoll's LG all-to-all and SMPI's pair. Writes results.csv and
alltoallv.png (when matplotlib is there) beside raw.csv.
    bench-alltoallv-report.py OUT_DIR
"""
import csv
import os
import sys

GRIDCOLL = {"lg", "auto"}


def main(out):
    rows = list(csv.DictReader(open(os.path.join(out, "raw.csv"))))
    t = {}
    for r in rows:
        t[(r["layout"], r["algorithm"], r["op"], r["pattern"], int(r["m"]))] = float(r["seconds"])
    keys = sorted({(k[0], k[3], k[4]) for k in t if k[2] == "alltoallv"})
    natives = sorted({k[1] for k in t if k[1] not in GRIDCOLL})
    results = []
    print("layout  pattern   m(B)    lg(ms)   auto(ms)  best native(ms)           native/lg  a2a lg  a2a pair")
    for layout, pattern, m in keys:
        lg = t.get((layout, "lg", "alltoallv", pattern, m))
        auto = t.get((layout, "auto", "alltoallv", pattern, m))
        cands = [(t[(layout, a, "alltoallv", pattern, m)], a) for a in natives
                 if (layout, a, "alltoallv", pattern, m) in t]
        best, name = min(cands) if cands else (None, "-")
        a2a_lg = t.get((layout, "lg", "alltoall", pattern, m))
        a2a_pair = t.get((layout, "pair", "alltoall", pattern, m))
        ratio = best / lg if best and lg else None

        def ms(x):
            return "%9.3f" % (x * 1e3) if x is not None else "        -"
        print("%-7s %-8s %6d %s %s %s %-14s %7s %s %s" % (
            layout, pattern, m, ms(lg), ms(auto), ms(best), "(" + name + ")",
            "%.2f" % ratio if ratio else "-", ms(a2a_lg), ms(a2a_pair)))
        results.append({"layout": layout, "pattern": pattern, "m": m, "lg_s": lg, "auto_s": auto,
                        "best_native_s": best, "best_native": name, "native_over_lg": ratio,
                        "alltoall_lg_s": a2a_lg, "alltoall_pair_s": a2a_pair})
    model_errors(out, t)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(results[0].keys()) if results else ["layout"])
        w.writeheader()
        w.writerows(results)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench-alltoallv: no matplotlib, no plot")
        return
    layouts = sorted({r["layout"] for r in results})
    fig, axes = plt.subplots(1, len(layouts), figsize=(5 * len(layouts), 4), squeeze=False)
    for ax, layout in zip(axes[0], layouts):
        for pattern, colour in (("uniform", "C0"), ("skewed", "C1"), ("fft", "C2")):
            pts = [r for r in results if r["layout"] == layout and r["pattern"] == pattern]
            xs = [r["m"] for r in pts]
            ax.plot(xs, [r["lg_s"] for r in pts], "-o", color=colour, label=pattern + " lg")
            ax.plot(xs, [r["best_native_s"] for r in pts], "--x", color=colour,
                    label=pattern + " best native")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title("MPI_Alltoallv, " + layout)
        ax.set_xlabel("mean block (bytes)")
        ax.set_ylabel("simulated time (s)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "alltoallv.png"), dpi=100)
    print("bench-alltoallv: wrote", os.path.join(out, "alltoallv.png"))


def model_errors(out, t):
    """Each model against the run it describes, from the lg runs' logs (log-LAYOUT-lg.csv,
    rank 0, every algorithm's prediction): the bench makes a warm-up call and then the
    timed ones for every mean block size and pattern, in that order, so the last record of
    each group predicted on the matrix LG-v learnt from the same pattern. lgv-backbone is
    compared with lg's time, linear-grid-v with SMPI's default alltoallv (posted at once).
    auto's pick is the faster prediction, ties to the library's own."""
    patterns = ("uniform", "skewed", "fft")
    for layout in sorted({k[0] for k in t}):
        path = os.path.join(out, "log-%s-lg.csv" % layout)
        if not os.path.exists(path):
            continue
        recs = [r for r in csv.DictReader(open(path)) if r["op"] == "alltoallv"]
        sizes = sorted({k[4] for k in t if k[0] == layout and k[2] == "alltoallv"})
        if not sizes or len(recs) % (len(sizes) * len(patterns)):
            print("bench-alltoallv: %s: %d alltoallv records, not a whole number of groups" % (path, len(recs)))
            continue
        per = len(recs) // (len(sizes) * len(patterns))
        print("\n%s: model error (predicted/simulated - 1), auto's pick against the faster" % layout)
        print("pattern   m(B)   linear-grid-v  default(ms)  err    lgv-backbone  lg(ms)  err    "
              "auto picks  faster")
        for i, (m, pattern) in enumerate((m, p) for m in sizes for p in patterns):
            r = recs[(i + 1) * per - 1]
            cand = dict(c.split("=") for c in r["candidates"].split(";") if "=" in c)
            pn, pl = float(cand.get("native", "nan")), float(cand.get("lg", "nan"))
            dn = t.get((layout, "default", "alltoallv", pattern, m))
            dl = t.get((layout, "lg", "alltoallv", pattern, m))

            def err(p, d):
                return "%+6.0f%%" % ((p / d - 1) * 100) if d else "     -"
            pick = "lg" if pl < pn * (1 - 1e-9) else "native"
            faster = "-" if dn is None or dl is None else ("lg" if dl < dn else "native")
            print("%-8s %6d %12.3f %12s %s %12.3f %9s %s %10s %8s" % (
                pattern, m, pn * 1e3, "%.3f" % (dn * 1e3) if dn else "-", err(pn, dn),
                pl * 1e3, "%.3f" % (dl * 1e3) if dl else "-", err(pl, dl), pick, faster))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/bench-alltoallv")
