# gridcoll: PMPI interposition library that makes MPI_Alltoall and MPI_Bcast grid-aware.
#
#   make            build build/libgridcoll.so, the tools and the tests
#   make check      install missing packages, then run every test
#   make check-clients  third-party clients (Debian's ScaLAPACK testers, HPCC) under
#                   gridcoll (test/clients/clients.mk)
#   make check-faults   every allocation gridcoll makes, failed one at a time
#                   (test/faults/faults.mk; MPI=openmpi for Open MPI)
#   make demo       install missing packages, then run the demo (on a simulated grid)
#   make smpi       the same code under SimGrid SMPI (test/smpi/smpi.mk: check-smpi, bench-grid)
#   make MPI=openmpi  the same against Open MPI: build/openmpi/libgridcoll-openmpi.so
#                     (mk/openmpi.mk: check-openmpi, part of make check)
#
# config/, model/ and the pure folders of shim/ (shim/pure/, shim/<op>/pure/: layouts,
# schedules, trees, algorithm rows) are also compiled with plain $(CC) into
# build/libgcpure.a: the unit tests link against that, which proves those files need no MPI.

# MPI=openmpi builds the same sources against Debian's Open MPI into build/openmpi/,
# library libgridcoll-openmpi.so (mk/openmpi.mk: check-openmpi). MPICH is the default.
MPI ?= mpich
ifeq ($(MPI),openmpi)
MPICC      ?= mpicc.openmpi
MPIFC      ?= mpifort.openmpi
MPIEXEC    ?= mpirun.openmpi
BUILD      ?= build/openmpi
LIB_NAME   := libgridcoll-openmpi.so
# gridcoll-calibrate is an MPI program: installed beside MPICH's, not over it.
CALIBRATE_SUFFIX := -openmpi
else ifeq ($(MPI),mpich)
LIB_NAME   := libgridcoll.so
else
$(error MPI=$(MPI): expected mpich or openmpi)
endif
MPICC      ?= mpicc.mpich
MPIFC      ?= mpifort.mpich
MPIEXEC    ?= mpiexec.mpich
PKG_CONFIG ?= pkg-config
PREFIX     ?= /usr/local
BUILD      ?= build

CFLAGS ?= -O2 -g
STD    := -std=c11 -D_POSIX_C_SOURCE=200809L
WARN   := -Wall -Wextra -Wmissing-prototypes -Wfloat-equal
ifeq ($(WERROR),1)
WARN += -Werror
endif
# The unit tests compare doubles exactly on purpose: a parse of "1.5k" is 1500 exactly, a
# cached tree's prediction equals a fresh one bit for bit. A tolerance there would weaken
# the assertion, so -Wfloat-equal, meant for computed values, is off for them alone.
UNIT_WARN := $(WARN) -Wno-float-equal

LIBCONFIG_CFLAGS := $(shell $(PKG_CONFIG) --cflags libconfig 2>/dev/null)
LIBCONFIG_LIBS   := $(shell $(PKG_CONFIG) --libs libconfig 2>/dev/null)
CHECK_CFLAGS     := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS       := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

CONFIG_SRC    := $(wildcard config/*.c)
MODEL_SRC     := $(wildcard model/*.c)
# Pure code sits in pure/ folders: shim/pure/ for the shared layer, shim/<op>/pure/ for
# each collective. They are compiled with plain $(CC) and only pure folders on the include
# path (PURE_INCLUDES), so a file there that reaches for MPI does not build.
SHIM_PURE_SRC := $(wildcard shim/pure/*.c shim/*/pure/*.c)
SHIM_MPI_SRC  := $(filter-out $(SHIM_PURE_SRC),$(wildcard shim/*.c shim/*/*.c))
PURE_SRC      := $(CONFIG_SRC) $(MODEL_SRC) $(SHIM_PURE_SRC)
LIB_SRC       := $(PURE_SRC) $(SHIM_MPI_SRC)

