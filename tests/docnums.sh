#!/bin/sh
# make test: the numbers README.md and docs/figures.md quote from
# simulations are re-run here and must appear in the text exactly as the
# commands print them today (rounded as the text rounds them). Only the
# cheap, deterministic runs (fixed seeds, integer time; a few seconds of
# CPU in all):
#   README      the `make demo` table; [K]'s two-host shares at load 0.8
#               and the torus high-priority delays for 33- and 500-byte
#               segments (`ibccsim wormhole`)
#   jobs.md     the two-jobs table of build/jobs (examples/jobs.c) and
#               of ibccsim custom --job
#   scenario_jobs.md  two jobs on a fat tree, IBA CC off and on (the
#               figure's data and the runs the text quotes)
#   figures.md  run 1a, the run 4 rows and the run 8 recovery times, from
#               the data of the figures (tools/figures.sh, FIGURES_CHECK=1,
#               which also runs them); the number of figures
#   dcqcn.md    the 4:1 incast of build/test_fabric_dcqcn (marks, latency,
#               utilization with and without the DCQCN agent)
#   pfc.md      build/test_fabric_pfc's XOFF instant, two priorities,
#               the fat-tree incast with and without DCQCN, the headroom
#               peak; the driver's incast (ibccsim custom, PFC)
#   hpcc.md, scenario_ethernet.md   the 4:1 incast of build/test_fabric_hpcc;
#               every output line of build/lossless (examples/lossless.c)
#               the page quotes, and its tables' numbers
# README's [G] and [F] numbers take minutes to re-run (`make fidelity` and
# tests/gran.sh, tests/mvcm.sh own those runs): here they must agree with
# their scenario pages. examples/ns3/README.md's table is checked by
# tests/ns3.sh (it needs ns-3). The scenario pages' fidelity tables are
# `make fidelity`'s.
# Prints RESULT <passed> <failed> for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SIM=$BUILD/ibccsim
T=$BUILD/docnums
rm -rf "$T"; mkdir -p "$T"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL docnums: $1"; }
# says FILE TEXT WHAT: FILE contains TEXT (the number as the run gives
# it), line breaks and runs of blanks counting as one space
says() {
  if SAYS_TEXT=$2 awk 'BEGIN { t = ENVIRON["SAYS_TEXT"]; gsub(/[ \t\n]+/, " ", t) }
       { buf = buf " " $0 }
       END { gsub(/[ \t]+/, " ", buf); exit !index(buf, t) }' "$1"; then ok
  else bad "$1 should say '$2' ($3)"; fi
}
# val CSV METRIC: a metric of an ibccsim summary
val() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1"; }
f2() { awk -v x="$1" 'BEGIN { printf "%.2f", x }'; }
f3() { awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }
pct() { awk -v x="$1" 'BEGIN { printf "%.0f", 100 * x }'; }

if [ ! -x "$SIM" ]; then
  echo "FAIL docnums: $SIM not built"; echo "RESULT 0 1"; exit 1
fi

# ---- README: the make demo table, line for line ---------------------------
"$SIM" demo > "$T/demo.txt" 2>&1 || bad "ibccsim demo failed"
sed -n '/^configuration /,/^IBA /p' "$T/demo.txt" > "$T/demo_table.txt"
rows=$(wc -l < "$T/demo_table.txt")
if [ "$rows" -eq 9 ]; then ok; else bad "ibccsim demo: expected a 9-line table, got $rows"; fi
while IFS= read -r line; do
  if grep -F -x -q -- "$line" README.md; then ok
  else bad "README.md's demo table lacks the line '$line' (make demo prints it)"; fi
done < "$T/demo_table.txt"

# ---- docs/dcqcn.md: the 4:1 incast of tests/test_fabric_dcqcn.c ----------
if [ -x "$BUILD/test_fabric_dcqcn" ]; then
  line=$("$BUILD/test_fabric_dcqcn" | grep '^dcqcn-incast ')
  kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  says docs/dcqcn.md "all $(kv none_marked) delivered packets are marked and the mean latency is $(kv none_lat_us) us" "build/test_fabric_dcqcn"
  says docs/dcqcn.md "with DCQCN $(kv dc_marked) of $(kv dc_delivered) are marked and the mean latency is $(kv dc_lat_us) us, at $(kv dc_util) of the receiver's link" "build/test_fabric_dcqcn"
  line=$("$BUILD/test_fabric_dcqcn" | grep '^dcqcn-incast-ecn ')
  says docs/dcqcn.md "a marked fraction of $(kv none_marked_frac) and a mean latency of $(kv none_lat_us) us; with DCQCN the marked fraction is $(kv dc_marked_frac) and the mean latency $(kv dc_lat_us) us, at $(kv dc_util) of the receiver's link" "build/test_fabric_dcqcn"
