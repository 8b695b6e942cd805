#!/bin/sh
# Corpus replay for `make test` (docs/robustness.md). Every harness runs on
# its committed corpus, tests/fuzz/corpus/<harness>/, and must finish
# without a property violation or a sanitizer report.
#   FUZZ_MODE=libfuzzer   build/fuzz/fuzz_<h>: the corpus, then FUZZ_RUNS
#                         mutated inputs (capped at FUZZ_REPLAY_TIME
#                         seconds); new inputs go to a scratch directory,
#                         the committed corpus is only read
#   FUZZ_MODE=standalone  build/fuzz-sa/fuzz_<h> (any C compiler): each
#                         corpus file once
# Prints one line per harness and "RESULT <passed> <failed>" for
# tests/run.sh (one test per harness).
cd "$(dirname "$0")/../.." || exit 1
B=${BUILD:-build}
MODE=${FUZZ_MODE:-standalone}
RUNS=${FUZZ_RUNS:-1500}
CAP=${FUZZ_REPLAY_TIME:-4}
pass=0; fail=0
for src in tests/fuzz/fuzz_*.c; do
  h=$(basename "$src" .c); h=${h#fuzz_}
  corpus=tests/fuzz/corpus/$h
  if [ "$MODE" = libfuzzer ]; then
    bin=$B/fuzz/fuzz_$h
    scratch=$B/fuzz/replay/$h
    rm -rf "$scratch"; mkdir -p "$scratch" "$B/fuzz/artifacts"
    dict=""; [ -f tests/fuzz/$h.dict ] && dict="-dict=tests/fuzz/$h.dict"
    out=$("$bin" -runs="$RUNS" -max_total_time="$CAP" -seed=1 -print_final_stats=1 \
          -artifact_prefix="$B/fuzz/artifacts/$h-" $dict "$scratch" "$corpus" 2>&1); rc=$?
    stats=$(printf '%s\n' "$out" | grep -E '^#[0-9]+[[:space:]]+DONE' | tail -n 1 | tr -s ' \t' ' ')
  else
    bin=$B/fuzz-sa/fuzz_$h
    out=$("$bin" "$corpus" 2>&1); rc=$?
    stats=$(printf '%s\n' "$out" | tail -n 1)
  fi
  if [ "$rc" -eq 0 ]; then
    pass=$((pass + 1)); echo "fuzz replay $h ($MODE): ok  $stats"
  else
    fail=$((fail + 1)); echo "FAIL fuzz replay $h ($MODE), exit $rc:"
    printf '%s\n' "$out" | grep -v '^    #' | tail -n 25
  fi
done
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
