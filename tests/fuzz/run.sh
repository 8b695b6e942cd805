#!/bin/sh
# `make fuzz`: runs every libFuzzer harness (build/fuzz/fuzz_<h>) for
# FUZZ_TIME seconds (default 180) on a scratch copy of its committed corpus
# (build/fuzz/work/<h>; the committed corpus is not modified), one after the
# other, and prints a table of executions and final coverage (cov: edges,
# ft: features, corp: inputs kept) per harness; the same table goes to
# build/fuzz/results.txt. A crashing input is written to
# build/fuzz/artifacts/<h>-crash-*; replay it with build/fuzz/fuzz_<h> FILE.
# Optional: FUZZ_ONLY="law cct" runs only those harnesses (one harness at a
# time: the machines are shared).
cd "$(dirname "$0")/../.." || exit 1
B=${BUILD:-build}
T=${FUZZ_TIME:-180}
res=$B/fuzz/results.txt
mkdir -p "$B/fuzz/work" "$B/fuzz/artifacts" "$B/fuzz/logs"
printf '%-10s %8s %10s %8s %8s %s\n' harness seconds execs cov ft status > "$res"
status=0
for src in tests/fuzz/fuzz_*.c; do
  h=$(basename "$src" .c); h=${h#fuzz_}
  if [ -n "$FUZZ_ONLY" ]; then
    case " $FUZZ_ONLY " in *" $h "*) ;; *) continue ;; esac
  fi
  work=$B/fuzz/work/$h
  rm -rf "$work"; mkdir -p "$work"
  cp tests/fuzz/corpus/$h/* "$work"/ 2>/dev/null
  dict=""; [ -f tests/fuzz/$h.dict ] && dict="-dict=tests/fuzz/$h.dict"
  echo "== fuzz_$h for $T s"
  "$B/fuzz/fuzz_$h" -max_total_time="$T" -print_final_stats=1 -timeout=60 \
      -artifact_prefix="$B/fuzz/artifacts/$h-" $dict "$work" > "$B/fuzz/logs/$h.log" 2>&1
  rc=$?
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$B/fuzz/logs/$h.log" | tail -n 1)
  [ -z "$done_line" ] && done_line=$(grep -E '^#[0-9]+[[:space:]]' "$B/fuzz/logs/$h.log" | tail -n 1)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/fuzz/logs/$h.log" | tail -n 1)
  cov=$(printf '%s\n' "$done_line" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  ft=$(printf '%s\n' "$done_line" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  if [ "$rc" -eq 0 ]; then st=ok; else st="FAILED (exit $rc, see $B/fuzz/logs/$h.log)"; status=1; fi
  printf '%-10s %8s %10s %8s %8s %s\n' "$h" "$T" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$st" | tee -a "$res"
  if [ "$rc" -ne 0 ]; then grep -A2 'property violated\|ERROR:' "$B/fuzz/logs/$h.log" | head -n 8; fi
done
echo "results in $res"
exit $status
