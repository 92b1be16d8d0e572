#!/usr/bin/env python3
"""bench-auto's report: reads OUT/raw.csv (simulated completion times) and
OUT/predicted.csv (gridcoll-predict), prints per scenario, collective, root and size every
algorithm's time, auto's pick, the % auto lost to the best algorithm and every model's
error; then per model the median and worst |predicted - actual| / actual. Writes
OUT/results.csv, OUT/errors.csv and OUT/auto.png (when matplotlib is there).

    scripts/bench-auto-report.py OUT
"""
import csv
import os
import statistics
import sys
from collections import defaultdict


def main():
    out = sys.argv[1]
    times = {}     # (scenario, op, root, m, algorithm) -> seconds (the last rep)
    picks = {}     # (scenario, op, root, m) -> what auto ran at its last rep
    auto_all = defaultdict(list)  # (scenario, op, root, m) -> auto's every timed call, learning included
    explored = defaultdict(list)  # (scenario, op, root, m) -> per timed call: measured for learning
    with open(os.path.join(out, "raw.csv")) as f:
        for r in csv.DictReader(f):
            key = (r["scenario"], r["op"], int(r["root"]), int(r["m"]))
            times[key + (r["algorithm"],)] = float(r["seconds"])
            if r["algorithm"] == "auto":
                picks[key] = r["ran"]
                auto_all[key].append(float(r["seconds"]))
                explored[key].append((r.get("explored") or "") == "1")
    pred, model = {}, {}
    with open(os.path.join(out, "predicted.csv")) as f:
        for r in csv.DictReader(f):
            if r["predicted"] in ("", "-"):
                continue
            key = (r["scenario"], r["op"], int(r["root"]), int(r["bytes"]), r["algorithm"])
            pred[key] = float(r["predicted"])
            model[key] = r["model"]

    cases = sorted({k[:4] for k in times})
    rows, errors = [], defaultdict(list)
    lost_all, mean_lost_all = [], []
    for case in cases:
        algs = sorted(a for (*c, a) in times if tuple(c) == case and a != "auto")
        if not algs:
            continue
        best = min(algs, key=lambda a: times[case + (a,)])
        auto = times.get(case + ("auto",))
        lost = 100.0 * (auto / times[case + (best,)] - 1) if auto else float("nan")
        lost_all.append(lost)
        # Learning's price: auto's mean over all its timed calls (exploring ones included).
        calls = auto_all.get(case, [])
        mean_lost = (100.0 * (statistics.mean(calls) / times[case + (best,)] - 1)
                     if calls else float("nan"))
        mean_lost_all.append(mean_lost)
        for a in algs:
            t = times[case + (a,)]
            p = pred.get(case + (a,))
            err = 100.0 * (p - t) / t if p is not None else None
            if err is not None:
                errors[(case[1], a, model[case + (a,)])].append((abs(err), case))
            rows.append(dict(scenario=case[0], op=case[1], root=case[2], m=case[3], algorithm=a,
                             model=model.get(case + (a,), ""), actual_s=t,
                             predicted_s=p if p is not None else "",
                             error_pct=f"{err:.1f}" if err is not None else "",
                             best=best, auto_ran=picks.get(case, ""),
                             auto_lost_pct=f"{lost:.1f}",
                             auto_mean_lost_pct=f"{mean_lost:.1f}"))

    scen = None
    for case in cases:
        if case[:3] != scen:
            scen = case[:3]
            algs = sorted({r["algorithm"] for r in rows if (r["scenario"], r["op"], r["root"]) == scen})
            root = "" if scen[1] == "alltoall" else f", root {scen[2]}"
            print(f"\n== {scen[0]} {scen[1]}{root}: simulated ms (model error %)")
            print(f"{'bytes':>8} " + " ".join(f"{a:>17}" for a in algs) +
                  "  auto ran   lost  (mean of its calls)")
        cells = []
        line = [r for r in rows if (r["scenario"], r["op"], r["root"], r["m"]) == case]
        byalg = {r["algorithm"]: r for r in line}
        for a in algs:
            r = byalg.get(a)
            if not r:
                cells.append(f"{'-':>17}")
                continue
            e = f"({float(r['error_pct']):+.0f}%)" if r["error_pct"] else ""
            cells.append(f"{1000 * r['actual_s']:>9.2f}{e:>8}")
        r0 = line[0]
        print(f"{case[3]:>8} " + " ".join(cells) +
              f"  {r0['auto_ran'] or '?':>8} {float(r0['auto_lost_pct']):>5.1f}%"
              f"  ({float(r0['auto_mean_lost_pct']):>5.1f}%)")

    print("\n== models: |predicted - actual| / actual over every scenario, root and size")
    print(f"{'op':>9} {'algorithm':>11} {'model':>22} {'n':>4} {'median':>7} {'worst':>7}  where")
    err_rows = []
    for (op, a, m), v in sorted(errors.items()):
        med = statistics.median(e for e, _ in v)
        worst, where = max(v)
        print(f"{op:>9} {a:>11} {m:>22} {len(v):>4} {med:>6.1f}% {worst:>6.1f}%  "
              f"{where[0]} root {where[2]} {where[3]} B")
        err_rows.append(dict(op=op, algorithm=a, model=m, n=len(v), median_pct=f"{med:.1f}",
                             worst_pct=f"{worst:.1f}"))
    per_size = defaultdict(list)
    for (op, a, m), v in errors.items():
        for e, case in v:
            per_size[(op, a, case[3])].append(e)
    bad = [(statistics.median(v), k) for k, v in per_size.items() if statistics.median(v) > 10]
    print(f"\nper (algorithm, size) medians above 10%: {len(bad)} of {len(per_size)}")
    for med, k in sorted(bad, reverse=True)[:12]:
        print(f"  {k[0]} {k[1]} {k[2]} B: {med:.1f}%")
    if lost_all:
        print(f"\nauto lost to the best: median {statistics.median(lost_all):.1f}%, worst "
              f"{max(lost_all):.1f}%, within 2% in {sum(l <= 2 for l in lost_all)} of "
              f"{len(lost_all)} cases (steady state: auto's last call)")
        ok = [l for l in mean_lost_all if l == l]
        if ok:
            print(f"auto's mean over all its calls, learning included: median "
                  f"{statistics.median(ok):.1f}%, worst {max(ok):.1f}% above the best")

    learning_table(out, cases, times, auto_all, explored)

    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["scenario"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "errors.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["op", "algorithm", "model", "n", "median_pct",
                                          "worst_pct"])
        w.writeheader()
        w.writerows(err_rows)
    plot(out, rows, cases)


