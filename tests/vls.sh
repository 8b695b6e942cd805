#!/bin/sh
# ibccsim's virtual-lane and service-level flags (custom: --vls, --sl2vl,
# --vlarb-high, --vlarb-low, --high-limit in OpenSM's value forms,
# --opensm-conf, --sl, --hot-sl, --background-sl, --victim-sl; twoswitch:
# --victim-sl, --vls; the scenario file's qos_* keys). Exact equalities
# where two settings must give the same run, refusals with their messages.
# Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
sim=$B/ibccsim
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL vls: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { echo "FAIL vls: $*"; fail=$((fail + 1)); }
# the two-switch victim through custom: locals and remotes on SL 0, the
# victim on SL 1 (default SL-to-VL: SL 1 on VL 1 once there are 2 VLs)
cu() { nice -n 10 "$sim" custom --topology twoswitch --time 20 --window 1 "$@"; }
vic() { cu "$@" | sed -n 's/.*class2 rate \([0-9.]*\).*/\1/p'; }

# one VL: the flags change nothing (same line as without them)
base=$(cu)
[ -n "$base" ] || no "custom twoswitch printed nothing"
[ "$(cu --victim-sl 1)" = "$base" ] && ok || no "--victim-sl 1 on one VL changed the run"
[ "$(cu --victim-sl 1 --vls 1)" = "$base" ] && ok || no "--vls 1 changed the run"
# two VLs, every SL on VL 0: the run of one VL
[ "$(cu --victim-sl 1 --vls 2 --sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0)" = "$base" ] && ok \
  || no "2 VLs with every SL on VL 0 differ from one VL"
# the victim on its own VL is no longer held behind the congested one:
# 0.036 of the reference rate on one VL, 0.67 on two (its window of 1
# packet per round trip bounds it); margins far from both
v1=$(vic --victim-sl 1); v2=$(vic --victim-sl 1 --vls 2)
awk -v a="$v1" -v b="$v2" 'BEGIN { exit !(a < 0.1 && b > 0.5) }' && ok \
  || no "victim one VL $v1 (want < 0.1), two VLs $v2 (want > 0.5)"
