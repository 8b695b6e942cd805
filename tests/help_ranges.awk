# Reads `ibccsim custom --help` and prints "flag lo hi" for each documented
# range "(lo..hi)" of a flag (ranges of a flag line and its continuation
# lines, in the order of the line's flags, or one for all of them), and
# "norange flag" for a flag with an upper-case value name (a number; not
# FILE or LIST) that documents none. Used by tests/scenarios.sh.
function num(t,  b, e) {
  if (t == "2^64-1") return "18446744073709551615"
  if (index(t, "^")) { split(t, b, "^"); e = b[1] ^ b[2]; return (e >= 1 ? sprintf("%.0f", e) : sprintf("%g", e)) }
  return t
}
function flush(  n, f, i, m, r, k, it, nr, lh, fl, mv) {
  if (txt == "") return
  n = split(first, w, " "); nf = 0
  for (i = 1; i <= n; i++) if (w[i] ~ /^--[a-z0-9-]+$/) { fl[++nf] = substr(w[i], 3); mv[nf] = w[i + 1] }
  nr = 0; r = txt
  while (match(r, /\([^()]*\)/)) {
    m = substr(r, RSTART + 1, RLENGTH - 2); r = substr(r, RSTART + RLENGTH)
    k = split(m, it, /[,;] */)
    for (i = 1; i <= k; i++) if (it[i] ~ /^[0-9.^-]+\.\.[0-9.^-]+$/) { split(it[i], lh, /\.\./); lo[++nr] = num(lh[1]); hi[nr] = num(lh[2]) }
  }
  for (i = 1; i <= nf; i++) {
    if (nr == nf) print fl[i], lo[i], hi[i]
    else if (nr == 1) print fl[i], lo[1], hi[1]
    else if (nr == 0) { if (mv[i] ~ /^[A-Z]+(\|none)?$/ && mv[i] != "FILE" && mv[i] != "LIST") print "norange", fl[i] }
    else print "mismatch", fl[i]
  }
  txt = ""
}
/^  --/ { flush(); first = $0; txt = $0; next }
/^                        / && txt != "" { txt = txt " " $0; next }
{ flush() }
END { flush() }