else
  bad "$BUILD/test_fabric_dcqcn not built"
fi

# ---- docs/pfc.md: tests/test_fabric_pfc.c and the driver's incast -------
if [ -x "$BUILD/test_fabric_pfc" ]; then
  "$BUILD/test_fabric_pfc" > "$T/pfc.txt" 2>&1
  pl() { line=$(grep "^$1 " "$T/pfc.txt"); }
  kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  pl pfc-xoff
  says docs/pfc.md "the PAUSE goes at the $(($(kv k) + 1))th arrival (k = $(kv k)), at $(kv at_ps) ps, with $(kv bytes) bytes in" "build/test_fabric_pfc"
  pl pfc-priorities
  says docs/pfc.md "A receives $(kv vl0_pauses) PAUSE frames for VL 0 in 2 ms and none for VL 1, and the second flow gets $(kv vls2_fast) GB/s (the rest of A's link) while the first keeps its $(kv vls2_slow). With one VL the pauses stop both: $(kv vls1_fast) and $(kv vls1_slow)." "build/test_fabric_pfc"
  [ "$(kv vl1_pauses)" = 0 ] && ok || bad "test_fabric_pfc: VL 1 was paused"
  pl pfc-incast
  says docs/pfc.md "the hot leaf sent $(kv none_leaf0) PAUSE frames, the spines $(kv none_spines) and the other leaves $(kv none_leaves) ($(kv none_frames) in all, $(kv none_last2) of them in the last 2 ms), and an output VL was paused $(kv none_paused) of the time on average, with the hot link full ($(kv none_util))" "build/test_fabric_pfc"
  pl pfc-incast-dcqcn
  says docs/pfc.md "$(kv dc_frames) frames in all, all of them in the first 2 ms while the flows still start at line rate, none in the last 2 ms, a paused fraction of $(kv dc_paused), and the hot link at $(kv dc_util)" "build/test_fabric_pfc"
  [ "$(kv dc_last2)" = 0 ] && ok || bad "test_fabric_pfc: DCQCN paused in the last 2 ms"
  pl pfc-headroom
  says docs/pfc.md "the input peaks at $(kv peak) bytes" "build/test_fabric_pfc"
  says docs/pfc.md "in a buffer of $(kv size)" "build/test_fabric_pfc"
else
  bad "$BUILD/test_fabric_pfc not built"
fi
"$SIM" custom --topology fattree --k 4 --n 2 --traffic incast --hot-dst 0 \
  --flow-control pfc --pfc-xoff 20000 --pfc-xon 10000 --time 4 --warmup 2 \
  --summary "$T/pfc.csv" > /dev/null 2>&1 || bad "ibccsim custom pfc incast failed"
says docs/pfc.md "without a reaction \`pfc_paused_frac\` is $(awk -v x="$(val "$T/pfc.csv" pfc_paused_frac)" 'BEGIN { printf "%.4f", x }') in the measured window" "ibccsim custom (tests/pfc.sh)"
# ---- docs/hpcc.md, scenario_ethernet.md: tests/test_fabric_hpcc.c ---------
if [ -x "$BUILD/test_fabric_hpcc" ]; then
  line=$("$BUILD/test_fabric_hpcc" | grep '^hpcc-incast ')
  kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  for p in docs/hpcc.md docs/scenario_ethernet.md; do
    says $p "HPCC at $(kv hpcc_util) of the receiver's link with a hot queue of $(kv hpcc_q_bytes) bytes on average in its INT records and a mean latency of $(kv hpcc_lat_us) us, against $(kv none_lat_us) us without CC" "build/test_fabric_hpcc"
  done
else
  bad "$BUILD/test_fabric_hpcc not built"
