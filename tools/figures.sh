#!/bin/sh
# Draw the figures of docs/figures.md from build/ibccsim CSV outputs.
#   usage: BUILD=build sh tools/figures.sh [NAME...]   (make figures: all)
# NAME is a figure (run1_no_cc run4_markers recovery gran_scenario1
# gran_sweep mvcm_time mvcm_sweep wormhole_twohost wormhole_torus vl_victim
# jobs_cc eth_converge eth_pauses eth_hpcc_queue).
# Needs $BUILD/ibccsim and $BUILD/lossless (built by make) and gnuplot (optional: without it the
# script says so and exits 0). Every run uses a fixed seed, so the CSVs are
# the same on every machine with the same ibcc.h.
# CSVs go to $BUILD/figures/, PNGs to docs/figures/ (FIGURES_OUT).
#
# A figure is redrawn only when its inputs changed: docs/figures/inputs.sha256
# holds, per PNG, the SHA-256 of its gnuplot script and data files as they
# were when it was drawn. Same inputs: the committed PNG stays as it is
# (another gnuplot or cairo would draw other bytes from the same data), so
# `make figures` leaves the tree clean when nothing changed. FIGURES_FORCE=1
# redraws anyway. FIGURES_CHECK=1 draws nothing and writes nothing under
# FIGURES_OUT: it runs the simulations and prints "figures: NAME: data
# changed" for each figure whose inputs differ from the recorded ones
# (exit 1 if any; tests/figures.sh uses it).
set -eu

BUILD=${BUILD:-build}
SIM=$BUILD/ibccsim
DATA=${FIGURES_DATA:-$BUILD/figures}
OUT=${FIGURES_OUT:-docs/figures}
SUMS=$OUT/inputs.sha256
FORCE=${FIGURES_FORCE:-0}
CHECK=${FIGURES_CHECK:-0}
SEED=1
ALL="run1_no_cc run4_markers recovery gran_scenario1 gran_sweep mvcm_time mvcm_sweep wormhole_twohost wormhole_torus vl_victim jobs_cc eth_converge eth_pauses eth_hpcc_queue"
LL=$BUILD/lossless
[ $# -gt 0 ] || set -- $ALL
# ---- 8. virtual lanes: the two-switch victim on its own SL ----------------
# docs/fabric.md "A victim on its own SL": the victim on SL 1, the incast
# on SL 0; (i) one VL, (ii) two VLs (SL 1 on VL 1), (iii) one VL with IBA CC
fig_vl_victim() {
    table=$DATA/vl_victim_table.dat
    printf '# case victim_share_isl_frac victim_ideal_share_isl_frac\n' > "$table"
    for c in 'one|--vls 1|one VL' 'two|--vls 2|two VLs' 'iba|--vls 1 --marking iba|one VL + IBA CC'; do
        name=${c%%|*}; rest=${c#*|}; flags=${rest%%|*}; label=${rest#*|}
        # shellcheck disable=SC2086
        "$SIM" twoswitch --local 10 --remote 10 --buffer 4 --window 1 --victim-sl 1 $flags \
            --time 100 --victim-from 40 --victim-to 60 --quiet \
            --series "$DATA/vl_victim_$name.csv" --summary "$DATA/vl_victim_${name}_summary.csv"
        awk -F, -v label="$label" '{ v[$1] = $2 }
            END { printf "\"%s\" %s %s\n", label, v["victim_share_isl_frac"],
                  v["victim_ideal_share_isl_frac"] }' \
            "$DATA/vl_victim_${name}_summary.csv" >> "$table"
    done
    plot vl_victim vl_victim_table.dat vl_victim_one.csv vl_victim_two.csv vl_victim_iba.csv
}

# ---- 9. lossless Ethernet beside IBA CC (docs/scenario_ethernet.md) -------
# examples/lossless.c: a 4-ary 2-tree of 100 Gb/s links
fig_eth_converge() {
    "$LL" converge "$DATA/eth_converge.csv" > "$DATA/eth_converge_summary.txt"
    plot eth_converge eth_converge.csv
}
# the incast alone (hosts 8-13 -> host 5) under PFC without CC, DCQCN, HPCC
eth_incast_runs() {
    table=$DATA/eth_pauses_table.dat
    printf '# scheme pauses_hot_leaf pauses_spines pauses_src_leaves\n' > "$table"
    for s in pfc dcqcn hpcc; do
        "$LL" incast $s "$DATA/eth_incast_$s.csv" > "$DATA/eth_incast_${s}_summary.txt"
        sed 's/[a-z_]*=//g' "$DATA/eth_incast_${s}_summary.txt" |
            awk '{ print $2, $3, $4, $5 }' >> "$table"
    done
}
fig_eth_pauses() {
    eth_incast_runs
    plot eth_pauses eth_pauses_table.dat eth_incast_pfc.csv eth_incast_dcqcn.csv eth_incast_hpcc.csv
}
fig_eth_hpcc_queue() {
    eth_incast_runs
    plot eth_hpcc_queue eth_incast_pfc.csv eth_incast_dcqcn.csv eth_incast_hpcc.csv
}

for n in "$@"; do
    case " $ALL " in *" $n "*) ;; *) echo "figures: unknown figure '$n' (one of: $ALL)" >&2; exit 2 ;; esac
