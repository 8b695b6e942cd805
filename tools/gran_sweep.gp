# [G] parameter sweep: victim throughput and Var over CCTI_Timer x
# Marking_Rate on scenario 1 (CC on). Input: data/gran_sweep.csv from
# `ibccsim gran-sweep` (ccti_timer,marking_rate,victim_gbps,
# contributor_gbps,jain,var_gbps2). Called by tools/figures.sh.
set terminal @term size 1100,480 font "sans,11"
set output out.'/gran_sweep.png'
set datafile separator ','
set multiplot layout 1,2 title "[G] scenario 1, CC on: CCTI\\_Timer x Marking\\_Rate (one run per point)"
set view map
set logscale x
set xlabel 'CCTI\_Timer (x 1.024 us)'
set ylabel 'Marking\_Rate'
set title 'victim throughput (Gbit/s)'
set cbrange [0:13]
plot data.'/gran_sweep.csv' every ::1 using 1:2:3 with points pt 5 ps 4 palette notitle
set title 'treatment variation Var (Gbit/s^2)'
set autoscale cb
plot data.'/gran_sweep.csv' every ::1 using 1:2:6 with points pt 5 ps 4 palette notitle
unset multiplot
