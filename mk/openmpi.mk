# The Open MPI build (included by the Makefile): the same sources compiled with
# mpicc.openmpi into build/openmpi/, library libgridcoll-openmpi.so, every test program
# built with Open MPI too. `make MPI=openmpi <target>` does any target that way (the
# switch is at the top of the Makefile); the targets here do it from a default build:
#
#   make check-openmpi   build the Open MPI variant, run test/mpi/run.sh under
#                        mpirun.openmpi, then test/clients/run.sh (third-party
#                        clients), then test/openmpi/wrong-mpi.sh (each build
#                        preloaded into a program of the other MPI), then
#                        test/openmpi/ptscotch.sh (PT-Scotch's dgord, a real client
#                        of MPI_Alltoallv from Debian, under gridcoll)
#   make demo MPI=openmpi

# Packages the Open MPI build needs (scripts/deps.sh installs what is missing).
OPENMPI_DEPS := openmpi-bin libopenmpi-dev
# Real unmodified clients check-openmpi runs under gridcoll (built against Debian's
# default MPI, Open MPI on amd64): ptscotch's dgord calls MPI_Alltoallv.
CLIENT_DEPS  := ptscotch
MPI_DEPS     := $(if $(filter openmpi,$(MPI)),$(OPENMPI_DEPS))
OPENMPI_BUILD := $(if $(filter openmpi,$(MPI)),$(BUILD),$(BUILD)/openmpi)
MPICH_BUILD   := $(if $(filter openmpi,$(MPI)),build,$(BUILD))

.PHONY: check-openmpi check-wrong-mpi check-ptscotch

check-openmpi:
	GRIDCOLL_DEPS_EXTRA="$(OPENMPI_DEPS) $(CLIENT_DEPS)" scripts/deps.sh
	$(MAKE) MPI=openmpi BUILD=$(OPENMPI_BUILD) check-mpi
	$(MAKE) MPI=openmpi BUILD=$(OPENMPI_BUILD) check-clients
	$(MAKE) check-wrong-mpi
	$(MAKE) check-ptscotch

# PT-Scotch's dgord (Debian's ptscotch) under the Open MPI build: its MPI_Alltoallv calls
# intercepted, run by LG-v when forced, its ordering byte-identical to a run without us.
check-ptscotch:
	GRIDCOLL_DEPS_EXTRA="$(OPENMPI_DEPS) $(CLIENT_DEPS)" scripts/deps.sh
	$(MAKE) MPI=openmpi BUILD=$(OPENMPI_BUILD) $(OPENMPI_BUILD)/libgridcoll-openmpi.so
	OPENMPI_BUILD="$(OPENMPI_BUILD)" test/openmpi/ptscotch.sh

# Each library preloaded into a program of the other MPI: one clear warning, every call
# passed through, results and exit code unchanged.
check-wrong-mpi:
	$(MAKE) MPI=mpich BUILD=$(MPICH_BUILD) $(MPICH_BUILD)/libgridcoll.so $(MPICH_BUILD)/test/mpi/alltoall $(MPICH_BUILD)/test/mpi/bcast
	$(MAKE) MPI=openmpi BUILD=$(OPENMPI_BUILD) $(OPENMPI_BUILD)/libgridcoll-openmpi.so $(OPENMPI_BUILD)/test/mpi/alltoall $(OPENMPI_BUILD)/test/mpi/bcast
	MPICH_BUILD="$(MPICH_BUILD)" OPENMPI_BUILD="$(OPENMPI_BUILD)" test/openmpi/wrong-mpi.sh
