#!/bin/sh
# [K] (Kwan et al., dual-priority wormhole segmentation): every result of
# the paper's evaluation (sections 3 and 4) beside ibcc's, one row each.
# Run by tools/fidelity/run.sh (make fidelity); prints rows through fid_row.
# One parameter set for every row (docs/scenario_wormhole.md traces each
# to [K] or gives ibcc's reason): 80 MB/s links of 25 m, 80-byte slack
# buffers (150 only for the curve of Fig 8 that [K] runs with 150),
# messages of mean 1000 bytes, 30% high priority per host, routing delay
# 0, seed 0. Delays are [K]'s (section 2: the first segment entering the
# network to the head of the last one arriving), kdelay_* in the
# summaries. Time: about five and a half minutes on one core.
#   K_METRIC=delay   use ibcc's message delay instead (generation to last
#                    byte; what the code had before [K]'s metric existed)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tools/fidelity/lib.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/ibcc-fid-k.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
R=${IBCC_NICE:-nice -n 10}
KM=${K_METRIC:-kdelay}
W="$SIM wormhole"
WS="$SIM wormhole-sweep --jobs 1"

# sweep NAME ARGS...: one wormhole-sweep into $T/NAME.csv (no file: failed)
sweep() {
  n=$1; shift
  $R $WS --out "$T/$n.csv" "$@" > /dev/null 2> "$T/$n.err" || rm -f "$T/$n.csv"
}
# run NAME ARGS...: one wormhole run, summary in $T/NAME.csv
run() {
  n=$1; shift
  $R $W --quiet --summary "$T/$n.csv" "$@" > /dev/null 2> "$T/$n.err" || rm -f "$T/$n.csv"
}
# m NAME KEY: a summary value
m() { [ -f "$T/$1.csv" ] && awk -F, -v k="$2" '$1 == k { print $2 }' "$T/$1.csv"; }
# at NAME X COL: column COL of the sweep row whose first field is X
at() {
  [ -f "$T/$1.csv" ] && awk -F, -v x="$2" -v c="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    k && $1 == x { print $k }' "$T/$1.csv"
}
# argmin NAME COL: the first field of the (numeric) row with the least COL
argmin() {
  [ -f "$T/$1.csv" ] && awk -F, -v c="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    k && $1 ~ /^[0-9.]+$/ && (b == "" || $k < b) { b = $k; x = $1 }
    END { print x }' "$T/$1.csv"
}
# localmin NAME COL X: the grid point of a local minimum near X ("-" if
# none): a point within 25% of X, below both grid neighbours, and at least
# 3% below the highest value between X/2 and it and the highest between it
# and 2X (so a noise wiggle on a slope is not one)
localmin() {
  [ -f "$T/$1.csv" ] && awk -F, -v c="$2" -v x="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    $1 ~ /^[0-9.]+$/ { n++; v[n] = $1; y[n] = $k }
    END { r = "-"
          for (i = 2; i < n && r == "-"; i++) {
            if (v[i] < 0.75 * x || v[i] > 1.25 * x || y[i] >= y[i-1] || y[i] >= y[i+1]) continue
            l = 0; h = 0
            for (j = 1; j <= n; j++) {
              if (v[j] >= x / 2 && j < i && y[j] > l) l = y[j]
              if (v[j] <= 2 * x && j > i && y[j] > h) h = y[j]
            }
            if (l >= 1.03 * y[i] && h >= 1.03 * y[i]) r = v[i]
          }
          print r }' "$T/$1.csv"
}
# series NAME COL: "x:y x:y ..." of a sweep, y to 1 decimal
series() {
  [ -f "$T/$1.csv" ] && awk -F, -v c="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
    k { printf "%s%s:%.1f", (n++ ? " " : ""), $1, $k }' "$T/$1.csv"
}
# tru COND: fid_true, "differs" when COND is malformed (a value missing)
tru() { r=$(fid_true "$1" 2> /dev/null); echo "${r:-differs}"; }
f2() { awk "BEGIN { printf \"%.2f\", $1 }"; }
f3() { awk "BEGIN { printf \"%.3f\", $1 }"; }
# row WHERE CLAIM PAPER IBCC MARK CMD NOTE; IBCC empty: the run failed
row() {
  if [ -z "$4" ]; then
    fid_row "$1" "$2" "$3" "-" notrun "$6" "the command failed or lacks an option: ${7:-}"
  else fid_row "$@"; fi
}
HI="${KM}_mean_high_us"; LO="${KM}_mean_low_us"
HP="${KM}_p99_high_us"; LP="${KM}_p99_low_us"

