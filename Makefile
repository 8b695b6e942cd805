# ibcc - build, test, bench, install. Needs only a C compiler and make;
# clang, g++, valgrind, gnuplot and ns-3 are optional and skipped when absent.
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

.PHONY: all test unit san matrix install-check bench examples demo figures \
        install uninstall clean check-header
.SUFFIXES:

all: ibcc.h examples

$(BUILD) $(BUILD)/san:
	mkdir -p $@

# ---- tests --------------------------------------------------------------
$(BUILD)/test_%: tests/test_%.c ibcc.h tests/t.h | $(BUILD)
	$(CC) $(CFLAGS_T) $< -o $@ -lm
$(BUILD)/san/test_%: tests/test_%.c ibcc.h tests/t.h | $(BUILD)/san
	$(CC) $(CFLAGS_T) $(SAN) $< -o $@ -lm

check-header: ibcc.h
	BUILD=$(BUILD) sh tests/matrix.sh

test: ibcc.h $(addprefix $(BUILD)/,$(TESTS)) $(addprefix $(BUILD)/san/,$(TESTS)) examples
	@echo "== unit tests, sanitizer builds (address, undefined), compile matrix, install =="
	@BUILD=$(BUILD) sh tests/run.sh $(addprefix $(BUILD)/,$(TESTS)) \
	   $(addprefix $(BUILD)/san/,$(TESTS)) tests/coverage.sh tests/matrix.sh tests/install.sh

unit: $(addprefix $(BUILD)/,$(TESTS))
	@sh tests/run.sh $^

san: $(addprefix $(BUILD)/san/,$(TESTS))
	@sh tests/run.sh $^

matrix: check-header

install-check: ibcc.h
	@BUILD=$(BUILD) sh tests/run.sh tests/install.sh

# ---- examples and the scenario driver -----------------------------------
$(BUILD)/%: examples/%.c ibcc.h | $(BUILD)
	$(CC) -std=c99 -O2 $(WARN) -I. $< -o $@ -lm

# C++ examples need a C++ compiler (apt-get install g++); skipped without.
$(BUILD)/%: examples/%.cc ibcc.h | $(BUILD)
	$(CXX) -std=c++11 -O2 $(WARN) -I. $< -o $@

ifeq ($(HAVE_CXX),yes)
examples: $(addprefix $(BUILD)/,$(EXAMPLES) $(EXAMPLES_CXX))
else
examples: $(addprefix $(BUILD)/,$(EXAMPLES))
	@echo "skip: C++ examples ($(EXAMPLES_CXX)): no C++ compiler '$(CXX)' (apt-get install g++)"
endif

# The headline: two-switch victim scenario without CC and with each marking
# engine + LIPD (docs/scenario_twoswitch.md).
demo: $(BUILD)/ibccsim
	@$(BUILD)/ibccsim demo

# PNGs of docs/figures.md (SCENARIOS.md A runs 1a, 4, 8) from ibccsim CSVs
# with fixed seeds; needs gnuplot (optional: skipped with a message).
figures: $(BUILD)/ibccsim
	@BUILD=$(BUILD) sh tools/figures.sh

# ---- benchmarks ---------------------------------------------------------
$(BUILD)/bench_%: bench/bench_%.c ibcc.h bench/bench.h | $(BUILD)
	$(CC) $(CFLAGS_B) $< -o $@ -lm
$(BUILD)/bench_loop: bench/hold.h

bench: $(addprefix $(BUILD)/,$(BENCHES))
	@echo "name,median,unit" > $(BUILD)/bench.csv
	@for b in $(addprefix $(BUILD)/,$(BENCHES)); do $$b $(BUILD)/bench.csv || exit 1; done
	@BUILD=$(BUILD) CXX=$(CXX) sh bench/ns3.sh $(BUILD)/bench.csv
	@echo "rows written to $(BUILD)/bench.csv"

# ---- install ------------------------------------------------------------
install: ibcc.h
	mkdir -p $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	cp ibcc.h $(DESTDIR)$(PREFIX)/include/ibcc.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' ibcc.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ibcc.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/ibcc.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/ibcc.pc

clean:
	rm -rf $(BUILD)
