# docs/scenarios.md (A) run 4 [S02 Fig. 3, S03]: the rows of `make demo` (L=10,
# R=10, buffer 4, window 1): no CC and each marking engine with LIPD.
# Inputs: data/run4_table.dat (one row per configuration, from the
# `ibccsim twoswitch --summary` files; averages over [40, 60] ms) and
# data/run4_NAME.csv (`--series`). Called by tools/figures.sh.
set terminal @term size 1000,900 font "sans,11"
set output out.'/run4_markers.png'
set multiplot layout 2,1 title "Two-switch victim scenario: marking engines with LIPD [S02]/[S03] (experiment A, run 4: the rows of make demo)\n{/*0.85 L=10 local + R=10 remote sources -> BC, victim AV->BV in [40,60] ms; window 1, input buffers of 4 packets, 1 GB/s links, seed 1}"

# ---- (a) averages over the victim's active window -----------------------
set title '(a) averages over [40, 60] ms (from --summary)'
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:1.1]
set ytics 0, 0.2, 1
set grid ytics
set ylabel 'fraction (link rate = 1; Jain index)'
set key outside bottom center horizontal maxrows 2 Left reverse samplen 1.5 width 1
set xtics nomirror
plot data.'/run4_table.dat' using 2:xtic(1) lc rgb '#d62728' title 'victim rate / ISL capacity', \
     ''                     using 3          lc rgb '#2ca02c' title 'ISL utilisation', \
     ''                     using 4          lc rgb '#000000' title 'root-link utilisation', \
     ''                     using 5          lc rgb '#9467bd' title 'Jain index (20 contributors)', \
     ''                     using 6          lc rgb '#ff7f0e' title 'remote/local rate ratio'

# ---- (b) the victim's rate over time ------------------------------------
set title "(b) victim AV->BV rate, 2 ms sliding window (from --series)"
set style data lines
unset style histogram
set datafile separator ','
set xlabel 'time (ms)'
set ylabel 'victim rate (GB/s; 1 = link rate)'
set xrange [36:64]
set xtics 2
set yrange [0:1.0]
set ytics 0, 0.1, 1
set grid xtics ytics
set key inside top right vertical maxrows 6 Left reverse samplen 2 width 1 box opaque
plot data.'/run4_nocc.csv'       using ($1/1000):4 lw 2 lc rgb '#7f7f7f' title 'no CC', \
     data.'/run4_naive.csv'      using ($1/1000):4 lw 2 lc rgb '#8c564b' title 'naive', \
     data.'/run4_input_all.csv'  using ($1/1000):4 lw 2 lc rgb '#1f77b4' title 'input (all)', \
     data.'/run4_input_busy.csv' using ($1/1000):4 lw 3 lc rgb '#d62728' title 'input (busy)', \
     data.'/run4_io4.csv'        using ($1/1000):4 lw 2 lc rgb '#2ca02c' title 'io T=4', \
     data.'/run4_io8.csv'        using ($1/1000):4 lw 2 lc rgb '#9467bd' title 'io T=8'
unset multiplot
