#!/bin/sh
# A/B against an earlier header: builds bench/bench_NAME.c twice, against
# ibcc.h and against the ibcc.h of commit PREV (git needed; the source
# sees -DBENCH_<NAME>_PREV for the old one), then runs the two binaries
# in turn ROUNDS times, so that both see the same machine load. Leaves
# each run's CSV rows in $BUILD/NAMEprev/old.csv and new.csv; the
# callers (pfc_cost.sh, vl_cost.sh) read their medians from there.
#   sh bench/ab_prev.sh NAME PREV ROUNDS
cd "$(dirname "$0")/.." || exit 1
NAME=$1; PREV=$2; ROUNDS=${3:-3}
B=${BUILD:-build}
CC=${CC:-cc}
F="-std=c99 -O2 -DNDEBUG -D_POSIX_C_SOURCE=199309L -Wall -Wextra -Werror -pedantic -I. -Ibench"
D="$B/${NAME}prev"
U=$(echo "$NAME" | tr a-z A-Z)
mkdir -p "$D" || exit 1
git show "$PREV:ibcc.h" > "$D/ibcc_prev.h" 2>/dev/null \
  || { echo "${NAME}_cost: needs git and commit $PREV"; exit 2; }
$CC $F "bench/bench_$NAME.c" -o "$B/bench_$NAME" -lm || exit 1
$CC $F -I"$D" "-DBENCH_${U}_PREV" "bench/bench_$NAME.c" -o "$B/bench_${NAME}_prev" -lm || exit 1
rm -f "$D/old.csv" "$D/new.csv"
i=0
while [ $i -lt "$ROUNDS" ]; do
  "$B/bench_${NAME}_prev" "$D/old.csv" > /dev/null || exit 1
  "$B/bench_$NAME" "$D/new.csv" > /dev/null || exit 1
  i=$((i + 1))
done
