#!/bin/sh
# [S02] (Santos, Turner, Janakiraman, HPL-2002-224): every result of its
# evaluation (§III Fig. 2, §IV Figs. 3 and 4, footnotes 6 and 8) beside
# `ibccsim twoswitch`. One row per result through fid_row (lib.sh); run by
# tools/fidelity/run.sh (make fidelity). One parameter set: the defaults
# of `ibccsim twoswitch` ([S02] Table I; docs/scenario_twoswitch.md lists
# where each comes from). Fig. 3 runs are 100 ms with the victim active in
# [40, 60] ms and measured there (as Fig. 2); Fig. 4 runs are LONG
# (500 ms, last 400 ms). About 25 runs, under a minute on one core.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tools/fidelity/lib.sh
. tools/fidelity/twoswitch.sh

# ---- §III, Fig. 2: no congestion control, window 1, L = R = 10 ----------
a=""
v=$(ts_get victim_share_isl_frac $a); i=$(ts_get isl_util_frac $a)
fid_row "§III, Fig. 2" "no CC: the victim's share of the ISL" "0.04" "$v" \
  "$(fid_mark_num 0.04 "$v")" "$(ts_cmd $a)" \
  "victim_share_isl_frac over the victim's window [40, 60] ms"
fid_row "§III, Fig. 2" "no CC: ISL utilisation while the victim is on" "0.325" "$i" \
  "$(fid_mark_num 0.325 "$i")" "$(ts_cmd $a)" "isl_util_frac"

# ---- §IV-A, Fig. 3(a): naive marking + LIPD ------------------------------
N="--law lipd --marking naive"
v=$(ts_get victim_share_isl_frac $N); i=$(ts_get isl_util_frac $N)
fid_row "§IV-A, Fig. 3(a)" "naive: spreading avoided, the victim gets a high throughput" \
  "high (read: >= 0.5 of the ISL)" "$v (ISL $i)" "$(fid_mark_range 0.5 1 "$v")" "$(ts_cmd $N)" \
  "victim_share_isl_frac; 'high' read as at least half the link (window 1 alone caps a flow near 0.9). Below it because of the bypass limit of 4 (Table I): unmarked locals saturate BC, a remote head waits long, the victim passes it 4 times and then waits; --bypass 8 gives $(ts_get victim_share_isl_frac $N --bypass 8)"
l=$(ts_get local_share_root_frac $N); r=$(ts_get root_util_frac $N)
x=$(awk -v l="$l" -v r="$r" 'BEGIN { printf "%.3f", (r > 0 ? l / r : 0) }')
fid_row "§IV-A, Fig. 3(a)" "naive: the local flows take 90% of the root link's bandwidth" \
  "0.90" "$x" "$(fid_mark_num 0.90 "$x")" "$(ts_cmd $N)" "local_share_root_frac / root_util_frac"
m=$(ts_get marked_local_frac $N)
fid_row "§IV-A" "naive: no packet of a local flow is marked (window 1 keeps each local's buffer from filling)" \
  "0" "$m" "$(fid_mark_num 0 "$m")" "$(ts_cmd $N)" "marked_local_frac"
jl=$(ts_get jain_local $N); jr=$(ts_get jain_remote $N)
fid_row "§IV-A" "naive: flows of one type (local or remote) get about the same throughput" \
  "about equal (not shown in the figure)" "Jain local $jl, remote $jr" \
  "$(fid_true "$jl >= 0.95 && $jr >= 0.95")" "$(ts_cmd $N)" \
  "jain_local, jain_remote (Jain's index within each class; 'about equal' read as >= 0.95)"

# ---- §IV-B, Fig. 3(b): input-triggered + LIPD ----------------------------
I="--law lipd --marking input"
v=$(ts_get victim_share_isl_frac $I); i=$(ts_get isl_util_frac $I)
fid_row "§IV-B, Fig. 3(b)" "input-triggered: spreading avoided, the ISL stays highly utilised" \
  "high (read: ISL >= 0.8)" "ISL $i (victim $v)" "$(fid_mark_range 0.8 1 "$i")" "$(ts_cmd $I)" \
  "isl_util_frac"
rn=$(ts_get remote_local_ratio $N); ri=$(ts_get remote_local_ratio $I)
fid_row "§IV-B, Fig. 3(b)" "input-triggered is fairer to remote vs local flows than naive" \
  "remote/local rises" "$rn -> $ri" "$(fid_true "$ri > $rn")" "$(ts_cmd $I)" \
  "remote_local_ratio, naive -> input"
