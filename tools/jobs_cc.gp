# docs/scenario_jobs.md: two jobs on a 4-ary 2-tree (16 hosts, 2 GB/s
# links), a ring allreduce (victim) beside an incast (aggressor), IBA CC
# off and on ([G]'s Table I), in three cases. Input: data/jobs_cc.dat from
# tools/figures.sh (label, the victim's slowdown off and on, the
# aggressor's completion over its ideal without CC, off and on).
# Called by tools/figures.sh with term, data and out set.
set terminal @term size 1000,560 font "sans,11"
set output out.'/jobs_cc.png'
set multiplot layout 1,2 title "Two jobs on a 4-ary 2-tree: a ring allreduce of 1 MiB (victim) beside a 7-to-1 incast of 4 MiB each (aggressor)\n{/*0.85 16 hosts, 2 GB/s links, input buffers of 4 packets; IBA CC with [G]'s Table I. (1), (2): interleaved, the victim starts 5 ms\n{/*0.85 after the incast or with it; (3): the victim's ring passes through the incast's destination (docs/scenario\\_jobs.md)}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top left opaque
set xtics font ",9"
set title "(a) victim: completion / alone (slowdown)"
set yrange [0:7]
plot data.'/jobs_cc.dat' using 2:xtic(1) lc rgb '#d62728' title 'no CC', \
     '' using 3 lc rgb '#1f77b4' title 'IBA CC', \
     '' using ($0-0.17):2:(sprintf("%.2f",$2)) with labels offset 0,0.7 notitle, \
     '' using ($0+0.17):3:(sprintf("%.2f",$3)) with labels offset 0,0.7 notitle
set title "(b) aggressor: completion / alone without CC"
set yrange [0:1.4]
plot data.'/jobs_cc.dat' using 4:xtic(1) lc rgb '#d62728' title 'no CC', \
     '' using 5 lc rgb '#1f77b4' title 'IBA CC', \
     '' using ($0-0.17):4:(sprintf("%.2f",$4)) with labels offset 0,0.7 notitle, \
     '' using ($0+0.17):5:(sprintf("%.2f",$5)) with labels offset 0,0.7 notitle
unset multiplot
