#!/bin/sh
# [F] Ferrer et al., MVCM on k-ary n-flies of CIOQ switches: every result
# of the paper's evaluation beside ibcc's; tools/fidelity/run.sh writes the
# table into docs/scenario_mvcm.md.
#
# One parameter set (ibccsim mvcm's defaults, docs/scenario_mvcm.md traces
# each to [F] or gives the reason for ibcc's choice). Simulation length:
# the hot sources send HP packets each instead of [F]'s 1 000 (the hot spot
# lasts HP x 2 471 cycles at [F]'s medium load), long enough for the tree
# to form, the CMMs to settle and the marks to be counted (the ordering of
# the CMMs is the same with 1 000 packets; the no-CMM peak only grows with
# the hot spot's length); Fig 16's pair runs 250 (the cap, 4^5 waiting
# slots of 354 cycles = 362 000 cycles, must fit in the hot spot); Fig 5a's
# MVCM row adds a run in 1 us bins, a static window of 1 and MVCM, RP and
# PI with 128 hot sources. About four minutes of one core.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tools/fidelity/lib.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fid-f.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

HP=100
N5="--n 5 --hot-packets $HP"
run() { # name args...
  nm=$1; shift
  nice -n 10 "$SIM" mvcm --quiet --summary "$tmp/$nm.csv" "$@" \
    || { echo "f.sh: ibccsim mvcm $* failed" >&2; exit 1; }
}
m() { awk -F, -v k="$2" '$1 == k { print $2 }' "$tmp/$1.csv"; }
# pc RUN METRIC: a _frac metric in percent, as [F] gives it
pc() { awk -F, -v k="$2" '$1 == k && $2 != "" { printf "%.3f\n", $2 * 100 }' "$tmp/$1.csv"; }
fm() { "$SIM" mvcm "$@" --formula; }
cmd() { echo "build/ibccsim mvcm $*"; }
# why MARK CAUSE: the cause of a difference, empty for a match
why() { [ "$1" = match ] || echo "$2"; }
r2() { awk -v x="$1" 'BEGIN { printf "%.2f", x }'; }
r0() { awk -v x="$1" 'BEGIN { printf "%.0f", x }'; }

FTR="[F] §5.1 says only that the traces came from the applications DL_POLY and CPMD and that the two ran at the same time; it gives neither the traces nor their number of processes, their placement on the 64 hosts, their message sizes or their time scale, and does not say where they can be had. ibcc runs traces (ibccsim gran --job, docs/jobs.md) but has none of [F]'s to run"

# ---- §4.3: the window from [F]'s formula ---------------------------------
o=$(fm --n 5); w=$(echo "$o" | sed 's/.*omega \([0-9.]*\) .*/\1/'); hi=$(echo "$o" | sed 's/.*-> 0: \([0-9.]*\)).*/\1/')
dw=$(echo "$o" | sed 's/.*dw_max //')
fid_row "§4.3" "4-ary 5-fly, h = 9, t_hop = 3 cycles, B = 1 byte/cycle, 22-byte header and ACK: omega = (76 + 278)/278 for a 256-byte payload" "1.28" "$(r2 "$w")" \
  "$(fid_mark_num 1.28 "$w")" "$(cmd --n 5 --formula)" "354/278 = 1.273; [F] rounds up"
fid_row "§4.3" "omega lies in [1, 4.45]: 4.45 = 98/22 as the payload tends to 0" "4.45" "$(r2 "$hi")" \
  "$(fid_mark_num 4.45 "$hi")" "$(cmd --n 5 --formula)" ""
fid_row "§4.3" "DWmax = 2, the nearest integer above omega" "2" "$dw" \
  "$(fid_true "$dw == 2")" "$(cmd --n 5 --formula)" "ibcc takes the integer at or above omega"
o=$(fm --n 5 --link-bytes 16); w=$(echo "$o" | sed 's/.*omega \([0-9.]*\) .*/\1/'); dw=$(echo "$o" | sed 's/.*dw_max //')
fid_row "§4.3" "16 bytes/cycle links: omega about 4.18, so DWmax = 5" "4.18; 5" "$(r2 "$w"); $dw" \
  "$(fid_true "$dw == 5 && $w > 4.1 && $w < 4.3")" "$(cmd --n 5 --link-bytes 16 --formula)" "1164/278 = 4.187"
