#!/usr/bin/env python3
"""Writes the seed corpus of test/fuzz/ (run from the repository root; the files are committed,
so this only needs rerunning when the sources of seeds change).

corpus/config/: examples/*.cfg, every configuration that test/unit/check_config.c loads and
the ones test/mpi/run.sh writes (read out of those files), environment sections, and broken
files this script makes (syntax, types, huge and negative numbers, NaN/inf, nesting, long
strings, wrong matrix sizes, overlapping ranges, unicode).
corpus/units/: the strings of test/unit/check_units.c and check_ranges.c, and more."""
import glob, hashlib, os, re

OUT = "test/fuzz/corpus"


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def c_strings(text, start):
    """Concatenated C string literals (and the TWO/FULL macros) from index start on."""
    out, i = "", start
    while True:
        m = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|(TWO|FULL)\b)').match(text, i)
        if not m:
            return out
        out += macros[m.group(2)] if m.group(2) else m.group(1).encode().decode("unicode_escape")
        i = m.end()


# --- configurations ---------------------------------------------------------------------
for f in sorted(glob.glob("examples/*.cfg")):
    write("config", open(f, "rb").read())

unit = open("test/unit/check_config.c").read()
macros = {}
for name in ("FULL", "TWO"):
    m = re.search(r"#define %s\s+" % name, unit)
    macros[name] = c_strings(unit.replace("\\\n", " "), m.end())
for m in re.finditer(r"\b(?:load|load_fails|write_file\(\"a.cfg\",)\s*\(?", unit):
    s = c_strings(unit, m.end())
    if s:
        write("config", s)

run = open("test/mpi/run.sh").read()
for m in re.finditer(r"cat >\S+\.cfg <<'?CFG'?\n(.*?)\nCFG\n", run, re.S):
    write("config", m.group(1).replace("$tmp", "/tmp") + "\n")
for m in re.finditer(r"bad_config \S+ '[^']*' '([^']*)'", run):
    write("config", m.group(1) + "\n")

two = macros["TWO"]
env = "\n#%env\n"
broken = [
    "",
    "clusters = ( { name = \"a\"; ranks = \"0-3\"; }, { name = \"b\"; ranks = \"4-7\"; } );" + env +
    "GRIDCOLL_CLUSTERS=0-1,2-7\nGRIDCOLL_BCAST=hlot\nGRIDCOLL_ALLTOALL=lg\nGRIDCOLL_VERBOSE=3\n",
    open("examples/two-clusters.cfg").read() + env + "GRIDCOLL_CLUSTERS=0,1,2-7\n",
    open("examples/korea8.cfg").read() + env + "GRIDCOLL_CLUSTERS=host\nGRIDCOLL_LOG=x-%r.csv\n",
    env + "GRIDCOLL=off\nGRIDCOLL_BCAST=fat\n",
    env + "GRIDCOLL_CLUSTERS=0-3,3-7\n",
    env + "GRIDCOLL_LOG_MODE=local\nGRIDCOLL_SUMMARY=1\nGRIDCOLL_PROBE=0\nGRIDCOLL_CONFIG=\n",
    "network = { lan = { alpha = 1e308; beta = 1e-308; gamma = 1e308; delta = 1e308; threshold = 1e308; }; };",
    "network = { lan = { alpha = \"1e400 s\"; }; };",
    "network = { lan = { alpha = \"4.9e-324 s\"; beta = \"1e-320 s/B\"; }; };",
    "network = { lan = { alpha = 9223372036854775807L; threshold = -9223372036854775807L; }; };",
    "network = { lan = { alpha = \"nan\"; beta = \"inf\"; gamma = \"-inf\"; }; };",
    "network = { lan = { alpha = \"0x10 s\"; beta = \"1,5 Gbit/s\"; }; };",
    "bcast = { segment = \"1e300 B\"; };",
    "bcast = { segment = 0.5; algorithm = \"multilevel\"; };",
    "verbose = 99999999999999999999;",
    "verbose = -1;",
    "a = " + "{ b = " * 200 + "1;" + " };" * 200,
    "a = " + "(" * 5000 + ")" * 5000 + ";",
    "log = { file = \"" + "x" * 10000 + "\"; };",
    "clusters = ( { name = \"" + "n" * 200 + "\"; ranks = 0; } );",
    "clusters = ( { name = \"n\\u00e9\"; ranks = 0; } );",
    "clusters = ( { name = \"\xc3\xa9t\xc3\xa9\"; hosts = \"\xe2\x98\x83-*\"; } );",
    "clusters = ( { name = \"a\"; hosts = [ \"*[a-\", \"[!]\", \"\\\\\" ]; } );",
    "clusters = ( { name = \"a\"; hosts = \"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\"; } );",
    "clusters = ( { name = \"a\"; ranks = \"0-2147483647\"; }, { name = \"b\"; ranks = \"2147483647\"; } );",
    "clusters = ( { name = \"a\"; ranks = \"0-3\"; }, { name = \"b\"; ranks = \"3-5\"; } );",
    "clusters = ( { name = \"a\"; ranks = 4294967296L; } );",
    "clusters = ( { name = \"a\"; hosts = \"nancy-*\"; site = \"s\"; hetero = { C = \"1 us\"; t = \"1 ns/B\"; "
    "rate = \"1 Gbit/s\"; S = 0; Gamma = \"1e300 s\"; tau = 1e-300; }; }, { name = \"b\"; ranks = \"6-7\"; "
    "site = \"s\"; } );",
    "clusters = ( { name = \"a\"; ranks = 0; hetero = { C = 1; }; } );",
    two + "network = { wan = { latency = ( (\"0\", \"1e-320 s\"), (\"1e300 s\", \"0\") ); "
    "bandwidth = ( (0, 1e-300), (1e300, 0) ); }; };",
    two + "network = { wan = { latency = ( (\"0\", \"1 ms\") ); }; };",
    two + "network = { wan = { latency = ( [0, 1, 2], [1, 0] ); }; };",
    "network = { wan = { latency = ( (\"0\") ); }; };",
    "clusters = ( " + ", ".join('{ name = "c%d"; ranks = %d; }' % (i, i) for i in range(8)) + " );",
    "strict = true;\n{{{ broken",
    "@include \"/etc/passwd\"\n",
    "\xef\xbb\xbfverbose = 1;",
    "verbose = 1;\0verbose = 2;",
    "strict : true\n# strict = false\n",
]
for b in broken:
    write("config", b)

# --- units and ranges -------------------------------------------------------------------
for f in ("test/unit/check_units.c", "test/unit/check_ranges.c"):
    for m in re.finditer(r'(?:p|bad|gc_ranges_parse)\((?:GC_UNIT_\w+,\s*(?:GC_BOUND_\w+,\s*)?)?"((?:[^"\\]|\\.)*)"',
                         open(f).read()):
        write("units", m.group(1).encode().decode("unicode_escape").encode("latin-1"))
for s in ["1e308 GiB", "1e-400 s", "4.9e-324", "1" * 100, "0." + "0" * 90 + "1 s", "1e99999999 ns",
          "-0", "-0 s", "1 s/B", "0.5 ms/byte", "1 TiB", "8 Tbps", "NaN", "Infinity", "0x1p3", "1,5",
          "\xc2\xb5s", "3 \xce\xbcs", "0-3,8,10-11", "0-2147483647", "2147483648", "1-1,2-2,3-3",
          "\t7\t-\t9 ", "0," * 100 + "0", "9" * 30]:
    write("units", s.encode("latin-1") if all(ord(c) < 256 for c in s) else s.encode())
