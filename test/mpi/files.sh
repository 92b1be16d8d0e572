# shellcheck shell=bash disable=SC2154 # sourced: tmp, rc and the helpers are test/mpi/run.sh's
# Sourced by test/mpi/run.sh (ONLY=files runs these cases alone): the files gridcoll
# reads and writes. Whatever the file is (a FIFO, a device, huge, binary, not strict
# where it looks strict), the program finishes unharmed, with one clear warning, within
# a limit far below the default: a regression fails instead of hanging.

# file_case NAME EXPECTED-TEXT VAR=VALUE...: alltoall on 2 ranks with a log; the program
# must succeed, warn once with the expected text, and log nothing (passed through).
file_case() {
  local name=$1 expect=$2; shift 2
  rm -f fc-*.csv
  LIMIT=20 mpirun 2 GRIDCOLL_LOG="$tmp/fc-%r.csv" "$@" -- "$T/alltoall" quick
  if no_failures && [ "$(warnings)" = 1 ] && grep -q -- "$expect" err && [ ! -e fc-0.csv ]
  then pass "file ($name): one warning, passed through"; else fail "file ($name): one warning, passed through"; fi
}
# cfg_case NAME EXPECTED-TEXT: the same with ./NAME.cfg, written by the caller.
cfg_case() { file_case "$1" "$2" GRIDCOLL_CONFIG="$tmp/$1.cfg"; }

rm -f in.fifo && mkfifo in.fifo
file_case "FIFO as GRIDCOLL_CONFIG" 'in.fifo: cannot read the configuration file: it is a FIFO' GRIDCOLL_CONFIG="$tmp/in.fifo"
file_case "/dev/zero as GRIDCOLL_CONFIG" '/dev/zero: the configuration file is too large' GRIDCOLL_CONFIG=/dev/zero
awk 'BEGIN { for (i = 0; i < 50000; i++) printf "key%d = 1;\n", i }' >keys.cfg
cfg_case keys 'keys.cfg:33: more than 32 settings in one group'
printf 'verbose = 1;\n\0 garbage = = ;;;\n' >nul.cfg
cfg_case nul 'nul.cfg:2: a NUL byte'
printf '\357\273\277verbose = 1;\n' >bom.cfg
cfg_case bom 'bom.cfg:1: the file starts with a UTF-8 byte-order mark'
printf 'verbose = 1;\rprobe = false;\rbogus = 1;\r' >cr.cfg
cfg_case cr 'cr.cfg:3: bogus'
printf 'verbose = 1;\nlog = { file = "x.csv; };\n\nprobe = false;\n' >unclosed.cfg
cfg_case unclosed 'unclosed.cfg:2: a string opened here is never closed'

# Values no network has (issue 24): alpha = 1e308 was accepted, made every prediction
# infinite, and the summary wrote outside its histogram (SIGSEGV in MPI_Finalize, after
# right results). Now refused with the file, the line and the key; two clusters of one
# process each, as in the crash.
printf 'verbose = 1;\nnetwork = { lan = { alpha = 1e308; }; };\n' >huge-alpha.cfg
file_case "alpha = 1e308" 'huge-alpha.cfg:2: network.lan.alpha: expected a time from 1 ns to 1 hour (3600 s), got 1e+308' \
  GRIDCOLL_CONFIG="$tmp/huge-alpha.cfg" GRIDCOLL_CLUSTERS=0,1
printf 'network = {\n lan = { beta = "1e-300 bit/s"; }; };\n' >tiny-beta.cfg
file_case "beta = 1e-300 bit/s" 'tiny-beta.cfg:2: network.lan.beta: expected a bandwidth from 1 bit/s to 1 Pbit/s' \
  GRIDCOLL_CONFIG="$tmp/tiny-beta.cfg" GRIDCOLL_CLUSTERS=0,1
# The edges that are accepted: predictions of hours, finite in the log, and errors beyond
# the histogram's last bin in the summary (over-predicted: the signed median, its middle
# half and the median |error| all finite); no warning, right results.
printf 'network = { lan = { alpha = 3600; beta = "1 bit/s"; gamma = 10000; delta = 3600; }; };\n' >edge.cfg
rm -f fc-*.csv
LIMIT=20 mpirun 2 GRIDCOLL_CONFIG="$tmp/edge.cfg" GRIDCOLL_CLUSTERS=0,1 GRIDCOLL_LOG="$tmp/fc-%r.csv" -- "$T/alltoall" quick
seconds='^[0-9]+[.][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$' # %.9f (mawk has no {9})
no_failures && [ "$(warnings)" = 0 ] && grep -q '^gridcoll: alltoall  native .* [0-9.]* s  *+[0-9.e+]* %  *+[0-9.e+]* % [.][.] +[0-9.e+]* %  *[0-9.e+]* %$' err &&
  ! grep -q -i -w -E 'inf|nan' err && [ "$(awk -F, -v s="$seconds" 'NR > 1 && $11 ~ s' fc-0.csv | wc -l)" -gt 0 ] &&
  [ "$(awk -F, -v s="$seconds" 'NR > 1 && $11 != "" && $11 !~ s' fc-0.csv | wc -l)" = 0 ] &&
  pass "accepted edges (alpha = 1 hour, 1 bit/s): finite predictions, summary, right results" ||
  fail "accepted edges (alpha = 1 hour, 1 bit/s): finite predictions, summary, right results"

