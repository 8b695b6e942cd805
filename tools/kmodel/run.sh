#!/bin/sh
# tools/kmodel/run.sh: the second model of [K]'s network (kmodel.c, written
# from [K]'s text alone, without ibcc.h) beside ibcc (docs/scenario_wormhole.md,
# "A second model"). Built by `make kmodel`; run from the repository root.
#   run.sh agree        one message trace through both models on a two-switch
#                       network: every message's first byte out, last head in
#                       and last byte in must be equal (seconds; `make
#                       kmodel-agree`, part of `make test`)
#   run.sh fig8 [OPTS]  high-priority [K] delay against the segment length,
#                       3x3 torus, load 0.2, slack 80 and 150 (minutes)
#   run.sh cut [OPTS]   section 3.3: unsegmented against 250-byte segments
#   run.sh fig11 [OPTS] the 5x5 torus at 0.065 per host
# OPTS go to kmodel (kmodel -h lists them; its defaults are ibcc's choices,
# e.g. -u pair for one route per switch pair, -o fifo for back-to-back
# segments). KTIME (ms, default 100) sets the simulated time per point,
# KJOBS (default 2) how many points run at once.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${BUILD:-build}
K=$B/kmodel
R=${IBCC_NICE:-nice -n 10}
T=${KTIME:-100}
[ -x "$K" ] || { echo "run.sh: build $K first (make kmodel)" >&2; exit 2; }
what=${1:-}
[ $# -gt 0 ] && shift

# points SEGS ARGS...: one kmodel run per segment length, two at a time;
# prints "seg:kdelay_high" (us) in the order given
points() {
  segs=$1; shift
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/kmodel.XXXXXX") || exit 1
  n=$(echo "$segs" | tr , '\n' | wc -l)
  i=0
  for s in $(echo "$segs" | tr , ' '); do
    i=$((i + 1))
    v=$s; [ "$s" = adaptive ] && v=-1; [ "$s" = whole ] && v=0
    echo "$i $v"
  done | xargs -P "${KJOBS:-2}" -n 2 sh -c '$0 -s "$2" '"$*"' > "'"$tmp"'/$1.csv"' "$R $K"
  j=1; out=""
  while [ $j -le "$n" ]; do
    out="$out $(awk -F, '{ printf "%s:%.2f", $3, $5 }' "$tmp/$j.csv" 2>/dev/null)"
    j=$((j + 1))
  done
  rm -rf "$tmp"
  echo "${out# }"
}

case $what in
agree)
  A=$B/kmodel_agree
  [ -x "$A" ] || { echo "run.sh: build $A first (make kmodel)" >&2; exit 2; }
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/kmodel.XXXXXX") || exit 1
  trap 'rm -rf "$tmp"' EXIT INT TERM
  # (kmodel: the 2x2 torus, one route per switch pair, so one link each
  # way between switches 0 and 1)
  # 1500 messages among the 8 hosts, Poisson (mean gap 150 byte times: the
  # link between the switches runs saturated), exponential lengths of mean
  # 300 bytes, 30% high priority
  awk 'BEGIN { srand(7); t = 0
    for (i = 0; i < 1500; i++) {
      t += -150 * log(1 - rand()); s = int(8 * rand()); d = int(7 * rand()); if (d >= s) d++
      p = rand() < 0.3; l = int(-300 * log(1 - rand())) + 1
      printf "%d %d %d %d %d\n", t, s, d, p, l } }' > "$tmp/trace"
  bad=0
  for b in 80 150; do
    for s in 33 80 90 150 160 300; do
      "$A" "$s" "$tmp/trace" "$b" | sort > "$tmp/ibcc" || bad=1
      "$K" -n 2 -u pair -T "$tmp/trace" -s "$s" -b "$b" | grep '^msg' | sort > "$tmp/kmodel"
      n=$(wc -l < "$tmp/ibcc"); m=$(comm -12 "$tmp/ibcc" "$tmp/kmodel" | wc -l)
      echo "slack $b, segments $s: $m of $n messages identical"
      [ "$n" -eq 1500 ] && [ "$m" -eq "$n" ] || bad=1
    done
  done
  [ $bad = 0 ] && echo "agree: ok" || { echo "agree: the models differ" >&2; exit 1; }
  ;;
fig8)
  S8=33,50,80,90,110,150,160,170,250,300,310,450,600,800,whole
  echo "slack 80:  $(points $S8 -t $T "$@")"
  echo "slack 150: $(points $S8 -t $T -b 150 "$@")"
  ;;
cut)
  points whole,250 -t $T "$@"
  ;;
fig11)
  points 80,160,250,350,450,600,800,whole -n 5 -l 0.065 -t $T "$@"
  ;;
*)
  sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