# an opensm.conf gives the same run as the flags in the same forms; its
# other options are skipped
cat > "$tmp/osm.conf" <<'X'
# a comment
cc_sw_cong_setting_threshold 0x0f
qos TRUE
qos_max_vls 2
qos_high_limit 0
qos_vlarb_high 0:0
qos_vlarb_low 0:1,1:3
qos_sl2vl 0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0
X
a=$(cu --victim-sl 1 --opensm-conf "$tmp/osm.conf")
b=$(cu --victim-sl 1 --vls 2 --high-limit 0 --vlarb-high 0:0 --vlarb-low 0:1,1:3 \
      --sl2vl 0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || no "--opensm-conf '$a' differs from the flags '$b'"
# VL arbitration on a host's port (examples/scenarios/custom_vlarb_2_1.ini):
# host 0 sends a greedy flow on SL 0 (VL 0) and a background at the full
# rate on SL 1 (VL 1) to host 1; low table 0:64,1:32 in 64-byte units
# sends 2 then 1 whole packets of 2068 bytes (33 units) a round, so the
# rates are 2:1 (measured 2.007); the swapped table gives 1:2
vla() { nice -n 10 "$sim" custom --topology mesh --x 2 --y 1 --traffic incast --hot-sources 1 \
  --background 1 --hot-sl 0 --background-sl 1 --vls 2 --vlarb-high 0:0 --vlarb-low "$1" --time 2 \
  | sed -n 's/.*class1 rate \([0-9.]*\).*class2 rate \([0-9.]*\).*/\1 \2/p'; }
r=$(vla 0:64,1:32); s=$(vla 0:32,1:64)
echo "$r $s" | awk '{ exit !(NF == 4 && $1 / $2 > 1.9 && $1 / $2 < 2.1 && $4 / $3 > 1.9 && $4 / $3 < 2.1) }' \
  && ok || no "VL arbitration 0:64,1:32 gives '$r', 0:32,1:64 gives '$s' (want 2:1 and 1:2)"
# a flag overrides the file's unprefixed value: qos_max_vls 2 -> --vls 1
e=$(cu --victim-sl 1 --opensm-conf "$tmp/osm.conf" --vls 1 --sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 \
      --vlarb-low 0:1 --vlarb-high 0:0)
[ "$e" = "$base" ] && ok || no "flags over --opensm-conf: '$e'"
# a scenario file takes OpenSM's names for the same settings
printf 'experiment = custom\ntopology = twoswitch\ntime = 20\nwindow = 1\nvictim-sl = 1\nqos_max_vls = 2\n' > "$tmp/s.scn"
[ "$(nice -n 10 "$sim" run "$tmp/s.scn")" = "$(cu --victim-sl 1 --vls 2)" ] && ok \
  || no "scenario file qos_max_vls = 2 differs from --vls 2"
# incast classes: the hot flows and the background on their SLs; on one VL
# the SLs change nothing
h0=$(nice -n 10 "$sim" custom --topology fattree --traffic incast --background 0.2 --time 0.5)
h1=$(nice -n 10 "$sim" custom --topology fattree --traffic incast --background 0.2 --time 0.5 \
       --hot-sl 3 --background-sl 5 --sl 7)
[ -n "$h0" ] && [ "$h0" = "$h1" ] && ok || no "SLs on one VL changed the incast run"
h2=$(nice -n 10 "$sim" custom --topology fattree --traffic incast --background 0.2 --time 0.5 \
       --hot-sl 0 --background-sl 1 --vls 2)
[ -n "$h2" ] && [ "$h2" != "$h0" ] && ok || no "the background on its own VL changed nothing"

# params.csv keeps a flag given at its zero over a file's value: VL 0 in
# the high table without limit (the file's qos_high_limit 255) starves the
# background on VL 1; --high-limit 0 lets one packet of VL 0 go per turn
# and the background gets half; `ibccsim run params.csv` must give each
# run again (the zero was once left out, and the file's 255 came back)
printf 'qos TRUE\nqos_max_vls 2\nqos_high_limit 255\nqos_vlarb_high 0:4\nqos_vlarb_low 1:4\n' > "$tmp/hl.conf"
hl() { rm -f "$tmp/hl_params.csv"
  nice -n 10 "$sim" custom --topology mesh --x 2 --y 1 --traffic incast --hot-sources 1 --background 1 \
    --hot-sl 0 --background-sl 1 --opensm-conf "$tmp/hl.conf" --time 1 --quiet --summary "$tmp/hl.csv" "$@" &&
  nice -n 10 "$sim" run "$tmp/hl_params.csv" --quiet --summary "$tmp/hl2.csv" && cmp -s "$tmp/hl.csv" "$tmp/hl2.csv" &&
  sed -n "s/^class2_links,//p" "$tmp/hl.csv"; }
h255=$(hl); h0=$(hl --high-limit 0)
awk -v a="$h255" -v b="$h0" 'BEGIN { exit !(a != "" && b != "" && a < 0.01 && b > 0.4) }' && \
  grep -qx 'high-limit,0' "$tmp/hl_params.csv" && ok \
  || no "params.csv and --high-limit 0 over a file: background $h255 (file), $h0 (flag)"
# refusals: exit 2 and the message
refuse() { # description expected-stderr-text args...
  d=$1; w=$2; shift 2
  "$sim" custom --topology twoswitch --time 1 "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
  if [ "$rc" -ne 0 ] && grep -qF -- "$w" "$tmp/err"; then ok
  else no "$d: exit $rc, stderr: $(cat "$tmp/err")"; fi
}
refuse "--vls 5" "--vls 5: a port has 1, 2, 4, 8 or 15 data VLs" --vls 5
refuse "short sl2vl" "--sl2vl 0,1: text could not be parsed (OpenSM's qos_sl2vl)" --sl2vl 0,1
refuse "weight 300" "--vlarb-low 0:300: a parameter is outside its documented range" --vlarb-low 0:300
refuse "VL beyond qos_max_vls" "--sl2vl 0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0: a parameter is outside" \
  --vls 2 --sl2vl 0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0
refuse "high limit 256" "--high-limit" --high-limit 256
refuse "--hot-sl on victim traffic" "--hot-sl applies only to traffic = incast or hotspot" --hot-sl 1
refuse "--victim-sl 16" "--victim-sl" --victim-sl 16
refuse "an SL dropped" "SL 0: host node 13's SL-to-VL drops it (VL 15)" \
  --vls 2 --sl2vl 15,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
printf '# x\nqos_max_vls 3\n' > "$tmp/bad.conf"
refuse "bad opensm.conf" "$tmp/bad.conf:2: a parameter is outside its documented range" \
  --opensm-conf "$tmp/bad.conf"
refuse "missing opensm.conf" "$tmp/none.conf" --opensm-conf "$tmp/none.conf"

# the victim table of docs/fabric.md "A victim on its own SL" (the runs of
# make figures' vl_victim): the two-switch scenario, victim on SL 1. The
# runs draw no random numbers, so the values are exact; the ordering is
# the claim: one VL 0.041 (behind the incast's packets, [S02]'s run 1),
# one VL + IBA CC 0.391, two VLs 0.673 (its ideal 0.714 less the
# alternation with VL 0 at A's output; 0.908 alone, its window of one)
vt() { nice -n 10 "$sim" twoswitch --local 10 --remote 10 --buffer 4 --window 1 --victim-sl 1 "$@" \
  --time 100 --victim-from 40 --victim-to 60 | awk '$1 == "victim_share_isl" { print $2 }'; }
t1=$(vt --vls 1); t2=$(vt --vls 2); t3=$(vt --vls 1 --marking iba)
[ "$t1 $t3 $t2" = "0.041 0.391 0.673" ] && ok || no "victim table: one VL $t1, IBA CC $t3, two VLs $t2 (want 0.041 0.391 0.673)"
awk -v a="$t1" -v b="$t3" -v c="$t2" 'BEGIN { exit !(a < b / 4 && b < c / 1.5) }' && ok \
  || no "victim ordering: one VL $t1 < IBA CC $t3 < two VLs $t2 with margins"

# the prose beside the table: alone (before the remotes start) 0.908;
# latencies 2.163 us alone and 2.956 us beside VL 0; with IBA CC remote
# 0.459 of the root and 0.027 of the victim's packets marked; VL 1 in the
# high table without limit changes nothing (custom, the same fabric)
al=$(nice -n 10 "$sim" twoswitch --victim-sl 1 --vls 2 --victim-from 0 --victim-to 0.95 \
       --measure-from 0.05 --time 1 --summary "$tmp/al.csv" --quiet; \
     awk -F, '$1 == "victim_share_isl_frac" || $1 == "latency_victim_us" { printf "%s ", $2 }' "$tmp/al.csv")
nice -n 10 "$sim" twoswitch --local 10 --remote 10 --buffer 4 --window 1 --victim-sl 1 --vls 2 \
  --time 100 --victim-from 40 --victim-to 60 --quiet --summary "$tmp/two.csv"
nice -n 10 "$sim" twoswitch --local 10 --remote 10 --buffer 4 --window 1 --victim-sl 1 --vls 1 \
  --marking iba --time 100 --victim-from 40 --victim-to 60 --quiet --summary "$tmp/iba.csv"
l2=$(awk -F, '$1 == "latency_victim_us" { print $2 }' "$tmp/two.csv")
ib=$(awk -F, '$1 == "remote_share_root_frac" || $1 == "marked_victim_frac" { printf "%.3f ", $2 }' "$tmp/iba.csv")
[ "$al" = "0.907728 2.163 " ] && [ "$l2" = "2.956" ] && [ "$ib" = "0.459 0.027 " ] && ok \
  || no "victim prose: alone '$al' (0.907728 2.163), latency '$l2' (2.956), IBA '$ib' (0.459 0.027)"
hp=$(cu --victim-sl 1 --vls 2 --sl2vl 0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --vlarb-high 1:255 --vlarb-low 0:4 \
       --high-limit 255 | sed -n 's/.*class2 rate \([0-9.]*\).*/\1/p')
[ "$hp" = "$v2" ] && ok || no "VL 1 high priority: victim $hp, default tables $v2"

# twoswitch: --victim-sl with --vls
t0=$(nice -n 10 "$sim" twoswitch --time 70 | grep victim_share_isl)
t1=$(nice -n 10 "$sim" twoswitch --time 70 --victim-sl 1 | grep victim_share_isl)
t2=$(nice -n 10 "$sim" twoswitch --time 70 --victim-sl 1 --vls 2 | awk '$1 == "victim_share_isl" { print $2 }')
[ -n "$t0" ] && [ "$t0" = "$t1" ] && ok || no "twoswitch --victim-sl on one VL: '$t0' vs '$t1'"
awk -v x="$t2" 'BEGIN { exit !(x > 0.5) }' && ok || no "twoswitch victim on VL 1: share $t2 (want > 0.5)"
if "$sim" twoswitch --vls 3 > /dev/null 2> "$tmp/err"; then no "twoswitch --vls 3 accepted"
elif grep -q "vls 3: a port has 1, 2, 4, 8 or 15" "$tmp/err"; then ok
else no "twoswitch --vls 3: $(cat "$tmp/err")"; fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
