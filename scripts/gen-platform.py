#!/usr/bin/env python3
"""Writes a SimGrid platform of K clusters of H hosts, its host file and a gridcoll
configuration that finds the clusters by host name, as on a real grid.

    scripts/gen-platform.py K H OUTDIR [--wan-bw 1Gbps] [--wan-lat 10ms]

Clusters are g5k2's (1 Gbit/s NICs, 25 us private links, non-blocking switch). Every
ordered cluster pair has its own wide-area link, shared by all flows of that direction;
the latency of pair (i, j) is WAN_LAT * (1 + |i - j|) / 2 so clusters are not all alike.
Writes OUTDIR/grid<K>x<H>.xml, hosts_grid<K>x<H>.txt (ranks by cluster, hosts in order)
and grid<K>x<H>.cfg (hosts = ["c<i>-*"]).
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
    ap.add_argument("hosts", type=int)
    ap.add_argument("outdir")
    ap.add_argument("--wan-bw", default="1Gbps")
    ap.add_argument("--wan-lat", default="10ms")
    a = ap.parse_args()
    if a.clusters < 1 or a.hosts < 1:
        ap.error("clusters and hosts must be positive")
    k, h = a.clusters, a.hosts
    name = f"grid{k}x{h}"
    lat_value, lat_unit = units(a.wan_lat)

    def lat(i, j):
        return f"{float(lat_value) * (1 + abs(i - j)) / 2:g}{lat_unit}"

    xml = ["<?xml version='1.0'?>",
           '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           '<platform version="4.1">',
           f"  <!-- {k} clusters of {h} hosts (scripts/gen-platform.py): 1 Gbit/s NICs, 25 us per "
           "private link,\n       non-blocking switch; one wide-area link per ordered cluster "
           f"pair, {a.wan_bw}, latency\n       {a.wan_lat} * (1 + |i - j|) / 2. -->",
           f'  <zone id="{name}" routing="Full">']
    for i in range(k):
        xml.append(f'    <cluster id="c{i}" prefix="c{i}-" suffix="" radical="0-{h - 1}" '
                   'speed="1Gf" bw="1Gbps" lat="25us" sharing_policy="SPLITDUPLEX" '
                   'bb_bw="10Gbps" bb_lat="0us" bb_sharing_policy="FATPIPE" '
                   f'router_id="c{i}-gw"/>')
    for i in range(k):
        for j in range(k):
            if i != j:
                xml.append(f'    <link id="wan-{i}-{j}" bandwidth="{a.wan_bw}" '
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
    with open(os.path.join(a.outdir, f"hosts_{name}.txt"), "w") as f:
        f.write("".join(f"c{i}-{r}\n" for i in range(k) for r in range(h)))
    with open(os.path.join(a.outdir, name + ".cfg"), "w") as f:
        f.write(f"# {name}: clusters by host name (written by scripts/gen-platform.py)\n")
        f.write("clusters = (\n")
        f.write(",\n".join(f'  {{ name = "c{i}"; hosts = [ "c{i}-*" ]; }}' for i in range(k)))
        f.write("\n);\n")


if __name__ == "__main__":
    main()