LIB      := $(BUILD)/$(LIB_NAME)
PURE_LIB := $(BUILD)/libgcpure.a
# One folder per collective, each with its pure/ part (doc/design.md): a new one is found.
SHIM_OPS      := $(patsubst shim/%/pure/,%,$(wildcard shim/*/pure/))
PURE_INCLUDES := -Iconfig -Imodel -Ishim/pure $(SHIM_OPS:%=-Ishim/%/pure)
INCLUDES      := -I. $(PURE_INCLUDES) -Ishim $(SHIM_OPS:%=-Ishim/%)

UNIT_TESTS := $(patsubst test/unit/%.c,$(BUILD)/test/%,$(wildcard test/unit/check_*.c))
MPI_TESTS  := $(patsubst test/mpi/%.c,$(BUILD)/test/mpi/%,$(wildcard test/mpi/*.c)) \
              $(patsubst test/mpi/%.f90,$(BUILD)/test/mpi/%,$(wildcard test/mpi/*.f90))
TOOLS      := $(BUILD)/gridcoll-predict
CALIBRATE  := $(BUILD)/gridcoll-calibrate

.PHONY: all lint check check-unit check-mpi demo install clean deps deps-tools bench-model bench-overhead bench-log-share bench-first-call
.DEFAULT_GOAL := all

all: $(LIB) $(PURE_LIB) $(TOOLS) $(CALIBRATE) $(UNIT_TESTS) $(MPI_TESTS)

# --- the library ----------------------------------------------------------
# -DGC_TLS_INITIAL_EXEC: the preloaded library's thread-locals in static TLS (gridcoll.h).
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -DGC_TLS_INITIAL_EXEC $(INCLUDES) $(LIBCONFIG_CFLAGS) -MMD -MP -c $< -o $@

# On x86-64 every exported MPI_ function is a trampoline in front of gridcoll's own
# (mk/entries.sh), so that in a program of the other MPI library all calls can go
# straight to that library, untouched (shim/foreign.c). Elsewhere the library is linked
# as it is, and only the warning remains.
ifeq ($(shell uname -m),x86_64)
$(BUILD)/gridcoll.o: $(LIB_SRC:%.c=$(BUILD)/pic/%.o) mk/entries.sh
	$(LD) -r -o $@ $(filter %.o,$^)
	mk/entries.sh $@ $(BUILD)/entries.S || { rm -f $@; exit 1; }

$(BUILD)/entries.S: $(BUILD)/gridcoll.o

$(LIB): $(BUILD)/gridcoll.o $(BUILD)/entries.S
	$(MPICC) -shared -o $@ $^ $(LIBCONFIG_LIBS) -lm
else
$(LIB): $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
	$(MPICC) -shared -o $@ $^ $(LIBCONFIG_LIBS) -lm
endif

# --- pure code, compiled without MPI ---------------------------------------
$(BUILD)/pure/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(PURE_INCLUDES) $(LIBCONFIG_CFLAGS) -MMD -MP -c $< -o $@

$(PURE_LIB): $(PURE_SRC:%.c=$(BUILD)/pure/%.o)
	rm -f $@ && ar rcs $@ $^

# gridcoll-predict: main in tools/, its steps in tools/predict/ (plain C, no MPI).
PREDICT_SRC := tools/gridcoll-predict.c $(wildcard tools/predict/*.c)
$(BUILD)/gridcoll-predict: $(PREDICT_SRC) tools/predict/predict.h $(PURE_LIB)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(PURE_INCLUDES) -Itools/predict $(PREDICT_SRC) -o $@ $(PURE_LIB) $(LIBCONFIG_LIBS) -lm

# An MPI program that calls the MPI library itself (never run under gridcoll), with
# the pure configuration loader and fits: main in tools/, its steps in tools/calibrate/.
CALIBRATE_SRC := tools/gridcoll-calibrate.c $(wildcard tools/calibrate/*.c)
$(CALIBRATE): $(CALIBRATE_SRC) tools/calibrate/calibrate.h tools/start_together.h $(PURE_LIB)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) $(INCLUDES) -Itools/calibrate $(CALIBRATE_SRC) -o $@ $(PURE_LIB) $(LIBCONFIG_LIBS) -lm

# --- tests -------------------------------------------------------------------
$(BUILD)/test/check_%: test/unit/check_%.c $(PURE_LIB)
	@mkdir -p $(@D)
	$(CC) $(STD) $(UNIT_WARN) $(CFLAGS) $(PURE_INCLUDES) $(CHECK_CFLAGS) $< -o $@ $(PURE_LIB) $(CHECK_LIBS) $(LIBCONFIG_LIBS) -lm

# gridcoll-calibrate's pure parts (its platform writer, its log refit) are tested here.
CALIBRATE_PURE_SRC := tools/calibrate/platform.c tools/calibrate/fromlog.c tools/calibrate/curve_text.c
$(BUILD)/test/check_calibrate_tool: test/unit/check_calibrate_tool.c $(CALIBRATE_PURE_SRC) tools/calibrate/platform.h tools/calibrate/fromlog.h tools/calibrate/curve_text.h $(PURE_LIB)
	@mkdir -p $(@D)
	$(CC) $(STD) $(UNIT_WARN) $(CFLAGS) $(PURE_INCLUDES) -Itools/calibrate $(CHECK_CFLAGS) $< $(CALIBRATE_PURE_SRC) -o $@ $(PURE_LIB) $(CHECK_LIBS) $(LIBCONFIG_LIBS) -lm

# MPI test programs are linked WITHOUT gridcoll: they get it only through LD_PRELOAD.
$(BUILD)/test/mpi/%: test/mpi/%.c test/mpi/mpitest.h test/mpi/memusage.h
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) -Itest/mpi $< -o $@

# mpif.h declares no interfaces: passing MPI_IN_PLACE (a scalar) where an array goes is
# legal MPI but an error to gfortran >= 10 unless allowed (MPICH's wrapper allows it,
# Open MPI's does not).
$(BUILD)/test/mpi/%: test/mpi/%.f90 test/mpi/fortran_body.inc
	@mkdir -p $(@D)
	$(MPIFC) -O2 -Wall -fallow-argument-mismatch -Itest/mpi $< -o $@ -J$(@D)

# check_predict_tool runs $(BUILD)/gridcoll-predict: the tools are built first.
# Check's time-outs are wall-clock: a loaded machine (a CI box running other jobs) gets
# a larger multiplier, never a weaker assertion.
# The C unit tests, then the bench report's arithmetic on made-up timings (the figures
# the documents quote come from it).
check-unit: $(UNIT_TESTS) $(TOOLS)
	@fail=0; for t in $(UNIT_TESTS); do GC_BUILD=$(BUILD) CK_VERBOSITY=$${CK_VERBOSITY:-normal} \
	  CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-10} $$t || fail=1; done; \
	test/unit/bench_auto_report.sh || fail=1; exit $$fail

check-mpi: $(LIB) $(MPI_TESTS) $(TOOLS) $(CALIBRATE)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" GRIDCOLL_LIB="$(LIB)" test/mpi/run.sh

# Static analysis of the library's and the tools' sources (about 10 s of CPU).
# warning, portability, performance: the checks that find bugs; "style" is taste, and
# would need suppressions that say nothing. No MPI header is on cppcheck's path (it does
# not need one to follow the code, and would otherwise analyse the MPI library too).
# Where cppcheck is wrong, the line says so in an inline suppression with its reason.
# cppcheck 2.10 does not read C11's _Noreturn (it then follows predict_bad_usage's
# return, which never happens): it is told the GNU spelling it does read.
# Then ShellCheck over every shell script, at its warning level (a second or two): where
# a warning is wrong for a line (commas inside an array's values, a variable its sourcing
# script sets), the line or the file's first line says so in a directive with its reason.
# SC2155 (`local x=$(cmd)` hides cmd's status) is left out: the scripts' substitutions
# are basename, realpath and declare -p, whose status nobody reads.
CPPCHECK ?= cppcheck
SHELLCHECK ?= shellcheck
SHELL_SCRIPTS := $(wildcard scripts/*.sh test/*/*.sh) scripts/grid-up scripts/grid-down \
  scripts/grid-exec scripts/grid-mpiexec .ci/run
lint:
	$(CPPCHECK) -q --error-exitcode=1 --enable=warning,portability,performance --std=c11 \
	  --inline-suppr -D_POSIX_C_SOURCE=200809L '-D_Noreturn=__attribute__((noreturn))' \
	  $(filter-out -I.,$(INCLUDES)) \
	  -Itools/predict -Itools/calibrate config model shim tools
	$(SHELLCHECK) -x -S warning -e SC2155 $(SHELL_SCRIPTS)

# Packages only some targets need (scripts/deps.sh installs them when asked):
# python3-matplotlib draws scripts/gridcoll-report's plots (check-mpi tests one);
# cppcheck and shellcheck run make lint.
TOOLS_DEPS := python3-matplotlib
LINT_DEPS  := cppcheck shellcheck

# The two commands of the README: both install what is missing first.
check:
	GRIDCOLL_DEPS_EXTRA="$(TOOLS_DEPS) $(LINT_DEPS) $(SMPI_DEPS) $(OPENMPI_DEPS) $(CLIENT_DEPS)" scripts/deps.sh
	$(MAKE) all
	$(MAKE) lint
	$(MAKE) check-unit
	$(MAKE) check-fuzz-regress
	$(MAKE) check-mpi
	$(MAKE) check-clients
	$(MAKE) check-smpi
	$(MAKE) check-openmpi
	$(MAKE) check-faults
	$(MAKE) MPI=openmpi BUILD=$(OPENMPI_BUILD) check-faults
	$(MAKE) check-multihost
	$(MAKE) check-sanitize

# The demo runs on a simulated grid (SimGrid SMPI): one machine has no wide area of its own.
demo:
	GRIDCOLL_DEPS_EXTRA="$(SMPI_DEPS)" scripts/deps.sh
	$(MAKE) $(TOOLS) $(SMPI_BUILD)/gridcoll-calibrate $(SMPI_BUILD)/sweep $(SMPI_BUILD)/alltoall_bench $(SMPI_BUILD)/bcast_bench
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/demo.sh

deps:
	scripts/deps.sh

deps-tools:
	GRIDCOLL_DEPS_EXTRA="$(TOOLS_DEPS)" scripts/deps.sh

# Calibrate this machine, run the native all-to-all for 2..8 processes, compare the
# contention signature's and the linear model's predictions with the actual times.
bench-model:
	GRIDCOLL_DEPS_EXTRA="$(TOOLS_DEPS)" scripts/deps.sh
	$(MAKE) $(LIB) $(TOOLS) $(CALIBRATE) $(BUILD)/test/mpi/sweep
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-model.sh

# What gridcoll adds to a call it passes through (issue 17) and what its log costs (issue
# 13): an unmodified program with and without LD_PRELOAD, alternating, MPICH, 2 bound
# ranks, and its instructions counted (scripts/bench-overhead.sh).
# passthrough times the wrapper against PMPI inside one process (1 rank: no peer).
OVERHEAD_BENCH := $(BUILD)/test/bench/overhead $(BUILD)/test/bench/passthrough
$(OVERHEAD_BENCH) $(BUILD)/test/bench/first_call: $(BUILD)/test/bench/%: test/bench/%.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) $< -o $@ -lm

