# Multi-host tests and benchmarks on one machine (included by the Makefile): hosts are
# network namespaces wired into clusters by scripts/grid-up, their backbone shaped by tc;
# MPICH's mpiexec reaches them through scripts/grid-exec instead of ssh.
#
#   make check-multihost   every algorithm across hosts, clusters from host globs, and
#                          gridcoll-calibrate's backbone bandwidth against the shaped rate
#                          (test/multihost/run.sh, about a minute and a half; root: it says
#                          SKIP with the reason where namespaces cannot be made)
#   make bench-multihost   native against LG and the trees across hosts, real time,
#                          medians, ratios and the models' errors (scripts/bench-multihost.sh)

# Packages only these targets need (scripts/deps.sh installs what is missing; only as
# root, since without root the targets skip anyway).
MULTIHOST_DEPS := iproute2 util-linux mount hostname
MULTIHOST_INSTALL = [ "$$(id -u)" != 0 ] || GRIDCOLL_DEPS_EXTRA="$(MULTIHOST_DEPS)" scripts/deps.sh

.PHONY: check-multihost bench-multihost multihost-tools

# The rig's own programs (plain C, no MPI): the user-space wide area (delayd, this kernel
# has no netem), the measuring instrument (gridnet) and the reader of grid descriptions,
# which are gridcoll configuration files read by gridcoll's own loader (gridcfg).
MULTIHOST_TOOLS := $(BUILD)/test/multihost/delayd $(BUILD)/test/multihost/gridnet \
                   $(BUILD)/test/multihost/gridcfg
multihost-tools: $(MULTIHOST_TOOLS)

$(BUILD)/test/multihost/delayd $(BUILD)/test/multihost/gridnet: $(BUILD)/test/multihost/%: test/multihost/%.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $< -o $@

# The benchmark's MPI program, linked without gridcoll (it gets it through LD_PRELOAD).
$(BUILD)/test/multihost/gridbench: test/multihost/gridbench.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) $< -o $@

$(BUILD)/test/multihost/gridcfg: test/multihost/gridcfg.c $(PURE_LIB)
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(INCLUDES) $< -o $@ $(PURE_LIB) $(LIBCONFIG_LIBS) -lm

check-multihost: $(LIB) $(MPI_TESTS) $(CALIBRATE) $(MULTIHOST_TOOLS)
	$(MULTIHOST_INSTALL)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" test/multihost/run.sh

bench-multihost: $(LIB) $(MULTIHOST_TOOLS) $(BUILD)/test/multihost/gridbench
	[ "$$(id -u)" != 0 ] || GRIDCOLL_DEPS_EXTRA="$(MULTIHOST_DEPS) python3-matplotlib" scripts/deps.sh
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" scripts/bench-multihost.sh