done

if [ "$CHECK" != 1 ] && ! command -v gnuplot >/dev/null 2>&1; then
    echo "skip: gnuplot not found; apt-get install gnuplot-nox to draw docs/figures"
    exit 0
fi
if [ ! -x "$SIM" ] || [ ! -x "$LL" ]; then
    echo "figures: $SIM or $LL not built (run 'make figures')" >&2
    exit 1
fi
mkdir -p "$DATA" "$OUT"
[ -f "$SUMS" ] || : > "$SUMS"

# pngcairo draws anti-aliased lines; the libgd png terminal is the fallback.
# gnuplot 5.4 prints the list of terminals on stderr (older ones on stdout).
TERM_PNG=png
if [ "$CHECK" != 1 ] && echo 'set terminal' | gnuplot 2>&1 | grep -q pngcairo; then
    TERM_PNG=pngcairo
fi

changed=0
# plot NAME DATAFILE...: draws NAME.png from tools/NAME.gp unless the
# script and the data files hash to what $SUMS recorded for it
plot() {
    name=$1; shift
    sum=$( (cat "tools/$name.gp"; for f in "$@"; do cat "$DATA/$f"; done) |
           sha256sum | cut -d' ' -f1)
    old=$(awk -v n="$name.png" '$2 == n { print $1 }' "$SUMS")
    if [ "$CHECK" = 1 ]; then
        if [ "$sum" = "$old" ]; then echo "figures: $name: same data as the committed figure"
        else echo "figures: $name: data changed (recorded ${old:-none}, now $sum)"; changed=1; fi
        return 0
    fi
    if [ "$sum" = "$old" ] && [ -f "$OUT/$name.png" ] && [ "$FORCE" != 1 ]; then
        echo "figures: $OUT/$name.png unchanged (same script and data)"
        return 0
    fi
    gnuplot -e "term='$TERM_PNG'; data='$DATA'; out='$OUT'" "tools/$name.gp"
    awk -v n="$name.png" '$2 != n' "$SUMS" > "$SUMS.tmp"
    echo "$sum  $name.png" >> "$SUMS.tmp"
    sort -k2 "$SUMS.tmp" > "$SUMS"; rm -f "$SUMS.tmp"
    echo "figures: $OUT/$name.png drawn ($TERM_PNG)"
}
# ---- 1. docs/scenarios.md (A) run 1(a): L=10, R=10, window 1, no rate control ----
# (these are ibccsim's defaults; spelled out so the figure does not move if
# a default changes)
fig_run1_no_cc() {
    "$SIM" twoswitch --local 10 --remote 10 --buffer 4 --window 1 \
        --marking none --law none --time 100 --victim-from 40 --victim-to 60 \
        --seed $SEED --quiet --series "$DATA/run1.csv" --summary "$DATA/run1_summary.csv"
    plot run1_no_cc run1.csv
}