mr=$(ts_get marked_remote_frac $I); ml=$(ts_get marked_local_frac $I)
fid_row "§IV-B" "input-triggered still favours locals: the full-buffer trigger marks remote packets more" \
  "remote/local < 1, remotes marked more" "ratio $ri; marked R $mr, L $ml" \
  "$(fid_true "$ri < 1 && $mr > $ml")" "$(ts_cmd $I)" "remote_local_ratio, marked_remote_frac/local"
t=$(ts_get root_in_triggers $I | cut -d. -f1); v=$(ts_get root_marked_remote_per_trigger $I); u=$(ts_get root_marked_local_per_trigger $I)
mk=$(fid_mark_num 4 "$v")
fid_row "§IV-B, footnote 6" "an input trigger marks about as many remote packets as the buffer has slots" \
  "about 4 (4-packet buffers)" "$v remote, $u local per trigger ($t triggers at the root switch)" "$mk" "$(ts_cmd $I)" \
  "root_marked_remote_per_trigger: packets of remote flows the root switch marked over the run / its input-buffer triggers (all at the inter-switch input: a local host has one window-1 flow, so at most one packet in its own 4-packet buffer). $(if [ "$mk" != match ]; then echo "A trigger copies into cnt2 the packets waiting for the root link, about 4 (remote $v + local $u), all remote ones in the full buffer, the count [S02] means; but the implementation [S02] specifies, which ibcc follows, marks the next cnt2 packets the root link sends, and the root link serves the inter-switch input and the local inputs in turn, so about half of those marks fall on local packets that come after the trigger"; fi)"

# ---- §IV-C, Figs. 3(c), 3(d): input-output-triggered + LIPD --------------
T4="--law lipd --marking io --out-threshold 4"
T8="--law lipd --marking io --out-threshold 8"
r4=$(ts_get remote_local_ratio $T4); r8=$(ts_get remote_local_ratio $T8)
c4=$(ratio_closer "$r4" "$ri"); c8=$(ratio_closer "$r8" "$ri")
fid_row "§IV-C, Figs. 3(c), 3(d)" "input-output (T = 4 and 8): remote and local rates closer than input-triggered" \
  "closer to 1 with both" "T4 $r4, T8 $r8 (input $ri)" \
  "$(if [ "$c4$c8" = 11 ]; then echo match; elif [ "$c4$c8" = 00 ]; then echo differs; else echo partly; fi)" \
  "$(ts_cmd $T8)" "remote_local_ratio"
o4=$(ts_get root_util_frac $T4); o8=$(ts_get root_util_frac $T8)
fid_row "§IV-C, Fig. 3(c)" "T = 4 marks too often before a buffer fills: low root-link utilisation" \
  "low (below T = 8's)" "$o4 (T8 $o8)" "$(fid_true "$o4 < 0.95 && $o4 < $o8 - 0.03")" "$(ts_cmd $T4)" \
  "root_util_frac"
v8=$(ts_get victim_share_isl_frac $T8)
fid_row "§IV-C, Fig. 3(d)" "T = 8: high root-link utilisation without spreading" \
  "root high, victim high" "root $o8, victim $v8" \
  "$(fid_true "$o8 >= 0.9 && $v8 >= 0.5")" "$(ts_cmd $T8)" "root_util_frac, victim_share_isl_frac"
fid_row "§IV-C, Fig. 3(d)" "T = 8 is less fair than T = 4 but fairer than input-triggered" \
  "T4 > T8 > input (fairness)" "T4 $r4, T8 $r8, input $ri" \
  "$(if [ "$(ratio_closer "$r4" "$r8")" = 1 ] && [ "$c8" = 1 ]; then echo match; elif [ "$(ratio_closer "$r4" "$r8")" = 1 ] || [ "$c8" = 1 ]; then echo partly; else echo differs; fi)" \
  "$(ts_cmd $T8)" "remote_local_ratio (closer to 1 = fairer)"

