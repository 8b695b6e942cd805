# [F] Fig 9a-style: average latency against accepted traffic for each CMM
# under the hot-spot pattern. Input: data/mvcm_sweep.csv from
# `ibccsim mvcm-sweep --hot-spot 100`. Called by tools/figures.sh.
set terminal @term size 900,560 font "sans,11"
set output out.'/mvcm_sweep.png'
set datafile separator ','
set title "[F] Fig 9a-style, 4-ary 3-fly: uniform traffic and a hot spot (16 sources, 100 packets each)"
set xlabel 'accepted traffic (bytes/cycle/host)'
set ylabel 'average latency (cycles)'
set logscale y
set grid
set key top left
plot for [c in "none rp pi mvcm"] data.'/mvcm_sweep.csv' every ::1 using ((strcol(1) eq c) ? $3 : 1/0):4 with linespoints lw 1.5 pt 7 title c
