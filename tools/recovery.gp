# docs/scenarios.md (A) run 8 [S03 Fig. 5]: rate recovery from Rmin = Rmax/256 to
# Rmax with no marks, one ACK per packet interval, 1 GB/s, 2048-byte
# packets, m = 2. Inputs: data/recovery_LAW_FORM.csv (`ibccsim recovery`
# time_us,rate_frac lines; FORM cont or disc; time plotted in ms) and .ms
# (the summary's recovery_us in ms).
# Called by tools/figures.sh.
set terminal @term size 1000,520 font "sans,11"
set output out.'/recovery.png'
set datafile separator ','
set multiplot layout 1,2 title "Rate recovery from Rmin = Rmax/256 to Rmax, no marks [S03 Fig. 5] (experiment A, run 8)\n{/*0.85 one ACK per packet interval at the current rate; 1 GB/s, 2048-byte packets (tau = 2.048 us), m = 2; dark: continuous, light: discrete IPD (256 rates)}"
ms(law, form) = real(system('cat '.data.'/recovery_'.law.'_'.form.'.ms'))
lbl(name, law, form) = sprintf('%s %s %.1f ms', name, form eq 'cont' ? 'cont.' : 'discr.', ms(law, form))
f(law, form) = data.'/recovery_'.law.'_'.form.'.csv'
set grid
set key top center vertical maxrows 3 Left reverse samplen 1.5 width 0 box opaque font ',10'
set ylabel 'normalised rate r / Rmax'

set title '(a) linear axes'
set xlabel 'time (ms)'
set xrange [0:*]
set yrange [0:1.32]
set ytics 0, 0.2, 1
plot f('aimd','disc') using ($1/1000):2 with lines lw 3 lc rgb '#9ecae1' title lbl('AIMD','aimd','disc'), \
     f('fimd','disc') using ($1/1000):2 with lines lw 3 lc rgb '#fdbe85' title lbl('FIMD','fimd','disc'), \
     f('lipd','disc') using ($1/1000):2 with lines lw 3 lc rgb '#a1d99b' title lbl('LIPD','lipd','disc'), \
     f('aimd','cont') using ($1/1000):2 with lines lw 2 lc rgb '#1f77b4' title lbl('AIMD','aimd','cont'), \
     f('fimd','cont') using ($1/1000):2 with lines lw 2 lc rgb '#ff7f0e' title lbl('FIMD','fimd','cont'), \
     f('lipd','cont') using ($1/1000):2 with lines lw 2 lc rgb '#2ca02c' title lbl('LIPD','lipd','cont')

set title '(b) log axes; thin black: closed forms of docs/law.md'
# Closed forms in units of tau = 2.048 us, k = Rmin/Rmax = 1/256, m = 2
# (docs/law.md "Closed forms"): FIMD x = k m^(k t), LIPD 1/x = 1/k - k t,
# AIMD x = k + (m-1) k^2 t; drawn until x reaches 1.
k = 1.0/256
tu(t) = t / 0.002048
cap(x) = (x > 0 && x <= 1) ? x : NaN
fimd(t) = cap(k * 2**(k * tu(t)))
lipd(t) = cap(1 / (1/k - k * tu(t)))
aimd(t) = cap(k + k * k * tu(t))
set samples 2000
set logscale xy
set xrange [0.3:300]
set yrange [1.0/256:4]
set format x '10^{%L}'
unset ytics
set ytics ('1/256' 1.0/256, '1/64' 1.0/64, '1/16' 1.0/16, '1/4' 0.25, '1' 1)
set key top left vertical maxrows 4 Left reverse samplen 2 width 1 box opaque
plot f('aimd','disc') using ($1/1000):2 with lines lw 3 lc rgb '#9ecae1' notitle, \
     f('fimd','disc') using ($1/1000):2 with lines lw 3 lc rgb '#fdbe85' notitle, \
     f('lipd','disc') using ($1/1000):2 with lines lw 3 lc rgb '#a1d99b' notitle, \
     f('aimd','cont') using ($1/1000):2 with lines lw 2 lc rgb '#1f77b4' title 'AIMD', \
     f('fimd','cont') using ($1/1000):2 with lines lw 2 lc rgb '#ff7f0e' title 'FIMD', \
     f('lipd','cont') using ($1/1000):2 with lines lw 2 lc rgb '#2ca02c' title 'LIPD', \
     fimd(x) with lines lw 1 lc rgb '#000000' title 'closed forms', \
     lipd(x) with lines lw 1 lc rgb '#000000' notitle, \
     aimd(x) with lines lw 1 lc rgb '#000000' notitle
unset multiplot