# ---- the runs ----------------------------------------------------------
C2="wormhole-sweep --vary load --case twohost --time 100"
sweep two --vary load --case twohost --time 100
C5="wormhole-sweep --vary load --case torus --pattern pair --time 50 --values 0.05,0.1,0.15,0.2,0.25,0.3,0.4,0.6,0.8,1"
sweep pair --vary load --case torus --pattern pair --time 50 \
  --values 0.05,0.1,0.15,0.2,0.25,0.3,0.4,0.6,0.8,1
sweep pairr --vary load --case torus --pattern pair --time 50 --routes switch \
  --values 0.05,0.1,0.15,0.2,0.25,0.3
C7="wormhole-sweep --vary seg --case torus --load 0.05 --time 100 --values 33,100,250,500"
sweep light --vary seg --case torus --load 0.05 --time 100 --values 33,100,250,500
# both sides of B, 2B and 3B for B = 80 and 150: [K]'s stages of
# higher-order blocking end where a segment outgrows that many buffers
SEGS=33,50,70,80,90,110,130,140,150,160,170,180,200,240,250,260,290,300,310,350,440,450,460,600,800,adaptive
C8="wormhole-sweep --vary seg --case torus --load 0.2 --time 200 --values $SEGS"
sweep s80 --vary seg --case torus --load 0.2 --time 200 --values $SEGS
sweep s150 --vary seg --case torus --load 0.2 --time 200 --slack 150 --values $SEGS
# nearer saturation (0.24), with points on both sides of each stage, and
# at 0.2 with a switch routing delay of 500 ns (ibcc's default is 0): what
# moves the optima, and whether with the slack
S24=160,170,240,250,260,300,310,350,440,450,460
sweep m80 --vary seg --case torus --load 0.24 --time 200 --values $S24
sweep m150 --vary seg --case torus --load 0.24 --time 200 --slack 150 --values $S24
S5=200,250,300,350,450
sweep n80 --vary seg --case torus --load 0.2 --time 200 --fwd-ns 500 --values $S5
sweep n150 --vary seg --case torus --load 0.2 --time 200 --fwd-ns 500 --slack 150 --values $S5
# and with one up/down route per destination switch (--routes switch: the
# busiest link carries 2.29 times the per-host load instead of 1.83)
SR=80,160,170,250,300,310,450
sweep r80 --vary seg --case torus --load 0.2 --time 200 --routes switch --values $SR
sweep r150 --vary seg --case torus --load 0.2 --time 200 --routes switch --slack 150 --values $SR
# and with a GO level near the STOP level (ibcc's default is a round trip)
sweep g150 --vary seg --case torus --load 0.2 --time 200 --slack 150 --go-mark 120 \
  --values 50,100,160,250,450
C11="wormhole-sweep --vary seg --case torus --size 5 --load 0.065 --time 100 --values 80,160,250,350,450,600,800"
sweep t5 --vary seg --case torus --size 5 --load 0.065 --time 100 \
  --values 80,160,250,350,450,600,800
for l in 0.055 0.075; do
  sweep "t5_$l" --vary seg --case torus --size 5 --load $l --time 100 --values 80,160,250,350,450,600,800
done
run t5p --case torus --size 5 --load 0.065 --time 6 --warmup 5
LOADS=0.05,0.1,0.125,0.15,0.175,0.2,0.225
for s in 33 250 300 adaptive; do
  sweep "f12_$s" --vary load --case torus --seg $s --time 100 --values $LOADS
done
C12="wormhole-sweep --vary load --case torus --seg 33|250|300|adaptive --time 100 --values $LOADS"
# the crossover with one route per destination switch (a busier torus)
for s in 33 250 300 adaptive; do
  sweep "f12r_$s" --vary load --case torus --seg $s --time 100 --routes switch --values 0.125,0.15,0.175,0.2
done
C13="wormhole-sweep --vary seg --case torus --load 0.2 --time 200 --switch-prio --values 33,80,160,250,450,800"
sweep prio --vary seg --case torus --load 0.2 --time 200 --switch-prio --values 33,80,160,250,450,800
run whole --case torus --load 0.2 --seg 65535 --time 200
# unsegmented at the lower medium loads of Fig 12's grid (its 250-byte runs)
sweep whl --vary load --case torus --seg 65535 --time 100 --values 0.1,0.15,0.2,0.225
C33="wormhole --case torus --load 0.2 --time 200 --seg 65535 (unsegmented) against --seg 250"

