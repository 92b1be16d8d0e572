#!/usr/bin/env bash
# Grids nobody chose: byte-for-byte tests of the grid algorithms under SimGrid SMPI on
# platforms drawn at random from a fixed seed (the same grids on every run): 3 to 6
# clusters of 1 to 7 hosts, ranks dealt cluster by cluster or in turn, some cluster pairs'
# links slower and longer than the rest (so the relayed all-to-all's planner often routes
# through a third cluster), the network stated in the configuration
# (scripts/gen-platform.py --network). On each: test/mpi/alltoall.c with relay and lg,
# test/mpi/alltoallv.c (quick) with lg, test/mpi/bcast.c with every tree, and hlot and
# spt again in 100-byte segments. Each run must print 0 failures, and rank 0's log must
# show the forced algorithm ran on the world communicator across every cluster (relay:
# how many of its calls relayed is printed, not required: on some grids no relay helps).
# Then the nonblocking schedules (GRIDCOLL_NONBLOCKING=grid): test/mpi/nb_basic.c with
# each tree and LG, and test/mpi/alltoallv.c's nonblocking cases with LG-v; rank 0's log
# must name the forced tree's schedule (LG-v's) on the world communicator (how many
# MPI_Ialltoall LG ran is printed: it serves no communicator without a cluster of two).
#   BUILD=build SMPIRUN=smpirun test/smpi/random-grids.sh     (about a minute and a half)
# GRIDS (how many, default 8), SEED (default 27).
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh
# As test/smpi/run.sh (its comment says why the reference all-to-all is ring).
FLAGS=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
       --cfg=smpi/alltoall:ring --log=root.thres:warning)

# One grid a line: "k sizes [--interleave] [--link I-J:LAT:BW ...]", from Python's
# generator (the same on every machine for a seed).
grids=$(python3 - "${GRIDS:-8}" "${SEED:-27}" <<'PY'
import random, sys
n, rng = int(sys.argv[1]), random.Random(int(sys.argv[2]))
for _ in range(n):
    k = rng.randint(3, 6)
    args = [str(k), ",".join(str(rng.randint(1, 7)) for _ in range(k))]
    if rng.random() < 0.5:
        args.append("--interleave")
    for i in range(k):
        for j in range(i + 1, k):
            if rng.random() < 0.35:
                args.append(f"--link {i}-{j}:{rng.randint(20, 80)}ms:{rng.randint(100, 500)}Mbps")
    print(" ".join(args))
PY
) || { echo "FAIL the grids could not be drawn"; echo "smpi random grids: 0 passed, 1 failed"; exit 1; }

# one NAME ENV PROGRAM ARG CLUSTERS ALGORITHM: runs PROGRAM on the grid in $tmp/g with
# ENV (GRIDCOLL_<OP>=ALGORITHM) set; passes when it prints 0 failures and rank 0's log
# holds a call on world (column 3) across every cluster (column 9) that ALGORITHM ran
# (column 6).
one() {
  local name=$1 env=$2 prog=$3 arg=$4 clusters=$5 a=$6 t0=$SECONDS
  # shellcheck disable=SC2086 # arg: none, or the program's words
  forced_run "$tmp/g/g.xml" "$tmp/g/hosts" "$tmp/g/g.cfg" "$env" "$prog" $arg
  if forced_ran "$prog" "$(grep -c . "$tmp/g/hosts")" "$clusters" "$a"; then
    pass "$name, $prog $a ($((SECONDS - t0)) s)$(
      [ "$a" = relay ] && awk -F, 'NR > 1 && $6 == "relay" { n++; if ($11 > 0) r++ }
        END { printf " (%d of %d calls relayed)", r, n }' "$tmp/rec-0.csv"
      [ "$prog" = nb_basic ] && awk -F, 'NR > 1 && $5 == "ialltoall" { n++; if ($6 == "lg-nb") l++ }
        END { printf " (%d of %d MPI_Ialltoall by LG)", l, n }' "$tmp/rec-0.csv")"
  else
    fail "$name, $prog $a"
  fi
}

start=$SECONDS
i=0
while read -r k sizes rest; do
  i=$((i + 1))
  name="grid $i: $sizes$([ -n "$rest" ] && echo " $rest")"
  rm -rf "$tmp/g" && mkdir -p "$tmp/g"
  # shellcheck disable=SC2086 # rest: the grid's options
  if ! python3 scripts/gen-platform.py "$k" "$sizes" "$tmp/g" --network --name g $rest >/dev/null; then
    echo "FAIL $name: scripts/gen-platform.py"; failed=$((failed + 1)); continue
  fi
  cat "$tmp"/g/hosts_g*.txt >"$tmp/g/hosts"
  one "$name" GRIDCOLL_ALLTOALL=relay alltoall 64 "$k" relay
  one "$name" GRIDCOLL_ALLTOALL=lg alltoall 64 "$k" lg
  one "$name" GRIDCOLL_ALLTOALLV=lg alltoallv quick "$k" lg
  for b in flat binomial hlot spt greedy multilevel; do
    one "$name" GRIDCOLL_BCAST=$b bcast "" "$k" "$b"
  done
  printf 'bcast = { segment = "100 B"; };\n' >>"$tmp/g/g.cfg"
  for b in hlot spt; do
    one "$name, 100 B segments" GRIDCOLL_BCAST=$b bcast 4096 "$k" "$b"
  done
  for b in flat binomial hlot spt greedy multilevel; do
    one "$name, nonblocking" "GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=$b GRIDCOLL_ALLTOALL=lg" \
      nb_basic 100 "$k" "$b-nb"
  done
  one "$name, nonblocking" "GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg" alltoallv \
    "nonblocking quick" "$k" lg-nb
done <<<"$grids"
echo "smpi random grids: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" = 0 ]
