# SimGrid SMPI build (included by the Makefile): the same sources compiled with smpicc.
#
# Under SMPI there is no LD_PRELOAD: smpicc links a program into a shared object that
# smpirun dlopen()s once per simulated rank (RTLD_DEEPBIND, and a private copy per rank
# with the default privatization), so gridcoll's objects are linked INTO each program and
# its MPI_Alltoall/MPI_Bcast/MPI_Init/MPI_Finalize bind before libsimgrid's (weak) ones;
# PMPI_* resolve to libsimgrid. SMPI's mpi.h needs no #ifdef in the shim.
#
#   make smpi         build/smpi/{alltoall,bcast,alltoall_bench,bcast_bench}
#   make check-smpi   byte-for-byte tests at 32..256 simulated ranks (test/smpi/run.sh), then
#                     the calibrate, platform, simulate loop (test/smpi/calibrate-loop.sh),
#                     one message's curve against its line under SimGrid's default network
#                     (test/smpi/curve.sh),
#                     the MPI library's own collectives predicted from the native table that
#                     gridcoll-calibrate measured, against their formulas (test/smpi/native.sh),
#                     the log's actual time against the simulated one and a late rank's wait
#                     apart, exact in simulated time (test/smpi/log-actual.sh),
#                     auto learning under a configuration wrong by 2x (test/smpi/learn.sh),
#                     auto moving when a wide-area link slows mid-run (test/smpi/drift.sh),
#                     the nonblocking schedules byte-correct (test/smpi/nonblocking.sh)
#                     and every grid algorithm and nonblocking schedule on 8 grids drawn
#                     at random from a fixed seed (test/smpi/random-grids.sh)
#   make bench-grid   simulated timings, tables, CSVs and PNGs: all-to-all (scripts/bench-grid.sh)
#                     then broadcast (scripts/bench-grid-bcast.sh)
#   make bench-grid-bcast  the broadcast part alone
#   make bench-auto   every algorithm, auto and every model's error (scripts/bench-auto.sh)
#   make bench-nbc-smpi  the nonblocking schedules against their blocking forms, and how
#                     much computation hides them (scripts/bench-nbc-smpi.sh)

SMPICC  ?= smpicc
SMPIRUN ?= smpirun
SMPI_BUILD := $(BUILD)/smpi
SMPI_OBJ   := $(LIB_SRC:%.c=$(SMPI_BUILD)/obj/%.o)
SMPI_PROGRAMS := $(SMPI_BUILD)/alltoall $(SMPI_BUILD)/bcast $(SMPI_BUILD)/bcast_mixed \
                 $(SMPI_BUILD)/alltoallv $(SMPI_BUILD)/fft_transpose \
                 $(SMPI_BUILD)/alltoall_bench $(SMPI_BUILD)/alltoallv_bench $(SMPI_BUILD)/auto_bench \
                 $(SMPI_BUILD)/gridcoll-calibrate $(SMPI_BUILD)/bcast_bench $(SMPI_BUILD)/sweep \
                 $(SMPI_BUILD)/skew $(SMPI_BUILD)/nbcbench $(SMPI_BUILD)/nb_basic \
                 $(SMPI_BUILD)/crosstraffic
# Packages only these targets need (scripts/deps.sh installs what is missing).
SMPI_DEPS  := libsimgrid-dev
BENCH_DEPS := $(SMPI_DEPS) python3-matplotlib

.PHONY: smpi check-smpi bench-grid bench-grid-bcast bench-model-smpi bench-auto bench-alltoallv \
        bench-nbc-smpi

smpi: $(SMPI_PROGRAMS)

$(SMPI_BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) -fvisibility=hidden $(INCLUDES) $(LIBCONFIG_CFLAGS) -MMD -MP -c $< -o $@

# The MPI test programs of test/mpi, unchanged, with gridcoll linked in.
$(SMPI_BUILD)/alltoall $(SMPI_BUILD)/bcast $(SMPI_BUILD)/bcast_mixed $(SMPI_BUILD)/alltoallv \
$(SMPI_BUILD)/fft_transpose $(SMPI_BUILD)/skew $(SMPI_BUILD)/nb_basic: $(SMPI_BUILD)/%: test/mpi/%.c test/mpi/mpitest.h $(SMPI_OBJ)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) -Itest/mpi $< $(SMPI_OBJ) -o $@ $(LIBCONFIG_LIBS) -lm

# make demo's program (test/mpi/sweep.c knows nothing of gridcoll; linked in here).
$(SMPI_BUILD)/sweep: test/mpi/sweep.c $(SMPI_OBJ)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) $< $(SMPI_OBJ) -o $@ $(LIBCONFIG_LIBS) -lm

