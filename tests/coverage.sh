#!/bin/sh
# Every public function declared in ibcc.h (IBCC_API / IBCC_INLINE in the
# declaration half) must be exercised by tests/test_misuse.c, the test of
# the "bad input never crashes" promise (private helpers, whose names end
# in an underscore, are not public). Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
names=$(sed -n '1,/^#endif \/\* IBCC_H \*\//p' ibcc.h |
        grep -E '^IBCC_(API|INLINE) ' | grep -v -E '_\(' |
        sed -E 's/^IBCC_(API|INLINE) +[^(]*[ *]([A-Za-z_][A-Za-z0-9_]*) *\(.*/\2/' | sort -u)
total=0; missing=0
for n in $names; do
  total=$((total + 1))
  if ! grep -q "\\b$n *(" tests/test_misuse.c; then
    echo "FAIL coverage: $n is not called in tests/test_misuse.c"
    missing=$((missing + 1))
  fi
done
echo "coverage: $((total - missing)) of $total public functions called in tests/test_misuse.c"
if [ "$total" -lt 100 ]; then echo "FAIL coverage: only $total names found in ibcc.h"; missing=$((missing + 1)); fi
if [ "$missing" -eq 0 ]; then echo "RESULT 1 0"; else echo "RESULT 0 1"; exit 1; fi
