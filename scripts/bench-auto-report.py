#!/usr/bin/env python3
"""bench-auto's report: reads OUT/raw.csv (simulated times: every rank enters together, so
each is the collective's own time) and OUT/predicted.csv (gridcoll-predict), prints per
network setting, scenario, collective, root and size every algorithm's time, auto's pick,
the % auto lost to the best algorithm and every model's error; then per scenario and per
model the median and worst |predicted - actual| / actual under each setting, and auto's
losses per setting. Writes OUT/results.csv, OUT/errors.csv and OUT/auto.png (when
matplotlib is there).

    scripts/bench-auto-report.py OUT
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

GOAL_MEDIAN, GOAL_WORST, GOAL_AUTO = 10.0, 25.0, 2.0  # issue 25's "done when"


def main():
    out = sys.argv[1]
    times = {}     # (net, scenario, op, root, m, algorithm) -> seconds (the last rep)
    picks = {}     # (net, scenario, op, root, m) -> what auto ran at its last rep
    auto_all = defaultdict(list)  # (net, scenario, op, root, m) -> auto's every timed call
    explored = defaultdict(list)  # (net, scenario, op, root, m) -> per timed call: measured for learning
    ran_all = defaultdict(list)   # (net, scenario, op, root, m) -> per timed call: what auto ran
    with open(os.path.join(out, "raw.csv")) as f:
        for r in csv.DictReader(f):
            key = (r["network"], r["scenario"], r["op"], int(r["root"]), int(r["m"]))
            times[key + (r["algorithm"],)] = float(r["seconds"])
            if r["algorithm"] == "auto":
                picks[key] = r["ran"]
                auto_all[key].append(float(r["seconds"]))
                explored[key].append((r.get("explored") or "") == "1")
                ran_all[key].append(r["ran"])
    pred, model = {}, {}
    with open(os.path.join(out, "predicted.csv")) as f:
        for r in csv.DictReader(f):
            if r["predicted"] in ("", "-"):
                continue
            key = (r["network"], r["scenario"], r["op"], int(r["root"]), int(r["bytes"]),
                   r["algorithm"])
            pred[key] = float(r["predicted"])
            model[key] = r["model"]

    nets = list(dict.fromkeys(k[0] for k in times))  # in the order the bench ran them
    cases = sorted({k[:5] for k in times}, key=lambda c: (nets.index(c[0]),) + c[1:])
    rows = []
    errors = defaultdict(list)  # (net, op, algorithm, model) -> [(|err|, case)]
    lost = defaultdict(list)    # net -> [(lost %, case, auto ran, best)]
    mean_lost = defaultdict(list)
    for case in cases:
        algs = sorted(a for (*c, a) in times if tuple(c) == case and a != "auto")
        if not algs:
            continue
        best = min(algs, key=lambda a: times[case + (a,)])
        auto = times.get(case + ("auto",))
        loss = 100.0 * (auto / times[case + (best,)] - 1) if auto else float("nan")
        lost[case[0]].append((loss, case, picks.get(case, ""), best))
        # Learning's price: auto's mean over all its timed calls (exploring ones included).
        calls = auto_all.get(case, [])
        ml = (100.0 * (statistics.mean(calls) / times[case + (best,)] - 1)
              if calls else float("nan"))
        mean_lost[case[0]].append(ml)
        for a in algs:
            t = times[case + (a,)]
            p = pred.get(case + (a,))
            err = 100.0 * (p - t) / t if p is not None else None
            if err is not None:
                errors[(case[0], case[2], a, model[case + (a,)])].append((abs(err), err, case))
            rows.append(dict(network=case[0], scenario=case[1], op=case[2], root=case[3],
                             m=case[4], algorithm=a, model=model.get(case + (a,), ""),
                             actual_s=t, predicted_s=p if p is not None else "",
                             error_pct=f"{err:.1f}" if err is not None else "",
                             best=best, auto_ran=picks.get(case, ""),
                             auto_lost_pct=f"{loss:.1f}", auto_mean_lost_pct=f"{ml:.1f}"))

    panel = None
    for case in cases:
        if case[:4] != panel:
            panel = case[:4]
            algs = sorted({r["algorithm"] for r in rows
                           if (r["network"], r["scenario"], r["op"], r["root"]) == panel})
            root = "" if panel[2] == "alltoall" else f", root {panel[3]}"
            print(f"\n== [{panel[0]}] {panel[1]} {panel[2]}{root}: simulated ms (model error %)")
            print(f"{'bytes':>8} " + " ".join(f"{a:>17}" for a in algs) +
                  "  auto ran   lost  (mean of its calls)")
        line = [r for r in rows if (r["network"], r["scenario"], r["op"], r["root"], r["m"]) == case]
        if not line:
            continue
        byalg = {r["algorithm"]: r for r in line}
        cells = []
        for a in algs:
            r = byalg.get(a)
            if not r:
                cells.append(f"{'-':>17}")
                continue
            e = f"({float(r['error_pct']):+.0f}%)" if r["error_pct"] else ""
            cells.append(f"{1000 * r['actual_s']:>9.2f}{e:>8}")
        r0 = line[0]
        print(f"{case[4]:>8} " + " ".join(cells) +
              f"  {r0['auto_ran'] or '?':>8} {float(r0['auto_lost_pct']):>5.1f}%"
              f"  ({float(r0['auto_mean_lost_pct']):>5.1f}%)")

    def cell(v):
        if not v:
            return f"{'':>15}"
        return f"{statistics.median(e for e, _, _ in v):>6.1f}% {max(v)[0]:>6.1f}%"

    # Per scenario: every model's median and worst under each setting.
    scenarios = sorted({c[1] for c in cases})
    head = " ".join(f"{'[' + n + '] median worst':>15}" for n in nets)
    print("\n== models per scenario: |predicted - actual| / actual, median and worst over roots and sizes")
    print(f"{'scenario':>10} {'op':>8} {'algorithm':>11} {'model':>14} {head}")
    for sc in scenarios:
        keys = sorted({(op, a, m) for (n, op, a, m), v in errors.items()
                       for _, _, c in v if c[1] == sc})
        for op, a, m in keys:
            cols = [cell([x for x in errors.get((n, op, a, m), []) if x[2][1] == sc]) for n in nets]
            print(f"{sc:>10} {op:>8} {a:>11} {m:>14} {' '.join(cols)}")

    print("\n== models: |predicted - actual| / actual over every scenario, root and size "
          f"(goals: median <= {GOAL_MEDIAN:.0f}%, worst <= {GOAL_WORST:.0f}%)")
    print(f"{'network':>8} {'op':>8} {'algorithm':>11} {'model':>14} {'n':>4} {'median':>7} "
          f"{'worst':>7}  where (signed)")
    err_rows = []
    for (net, op, a, m), v in sorted(errors.items(), key=lambda kv: (nets.index(kv[0][0]),) + kv[0][1:]):
        med = statistics.median(e for e, _, _ in v)
        worst, signed, where = max(v)
        miss = "" if med <= GOAL_MEDIAN and worst <= GOAL_WORST else "  *"
        print(f"{net:>8} {op:>8} {a:>11} {m:>14} {len(v):>4} {med:>6.1f}% {worst:>6.1f}%  "
              f"{where[1]} root {where[3]} {where[4]} B ({signed:+.0f}%){miss}")
        err_rows.append(dict(network=net, op=op, algorithm=a, model=m, n=len(v),
                             median_pct=f"{med:.1f}", worst_pct=f"{worst:.1f}"))
    print("  (* misses a goal)")
    per_size = defaultdict(list)
    for (net, op, a, m), v in errors.items():
        for e, _, case in v:
            per_size[(net, op, a, case[4])].append(e)
    for net in nets:
        mine = {k: v for k, v in per_size.items() if k[0] == net}
        bad = [(statistics.median(v), k) for k, v in mine.items() if statistics.median(v) > GOAL_MEDIAN]
        print(f"\n[{net}] per (algorithm, size) medians above {GOAL_MEDIAN:.0f}%: {len(bad)} of {len(mine)}")
        for med, k in sorted(bad, reverse=True)[:12]:
            print(f"  {k[1]} {k[2]} {k[3]} B: {med:.1f}%")

    for net in nets:
        v = [x for x in lost[net] if x[0] == x[0]]
        if not v:
            continue
        ls = [x[0] for x in v]
        print(f"\n[{net}] auto lost to the best: median {statistics.median(ls):.1f}%, worst "
              f"{max(ls):.1f}%, within {GOAL_AUTO:.0f}% in {sum(l <= GOAL_AUTO for l in ls)} of "
              f"{len(ls)} cases (steady state: auto's last call)")
        for loss, c, ran, best in sorted(v, reverse=True):
            if loss <= GOAL_AUTO:
                break
            print(f"  {c[1]} {c[2]}{'' if c[2] == 'alltoall' else ' root %d' % c[3]} {c[4]} B: "
                  f"ran {ran or '?'}, best {best}, lost {loss:.1f}%")
        ok = [x for x in mean_lost[net] if x == x]
        if ok:
            print(f"  auto's mean over all its calls, learning included: median "
                  f"{statistics.median(ok):.1f}%, worst {max(ok):.1f}% above the best")

    learning_table(out, cases, times, auto_all, explored, ran_all)

    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["network"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "errors.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["network", "op", "algorithm", "model", "n",
                                          "median_pct", "worst_pct"])
        w.writeheader()
        w.writerows(err_rows)
    plot(out, rows, cases)


def learning_table(out, cases, times, auto_all, explored, ran_all):
    """What learning cost (issue 26), per setting, scenario, size and root: auto's mean over
    its first 15 and first 1000 timed calls against the best forced algorithm's time, its
    steady loss (last call), the calls it measured, its worst measured call among the
    first 15 against the best time auto had seen before it, and the first timed call (from 1)
    that ran the best forced algorithm or one within 0.5% of it. Written to OUT/learning.csv
    too."""
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
        # The best reached: the first call running an algorithm whose forced time is the best's
        # to 0.5% (two trees may be one tree, or tie).
        near = {a for a, t in forced.items() if t <= b * 1.005}
        reached = next((i + 1 for i, a in enumerate(ran_all.get(case, [])) if a in near), None)
        flags = explored.get(case, [])
        worst = 0.0
        for i, t in enumerate(first15):
            if i and i < len(flags) and flags[i]:
                worst = max(worst, t / min(first15[:i]))
        rows.append(dict(network=case[0], scenario=case[1], op=case[2], root=case[3], m=case[4],
                         best=best, best_s=b, calls=len(calls),
                         first15_pct=f"{pct(statistics.mean(first15)):.1f}",
                         first1000_pct=f"{pct(statistics.mean(first1000)):.1f}",
                         steady_pct=f"{pct(calls[-1]):.1f}",
                         explored=sum(flags) if flags else "",
                         best_at=reached or "never",
                         worst_explore_x=f"{worst:.2f}" if flags else ""))
    if not rows:
        return
    print("\n== auto's learning: mean of its first 15 and first 1000 timed calls (or all, when "
          "fewer) and its last, % above the best forced algorithm; explored = timed calls "
          "measured for learning; worst = its slowest measured call among the first 15 over "
          "the best time seen before it")
    print(f"{'network':>8} {'scenario':>11} {'op':>8} {'root':>4} {'bytes':>8} {'best':>10} "
          f"{'ms':>9} {'calls':>5} {'first15':>8} {'first1000':>9} {'steady':>7} "
          f"{'explored':>8} {'worst':>6} {'best at':>7}")
    for r in rows:
        print(f"{r['network']:>8} {r['scenario']:>11} {r['op']:>8} {r['root']:>4} {r['m']:>8} "
              f"{r['best']:>10} {1000 * r['best_s']:>9.2f} {r['calls']:>5} "
              f"{r['first15_pct']:>7}% {r['first1000_pct']:>8}% {r['steady_pct']:>6}% "
              f"{r['explored']!s:>8} {r['worst_explore_x']:>5}x {r['best_at']!s:>7}")
    for net in dict.fromkeys(r["network"] for r in rows):
        f15 = [float(r["first15_pct"]) for r in rows if r["network"] == net]
        print(f"{net}: first 15 within 5% of the best in {sum(v <= 5 for v in f15)} of "
              f"{len(f15)} cases (median {statistics.median(f15):.1f}%, worst {max(f15):.1f}%)")
        for sc in dict.fromkeys(r["scenario"] for r in rows if r["network"] == net):
            sub = [r for r in rows if r["network"] == net and r["scenario"] == sc]
            if all(r["calls"] >= 1000 for r in sub):
                f1000 = [float(r["first1000_pct"]) for r in sub]
                at = [r["best_at"] for r in sub]
                # issue 26's goals: 1% with the right configuration, 3% with one 5x wrong
                print(f"{net} {sc}: first 1000 {min(f1000):.1f}% to {max(f1000):.1f}% above the "
                      f"best, within 1% in {sum(v <= 1 for v in f1000)} and within 3% in "
                      f"{sum(v <= 3 for v in f1000)} of {len(f1000)} cases; the "
                      f"best first run at call " + ", ".join(str(a) for a in at))
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
    panels = sorted({c[:4] for c in cases})
    cols = 4
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 4 * nrows), squeeze=False)
    for ax, p in zip(axes.flat, panels):
        sub = [r for r in rows if (r["network"], r["scenario"], r["op"], r["root"]) == p]
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
        ax.set_title(f"[{p[0]}] {p[1]} {p[2]}" + ("" if p[2] == "alltoall" else f" root {p[3]}"),
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