fi

# ---- docs/scenario_ethernet.md: build/lossless, line for line -------------
E=docs/scenario_ethernet.md
# lines LABEL FILE: every line of FILE is a line of the page (indented by
# four blanks: a code block)
lines() {
  while IFS= read -r l; do
    if grep -F -x -q -- "    $l" $E; then ok
    else bad "$E lacks the line '    $l' ($1 prints it)"; fi
  done < "$2"
}
if [ -x "$BUILD/lossless" ]; then
  "$BUILD/lossless" table > "$T/eth_table.txt" 2>&1 || bad "lossless table failed"
  lines "build/lossless table" "$T/eth_table.txt"
  for mt in "1 150" "12 150" "1 24" "12 24"; do
    set -- $mt
    "$BUILD/lossless" table --scheme iba --marking-rate $1 --ccti-timer $2 |
      tail -n 1 > "$T/eth_iba.txt"
    lines "build/lossless table --scheme iba --marking-rate $1 --ccti-timer $2" "$T/eth_iba.txt"
  done
  for s in pfc dcqcn hpcc; do
    "$BUILD/lossless" incast $s "$T/eth_$s.csv" > "$T/eth_$s.txt" 2>&1 || bad "lossless incast $s failed"
    lines "build/lossless incast $s" "$T/eth_$s.txt"
    line=$(cat "$T/eth_$s.txt")
    kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    case $s in pfc) n="PFC, no CC" ;; dcqcn) n=DCQCN ;; hpcc) n=HPCC ;; esac
    says $E "| $n | $(kv pauses_hot_leaf) | $(kv pauses_spines) | $(kv pauses_src_leaves) | $(kv pauses_last_ms) | $(kv hot_leaf_kbytes_mean) KB | $(kv hot_link_frac) |" "build/lossless incast $s"
  done
  "$BUILD/lossless" converge "$T/eth_conv.csv" > "$T/eth_conv.txt" 2>&1 || bad "lossless converge failed"
  lines "build/lossless converge" "$T/eth_conv.txt"
  set -- $(cat "$T/eth_conv.txt")
  says $E "the two get ${3#flow0=} and ${4#flow1=} of the link (Jain's index ${5#jain=}); over the last 10 ms ${7#flow0=} and ${8#flow1=} (${9#jain=})" "build/lossless converge"
  thr=$(awk '$1 == "iba" { print $6 }' "$T/eth_table.txt")
  says README.md "IBA CC throttles a 100 Gb/s incast to $thr of the link" "build/lossless table"
  line=$(cat "$T/eth_hpcc.txt")
  kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  says README.md "HPCC holds the hot link at $(kv hot_link_frac) with $(kv hot_leaf_kbytes_mean) KB queued" "build/lossless incast hpcc"
else
  bad "$BUILD/lossless not built"
fi

# ---- README: [K], two hosts at 0.8 and the torus pair ---------------------
"$SIM" wormhole --load 0.8 --time 200 > "$T/wh.txt" 2>&1 || bad "ibccsim wormhole failed"
hi=$(awk '$1 == "high" { print $3 }' "$T/wh.txt"); lo=$(awk '$1 == "low" { print $3 }' "$T/wh.txt")
says README.md "the unsegmented stream keeps $(f2 "$hi") of the link" "ibccsim wormhole --load 0.8 --time 200"
says README.md "100-byte-segmented one gets $(f2 "$lo")" "ibccsim wormhole --load 0.8 --time 200"
for s in 33 500; do
  "$SIM" wormhole --case torus --pattern pair --load 0.2 --seg $s > "$T/torus$s.txt" 2>&1 ||
    bad "ibccsim wormhole --case torus --seg $s failed"
done
d33=$(awk '$1 == "high" { printf "%.1f", $4 }' "$T/torus33.txt")
d500=$(awk '$1 == "high" { printf "%.1f", $4 }' "$T/torus500.txt")
says README.md "falls from $d500 to $d33 us" "ibccsim wormhole --case torus --pattern pair --load 0.2 --seg 500|33"

