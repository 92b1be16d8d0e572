# Multi-host tests and benchmarks on one machine (included by the Makefile): hosts are
# network namespaces wired into clusters by scripts/grid-up after a gridcoll configuration
# file, their wide area (delay, rate, queue per pair of clusters) made by
# test/multihost/delayd; MPICH's mpiexec reaches them through scripts/grid-exec instead
# of ssh (doc/grid-rig.md).
#
#   make check-multihost   delays, rates and drops of every link measured, every algorithm
#                          across the delayed clusters, gridcoll-calibrate's bandwidth
#                          (test/multihost/run.sh, about 4 minutes on 2 busy cores; root:
#                          it says SKIP with the reason where namespaces cannot be made)
#   make bench-multihost   native against LG and the trees on grid2 and grid3, real time,
#                          medians, ratios and the models' errors (scripts/bench-multihost.sh,
#                          about 11 minutes; CALIBRATE_FIRST=1: on what gridcoll-calibrate wrote there)
#   make bench-log-multihost  what the log costs a call over TCP, inside one cluster and
#                          across the wide area (scripts/bench-log-multihost.sh, issue 13)
#   make bench-nbc-multihost  gridcoll's nonblocking schedules against their blocking form
#                          and the share of them that computation hides, on grid3
#                          (scripts/bench-nbc-multihost.sh, issue 28; MPICH)

# Packages only these targets need (scripts/deps.sh installs what is missing; only as
# root, since without root the targets skip anyway).
MULTIHOST_DEPS := iproute2 util-linux mount hostname
MULTIHOST_INSTALL = [ "$$(id -u)" != 0 ] || GRIDCOLL_DEPS_EXTRA="$(MULTIHOST_DEPS)" scripts/deps.sh

.PHONY: check-multihost bench-multihost bench-log-multihost bench-nbc-multihost multihost-tools

# The rig's own programs (plain C, no MPI): the user-space wide area (delayd, this kernel
# has no netem), the measuring instrument (gridnet) and the reader of grid descriptions,
# which are gridcoll configuration files read by gridcoll's own loader (gridcfg).
MULTIHOST_TOOLS := $(BUILD)/test/multihost/delayd $(BUILD)/test/multihost/gridnet \
                   $(BUILD)/test/multihost/gridcfg
multihost-tools: $(MULTIHOST_TOOLS)

$(BUILD)/test/multihost/delayd $(BUILD)/test/multihost/gridnet: $(BUILD)/test/multihost/%: test/multihost/%.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $< -o $@

# The benchmarks' MPI programs, linked without gridcoll (they get it through LD_PRELOAD).
$(BUILD)/test/multihost/gridbench $(BUILD)/test/multihost/nbcbench: $(BUILD)/test/multihost/%: test/multihost/%.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) $< -o $@

$(BUILD)/test/multihost/gridcfg: test/multihost/gridcfg.c $(PURE_LIB)
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(INCLUDES) $< -o $@ $(PURE_LIB) $(LIBCONFIG_LIBS) -lm

check-multihost: $(LIB) $(MPI_TESTS) $(CALIBRATE) $(MULTIHOST_TOOLS)
	$(MULTIHOST_INSTALL)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" test/multihost/run.sh

# MPI_Alltoallv's timing program (test/bench/alltoallv_bench.c, shared with the SMPI
# benchmark), built against the real MPI, without gridcoll.
$(BUILD)/test/multihost/alltoallv_bench: test/bench/alltoallv_bench.c test/bench/bench.h
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) $< -o $@

bench-multihost: $(LIB) $(CALIBRATE) $(MULTIHOST_TOOLS) $(BUILD)/test/multihost/gridbench $(BUILD)/test/multihost/alltoallv_bench
	[ "$$(id -u)" != 0 ] || GRIDCOLL_DEPS_EXTRA="$(MULTIHOST_DEPS) python3-matplotlib" scripts/deps.sh
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-multihost.sh

bench-log-multihost: $(LIB) $(MULTIHOST_TOOLS) $(BUILD)/test/bench/passthrough
	$(MULTIHOST_INSTALL)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-log-multihost.sh

bench-nbc-multihost: $(LIB) $(MULTIHOST_TOOLS) $(BUILD)/test/multihost/nbcbench
	$(MULTIHOST_INSTALL)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-nbc-multihost.sh
