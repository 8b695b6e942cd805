# docs/fabric.md "A victim on its own SL": the two-switch victim (SL 1)
# next to the incast (SL 0) with one VL, two VLs and one VL with IBA CC.
# Inputs: data/vl_victim_{one,two,iba}.csv from `ibccsim twoswitch
# --series` (2 ms sliding window, a point every 0.5 ms).
# Called by tools/figures.sh with term, data and out set.
set terminal @term size 960,560 font "sans,11"
set output out.'/vl_victim.png'
set datafile separator ','
set title "A victim on its own service level: two-switch scenario, victim on SL 1, incast on SL 0\n{/*0.85 L=10 + R=10 sources -> BC, victim AV->BV in [40,60] ms; window 1, input buffers of 4 packets per VL, 1 GB/s links}"
set xlabel 'time (ms)'
set ylabel 'rate (GB/s; 1 = link rate), 2 ms sliding window'
set xrange [30:70]
set yrange [0:1.1]
set xtics 5
set ytics 0, 0.1, 1
set grid
set key top right box opaque
set object 1 rect from 40, graph 0 to 60, graph 1 behind fc rgb '#eeeeee' fs solid noborder
plot data.'/vl_victim_two.csv' using ($1/1000):4 with lines lw 3 lc rgb '#2ca02c' title 'victim, two VLs (SL 1 on VL 1)', \
     data.'/vl_victim_iba.csv' using ($1/1000):4 with lines lw 3 lc rgb '#1f77b4' title 'victim, one VL + IBA CC', \
     data.'/vl_victim_one.csv' using ($1/1000):4 with lines lw 3 lc rgb '#d62728' title 'victim, one VL', \
     data.'/vl_victim_two.csv' using ($1/1000):3 with lines lw 1 dt 2 lc rgb '#2ca02c' title 'remote flows, two VLs', \
     data.'/vl_victim_iba.csv' using ($1/1000):3 with lines lw 1 dt 2 lc rgb '#1f77b4' title 'remote flows, one VL + IBA CC', \
     data.'/vl_victim_one.csv' using ($1/1000):3 with lines lw 1 dt 2 lc rgb '#d62728' title 'remote flows, one VL'