# ---- docs/jobs.md: the two-jobs table of build/jobs, line for line --------
if [ -x "$BUILD/jobs" ] && "$BUILD/jobs" > "$T/jobs.txt" 2>&1; then
  while IFS= read -r line; do
    if grep -F -x -q -- "$line" docs/jobs.md; then ok
    else bad "docs/jobs.md lacks the line '$line' (build/jobs prints it)"; fi
  done < "$T/jobs.txt"
else
  bad "build/jobs (examples/jobs.c) failed or is not built"
fi

# ... and the same two jobs through ibccsim custom --job ("Jobs in ibccsim")
"$SIM" custom --topology fattree --k 4 --n 2 \
  --job 'victim pattern=allreduce-ring hosts=0-7 bytes=262144' \
  --job 'aggressor pattern=incast hosts=8-13,5 root=6 bytes=827200 sl=1' \
  > "$T/cujobs.txt" 2>&1 || bad "ibccsim custom --job (docs/jobs.md) failed"
tail -n 3 "$T/cujobs.txt" > "$T/cujobs_table.txt"
while IFS= read -r line; do
  if grep -F -x -q -- "$line" docs/jobs.md; then ok
  else bad "docs/jobs.md lacks the line '$line' (ibccsim custom --job prints it)"; fi
done < "$T/cujobs_table.txt"

# ---- docs/scenarios.md: the fidelity counts agree with the pages' -------
rows=$(for pg in scenario_twoswitch scenario_gran scenario_mvcm scenario_wormhole; do
  grep -h '^\[[A-Z0-9]*\]: [0-9]* results: ' "docs/$pg.md" |
    awk '{ gsub(/[:,]/, ""); printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $6, $8, $10 }'
done)
[ "$(echo "$rows" | grep -c .)" -eq 5 ] && ok || bad "the four scenario pages should close five fidelity tables"
oifs=$IFS; IFS='
'
for row in $rows; do
  if grep -F -q -- "$row" docs/scenarios.md; then ok
  else bad "docs/scenarios.md's fidelity counts lack the row '$row' (the page's closing line)"; fi
done
IFS=$oifs

# ---- README: [G] and [F] figures agree with their scenario pages ----------
says README.md "collapses
to 2.17 Gbit/s" "docs/scenario_gran.md's fidelity row 6 (2.1667)"
says docs/scenario_gran.md "| 2.1667, 2.1667, 2.1667 |" "README: the victim collapses to 2.17 Gbit/s"
says docs/scenario_gran.md "| 13.00 (lowest phase) |" "README: it keeps 13.00"
says README.md "it keeps 13.00" "docs/scenario_gran.md's fidelity row 9"
says docs/scenario_gran.md "| Jain 0.9970 |" "README: Jain index of 0.997"
says README.md "Jain index of 0.997" "docs/scenario_gran.md's fidelity row 14"
says docs/scenario_mvcm.md "| 0.07 % (MB alone" "README: MVCM validates 0.07 %"
says README.md "MVCM validates 0.07 % of the cold packets" "docs/scenario_mvcm.md's fidelity row 24"

# ---- docs/scenario_jobs.md: two jobs on a fat tree, IBA CC off and on -----
# the table from the figure's data (tools/figures.sh jobs_cc: three runs
# of examples/scenarios/jobs_fattree_cc.ini), row for row, and the runs
# the text quotes
FIGURES_CHECK=1 FIGURES_DATA="$T/fig" BUILD=$BUILD sh tools/figures.sh jobs_cc > "$T/figj.log" 2>&1
J=docs/scenario_jobs.md
for c in 'settled|(1) HOL, 5 ms' 'together|(2) HOL, 0 ms' 'hot|(3) hot host'; do
  f=$T/fig/jobs_cc_${c%%|*}.csv
  if [ -s "$f" ]; then
    awk -F, -v lb="${c#*|}" 'NR > 1 { printf "| %s | %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f |\n", lb,
         (NR == 2 ? "off" : "on"), $3, $4, $5, $6, $7, $8 }' "$f" > "$T/jrows"
    while IFS= read -r line; do
      if grep -F -x -q -- "$line" $J; then ok; else bad "$J lacks the row '$line'"; fi
    done < "$T/jrows"
  else bad "no data for $J (tools/figures.sh jobs_cc): $(tail -n 3 "$T/figj.log")"; fi
