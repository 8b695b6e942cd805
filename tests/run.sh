#!/bin/sh
# Runs every test program given on the command line (or the compile/install
# checks named "check:NAME"), adds up their RESULT lines and prints the
# final line "N passed, N failed". Exit status 1 if anything failed.
pass=0; fail=0
for t in "$@"; do
  out=$("$t" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep '^RESULT ' | tail -n 1)
  if [ -n "$line" ]; then
    p=$(echo "$line" | cut -d' ' -f2); f=$(echo "$line" | cut -d' ' -f3)
  else
    p=0; f=1
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" -ne 0 ]; then
    printf '%s\n' "$out" | grep -v '^RESULT ' | tail -n 40
    printf '%-40s %4d passed, %d FAILED (exit %d)\n' "$t" "$p" "$f" "$rc"
  else
    printf '%-40s %4d passed\n' "$t" "$p"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
