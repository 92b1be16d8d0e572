# What every SimGrid test script starts with, sourced from the repository's root:
# BUILD and SMPIRUN (the environment's or the defaults), T the build folder's full path,
# ROOT the repository, tmp a folder of the script's own, removed at exit (KEEP=1: kept, and
# said), and TMPDIR there, because smpirun -tmpdir is broken in SimGrid 3.32.
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
T=$(realpath "$BUILD")
ROOT=$PWD
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $tmp" || trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
