# docs/scenario_ethernet.md: the hot leaf's buffered bytes and the hot
# link's rate in a 6:1 incast without CC, with DCQCN and with HPCC.
# Inputs: data/eth_incast_{pfc,dcqcn,hpcc}.csv from `lossless incast
# SCHEME` (every 10 us).
# Called by tools/figures.sh with term, data and out set.
set terminal @term size 1100,520 font "sans,11"
set output out.'/eth_hpcc_queue.png'
set multiplot layout 1,2 title "A 6:1 incast on PFC links (hosts 8-13 -> host 5), 4-ary 2-tree of 100 Gb/s links\n{/*0.85 greedy flows; sampled every 10 us}"
set datafile separator ','
set title '(a) bytes buffered at the hot leaf''s inputs'
set xlabel 'time (ms)'
set ylabel 'KB'
set xrange [0:2]
set yrange [0:*]
set grid
set key top right box opaque
plot data.'/eth_incast_pfc.csv' using ($1/1000):2 with lines lw 1 lc rgb '#d62728' title 'PFC, no CC', \
     data.'/eth_incast_dcqcn.csv' using ($1/1000):2 with lines lw 1 lc rgb '#1f77b4' title 'DCQCN', \
     data.'/eth_incast_hpcc.csv' using ($1/1000):2 with lines lw 2 lc rgb '#2ca02c' title 'HPCC'
set title '(b) the hot link''s rate (10 us)'
set ylabel 'fraction of the link'
set yrange [0:1.1]
set key bottom right box opaque
plot data.'/eth_incast_pfc.csv' using ($1/1000):3 with lines lw 1 lc rgb '#d62728' title 'PFC, no CC', \
     data.'/eth_incast_dcqcn.csv' using ($1/1000):3 with lines lw 1 lc rgb '#1f77b4' title 'DCQCN', \
     data.'/eth_incast_hpcc.csv' using ($1/1000):3 with lines lw 2 lc rgb '#2ca02c' title 'HPCC'
unset multiplot
