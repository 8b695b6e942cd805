# docs/scenario_ethernet.md: two DCQCN flows into one host converge to a
# fair share. Input: data/eth_converge.csv from `lossless converge`
# (each flow's delivered rate per 0.1 ms, as a fraction of the link).
# Called by tools/figures.sh with term, data and out set.
set terminal @term size 960,520 font "sans,11"
set output out.'/eth_converge.png'
set datafile separator ','
set title "Two DCQCN flows into one host (PFC links, ECN Kmin 5 KB, Kmax 200 KB, Pmax 1%)\n{/*0.85 4-ary 2-tree of 100 Gb/s links; host 8 -> host 5 from 0, host 12 -> host 5 from 5 ms; rate per 0.1 ms}"
set xlabel 'time (ms)'
set ylabel 'delivered rate (fraction of the link)'
set xrange [0:40]
set yrange [0:1.1]
set xtics 5
set ytics 0, 0.1, 1.1
set grid
set key top right box opaque
plot data.'/eth_converge.csv' using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'flow 1 (host 8)', \
     data.'/eth_converge.csv' using 1:3 with lines lw 2 lc rgb '#d62728' title 'flow 2 (host 12)', \
     0.5 with lines lw 1 dt 2 lc rgb '#555555' title 'fair share'