fid_row "§4.3" "uniform traffic near saturation: about 1.4 packets outstanding per flow on average" "1.4" "-" notrun "" \
  "not measurable as [F] words it: with [F]'s flows (origin-destination pairs) a uniform host sends to a given destination once every few million cycles, so a pair almost never has a second packet outstanding; next to omega = RTT / packet time = 1.28 the 1.4 reads as a host's packets in flight at full injection, which [F] does not say. The fabric counts each flow's outstanding packets but keeps no time average of them, and an ACK's return is not visible to an observer (it sees sends and deliveries)"

run mvcm $N5 --cmm mvcm
run mvcm16 $N5 --cmm mvcm --link-bytes 16
a=$(m mvcm16 mvcm_ws_flows); b=$(m mvcm mvcm_ws_flows); hs=$(m mvcm hot_sources)
fid_row "§4.3" "16 bytes/cycle (DWmax 5): the window alone almost stops the congestion, few flows need waiting slots" "few flows with WS" "$a flows with WS ($b at 1 byte/cycle, DWmax 2; $hs hot sources)" \
  "$(fid_true "$a * 10 <= $hs && $a < $b")" "$(cmd $N5 --cmm mvcm --link-bytes 16)" "mvcm_ws_flows: flows that inserted waiting slots at least once (ibcc_mvcm_stats.ws_flows). match: under a tenth of the hot sources and fewer than at 1 byte/cycle; ibcc's are none at all ($(m mvcm16 mvcm_acks_hot) hot ACKs only lower windows)"

# ---- §4.3, Fig 4: a static window only, high load ------------------------
for wn in 1 2 5; do run "w$wn" $N5 --load-sw 0.62 --cmm window --window "$wn"; done
a=$(m w1 latency_hot_spot_cycles); b=$(m w2 latency_hot_spot_cycles); c=$(m w5 latency_hot_spot_cycles)
fid_row "§4.3, Fig 4" "static window, high load: window 1 gives the lowest latency while the hot spot lasts" "w1 lowest" "w1 $(r0 "$a"), w2 $(r0 "$b"), w5 $(r0 "$c")" \
  "$(fid_true "$a < $b && $a < $c")" "$(cmd $N5 --load-sw 0.62 --cmm window --window W)" "latency_hot_spot_cycles: mean latency of the packets generated during the hot spot"
a=$(m w1 latency_end_cycles); b=$(m w2 latency_end_cycles); l1=$(m w1 cold_latency_base_cycles)
fid_row "§4.3, Fig 4" "window 1: latency never returns to its value before the hot spot (the packets held at the sources do not drain)" "no recovery" "end w1 $(r0 "$a"), w2 $(r0 "$b"); before $(r0 "$l1")" \
  "$(fid_true "$a > 2 * $l1 && $a > 1.5 * $b")" "$(cmd $N5 --load-sw 0.62 --cmm window --window W)" "latency_end_cycles: the last tenth of the run. In ibcc the hot link is the bottleneck whatever the window (64 sources with a packet each already cover its round trip), so the hot backlog drains as fast with window 1, and window 1 keeps the tree out of the network; [F] does not say what held its window-1 packets at the sources"
a=$(m w1 latency_mean_cycles); b=$(m w2 latency_mean_cycles); c=$(m w5 latency_mean_cycles)
fid_row "§4.3, Fig 4" "window 2 behaves best" "w2 best" "mean w1 $(r0 "$a"), w2 $(r0 "$b"), w5 $(r0 "$c")" \
  "$(fid_true "$b < $a && $b < $c")" "$(cmd $N5 --load-sw 0.62 --cmm window --window W)" "latency_mean_cycles over the run; see the row above for why window 1 is not worse in ibcc"
