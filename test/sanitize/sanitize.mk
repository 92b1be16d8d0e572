# Sanitizer builds and the robustness tests (threads, long runs, communicator churn,
# faults). Included from the Makefile; `make check` runs check-sanitize.
#
#   make check-robust   test/sanitize/robust.sh on the normal build: threads, 100,000 calls
#                       with bounded memory and every record logged, 10,000 communicators
#                       created and freed, a full disk, a peer killed mid-collective
#   make check-asan     everything rebuilt with -fsanitize=address,undefined into
#                       $(BUILD)-asan; test/mpi/run.sh (a representative subset of the
#                       broadcast algorithms, ASAN_BCAST_ALGORITHMS) and robust.sh under it,
#                       LeakSanitizer on the communicator churn
#   make check-tsan     the library and the threaded test under ThreadSanitizer ($(BUILD)-tsan)
#   make check-valgrind the churn (200 communicators) under valgrind memcheck; not in check
#
# The sanitizer runtime must come first in the process (ASan and TSan check that): the
# test programs are linked without gridcoll and get it through LD_PRELOAD, so the runtime
# is preloaded before the library (run.sh's PRELOAD).

.PHONY: check-sanitize check-robust check-asan check-tsan check-valgrind sanitize-parts

ASAN_BUILD := $(BUILD)-asan
TSAN_BUILD := $(BUILD)-tsan
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
# The runtimes of the compiler that $(MPICC) wraps (gcc by default).
SAN_CC = $(shell $(MPICC) -show 2>/dev/null | cut -d' ' -f1)
ASAN_PRELOAD = $(realpath $(shell $(SAN_CC) -print-file-name=libasan.so) $(shell $(SAN_CC) -print-file-name=libubsan.so))
TSAN_PRELOAD = $(realpath $(shell $(SAN_CC) -print-file-name=libtsan.so))
# Broadcast algorithms run.sh exercises under ASan (the whole list takes twice as long):
# the MPI library's and one of each kind of tree (heuristic, cost-driven, multilevel);
# flat, binomial and spt share their executor (tree_exec.c) with these, and their
# builders are pure code that the unit tests cover.
ASAN_BCAST_ALGORITHMS ?= native hlot greedy multilevel

check-sanitize: check-robust check-asan check-tsan

check-robust: $(LIB) $(MPI_TESTS)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" test/sanitize/robust.sh

check-valgrind: $(LIB) $(MPI_TESTS)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" test/sanitize/robust.sh valgrind

# What the tests need, built in a sub-make with BUILD set to a sanitizer's directory.
sanitize-parts: $(LIB) $(MPI_TESTS) $(TOOLS) $(CALIBRATE) $(COUNTING_TOOL) $(VERDICT_TOOL)

$(ASAN_BUILD)/.built: FORCE
	$(MAKE) BUILD=$(ASAN_BUILD) CFLAGS="-O1 -g $(ASAN_FLAGS)" MPICC="$(MPICC) $(ASAN_FLAGS)" sanitize-parts
	@touch $@

$(TSAN_BUILD)/.built: FORCE
	$(MAKE) BUILD=$(TSAN_BUILD) CFLAGS="-O1 -g $(TSAN_FLAGS)" MPICC="$(MPICC) $(TSAN_FLAGS)" \
	  $(TSAN_BUILD)/libgridcoll.so $(TSAN_BUILD)/test/mpi/threads $(TSAN_BUILD)/test/mpi/nb_threads
	@touch $@

.PHONY: FORCE
FORCE:

# detect_leaks=0 for the general run: MPICH keeps allocations until exit that are not
# ours; robust.sh runs LeakSanitizer itself on the churn test, with narrow suppressions.
# ASAN_MPI=0 skips run.sh (most of check-asan's time) and keeps robust.sh.
ASAN_MPI ?= 1
check-asan: $(ASAN_BUILD)/.built
	[ "$(ASAN_MPI)" = 0 ] || ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=86 UBSAN_OPTIONS=print_stacktrace=1 \
	  PRELOAD="$(ASAN_PRELOAD)" BCAST_ALGORITHMS="$(ASAN_BCAST_ALGORITHMS)" \
	  MPIEXEC="$(MPIEXEC)" BUILD="$(ASAN_BUILD)" test/mpi/run.sh
	ASAN_OPTIONS=detect_leaks=0:exitcode=86 UBSAN_OPTIONS=print_stacktrace=1 \
	  PRELOAD="$(ASAN_PRELOAD)" SANITIZER=asan \
	  MPIEXEC="$(MPIEXEC)" BUILD="$(ASAN_BUILD)" test/sanitize/robust.sh

check-tsan: $(TSAN_BUILD)/.built
	PRELOAD="$(TSAN_PRELOAD)" SANITIZER=tsan MPIEXEC="$(MPIEXEC)" BUILD="$(TSAN_BUILD)" \
	  test/sanitize/robust.sh threads
