#!/bin/sh
# hpcc_traces.sh DIR: writes the communication of HPC Challenge's
# latency-bandwidth test ([G] section VI, Table III) as ibcc traces into
# DIR, for `ibccsim gran --job 'NAME trace=FILE hosts=...'`
# (tools/fidelity/g.sh runs them).
# Sizes are bytes on the wire: the benchmark's payload (8 bytes for the
# latencies, 2,000,000 for the bandwidths) plus 26 bytes of headers per
# 2048-byte MTU packet, as gran's flows count them. Every message has
# sl=5: a job's classes come after the flows' (gran's F1..F5: 0..4).
#   pl.trace, pb.trace     ping-pong between ranks 0 and 1: 40 round trips
#                          of 8 bytes, 4 of 2,000,000
#   rlORDER, rbORDER.trace the ring of ranks ORDER (0123: the natural
#                          order; 0213: a random order) on four ranks two
#                          per host: 40 iterations of 8 bytes, 4 of
#                          2,000,000; in each every rank sends to both of
#                          its neighbours and goes on when both of theirs
#                          are in. Ranks 0 and 2 share a host, 1 and 3 the
#                          other (hosts=0,3,0,3: H1, H4): a message between
#                          two ranks of one host goes through its memory,
#                          which ibcc does not model, and takes no time
#                          (its receiver waits for what its sender waited
#                          for).
set -u
d=${1:?usage: hpcc_traces.sh DIR}
mkdir -p "$d" || exit 1
wire() { awk -v p="$1" 'BEGIN { printf "%d", p + 26 * int((p + 2047) / 2048) }'; }
L=$(wire 8); B=$(wire 2000000)
pp() {
  awk -v n="$1" -v b="$2" 'BEGIN { print "ibcc-trace 1"; print "ranks 2"
    for (i = 0; i < n; i++) {
      printf "%d 0 1 %d sl=5%s\n", 2 * i, b, (i ? " after=" 2 * i - 1 : "")
      printf "%d 1 0 %d sl=5 after=%d\n", 2 * i + 1, b, 2 * i } }'
}
ring() {
  awk -v order="$1" -v host="1 4 1 4" -v n="$2" -v b="$3" '
  function dedup(s,   a, m, i, out, seen) {
    m = split(s, a, ","); out = ""
    for (i = 1; i <= m; i++) if (!(a[i] in seen)) { seen[a[i]] = 1; out = out (out == "" ? "" : ",") a[i] }
    return out
  }
  BEGIN {
    p = split(order, o, " "); split(host, h, " ")
    print "ibcc-trace 1"; print "ranks " p
    id = 0
    for (k = 1; k <= p; k++) D[o[k]] = ""
    for (i = 0; i < n; i++) {
      for (k = 1; k <= p; k++) {          # this iteration: D[r] its waits
        r = o[k]; R = o[k % p + 1]; L = o[(k + p - 2) % p + 1]
        for (s = 0; s < 2; s++) {
          to = s ? L : R
          if (h[r + 1] == h[to + 1]) continue
          printf "%d %d %d %d sl=5%s\n", id, r, to, b, (D[r] == "" ? "" : " after=" D[r])
          M[r, to] = id++
        }
      }
      for (k = 1; k <= p; k++) {          # the next one waits for both
        r = o[k]; R = o[k % p + 1]; L = o[(k + p - 2) % p + 1]; nd = ""
        for (s = 0; s < 2; s++) {
          f = s ? L : R
          x = (h[f + 1] == h[r + 1]) ? D[f] : M[f, r]
          if (x != "") nd = nd (nd == "" ? "" : ",") x
        }
        N[r] = nd
      }
      for (k = 1; k <= p; k++) D[o[k]] = dedup(N[o[k]])
    }
  }'
}
pp 40 "$L" > "$d/pl.trace" && pp 4 "$B" > "$d/pb.trace" &&
ring "0 1 2 3" 40 "$L" > "$d/rl0123.trace" && ring "0 1 2 3" 4 "$B" > "$d/rb0123.trace" &&
ring "0 2 1 3" 40 "$L" > "$d/rl0213.trace" && ring "0 2 1 3" 4 "$B" > "$d/rb0213.trace"