a=$(m w2 latency_hot_spot_cycles); c=$(m w5 latency_hot_spot_cycles)
fid_row "§4.3, Fig 4" "window 5 lets more packets in and congests the network more than window 2" "w5 > w2" "w2 $(r0 "$a"), w5 $(r0 "$c")" \
  "$(fid_true "$c > $a")" "$(cmd $N5 --load-sw 0.62 --cmm window --window W)" "latency_hot_spot_cycles"

# ---- §5.2.1-5.2.3 on the 4-ary 5-fly, medium load ------------------------
for c in none rp pi; do run "$c" $N5 --cmm "$c"; done
run piv $N5 --cmm pi --validated
run inonly $N5 --cmm mvcm --input-only
run nowarm $N5 --cmm mvcm --no-warm
run nocap $N5 --cmm mvcm --no-cap
run mvcm250 --n 5 --hot-packets 250 --cmm mvcm
# Fig 5a's MVCM peak: 1 us bins, and twice ibcc's hot sources
run mvcm_b1 $N5 --cmm mvcm --bin 1
run win1 $N5 --cmm window --window 1
for c in mvcm rp pi; do run "${c}128" $N5 --cmm "$c" --hot-sources 128; done
run nocap250 --n 5 --hot-packets 250 --cmm mvcm --no-cap

v=$(m none cold_latency_peak_cycles)
fid_row "§5.2.1, Fig 5a" "no CMM: cold latency rises above 140 000 cycles during the hot spot" "> 140 000" "$(r0 "$v")" \
  "$(fid_mark_range 140000 1e9 "$v")" "$(cmd $N5 --cmm none)" "cold_latency_peak_cycles (20 us bins); it grows with the hot spot's length, so a full 1 000-packet hot spot only raises it"
