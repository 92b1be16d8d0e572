#!/usr/bin/env python3
"""Writes a SimGrid platform of K clusters of H hosts, its host file and a gridcoll
configuration that finds the clusters by host name, as on a real grid.

    scripts/gen-platform.py K H OUTDIR [--wan-bw 1Gbps] [--wan-lat 10ms] [--interleave]
    scripts/gen-platform.py 3 5,11,17 OUTDIR --interleave    (uneven clusters)
    scripts/gen-platform.py 3 16 OUTDIR --wan-bw 100Mbps --link 0-1:20ms:50Mbps \
        --link 0-2:3ms --link 1-2:4ms --network --name grid3  (the rig's grid3 shape)

Clusters are g5k2's (1 Gbit/s NICs, 25 us private links, non-blocking switch). Every
ordered cluster pair has its own wide-area link, shared by all flows of that direction;
the latency of pair (i, j) is WAN_LAT * (1 + |i - j|) / 2 so clusters are not all alike.
H is one size for every cluster or K sizes separated by commas (grid3x5-11-17). Writes
OUTDIR/grid<K>x<H>.xml, hosts_grid<K>x<H>.txt (ranks by cluster, hosts in order) and
grid<K>x<H>.cfg (hosts = ["c<i>-*"]). --interleave deals ranks to the clusters in turn
(c0 c1 c2 c0 c1 c2 ..., skipping a cluster once it is full) and names the host file
hosts_grid<K>x<H>_interleaved.txt: no cluster is a contiguous range of ranks, as when a
batch system hands out hosts in no particular order.
--link I-J:LAT[:BW] (repeatable) sets both directions of the pair's link, as on a grid
whose direct link is slower than the route through a third cluster (a broken triangle,
issue 27). --network writes the platform's network into the configuration (lan: 50 us,
1 Gbit/s; wan: each link's latency and bandwidth), so the models plan on what is
simulated. --name replaces grid<K>x<H> in the file names.
"""
import argparse
import os


def units(text):
    """'10ms' -> ('10', 'ms')."""
    i = len(text.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/"))
    return text[:i], text[i:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("clusters", type=int)
    ap.add_argument("hosts", help="hosts per cluster: H, or H1,H2,...,HK")
    ap.add_argument("outdir")
    ap.add_argument("--wan-bw", default="1Gbps")
    ap.add_argument("--wan-lat", default="10ms")
    ap.add_argument("--interleave", action="store_true",
                    help="ranks dealt to the clusters in turn instead of cluster by cluster")
    ap.add_argument("--link", action="append", default=[], metavar="I-J:LAT[:BW]",
                    help="this pair's link, both directions (repeatable)")
    ap.add_argument("--network", action="store_true",
                    help="write the network into the configuration")
    ap.add_argument("--name", help="base name of the files (default grid<K>x<H>)")
    a = ap.parse_args()
    k = a.clusters
    try:
        sizes = [int(x) for x in a.hosts.split(",")]
    except ValueError:
        ap.error("hosts must be H or H1,H2,...,HK")
    if len(sizes) == 1:
        sizes *= max(k, 1)
    if k < 1 or len(sizes) != k or min(sizes) < 1:
        ap.error("clusters and hosts must be positive, one size or K sizes")
    name = a.name or f"grid{k}x{a.hosts.replace(',', '-')}"
    lat_value, lat_unit = units(a.wan_lat)
    links = {}
    for spec in a.link:
        try:
            pair, rest = spec.split(":", 1)
            i, j = (int(x) for x in pair.split("-"))
            parts = rest.split(":")
            if not (0 <= i < k and 0 <= j < k and i != j) or len(parts) > 2:
                raise ValueError
        except ValueError:
            ap.error(f"--link {spec}: expected I-J:LAT[:BW] with I != J below {k}")
        links[(i, j)] = links[(j, i)] = (parts[0], parts[1] if len(parts) > 1 else a.wan_bw)

    def lat(i, j):
        if (i, j) in links:
            return links[(i, j)][0]
        return f"{float(lat_value) * (1 + abs(i - j)) / 2:g}{lat_unit}"

    def bw(i, j):
        return links[(i, j)][1] if (i, j) in links else a.wan_bw

    xml = ["<?xml version='1.0'?>",
           '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           '<platform version="4.1">',
           f"  <!-- {k} clusters of {a.hosts.replace(',', ', ')} hosts (scripts/gen-platform.py): "
           "1 Gbit/s NICs, 25 us per private link,\n       non-blocking switch; one wide-area link "
           f"per ordered cluster pair, {a.wan_bw}, latency\n       {a.wan_lat} "
           "* (1 + |i - j|) / 2. -->",
           f'  <zone id="{name}" routing="Full">']
    for i in range(k):
        xml.append(f'    <cluster id="c{i}" prefix="c{i}-" suffix="" radical="0-{sizes[i] - 1}" '
                   'speed="1Gf" bw="1Gbps" lat="25us" sharing_policy="SPLITDUPLEX" '
                   'bb_bw="10Gbps" bb_lat="0us" bb_sharing_policy="FATPIPE" '
                   f'router_id="c{i}-gw"/>')
    for i in range(k):
        for j in range(k):
            if i != j:
                xml.append(f'    <link id="wan-{i}-{j}" bandwidth="{bw(i, j)}" '
                           f'latency="{lat(i, j)}" sharing_policy="SHARED"/>')
    for i in range(k):
        for j in range(k):
            if i != j:
                xml.append(f'    <zoneRoute src="c{i}" dst="c{j}" gw_src="c{i}-gw" '
                           f'gw_dst="c{j}-gw" symmetrical="NO">'
                           f'<link_ctn id="wan-{i}-{j}"/></zoneRoute>')
    xml += ["  </zone>", "</platform>", ""]

    os.makedirs(a.outdir, exist_ok=True)
    with open(os.path.join(a.outdir, name + ".xml"), "w") as f:
        f.write("\n".join(xml))
    if a.interleave:
        order = [(i, r) for r in range(max(sizes)) for i in range(k) if r < sizes[i]]
    else:
        order = [(i, r) for i in range(k) for r in range(sizes[i])]
    hostfile = f"hosts_{name}{'_interleaved' if a.interleave else ''}.txt"
    with open(os.path.join(a.outdir, hostfile), "w") as f:
        f.write("".join(f"c{i}-{r}\n" for i, r in order))
    with open(os.path.join(a.outdir, name + ".cfg"), "w") as f:
        f.write(f"# {name}: clusters by host name (written by scripts/gen-platform.py)\n")
        f.write("clusters = (\n")
        f.write(",\n".join(f'  {{ name = "c{i}"; hosts = [ "c{i}-*" ]; }}' for i in range(k)))
        f.write("\n);\n")
        if a.network:
            def conf(v):  # SimGrid's units as gridcoll reads them: "20 ms", "50 Mbit/s"
                n, u = units(v)
                return f"{n} {u.replace('bps', 'bit/s')}"

            def matrix(fn):
                return ",\n".join("      (" + ", ".join(
                    '"0"' if i == j else f'"{conf(fn(i, j))}"' for j in range(k)) + ")"
                    for i in range(k))
            f.write("network = {\n"
                    '  lan = { alpha = "50 us"; beta = "1 Gbit/s"; gamma = 1.0; delta = 0; '
                    "threshold = 0; };\n"
                    f"  wan = {{\n    latency = (\n{matrix(lat)}\n    );\n"
                    f"    bandwidth = (\n{matrix(bw)}\n    );\n  }};\n}};\n")


if __name__ == "__main__":
    main()
