# docs/scenarios.md (A) run 1(a) [S02 Fig. 2]: rates over time without CC.
# Input: data/run1.csv from `ibccsim twoswitch --series` (rates normalised
# to the 1 GB/s link rate, 2 ms sliding window, a point every 0.5 ms).
# Called by tools/figures.sh with term, data and out set.
set terminal @term size 960,560 font "sans,11"
set output out.'/run1_no_cc.png'
set datafile separator ','
set key autotitle columnhead
set title "Two-switch victim scenario, no congestion control [S02 Fig. 2] (experiment A, run 1a: docs/scenarios.md)\n{/*0.85 L=10 local + R=10 remote sources -> BC, victim AV->BV in [40,60] ms; window 1, no rate control, input buffers of 4 packets, 1 GB/s links}"
set xlabel 'time (ms)'
set ylabel 'rate (GB/s; 1 = link rate), 2 ms sliding window'
set xrange [0:100]
set yrange [0:1.28]
set xtics 10
set ytics 0, 0.1, 1
set grid
set key top center horizontal maxrows 2 Left reverse box opaque width 1 samplen 2
set object 1 rect from 40, graph 0 to 60, graph 1 behind fc rgb '#eeeeee' fs solid noborder
set label 1 'victim active' at 50, graph 0.6 center tc rgb '#777777'
plot data.'/run1.csv' using ($1/1000):5 with lines lw 2 lc rgb "#000000" title "root link B->BC", \
     ''                using ($1/1000):2 with lines lw 2 lc rgb '#1f77b4' title 'local flows (sum)', \
     ''                using ($1/1000):3 with lines lw 2 lc rgb '#ff7f0e' title 'remote flows (sum)', \
     ''                using ($1/1000):6 with lines lw 2 dt 2 lc rgb '#2ca02c' title 'inter-switch link A->B', \
     ''                using ($1/1000):4 with lines lw 3 lc rgb '#d62728' title 'victim AV->BV'
