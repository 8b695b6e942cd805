# [F]-style: cold-flow latency and throughput over time around the hot
# spot, no CMM against MVCM (and RP, PI). Input: data/mvcm_<cmm>.csv from
# `ibccsim mvcm --series` (per 20 us bin by delivery time; a bin without
# cold packets has an empty latency, read as NaN to break the line). Called by
# tools/figures.sh with term, data, out.
set terminal @term size 1100,760 font "sans,11"
set output out.'/mvcm_time.png'
set datafile separator ','
set multiplot layout 2,1 title "[F] on a 4-ary 3-fly: 16 hot sources, 1000 packets each (shaded); uniform 0.45 bytes/cycle per first-stage switch"
set xlabel 'time (us = 1000 cycles)'
set grid
set key top right
set style rect fc rgb '#eeeeee' fs solid noborder
set ylabel 'cold latency (cycles), by delivery time'
set logscale y
plot data.'/mvcm_none.csv' every ::1 using 1:(($6 > 0) ? 1e7 : 1/0) with boxes fs solid 0.15 lc rgb '#bbbbbb' notitle, \
     for [c in "none rp pi mvcm"] '< sed -e "s/,,/,NaN,/g;s/,,/,NaN,/g" '.data.'/mvcm_'.c.'.csv' every ::1 using 1:($2 > 0 ? $2 : 1/0) with lines lw 1.5 title c
unset logscale y
set ylabel 'cold throughput (bytes/cycle/host)'
set yrange [0:0.15]
plot data.'/mvcm_none.csv' every ::1 using 1:(($6 > 0) ? 0.15 : 1/0) with boxes fs solid 0.15 lc rgb '#bbbbbb' notitle, \
     for [c in "none rp pi mvcm"] data.'/mvcm_'.c.'.csv' every ::1 using 1:4 with lines lw 1.5 title c
unset multiplot
