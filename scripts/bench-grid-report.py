#!/usr/bin/env python3
"""Table, CSV and plot of scripts/bench-grid.sh's simulated timings.

    scripts/bench-grid-report.py OUTDIR     (reads OUTDIR/raw.csv)

Lower bounds per layout (clusters of n1 and n2 processes, n = n1 + n2, blocks of m bytes),
with the g5k2 platform's numbers (1 Gbit/s NICs, 50 us host to host, one 10 Gbit/s wide-area
link per direction with 5.5 ms latency):
  NIC      (n - 1) m / NIC bandwidth + latency        (000 Prop. 1)
  backbone n1 n2 m / WAN bandwidth + WAN latency      (every block crosses the link once)
  bound    the larger of the two.
Writes OUTDIR/results.csv (one row per layout, algorithm and size, with the ratio to LG and
to the bound) and OUTDIR/alltoall.png; prints the table.
"""
import csv
import os
import sys

NIC_BW, LAN_LAT = 1e9 / 8, 50e-6
WAN_BW, WAN_LAT = 10e9 / 8, 5.5e-3
LAYOUTS = {"g5k2": (32, 32), "16x48": (16, 48)}


def bounds(layout, m):
    n1, n2 = LAYOUTS[layout]
    nic = (n1 + n2 - 1) * m / NIC_BW + LAN_LAT
    backbone = n1 * n2 * m / WAN_BW + WAN_LAT
    return nic, backbone, max(nic, backbone)


def size_name(m):
    return f"{m >> 20} MiB" if m >= 1 << 20 else f"{m >> 10} KiB" if m >= 1024 else f"{m} B"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "out/bench-grid"
    times = {}  # (layout, algorithm) -> {m: seconds}
    with open(os.path.join(out, "raw.csv")) as f:
        for row in csv.DictReader(f):
            times.setdefault((row["layout"], row["algorithm"]), {})[int(row["m"])] = float(
                row["seconds"])
    layouts = [l for l in LAYOUTS if any(k[0] == l for k in times)]
    rows = []
    for layout in layouts:
        algos = sorted((a for l, a in times if l == layout),
                       key=lambda a: (a not in ("lg", "auto"), not a.startswith("selector"), a))
        sizes = sorted({m for (l, _), t in times.items() if l == layout for m in t})
        lg = times.get((layout, "lg"), {})
        n1, n2 = LAYOUTS[layout]
        print(f"\n== {layout}: {n1}+{n2} ranks; simulated ms; (x.xx) = time / LG time")
        print(f"{'algorithm':24s}" + "".join(f"{size_name(m):>17s}" for m in sizes))
        for what in ("NIC bound", "backbone bound"):
            i = 0 if what == "NIC bound" else 1
            print(f"{what:24s}" + "".join(f"{bounds(layout, m)[i] * 1e3:17.2f}" for m in sizes))
        for a in algos:
            cells = []
            for m in sizes:
                t = times[(layout, a)].get(m)
                nic, backbone, bound = bounds(layout, m)
                ratio_lg = t / lg[m] if t is not None and lg.get(m) else None
                rows.append([layout, a, m, t, ratio_lg, t / bound if t else None, nic, backbone])
                if t is None:
                    cells.append(f"{'-':>17s}")
                elif a == "lg":
                    cells.append(f"{t * 1e3:9.2f} [{t / bound:4.2f}]")
                else:
                    cells.append(f"{t * 1e3:9.2f} ({ratio_lg:4.2f})" if ratio_lg else
                                 f"{t * 1e3:17.2f}")
            print(f"{a:24s}" + "".join(cells))
        print("[x.xx] = LG time / max(NIC bound, backbone bound)")
        best = {m: min(((t.get(m), a) for (l, a), t in times.items()
                        if l == layout and a not in ("lg", "auto") and t.get(m)), default=None)
                for m in sizes}
        mpich = times.get((layout, "selector:mpich"), {})
        print("mpich selector / LG: " + ", ".join(
            f"{size_name(m)} {mpich[m] / lg[m]:.2f}" for m in sizes if mpich.get(m) and lg.get(m)))
        print("best SMPI algorithm / LG: " + ", ".join(
            f"{size_name(m)} {b[1]} {b[0] / lg[m]:.2f}" for m, b in best.items() if b and lg.get(m)))
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["layout", "algorithm", "m", "seconds", "ratio_to_lg", "ratio_to_bound",
                    "nic_bound_s", "backbone_bound_s"])
        for r in rows:
            w.writerow(["" if v is None else (f"{v:.6g}" if isinstance(v, float) else v)
                        for v in r])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench-grid: matplotlib missing (python3-matplotlib): no plot")
        return
    fig, axes = plt.subplots(1, len(layouts), figsize=(7 * len(layouts), 6), squeeze=False)
    for ax, layout in zip(axes[0], layouts):
        sizes = sorted({m for (l, _), t in times.items() if l == layout for m in t})
        for (l, a), t in sorted(times.items()):
            if l != layout:
                continue
            ms = sorted(t)
            style = dict(lw=3, color="black") if a == "lg" else dict(lw=1, alpha=0.7)
            ax.plot(ms, [t[m] / bounds(layout, m)[2] for m in ms], marker=".", label=a, **style)
        ax.axhline(1.15, ls="--", color="red", lw=1, label="1.15 x bound")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes, [size_name(m) for m in sizes])
        ax.set_xlabel("block size m (bytes to each peer)")
        ax.set_ylabel("time / lower bound")
        n1, n2 = LAYOUTS[layout]
        ax.set_title(f"MPI_Alltoall, SMPI {layout} ({n1}+{n2} ranks)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][-1].legend(fontsize=7, ncol=2, loc="upper right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "alltoall.png"), dpi=110)
    print(f"bench-grid: {out}/results.csv, {out}/alltoall.png")


if __name__ == "__main__":
    main()
