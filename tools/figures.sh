#!/bin/sh
# Draw the figures of docs/figures.md from build/ibccsim CSV outputs.
#   usage: BUILD=build sh tools/figures.sh      (what `make figures` runs)
# Needs $BUILD/ibccsim (built by make) and gnuplot (optional: without it the
# script says so and exits 0). Every run uses a fixed seed, so the CSVs and
# the PNGs are the same on every machine with the same ibcc.h.
# CSVs go to $BUILD/figures/, PNGs to docs/figures/.
set -eu

BUILD=${BUILD:-build}
SIM=$BUILD/ibccsim
DATA=$BUILD/figures
OUT=${FIGURES_OUT:-docs/figures}
SEED=1

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "skip: gnuplot not found; apt-get install gnuplot-nox to draw docs/figures"
    exit 0
fi
if [ ! -x "$SIM" ]; then
    echo "figures: $SIM not built (run 'make figures')" >&2
    exit 1
fi
mkdir -p "$DATA" "$OUT"

# pngcairo draws anti-aliased lines; the libgd png terminal is the fallback.
if echo 'set terminal' | gnuplot 2>/dev/null | grep -q pngcairo; then
    TERM_PNG=pngcairo
else
    TERM_PNG=png
fi

plot() { # plot SCRIPT.gp: run it with the data and output dirs
    gnuplot -e "term='$TERM_PNG'; data='$DATA'; out='$OUT'" "tools/$1"
    echo "figures: $OUT/$(basename "$1" .gp).png"
}

# ---- 1. docs/scenarios.md (A) run 1(a): L=10, R=10, window 1, no rate control ----
# (these are ibccsim's defaults; spelled out so the figure does not move if
# a default changes)
"$SIM" twoswitch --local 10 --remote 10 --buffer 4 --window 1 \
    --marking none --law none --time 100 --victim-from 40 --victim-to 60 \
    --seed $SEED --quiet --series "$DATA/run1.csv" --summary "$DATA/run1_summary.csv"
plot run1_no_cc.gp

# ---- 2. docs/scenarios.md (A) run 4: the rows of `make demo` ---------------------
# name|marking|classify|T_out|law|label (label as in the demo table)
rows='nocc|none|all|8|none|no CC
naive|naive|all|8|lipd|naive
input_all|input|all|8|lipd|input (all)
input_busy|input|busy|8|lipd|input (busy)
io4|io|all|4|lipd|io T=4
io8|io|all|8|lipd|io T=8'
table=$DATA/run4_table.dat
printf '# label victim_share_isl isl_util root_util jain remote_local_ratio\n' > "$table"
echo "$rows" | while IFS='|' read -r name mk cls tout law label; do
    "$SIM" twoswitch --local 10 --remote 10 --buffer 4 --window 1 \
        --marking "$mk" --classify "$cls" --out-threshold "$tout" --law "$law" \
        --time 100 --victim-from 40 --victim-to 60 --seed $SEED --quiet \
        --series "$DATA/run4_$name.csv" --summary "$DATA/run4_${name}_summary.csv"
    awk -F, -v label="$label" '
        { v[$1] = $2 }
        END {
            if (!("victim_share_isl" in v) || !("jain_contributors" in v)) {
                print "figures: summary lacks a metric" > "/dev/stderr"; exit 1
            }
            printf "\"%s\" %s %s %s %s %s\n", label, v["victim_share_isl"],
                v["isl_util"], v["root_util"], v["jain_contributors"],
                v["remote_local_ratio"]
        }' "$DATA/run4_${name}_summary.csv" >> "$table"
done
plot run4_markers.gp

# ---- 3. docs/scenarios.md (A) run 8: recovery from Rmin = Rmax/256 to Rmax -------
# 1 GB/s, 2048-byte packets (tau = 2.048 us), m = 2 (the law's default).
for law in aimd fimd lipd; do
    for form in cont disc; do
        flag=; [ $form = disc ] && flag=--discrete
        "$SIM" recovery --law $law $flag --link-gbytes 1 --packet 2048 \
            --rmin-div 256 > "$DATA/recovery_${law}_$form.txt"
        # time_ms,rate lines -> CSV; the final recovery_ms=... line -> its own file
        grep -v '^recovery_ms=' "$DATA/recovery_${law}_$form.txt" \
            > "$DATA/recovery_${law}_$form.csv"
        sed -n 's/^recovery_ms=//p' "$DATA/recovery_${law}_$form.txt" \
            > "$DATA/recovery_${law}_$form.ms"
    done
done
plot recovery.gp

# ---- 4. [G] scenario 1, CC off and on (1 s between flow starts) -----------
for cc in off on; do
    "$SIM" gran --scenario 1 --cc $cc --step 1000 --quiet \
        --series "$DATA/gran_s1_$cc.csv" --summary "$DATA/gran_s1_${cc}_summary.csv"
done
plot gran_scenario1.gp

# ---- 5. [G] parameter sweep (200 ms steps keep it to a few minutes) -------
"$SIM" gran-sweep --timers 10,50,150,500,1000,2000 --rates 0,1,2,4,8,15 \
    --step 200 --out "$DATA/gran_sweep.csv"
plot gran_sweep.gp

# ---- 6. [F] MVCM on a 4-ary 3-fly: hot spot over time, and the sweep -------
for cmm in none rp pi mvcm; do
    "$SIM" mvcm --cmm $cmm --quiet --series "$DATA/mvcm_$cmm.csv" \
        --summary "$DATA/mvcm_${cmm}_summary.csv"
done
plot mvcm_time.gp
"$SIM" mvcm-sweep --out "$DATA/mvcm_sweep.csv"
plot mvcm_sweep.gp

# ---- 7. [K] wormhole: two-host accepted vs load, torus delay vs segment ----
"$SIM" wormhole-sweep --vary load --case twohost --time 200 --seed $SEED \
    --out "$DATA/wormhole_twohost.csv" 2>/dev/null
plot wormhole_twohost.gp
for slack in 80 150; do
    "$SIM" wormhole-sweep --vary seg --case torus --load 0.2 --slack $slack \
        --time 50 --seed $SEED --out "$DATA/wormhole_torus$slack.csv" 2>/dev/null
done
"$SIM" wormhole-sweep --vary seg --case torus --pattern pair --load 0.2 \
    --time 50 --seed $SEED --out "$DATA/wormhole_pair80.csv" 2>/dev/null
plot wormhole_torus.gp
