#!/bin/sh
# make fidelity: every published result of the five papers beside ibcc's.
#   sh tools/fidelity/run.sh [--no-write] [TAG...]     TAG: s02 s03 g f k
# Runs tools/fidelity/TAG.sh (in parallel, JOBS at a time), writes each
# paper's table into its scenario page between the lines
#   <!-- fidelity TAG begin -->  and  <!-- fidelity TAG end -->
# (unless --no-write) and prints the per-paper counts. Exit status 1 when a
# paper script fails or prints a malformed row.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}; export BUILD
J=${JOBS:-2}
write=1
if [ "${1:-}" = "--no-write" ]; then write=0; shift; fi
tags=${*:-s02 s03 g f k}

page_of() {
  case $1 in
    s02|s03) echo docs/scenario_twoswitch.md ;;
    g) echo docs/scenario_gran.md ;;
    f) echo docs/scenario_mvcm.md ;;
    k) echo docs/scenario_wormhole.md ;;
    *) echo "" ;;
  esac
}
label_of() {
  case $1 in s02) echo "[S02]" ;; s03) echo "[S03]" ;; g) echo "[G]" ;;
             f) echo "[F]" ;; k) echo "[K]" ;; esac
}

for t in $tags; do
  [ -n "$(page_of "$t")" ] || { echo "fidelity: unknown paper '$t' (s02 s03 g f k)"; exit 2; }
  [ -f "tools/fidelity/$t.sh" ] || { echo "fidelity: tools/fidelity/$t.sh is missing"; exit 2; }
done

${MAKE:-make} -s "$BUILD/ibccsim" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ibcc-fid.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# run the paper scripts, J at a time
running=0
for t in $tags; do
  ( sh "tools/fidelity/$t.sh" > "$tmp/$t.rows" 2> "$tmp/$t.err"; echo $? > "$tmp/$t.rc" ) &
  running=$((running + 1))
  if [ "$running" -ge "$J" ]; then wait; running=0; fi
done
wait

status=0
for t in $tags; do
  lab=$(label_of "$t"); page=$(page_of "$t")
  if [ "$(cat "$tmp/$t.rc")" != 0 ]; then
    echo "$lab: tools/fidelity/$t.sh failed:"; tail -n 20 "$tmp/$t.err"; status=1; continue
  fi
  if awk -F'\t' 'NF != 7 { bad = 1 } END { exit !bad }' "$tmp/$t.rows"; then
    echo "$lab: malformed row (need 7 tab-separated fields)"; status=1; continue
  fi
  # the markdown table
  {
    echo "<!-- fidelity $t begin: written by make fidelity (tools/fidelity/$t.sh); do not edit -->"
    echo "| # | where | $lab reports | $lab | ibcc | mark | command | cause / note |"
    echo "|---|---|---|---|---|---|---|---|"
    awk -F'\t' '{ for (i = 1; i <= NF; i++) gsub(/\|/, "\\|", $i)
                  cmd = ($6 == "" ? "" : "`" $6 "`")
                  printf "| %d | %s | %s | %s | %s | %s | %s | %s |\n", NR, $1, $2, $3, $4, $5, cmd, $7 }' \
        "$tmp/$t.rows"
    echo ""
    awk -F'\t' -v lab="$lab" '{ n++; c[$5]++ }
      END { printf "%s: %d results: %d match, %d partly, %d differ, %d not run yet\n",
            lab, n, c["match"], c["partly"], c["differs"], c["notrun"] }' "$tmp/$t.rows"
    echo "<!-- fidelity $t end -->"
  } > "$tmp/$t.md"
  cat "$tmp/$t.md" | sed '1d;$d'
  echo
  if [ "$write" = 1 ]; then
    if ! grep -q "^<!-- fidelity $t begin" "$page" || ! grep -q "^<!-- fidelity $t end" "$page"; then
      echo "fidelity: $page has no '<!-- fidelity $t begin/end -->' lines"; status=1; continue
    fi
    awk -v f="$tmp/$t.md" -v t="$t" '
      $0 ~ "^<!-- fidelity " t " begin" { while ((getline l < f) > 0) print l; skip = 1; next }
      $0 ~ "^<!-- fidelity " t " end" { skip = 0; next }
      !skip { print }' "$page" > "$tmp/page" && cat "$tmp/page" > "$page"
  fi
done
echo "== fidelity =="
for t in $tags; do
  [ -f "$tmp/$t.md" ] && tail -n 2 "$tmp/$t.md" | head -n 1
done
exit $status