# ---- section 3.1, two hosts (Figs 2, 3) ----------------------------------
ph=$(at two 1 "$HP"); pl=$(at two 1 "$LP")
if [ -n "$ph" ] && [ -n "$pl" ]; then
  row "§3.1, Fig 2" "delay of the long (unsegmented) stream is much more tightly distributed than that of the segmented one (load 1.0)" \
    "tighter" "p99 high $(f2 "$ph") us, low $(f2 "$pl") us" "$(tru "$ph * 2 < $pl")" "$C2" \
    "p99 of [K]'s delay at load 1.0 per host"
else row "§3.1, Fig 2" "delay of the long stream is more tightly distributed" "tighter" "" notrun "$C2"; fi
okl=$(awk -F, 'NR > 1 && $1 <= 0.5 { if ($4 < 0.95 * $2 || $5 < 0.95 * $3) bad = 1 } END { print bad ? 0 : 1 }' "$T/two.csv" 2>/dev/null)
a5h=$(at two 0.5 accepted_high_frac); a5l=$(at two 0.5 accepted_low_frac)
row "§3.1, Fig 3" "each host sends all it offers while the load per host is at most 0.5" "all up to 0.5" \
  "0.5: high $(f3 "${a5h:-0}"), low $(f3 "${a5l:-0}")" "$( [ "$okl" = 1 ] && echo match || echo differs)" "$C2" \
  "every load <= 0.5 within 5% of offered"
split=$(awk -F, 'NR > 1 && $1 > 0.5 && $1 <= 0.9 { if (!($4 >= 0.95 * $2 && $4 > $5)) bad = 1 } END { print bad ? 0 : 1 }' "$T/two.csv" 2>/dev/null)
a8h=$(at two 0.8 accepted_high_frac); a8l=$(at two 0.8 accepted_low_frac)
row "§3.1, Fig 3" "above 0.5 the long-message stream keeps sending all it offers and takes the larger share; the segmented stream gets the rest" \
  "high > low above 0.5" "0.8: high $(f3 "${a8h:-0}"), low $(f3 "${a8l:-0}")" "$( [ "$split" = 1 ] && echo match || echo differs)" "$C2"
a1h=$(at two 1 accepted_high_frac)
row "§3.1, Fig 3" "above 0.9 the long-message stream too gets less than it offers (round robin)" "below 1.0 at load 1.0" \
  "$(f3 "${a1h:-0}")" "$(tru "${a1h:-1} < 0.97")" "$C2" \
  "round robin per worm gives 1000/(1000+100) = 0.909 at full load"

# ---- section 3.1, 3x3 torus, one high-priority pair (Figs 5, 6) ----------
ph=$(at pair 1 "$HP"); pl=$(at pair 1 "$LP")
if [ -n "$ph" ] && [ -n "$pl" ]; then
  row "§3.1, Fig 5" "3x3 torus at load 1.0: the high-priority pair's delay is tighter than a low-priority stream's" \
    "tighter" "p99 high $(f2 "$ph") us, low $(f2 "$pl") us" "$(tru "$ph < $pl")" "$C5" \
    "p99 of [K]'s delay; [K]'s low-priority stream is one stream, ibcc's is every other host"
else row "§3.1, Fig 5" "high-priority delay tighter than low" "tighter" "" notrun "$C5"; fi
thr=$(awk -F, 'NR > 1 { if (!bad && $5 >= 0.95 * $3) t = $1; else bad = 1 } END { print t }' "$T/pair.csv" 2>/dev/null)
row "§3.1, Fig 6" "both streams get what they offer up to a load of about 0.2, then the curves split" "0.2" \
  "${thr:-}" "$(fid_mark_range 0.15 0.25 "${thr:-0}")" "$C5" \
  "the highest load at which low priority still gets 95% of what it offers; ibcc's up/down torus saturates near the root; with one route per destination switch (--routes switch, a busier link next to the root) it is $(awk -F, 'NR > 1 { if (!bad && $5 >= 0.95 * $3) t = $1; else bad = 1 } END { print t }' "$T/pairr.csv" 2>/dev/null)"
rh=$(at pair 1 accepted_high_frac); rl=$(at pair 1 accepted_low_frac)
if [ -n "$rh" ] && [ -n "$rl" ]; then
  rat=$(f2 "$rh / $rl")
  row "§3.1, Fig 6" "above the split the high-priority pair keeps capturing bandwidth, but the ratio is well below 10:1 (more hosts compete for the same host)" \
    "above 1, below 10" "$rat (high $(f3 "$rh"), low $(f3 "$rl") at load 1.0)" "$(tru "$rat > 1 && $rat < 10")" "$C5"
else row "§3.1, Fig 6" "high captures more, ratio below 10:1" "ratio < 10" "" notrun "$C5"; fi

