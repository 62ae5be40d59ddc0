# schedlab - build, test, benchmark.
#
#   make          build ./schedlab (installs missing Debian packages as root)
#   make test     unit, scenario and CLI tests under ASan/UBSan; ends "N passed, N failed"
#   make bench    time the standard benchmarks (events/s, wall time, peak memory)
#   make golden   rewrite tests/golden/reproduce.tsv, the simulated results that
#                 make test pins (commit it with the change that moved them)

CC      ?= cc
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)
PKGS    := json-c hwloc libxml-2.0 zlib
DEPS_OK := $(shell pkg-config --exists $(PKGS) 2>/dev/null && echo yes)
ifneq ($(DEPS_OK),yes)
$(shell sh scripts/install-deps.sh >&2)
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
# Link-time optimisation for the optimised build with GCC (the policies
# call the engine's small accessors across files in their hot loops):
# 4-10 % fewer instructions per run, the same results (the golden check).
# Not for the sanitizer and fuzz builds, nor for other compilers (clang's
# needs an LTO-capable linker).  LTO= turns it off.
LTO     ?= $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo -flto=auto)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Isrc -Ibuild/gen $(PKG_CFLAGS) -MMD -MP
LDLIBS  := $(PKG_LIBS) -lm -lpthread

LIB_SRC := $(sort $(wildcard src/base/*.c src/hw/*.c src/sim/*.c src/policy/*.c src/policy/*/*.c \
                             src/workload/*.c src/workload/*/*.c src/trace/*.c src/report/*.c src/real/*.c src/cli/*.c))
LIB_SRC := $(filter-out src/cli/main.c,$(LIB_SRC))
EXPERIMENTS := $(sort $(wildcard experiments/*.json))
TEST_SRC := $(sort $(wildcard tests/unit/*.c))

OBJ      := $(patsubst %.c,build/opt/%.o,$(LIB_SRC) build/gen/experiments_data.c)
TEST_OBJ := $(patsubst %.c,build/san/%.o,$(LIB_SRC) build/gen/experiments_data.c $(TEST_SRC))

.PHONY: all test bench clean check-deps
all: schedlab

schedlab: $(OBJ) build/opt/src/cli/main.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LTO) -o $@ $^ $(LDLIBS)

# Experiments are data files; they are compiled into the binary so that
# ./schedlab works from any directory.
# The names of the files a generated file is made from, rewritten only when
# the set changes: a removed file is no newer than the target, so the
# target depends on its list too.
build/gen/%.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(LIST_$*)' | cmp -s - $@ || echo '$(LIST_$*)' > $@
LIST_experiments = $(EXPERIMENTS)
LIST_tests = $(TEST_SRC)
.PHONY: FORCE

build/gen/experiments_data.c: $(EXPERIMENTS) build/gen/experiments.list scripts/embed-experiments.sh
	@mkdir -p $(dir $@)
	$(Q)sh scripts/embed-experiments.sh $(EXPERIMENTS) > $@

build/opt/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(LTO) -c -o $@ $<

SAN := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all
build/san/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC [san] $<")
	$(Q)$(CC) $(ALL_CFLAGS) -O1 $(SAN) -DSL_TESTING -c -o $@ $<

build/gen/tests_list.h: $(TEST_SRC) build/gen/tests.list scripts/gen-tests.sh
	@mkdir -p $(dir $@)
	$(Q)sh scripts/gen-tests.sh $(TEST_SRC) > $@

build/san/tests/unit/main.o: build/gen/tests_list.h

build/test_runner: $(TEST_OBJ) build/san/src/cli/main.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN) -o $@ $(filter-out build/san/src/cli/main.o,$(TEST_OBJ)) $(LDLIBS)

build/schedlab-san: $(filter-out build/san/tests/%,$(TEST_OBJ)) build/san/src/cli/main.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN) -o $@ $^ $(LDLIBS)

test: build/test_runner build/schedlab-san schedlab
	@sh tests/run.sh

# The unit tests under clang's warnings as well (tests/clang_check.sh; the
# library meets them in the fuzz build).  tests/run.sh runs it.
.PHONY: clang-tests
clang-tests: build/gen/tests_list.h
	@sh tests/clang_check.sh "$(FUZZ_CC)" "-std=c11 -D_GNU_SOURCE $(WARN) -DSL_TESTING -Isrc -Ibuild/gen $(PKG_CFLAGS)" $(TEST_SRC)

bench: schedlab
	@sh bench/run.sh

# The golden results: every built-in experiment's simulated medians, derived
# values and misses (scripts/golden.py; ~1 min alone on 2 CPUs).
.PHONY: golden
golden: schedlab
	python3 scripts/golden.py update ./schedlab tests/golden/reproduce.tsv

# The docs' generated parts, from the current build: README's examples,
# the tables of docs/workloads.md, o1.md and sl.md (each script rewrites
# its block in place; scripts/doc_blocks.py).  Run after anything moves
# results, with `make golden`; several minutes.
.PHONY: docs
docs: schedlab
	sh scripts/readme-examples.sh
	python3 scripts/seed-tables.py ./schedlab
	python3 scripts/schedbench-tables.py ./schedlab --write
	python3 scripts/sl-table.py ./schedlab --write
	python3 scripts/roundtrip-table.py ./schedlab --write
	python3 scripts/compare-example.py ./schedlab --write
	python3 scripts/experiment-example.py ./schedlab --write

clean:
	rm -rf build schedlab

-include $(shell find build -name '*.d' 2>/dev/null)

# make validate - run the benchmarks for real on this host and simulated on
# its model, side by side (docs/validation.md).  Long: besides the short
# ones, two real kernel builds (make -j1 and -j2 vmlinux of linux-source-6.1,
# tinyconfig; a few minutes each on 2 CPUs, plus a one-time unpack and
# warm-up build of the tree in ~/.cache/schedlab or $SCHEDLAB_CACHE).
# Then the same against replays of perf sched recordings of the real
# programs (scripts/validate-traces.sh; another build, 1-2 minutes).
# --calibrate measures the host's kernel-path speed first (a pinned
# pingpong), which a VM changes from day to day.
# Installs the kernel build's Debian packages and perf first.  The
# simulated policy is cfs (schedlab validate's default).
.PHONY: validate
validate: schedlab
	@sh scripts/install-validate-deps.sh
	./schedlab validate -w spin:seconds=10 -r 3
	./schedlab validate -w hackbench -r 5
	./schedlab validate -w hackbench -r 5 --calibrate
	./schedlab validate -w pingpong -r 3 --calibrate
	./schedlab real -w pingpong --cpus 0 -r 3
	./schedlab validate -w schedbench:passes=2000 -r 3 --calibrate
	./schedlab validate -w kernbench:jobs=1
	./schedlab validate -w kernbench:jobs=2
	sh scripts/validate-traces.sh ./schedlab

# make fuzz - build the libFuzzer harnesses of tests/fuzz/ (clang, ASan,
# UBSan and the invariant checks of test builds) as build/fuzz/NAME, and
# run each for FUZZ_SECONDS on its seed corpus (tests/fuzz/run.sh;
# docs/robustness.md "Fuzzing").  New inputs and findings go under
# build/fuzz/, never into the tree.  Fails on any finding.  FUZZ_REGRESS=1
# adds the reproducers of tests/fuzz/regress/ to the seeds; FUZZ_SEED=N
# fixes libFuzzer's seed (CI), empty draws a new one each pass.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_REGRESS ?= 0
FUZZ_SEED    ?=
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  = -std=c11 -D_GNU_SOURCE $(WARN) -O1 -g $(FUZZ_SAN) -DSL_TESTING \
               -Isrc -Ibuild/gen $(PKG_CFLAGS) -MMD -MP
FUZZ_OBJ     := $(patsubst %.c,build/fuzz/obj/%.o,$(LIB_SRC) build/gen/experiments_data.c tests/fuzz/fuzz.c)

.PHONY: fuzz fuzz-build
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_REGRESS=$(FUZZ_REGRESS) FUZZ_SEED=$(FUZZ_SEED) sh tests/fuzz/run.sh $(FUZZ_NAMES)

FUZZ_BINS    := $(patsubst %,build/fuzz/%,$(FUZZ_NAMES))
fuzz-build: $(FUZZ_BINS)

build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC [fuzz] $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BINS): build/fuzz/%: build/fuzz/obj/tests/fuzz/fuzz_%.o $(FUZZ_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
