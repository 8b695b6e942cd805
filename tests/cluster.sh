#!/bin/sh
# docs/cluster.md, "Simulate your own cluster": every ```sh block of the
# page runs, in order, in one shell in a fresh folder (IBCC = this
# checkout, its build/ first on PATH), and the ```text block right after
# a ```sh block lists lines that block must print (each one exactly, in
# any order). Then: the folder the page made, copied elsewhere, runs the
# same with its relative paths; results never go to the working
# directory; a study that fails writes no study.csv; the numbers the prose
# quotes; the two-switch victim as blocks; the runner on a builder and its
# refusals.
# Prints RESULT <passed> <failed> for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
B=${BUILD:-build}
case $B in /*) bin=$B ;; *) bin=$root/$B ;; esac
pass=0; fail=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL cluster: $1"; fail=$((fail + 1)); }
if [ ! -x "$bin/ibccsim" ]; then
  echo "FAIL cluster: $bin/ibccsim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT; [ -n "$KEEP" ] && echo "kept $tmp"
# split the page: block-N.sh and, when a text block follows, block-N.want
awk -v dir="$tmp" '
  /^```sh$/ { n++; f = dir "/block-" n ".sh"; inb = 1; last = "sh"; next }
  /^```text$/ { if (last == "sh") { f = dir "/block-" n ".want"; inb = 1 } else f = ""; last = "text"; next }
  /^```/ { inb = 0; if ($0 != "```") last = ""; next }
  inb && f != "" { print > f; next }
  !inb && NF { last = "" }
' docs/cluster.md
n=$(ls "$tmp"/block-*.sh 2>/dev/null | wc -l)
[ "$n" -ge 7 ] && ok || no "docs/cluster.md has $n sh blocks, expected at least 7"
have_gnuplot=0; command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1
# one shell for the whole page, so that cd carries over: each block's
# stdout into out-N
{
  echo 'set -e'
  echo "IBCC='$root'; export IBCC; PATH='$bin':\$PATH; export PATH"
  echo "cd '$tmp/work'"
  i=1
  while [ "$i" -le "$n" ]; do
    if [ "$have_gnuplot" = 0 ] && grep -q '^gnuplot ' "$tmp/block-$i.sh"; then
      echo "echo skipped > '$tmp/out-$i'"
    else
      echo "{"; cat "$tmp/block-$i.sh"; echo "} > '$tmp/out-$i'"
    fi
    i=$((i + 1))
  done
} > "$tmp/page.sh"
mkdir "$tmp/work"
if sh "$tmp/page.sh" > "$tmp/page.log" 2>&1; then ok
else no "the page's commands failed: $(tail -n 5 "$tmp/page.log")"; fi
i=1
while [ "$i" -le "$n" ]; do
  if [ -f "$tmp/block-$i.want" ]; then
    missing=$(grep -v '^$' "$tmp/block-$i.want" | while IFS= read -r line; do
      grep -qxF -- "$line" "$tmp/out-$i" 2>/dev/null || printf '%s\n' "$line"; done)
    if [ -z "$missing" ]; then ok
    else no "block $i ($(head -n 1 "$tmp/block-$i.sh")) no longer prints: $missing"; fi
  fi
  i=$((i + 1))
done
w=$tmp/work/mycluster
for f in results/summary.csv results/series.csv results/params.csv \
         results-cc-off/summary.csv study/study.csv study/point-008/params.csv; do
  [ -s "$w/$f" ] && ok || no "the page wrote no $f"
done
[ "$have_gnuplot" = 0 ] || { [ -s "$w/series.png" ] && ok || no "no series.png"; }
# the notes list the options not modelled, once each
grep -q 'opensm.conf options not modelled (118): guid, m_key' "$w/notes.txt" && ok \
  || no "notes.txt: $(head -c 200 "$w/notes.txt")"
# series: time_us first, one column per block; params: OpenSM's names
head -n 1 "$w/results/series.csv" | grep -qx 'time_us,incast_gbps,background_gbps' && ok \
  || no "series.csv header: $(head -n 1 "$w/results/series.csv")"
grep -qx 'cc_ca_cong_setting_ccti_timer_sl0,150' "$w/results/params.csv" \
  && grep -qx 'cc_sw_cong_setting_threshold,0xf' "$w/results/params.csv" \
  && grep -qx 'congestion_control,TRUE' "$w/results/params.csv" \
  && grep -qx 'congestion_control,FALSE' "$w/results-cc-off/params.csv" && ok \
  || no "params.csv lacks the CC settings"
grep -qx 'cc_sw_cong_setting_threshold,0xc' "$w/study/point-004/params.csv" \
  && grep -qx 'cc_ca_cong_setting_ccti_timer_sl5,150' "$w/study/point-004/params.csv" && ok \
  || no "point 4's params.csv"
# the folder copied elsewhere runs there, results beside the file, not
# in the working directory
mkdir -p "$tmp/elsewhere/deep" "$tmp/cwd"
cp -r "$w" "$tmp/elsewhere/deep/copy"
rm -rf "$tmp/elsewhere/deep/copy/results"
if (cd "$tmp/cwd" && "$bin/ibccsim" run ../elsewhere/deep/copy/cluster.ini > out.txt 2>/dev/null) \
   && cmp -s "$tmp/elsewhere/deep/copy/results/summary.csv" "$w/results/summary.csv" \
   && [ -z "$(ls "$tmp/cwd" | grep -v '^out.txt$')" ]; then ok
else no "a copied folder does not run the same from another working directory"; fi
# the CA's Control_Map: SL 0 left out means the sources do not react
c=$tmp/elsewhere/deep/copy
if (cd "$tmp/cwd" && "$bin/ibccsim" run "$c/cluster.ini" sm.cc_ca_cong_setting_control_map=0x0000 \
      output.directory=cm0 > /dev/null 2> "$tmp/e4"); then
  p99=$(awk -F, '$1 == "background" { print $8 }' "$c/cm0/summary.csv")
  grep -q 'control_map 0x0 leaves the SLs 0x1 of the traffic out' "$tmp/e4" \
    && awk -v x="$p99" 'BEGIN { exit !(x > 100) }' && ok \
    || no "control_map 0: background p99 $p99 us, $(tail -n 1 "$tmp/e4")"
else no "the control_map 0 run failed"; fi
# a block's SL: the incast on SL 1 with only SL 0 enabled in the CA's
# Control_Map runs as with CC off (the page's 32.007 Gb/s), the note
# names SL 1
if (cd "$tmp/cwd" && "$bin/ibccsim" run "$c/cluster.ini" traffic.incast.sl=1 \
      sm.cc_ca_cong_setting_control_map=0x0001 output.directory=sl1 > /dev/null 2> "$tmp/e5"); then
  g=$(awk -F, '$1 == "incast" { print $5 }' "$c/sl1/summary.csv")
  grep -q 'control_map 0x1 leaves the SLs 0x2 of the traffic out' "$tmp/e5" \
    && [ "$g" = "32.007125" ] && ok || no "incast on SL 1: $g Gb/s, $(tail -n 1 "$tmp/e5")"
else no "the SL 1 run failed"; fi
if "$bin/ibccsim" run "$c/cluster.ini" traffic.incast.sl=16 output.directory=sl16 > /dev/null 2> "$tmp/e6"; then
  no "sl = 16 accepted"
elif grep -q "bad value '16' for --sl: an integer 0..15" "$tmp/e6"; then ok; else no "sl = 16: $(cat "$tmp/e6")"; fi
# --list from another folder: its first command, run as printed, writes
# where the study would
if (cd "$tmp/cwd" && "$bin/ibccsim" run ../elsewhere/deep/copy/cluster.ini 'run.seed={1,2}' \
      --list > list.txt 2>/dev/null && head -n 1 list.txt | sed 's/^ibccsim /"$1" /' > one.sh \
    && sh one.sh "$bin/ibccsim" --quiet > /dev/null 2>&1) \
   && [ -s "$tmp/elsewhere/deep/copy/results/point-000/summary.csv" ]; then ok
else no "a --list command does not write where the study would: $(head -n 1 "$tmp/cwd/list.txt")"; fi
# the shipped example runs from the repository root
if (cd "$tmp/cwd" && "$bin/ibccsim" run "$root/examples/cluster/cluster.ini" \
      output.directory="$tmp/shipped" --quiet 2>/dev/null) \
   && cmp -s "$tmp/shipped/summary.csv" "$w/results/summary.csv"; then ok
else no "examples/cluster/cluster.ini differs from the page's run"; fi
# bad input: a missing conf, an unknown key with its line, a bad override,
# a study whose points fail
c=$tmp/elsewhere/deep/copy
sed 's/^opensm_conf = opensm.conf/opensm_conf = nothere.conf/' "$c/cluster.ini" > "$c/bad1.ini"
"$bin/ibccsim" run "$c/bad1.ini" > /dev/null 2> "$tmp/e1" && no "a missing opensm.conf ran" \
  || { grep -q 'nothere.conf: No such file' "$tmp/e1" && ok || no "missing conf: $(cat "$tmp/e1")"; }
printf '[run]\ntimme = 2\n' >> "$c/bad1.ini"
sed 's/^time = 2 /timme = 2 /' "$c/cluster.ini" > "$c/bad2.ini"
"$bin/ibccsim" run "$c/bad2.ini" > /dev/null 2> "$tmp/e2" && no "a misspelt key ran" \
  || { grep -q "bad2.ini:$(grep -n '^timme' "$c/bad2.ini" | cut -d: -f1): .*did you mean --time" "$tmp/e2" && ok \
       || no "misspelt key: $(cat "$tmp/e2")"; }
"$bin/ibccsim" run "$c/cluster.ini" traffic.incast.load=2 > /dev/null 2> "$tmp/e3" && no "load 2 ran" \
  || { grep -q "bad value '2' for --load" "$tmp/e3" && ok || no "load 2: $(cat "$tmp/e3")"; }
"$bin/ibccsim" run "$c/cluster.ini" 'run.warmup={0.5,3}' output.directory=badstudy > /dev/null 2>&1 \
  && no "a study with a failing point succeeded" \
  || { [ ! -e "$c/badstudy/study.csv" ] && ok || no "a failed study left study.csv"; }
# a result folder re-runs from its own scenario.ini, to the same bytes
cp "$w/results/summary.csv" "$tmp/sum-before.csv"
if (cd "$tmp/cwd" && "$bin/ibccsim" run "$w/results/scenario.ini" --quiet 2>/dev/null) \
   && cmp -s "$tmp/sum-before.csv" "$w/results/summary.csv" \
   && grep -qx 'directory = \.' "$w/results/scenario.ini" \
   && grep -q "^ibdiagnet = /" "$w/results/scenario.ini"; then ok
else no "results/scenario.ini does not re-run the same"; fi
grep -qx 'cc_sw_cong_setting_threshold = 12' "$w/study/point-004/scenario.ini" && ok \
  || no "a point's scenario.ini lacks its list items"
# the numbers the page's prose quotes, from the runs above
says() {  # TEXT: docs/cluster.md contains it (line breaks as blanks)
  if SAYS_TEXT=$1 awk 'BEGIN { t = ENVIRON["SAYS_TEXT"] } { buf = buf " " $0 }
       END { gsub(/[ \t]+/, " ", buf); exit !index(buf, t) }' docs/cluster.md; then ok
  else no "docs/cluster.md should say '$1'"; fi
}
col() { awk -F, -v c="$2" -v k="$3" '$1 == c { print $k }' "$1"; }
on=$w/results/summary.csv; off=$w/results-cc-off/summary.csv
says "throughput, $(awk -v x="$(col "$on" incast 5)" 'BEGIN { printf "%.1f", x }') Gb/s instead of $(awk -v x="$(col "$off" incast 5)" 'BEGIN { printf "%.0f", x }')"
says "packets ($(awk -v x="$(col "$on" incast 9)" 'BEGIN { printf "%.1f", 100 * x }')% of them)"
says "($(awk -v x="$(col "$off" background 5)" 'BEGIN { printf "%.1f", x }') of the $(awk -v x="$(col "$on" background 5)" 'BEGIN { printf "%.0f", x }') Gb/s it offers)"
says "grows from $(awk -v x="$(col "$on" background 8)" 'BEGIN { printf "%.0f", x }') us to $(awk -v x="$(col "$off" background 8)" 'BEGIN { printf "%.1f", x / 1000 }') ms"
# the two-switch victim scenario as blocks: without CC the victim gets
# almost nothing, with CC (IBA marking, CCT sources) many times more
if (cd "$tmp/cwd" && "$bin/ibccsim" run "$root/examples/cluster/twoswitch.ini" \
      output.directory="$tmp/ts-off" --quiet 2>/dev/null \
    && "$bin/ibccsim" run "$root/examples/cluster/twoswitch.ini" sm.congestion_control=TRUE \
      output.directory="$tmp/ts-on" --quiet 2>/dev/null); then
  off=$(awk -F, '$1 == "victim" { print $6 }' "$tmp/ts-off/summary.csv")
  on=$(awk -F, '$1 == "victim" { print $6 }' "$tmp/ts-on/summary.csv")
  awk -v a="$off" -v b="$on" 'BEGIN { exit !(a < 0.05 && b > 10 * a) }' && ok \
    || no "two-switch victim: per-source share $off without CC, $on with"
else no "examples/cluster/twoswitch.ini failed"; fi
# the runner on a builder: every pattern, exact counts where exact
b=$tmp/builder
mkdir -p "$b"
cat > "$b/b.ini" <<'INI'
[fabric]
topology = fattree
k = 2
n = 2
[traffic all]
pattern = uniform
load = 0.5
[traffic hot]
pattern = hotspot
src = 0-2
dst = 3
load = 0.2
packets = 100
[traffic perm]
pattern = permutation
src = 0-3
start = 0.5
stop = 0.6
[run]
time = 2
warmup = 0.001
INI
if (cd "$tmp/cwd" && "$bin/ibccsim" run "$b/b.ini" --quiet); then
  s=$b/results/summary.csv
  # 4 hosts all-to-all: 12 flows, each source offers 0.5 of the link
  # (Poisson, 2 ms: within 10%); the hot spot delivers all 3 x 100
  # packets; the permutation is 4 flows
  awk -F, '$1 == "all" && $2 == 12 && $3 == 4 && $6 > 0.45 && $6 < 0.55 { f = 1 } END { exit !f }' "$s" && ok \
    || no "uniform block: $(grep '^all,' "$s")"
  awk -F, '$1 == "hot" && $2 == 3 && $4 == 300 { f = 1 } END { exit !f }' "$s" && ok \
    || no "hotspot block: $(grep '^hot,' "$s")"
  awk -F, '$1 == "perm" && $2 == 4 && $3 == 4 && $4 > 0 { f = 1 } END { exit !f }' "$s" && ok \
    || no "permutation block: $(grep '^perm,' "$s")"
  head -n 1 "$b/results/series.csv" | grep -qx 'time_us,all_gbps,hot_gbps,perm_gbps' && ok \
    || no "builder series header"
else no "the builder scenario failed"; fi
# refusals, each naming what is wrong
refuse() {  # NAME ARGS... ; the message must contain $want
  if "$bin/ibccsim" run "$@" > /dev/null 2> "$tmp/err"; then no "$name ran"
  elif grep -qF -- "$want" "$tmp/err"; then ok
  else no "$name: $(head -c 300 "$tmp/err")"; fi
}
name="a host name on a builder"; want="a built fabric's hosts are numbers 0..3"
refuse "$b/b.ini" 'traffic.hot.src=node01'
name="incast to two hosts"; want="incast has one destination"
refuse "$b/b.ini" 'traffic.hot.pattern=incast' 'traffic.hot.dst=2,3'
name="a host out of range"; want="host 4: the hosts are 0..3"
refuse "$b/b.ini" 'traffic.all.src=0,4'
name="no traffic block"; want="no [traffic c]"
refuse "$b/b.ini" 'traffic.c.load=1'
name="a block that starts after the run"; want="starts at 3 ms, after the run"
refuse "$b/b.ini" 'traffic.perm.start=3' 'traffic.perm.stop=4'
name="topology and a fabric file"; want="both topology and a fabric file"
refuse "$b/b.ini" "fabric.ibnetdiscover=$root/examples/fabrics/fattree.topo"
i=0; : > "$b/many.ini"
printf '[fabric]\ntopology = fattree\n' >> "$b/many.ini"
while [ $i -lt 17 ]; do printf '[traffic t%d]\npattern = incast\n' $i >> "$b/many.ini"; i=$((i + 1)); done
name="17 traffic blocks"; want="more than 16 [traffic] blocks"
refuse "$b/many.ini"
printf '[fabric]\ntopology = fattree\n[traffc x]\n' > "$b/sec.ini"
name="a misspelt section"; want="sec.ini:3: unknown section [traffc x]"
refuse "$b/sec.ini"
name="a list of 65 items"; want="more than 64 items (refused, not cut)"
refuse "$b/b.ini" "run.seed={$(i=1; l=0; while [ $i -le 65 ]; do printf '%s%d' "$([ $i -gt 1 ] && echo ,)" $i; i=$((i + 1)); done)}"
# [sm]'s qos and qos_* keys give the ports' VLs as custom's --opensm-conf
# does: host 0 sends greedily to host 1 on SL 0 (block a) and SL 1 (b);
# with 2 VLs (OpenSM's SL-to-VL: SL s on VL s & 1) the low table
# 0:64,1:32 sends two 2068-byte packets of VL 0 per one of VL 1 (2:1),
# 0:32,1:64 the other way; qos FALSE: one VL, the two share alike; the
# same settings from an opensm_conf file give the same run
mkdir -p "$tmp/q"
cat > "$tmp/q/q.ini" <<'EOF2'
[fabric]
topology = mesh
x = 2
y = 1
[sm]
qos = TRUE
qos_max_vls = 2
qos_vlarb_high = 0:0
qos_vlarb_low = 0:64,1:32
[traffic a]
pattern = incast
src = 0
dst = 1
[traffic b]
pattern = incast
src = 0
dst = 1
sl = 1
[run]
time = 2
[output]
directory = out
EOF2
ab() { "$bin/ibccsim" run "$tmp/q/q.ini" "$@" 2>&1 | sed -n 's/.*; a \([0-9.]*\) Gb.*; b \([0-9.]*\) Gb.*/\1 \2/p'; }
r1=$(ab); r2=$(ab sm.qos_vlarb_low=0:32,1:64); r0=$(ab sm.qos=FALSE)
echo "$r1 $r2 $r0" | awk '{ exit !(NF == 6 && $1 / $2 > 1.9 && $1 / $2 < 2.1 && $4 / $3 > 1.9 \
  && $4 / $3 < 2.1 && $5 / $6 > 0.95 && $5 / $6 < 1.05) }' && ok \
  || no "[sm] qos: 0:64,1:32 gives '$r1', 0:32,1:64 '$r2', qos FALSE '$r0' (want 2:1, 1:2, 1:1)"