# ---- section 3.2 (Figs 7-12) ----------------------------------------------
mono=$(awk -F, -v c="$HI" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
  { if (n && $k <= p) bad = 1; p = $k; n++ } END { print (n >= 4 && !bad) ? 1 : 0 }' "$T/light.csv" 2>/dev/null)
row "§3.2, Fig 7" "light load (ibcc: 0.05): shorter low-priority segments give lower high-priority delay" "rises with segment length" \
  "$(series light "$HI")" "$( [ "$mono" = 1 ] && echo match || echo differs)" "$C7" \
  "[K] does not give Fig 7's load; ibcc runs 0.05 per host"
o80=$(argmin s80 "$HI"); o150=$(argmin s150 "$HI")
row "§3.2, Fig 8" "load 0.2, slack 80 bytes: the least high-priority delay at a segment of 250 bytes" "250" \
  "${o80:-}" "$(fid_mark_range 225 275 "${o80:-0}")" "$C8" \
  "curve: $(series s80 "$HI"). The second model (tools/kmodel) gives a curve of the same shape (docs). The optimum moves up with congestion: with --load 0.24 it is $(argmin m80 "$HI") ($(series m80 "$HI")); at 0.2 with one route per destination switch (--routes switch) $(argmin r80 "$HI") ($(series r80 "$HI")); and with a per-worm cost, --fwd-ns 500: $(argmin n80 "$HI") ($(series n80 "$HI"))"
row "§3.2, Fig 8" "slack 150 bytes: the optimum moves to 450 bytes" "450" \
  "${o150:-}" "$(fid_mark_range 405 495 "${o150:-0}")" "$C8 --slack 150" \
  "curve: $(series s150 "$HI"). The second model (tools/kmodel) gives a curve of the same shape (docs). Nearer saturation the optimum moves up: with --load 0.24 it is $(argmin m150 "$HI") ($(series m150 "$HI")); at 0.2 with --routes switch $(argmin r150 "$HI") ($(series r150 "$HI")); with --fwd-ns 500 $(argmin n150 "$HI") ($(series n150 "$HI")); with --go-mark 120 $(argmin g150 "$HI") ($(series g150 "$HI")). No choice [K] leaves open that we measured gives 250 and 450 together at 0.2; ibcc's torus is less congested than [K]'s at a given load (rows 6, 22)"
# step NAME X: "X-10:y -> X:y" into a stage of the curve
step() { echo "$1 $2" | { read -r n x; printf '%s:%.2f -> %s:%.2f' "$((x - 10))" "$(at "$n" $((x - 10)) "$HI")" "$x" "$(at "$n" "$x" "$HI")"; }; }
# drop NAME X: 1 if the delay falls by at least 5% from segment X-10 to X
drop() { a=$(at "$1" $(($2 - 10)) "$HI"); b=$(at "$1" "$2" "$HI"); [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { print (b <= 0.95 * a) ? 1 : 0 }'; }
# mins NAME X1 X2 CLAIM: the row for [K]'s local minima near X1 and X2:
# match with a local minimum within 25% of each; partly when the curve has
# the stages (a drop of 5% or more just above each) but not both minima
mins() {
  n=$1; a=$(localmin "$n" "$HI" "$2"); b=$(localmin "$n" "$HI" "$3")
  k=0; [ "${a:--}" != - ] && k=$((k + 1)); [ "${b:--}" != - ] && k=$((k + 1))
  st=$(( $(drop "$n" "$2" || echo 0) + $(drop "$n" "$3" || echo 0) ))
  c=$C8; [ "$n" = s150 ] && c="$C8 --slack 150"
  row "§3.2, Fig 8" "$4" "minima at $2, $3" "minimum near $2: ${a:--}, near $3: ${b:--}; steps into both: $( [ $st = 2 ] && echo yes || echo no)" \
    "$( [ $k = 2 ] && echo match || { [ $st = 2 ] && echo partly || echo differs; })" "$c" \
    "a local minimum: a grid point within 25% of [K]'s, below both neighbours and 3% below the highest values between half [K]'s and it and between it and twice [K]'s. A step: the delay falls by 5% or more from X - 10 to X bytes ($(step "$n" "$2"), $(step "$n" "$3")). A blocked segment of exactly kB bytes fills the k slack buffers ahead of it alone; a few bytes shorter and the head of the next worm joins it there, one more round-robin turn for a worm queued behind (D_H3's B/L_l, rounded up). The steps sat just above B and 2B until a worm taken by its host under STOP counted as in the network (fixed: it enters with its first byte)"
}
mins s80 80 160 "slack 80: local minima near 80 and 160 bytes (1-hop and 2-hop traffic freed of higher-order blocking)"
mins s150 150 300 "slack 150: local minima near 150 and 300 bytes"
if [ -f "$T/s80.csv" ]; then
  d33=$(at s80 33 "$HI"); d800=$(at s80 800 "$HI"); dop=$(at s80 "$o80" "$HI")
  row "§3.2, Fig 8" "segments shorter or longer than the optimum both raise the high-priority delay" "a minimum inside the range" \
    "33: $(f2 "$d33"), optimum: $(f2 "$dop"), 800: $(f2 "$d800") us" "$(tru "$d33 > 1.05 * $dop && $d800 > 1.05 * $dop")" "$C8"
else row "§3.2, Fig 8" "both ends raise the delay" "interior minimum" "" notrun "$C8"; fi
T3="build/test_segment (ibcc_segment_high_delay)"
cat > "$T/dh3.c" <<'EOF'
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>
int main(void)
{
    static const unsigned l[] = {40, 79, 80, 81, 160};
    unsigned i;
    for (i = 0; i < 5; i++) {
        ibcc_segment_delay d;
        if (ibcc_segment_high_delay(1000, l[i], 80, 1000, 1, 1, 1, 0, 0, &d) != IBCC_OK) return 1;
        printf("%s%u:%.1f", i ? " " : "", l[i], d.dh3);
    }
    printf("\n");
    return 0;
}
EOF
dh=$(${CC:-cc} -std=c99 -I. -o "$T/dh3" "$T/dh3.c" -lm 2> "$T/dh3.err" && "$T/dh3")
if [ -n "$dh" ]; then
  dmin=$(echo "$dh" | tr ' ' '\n' | sort -t: -k2 -g | head -n 1 | cut -d: -f1)
  row "§3.2, Figs 9, 10" "D_H3 = (B/L_l)(L_l + L_h) for L_l <= B, L_l + L_h above: least at L_l = B" "minimum at B (80: 1080 bytes)" \
    "bytes, B 80, L_h 1000: $dh" "$( [ "$dmin" = 80 ] && echo "$dh" | grep -q "80:1080.0" && echo match || echo differs)" "$T3" \
    "exact values by hand in tests/test_segment.c"
else
  row "§3.2, Figs 9, 10" "D_H3 = (B/L_l)(L_l + L_h) for L_l <= B, L_l + L_h above" "minimum at B" "-" differs "$T3" \
    "ibcc_segment_high_delay has no B: its wait grows linearly in L_l, which contradicts D_H3 below B"
fi
run p3 --case torus --load 0.2 --time 6 --warmup 5; h3=$(m p3 path_switches_max)
row "§3.2" "3x3 torus: the longest route crosses 3 hops, so the rule gives about 3 x 80 = 240 bytes" "3" \
  "${h3:-}" "$(tru "${h3:-0} == 3")" "wormhole --case torus --summary F (path_switches_max)" \
  "ibcc counts the switches a route crosses (each has a slack buffer the segment can fill)"
ad=$(at s80 adaptive "$HI"); b250=$(at s80 250 "$HI"); bb=$(at s80 "$o80" "$HI")
if [ -n "$ad" ] && [ -n "$b250" ]; then
  gain=$(awk -v a="$ad" -v b="$b250" 'BEGIN { printf "%.0f", 100 * (b - a) / b }')
  gb=$(awk -v a="$ad" -v b="$bb" 'BEGIN { printf "%.0f", 100 * (b - a) / b }')
  row "§3.2" "the adaptive rule L_l = B x h lowers the high-priority delay by 10%" "10%" \
    "${gain}% against 250 bytes (${gb}% against ibcc's best fixed, ${o80} bytes)" "$(fid_mark_range 7 13 "$gain")" "$C8" \
    "[K] does not say against which fixed length; 250 is its best"
else row "§3.2" "adaptive rule 10% lower delay" "10%" "" notrun "$C8"; fi
o5=$(argmin t5 "$HI")
row "§3.2, Fig 11" "3x3 torus at medium load: optimum 250 bytes" "250" "${o80:-}" "$(fid_mark_range 225 275 "${o80:-0}")" "$C8" \
  "the slack-80 curve of Fig 8: the same runs as row 9, and its cause (the optimum moves with how congested the torus is at the stated load, which rests on choices [K] does not give; two independent models agree)"
row "§3.2, Fig 11" "5x5 torus at medium load: optimum 450 bytes" "450" "${o5:-}" "$(fid_mark_range 405 495 "${o5:-0}")" "$C11" \
  "medium load for the 5x5 is ibcc's choice: 0.065 per host puts its busiest link where 0.2 puts the 3x3's (about 0.38); curve: $(series t5 "$HI"). The optimum moves up with the load, as in Fig 8: 0.055: $(argmin t5_0.055 "$HI") ($(series t5_0.055 "$HI")), 0.075: $(argmin t5_0.075 "$HI") ($(series t5_0.075 "$HI"); low priority saturated). ibcc's curve is flat from 80 to 250 bytes (within 8%), the second model's too (docs)"
row "§3.2, Fig 11" "a larger diameter acts like a larger buffer: the 5x5 optimum is longer than the 3x3 one" "450 > 250" \
  "${o5:-} vs ${o80:-}" "$(tru "${o5:-0} > ${o80:-0}")" "$C11"
pm=$(m t5p path_switches_max)
if [ -n "$pm" ]; then
  s67=$(awk -v a="$(m t5p path_switches_6_frac)" -v b="$(m t5p path_switches_7_frac)" 'BEGIN { printf "%.1f", 100 * (a + b) }')
  row "§3.2, Fig 11" "in the 5x5 torus up/down routing sends a fraction of the traffic over 6 or 7 hops" "some 6-7 hop routes" \
    "${s67}% of host pairs cross 6 or 7 switches (max $pm)" "$(tru "$s67 > 0 && $pm <= 7")" \
    "wormhole --case torus --size 5 --summary F (path_switches_*_frac)" \
    "the busiest switch output of the up/down routes carries $(m t5p route_load_max) times the per-host load of uniform traffic (3x3: $(m p3 route_load_max); summary route_load_max)"
else
  row "§3.2, Fig 11" "in the 5x5 torus up/down routing sends a fraction of the traffic over 6 or 7 hops" "some 6-7 hop routes" \
    "" notrun "wormhole --case torus --size 5 --summary F (path_switches_*_frac)" "no path lengths in the summary"
fi
lo10=$(for s in 250 300 adaptive; do at "f12_$s" 0.1 "$HI"; done | sort -g | head -n 1)
d33=$(at f12_33 0.1 "$HI")
row "§3.2, Fig 12" "below a load of 0.15, 33-byte segments give a lower high-priority delay than 250, 300 and adaptive" "33 best below 0.15" \
  "0.1: 33: $(f2 "${d33:-0}") us, best of the others $(f2 "${lo10:-0}") us" "$(tru "${d33:-1} < ${lo10:-0}")" "$C12"
cross=$(for l in 0.05 0.1 0.125 0.15 0.175 0.2 0.225; do
  a=$(at f12_33 $l "$HI"); o=$(for s in 250 300 adaptive; do at "f12_$s" $l "$HI"; done | sort -g | tail -n 1)
  [ -n "$a" ] && [ -n "$o" ] && awk -v a="$a" -v o="$o" -v l="$l" 'BEGIN { if (a > o) print l }'
done | head -n 1)
# the second model with bytes added to every worm (kmodel -H): Myrinet's
# worms carry route, type and CRC bytes, which [K] does not count
KM_BIN=${BUILD:-build}/kmodel
kh() {  # kh SEG LOAD HDR: kmodel's [K] delay of high priority, 50 ms
  [ -x "$KM_BIN" ] && $R "$KM_BIN" -s "$1" -l "$2" -H "$3" -t 50 2> /dev/null | awk -F, '{ print $5 }'
}
hx=""
for l in 0.15 0.175; do
  a=$(kh 33 $l 8); b=$(kh 250 $l 8); a0=$(kh 33 $l 0); b0=$(kh 250 $l 0)
  [ -n "$a" ] && [ -n "$b" ] || continue
  hx="$hx $l: 33 bytes $a us, 250 bytes $b us (no added bytes: $a0, $b0);"
  [ -z "${hc:-}" ] && awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > b) }' && hc=$l
  [ -z "${hc0:-}" ] && awk -v a="$a0" -v b="$b0" 'BEGIN { exit !(a > b) }' && hc0=$l
done
crossr=$(for l in 0.125 0.15 0.175 0.2; do
  a=$(at f12r_33 $l "$HI"); o=$(for s in 250 300 adaptive; do at "f12r_$s" $l "$HI"; done | sort -g | tail -n 1)
  [ -n "$a" ] && [ -n "$o" ] && awk -v a="$a" -v o="$o" -v l="$l" 'BEGIN { if (a > o) print l }'
done | head -n 1)
row "§3.2, Fig 12" "above 0.15 the 33-byte case becomes much worse than all the others (higher-order blocking)" "crossover 0.15" \
  "${cross:-none up to 0.225}" "$(fid_mark_range 0.14 0.16 "${cross:-1}")" "$C12" \
  "the first load of the grid at which 33 bytes is worse than all of 250, 300, adaptive. The crossover comes with congestion, and ibcc's up/down routes spread the load (busiest link 1.83 times the per-host load): with one route per destination switch (--routes switch, 2.29 times) it is still ${crossr:-above 0.2}, though the Fig 6 split then comes at [K]'s 0.2 (row 6). What moves it is a cost per worm, which falls hardest on 33-byte segments: the second model with 8 bytes added to every worm (tools/kmodel: build/kmodel -s SEG -l LOAD -H 8 -t 50) gives${hx%;}: 33 bytes is worse than 250 from ${hc:-beyond 0.175} on (without the added bytes: ${hc0:-beyond 0.175}). Myrinet's worms carry route bytes, a type field and a CRC; [K] counts none and ibcc's worms are their payload (the parameter table), so this stays a cause shown, not adopted"
best=$(for l in 0.15 0.175 0.2 0.225; do
  a=$(at f12_adaptive $l "$HI"); b=$(at f12_250 $l "$HI"); c=$(at f12_300 $l "$HI")
  awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { print (a != "" && a <= b && a <= c) ? 1 : 0 }'
done | tr -d '\n')
row "§3.2, Fig 12" "the adaptive rule is the best of the larger segment lengths" "adaptive best of 250, 300, adaptive" \
  "best at loads 0.15..0.225: $best" "$( [ "$best" = 1111 ] && echo match || echo partly)" "$C12" "1 = adaptive lowest at that load"

# ---- section 3.3 ----------------------------------------------------------
# the cut past medium load (the load gap of Fig 8 as a cause) and with
# ibcc's own delay beside [K]'s
for l in 0.24 0.3; do
  run cw$l --case torus --load $l --time 100 --seg 65535
  run cs$l --case torus --load $l --time 100 --seg 250
done
run cw0.2 --case torus --load 0.2 --time 100 --seg 65535
run cs0.2 --case torus --load 0.2 --time 100 --seg 250
run cwr --case torus --load 0.2 --time 100 --seg 65535 --routes switch
run csr --case torus --load 0.2 --time 100 --seg 250 --routes switch
cut() { a=$(m "cw$1" "$2"); b=$(m "cs$1" "$2"); [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0f%%", 100 * (a - b) / a }'; }
wh=$(m whole "$HI"); wl=$(m whole "$LO"); sh=$(at s80 250 "$HI"); sl=$(at s80 250 "$LO")
if [ -n "$wh" ] && [ -n "$sh" ]; then
  dec=$(awk -v a="$wh" -v b="$sh" 'BEGIN { printf "%.0f", 100 * (a - b) / a }')
  inc=$(awk -v a="$wl" -v b="$sl" 'BEGIN { printf "%.1f", b / a }')
  row "§3.3" "3x3 torus, medium load: segmenting low priority cuts the high-priority mean delay by up to 40%" "up to 40%" \
    "${dec}% ($(f2 "$wh") -> $(f2 "$sh") us)" "$(fid_mark_range 30 40 "$dec")" "$C33" \
    "medium load 0.2 and 250-byte segments (Fig 8's optimum) are ibcc's reading; [K] gives neither. The cut at other loads, 250 bytes against unsegmented (Fig 12's runs, --time 100): $(for l in 0.1 0.15 0.2 0.225; do a=$(at whl $l "$HI"); b=$(at f12_250 $l "$HI"); [ -n "$a" ] && [ -n "$b" ] && awk -v l=$l -v a="$a" -v b="$b" 'BEGIN { printf "%s: %.0f%% ", l, 100 * (a - b) / a }'; done); at 0.2 with the other segment lengths of Fig 8: $(for g in 33 50 80 800; do b=$(at s80 $g "$HI"); [ -n "$b" ] && awk -v g=$g -v a="$wh" -v b="$b" 'BEGIN { printf "%s: %.0f%% ", g, 100 * (a - b) / a }'; done). Not the load gap of Fig 8: past medium load the cut stays large, 0.24: $(cut 0.24 kdelay_mean_high_us), 0.3: $(cut 0.3 kdelay_mean_high_us) (low priority saturated there; --time 100). Nor the delay's definition alone: ibcc's own delay (generation to last byte) is cut $(cut 0.2 delay_mean_high_us) at 0.2, while the low-priority one does not grow ($(m cw0.2 delay_mean_low_us) -> $(m cs0.2 delay_mean_low_us) us). Nor the route set: with --routes switch $(cut r kdelay_mean_high_us). The second model (tools/kmodel, written from [K]'s text) gives the same cut with every route set and host order it has (docs), so the cause lies in what [K] states: with 30% of the load high priority and exponential lengths, most of an unsegmented high-priority worm's delay is the rest of a whole low-priority message ahead of it, which segmenting shortens; neither model has a choice [K] leaves open that brings the cut to 40%"
  row "§3.3" "under the same conditions the low-priority mean delay grows more than threefold" "> 3x" \
    "${inc}x ($(f2 "$wl") -> $(f2 "$sl") us)" "$(tru "$inc > 3")" "$C33" \
    "segments of one message wait for each other (multiplexing delay)"
else
  row "§3.3" "segmenting cuts high-priority delay by up to 40%" "up to 40%" "" notrun "$C33"
  row "§3.3" "low-priority delay grows more than threefold" "> 3x" "" notrun "$C33"
fi
lp=$(at s80 250 "$LP")
row "§3.3" "at 80 MB/s latencies stay of the order of a few hundred microseconds with segmentation" "a few hundred us" \
  "low-priority p99 $(f2 "${lp:-0}") us, mean $(f2 "${sl:-0}") us" "$(tru "${lp:-1e9} < 1000")" "$C8" "load 0.2, 250-byte segments"

# ---- section 4 (Fig 13) ----------------------------------------------------
wins=0; nl=0; lost=""
for s in 33 80 160 250 450 800; do
  a=$(at prio $s "$HI"); b=$(at s80 $s "$HI")
  [ -n "$a" ] && [ -n "$b" ] || continue
  w=$(awk -v a="$a" -v b="$b" 'BEGIN { print (a < b) ? 1 : 0 }')
  nl=$((nl + 1)); wins=$((wins + w)); [ "$w" = 1 ] || lost="$lost $s"
done
# a length where priority lost in the sweep (seed 0): the same point with
# seeds 1-3 too, with and without switch priority; the means over seeds
# 0-3 decide it, and the low class's delay says whether it settles
why=""; won=0
for s in $lost; do
  k=0; lo=""; sa=$(at prio $s "$HI"); sb=$(at s80 $s "$HI")
  for sd in 1 2 3; do
    run "p${s}_$sd" --case torus --load 0.2 --time 200 --seg "$s" --seed "$sd" --switch-prio
    run "n${s}_$sd" --case torus --load 0.2 --time 200 --seg "$s" --seed "$sd"
    a=$(m "p${s}_$sd" kdelay_mean_high_us); b=$(m "n${s}_$sd" kdelay_mean_high_us)
    [ -n "$a" ] && [ -n "$b" ] || continue
    k=$((k + $(awk -v a="$a" -v b="$b" 'BEGIN { print (a < b) ? 1 : 0 }')))
    sa="$sa + $a"; sb="$sb + $b"
    lo="$lo $(f2 "$(m "n${s}_$sd" kdelay_mean_low_us)")"
  done
  ma=$(f2 "($sa) / 4"); mb=$(f2 "($sb) / 4")
  w=$(awk -v a="$ma" -v b="$mb" 'BEGIN { print (a < b) ? 1 : 0 }'); won=$((won + w))
  why="$why At $s bytes the sweep's run (seed 0) is higher with priority, but seeds 1-3 are lower in $k of 3 (wormhole --case torus --load 0.2 --time 200 --seg $s --seed S, with and without --switch-prio), and over seeds 0-3 the means are $ma with priority against $mb without. That point's low class is saturated (mean delay$lo us with seeds 1-3, against $(f2 "$(at s80 80 "$LO")") us at 80 bytes), so no 200 ms run of it settles."
done
row "§4, Fig 13" "non-preemptive priority at the switches lowers the high-priority delay (load 0.2, 30% high)" "lower at every length" \
  "lower at $((wins + won)) of $nl lengths${lost:+ (at${lost} bytes: over seeds 0-3)}; with: $(series prio "$HI")" "$( [ "$nl" -gt 0 ] && [ "$((wins + won))" = "$nl" ] && echo match || echo partly)" "$C13" \
  "${why# }"
rng=$(awk -F, -v c="$HI" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
  { if (n == 0 || $k < a) a = $k; if (n == 0 || $k > b) b = $k; n++ } END { if (n) printf "%.2f", b / a }' "$T/prio.csv" 2>/dev/null)
op=$(argmin prio "$HI")
row "§4, Fig 13" "with switch priority the segment length still matters" "delay varies with the length" \
  "max/min $rng, optimum ${op:-}" "$(tru "${rng:-0} > 1.1")" "$C13"
exit 0
