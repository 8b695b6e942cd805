# Helpers of tools/fidelity/s02.sh and s03.sh (sourced after lib.sh): runs
# of `ibccsim twoswitch`, each run once and its summary kept.
#
# ts_get METRIC ARGS...   prints METRIC of `ibccsim twoswitch ARGS` (3
#                          decimals); the run is cached by its arguments
# ts_cmd ARGS...           the row's command for those arguments
# ts_has FLAG              true when ibccsim twoswitch knows FLAG
# fmt X                    X with 3 decimals
#
# The long runs of [S02] Fig. 4 and [S03] Figs. 6-7 keep the victim
# active for the whole run and average the last 400 ms of a 500 ms run
# (the papers' "500 ms, rates averaged over the last 400 ms"); LONG holds
# those flags.

TS_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ibcc-fid-ts.XXXXXX") || exit 1
trap 'rm -rf "$TS_TMP"' EXIT INT TERM
LONG="--time 500 --victim-from 0 --victim-to 500 --measure-from 100 --measure-to 500"

ts_key() { printf '%s' "$*" | cksum | awk '{ print $1 "_" $2 }'; }

ts_get() {
  m=$1; shift
  k=$(ts_key "$@")
  if [ ! -f "$TS_TMP/$k.csv" ]; then
    # shellcheck disable=SC2068
    nice -n 10 "$SIM" twoswitch $@ --quiet --summary "$TS_TMP/$k.csv" \
      2> "$TS_TMP/$k.err" || { echo "ibccsim twoswitch $* failed:" >&2
                              cat "$TS_TMP/$k.err" >&2; exit 1; }
  fi
  awk -F, -v m="$m" '$1 == m { printf "%.3f\n", $2; f = 1 }
                     END { if (!f) print "" }' "$TS_TMP/$k.csv"
}

ts_cmd() { echo "build/ibccsim twoswitch${*:+ $*}"; }

ts_has() { "$SIM" twoswitch --help 2>/dev/null | grep -q -- "$1"; }

fmt() { awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }

ratio_closer() {  # 1 when A is closer to 1 than B on a log scale
  awk -v a="$1" -v b="$2" 'function l(x) { return x > 0 ? log(x) : -50 }
    BEGIN { a = l(a); b = l(b); if (a < 0) a = -a; if (b < 0) b = -b
            print (a < b) ? 1 : 0 }'
}
