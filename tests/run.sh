#!/bin/sh
# Runs every test program given on the command line (or the compile/install
# checks named "check:NAME"), adds up their RESULT lines and prints the
# final line "N passed, N failed, N skipped". Exit status 1 if anything
# failed. A test's line that starts with "skip:" (a check it could not run,
# usually naming the package that would enable it) counts as one skipped
# check; every such line is listed once, just before the final line, also
# for tests that passed (whose other output is not shown).
# JOBS (default 1) tests run at a time; their reports are printed in the
# order given, each when it and every test before it have finished.
J=${JOBS:-1}
case $J in ''|*[!0-9]*|0) J=1 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ibcc-run.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0; skip=0; n=0; shown=0; running=0

# Prints the report of test k (its output and exit status are in $tmp).
report() {
  t=$(cat "$tmp/$1.name"); rc=$(cat "$tmp/$1.rc")
  line=$(grep '^RESULT ' "$tmp/$1.out" | tail -n 1)
  if [ -n "$line" ]; then
    p=$(echo "$line" | cut -d' ' -f2); f=$(echo "$line" | cut -d' ' -f3)
  else
    p=0; f=1
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
  # skip lines, kept for the list at the end (same text once only)
  grep '^skip:' "$tmp/$1.out" | sed "s|^skip: *|$t: |" >> "$tmp/skips"
  ns=$(grep -c '^skip:' "$tmp/$1.out")
  sk=; [ "$ns" -gt 0 ] && sk=", $ns skipped"
  if [ "$f" -ne 0 ]; then
    grep -v '^RESULT ' "$tmp/$1.out" | tail -n 40
    printf '%-40s %4d passed, %d FAILED (exit %d)%s\n' "$t" "$p" "$f" "$rc" "$sk"
  else
    printf '%-40s %4d passed%s\n' "$t" "$p" "$sk"
  fi
}

# Prints, in order, the reports of the tests that have finished.
flush() {
  while [ "$shown" -lt "$n" ] && [ -f "$tmp/$((shown + 1)).rc" ]; do
    shown=$((shown + 1))
    report "$shown"
    running=$((running - 1))
  done
}

for t in "$@"; do
  n=$((n + 1))
  echo "$t" > "$tmp/$n.name"
  ( "$t" > "$tmp/$n.out" 2>&1; echo $? > "$tmp/$n.rc.part" && mv "$tmp/$n.rc.part" "$tmp/$n.rc" ) &
  running=$((running + 1))
  while [ "$running" -ge "$J" ]; do
    flush
    # a test that finished out of order still holds its place: count
    # finished but unreported ones as free
    done_ahead=0
    k=$((shown + 1))
    while [ "$k" -le "$n" ]; do
      [ -f "$tmp/$k.rc" ] && done_ahead=$((done_ahead + 1))
      k=$((k + 1))
    done
    [ $((running - done_ahead)) -lt "$J" ] && break
    sleep 0.1
  done
done
wait
flush
if [ -s "$tmp/skips" ]; then
  awk '!seen[$0]++' "$tmp/skips" > "$tmp/skips.u"
  skip=$(wc -l < "$tmp/skips.u" | tr -d ' ')
  echo "skipped ($skip; each line names the test and, in parentheses, what would enable it):"
  sed 's/^/  /' "$tmp/skips.u"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
