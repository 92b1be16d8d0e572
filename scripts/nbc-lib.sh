# shellcheck shell=bash
# What the nonblocking benches share (scripts/bench-nbc-multihost.sh on the namespace rig,
# scripts/bench-nbc-smpi.sh under SimGrid), sourced by both.

# nbc_ran BENCH RUN LOG OP N WANT OUT: what rank 0's log LOG says ran each size's OP calls,
# "bytes algorithm" lines in OUT (MPI_Alltoallv's bytes are the rank's whole send: N
# blocks). One algorithm a size, and WANT at the smallest ("-": none asked), or BENCH says
# so on stderr for RUN and it returns 1.
nbc_ran() {
  local bench=$1 run=$2 log=$3 op=$4 n=$5 want=$6 out=$7
  awk -F, -v op="$op" -v n="$n" 'NR > 1 && $5 == op { m = op ~ /alltoallv/ ? $8 / n : $8
    a[m] = a[m] == "" || a[m] == $6 ? $6 : "mixed" }
    END { for (m in a) print m, a[m] }' "$log" | sort -n >"$out"
  if grep -q mixed "$out" || { [ "$want" != - ] && [ "$(head -1 "$out" | cut -d' ' -f2)" != "$want" ]; }; then
    echo "$bench: $run: not $want throughout a size:" >&2
    sed 's/^/  | /' "$out" >&2
    return 1
  fi
}

# nbc_table PREFIX NAME...: the table of the runs NAME, each from $OUT/PREFIXNAME.csv
# (nbcbench's rows) and $OUT/PREFIXNAME.ran (nbc_ran), a row a size (scripts/nbc-table.awk).
nbc_table() {
  local prefix=$1 name
  shift
  printf '%-17s %9s %13s %10s %13s %9s %8s  %s\n' run bytes "blocking ms" "pure ms" "pure/blocking" \
    overlap rounds "nonblocking calls ran"
  for name in "$@"; do
    awk -F, -v name="$name" -v ranfile="$OUT/$prefix$name.ran" -f "$NBC_LIB_DIR/nbc-table.awk" \
      "$OUT/$prefix$name.csv"
  done
}
NBC_LIB_DIR=$(dirname "${BASH_SOURCE[0]}")
