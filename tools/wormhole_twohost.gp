# [K] two-host case: accepted throughput per class against the offered
# load per host. Input: data/wormhole_twohost.csv from
# `ibccsim wormhole-sweep --vary load`. Called by tools/figures.sh.
set terminal @term size 900,560 font "sans,11"
set output out.'/wormhole_twohost.png'
set datafile separator ','
set title "Two hosts to one destination, 100-byte low-priority segments: accepted per class [K]"
set xlabel 'offered load per host (fraction of an 80 MB/s link)'
set ylabel 'accepted (fraction of a link)'
set xrange [0:1]
set yrange [0:1]
set grid
set key top left
plot data.'/wormhole_twohost.csv' every ::1 using 1:4 with linespoints lw 1.5 pt 7 title 'high priority (unsegmented)', \
     data.'/wormhole_twohost.csv' every ::1 using 1:5 with linespoints lw 1.5 pt 5 title 'low priority (segmented)', \
     x with lines dt 2 lc rgb 'gray' title 'offered'
