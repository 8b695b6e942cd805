#!/bin/sh
# make test: the committed figures of docs/figures.md are current and
# `make figures` leaves them alone when nothing changed (tools/figures.sh).
# Only the cheap figures are run (a few seconds): FIGS below; the others
# take minutes and are left to `make figures`.
# 1. Without drawing (no gnuplot needed): the simulations behind FIGS give
#    exactly the data recorded in docs/figures/inputs.sha256 when the
#    committed PNGs were drawn (fails when the fabric, an engine or a law
#    changed a figure's data: run make figures and commit docs/figures).
# 2. With gnuplot: a figures run on a copy of docs/figures leaves every
#    file byte for byte as committed; a forced redraw picks pngcairo when
#    gnuplot has it and draws the same bytes twice.
# Prints RESULT <passed> <failed> for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
FIGS="run1_no_cc run4_markers recovery wormhole_twohost vl_victim jobs_cc eth_converge eth_pauses eth_hpcc_queue"
T=$BUILD/figtest
rm -rf "$T"; mkdir -p "$T"
export FIGURES_DATA="$T/data"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL figures: $1"; sed 's/^/  /' "$T/log" | tail -n 20; }

if [ ! -x "$BUILD/ibccsim" ] || [ ! -x "$BUILD/lossless" ]; then
  echo "FAIL figures: $BUILD/ibccsim or $BUILD/lossless not built"; echo "RESULT 0 1"; exit 1
fi
if FIGURES_CHECK=1 BUILD=$BUILD sh tools/figures.sh $FIGS > "$T/log" 2>&1; then ok
else bad "data behind a committed figure changed (FIGURES_CHECK=1 sh tools/figures.sh $FIGS)"; fi

if command -v gnuplot >/dev/null 2>&1; then
  cp -R docs/figures "$T/out"
  if FIGURES_OUT="$T/out" BUILD=$BUILD sh tools/figures.sh $FIGS > "$T/log" 2>&1 &&
     diff -r docs/figures "$T/out" >> "$T/log" 2>&1; then ok
  else bad "make figures would change docs/figures although nothing changed"; fi
  want=png
  gnuplot -e "set terminal pngcairo" >/dev/null 2>&1 && want=pngcairo
  for k in 1 2; do
    mkdir -p "$T/force$k"
    FIGURES_FORCE=1 FIGURES_OUT="$T/force$k" BUILD=$BUILD sh tools/figures.sh run1_no_cc \
      > "$T/force$k.log" 2>&1
  done
  cp "$T/force1.log" "$T/log"
  if grep -q "run1_no_cc.png drawn ($want)" "$T/force1.log"; then ok
  else bad "figures.sh did not draw with $want"; fi
  if [ -f "$T/force1/run1_no_cc.png" ] && cmp "$T/force1/run1_no_cc.png" "$T/force2/run1_no_cc.png" > "$T/log" 2>&1; then ok
  else bad "two draws of run1_no_cc.png differ"; fi
else
  echo "skip: figures drawing checks: gnuplot not found (apt-get install gnuplot-nox)"
fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