# ---- 2. docs/scenarios.md (A) run 4: the rows of `make demo` ---------------------
# name|marking|classify|T_out|law|label (label as in the demo table)
fig_run4_markers() {
    rows='nocc|none|all|8|none|no CC
naive|naive|all|8|lipd|naive
input_all|input|all|8|lipd|input (all)
input_busy|input|busy|8|lipd|input (busy)
io4|io|all|4|lipd|io T=4
io8|io|all|8|lipd|io T=8'
    table=$DATA/run4_table.dat
    printf '# label victim_share_isl_frac isl_util_frac root_util_frac jain remote_local_ratio\n' > "$table"
    echo "$rows" | while IFS='|' read -r name mk cls tout law label; do
        "$SIM" twoswitch --local 10 --remote 10 --buffer 4 --window 1 \
            --marking "$mk" --classify "$cls" --out-threshold "$tout" --law "$law" \
            --time 100 --victim-from 40 --victim-to 60 --seed $SEED --quiet \
            --series "$DATA/run4_$name.csv" --summary "$DATA/run4_${name}_summary.csv"
        awk -F, -v label="$label" '
            { v[$1] = $2 }
            END {
                if (!("victim_share_isl_frac" in v) || !("jain_contributors" in v)) {
                    print "figures: summary lacks a metric" > "/dev/stderr"; exit 1
                }
                printf "\"%s\" %s %s %s %s %s\n", label, v["victim_share_isl_frac"],
                    v["isl_util_frac"], v["root_util_frac"], v["jain_contributors"],
                    v["remote_local_ratio"]
            }' "$DATA/run4_${name}_summary.csv" >> "$table"
    done
    plot run4_markers run4_table.dat run4_nocc.csv run4_naive.csv run4_input_all.csv \
        run4_input_busy.csv run4_io4.csv run4_io8.csv
}

# ---- 3. docs/scenarios.md (A) run 8: recovery from Rmin = Rmax/256 to Rmax -------
# 1 GB/s, 2048-byte packets (tau = 2.048 us), m = 2 (the law's default).
fig_recovery() {
    files=
    for law in aimd fimd lipd; do
        for form in cont disc; do
            flag=; [ $form = disc ] && flag=--discrete
            "$SIM" recovery --law $law $flag --link-gbytes 1 --packet 2048 \
                --rmin-div 256 --summary "$DATA/recovery_${law}_$form.sum" \
                > "$DATA/recovery_${law}_$form.csv"
            # the curve (time_us,rate_frac) is the CSV; the summary's
            # recovery_us, in ms, its own file
            awk -F, '$1 == "recovery_us" { printf "%.6f\n", $2 / 1000 }' \
                "$DATA/recovery_${law}_$form.sum" > "$DATA/recovery_${law}_$form.ms"
            files="$files recovery_${law}_$form.csv recovery_${law}_$form.ms"
        done
    done
    plot recovery $files
}

# ---- 4. [G] scenario 1, CC off and on (1 s between flow starts) -----------
fig_gran_scenario1() {
    for cc in off on; do
        "$SIM" gran --scenario 1 --cc $cc --step 1000 --quiet \
            --series "$DATA/gran_s1_$cc.csv" --summary "$DATA/gran_s1_${cc}_summary.csv"
    done
    plot gran_scenario1 gran_s1_off.csv gran_s1_on.csv
}

