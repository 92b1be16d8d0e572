# Fuzzing the configuration loader and the text parsers (test/fuzz/, doc/testing.md "Fuzzing").
#
#   make fuzz                 install clang's libFuzzer if missing, build the targets and run
#                             each for FUZZ_SECONDS; fails when one finds a crash, a hang
#                             (FUZZ_TIMEOUT s on one input), a leak or undefined behaviour
#   make check-fuzz-regress   replay the seed corpus and every kept crash through the same
#                             targets without fuzzing, built with plain $(CC) (run by `make check`)
#
# Targets: fuzz_config (file + environment -> loader -> topology -> predictions) and
# fuzz_units (units, rank ranges). New corpus entries go to $(BUILD)/fuzz/corpus/<target>,
# crashes to $(BUILD)/fuzz/crashes/<target>: minimize one with
#   $(BUILD)/fuzz/fuzz_<target> -minimize_crash=1 -runs=100000 CRASH
# and keep it, once fixed, in test/fuzz/regressions/<target>/.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 5
FUZZ_TARGETS := config units
FUZZ_DEPS    := clang libclang-rt-dev
FUZZ_OUT     := $(BUILD)/fuzz
FUZZ_MAXLEN_config := 16384
FUZZ_MAXLEN_units  := 512
# A leak inside libconfig's parser, out of gridcoll's reach (see the file).
FUZZ_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/test/fuzz/lsan.supp:print_suppressions=0 \
            UBSAN_OPTIONS=print_stacktrace=1

# float-cast-overflow is not part of gcc's "undefined": a double too large for an int is.
FUZZ_SAN := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_CFLAGS := $(STD) $(WARN) -g -O1 -fno-omit-frame-pointer $(INCLUDES) $(LIBCONFIG_CFLAGS)
# The harnesses assert exact round trips (a value printed with %.17g parses back to the
# same double), as the unit tests do: -Wfloat-equal is off for them (Makefile: UNIT_WARN).
FUZZ_HARNESS_WARN := -Wno-float-equal
# The replay builds with $(CC)'s sanitizers where it has them (gcc on Debian does), and
# without where it does not: the inputs still run. Probed once, on first use.
REPLAY_SAN = $(eval REPLAY_SAN := $(shell echo 'int main(void){return 0;}' | \
  $(CC) $(FUZZ_SAN) -x c - -o /dev/null 2>/dev/null && echo '$(FUZZ_SAN)'))$(REPLAY_SAN)

.PHONY: fuzz fuzz-run check-fuzz-regress

$(FUZZ_OUT)/fuzz-obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_SAN) -MMD -MP -c $< -o $@

$(FUZZ_OUT)/replay-obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(REPLAY_SAN) -MMD -MP -c $< -o $@

$(FUZZ_OUT)/libgc-fuzz.a: $(PURE_SRC:%.c=$(FUZZ_OUT)/fuzz-obj/%.o)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_OUT)/libgc-replay.a: $(PURE_SRC:%.c=$(FUZZ_OUT)/replay-obj/%.o)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_OUT)/fuzz_%: test/fuzz/fuzz_%.c $(FUZZ_OUT)/libgc-fuzz.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_HARNESS_WARN) -fsanitize=fuzzer $(FUZZ_SAN) $< -o $@ $(FUZZ_OUT)/libgc-fuzz.a $(LIBCONFIG_LIBS) -lm

$(FUZZ_OUT)/replay_%: test/fuzz/fuzz_%.c test/fuzz/replay.c $(FUZZ_OUT)/libgc-replay.a
	$(CC) $(FUZZ_CFLAGS) $(FUZZ_HARNESS_WARN) $(REPLAY_SAN) test/fuzz/replay.c $< -o $@ $(FUZZ_OUT)/libgc-replay.a $(LIBCONFIG_LIBS) -lm

fuzz:
	GRIDCOLL_DEPS_EXTRA="$(FUZZ_DEPS)" scripts/deps.sh
	$(MAKE) fuzz-run

# One core, niced: fuzzing shares the machine. libFuzzer exits non-zero on any finding.
# Leaks are checked after fuzzing, on the whole grown corpus at once (the replay, where
# LeakSanitizer reports at exit): libFuzzer's own check stops the process for a full heap
# scan after every input that allocated more than it freed, which libconfig's leak (see
# lsan.supp) makes most syntax errors do; that cut throughput more than tenfold.
fuzz-run: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz_%) $(FUZZ_TARGETS:%=$(FUZZ_OUT)/replay_%)
	@fail=0; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_OUT)/corpus/$$t $(FUZZ_OUT)/crashes/$$t; \
	  echo "gridcoll: fuzzing $$t for $(FUZZ_SECONDS) s (log: $(FUZZ_OUT)/$$t.log)"; \
	  max=$(FUZZ_MAXLEN_config); [ $$t = units ] && max=$(FUZZ_MAXLEN_units); \
	  $(FUZZ_ENV) nice -n 10 $(FUZZ_OUT)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
	    -rss_limit_mb=2048 -max_len=$$max -dict=test/fuzz/$$t.dict -print_final_stats=1 -detect_leaks=0 \
	    -artifact_prefix=$(FUZZ_OUT)/crashes/$$t/ $(FUZZ_OUT)/corpus/$$t test/fuzz/corpus/$$t \
	    >$(FUZZ_OUT)/$$t.log 2>&1; rc=$$?; \
	  grep -E '^#[0-9]+.*(INITED|DONE)|^stat::|ERROR|^SUMMARY|Test unit written' $(FUZZ_OUT)/$$t.log; \
	  [ $$rc = 0 ] || { echo "gridcoll: fuzz_$$t FAILED (exit $$rc): see $(FUZZ_OUT)/crashes/$$t/"; fail=1; }; \
	  ASAN_OPTIONS=detect_leaks=1 $(FUZZ_ENV) nice -n 10 $(FUZZ_OUT)/replay_$$t $(FUZZ_OUT)/corpus/$$t \
	    || { echo "gridcoll: replaying fuzz_$$t's corpus FAILED (a leak?)"; fail=1; }; \
	done; exit $$fail

check-fuzz-regress: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/replay_%)
	@for t in $(FUZZ_TARGETS); do \
	  ASAN_OPTIONS=detect_leaks=1 $(FUZZ_ENV) $(FUZZ_OUT)/replay_$$t test/fuzz/corpus/$$t test/fuzz/regressions/$$t || exit 1; \
	done
