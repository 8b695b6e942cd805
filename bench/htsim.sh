#!/bin/sh
# Optional peer: csg-htsim (htsim, Broadcom's packet-level data-centre
# simulator, public on GitHub) on the network and traffic of the
# leafspine_nocc_1024_hosts rows of bench_scale: a leaf-spine of 32
# leaves of 32 hosts and 32 spines, 1 GB/s (8 Gb/s) links, 5 ns per link,
# 40 ns per switch, 2048-byte packets, the same random permutation of
# long flows (bench_scale --htsim-cm 32 writes it), no congestion
# control: htsim's RoCE model (lossless, PFC) with ECMP on the flow's
# hash. Nothing here downloads or builds it: set HTSIM_DIR to a checkout
# whose sim/ is built (make -C "$HTSIM_DIR/sim"); skipped cleanly
# otherwise (make bench and CI run without it).
#
# Figure: packet-hops per CPU second (user + sys of the process), from
# two runs of 200 and 600 us simulated (the difference excludes set-up,
# as bench_scale times the run alone); hops = link transmissions of data
# packets and of their ACKs (RoCE acknowledges every packet, over the
# same number of links), counted from the bytes each sink acknowledged
# (its logger, read with htsim's parse_output) times the links of its
# path (2 within a leaf, 4 across a spine) times 2. Median of 3.
# Usage: sh bench/htsim.sh CSV   (appends rows; prints a table)
csv=${1:-${BUILD:-build}/bench.csv}
B=${BUILD:-build}
d=${HTSIM_DIR:-}
sim=$d/sim/datacenter/htsim_roce
po=$d/sim/parse_output
if [ -z "$d" ] || [ ! -x "$sim" ] || [ ! -x "$po" ]; then
    echo "htsim peer: skipped (set HTSIM_DIR to a built csg-htsim checkout)"
    exit 0
fi
if [ ! -x /usr/bin/time ]; then
    echo "htsim peer: skipped (no /usr/bin/time for the CPU time)"
    exit 0
fi
if [ ! -x "$B/bench_scale" ]; then
    echo "htsim peer: $B/bench_scale is not built" >&2
    exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$B/bench_scale" --htsim-cm 32 "$tmp/perm.cm" || exit 1
cat > "$tmp/ls.topo" <<'EOF'
Nodes 1024
Tiers 2
Podsize 1024

Tier 0
Downlink_speed_Gbps 8
Radix_Down 32
Radix_Up 32
Downlink_Latency_ns 5
Switch_Latency_ns 40

Tier 1
Downlink_speed_Gbps 8
Radix_Down 32
Downlink_Latency_ns 5
Switch_Latency_ns 40
EOF

# one run to $1 us: prints "cpu_seconds hops"
run() {
    log=$tmp/run.log
    ( cd "$tmp" && /usr/bin/time -p "$sim" -topo ls.topo -tm perm.cm \
        -nodes 1024 -strat ecmp_host -paths 32 -end "$1" -mtu 2048 \
        -linkspeed 8000 -log sink -logtime 0.1 -o "$log" ) \
        > "$tmp/out" 2> "$tmp/err" || return 1
    cpu=$(awk '$1 == "user" || $1 == "sys" { s += $2 } END { print s }' \
          "$tmp/err")
    # sink id -> links of its path, from the names in the log
    # (Roce_sink_SRC_DST=ID), then the last acknowledged bytes per sink
    { tr -c '[:print:]' '\n' < "$log" | grep '^: Roce_sink_' \
        | sed 's/^: Roce_sink_\([0-9]*\)_\([0-9]*\)=\([0-9]*\)$/N \3 \1 \2/'
      "$po" "$log" -ascii 2>/dev/null | awk '$3 == "ROCE_SINK" {
          print "A", $5, $9 }'; } | awk -v cpu="$cpu" '
        $1 == "N" { links[$2] = (int($3 / 32) == int($4 / 32)) ? 2 : 4 }
        $1 == "A" { if ($3 > ack[$2]) ack[$2] = $3 }
        END { for (s in ack) h += ack[s] / 2048 * links[s] * 2
              printf "%s %.0f\n", cpu, h }'
}

rows=""
for r in 1 2 3; do
    a=$(run 200) || { echo "htsim peer: htsim_roce failed" >&2; exit 1; }
    b=$(run 600) || { echo "htsim peer: htsim_roce failed" >&2; exit 1; }
    v=$(echo "$a $b" | awk '{ if ($3 > $1 && $4 > $2) printf "%.6g", ($4 - $2) / ($3 - $1) }')
    [ -n "$v" ] || { echo "htsim peer: no hops counted" >&2; exit 1; }
    rows="$rows $v"
done
med=$(echo $rows | tr ' ' '\n' | sort -g | sed -n 2p)
lo=$(echo $rows | tr ' ' '\n' | sort -g | sed -n 1p)
hi=$(echo $rows | tr ' ' '\n' | sort -g | sed -n 3p)
printf "htsim peer: leaf-spine 1024 hosts, permutation, no CC (RoCE, PFC)\n"
printf "  %-52s %14.3f %s\n" htsim_roce_leafspine_1024_hosts_hops_per_s "$med" hops/s
echo "htsim_roce_leafspine_1024_hosts_hops_per_s,$med,hops/s,$lo,$hi" >> "$csv"
ib=$(awk -F, '$1 == "leafspine_nocc_1024_hosts_hops_per_s" { v = $2 } END { print v }' "$csv")
if [ -n "$ib" ]; then
    ratio=$(awk -v a="$ib" -v b="$med" 'BEGIN { printf "%.3f", a / b }')
    printf "  %-52s %14.3f %s\n" ratio_ibcc_over_htsim_leafspine_1024_nocc "$ratio" ratio
    echo "ratio_ibcc_over_htsim_leafspine_1024_nocc,$ratio,ratio,$ratio,$ratio" >> "$csv"
fi
