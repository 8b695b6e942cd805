# [G] Fig. 7-style: per-flow throughput over time in scenario 1 (victim +
# parking lot), CC off and on. Input: data/gran_s1_off.csv and
# data/gran_s1_on.csv from `ibccsim gran --series` (Gbit/s per 10 ms bin,
# one column per flow). Called by tools/figures.sh with term, data, out.
set terminal @term size 1100,760 font "sans,11"
set output out.'/gran_scenario1.png'
set datafile separator ','
set multiplot layout 2,1 title "InfiniBand testbed of [G], scenario 1: F1 H1->H4 (victim), F2..F5 -> H5, one flow added per second\n{/*0.85 16 Gbit/s host links, 32 Gbit/s inter-switch link, hosts capped at 13 Gbit/s; IBA FECN (Threshold 15, Marking\\_Rate 1) + CCT (CCTI\\_Timer 150, quadratic)}"
set xlabel 'time (s)'
set ylabel 'throughput (Gbit/s), 10 ms bins'
set xrange [0:5]
set yrange [0:14]
set grid
set key top left horizontal samplen 2
do for [cc in "off on"] {
    set title 'congestion control '.cc
    plot for [k=2:6] data.'/gran_s1_'.cc.'.csv' using ($1/1000000):k with lines lw 1.5 title 'F'.(k-1)
}
unset multiplot
