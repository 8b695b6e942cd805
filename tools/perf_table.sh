#!/bin/sh
# Prints the README's performance table (markdown) from one `make bench`
# run: build/bench.csv (columns name,median,unit,min,max). Every figure is
# "median (min-max)" over the repetitions of that run; ratios are medians
# of the same run. Usage: sh tools/perf_table.sh [CSV]   (make perf-table)
csv=${1:-${BUILD:-build}/bench.csv}
if [ ! -s "$csv" ]; then
    echo "perf-table: $csv is missing; run 'make bench' first" >&2
    exit 1
fi
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
cc=$(${CC:-cc} --version 2>/dev/null | head -n 1)
day=$(date -r "$csv" +%Y-%m-%d 2>/dev/null || echo "an unknown day")
awk -F, -v day="$day" -v cpu="${cpu:-unknown CPU}" -v ncpu="$ncpu" -v cc="$cc" '
  NR > 1 && $3 != "events/s" { med[$1] = $2; lo[$1] = ($4 == "" ? $2 : $4); hi[$1] = ($5 == "" ? $2 : $5); unit[$1] = $3 }
  function f(name, d) {
    if (!(name in med)) return "n/a"
    return sprintf("%." d "f (%." d "f-%." d "f)", med[name], lo[name], hi[name])
  }
  function r(name) { return (name in med) ? sprintf("%.2f", med[name]) : "n/a" }
  END {
    printf "Measured with one `make bench` run on %s on %s (%s cores, %s, -O2).\n", day, cpu, ncpu, cc
    printf "Figures: median (min-max) over the repetitions of that run.\n\n"
    print "| hot path | cost |"
    print "|---|---|"
    printf "| marker arrive + depart, 64 ports: input-triggered / input-output / IBA / MVPM | %s / %s / %s / %s ns per packet (a buffer-scanning reference with the same marks is %sx / %sx / %sx / %sx slower; input-triggered: %sx a minimal counter kernel on the same trace) |\n", \
      f("marker input 64 ports", 1), f("marker input-output 64 ports", 1), f("marker iba 64 ports", 1), f("marker mvpm 64 ports", 1), \
      r("marker input 64 ports reference/counter"), r("marker input-output 64 ports reference/counter"), \
      r("marker iba 64 ports reference/counter"), r("marker mvpm 64 ports reference/counter"), \
      r("marker input 64 ports engine/kernel")
    printf "| rate law per ACK, table form: LIPD / FIMD / AIMD | %s / %s / %s ns |\n", \
      f("law LIPD table on_ack", 2), f("law FIMD table on_ack", 2), f("law AIMD table on_ack", 2)
    printf "| CCT agent BECN + delay lookup, 1024 flows | %s ns |\n", f("cct BECN + delay lookup (1024 flows)", 1)
    printf "| MVCM ACK step + waiting interval, 1024 flows | %s ns |\n", f("mvcm ACK step + wait (1024 flows)", 1)
    printf "| event loop, hold model, 1024 / 1 048 576 pending | %s / %s ns per event", f("loop_hold_N1024", 1), f("loop_hold_N1048576", 1)
    if ("ratio_ibcc_over_best_ns3_N1024" in med)
      printf "; against the fastest of ns-3'"'"'s Map, Heap, Calendar and reverse Calendar schedulers in the same process: %s / %s of its time", \
        r("ratio_ibcc_over_best_ns3_N1024"), r("ratio_ibcc_over_best_ns3_N1048576")
    printf " |\n"
    printf "| fabric, 500 ms of the two-switch scenario (L=R=10, input-triggered + LIPD) | %s ms wall, %s events per packet-hop |\n", \
      f("fabric_twoswitch_500ms_wall", 0), r("fabric_events_per_hop")
    if ("ratio_ns3_over_ibcc_fabric_input" in med)
      printf "| two-switch scenario, 200 ms, on the ns-3 model / on ibcc'"'"'s fabric (same binary, same engines): no CC / input + LIPD / IBA + CCT / MVPM + MVCM | ns-3 takes %sx / %sx / %sx / %sx as long (ibcc: %s s for input + LIPD) |\n", \
        r("ratio_ns3_over_ibcc_fabric_nocc"), r("ratio_ns3_over_ibcc_fabric_input"), \
        r("ratio_ns3_over_ibcc_fabric_iba"), r("ratio_ns3_over_ibcc_fabric_mvcm"), f("fabric_twoswitch_input_ibcc", 3)
    printf "\nScale (`build/bench_scale`: CPU time of child processes, peak resident memory from getrusage; same run):\n\n"
    print "| workload | figure |"
    print "|---|---|"
    printf "| fabric, leaf-spine under a permutation (input-triggered + LIPD), 16 / 1024 hosts | %s / %s M packet-hops per CPU second (1024 / 16: %s) |\n", \
      (("leafspine_16_hosts_hops_per_s" in med) ? sprintf("%.2f", med["leafspine_16_hosts_hops_per_s"] / 1e6) : "n/a"), \
      (("leafspine_1024_hosts_hops_per_s" in med) ? sprintf("%.2f", med["leafspine_1024_hosts_hops_per_s"] / 1e6) : "n/a"), \
      r("leafspine_1024_over_16")
    printf "| fabric, uniform traffic at half a link per host as one source per host, 1024 / 4096 hosts | %s / %s MiB allocated, %s MiB peak resident at 4096 (as pair flows at 1024 hosts: %s MiB, %s events per hop against %s) |\n", \
      f("uniform_1024_hosts_alloc_peak", 0), f("uniform_4096_hosts_alloc_peak", 0), f("uniform_4096_hosts_rss_peak", 0), \
      f("uniform_pairs_1024_hosts_alloc_peak", 0), r("uniform_pairs_1024_hosts_events_per_hop"), r("uniform_1024_hosts_events_per_hop")
    printf "| fabric, 20 736-host fat tree (12-ary 4-tree) under a permutation | set-up %s ms CPU (its routes: %s ms), %s MiB peak resident, %s k packet-hops per CPU second |\n", \
      f("fattree_20736_hosts_setup_ms", 0), f("routes_fattree_20736_hosts_ms", 0), f("fattree_20736_hosts_rss_peak", 0), \
      (("fattree_20736_hosts_hops_per_s" in med) ? sprintf("%.0f", med["fattree_20736_hosts_hops_per_s"] / 1e3) : "n/a")
    if ("ratio_ibcc_over_htsim_leafspine_1024_nocc" in med)
      printf "| 1024-host leaf-spine permutation without CC, ibcc / csg-htsim (RoCE model; `bench/htsim.sh`) | %s M / %s M packet-hops per CPU second: ibcc %sx |\n", \
        sprintf("%.2f", med["leafspine_nocc_1024_hosts_hops_per_s"] / 1e6), sprintf("%.2f", med["htsim_roce_leafspine_1024_hosts_hops_per_s"] / 1e6), \
        r("ratio_ibcc_over_htsim_leafspine_1024_nocc")
    if ("ratio_ibcc_over_htsim_leafspine_1024_cc" in med)
      printf "| the same with CC, ibcc (input-triggered + LIPD, window 4) / csg-htsim (EQDS model), data packets only (`bench/htsim.sh`) | %s M / %s M data packet-hops per CPU second: ibcc %sx |\n", \
        sprintf("%.2f", med["leafspine_1024_hosts_data_hops_per_s"] / 1e6), sprintf("%.2f", med["htsim_eqds_leafspine_1024_hosts_data_hops_per_s"] / 1e6), \
        r("ratio_ibcc_over_htsim_leafspine_1024_cc")
  }' "$csv"