# Only a top-level `strict = true` makes an error abort: not one in a comment, a nested
# group or a string.
printf '/* strict = true; */\nbogus = 1;\n' >commented.cfg
cfg_case commented 'commented.cfg:2: bogus'
printf 'log = { strict = true; };\n' >nested.cfg
cfg_case nested 'nested.cfg:1: log.strict'
printf 'x = "strict = true";\n{{{\n' >quoted.cfg
cfg_case quoted 'quoted.cfg:2: syntax error'

# strict = true and ranks that disagree (one forces another algorithm): every rank aborts,
# with one message saying why.
printf 'strict = true;\n' >strict-ok.cfg
LIMIT=60 mpirun_mpmd "1 GRIDCOLL_CONFIG=$tmp/strict-ok.cfg GRIDCOLL_BCAST=native -- $T/bcast" \
  "1 GRIDCOLL_CONFIG=$tmp/strict-ok.cfg -- $T/bcast"
[ "$rc" != 0 ] && [ "$(grep -c 'differs between ranks.*strict = true: aborting' err)" = 1 ] &&
  pass "strict = true, settings that differ between ranks: aborts" || fail "strict = true, settings that differ between ranks: aborts"

# One verbosity rule: 0 silences every warning, a broken file's included (it still says
# verbose = 0), but never the reason for an abort.
printf 'verbose = 0;\n{{{\n' >quiet.cfg
rm -f fc-*.csv
LIMIT=20 mpirun 2 GRIDCOLL_CONFIG="$tmp/quiet.cfg" GRIDCOLL_LOG="$tmp/fc-%r.csv" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 0 ] && [ ! -e fc-0.csv ] &&
  pass "verbose = 0 in a broken file: silent, passed through" || fail "verbose = 0 in a broken file: silent, passed through"
printf 'verbose = 0;\nstrict = true;\n{{{\n' >quiet-strict.cfg
LIMIT=60 mpirun 2 GRIDCOLL_CONFIG="$tmp/quiet-strict.cfg" -- "$T/alltoall" quick
[ "$rc" != 0 ] && [ "$(grep -c 'quiet-strict.cfg:3: .*strict = true: aborting' err)" = 1 ] &&
  pass "verbose = 0, strict = true: the abort still says why" || fail "verbose = 0, strict = true: the abort still says why"

# Output files: a FIFO is refused at once; a full disk warns; a pattern without %r still
# gives each rank its own file.
rm -f lf-*.fifo && mkfifo lf-0.fifo lf-1.fifo
LIMIT=20 mpirun 2 GRIDCOLL_LOG="$tmp/lf-%r.fifo" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'cannot write the log (.*lf-0.fifo: it is a FIFO' err &&
  pass "FIFO as GRIDCOLL_LOG: one warning, program continues" || fail "FIFO as GRIDCOLL_LOG: one warning, program continues"
rm -f sum.fifo && mkfifo sum.fifo
printf 'log = { summary = true; summary_file = "%s/sum.fifo"; };\n' "$tmp" >sumfifo.cfg
LIMIT=20 mpirun 2 GRIDCOLL_CONFIG="$tmp/sumfifo.cfg" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'sum.fifo: it is a FIFO.*printing it here' err && grep -q '^gridcoll: summary of' err &&
  pass "FIFO as log.summary_file: one warning, summary on stderr" || fail "FIFO as log.summary_file: one warning, summary on stderr"
printf 'log = { summary = true; summary_file = "/dev/full"; };\n' >full.cfg
LIMIT=20 mpirun 2 GRIDCOLL_CONFIG="$tmp/full.cfg" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'cannot write the summary to /dev/full: No space left on device' err &&
  pass "log.summary_file = /dev/full: one warning" || fail "log.summary_file = /dev/full: one warning"
rm -f shared.csv*
LIMIT=20 mpirun 2 GRIDCOLL_LOG="$tmp/shared.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoall" quick
calls=$(sed -n 's/.* \([0-9]*\) calls per rank/\1/p' out)
no_failures && [ "$(warnings)" = 0 ] && [ ! -e shared.csv ] && [ -n "$calls" ] &&
  [ "$(awk -F, 'NR > 1 && $1 == 0' shared.csv.0 | wc -l)" = "$calls" ] &&
  [ "$(awk -F, 'NR > 1 && $1 == 1' shared.csv.1 | wc -l)" = "$calls" ] &&
  pass "GRIDCOLL_LOG without %r: PATH.<rank> per rank, no record lost" || fail "GRIDCOLL_LOG without %r: PATH.<rank> per rank, no record lost"

# A warning about a very long path keeps its reason.
LIMIT=20 mpirun 2 GRIDCOLL_LOG="$tmp/$(printf '%04000d' 0)/x-%r.csv" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] &&
  grep -q '^gridcoll: cannot write the log (.* \[\.\.\.\] .*: File name too long); the program continues without it$' err &&
  pass "5000-character path: the warning keeps its reason" || fail "5000-character path: the warning keeps its reason"

# A program that never calls MPI_Finalize: the buffered records are written at exit. One
# rank: with more, the launcher may kill the others as soon as one exits unfinalized,
# before their exit handlers run (hydra did in half the runs), which no library can help.
rm -f nf-*.csv
LIMIT=60 mpirun 1 GRIDCOLL_LOG="$tmp/nf-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nofinalize" 100
grep -q 'nofinalize: 100 calls per rank, 0 failed' out &&
  [ "$(tail -n +2 nf-0.csv 2>/dev/null | wc -l)" = 100 ] &&
  pass "exit without MPI_Finalize: every buffered record written" || fail "exit without MPI_Finalize: every buffered record written"
