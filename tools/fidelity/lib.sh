# Shared helpers of the per-paper fidelity scripts (tools/fidelity/<tag>.sh).
# A paper script sources this file, runs ibccsim and prints one row per
# published result with fid_row. tools/fidelity/run.sh turns the rows into
# the table of the paper's scenario page and counts the marks.
#
# Row fields (tab-separated, in this order):
#   where    the paper's place: section and figure or table ("§5.1, Fig 3")
#   claim    the published result in our words, with its number or shape
#   paper    the paper's value ("0.50", "about 13 Gbit/s", "rises")
#   ibcc     ibcc's value, measured by the command
#   mark     match | partly | differs | notrun
#              match:   within 10% of the paper's number, or the stated shape
#              partly:  within 10-30%, or part of the shape
#              differs: anything else
#              notrun:  ibcc cannot run it yet (the note says what is missing)
#   cmd      the command that produced the ibcc value (run from the top)
#   note     the cause of a difference, or a remark; may be empty
# Fields must not contain tabs or newlines; '|' is escaped by run.sh.

BUILD=${BUILD:-build}
SIM=${SIM:-$BUILD/ibccsim}

# fid_row WHERE CLAIM PAPER IBCC MARK CMD [NOTE]
fid_row() {
  case $5 in
    match|partly|differs|notrun) ;;
    *) echo "fid_row: bad mark '$5' for '$1'" >&2; exit 2 ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7:-}"
}

# fid_mark_num PAPER IBCC: match within 10% of PAPER, partly within 30%,
# else differs (PAPER 0: |IBCC| <= 0.01 matches).
fid_mark_num() {
  awk -v p="$1" -v v="$2" 'BEGIN {
    if (v == "" || v !~ /^-?[0-9.eE+-]+$/) { print "differs"; exit }
    d = v - p; if (d < 0) d = -d; a = p < 0 ? -p : p
    if (a == 0) { print (d <= 0.01 ? "match" : "differs"); exit }
    r = d / a
    print (r <= 0.10 ? "match" : (r <= 0.30 ? "partly" : "differs")) }'
}

# fid_mark_range LO HI IBCC: match inside [LO, HI] (a published "about"
# or a range read off a figure), partly within 30% of the nearer end.
fid_mark_range() {
  awk -v lo="$1" -v hi="$2" -v v="$3" 'BEGIN {
    if (v == "" || v !~ /^-?[0-9.eE+-]+$/) { print "differs"; exit }
    if (v >= lo && v <= hi) { print "match"; exit }
    e = v < lo ? lo : hi; d = v - e; if (d < 0) d = -d; a = e < 0 ? -e : e
    print ((a > 0 && d / a <= 0.30) ? "partly" : "differs") }'
}

# fid_true COND: match when the awk condition COND holds, else differs
# (for stated shapes: fid_true "$a > $b").
fid_true() {
  awk "BEGIN { print (($1) ? \"match\" : \"differs\") }"
}

# fid_csv_col FILE COLUMN-NAME: prints that column of a CSV file's rows.
fid_csv_col() {
  awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                     k { print $k }' "$1"
}
