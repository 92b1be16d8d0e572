# Fault injection (issue 24): every allocation gridcoll makes, failed one at a time on one
# rank, must leave every rank on the same road, the results byte-identical and one
# warning saying memory ran out (test/faults/run.sh, doc/testing.md). Included by the
# Makefile.
#
#   make check-faults               under MPICH
#   make check-faults MPI=openmpi   under Open MPI
#   make check-faults FAULTS_EXPECTED=FILE
#                                   the failures FILE lists do not fail the target
#
# The injector is plain C, no MPI: one shared object serves both MPI builds.
FAILALLOC := $(BUILD)/test/faults/libfailalloc.so

.PHONY: check-faults
all: $(FAILALLOC)

$(FAILALLOC): test/faults/failalloc.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) $(CFLAGS) -fPIC -shared $< -o $@ -ldl

check-faults: $(LIB) $(MPI_TESTS) $(FAILALLOC)
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" GRIDCOLL_LIB="$(LIB)" FAULTS_EXPECTED="$(FAULTS_EXPECTED)" \
	  test/faults/run.sh $(FAULTS_SCENARIOS)
