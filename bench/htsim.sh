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
#
# With CC: htsim's EQDS model (htsim_eqds, its default composite queues)
# on the same network, permutation and packets, beside bench_scale's
# leafspine_1024 rows (input-triggered marking, LIPD, window 4). Both
# counted as data packet-hops only: htsim's from the packets each sink
# acknowledged cumulatively (its CAck) times the links of its path,
# ibcc's as leafspine_1024_hosts_data_hops_per_s (its hops x the data
# packets' share of the delivered packets: each data packet is
# acknowledged over as many links as it crossed). EQDS's control
# packets (pulls, ACKs every 16 KB, NACKs) are left out as ibcc's ACKs
# are. The two CC models differ: EQDS is receiver-driven (the receiver
# grants credit by pulls paced at its link rate, senders start with a
# speculative window), over switches that trim a packet to its header
# when a queue is full (lossy, retransmitting); ibcc's is InfiniBand CC
# on a lossless credit-based fabric (switches mark FECN at congested
# inputs, the destination returns BECN, the source lowers its rate by a
# law and raises it on a timer).
# Usage: sh bench/htsim.sh CSV   (appends rows; prints a table)
csv=${1:-${BUILD:-build}/bench.csv}
B=${BUILD:-build}
d=${HTSIM_DIR:-}
sim=$d/sim/datacenter/htsim_roce
eqds=$d/sim/datacenter/htsim_eqds
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

# one run of program $1 to $2 us, its sinks' log records of type $3
# (ROCE_SINK: field 9 = bytes acknowledged, counted with their ACKs;
# EQDS_SINK: field 9 = packets cumulatively acknowledged, data only):
# prints "cpu_seconds hops"
run() {
    log=$tmp/run.log
    ( cd "$tmp" && /usr/bin/time -p "$1" -topo ls.topo -tm perm.cm \
        -nodes 1024 -strat ecmp_host -paths 32 -end "$2" -mtu 2048 \
        -linkspeed 8000 -log sink -logtime 0.1 -o "$log" ) \
        > "$tmp/out" 2> "$tmp/err" || return 1
    cpu=$(awk '$1 == "user" || $1 == "sys" { s += $2 } END { print s }' \
          "$tmp/err")
    # sink id -> links of its path, from the names in the log
    # (Roce_sink_SRC_DST=ID, Eqds_sink_SRC_DST=ID), then the last
    # acknowledged count per sink
    { tr -c '[:print:]' '\n' < "$log" | grep '^: [A-Za-z]*_sink_' \
        | sed 's/^: [A-Za-z]*_sink_\([0-9]*\)_\([0-9]*\)=\([0-9]*\)$/N \3 \1 \2/'
      "$po" "$log" -ascii 2>/dev/null | awk -v ty="$3" '$3 == ty {
          print "A", $5, $9 }'; } | awk -v cpu="$cpu" -v ty="$3" '
        $1 == "N" { links[$2] = (int($3 / 32) == int($4 / 32)) ? 2 : 4 }
        $1 == "A" { if ($3 > ack[$2]) ack[$2] = $3 }
        END { for (s in ack) {
                  if (ty == "ROCE_SINK") h += ack[s] / 2048 * links[s] * 2
                  else h += ack[s] * links[s]
              }
              printf "%s %.0f\n", cpu, h }'
}

# rows PROGRAM TYPE NAME: median of 3 (600 us - 200 us) figures, its row
rows() {
    rs=""
    for r in 1 2 3; do
        a=$(run "$1" 200 "$2") || { echo "htsim peer: $1 failed" >&2; exit 1; }
        b=$(run "$1" 600 "$2") || { echo "htsim peer: $1 failed" >&2; exit 1; }
        v=$(echo "$a $b" | awk '{ if ($3 > $1 && $4 > $2) printf "%.6g", ($4 - $2) / ($3 - $1) }')
        [ -n "$v" ] || { echo "htsim peer: no hops counted" >&2; exit 1; }
        rs="$rs $v"
    done
    med=$(echo $rs | tr ' ' '\n' | sort -g | sed -n 2p)
    lo=$(echo $rs | tr ' ' '\n' | sort -g | sed -n 1p)
    hi=$(echo $rs | tr ' ' '\n' | sort -g | sed -n 3p)
    printf "  %-52s %14.3f %s\n" "$3" "$med" hops/s
    echo "$3,$med,hops/s,$lo,$hi" >> "$csv"
}

# ratio IBCC_ROW HTSIM_ROW NAME
ratio() {
    ib=$(awk -F, -v n="$1" '$1 == n { v = $2 } END { print v }' "$csv")
    ht=$(awk -F, -v n="$2" '$1 == n { v = $2 } END { print v }' "$csv")
    [ -n "$ib" ] && [ -n "$ht" ] || return 0
    q=$(awk -v a="$ib" -v b="$ht" 'BEGIN { printf "%.3f", a / b }')
    printf "  %-52s %14.3f %s\n" "$3" "$q" ratio
    echo "$3,$q,ratio,$q,$q" >> "$csv"
}

printf "htsim peer: leaf-spine 1024 hosts, permutation, no CC (RoCE, PFC)\n"
rows "$sim" ROCE_SINK htsim_roce_leafspine_1024_hosts_hops_per_s
ratio leafspine_nocc_1024_hosts_hops_per_s \
      htsim_roce_leafspine_1024_hosts_hops_per_s \
      ratio_ibcc_over_htsim_leafspine_1024_nocc
if [ -x "$eqds" ]; then
    printf "htsim peer: the same with CC (EQDS), data packet-hops\n"
    rows "$eqds" EQDS_SINK htsim_eqds_leafspine_1024_hosts_data_hops_per_s
    ratio leafspine_1024_hosts_data_hops_per_s \
          htsim_eqds_leafspine_1024_hosts_data_hops_per_s \
          ratio_ibcc_over_htsim_leafspine_1024_cc
else
    echo "htsim peer: htsim_eqds not built: no comparison with CC"
fi
