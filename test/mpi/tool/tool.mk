# The PMPI test tools, preloaded by test/mpi/run.sh: counting_tool.c beside gridcoll, to
# show how two PMPI tools stack; verdict_tool.c before it, to fail one rank's packing and
# count agreements (the relayed all-to-all's verdict). Included by the Makefile.
COUNTING_TOOL := $(BUILD)/test/mpi/counting_tool.so
VERDICT_TOOL := $(BUILD)/test/mpi/verdict_tool.so

all: $(COUNTING_TOOL) $(VERDICT_TOOL)
check-mpi: $(COUNTING_TOOL) $(VERDICT_TOOL)

$(COUNTING_TOOL): test/mpi/tool/counting_tool.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) -fPIC -shared $< -o $@

$(VERDICT_TOOL): test/mpi/tool/verdict_tool.c
	@mkdir -p $(@D)
	$(MPICC) $(STD) $(WARN) $(CFLAGS) -fPIC -shared $< -o $@ -ldl
