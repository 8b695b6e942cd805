# ibcc - build, test, bench, install. Needs only a C compiler and make;
# clang, g++, valgrind, gnuplot, ns-3 and cmake are optional and skipped when
# absent.
CC      ?= cc
CXX     ?= c++
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
WARN    = -Wall -Wextra -Werror -pedantic
CFLAGS_T = -std=c99 -O1 -g $(WARN) -I. -Itests
CFLAGS_B = -std=c99 -O2 -DNDEBUG -D_POSIX_C_SOURCE=199309L $(WARN) -I. -Ibench
SAN     = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
VERSION = $(shell sed -n 's/^\#define IBCC_VERSION_STRING "\(.*\)"/\1/p' ibcc.h)

TESTS   = $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
BENCHES = $(patsubst bench/%.c,%,$(wildcard bench/bench_*.c))
EXAMPLES = $(patsubst examples/%.c,%,$(wildcard examples/*.c))
EXAMPLES_CXX = $(patsubst examples/%.cc,%,$(wildcard examples/*.cc))
HAVE_CXX := $(shell command -v $(CXX) >/dev/null 2>&1 && echo yes)

.PHONY: all test test-build unit san matrix install-check bench perf-table examples demo figures kmodel kmodel-agree \
        install uninstall clean check-header ns3 ns3-build ns3-mpi ns3-mpi-build cmake-check \
        fuzz fuzz-build fuzz-replay firmware-check cross fidelity otf2
.SUFFIXES:

all: ibcc.h examples

$(BUILD) $(BUILD)/san:
	mkdir -p $@

# ---- tests --------------------------------------------------------------
# The implementation is compiled once per flavour (tests/impl.c) and every
# unit test links it (-DIBCC_TEST_LINKED), but those of TESTS_SELF, which
# call the fabric's private functions and so compile it themselves.
TESTS_SELF = test_fabric test_fabric_v2
$(BUILD)/impl_t.o: tests/impl.c ibcc.h | $(BUILD)
	$(CC) $(CFLAGS_T) -c $< -o $@
$(BUILD)/san/impl_t.o: tests/impl.c ibcc.h | $(BUILD)/san
	$(CC) $(CFLAGS_T) $(SAN) -c $< -o $@
$(BUILD)/test_%: tests/test_%.c ibcc.h tests/t.h $(BUILD)/impl_t.o | $(BUILD)
	$(CC) $(CFLAGS_T) -DIBCC_TEST_LINKED $< $(BUILD)/impl_t.o -o $@ -lm
$(BUILD)/san/test_%: tests/test_%.c ibcc.h tests/t.h $(BUILD)/san/impl_t.o | $(BUILD)/san
	$(CC) $(CFLAGS_T) $(SAN) -DIBCC_TEST_LINKED $< $(BUILD)/san/impl_t.o -o $@ -lm
$(addprefix $(BUILD)/,$(TESTS_SELF)): $(BUILD)/%: tests/%.c ibcc.h tests/t.h | $(BUILD)
	$(CC) $(CFLAGS_T) $< -o $@ -lm
$(addprefix $(BUILD)/san/,$(TESTS_SELF)): $(BUILD)/san/%: tests/%.c ibcc.h tests/t.h | $(BUILD)/san
	$(CC) $(CFLAGS_T) $(SAN) $< -o $@ -lm

check-header: ibcc.h
	BUILD=$(BUILD) sh tests/matrix.sh

# ---- fuzzing (docs/robustness.md) ---------------------------------------
# tests/fuzz/fuzz_<h>.c: one libFuzzer harness per parser and step-function
# family. With clang and libFuzzer: build/fuzz/fuzz_<h> (fuzzer, address,
# undefined); without: build/fuzz-sa/fuzz_<h>, a plain sanitizer build whose
# main() replays a corpus directory. The library is compiled once (impl.o,
# without layer L3); the harnesses of FUZZ_L3 (the fabric) include L3 and
# link against impl-l3.o, the same file compiled with the fabric.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 180
FUZZ_RUNS   ?= 1500
FUZZ_HARNESSES = $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_CFLAGS_L3 = -std=c99 -O1 -g $(WARN) -I. -Itests/fuzz
FUZZ_CFLAGS = $(FUZZ_CFLAGS_L3) -DIBCC_NO_FABRIC
FUZZ_L3     = fabric ibdiag scn trace
FUZZ_LF = $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_HARNESSES))
FUZZ_SA = $(addprefix $(BUILD)/fuzz-sa/fuzz_,$(FUZZ_HARNESSES))
ifneq ($(filter test test-build fuzz fuzz-build fuzz-replay,$(MAKECMDGOALS)),)
HAVE_LIBFUZZER := $(shell sh tests/fuzz/have_libfuzzer.sh $(FUZZ_CC))
endif
ifeq ($(HAVE_LIBFUZZER),yes)
FUZZ_MODE = libfuzzer
FUZZ_BINS = $(FUZZ_LF)
else
FUZZ_MODE = standalone
FUZZ_BINS = $(FUZZ_SA)
endif

$(BUILD)/fuzz $(BUILD)/fuzz-sa:
	mkdir -p $@
$(BUILD)/fuzz/impl.o: tests/fuzz/impl.c ibcc.h | $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h ibcc.h $(BUILD)/fuzz/impl.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined $< $(BUILD)/fuzz/impl.o -o $@ -lm
$(BUILD)/fuzz-sa/impl.o: tests/fuzz/impl.c ibcc.h | $(BUILD)/fuzz-sa
	$(CC) $(FUZZ_CFLAGS) $(SAN) -c $< -o $@
$(BUILD)/fuzz-sa/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h ibcc.h $(BUILD)/fuzz-sa/impl.o
	$(CC) $(FUZZ_CFLAGS) $(SAN) -DIBCC_FUZZ_STANDALONE $< $(BUILD)/fuzz-sa/impl.o -o $@ -lm
# the same for the FUZZ_L3 harnesses, with the fabric compiled in
$(BUILD)/fuzz/impl-l3.o: tests/fuzz/impl.c ibcc.h | $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS_L3) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
$(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_L3)): $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h ibcc.h $(BUILD)/fuzz/impl-l3.o
	$(FUZZ_CC) $(FUZZ_CFLAGS_L3) -fsanitize=fuzzer,address,undefined $< $(BUILD)/fuzz/impl-l3.o -o $@ -lm
$(BUILD)/fuzz-sa/impl-l3.o: tests/fuzz/impl.c ibcc.h | $(BUILD)/fuzz-sa
	$(CC) $(FUZZ_CFLAGS_L3) $(SAN) -c $< -o $@
$(addprefix $(BUILD)/fuzz-sa/fuzz_,$(FUZZ_L3)): $(BUILD)/fuzz-sa/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h ibcc.h $(BUILD)/fuzz-sa/impl-l3.o
	$(CC) $(FUZZ_CFLAGS_L3) $(SAN) -DIBCC_FUZZ_STANDALONE $< $(BUILD)/fuzz-sa/impl-l3.o -o $@ -lm

# harnesses and tests that compile ibccsim's scenario reader in
$(BUILD)/fuzz/fuzz_scn $(BUILD)/fuzz-sa/fuzz_scn $(BUILD)/test_scn $(BUILD)/san/test_scn: \
    examples/ibccsim/scn.c examples/ibccsim/scn.h

# the harnesses make test replays (libFuzzer if available, else standalone)
fuzz-build: $(FUZZ_BINS)

fuzz-replay: $(FUZZ_BINS)
	@BUILD=$(BUILD) FUZZ_MODE=$(FUZZ_MODE) FUZZ_RUNS=$(FUZZ_RUNS) sh tests/run.sh tests/fuzz/replay.sh

ifeq ($(HAVE_LIBFUZZER),yes)
fuzz: $(FUZZ_LF)
	@BUILD=$(BUILD) FUZZ_TIME=$(FUZZ_TIME) sh tests/fuzz/run.sh
else
fuzz:
	@echo "skip: make fuzz needs $(FUZZ_CC) with libFuzzer (-fsanitize=fuzzer; apt-get install clang);"
	@echo "      make test still replays the corpus with the standalone build ($(BUILD)/fuzz-sa)"
endif

# The test programs build in parallel (JOBS, default the number of cores),
# then every part runs and tests/run.sh adds them up.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: ibcc.h
	@$(MAKE) -s -j$(JOBS) test-build
	@echo "== unit tests, sanitizer builds (address, undefined), scenarios, compile matrix, install, fuzz corpus replay ($(FUZZ_MODE)) =="
	@JOBS=$(JOBS) BUILD=$(BUILD) FUZZ_MODE=$(FUZZ_MODE) FUZZ_RUNS=$(FUZZ_RUNS) sh tests/run.sh \
	   $(addprefix $(BUILD)/,$(TESTS)) $(addprefix $(BUILD)/san/,$(TESTS)) \
	   tests/coverage.sh tests/gran.sh tests/mvcm.sh tests/fabrics.sh tests/vls.sh tests/pfc.sh tests/scenarios.sh tests/jobs.sh tests/ibccsim.sh tests/cluster.sh tests/fuzz/replay.sh tests/matrix.sh \
	   tests/firmware.sh tests/figures.sh tests/kmodel.sh tests/docnums.sh tests/install.sh tests/cmake.sh tests/ns3.sh tests/ns3mpi.sh tests/otf2.sh

test-build: $(addprefix $(BUILD)/,$(TESTS)) $(addprefix $(BUILD)/san/,$(TESTS)) examples \
            $(FUZZ_BINS) $(BUILD)/kmodel $(BUILD)/kmodel_agree

unit: $(addprefix $(BUILD)/,$(TESTS))
	@sh tests/run.sh $^

san: $(addprefix $(BUILD)/san/,$(TESTS))
	@sh tests/run.sh $^

matrix: check-header

install-check: ibcc.h
	@BUILD=$(BUILD) sh tests/run.sh tests/install.sh

cmake-check: ibcc.h
	@BUILD=$(BUILD) sh tests/run.sh tests/cmake.sh

# The OTF2 importer (tools/otf2/otf2ibcc.c, docs/jobs.md): MPI messages of
# an OTF2 trace as an ibcc trace. Needs the OTF2 library (Debian:
# libopen-trace-format2-dev) through pkg-config; skipped when absent.
otf2: ibcc.h tools/otf2/otf2ibcc.c | $(BUILD)
	@if pkg-config --exists otf2 2>/dev/null; then \
	  $(CC) -std=c99 -D_POSIX_C_SOURCE=200809L -O2 $(WARN) -I. $$(pkg-config --cflags otf2) \
	    tools/otf2/otf2ibcc.c -o $(BUILD)/otf2ibcc $$(pkg-config --libs otf2) -lm \
	  && echo "built $(BUILD)/otf2ibcc"; \
	else echo "skip: make otf2 needs the OTF2 library (apt-get install libopen-trace-format2-dev)"; fi

# The firmware profile (IBCC_FIRMWARE, docs/embedding.md): ROM law tables
# from ibccsim law-table --emit-c, a freestanding object of every
# per-packet engine linked with -nostdlib (its undefined symbols printed
# after "undefined symbols:"; host and, when installed, ARM Cortex-M3,
# i386 and s390x cross compilers), and the worst stack depth per engine on
# ARM. Prints everything; make test runs it quietly.
firmware-check: ibcc.h $(BUILD)/ibccsim
	@BUILD=$(BUILD) sh tests/firmware.sh

# The unit tests on armhf, i386 and s390x under qemu-user (tests/cross.sh),
# each skipped with a message when its cross compiler or qemu is missing
# (apt-get install gcc-arm-linux-gnueabihf gcc-i686-linux-gnu
# gcc-s390x-linux-gnu qemu-user). CROSS_TARGETS="armhf" narrows it.
cross: ibcc.h
	@BUILD=$(BUILD) JOBS=$(JOBS) sh tests/cross.sh

# ---- examples and the scenario driver -----------------------------------
# ibccsim is examples/ibccsim/*.c: main.c (the subcommand table, and the one
# file that compiles the implementation), one file per experiment, the
# option tables (opt.c) and the shared part (common.c, ibccsim.h).
IBCCSIM_SRC = $(wildcard examples/ibccsim/*.c)
$(BUILD)/ibccsim-main.o: examples/ibccsim/main.c examples/ibccsim/ibccsim.h ibcc.h | $(BUILD)
	$(CC) -std=c99 -O2 $(WARN) -I. -c $< -o $@
$(BUILD)/ibccsim: $(BUILD)/ibccsim-main.o $(filter-out examples/ibccsim/main.c,$(IBCCSIM_SRC)) examples/ibccsim/ibccsim.h ibcc.h | $(BUILD)
	$(CC) -std=c99 -O2 $(WARN) -I. $(BUILD)/ibccsim-main.o $(filter-out examples/ibccsim/main.c,$(IBCCSIM_SRC)) -o $@ -lm

$(BUILD)/%: examples/%.c ibcc.h | $(BUILD)
	$(CC) -std=c99 -O2 $(WARN) -I. $< -o $@ -lm

# C++ examples need a C++ compiler (apt-get install g++); skipped without.
$(BUILD)/%: examples/%.cc ibcc.h | $(BUILD)
	$(CXX) -std=c++11 -O2 $(WARN) -I. $< -o $@

ifeq ($(HAVE_CXX),yes)
examples: $(addprefix $(BUILD)/,$(EXAMPLES) $(EXAMPLES_CXX) ibccsim)
else
examples: $(addprefix $(BUILD)/,$(EXAMPLES) ibccsim)
	@echo "skip: C++ examples ($(EXAMPLES_CXX)): no C++ compiler '$(CXX)' (apt-get install g++)"
endif

# The headline: two-switch victim scenario without CC and with each marking
# engine + LIPD (docs/scenario_twoswitch.md).
demo: ibcc.h
	@$(MAKE) --no-print-directory -q $(BUILD)/ibccsim 2>/dev/null || \
	  echo "demo: compiling the scenario driver $(BUILD)/ibccsim from examples/ibccsim/ and ibcc.h (a few seconds, only the first time)"
	@$(MAKE) --no-print-directory -s $(BUILD)/ibccsim
	@echo "demo: running the two-switch victim scenario, 7 configurations of 100 ms simulated each"
	@$(BUILD)/ibccsim demo

# The ns-3 model (examples/ns3) and its two-switch program, built against an
# installed ns-3 (apt-get install libns3-dev) and cached in $(BUILD)/ns3;
# skipped with a message without ns-3. `make ns3` also prints the table.
ns3-build: ibcc.h
	@if CXX=$(CXX) sh tools/ns3-detect.sh --mk $(BUILD)/ns3/flags.mk core network; then \
	   $(MAKE) --no-print-directory -s -f examples/ns3/ns3.mk BUILD=$(BUILD); \
	 fi

ns3: ibcc.h
	@if CXX=$(CXX) sh tools/ns3-detect.sh --mk $(BUILD)/ns3/flags.mk core network; then \
	   $(MAKE) --no-print-directory -s -f examples/ns3/ns3.mk BUILD=$(BUILD) && \
	   $(BUILD)/ns3/ibcc-twoswitch; \
	 fi

# The ns-3 model on ns-3's distributed (MPI) simulator: builds ns-3's MPI
# module from ns-3's sources of the installed version (Debian's source
# package; tools/ns3-mpi-build.sh) against Open MPI, then
# $(BUILD)/ns3mpi/ibcc-fattree-mpi, and runs the 1024-host fat tree on 1, 2
# and 4 ranks (tests/ns3mpi.sh, NS3_MPI_RANKS). Skipped with the reason and
# the packages to install when a part is missing.
NS3_MPI_RANKS ?= 1 2 4
ns3-mpi-build: ibcc.h
	@if CXX=$(CXX) sh tools/ns3-detect.sh --mk $(BUILD)/ns3/flags.mk core network && \
	    BUILD=$(BUILD) sh tools/ns3-mpi-build.sh; then \
	   $(MAKE) --no-print-directory -s -f examples/ns3/mpi/ns3-mpi.mk BUILD=$(BUILD); \
	 else st=$$?; [ $$st -eq 1 ] || exit $$st; fi

ns3-mpi: ns3-mpi-build
	@if [ -x $(BUILD)/ns3mpi/ibcc-fattree-mpi ]; then \
	   BUILD=$(BUILD) RANKS="$(NS3_MPI_RANKS)" sh tests/ns3mpi.sh; \
	 fi

# PNGs of docs/figures.md (the two-switch runs 1a, 4 and 8, [G], [F], [K])
# from ibccsim CSVs with fixed seeds; a figure is redrawn only when its data
# or script changed (FIGURES_FORCE=1 redraws all; FIGURES="run1_no_cc ..."
# narrows it). Needs gnuplot (optional: skipped with a message).
FIGURES ?=
figures: $(BUILD)/ibccsim $(BUILD)/lossless
	@BUILD=$(BUILD) sh tools/figures.sh $(FIGURES)

# The second model of [K]'s network (tools/kmodel: kmodel.c is written
# without ibcc.h; agree.c runs one trace through ibcc): `make kmodel`
# builds both, `make kmodel-agree` checks that they agree message by
# message (also part of make test); tools/kmodel/run.sh runs [K]'s
# figures on kmodel (minutes; docs/scenario_wormhole.md).
$(BUILD)/kmodel: tools/kmodel/kmodel.c | $(BUILD)
	$(CC) -std=c99 -O2 $(WARN) $< -o $@ -lm
$(BUILD)/kmodel_agree: tools/kmodel/agree.c ibcc.h | $(BUILD)
	$(CC) $(CFLAGS_B) $< -o $@ -lm
kmodel: $(BUILD)/kmodel $(BUILD)/kmodel_agree
kmodel-agree: kmodel
	@BUILD=$(BUILD) sh tools/kmodel/run.sh agree

# Every published result of the five papers beside ibcc's: runs
# tools/fidelity/TAG.sh per paper (PAPERS="s02 s03 g f k" narrows it),
# rewrites the table in each scenario page and prints the counts.
PAPERS ?=
fidelity: $(BUILD)/ibccsim $(BUILD)/kmodel
	@BUILD=$(BUILD) JOBS=$(JOBS) sh tools/fidelity/run.sh $(PAPERS)

# ---- benchmarks ---------------------------------------------------------
$(BUILD)/bench_%: bench/bench_%.c ibcc.h bench/bench.h | $(BUILD)
	$(CC) $(CFLAGS_B) $< -o $@ -lm
$(BUILD)/bench_loop: bench/hold.h

bench: $(addprefix $(BUILD)/,$(BENCHES))
	@echo "name,median,unit,min,max" > $(BUILD)/bench.csv
	@for b in $(addprefix $(BUILD)/,$(BENCHES)); do $$b $(BUILD)/bench.csv || exit 1; done
	@BUILD=$(BUILD) CXX=$(CXX) sh bench/ns3.sh $(BUILD)/bench.csv
	@BUILD=$(BUILD) sh bench/htsim.sh $(BUILD)/bench.csv
	@echo "rows written to $(BUILD)/bench.csv"

# The README's performance table, from the last `make bench` run.
perf-table:
	@BUILD=$(BUILD) sh tools/perf_table.sh $(BUILD)/bench.csv

# ---- install ------------------------------------------------------------
# ibcc.h, the pkg-config file and the CMake package (find_package(ibcc)
# gives the INTERFACE target ibcc::ibcc; the config locates the prefix
# relative to itself, so a DESTDIR-staged tree works where it is unpacked).
CMAKEDIR = $(DESTDIR)$(PREFIX)/lib/cmake/ibcc
# ibccsim goes to bin/ beside, its manual page (written by `ibccsim --man`
# from the option tables) to share/man/man1.
$(BUILD)/ibccsim.1: $(BUILD)/ibccsim
	$(BUILD)/ibccsim --man > $@
install: ibcc.h $(BUILD)/ibccsim $(BUILD)/ibccsim.1
	mkdir -p $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(CMAKEDIR) \
	         $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	cp ibcc.h $(DESTDIR)$(PREFIX)/include/ibcc.h
	cp $(BUILD)/ibccsim $(DESTDIR)$(PREFIX)/bin/ibccsim
	cp $(BUILD)/ibccsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/ibccsim.1
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' ibcc.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ibcc.pc
	sed -e 's|@VERSION@|$(VERSION)|g' cmake/ibccConfig.cmake.in > $(CMAKEDIR)/ibccConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' cmake/ibccConfigVersion.cmake.in \
	    > $(CMAKEDIR)/ibccConfigVersion.cmake

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ibccsim $(DESTDIR)$(PREFIX)/share/man/man1/ibccsim.1
	rm -f $(DESTDIR)$(PREFIX)/include/ibcc.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/ibcc.pc \
	      $(CMAKEDIR)/ibccConfig.cmake $(CMAKEDIR)/ibccConfigVersion.cmake
	rmdir $(CMAKEDIR) 2>/dev/null || true

clean:
	rm -rf $(BUILD)
