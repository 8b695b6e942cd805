# docs/scenario_ethernet.md: PFC PAUSE frames in a 6:1 incast on the fat
# tree without CC, with DCQCN and with HPCC. Inputs: data/eth_pauses_table.dat
# (PAUSE frames sent by the switches of each tier over 2 ms) and
# data/eth_incast_{pfc,dcqcn,hpcc}.csv (cumulative PAUSE frames every 10 us)
# from `lossless incast SCHEME`.
# Called by tools/figures.sh with term, data and out set.
set terminal @term size 1100,520 font "sans,11"
set output out.'/eth_pauses.png'
set multiplot layout 1,2 title "PFC PAUSE frames in a 6:1 incast (hosts 8-13 -> host 5), 4-ary 2-tree of 100 Gb/s links\n{/*0.85 greedy flows for 2 ms; PFC XOFF 32 KB per input}"
set datafile separator ','
set title '(a) PAUSE frames sent so far, all switches'
set xlabel 'time (ms)'
set ylabel 'PAUSE frames'
set xrange [0:2]
set grid
set key top left box opaque
plot data.'/eth_incast_pfc.csv' using ($1/1000):4 with lines lw 2 lc rgb '#d62728' title 'PFC, no CC', \
     data.'/eth_incast_dcqcn.csv' using ($1/1000):4 with lines lw 2 lc rgb '#1f77b4' title 'DCQCN', \
     data.'/eth_incast_hpcc.csv' using ($1/1000):4 with lines lw 2 lc rgb '#2ca02c' title 'HPCC'
set datafile separator whitespace
set title '(b) PAUSE frames by the tier that sent them (2 ms)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xlabel ''
set autoscale x
set xrange [*:*]
set yrange [0:600]
set key top right box opaque
set xtics ('PFC, no CC' 0, 'DCQCN' 1, 'HPCC' 2)
plot data.'/eth_pauses_table.dat' using 2 lc rgb '#9467bd' title 'hot leaf (to the spines)', \
     '' using 3 lc rgb '#ff7f0e' title 'spines (to the sources'' leaves)', \
     '' using 4 lc rgb '#8c564b' title 'sources'' leaves (to the hosts)'
unset multiplot