done
jv() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c[k] }' "$1"; }
jc() {  # jc JOB FIELD FILE: a jobs.csv field (the quoted hosts field holds commas)
  sed 's/"[^"]*"/H/' "$3" | awk -F, -v j="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR > 1 && $1 == j { print $c[f] }'; }
f=$T/fig/jobs_cc_settled.csv
if [ -s "$f" ]; then
  says $J "alone it takes $(awk -F, 'NR == 2 { printf "%.1f", $4 }' "$f") us" "the victim alone"
  says $J "(alone,
  $(awk -F, 'NR == 2 { printf "%.1f", $8 }' "$f") us" "the aggressor alone"
  says $J "falls from $(awk -F, 'NR == 2 { printf "%.1f", $6 }' "$f") to $(awk -F, 'NR == 3 { printf "%.1f", $6 }' "$f")" "victim p99 case 1"
  says $J "takes $(awk -F, 'NR == 3 { printf "%.1f", $8 }' "$f") us alone instead of $(awk -F, 'NR == 2 { printf "%.1f", $8 }' "$f")" "aggressor alone with CC"
  says README.md "slowdown from $(awk -F, 'NR == 2 { printf "%.2f", $5 }' "$f") to $(awk -F, 'NR == 3 { printf "%.2f", $5 }' "$f") when" "README: case 1"
  h=$T/fig/jobs_cc_hot.csv
  says README.md "raises it from $(awk -F, 'NR == 2 { printf "%.2f", $5 }' "$h") to $(awk -F, 'NR == 3 { printf "%.2f", $5 }' "$h") when" "README: case 3"
fi
for b in 16 64; do
  "$SIM" run examples/scenarios/jobs_fattree_cc.ini fabric.buf-packets=$b sm.congestion_control=TRUE \
    output.directory="$(pwd)/$T/jb$b" --quiet > /dev/null 2>&1
  eval "b$b=\$(awk -v x=\"\$(jc aggressor job_ideal_us $T/jb$b/jobs.csv)\" 'BEGIN { printf \"%.1f\", x }')"
done
says $J "takes $b16 us alone, with 64 packets $b64 us" "buffers 16 and 64"
CCF="--marker iba --threshold 15 --marking-rate 1 --packet-size 8 --agent cct --cct quadratic --ccti-timer 150 --ccti-increase 1"
for c in 'c1|ranks=8 place=interleaved|ranks=8 place=interleaved bytes=4194304' \
         'c3|hosts=0-7|hosts=8-14,5 root=7 bytes=4194304'; do
  n=${c%%|*}; r=${c#*|}; v=${r%%|*}; a=${r#*|}
  # shellcheck disable=SC2086
  "$SIM" custom --topology fattree --k 4 --n 2 --link-gbytes 2 --data-size 2074 --time 40 $CCF \
    --job "victim pattern=allreduce-ring $v bytes=1048576 start=5000" --job "aggressor pattern=incast $a" \
    --summary "$T/$n.sum" --job-csv "$T/$n.csv" --quiet > /dev/null 2>&1
done
# the command line gives what the scenario file gives
[ -s "$T/c1.csv" ] && [ "$(jc victim job_completion_us "$T/c1.csv")" = "$(awk -F, 'NR == 3 { print $3 }' "$f")" ] && ok \
  || bad "$J: the custom command of case 1 no longer gives the scenario file's victim"
says $J "marked $(awk -v x="$(val "$T/c3.sum" class0_marked_frac)" 'BEGIN { printf "%.1f", 100 * x }')% of the victim's packets here, $(awk -v x="$(val "$T/c1.sum" class0_marked_frac)" 'BEGIN { printf "%.1f", 100 * x }')% in case
  1" "marked fractions"
# the incast's marks alone and beside the victim of case 2
"$SIM" custom --topology fattree --k 4 --n 2 --link-gbytes 2 --data-size 2074 --time 40 --warmup 0 $CCF \
  --job 'aggressor pattern=incast hosts=1,3,5,7,9,11,13,15 bytes=4194304' --summary "$T/al.sum" --quiet \
  > /dev/null 2>&1
"$SIM" custom --topology fattree --k 4 --n 2 --link-gbytes 2 --data-size 2074 --time 40 --warmup 0 $CCF \
  --job 'victim pattern=allreduce-ring ranks=8 place=interleaved bytes=1048576 start=0' \
  --job 'aggressor pattern=incast ranks=8 place=interleaved bytes=4194304' --summary "$T/w2.sum" --quiet \
  > /dev/null 2>&1
says $J "marking
  $(awk -v x="$(val "$T/w2.sum" class1_marked_frac)" 'BEGIN { printf "%.1f", 100 * x }')% of its packets against $(awk -v x="$(val "$T/al.sum" class0_marked_frac)" 'BEGIN { printf "%.1f", 100 * x }')% alone" "the incast's marks"
for c in 'law|--marker input --agent law|--job|victim pattern=allreduce-ring hosts=0-7 bytes=262144|aggressor pattern=incast hosts=8-13,5 root=6 bytes=827200' \
         'one|--time 40|--job|victim pattern=allreduce-ring ranks=8 place=interleaved bytes=1048576 start=5000|aggressor pattern=incast ranks=8 place=interleaved bytes=4194304' \
         'onecc|--time 40 '"$CCF"'|--job|victim pattern=allreduce-ring ranks=8 place=interleaved bytes=1048576 start=5000|aggressor pattern=incast ranks=8 place=interleaved bytes=4194304' \
         'nocc|--time 10|--job|victim pattern=allreduce-ring hosts=0-7 bytes=262144|aggressor pattern=incast hosts=8-13,5 root=6 bytes=827200'; do
  n=${c%%|*}; r=${c#*|}; fl=${r%%|*}; r=${r#*|}; r=${r#*|}; v=${r%%|*}; a=${r#*|}
  # shellcheck disable=SC2086
  "$SIM" custom --topology fattree --k 4 --n 2 $fl --job "$v" --job "$a" --job-csv "$T/$n.csv" \
    --quiet > /dev/null 2>&1
done
sd() { awk -v x="$(jc victim slowdown "$T/$1.csv")" 'BEGIN { printf "%.2f", x }'; }
says $J "a
  slowdown of $(sd law) instead of
  $(sd nocc) without CC" "LIPD + input marking, victim on hosts 0-7"
says $J "slowdown of $(sd onecc) with CC against $(sd one) without" "case 1 on 1 GB/s links"

# ---- docs/figures.md: the figures' own data -------------------------------
FIGURES_CHECK=1 FIGURES_DATA="$T/fig" BUILD=$BUILD \
  sh tools/figures.sh run1_no_cc run4_markers recovery > "$T/fig.log" 2>&1
F=docs/figures.md
s=$T/fig/run1_summary.csv
if [ -s "$s" ]; then
  says $F "the root link is full ($(f3 "$(val $s root_util_frac)"))" "run 1a root_util_frac"
  says $F "The local flows take
$(f3 "$(val $s local_share_root_frac)") of it and the remote flows $(f3 "$(val $s remote_share_root_frac)")" "run 1a shares"
  says $F "is idle $(pct "$(awk -v r="$(val $s remote_share_root_frac)" 'BEGIN { print 1 - r }')")% of the time" "run 1a: 1 - remote share"
  says $F "it gets $(f3 "$(val $s victim_share_isl_frac)") GB/s" "run 1a victim_share_isl_frac"
  says $F "to $(f3 "$(val $s isl_util_frac)")." "run 1a isl_util_frac"
else
  bad "no run 1a summary (tools/figures.sh run1_no_cc): $(tail -n 3 "$T/fig.log")"
fi
r4() { val "$T/fig/run4_$1_summary.csv" "$2"; }
if [ -s "$T/fig/run4_io4_summary.csv" ]; then
  says $F "ratio is $(f2 "$(r4 naive remote_local_ratio)") and the Jain
  index $(f2 "$(r4 naive jain_contributors)")" "run 4 naive"
  says $F "fairer:** ratio $(f2 "$(r4 input_all remote_local_ratio)"), Jain $(f2 "$(r4 input_all jain_contributors)")" "run 4 input (all)"
  says $F "(ratio $(f2 "$(r4 io8 remote_local_ratio)"), Jain
  $(f2 "$(r4 io8 jain_contributors)")) with the root link $(pct "$(r4 io8 root_util_frac)")% busy" "run 4 io T=8"
  says $F "(Jain $(f2 "$(r4 io4 jain_contributors)"), ratio $(f2 "$(r4 io4 remote_local_ratio)")), but the root link
  drops to $(f2 "$(r4 io4 root_util_frac)")" "run 4 io T=4"
  lo=$(for n in naive input_all io4 io8; do r4 $n victim_share_isl_frac; done | sort -g | head -n 1)
  hi=$(for n in naive input_all io4 io8; do r4 $n victim_share_isl_frac; done | sort -g | tail -n 1)
  says $F "It gets $(f2 "$lo") to $(f2 "$hi")
  of the ISL, against $(f2 "$(r4 nocc victim_share_isl_frac)") without CC" "run 4 victim with 'all'"
  says $F "keeps about $(f2 "$(r4 input_busy victim_share_isl_frac)") GB/s" "run 4 input (busy) victim"
else
  bad "no run 4 summaries (tools/figures.sh run4_markers): $(tail -n 3 "$T/fig.log")"
fi
rec() { f2 "$(cat "$T/fig/recovery_$1.ms")"; }
tau() { awk -v m="$(cat "$T/fig/recovery_$1.ms")" 'BEGIN { printf "%.0f", m / 0.002048 }'; }
if [ -s "$T/fig/recovery_aimd_disc.ms" ]; then
  says $F "after $(rec fimd_cont) ms ($(tau fimd_cont) tau)" "recovery FIMD"
  says $F "takes $(rec aimd_cont) ms ($(tau aimd_cont) tau)" "recovery AIMD"
  says $F "LIPD takes the same $(rec lipd_cont) ms" "recovery LIPD"
  [ "$(rec lipd_cont)" = "$(rec aimd_cont)" ] && ok || bad "recovery: LIPD and AIMD no longer take the same time"
  says $F "FIMD $(rec fimd_disc) ms, LIPD $(rec lipd_disc) ms, AIMD
  $(rec aimd_disc) ms" "recovery, discrete forms"
else
  bad "no recovery data (tools/figures.sh recovery): $(tail -n 3 "$T/fig.log")"
fi
# the first ACK comes after one packet at Rmin = Rmax/256: 256 x 2.048 us
says $F "at 1/Rmin = $(awk 'BEGIN { printf "%.2f", 256 * 2.048e-3 }') ms" "256 packet times of 2.048 us"
n=$(ls docs/figures/*.png | wc -l | tr -d ' ')
case $n in 9) w=Nine ;; 10) w=Ten ;; 11) w=Eleven ;; 12) w=Twelve ;; 13) w=Thirteen ;; 14) w=Fourteen ;; *) w=$n ;; esac
says $F "$w figures" "ls docs/figures/*.png | wc -l"

# topologies.md: Valiant through LMC against minimal routing on the
# dragonfly's shift pattern (group i to group i + 1) and under uniform load
F=docs/topologies.md
dfly() { "$SIM" custom --topology dragonfly --time 1 "$@" 2>&1 | tail -n 1; }
m=$(dfly --routing minimal --traffic shift --warmup 0.2)
v=$(dfly --routing valiant --traffic shift --warmup 0.2)
rr=$(dfly --routing valiant --traffic shift --warmup 0.2 --dlid round-robin)
for line in "$m" "$v" "$rr"; do says $F "$line" "custom dragonfly shift"; done
acc() { echo "$1" | sed 's/.*accepted\/host \([0-9.]*\);.*/\1/'; }
lat() { echo "$1" | sed 's/.* lat \([0-9.]*\) .*/\1/'; }
says $F "$(awk -v a="$(acc "$v")" -v b="$(acc "$m")" 'BEGIN { printf "%.1f", a / b }') times as much with random LIDs" "valiant / minimal, random"
says $F "$(awk -v a="$(acc "$rr")" -v b="$(acc "$m")" 'BEGIN { printf "%.1f", a / b }') times with round-robin" "valiant / minimal, round-robin"
uv=$(dfly --routing valiant --traffic uniform --load 0.3)
um=$(dfly --routing minimal --traffic uniform --load 0.3)
says $F "$(acc "$uv") and $(lat "$uv") us
against $(acc "$um") and $(lat "$um") us" "uniform 0.3, valiant and minimal"

echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
