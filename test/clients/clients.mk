# Third-party clients under gridcoll (included by the Makefile): programs nobody here
# wrote, from Debian's packages, judged by their own checks (test/clients/run.sh).
#
#   make check-clients               under MPICH (part of make check, after check-mpi)
#   make check-clients MPI=openmpi   under Open MPI (part of make check-openmpi)
#
# Nothing is built but gridcoll: the clients are Debian's binaries, linked without it.

# ScaLAPACK's testers (BLACS broadcasts, LU) for MPICH and Open MPI; HPCC (Open MPI).
CLIENT_DEPS += scalapack-mpi-test hpcc

.PHONY: check-clients

check-clients: $(LIB)
	GRIDCOLL_DEPS_EXTRA="$(MPI_DEPS) $(CLIENT_DEPS)" scripts/deps.sh
	MPIEXEC="$(MPIEXEC)" BUILD="$(BUILD)" GRIDCOLL_LIB="$(LIB)" test/clients/run.sh
