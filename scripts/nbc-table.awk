# One row per size of nbcbench's rounds (test/multihost/nbcbench.c prints
# "op,root,bytes,rep,blocking_s,pure_s,compute_s,overall_s"): the medians of the blocking
# and the pure times, pure / blocking, and the median overlap, OSU's figure
# 100 (1 - (overall - compute) / pure) clipped to 0..100. Read by nbc_table
# (scripts/nbc-lib.sh), for the rig's bench and the SimGrid one.
#   awk -F, -v name=RUN -v ranfile=FILE -f scripts/nbc-table.awk ROWS.csv
# ranfile: "bytes algorithm" lines, what rank 0's log says ran each size's nonblocking calls.
function median(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ m = $3; k = ++n[m]; b[m, k] = $5; p[m, k] = $6
  ov = 100 * (1 - ($8 - $7) / $6); o[m, k] = ov < 0 ? 0 : (ov > 100 ? 100 : ov)
  if (!(m in seen)) { seen[m] = 1; order[++sizes] = m } }
END {
  while ((getline line < ranfile) > 0) { split(line, f, " "); ran[f[1]] = f[2] }
  for (s = 1; s <= sizes; s++) {
    m = order[s]
    for (k = 1; k <= n[m]; k++) { bb[k] = b[m, k]; pp[k] = p[m, k]; oo[k] = o[m, k] }
    mb = median(bb, n[m]); mp = median(pp, n[m])
    printf "%-17s %9d %13.2f %10.2f %13.2f %8.0f%% %8d  %s\n", name, m, 1e3 * mb, 1e3 * mp, mp / mb, median(oo, n[m]), n[m], ran[m]
  }
}