printf 'qos TRUE\nqos_max_vls 2\nqos_vlarb_high 0:0\nqos_vlarb_low 0:64,1:32\nqos_policy_file /x\n' > "$tmp/q/osm.conf"
sed -e '/^qos/d' -e 's/^\[sm\]/[sm]\nopensm_conf = osm.conf/' "$tmp/q/q.ini" > "$tmp/q/q2.ini"
a=$("$bin/ibccsim" run "$tmp/q/q.ini" 2> /dev/null); c=$("$bin/ibccsim" run "$tmp/q/q2.ini" 2> "$tmp/q/err")
[ -n "$a" ] && [ "$a" = "$c" ] && ok || no "[sm] opensm_conf '$c' differs from the [sm] keys '$a'"
grep -q 'not modelled (1): qos_policy_file$' "$tmp/q/err" && ok || no "qos_policy_file: $(cat "$tmp/q/err")"
name="[sm] qos_max_vls 3"; want="q.ini:7: qos_max_vls = 3: "
refuse "$tmp/q/q.ini" sm.qos_max_vls=3
name="[sm] qos_policy_file"; want="unknown key qos_policy_file in [sm]"
refuse "$tmp/q/q.ini" sm.qos_policy_file=x
# [fabric] builds a dragonfly as custom and fabric-check do (one builder
# function): the checked fabric is fabric-check's (8 LIDs per host with
# Valiant), routing and dlid reach the run (a permutation's throughput
# moves with them), and the refusals are custom's words
mkdir -p "$tmp/d"
printf '[fabric]\ntopology = dragonfly\nrouting = valiant\n[traffic u]\npattern = permutation\nload = 0.5\n[run]\ntime = 1\n[output]\ndirectory = out\n' > "$tmp/d/d.ini"
c=$("$bin/ibccsim" run "$tmp/d/d.ini" --check 2>&1)
f=$("$bin/ibccsim" fabric-check --topology dragonfly --routing valiant 2>&1 | sed 's/ credit_loops.*//')
[ "$c" = "hosts=72 switches=36 links=162 routes_ok=40896" ] && [ "$c" = "$f" ] && ok \
  || no "[fabric] dragonfly --check: '$c', fabric-check: '$f'"
