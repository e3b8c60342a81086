# pact - see README.md.  `make run` and `make test` are all a fresh Debian 12 machine needs.
.DEFAULT_GOAL := all
SHELL := /bin/bash

BUILD ?= build
BIN := $(BUILD)/bin
PREFIX ?= /usr/local

CC ?= cc
SMPICC ?= smpicc
MPICC ?= mpicc.openmpi
MPICC_MPICH ?= mpicc.mpich

OPT ?= -O2 -g
# The host's code (the model engine, the tuner) at -O3 where OPT says -O2: the evaluator's cells at 1024 ranks
# take 3-18% less time (results/reference/model-speed.md), and the answers are the same bytes (C11 mode
# contracts no floating-point expression, and -O3 reassociates none).  The ranks' code keeps OPT.
HOST_OPT ?= $(patsubst -O2,-O3,$(OPT))
WARN := -Wall -Wextra -Wstrict-prototypes
ifneq ($(filter true 1,$(CI) $(WERROR)),)
WARN += -Werror
endif
BASE_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(HOST_OPT) $(WARN) $(SAN) -MMD -MP
# Folders by where code runs and by layer (DESIGN.md "Layout"; scripts/layering.sh checks the includes).
RANK_INC := -Isim/ir -Isim/coll -Isim/coll/common -Isim/rank -I$(BUILD)/gen
INC := $(RANK_INC) -Isim/host -Isim/engines -Isim/study -Isim/report -Ipatterns -Iplatforms -Imodels -Ituner \
       -Ituner/objectives -Ituner/table -Ituner/emit -Ituner/tune -Icli
# Recursive (=): expanded when a recipe runs, after `deps` has installed the packages.
HOST_CFLAGS = $(BASE_CFLAGS) $(INC) $(shell pkg-config --cflags glib-2.0 yaml-0.1 json-glib-1.0 libxxhash)
HOST_LIBS = $(shell pkg-config --libs glib-2.0 yaml-0.1 json-glib-1.0 libxxhash) -lm