def learning_table(out, cases, times, auto_all, explored):
    """What learning cost (issue 26), per scenario, size and root: auto's mean over its first
    15 and first 1000 timed calls against the best forced algorithm's time, its steady loss
    (last call), the calls it measured, and its worst measured call among the first 15
    against the best time auto had seen before it. Written to OUT/learning.csv too."""
    rows = []
    for case in cases:
        calls = auto_all.get(case, [])
        forced = {a: times[case + (a,)] for (*c, a) in times if tuple(c) == case and a != "auto"}
        if not calls or not forced:
            continue
        best = min(forced, key=forced.get)
        b = forced[best]
        pct = lambda v: 100.0 * (v / b - 1)
        first15, first1000 = calls[:15], calls[:1000]
        flags = explored.get(case, [])
        worst = 0.0
        for i, t in enumerate(first15):
            if i and i < len(flags) and flags[i]:
                worst = max(worst, t / min(first15[:i]))
        rows.append(dict(scenario=case[0], op=case[1], root=case[2], m=case[3], best=best,
                         best_s=b, calls=len(calls),
                         first15_pct=f"{pct(statistics.mean(first15)):.1f}",
                         first1000_pct=f"{pct(statistics.mean(first1000)):.1f}",
                         steady_pct=f"{pct(calls[-1]):.1f}",
                         explored=sum(flags) if flags else "",
                         worst_explore_x=f"{worst:.2f}" if flags else ""))
    if not rows:
        return
    print("\n== auto's learning: mean of its first 15 and first 1000 timed calls (or all, when "
          "fewer) and its last, % above the best forced algorithm; explored = timed calls "
          "measured for learning; worst = its slowest measured call among the first 15 over "
          "the best time seen before it")
    print(f"{'scenario':>11} {'op':>8} {'root':>4} {'bytes':>8} {'best':>10} {'ms':>9} "
          f"{'calls':>5} {'first15':>8} {'first1000':>9} {'steady':>7} {'explored':>8} {'worst':>6}")
    for r in rows:
        print(f"{r['scenario']:>11} {r['op']:>8} {r['root']:>4} {r['m']:>8} {r['best']:>10} "
              f"{1000 * r['best_s']:>9.2f} {r['calls']:>5} {r['first15_pct']:>7}% "
              f"{r['first1000_pct']:>8}% {r['steady_pct']:>6}% {r['explored']!s:>8} "
              f"{r['worst_explore_x']:>5}x")
    f15 = [float(r["first15_pct"]) for r in rows]
    print(f"first 15 within 5% of the best in {sum(v <= 5 for v in f15)} of {len(rows)} cases "
          f"(median {statistics.median(f15):.1f}%, worst {max(f15):.1f}%)")
    with open(os.path.join(out, "learning.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def plot(out, rows, cases):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench-auto: no matplotlib, no auto.png", file=sys.stderr)
        return
    panels = sorted({c[:3] for c in cases})
    cols = 4
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 4 * nrows), squeeze=False)
    for ax, p in zip(axes.flat, panels):
        sub = [r for r in rows if (r["scenario"], r["op"], r["root"]) == p]
        algs = sorted({r["algorithm"] for r in sub})
        for i, a in enumerate(algs):
            pts = sorted((r["m"], r["actual_s"], r["predicted_s"]) for r in sub
                         if r["algorithm"] == a)
            line, = ax.plot([x[0] for x in pts], [x[1] for x in pts], "-o", ms=3, label=a)
            pp = [(x[0], x[2]) for x in pts if x[2] != ""]
            # predictions dashed, nudged apart so that equal ones stay visible
            ax.plot([x[0] * (1 + 0.04 * i) for x in pp], [x[1] for x in pp], "--x", ms=4,
                    color=line.get_color(), alpha=0.6)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{p[0]} {p[1]}" + ("" if p[1] == "alltoall" else f" root {p[2]}"),
                     fontsize=9)
        ax.set_xlabel("bytes")
        ax.set_ylabel("s (solid: simulated, dashed: model)")
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "auto.png"), dpi=90)


if __name__ == "__main__":
    main()
