# The PMPI test tool (test/mpi/tool/counting_tool.c), preloaded beside gridcoll by
# test/mpi/run.sh to show how two PMPI tools stack. Included by the Makefile.
COUNTING_TOOL := $(BUILD)/test/mpi/counting_tool.so

all: $(COUNTING_TOOL)
check-mpi: $(COUNTING_TOOL)

$(COUNTING_TOOL): test/mpi/tool/counting_tool.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) -fPIC -shared $< -o $@