# valgrind (callgrind) counts the instructions gridcoll adds, whatever the machine's load.
bench-overhead: $(LIB) $(OVERHEAD_BENCH)
	GRIDCOLL_DEPS_EXTRA="valgrind" scripts/deps.sh
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-overhead.sh

# What the log costs a 64 KiB broadcast on one node, as a share of the call, setting by
# setting (off, its floor, each part, the whole), for one library or several compared in
# alternation: make bench-log-share LIBS="old.so build/libgridcoll.so" (scripts/bench-log-share.sh).
bench-log-share: $(LIB) $(BUILD)/test/bench/passthrough $(BUILD)/test/bench/clock_read
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-log-share.sh $(LIBS)

# One clock read, each way (shim/clock.h): the library's clock is pure code (timebase.c).
$(BUILD)/test/bench/clock_read: test/bench/clock_read.c $(PURE_LIB)
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) $(PURE_INCLUDES) $< -o $@ $(PURE_LIB) -lm -pthread

# What the first call on a new communicator costs, with and without gridcoll, 3 ranks
# (scripts/bench-first-call.sh).
bench-first-call: $(LIB) $(BUILD)/test/bench/first_call
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-first-call.sh

install: $(LIB) $(TOOLS) $(CALIBRATE)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/gridcoll
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	for t in $(TOOLS); do install -m 755 $$t $(DESTDIR)$(PREFIX)/bin/; done
	install -m 755 $(CALIBRATE) $(DESTDIR)$(PREFIX)/bin/gridcoll-calibrate$(CALIBRATE_SUFFIX)
	install -m 755 scripts/gridcoll-report $(DESTDIR)$(PREFIX)/bin/
	install -m 644 examples/*.cfg $(DESTDIR)$(PREFIX)/share/gridcoll/

clean:
	rm -rf $(BUILD)

include test/smpi/smpi.mk
include test/mpi/tool/tool.mk
include mk/openmpi.mk
include test/clients/clients.mk
include test/multihost/multihost.mk
include test/sanitize/sanitize.mk
include test/fuzz/fuzz.mk
include test/faults/faults.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