for c in none rp pi mvcm; do eval "p_$c=\$(m $c cold_latency_peak_cycles)"; done
mc() { echo "$(m "$1" "marks_cold_stage_$2")"; }
fid_row "§5.2.1, Fig 5a" "MVCM: cold latency peaks at about 3 000 cycles" "about 3 000" "$(r0 "$p_mvcm")" \
  "$(fid_mark_num 3000 "$p_mvcm")" "$(cmd $N5 --cmm mvcm)" "cold_latency_peak_cycles (20 us bins; $(r0 "$(m mvcm_b1 cold_latency_peak_cycles)") in 1 us bins, \`--bin 1\`). $(why "$(fid_mark_num 3000 "$p_mvcm")" "cause: the number of hot sources, which [F]'s text does not give (its Table 3 is missing). [F]'s own rules cap the tree: a source's queue keeps DW <= DWmax = 2 packets until their ACKs (§4.2, §5.1) and a hot source sends one packet every $(awk -v l="$(m mvcm load_bytes_per_cycle)" 'BEGIN { printf "%.0f", 278 / l }') cycles, so each has sent its window before the first marked hot packet arrives ($(m mvcm hot_first_mark_cycles) cycles after the start; every source's first by $(m mvcm hot_all_marked_cycles)) and most are held by the window from their third packet on: the hot packets in the network never pass DWmax x sources ($(m mvcm hot_in_network_max) with ibcc's $(m mvcm hot_sources); no CMM $(m none hot_in_network_max)), and a static window of 1 with no marks at all gives a peak close to MVCM's ($(r0 "$(m win1 cold_latency_peak_cycles)"), \`--cmm window --window 1\`; RP, window 1 and LIPD, $(r0 "$p_rp")). Such a tree marks cold packets at stages 1 to 3 only ($(mc mvcm 1), $(mc mvcm 2), $(mc mvcm 3); stages 4-5 $(mc mvcm 4), $(mc mvcm 5)). With 128 sources ($(m mvcm128 hot_in_network_max) hot packets in the network, cold marks up to stage 5: $(mc mvcm128 4), $(mc mvcm128 5) at stages 4-5) the peak is $(r0 "$(m mvcm128 cold_latency_peak_cycles)") (\`--hot-sources 128\`), [F]'s scale; but ibcc's PI (its threshold and timer are ibcc's choices) then peaks at $(r0 "$(m pi128 cold_latency_peak_cycles)") against [F]'s 8 000 (with no window its sources send until their first marked ACK, every source's by $(m pi128 hot_all_marked_cycles) cycles: $(m pi128 hot_in_network_max) hot packets in the network), so one source count does not fit both and ibcc keeps 64 (the parameter table). Neither the bin width nor a slower first reaction can make up the factor: the window holds the sources before any mark comes back")"
a=$(m none cold_throughput_bytes_per_cycle); b=$(m mvcm cold_throughput_bytes_per_cycle)
# offered cold traffic per host: the uniform hosts' load over all 4^5 hosts
l=$(awk -v x="$(m mvcm load_bytes_per_cycle)" -v h="$(m mvcm hot_sources)" 'BEGIN { printf "%.5f", x * (1024 - h) / 1024 }')
fid_row "§5.2.1, Fig 5b" "cold throughput drops during the hot spot without a CMM; MVCM sustains it" "drop; sustained" "none $a, MVCM $b (offered $l)" \
  "$(fid_true "$a < 0.95 * $l && $b > 0.95 * $l")" "$(cmd $N5 --cmm X)" "cold_throughput_bytes_per_cycle, bytes/cycle per host of all 1 024 (the 960 uniform hosts offer 0.1125 each)"
v=$(m mvcm hot_link_util_frac)
fid_row "§5.2.1, Fig 6b" "MVCM keeps the hot host's link 100% busy during the hot spot" "1.00" "$v" \
  "$(fid_mark_num 1 "$v")" "$(cmd $N5 --cmm mvcm)" "hot_link_util_frac. $(why "$(fid_mark_num 1 "$v")" "at DW 1 each validated ACK multiplies nWS by 4 (up to 1 024 slots of 354 cycles) and only a cold ACK removes it: with 64 sources the waiting intervals leave the hot link idle for whole bins (hot_link_util_min_frac $(m mvcm hot_link_util_min_frac)); [F] does not say how its sources kept the link busy")"
# Fig 6 after the hot spot: a 20-packet hot spot whose backlog (1 280
# packets of 354 cycles) drains inside an 800 us run
run osc_none --n 5 --hot-packets 20 --time 800 --cmm none
run osc_mvcm --n 5 --hot-packets 20 --time 800 --cmm mvcm
a=$(m osc_none hot_link_osc_after_frac); b=$(m osc_mvcm hot_link_osc_after_frac)
mk=$(fid_true "$b < $a")
fid_row "§5.2.1, Fig 6" "after the hot spot the hot link's utilisation oscillates less with MVCM than without" "fewer oscillations" "none $a, MVCM $b" \
  "$mk" "$(cmd --n 5 --hot-packets 20 --time 800 --cmm X)" "hot_link_osc_after_frac: the mean change of the hot host's link busy fraction from one 20 us bin to the next, from the hot spot's end to the run's end (a 20-packet hot spot, so that its backlog drains in the run: $(m osc_none hot_delivered) and $(m osc_mvcm hot_delivered) of $(m osc_none hot_packets_total) hot packets delivered). $(why "$mk" "without a CMM the backlog drains at the link's full rate, then the link carries only its uniform share; with MVCM the hot sources sit out waiting intervals of up to 4^5 slots of 354 cycles that last past the hot spot and come back in bursts (the link goes from about 0.9 busy to idle and back in successive bins), so the hot backlog is not even drained by the run's end")"
for nk in "4 4" "4 3" "8 3"; do
  set -- $nk
  run "none$1$2" --k "$1" --n "$2" --hot-packets $HP --cmm none
  run "mvcm$1$2" --k "$1" --n "$2" --hot-packets $HP --cmm mvcm
  a=$(m "none$1$2" cold_latency_peak_cycles); b=$(m "mvcm$1$2" cold_latency_peak_cycles)
  case $1$2 in 44) f=7a ;; 43) f=7b ;; 83) f=7c ;; esac
  fid_row "§5.2.1, Fig $f" "$1-ary $2-fly: MVCM cuts the cold-latency peak of no CMM" "much lower" "none $(r0 "$a"), MVCM $(r0 "$b")" \
    "$(fid_true "$b < 0.5 * $a")" "$(cmd --k "$1" --n "$2" --hot-packets $HP --cmm X)" "cold_latency_peak_cycles"
done
fid_row "§5.2.1, Fig 7d" "application traces (DL_POLY, CPMD) on a 4-ary 3-fly: MVCM lowers the latency peaks of no CMM" "lower" "-" notrun "" \
  "$FTR"
fid_row "§5.2.1, Fig 8" "2-ary 3-fly: flows 000-111 and 011-111 congest a second-stage switch; MVCM protects the cold flows 001, 010 -> 101" "protected" "-" notrun "" \
  "[F] gives no rate for the two flows and at the hot-spot rate two flows cannot congest a link; needs a per-flow rate and traced flows in ibccsim mvcm"

for c in none rp pi mvcm; do eval "l_$c=\$(m $c latency_mean_cycles)"; done
fid_row "§5.2.2, Fig 9a" "mean latency of all packets under the hot-spot pattern: RP worst, MVCM best" "RP > PI > MVCM" "RP $(r0 "$l_rp"), PI $(r0 "$l_pi"), MVCM $(r0 "$l_mvcm")" \
  "$(fid_true "$l_rp > $l_pi && $l_pi > $l_mvcm")" "$(cmd $N5 --cmm X)" "latency_mean_cycles, medium load (one point of the curve). $(why "$(fid_true "$l_rp > $l_pi && $l_pi > $l_mvcm")" "[F] blames RP's static window of 1 for wasting bandwidth without congestion; in ibcc a window per destination flow never binds a uniform flow (one packet every 2.5 million cycles) and holds the hot sources hardest")"
for c in rp pi; do
  v=$(pc $c marked_cold_frac)
  case $c in rp) p=11; q=RP ;; pi) p=5; q=PI ;; esac
  fid_row "§5.2.2, Fig 10" "$q marks about $p% of the cold packets" "$p %" "$(r2 "$v") %" \
    "$(fid_mark_num "$p" "$v")" "$(cmd $N5 --cmm $c)" "marked_cold_frac x 100. $(why "$(fid_mark_num "$p" "$v")" "$([ $c = rp ] && echo "RP's window of 1 keeps the tree small, so few cold packets share a full input with it" || echo "PI's threshold is ibcc's choice ([F] leaves it to the vendor): at MVPM's validation level it marks fewer cold packets than [F]'s PI did")")"
done
v=$(pc mvcm validated_cold_frac); u=$(pc mvcm marked_cold_frac)
fid_row "§5.2.2, Fig 10" "MVCM marks about 0.1% of the cold packets" "0.1 %" "$(r2 "$v") % (MB alone $(r2 "$u") %)" \
  "$(fid_mark_range 0 0.2 "$v")" "$(cmd $N5 --cmm mvcm)" "validated_cold_frac x 100: [F] credits the figure to the 2-bit code, so ibcc counts MB+VB (the hot code); MB alone (warm) in brackets; 0 to 0.2 counts as about 0.1"
a=$(pc rp marked_hot_frac); b=$(pc pi marked_hot_frac); c=$(pc mvcm marked_hot_frac)
fid_row "§5.2.2, Fig 10" "hot packets: PI marks the most, RP the fewest, MVCM slightly fewer than PI" "PI > MVCM > RP" "PI $(r2 "$b"), MVCM $(r2 "$c"), RP $(r2 "$a") %" \
  "$(fid_true "$b >= $c && $c > $a")" "$(cmd $N5 --cmm X)" "marked_hot_frac x 100. $(why "$(fid_true "$b >= $c && $c > $a")" "RP marks nearly every hot packet: each waits in a full input behind the tree; PI's marks stop at up ports (IBA root test kept there) and while the sources wait")"
fid_row "§5.2.2, Fig 11a1" "RP: cold latency up to 10 000 cycles" "10 000" "$(r0 "$p_rp")" "$(fid_mark_num 10000 "$p_rp")" "$(cmd $N5 --cmm rp)" "cold_latency_peak_cycles. $(why "$(fid_mark_num 10000 "$p_rp")" "RP's window of 1 per flow lets the 64 hot sources put only $(m rp hot_in_network_max) packets in the network (hot_in_network_max), too few for a tree that reaches the uniform traffic. Not the number of hot sources: with 128, RP $(r0 "$(m rp128 cold_latency_peak_cycles)") and MVCM $(r0 "$(m mvcm128 cold_latency_peak_cycles)"); RP's window is half of MVCM's DWmax, so in ibcc RP stays below MVCM whatever the number, where [F]'s RP is 3 times its MVCM")"
fid_row "§5.2.2, Fig 11b1" "PI: cold latency up to a little over 8 000 cycles" "> 8 000" "$(r0 "$p_pi")" "$(fid_mark_range 8000 10000 "$p_pi")" "$(cmd $N5 --cmm pi)" "cold_latency_peak_cycles"
fid_row "§5.2.2, Fig 11" "RP and PI both improve on no CMM, MVCM most" "none > RP, PI > MVCM" "none $(r0 "$p_none"), RP $(r0 "$p_rp"), PI $(r0 "$p_pi"), MVCM $(r0 "$p_mvcm")" \
  "$(fid_true "$p_none > $p_rp && $p_none > $p_pi && $p_rp > $p_mvcm && $p_pi > $p_mvcm")" "$(cmd $N5 --cmm X)" "cold_latency_peak_cycles. $(why "$(fid_true "$p_none > $p_rp && $p_none > $p_pi && $p_rp > $p_mvcm && $p_pi > $p_mvcm")" "RP and MVCM both keep the tree away from the cold traffic (see Fig 11a1)")"
a=$(m none cold_throughput_bytes_per_cycle); b=$(m rp cold_throughput_bytes_per_cycle); c=$(m pi cold_throughput_bytes_per_cycle); d=$(m mvcm cold_throughput_bytes_per_cycle)
fid_row "§5.2.2, Fig 11a2-c2" "RP and PI soften the cold-throughput drop of no CMM; MVCM softens it most" "none < RP, PI <= MVCM" "none $a, RP $b, PI $c, MVCM $d" \
  "$(fid_true "$a < $b && $a < $c && $d >= 0.999 * $b && $d >= 0.999 * $c")" "$(cmd $N5 --cmm X)" "cold_throughput_bytes_per_cycle"
v=$(m piv cold_latency_peak_cycles)
fid_row "§5.2.2, Fig 12" "PI acting only on validated packets lowers the cold latency of PI" "lower" "PI $(r0 "$p_pi"), validated $(r0 "$v")" \
  "$(fid_true "$v < $p_pi")" "$(cmd $N5 --cmm pi --validated)" "cold_latency_peak_cycles. $(why "$(fid_true "$v < $p_pi")" "[F]'s gain comes from not throttling wrongly marked cold flows, but ibcc's PI marks few cold packets and a uniform flow's delay never binds; validated marks come later (a packet must first be marked at a full input), so the hot sources are slowed later")"
a=$(m mvcm cold_latency_mean_cycles); b=$(m inonly cold_latency_mean_cycles)
fid_row "§5.2.2, Fig 13" "MVCM acting on input marks alone (no validation) raises cold latency" "higher" "MVCM $(r0 "$a"), input marks only $(r0 "$b")" \
  "$(fid_true "$b > 1.02 * $a")" "$(cmd $N5 --cmm mvcm --input-only)" "cold_latency_mean_cycles during the hot spot. $(why "$(fid_true "$b > 1.02 * $a")" "the option reaches the agent (tests/test_mvcm.c) but has nothing to act on: every marked hot packet is also validated (marked_hot_frac = validated_hot_frac = $(m mvcm validated_hot_frac)), so the $(m mvcm mvcm_acks_warm) MB-only ACKs (mvcm_acks_warm) all go to uniform flows; $(m mvcm mvcm_warm_shrunk) of them lower a window (mvcm_warm_shrunk), but a uniform flow sends a packet every 2.5 million cycles, so its next packet, if any before the run ends, finds nothing in flight and the immediate reset restores the window: the run is MVCM's to every digit. [F] §4.2.1 has warm and hot marks reaching the same flow during congestion; its text does not say how a hot packet passes the hot host's output without being validated")"
b=$(m nowarm cold_latency_mean_cycles)
fid_row "§5.2.2, Fig 14" "MVCM without warm marking: cold latency higher" "higher" "MVCM $(r0 "$a"), no warm $(r0 "$b")" \
  "$(fid_true "$b > 1.02 * $a")" "$(cmd $N5 --cmm mvcm --no-warm)" "cold_latency_mean_cycles during the hot spot. $(why "$(fid_true "$b > 1.02 * $a")" "the same cause as Fig 13: the warm ACKs reach only uniform flows, and no lowered window ever holds a packet (mvcm_warm_shrunk $(m nowarm mvcm_warm_shrunk) with the option, $(m mvcm mvcm_warm_shrunk) without, the same run)")"
fid_row "§5.2.2, Fig 15b" "traces on a 4-ary 3-fly: MVCM's latency stays below 5 000 cycles, 1 300 on average" "< 5 000; 1 300" "-" notrun "" \
  "$FTR"
fid_row "§5.2.2, Fig 15c-d" "traces: RP and PI peak near 12 000 and 10 000 cycles, 4 500 on average" "12 000; 10 000; 4 500" "-" notrun "" \
  "$FTR"
a=$(m mvcm250 hot_link_util_run_frac); b=$(m nocap250 hot_link_util_run_frac)
da=$(m mvcm250 hot_delivered); db=$(m nocap250 hot_delivered); tot=$(m mvcm250 hot_packets_total)
fid_row "§5.2.3, Fig 16b" "MVCM without the cap on waiting slots: the sources are held while the link could take their packets" "less hot traffic" "hot link busy from the hot spot's start to the end: MVCM $a, no cap $b; hot packets delivered $da, $db of $tot" \
  "$(fid_true "$b < 0.98 * $a && $db < $da")" "$(cmd --n 5 --hot-packets 250 --cmm mvcm --no-cap)" "hot_link_util_run_frac, hot_delivered (250 hot packets a source: the hot backlog outlasts the run, so the link could be busy to the end). The cap holds nWS at 4^5 $(m mvcm250 mvcm_ws_capped) times (mvcm_ws_capped); without it nWS reaches $(m nocap250 mvcm_nws_max) (mvcm_nws_max). $(why "$(fid_true "$b < 0.98 * $a && $db < $da")" "the flows that reach the cap do so late in the hot spot, and a cold ACK removes the whole interval, so the longer waits fall mostly after the run")"
a2=$(m mvcm250 hot_link_util_min_run_frac); b2=$(m nocap250 hot_link_util_min_run_frac)
fid_row "§5.2.3, Fig 16b" "without the cap, gaps appear in the hot traffic" "gaps" "least busy bin from the hot spot's start to the end: MVCM $a2, no cap $b2" \
  "$(fid_true "$b2 < 0.9 * $a2")" "$(cmd --n 5 --hot-packets 250 --cmm mvcm --no-cap)" "hot_link_util_min_run_frac: the hot link's least busy 20 us bin while the hot backlog lasts. $(why "$(fid_true "$b2 < 0.9 * $a2")" "the least busy bin comes early in the hot spot, when the 64 sources first throttle together, long before any flow reaches the cap, so it is the same with and without it; the cap's effect shows as less use over the whole run (the row above)")"
a=$(m mvcm hot_latency_mean_cycles); c=$(m pi hot_latency_mean_cycles)
a2=$(m mvcm hot_link_util_min_frac); c2=$(m pi hot_link_util_min_frac)
fid_row "§5.2.3, Fig 16c" "PI (no cap, no window) suffers the same gaps and does worse for the hot flows than MVCM" "gaps; worse" "hot latency MVCM $(r0 "$a"), PI $(r0 "$c"); least busy bin MVCM $a2, PI $c2" \
  "$(fid_true "$c > 1.02 * $a && $c2 < 0.5")" "$(cmd $N5 --cmm pi)" "hot_latency_mean_cycles, hot_link_util_min_frac. $(why "$(fid_true "$c > 1.02 * $a && $c2 < 0.5")" "PI shows the gaps; but ibcc's MVCM holds its hot sources longer (waiting slots up to 4^5 RTTmin) than PI's delays (at most 1 023 packet times, decaying every 10 us)")"
