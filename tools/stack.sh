#!/bin/sh
# Worst stack depth per engine of a firmware build: reads the call graph
# GCC writes with -fcallgraph-info=su (a .ci file: one node per emitted
# function with its frame size, one edge per call) and prints, for each
# engine, the deepest chain of frames from any of its public functions
# (ibcc_<engine>_*), in bytes, and that function; then the same over its
# per-packet / per-event calls only (configuration left out: _init*,
# _defaults, _size, _grow, _rom_check, _to_rom, _set_*, _apply*, _fill_*,
# _encode, _decode, _from_*, _to_*, _clear, _reset). Calls through function
# pointers (loop callbacks, arbiter can_send) are the caller's and are
# not followed, except those through an engine's own operation table: an
# indirect call from a function of engine E (ibcc_E_*) may reach any
# function named ibcc_E_op_* (the law's kinds: ibcc_law_op_*), so it
# counts as a call of the deepest of them. Compiler helpers and
# memcpy/memset count 0 (their own frames are small and target
# specific). A dynamic frame is marked '+'.
# usage: tools/stack.sh FILE.ci
ci=${1:?usage: tools/stack.sh FILE.ci}
awk '
function base(t) { sub(/^.*:/, "", t); return t }
/^node:/ {
    t = $0; sub(/^node: \{ title: "/, "", t); sub(/".*$/, "", t); t = base(t)
    l = $0; sz = 0; dyn = 0
    if (match(l, /[0-9]+ bytes \((static|dynamic|dynamic,bounded)\)/)) {
        f = substr(l, RSTART, RLENGTH); split(f, a, " "); sz = a[1] + 0
        if (f ~ /dynamic/) dyn = 1
    }
    if (!(t in frame) || sz > frame[t]) frame[t] = sz
    if (dyn) dynamic[t] = 1
    next
}
/^edge:/ {
    s = $0; sub(/^.*sourcename: "/, "", s); sub(/".*$/, "", s)
    d = $0; sub(/^.*targetname: "/, "", d); sub(/".*$/, "", d)
    s = base(s); d = base(d)
    if (d == "__indirect_call") { nind++; ind[nind] = s; next }
    if (!((s, d) in seen)) { seen[s, d] = 1; nout[s]++; out[s, nout[s]] = d }
    next
}
# an indirect call of engine E reaches the ibcc_E_op_* functions
function tables(    i, s, e, f) {
    for (i = 1; i <= nind; i++) {
        s = ind[i]
        if (!match(s, /^ibcc_[a-z0-9]+_/)) continue
        e = substr(s, 1, RLENGTH) "op_"
        for (f in frame)
            if (index(f, e) == 1 && !((s, f) in seen)) {
                seen[s, f] = 1; nout[s]++; out[s, nout[s]] = f
            }
    }
}
function depth(f,    i, best, v) {
    if (f in memo) return memo[f]
    if (f in busy) { cyc = 1; return 0 }
    busy[f] = 1; best = 0
    for (i = 1; i <= nout[f]; i++) {
        v = depth(out[f, i]); if (v > best) best = v
        if (dynamic[out[f, i]] || dynv[out[f, i]]) dynv[f] = 1
    }
    delete busy[f]
    if (dynamic[f]) dynv[f] = 1
    memo[f] = frame[f] + best
    return memo[f]
}
END {
    tables()
    n = split("marker arbiter vlarb swcc swport law pacer pairstate cct cacc mvcm dest segment ecn int dcqcn hpcc loop wire rng result version", eng, " ")
    printf "%-10s %6s  %-28s %6s  %s\n", "engine", "bytes", "deepest public function", \
           "bytes", "deepest per-packet call"
    for (i = 1; i <= n; i++) {
        best = -1; who = ""; hbest = -1; hwho = "-"
        for (f in frame) {
            if (index(f, ".")) continue         # compiler clones: reached from their origin
            if (index(f, "ibcc_" eng[i] "_") != 1 && f != "ibcc_" eng[i]) continue
            if (f ~ /_$/) continue              # private: reached from a public one
            v = depth(f)
            if (v > best) { best = v; who = f }
            if (f ~ /_(init|init_rom|defaults|size|grow|rom_check|to_rom|encode|decode|clear|reset)$/ \
                || f ~ /_(set|apply|fill|from|to)(_[a-z_]*)?$/) continue
            if (v > hbest) { hbest = v; hwho = f }
        }
        if (best < 0) continue
        printf "%-10s %6d%s %-28s %6s%s %s\n", eng[i], best, dynv[who] ? "+" : " ", who, \
               hbest < 0 ? "-" : hbest, dynv[hwho] ? "+" : " ", hwho
    }
    if (cyc) print "note: recursion found; depths along cycles are not bounded"
}' "$ci"