# ---- §IV-C, Fig. 4: buffer size x output threshold, 500 ms runs ----------
io() { echo "--law lipd --marking io --out-threshold $1 --buffer $2 $LONG"; }
inp() { echo "--law lipd --marking input --buffer $1 $LONG"; }
a=$(ts_get root_util_frac $(io 4 8)); b=$(ts_get root_util_frac $(io 8 8))
fid_row "§IV-C, Fig. 4(a)" "root link under-utilised with the low output threshold 4" \
  "under-utilised" "$a (T8 $b), buffer 8" "$(fid_true "$a < 0.95 && $a < $b - 0.03")" \
  "$(ts_cmd $(io 4 8))" "root_util_frac"
a=$(ts_get root_util_frac $(io 6 2)); b=$(ts_get root_util_frac $(io 6 3))
fid_row "§IV-C, Fig. 4(a)" "root link under-utilised with the smallest input buffers" \
  "under-utilised at 2-4 packets" "$a (buffer 2), $b (3), T = 6" "$(fid_true "$a < 0.9")" \
  "$(ts_cmd $(io 6 2))" "root_util_frac"
a=$(ts_get root_util_frac $(io 6 8)); b=$(ts_get root_util_frac $(io 6 16))
fid_row "§IV-C, Fig. 4(a)" "threshold 6: root utilisation above 90% except at the smallest buffers" \
  "> 0.90" "$a (buffer 8), $b (16)" "$(fid_true "$a > 0.9 && $b > 0.9")" \
  "$(ts_cmd $(io 6 8))" "root_util_frac"
a=$(ts_get remote_local_ratio $(inp 2)); b=$(ts_get remote_local_ratio $(inp 4))
c=$(ts_get remote_local_ratio $(inp 8))
fid_row "§IV-C, Fig. 4(b)" "input-triggered marking: fairness improves as the buffer grows" \
  "remote/local rises with buffer" "$a, $b, $c (buffers 2, 4, 8)" \
  "$(if awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { exit !(a < b && b < c) }'; then echo match;
     elif awk -v a="$a" -v c="$c" 'BEGIN { exit !(a < c) }'; then echo partly; else echo differs; fi)" \
  "$(ts_cmd $(inp 4))" "remote_local_ratio, --marking input"
a=$(ts_get remote_local_ratio $(io 8 12)); b=$(ts_get remote_local_ratio $(io 8 16))
x=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }')
fid_row "§IV-C, Fig. 4(b)" "buffers of 12 and more: marking is all output-triggered, fairness no longer changes" \
  "flat" "$a (12), $b (16)" "$(fid_mark_num 1 "$x")" "$(ts_cmd $(io 8 16))" \
  "remote_local_ratio at T = 8; mark on the ratio of the two"
m=$(ts_get marked_remote_frac --law lipd --marking naive --buffer 12 $LONG)
fid_row "§IV-C, footnote 8" "with 12-packet buffers the input buffer never fills (11 flows cross the ISL, window 1)" \
  "never full" "naive marks $m of remote packets" "$(fid_mark_num 0 "$m")" \
  "$(ts_cmd --law lipd --marking naive --buffer 12 $LONG)" \
  "naive marks only on a full buffer: marked_remote_frac = 0 means no trigger"
a=$(ts_get remote_local_ratio $(io 4 16)); b=$(ts_get remote_local_ratio $(io 8 16))
fid_row "§IV-C, Fig. 4(b)" "large buffers: raising T from 4 to 8 lowers the locals' share" \
  "remote/local rises" "$a -> $b (buffer 16)" "$(fid_true "$b > $a")" "$(ts_cmd $(io 8 16))" \
  "remote_local_ratio"
c=$(ts_get remote_local_ratio $(io 16 16))
fid_row "§IV-C, Fig. 4(b)" "T = 16: ten locals cannot trigger alone, fairness improves over T = 8" \
  "fairer than T = 8" "$c (T8 $b), buffer 16" "$(fid_true "$(ratio_closer "$c" "$b") == 1")" \
  "$(ts_cmd $(io 16 16))" "remote_local_ratio (closer to 1 = fairer)"
a=$(ts_get root_util_frac --local 5 --remote 5 $(io 6 8)); b=$(ts_get root_util_frac --local 20 --remote 20 $(io 6 8))
fid_row "§IV-C" "5 to 20 flows of each type give results like Fig. 4" \
  "similar" "root $a (5+5), $b (20+20), T = 6, buffer 8" "$(fid_true "$a > 0.9 && $b > 0.9")" \
  "$(ts_cmd --local 20 --remote 20 $(io 6 8))" "root_util_frac; checked on the T = 6 utilisation claim"
