# [K] torus case: mean high-priority message delay against the
# low-priority segment length: every host with 30% high priority (slack
# 80 and 150 bytes) and one high-priority pair (slack 80). Inputs:
# data/wormhole_torus80.csv, data/wormhole_torus150.csv,
# data/wormhole_pair80.csv from `ibccsim wormhole-sweep --vary seg --case
# torus [--pattern pair]`. Called by tools/figures.sh.
set terminal @term size 900,560 font "sans,11"
set output out.'/wormhole_torus.png'
set datafile separator ','
set title "3x3 torus, 4 hosts per switch, load 0.2 per host: high-priority delay [K]"
set xlabel 'low-priority segment length (bytes)'
set ylabel 'mean high-priority message delay (us)'
set grid
set key top right
plot data.'/wormhole_torus80.csv' every ::1 using 1:6 with linespoints lw 1.5 pt 7 title '30% high everywhere, slack 80', \
     data.'/wormhole_torus150.csv' every ::1 using 1:6 with linespoints lw 1.5 pt 5 title '30% high everywhere, slack 150', \
     data.'/wormhole_pair80.csv' every ::1 using 1:6 with linespoints lw 1.5 pt 9 title 'one high-priority pair, slack 80'