$(SMPI_BUILD)/alltoall_bench $(SMPI_BUILD)/alltoallv_bench $(SMPI_BUILD)/bcast_bench \
$(SMPI_BUILD)/auto_bench: $(SMPI_BUILD)/%: test/bench/%.c test/bench/bench.h tools/start_together.h $(SMPI_OBJ)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) $< $(SMPI_OBJ) -o $@ $(LIBCONFIG_LIBS) -lm

# SimGrid's acknowledgement traffic alone (scripts/bench-crosstraffic.sh): no gridcoll in it.
$(SMPI_BUILD)/crosstraffic: test/bench/crosstraffic.c test/bench/bench.h tools/start_together.h
	@mkdir -p $(@D)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) $< -o $@

# The nonblocking schedules against their blocking forms (scripts/bench-nbc-smpi.sh): the
# namespace rig's benchmark, its computation simulated.
$(SMPI_BUILD)/nbcbench: test/multihost/nbcbench.c $(SMPI_OBJ)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) $< $(SMPI_OBJ) -o $@ $(LIBCONFIG_LIBS) -lm

# The calibration tool measures the MPI library itself: no gridcoll objects linked in.
SMPI_PURE_OBJ := $(PURE_SRC:%.c=$(SMPI_BUILD)/obj/%.o)
$(SMPI_BUILD)/gridcoll-calibrate: $(CALIBRATE_SRC) tools/calibrate/calibrate.h tools/start_together.h $(SMPI_PURE_OBJ)
	$(SMPICC) $(STD) $(WARN) $(CFLAGS) $(INCLUDES) -Itools/calibrate $(CALIBRATE_SRC) $(SMPI_PURE_OBJ) -o $@ $(LIBCONFIG_LIBS) -lm

# run.sh: byte-for-byte tests; calibrate-loop.sh: calibrate a simulated grid, write its
# platform (-p), predictions from the written configuration against runs on it (~30 s);
# log-actual.sh: the logged completion time equals the simulated one (~5 s); learn.sh: auto
# converges to the fastest measured broadcast under a configuration wrong by 2x (~20 s);
# drift.sh: auto moves to the new best when a wide-area link slows under a running job
# (~25 s); nonblocking.sh: the schedules behind plain generalized requests (~10 s);
# random-grids.sh: every grid algorithm and schedule on 8 random grids, byte for byte
# (~90 s).
check-smpi:
	GRIDCOLL_DEPS_EXTRA="$(SMPI_DEPS)" scripts/deps.sh
	$(MAKE) smpi $(TOOLS)
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/run.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/alltoallv.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/calibrate-loop.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/curve.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/native.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/log-actual.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/learn.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/drift.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/nonblocking.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" test/smpi/random-grids.sh

bench-grid:
	GRIDCOLL_DEPS_EXTRA="$(BENCH_DEPS)" scripts/deps.sh
	$(MAKE) smpi
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-grid.sh
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-grid-bcast.sh

bench-grid-bcast:
	GRIDCOLL_DEPS_EXTRA="$(BENCH_DEPS)" scripts/deps.sh
	$(MAKE) smpi
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-grid-bcast.sh

# Calibrate 16 simulated processes, predict the native all-to-all of 8..64 (~2 min).
bench-model-smpi:
	GRIDCOLL_DEPS_EXTRA="$(SMPI_DEPS)" scripts/deps.sh
	$(MAKE) smpi $(TOOLS)
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-model-smpi.sh

# Every algorithm's simulated time, auto's pick and loss, every model's error (~15 min).
bench-auto:
	GRIDCOLL_DEPS_EXTRA="$(BENCH_DEPS)" scripts/deps.sh
	$(MAKE) smpi $(TOOLS)
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-auto.sh

# MPI_Alltoallv in simulation: uniform, skewed and FFT-transpose counts on g5k2, korea8 and
# the uneven 16+48 layout, gridcoll's lg and auto against SMPI's alltoallv algorithms
# (scripts/bench-alltoallv.sh: raw.csv, results.csv, a table and alltoallv.png).
bench-alltoallv:
	GRIDCOLL_DEPS_EXTRA="$(BENCH_DEPS)" scripts/deps.sh
	$(MAKE) smpi
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-alltoallv.sh

# The nonblocking schedules against their blocking forms under SMPI, and how much
# simulated computation hides them (scripts/bench-nbc-smpi.sh, issue 28; about 10 s).
bench-nbc-smpi:
	GRIDCOLL_DEPS_EXTRA="$(SMPI_DEPS)" scripts/deps.sh
	$(MAKE) $(SMPI_BUILD)/nbcbench
	SMPIRUN="$(SMPIRUN)" BUILD="$(BUILD)" scripts/bench-nbc-smpi.sh
