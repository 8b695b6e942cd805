#!/bin/sh
# make test: the OTF2 importer (tools/otf2/otf2ibcc.c, docs/jobs.md). It
# needs the OTF2 library (Debian: libopen-trace-format2-dev; .ci/run
# installs it when the package exists); without it this prints a skip
# line and RESULT 0 0. Writes a small OTF2 archive with the library's own
# writer (tests/otf2/write_sample.c), converts it and compares the trace
# with tests/otf2/sample.trace, which was worked out by hand from the
# events the writer lists; then a file that is not a trace must fail.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
CC=${CC:-cc}
T=$B/otf2
pass=0; fail=0
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists otf2; then
  echo "skip: the OTF2 importer (no OTF2 library: apt-get install libopen-trace-format2-dev)"
  echo "RESULT 0 0"; exit 0
fi
rm -rf "$T"; mkdir -p "$T"
cf=$(pkg-config --cflags otf2); lf=$(pkg-config --libs otf2)
# shellcheck disable=SC2086
if ! $CC -std=c99 -D_POSIX_C_SOURCE=200809L -O1 -Wall -Wextra -Werror -I. $cf \
       tools/otf2/otf2ibcc.c -o "$T/otf2ibcc" $lf -lm \
   || ! $CC -std=c99 -O1 -Wall -Wextra -Werror $cf tests/otf2/write_sample.c \
       -o "$T/write_sample" $lf; then
  echo "FAIL otf2: build"; echo "RESULT 0 1"; exit 1
fi
if "$T/write_sample" "$T/archive" \
   && "$T/otf2ibcc" "$T/archive/sample.otf2" "$T/out.trace" 2> "$T/summary" \
   && grep -v '^#' "$T/out.trace" | cmp -s - tests/otf2/sample.trace \
   && grep -q '7 messages, 6 dependencies; left out: 1 collective operations, 1 empty or self messages, 0 outside the MPI ranks; 2 sends never received' "$T/summary"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL otf2: the sample's trace differs:"
  grep -v '^#' "$T/out.trace" | diff - tests/otf2/sample.trace | head -20
  cat "$T/summary"
fi
if "$T/otf2ibcc" tests/otf2/sample.trace > /dev/null 2>&1; then
  fail=$((fail + 1)); echo "FAIL otf2: a file that is not OTF2 was accepted"
else
  pass=$((pass + 1))
fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