gb() { "$bin/ibccsim" run "$tmp/d/d.ini" "$@" 2> /dev/null | sed -n 's/.*; u \([0-9.]*\) Gb.*/\1/p'; }
v=$(gb); m=$(gb fabric.routing=minimal); rr=$(gb fabric.dlid=round-robin)
echo "$v $m $rr" | awk '{ exit !(NF == 3 && $1 != $2 && $1 != $3 && $2 > 0) }' && ok \
  || no "[fabric] dragonfly: valiant '$v', minimal '$m', round-robin LIDs '$rr' (want three runs that differ)"
name="a dragonfly SL over the routing's bits"; want="d.ini: SL 5: valiant routing takes SL bits 0..1 for its paths, leaving SLs 0..3"
refuse "$tmp/d/d.ini" traffic.u.sl=5
name="a dragonfly's dor"; want="d.ini: [fabric] routing = dor: a dragonfly takes minimal or valiant"
refuse "$tmp/d/d.ini" fabric.routing=dor
name="a dragonfly with [sm] qos"; want="[sm] qos settings would replace the dragonfly's SL-to-VL tables"
refuse "$tmp/d/d.ini" sm.qos=TRUE
name="dlid on a fat tree"; want="[fabric] dlid applies to topology = dragonfly"
refuse "$tmp/d/d.ini" fabric.topology=fattree fabric.routing=updown fabric.dlid=random
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