# Schedule IR, registry and builders: plain C, compiled into host tools and rank binaries alike.
SCHED_SRC := sim/ir/sched.c sim/ir/program.c sim/ir/sizes.c $(sort $(wildcard sim/coll/*.c sim/coll/*/*.c))
# Code that runs inside MPI ranks (plain C11 + MPI, no GLib): one static library per MPI flavour.
RANK_SRC := sim/rank/exec.c sim/rank/comm.c $(SCHED_SRC)
# The bench driver: main, cells and the measurement (bench.c), data, clocks and protocol, checks and matrix.
BENCH_SRC := $(sort $(wildcard sim/rank/bench*.c))
# libpact (tuner/libpact): PMPI wrappers, table reader, arrival tracer; one shared library per MPI flavour.
LIBPACT_SRC := $(sort $(wildcard tuner/libpact/*.c))
LIB := $(BUILD)/lib
RANK_HDR = $(wildcard sim/ir/*.h sim/coll/*.h sim/coll/*/*.h sim/coll/*/*.inc sim/rank/*.h)
HOST_SRC := $(SCHED_SRC) sim/ir/dryrun.c $(wildcard sim/host/*.c sim/engines/*.c sim/study/*.c sim/report/*.c) \
            $(wildcard patterns/*.c) $(wildcard platforms/*.c) $(wildcard models/*.c) $(filter-out tuner/libpact/%,$(wildcard tuner/*.c tuner/*/*.c)) \
            $(filter-out cli/pact.c,$(wildcard cli/*.c))
HOST_OBJ := $(HOST_SRC:%.c=$(BUILD)/host/%.o) $(BUILD)/host/gen/platforms_yaml.o
PLATFORM_YAML := $(sort $(wildcard platforms/*.yaml))
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps sim real test test-heavy unit integration run teaching bench bench-platforms bench-fidelity bench-real bench-arrivals bench-model bench-sim bench-tune bench-libpact install clean check-asan format

all: deps $(BIN)/pact sim $(LIB)/libpact-ompi.so $(LIB)/libpact-mpich.so

deps:
	@bash scripts/install-deps.sh

sim: $(BIN)/pact-bench-smpi $(BIN)/pact-smpi-clock.so $(BIN)/pact-probe-smpi
real: deps $(BIN)/pact-bench-mpi $(BIN)/pact-bench-mpich $(LIB)/libpact-ompi.so $(LIB)/libpact-mpich.so $(BUILD)/tests/ucx-yield.so

$(BUILD)/host/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -c $< -o $@

# The built-in machines' YAML, compiled in as strings so that an installed pact needs no data files.
$(BUILD)/gen/platforms_yaml.c: $(PLATFORM_YAML) Makefile
	@mkdir -p $(@D)
	@{ echo '/* generated from platforms/NAME.yaml by the Makefile */'; \
	  echo 'const char *const pact_builtin_yaml[][2] = {'; \
	  for f in $(PLATFORM_YAML); do \
	    echo "    {\"$$f\","; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/     "/' -e 's/$$/\\n"/' "$$f"; \
	    echo '    },'; \
	  done; \
	  echo '    {0, 0}};'; } > $@.tmp && mv $@.tmp $@

# The registry's rows: each collective's algs.inc, in the order of the traits table (collectives.inc).
$(BUILD)/gen/pact_algs.inc: sim/coll/collectives.inc $(wildcard sim/coll/*/algs.inc)
	@mkdir -p $(@D)
	@{ echo '/* generated from sim/coll/collectives.inc by the Makefile */'; \
	  for c in $$(sed -n 's/^PACT_COLLECTIVE(\([a-z_]*\),.*/\1/p' $<); do echo "#include \"$$c/algs.inc\""; done; \
	} > $@.tmp && mv $@.tmp $@
$(BUILD)/host/sim/coll/registry.o $(BUILD)/smpi/sim/coll/registry.o $(BUILD)/ompi/sim/coll/registry.o \
$(BUILD)/mpich/sim/coll/registry.o: $(BUILD)/gen/pact_algs.inc

$(BUILD)/host/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -c $< -o $@

$(BUILD)/libpact-host.a: $(HOST_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/pact: $(BUILD)/host/cli/pact.o $(BUILD)/libpact-host.a
	@mkdir -p $(@D)
	$(CC) $(OPT) $(SAN) -o $@ $^ $(HOST_LIBS)

# The rank side, built once per MPI flavour: SMPI (simulation), Open MPI and MPICH (real machines).  Each
# flavour compiles the rank sources into $(BUILD)/<flavour>/ and archives them as libpact-rank.a (-fPIC, so
# a shared run-time library can link them); the bench driver links that library.
RANK_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) -fPIC -MMD -MP $(RANK_INC)
SMPI_OBJ := $(RANK_SRC:%.c=$(BUILD)/smpi/%.o)
OMPI_OBJ := $(RANK_SRC:%.c=$(BUILD)/ompi/%.o)
MPICH_OBJ := $(RANK_SRC:%.c=$(BUILD)/mpich/%.o)

# smpicc: SimGrid's own flags; warnings without -Werror (SMPI's headers are not -Wstrict-prototypes clean).
$(BUILD)/smpi/%.o: %.c | deps
	@mkdir -p $(@D)
	$(SMPICC) $(RANK_CFLAGS) -Wall -Wextra -DPACT_SMPI -c $< -o $@
$(BUILD)/ompi/%.o: %.c | deps
	@mkdir -p $(@D)
	$(MPICC) $(RANK_CFLAGS) $(WARN) $(SAN) -c $< -o $@
$(BUILD)/mpich/%.o: %.c | deps
	@mkdir -p $(@D)
	$(MPICC_MPICH) $(RANK_CFLAGS) $(WARN) $(SAN) -c $< -o $@

$(BUILD)/%/libpact-rank.a:
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/smpi/libpact-rank.a: $(SMPI_OBJ)
$(BUILD)/ompi/libpact-rank.a: $(OMPI_OBJ)
$(BUILD)/mpich/libpact-rank.a: $(MPICH_OBJ)

$(BIN)/pact-bench-smpi: $(BENCH_SRC:%.c=$(BUILD)/smpi/%.o) $(BUILD)/smpi/libpact-rank.a
	@mkdir -p $(@D)
	$(SMPICC) $(OPT) -o $@ $^ -lm

$(BIN)/pact-bench-mpi: $(BENCH_SRC:%.c=$(BUILD)/ompi/%.o) $(BUILD)/ompi/libpact-rank.a
	@mkdir -p $(@D)
	$(MPICC) $(OPT) $(SAN) -o $@ $^ -lm

$(BIN)/pact-bench-mpich: $(BENCH_SRC:%.c=$(BUILD)/mpich/%.o) $(BUILD)/mpich/libpact-rank.a
	@mkdir -p $(@D)
	$(MPICC_MPICH) $(OPT) $(SAN) -o $@ $^ -lm

# libpact: the rank library linked in, its symbols hidden but for the MPI functions it wraps and pact_lib_*
# (libpact.map), so that a program linking pact's rank library itself cannot interpose on libpact's copy.
$(LIB)/libpact-ompi.so: $(LIBPACT_SRC:%.c=$(BUILD)/ompi/%.o) $(BUILD)/ompi/libpact-rank.a tuner/libpact/libpact.map
	@mkdir -p $(@D)
	$(MPICC) $(OPT) $(SAN) -shared -o $@ $(filter %.o %.a,$^) -Wl,--version-script=tuner/libpact/libpact.map -lm
$(LIB)/libpact-mpich.so: $(LIBPACT_SRC:%.c=$(BUILD)/mpich/%.o) $(BUILD)/mpich/libpact-rank.a tuner/libpact/libpact.map
	@mkdir -p $(@D)
	$(MPICC_MPICH) $(OPT) $(SAN) -shared -o $@ $(filter %.o %.a,$^) -Wl,--version-script=tuner/libpact/libpact.map -lm

# Preloaded into smpirun by pact (see the file): plain C, no SMPI headers.
$(BIN)/pact-smpi-clock.so: sim/rank/smpi_clock.c | deps
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -fPIC -shared -o $@ $< -ldl

$(BIN)/pact-probe-smpi: sim/rank/probe.c | deps
	@mkdir -p $(@D)
	$(SMPICC) -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) -Wall -Wextra -o $@ $<

# Preloaded into MPICH's ranks by the tests (see the file).
$(BUILD)/tests/ucx-yield.so: tests/support/ucx_yield.c | deps
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -fPIC -shared -o $@ $< -ldl

$(BUILD)/tests/%: $(BUILD)/host/tests/unit/%.o $(BUILD)/libpact-host.a
	@mkdir -p $(@D)
	$(CC) $(OPT) $(SAN) -o $@ $^ $(HOST_LIBS)

# ---- tests -------------------------------------------------------------------------------------------
unit: all $(TEST_BIN)
	@bash tests/run-all.sh --unit-only $(TEST_BIN)

integration: all real
	@bash tests/run-all.sh --integration-only

test: all real $(TEST_BIN)
	@bash tests/run-all.sh $(TEST_BIN)

# The integration tests' heavy part (tests/integration/lib.sh, PACT_TEST_PART): the correctness matrices through
# Open MPI, MPICH and libpact at the process counts of 1..17 beside lib.sh's MATRIX_PS, SMPI's at 100 ranks and at
# 2^20 elements on 7, 16 and 32 ranks, Open MPI's at 2^20 elements on 1, 2 and 4 ranks (and ints on 3), which had
# kept make test near 25 minutes on 2 cores; CI (.ci/run) runs it after make test.
test-heavy: all real
	@bash tests/run-all.sh --heavy

# Unit tests under AddressSanitizer and UndefinedBehaviorSanitizer, in a separate build tree.
check-asan: deps
	$(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" OPT="-O1 -g" \
	    build-asan/bin/pact $(patsubst $(BUILD)/%,build-asan/%,$(TEST_BIN))
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	    bash tests/run-all.sh --unit-only $(patsubst $(BUILD)/%,build-asan/%,$(TEST_BIN))

# ---- the main job: a small what-if study on the built-in generic32x32 ------------------------------------
RUN_DIR ?= results/run-$(shell date +%Y%m%d-%H%M%S)
run: all
	$(BIN)/pact sim experiments/seeds-compact.yaml -o $(RUN_DIR)
	@echo "figures: $(RUN_DIR)/heatmap-*.png, robustness-*.png, score-*.png (and .svg); redraw: $(BIN)/pact report $(RUN_DIR)"

bench: bench-platforms bench-fidelity bench-real bench-libpact bench-arrivals bench-model bench-sim bench-tune

# Every built-in at full size under smpirun (ping + allreduce at up to 1024 ranks) and its probe (~30 s).
bench-platforms: all
	@mkdir -p results
	bash scripts/bench-platforms.sh | tee results/bench-platforms-$(shell date +%Y%m%d-%H%M%S).txt

# pact against Open MPI's same algorithm on 4 real ranks; simulation wall-clock against SMPI at 256 ranks.
bench-real: all real
	bash scripts/bench-real.sh --rounds 5 | tee results/bench-real-$(shell date +%Y%m%d-%H%M%S).txt

# The teaching set (issue 20): experiments/teaching/examples.txt drawn by pact timeline into
# results/reference/teaching (TEACHING_DIR=... elsewhere); a few seconds.
TEACHING_DIR ?= results/reference/teaching
teaching: all
	bash experiments/teaching/run.sh -o $(TEACHING_DIR)

# libpact (issue 19): pact's algorithms through libpact against Open MPI forced to the same algorithm, then what a
# fallback and the tracer cost at 8 B (scripts/bench-real.sh --libpact; BENCH_ARGS="--np 16 --rounds 3" on a big box).
bench-libpact: all real
	@mkdir -p results
	bash scripts/bench-real.sh --libpact --rounds 3 $(BENCH_ARGS) | tee results/bench-libpact-$(shell date +%Y%m%d-%H%M%S).txt

# How faithfully the driver imposes arrival patterns on real MPI: error per rank count, shape and skew (~1 min).
bench-arrivals: all real
	@mkdir -p results
	bash scripts/arrival-accuracy.sh --mpis openmpi,mpich | tee results/arrival-accuracy-$(shell date +%Y%m%d-%H%M%S).txt

# The model engine's speed on one core: evaluator messages/s, closed-form predictions/s, then seconds and peak
# memory per cell at 1024, 256, 16384 and 2^20 ranks (an hour or more on today's evaluator; BENCH_ARGS=--quick
# for a smoke run, --largest adds the largest P per algorithm within 60 s; 1024 ranks at 10 sizes under the 11
# shapes by default, --sizes and --shapes narrow them; scripts/bench-model.sh).
BENCH_ARGS ?=
bench-model: all
	@mkdir -p results
	PACT=$(BIN)/pact bash scripts/bench-model.sh $(BENCH_ARGS) -o results/bench-model-$(shell date +%Y%m%d-%H%M%S)

# pact against SimGrid's built-ins, every pair of the registry, 64 and 256 ranks (minutes; see the script).
bench-fidelity: all
	bash scripts/fidelity.sh --procs "64 256" | tee results/fidelity-$(shell date +%Y%m%d-%H%M%S).txt

# The seeds' reduce study at full scale (1024 ranks, SMPI; ~10-20 min on 2 cores) and the replay engine's
# memory at 1024 ranks x 64 MiB; report and figures in results/bench-sim-*/ (--reference: results/reference/).
bench-sim: all
	bash scripts/bench-sim.sh

# pact tune at scale (issue 18): a full model table (7 collectives, 2..1024 ranks, 1 B..64 MiB, 11 shapes; target
# < 2 min) and hybrid:3 up to 256 ranks (target < 30 min); BENCH_TUNE_ARGS=--model-only for the first alone.
BENCH_TUNE_ARGS ?=
bench-tune: all
	@mkdir -p results
	PACT=$(BIN)/pact bash scripts/bench-tune.sh $(BENCH_TUNE_ARGS) -o results/bench-tune-$(shell date +%Y%m%d-%H%M%S)

install: all real
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN)/pact $(BIN)/pact-bench-smpi $(BIN)/pact-probe-smpi $(BIN)/pact-bench-mpi $(BIN)/pact-bench-mpich \
	    $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BIN)/pact-smpi-clock.so $(DESTDIR)$(PREFIX)/bin/ # next to pact-bench-smpi, where pact looks
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(LIB)/libpact-ompi.so $(LIB)/libpact-mpich.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 tuner/libpact/libpact.h $(DESTDIR)$(PREFIX)/include/

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