# ---- 5. [G] parameter sweep (200 ms steps keep it to a few minutes) -------
fig_gran_sweep() {
    "$SIM" gran-sweep --timers 10,50,150,500,1000,2000 --rates 0,1,2,4,8,15 \
        --step 200 --out "$DATA/gran_sweep.csv"
    plot gran_sweep gran_sweep.csv
}

# ---- 6. [F] MVCM on a 4-ary 3-fly: hot spot over time, and the sweep -------
fig_mvcm_time() {
    for cmm in none rp pi mvcm; do
        "$SIM" mvcm --cmm $cmm --quiet --series "$DATA/mvcm_$cmm.csv" \
            --summary "$DATA/mvcm_${cmm}_summary.csv"
    done
    plot mvcm_time mvcm_none.csv mvcm_rp.csv mvcm_pi.csv mvcm_mvcm.csv
}
fig_mvcm_sweep() {
    "$SIM" mvcm-sweep --hot-spot 100 --out "$DATA/mvcm_sweep.csv"
    plot mvcm_sweep mvcm_sweep.csv
}

# ---- 7. [K] wormhole: two-host accepted vs load, torus delay vs segment ----
fig_wormhole_twohost() {
    "$SIM" wormhole-sweep --vary load --case twohost --time 200 --seed $SEED \
        --out "$DATA/wormhole_twohost.csv" 2>/dev/null
    plot wormhole_twohost wormhole_twohost.csv
}
fig_wormhole_torus() {
    for slack in 80 150; do
        "$SIM" wormhole-sweep --vary seg --case torus --load 0.2 --slack $slack \
            --time 50 --seed $SEED --out "$DATA/wormhole_torus$slack.csv" 2>/dev/null
    done
    "$SIM" wormhole-sweep --vary seg --case torus --pattern pair --load 0.2 \
        --time 50 --seed $SEED --out "$DATA/wormhole_pair80.csv" 2>/dev/null
    plot wormhole_torus wormhole_torus80.csv wormhole_torus150.csv wormhole_pair80.csv
}

# ---- 9. two jobs on a fat tree, IBA CC off and on ------------------------
# docs/scenario_jobs.md: examples/scenarios/jobs_fattree_cc.ini (a study of
# congestion_control FALSE, TRUE) in three cases; each study.csv row gives
# the jobs' completion, ideal and slowdown
fig_jobs_cc() {
    table=$DATA/jobs_cc.dat
    printf '# case victim_slowdown_off victim_slowdown_on aggressor_off aggressor_on (aggressor: completion / its ideal without CC)\n' > "$table"
    for c in 'settled|(1) HOL, 5 ms|' 'together|(2) HOL, 0 ms|job.victim.start=0' \
             'hot|(3) hot host|job.victim.hosts=0-7 job.victim.place=linear job.aggressor.hosts=8-14,5 job.aggressor.place=linear job.aggressor.root=7'; do
        name=${c%%|*}; rest=${c#*|}; label=${rest%%|*}; over=${rest#*|}
        # shellcheck disable=SC2086
        "$SIM" run examples/scenarios/jobs_fattree_cc.ini $over \
            output.directory="$(cd "$DATA" && pwd)/jobs_cc_$name" --quiet
        cp "$DATA/jobs_cc_$name/study.csv" "$DATA/jobs_cc_$name.csv"
        awk -F, -v label="$label" 'NR == 2 { vo = $5; ao = $7; ai = $8 } NR == 3 { vn = $5; an = $7 }
            END { printf "\"%s\" %s %s %.6f %.6f\n", label, vo, vn, ao / ai, an / ai }' \
            "$DATA/jobs_cc_$name.csv" >> "$table"
    done
    plot jobs_cc jobs_cc.dat jobs_cc_settled.csv jobs_cc_together.csv jobs_cc_hot.csv
}

for n in "$@"; do
    "fig_$n"
done
if [ "$CHECK" = 1 ] && [ "$changed" = 1 ]; then
    echo "figures: the data behind a committed figure changed: run make figures and commit docs/figures"
    exit 1
fi
