#!/bin/sh
# Jobs in the driver (docs/jobs.md, "Jobs in ibccsim"): custom --job and
# [job NAME] sections of scenario files. Exact message counts of every
# pattern through the driver, a job alone whose run is its ideal
# (slowdown exactly 1), placement (linear, interleaved, random with the
# run's seed), the same job from the command line and from a file giving
# the same bytes, a trace file beside the scenario, the shipped example,
# and bad specs refused with a clear message (never a crash). Prints
# RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
B=${BUILD:-build}
case $B in /*) sim=$B/ibccsim ;; *) sim=$root/$B/ibccsim ;; esac
pass=0; fail=0
if [ ! -x "$sim" ]; then
  echo "FAIL jobs: $sim not built"; echo "RESULT 0 1"; exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { echo "FAIL jobs: $1"; fail=$((fail + 1)); }
# field F of the row of job J in CSV file C (the hosts field is quoted
# and may hold commas: it is replaced first)
col() { sed 's/"[^"]*"/H/' "$3" | awk -F, -v j="$1" -v f="$2" \
          'NR==1{for(i=1;i<=NF;i++) if($i==f) k=i} NR>1 && $1==j{print $k}'; }

# ---- exact message counts: every pattern, all at once on 8 hosts -------
# (closed forms of docs/jobs.md: ring 2P(P-1), shift and pairwise P(P-1),
# recursive doubling p'L + 2(P - p'), binomial P-1, halo iterations x 2 x
# (P per periodic dimension), incast P-1), each delivered completely
cat > "$tmp/t.trace" <<'EOF'
ibcc-trace 1
ranks 3
0 0 1 4096
1 1 2 4096 after=0
2 2 0 100 after=1 at=1us
3 0 2 2000 at=2us
EOF
F="--topology fattree --k 2 --n 3"
if "$sim" custom $F --job 'ring pattern=allreduce-ring hosts=0-7 bytes=8000' \
     --job 'shift pattern=alltoall-shift hosts=0-4 bytes=3000' \
     --job 'pair pattern=alltoall-pairwise hosts=3-6 bytes=3000' \
     --job 'rd pattern=allreduce-rd hosts=1-6 bytes=1000' \
     --job 'bc pattern=bcast-binomial hosts=2-6 root=3 bytes=5000' \
     --job 'halo pattern=halo2d hosts=4-7 dims=2,2 periodic=yes iterations=2 bytes=700' \
     --job 'inc pattern=incast hosts=0,2,4,6,7 root=4 bytes=9000' \
     --job "tr trace=$tmp/t.trace hosts=5,1,3" \
     --job-csv "$tmp/all.csv" > "$tmp/all.out" 2>&1; then ok
else no "the eight jobs failed: $(tail -n 3 "$tmp/all.out")"; fi
for jm in ring:112 shift:20 pair:12 rd:12 bc:4 halo:32 inc:4 tr:4; do
  j=${jm%%:*}; m=${jm#*:}
  got=$(col "$j" messages "$tmp/all.csv"); del=$(col "$j" delivered "$tmp/all.csv")
  dn=$(col "$j" done "$tmp/all.csv")
  [ "$got" = "$m" ] && [ "$del" = "$m" ] && [ "$dn" = 1 ] && ok \
    || no "job $j: $got messages, $del delivered, done $dn (want $m)"
done
# the trace's bytes: 4096 + 4096 + 100 + 2000
[ "$(col tr bytes "$tmp/all.csv")" = 10292 ] && ok || no "the trace's bytes"
# the ring's bytes: 2(P-1) chunks of N/P per rank, 2 x 7 x 8000
[ "$(col ring bytes "$tmp/all.csv")" = 112000 ] && ok || no "the ring's bytes"
# the table on standard output has a row per job
[ "$(grep -c -E '^(ring|shift|pair|rd|bc|halo|inc|tr) ' "$tmp/all.out")" = 8 ] && ok \
  || no "the jobs' table"

# ---- a job alone: its run is its ideal, to the picosecond ---------------
"$sim" custom $F --job 'solo pattern=alltoall-pairwise hosts=0-7 bytes=20000' \
  --job-csv "$tmp/solo.csv" --quiet 2>&1
[ "$(col solo slowdown "$tmp/solo.csv")" = 1.000000 ] \
  && [ "$(col solo job_completion_us "$tmp/solo.csv")" = "$(col solo job_ideal_us "$tmp/solo.csv")" ] \
  && [ "$(col solo ideal_by "$tmp/solo.csv")" = run ] && ok || no "a job alone is not its ideal"

# ---- placement ----------------------------------------------------------
"$sim" custom $F --job 'a pattern=incast ranks=4 place=interleaved bytes=100' \
  --job 'b pattern=incast ranks=4 place=interleaved bytes=100' --job-csv "$tmp/p.csv" --quiet
[ "$(grep '^a,' "$tmp/p.csv" | cut -d'"' -f2)" = "0,2,4,6" ] \
  && [ "$(grep '^b,' "$tmp/p.csv" | cut -d'"' -f2)" = "1,3,5,7" ] && ok \
  || no "interleaved placement: $(cut -d'"' -f2 "$tmp/p.csv" | tr '\n' ' ')"
"$sim" custom $F --job 'a pattern=incast hosts=2-7 ranks=3 bytes=100' --job-csv "$tmp/l.csv" --quiet
[ "$(grep '^a,' "$tmp/l.csv" | cut -d'"' -f2)" = "2-4" ] && ok || no "linear placement"
# random: the seed decides, the same seed the same hosts, all distinct
for s in 1 1 2; do
  "$sim" custom $F --seed $s --job 'a pattern=incast ranks=5 place=random bytes=100' \
    --job 'b pattern=incast ranks=3 place=random bytes=100' --job-csv "$tmp/r.csv" --quiet
  cut -d'"' -f2 "$tmp/r.csv" | tail -n 2 | tr '\n' ' ' >> "$tmp/r.txt"; echo >> "$tmp/r.txt"
done
r1=$(sed -n 1p "$tmp/r.txt"); r2=$(sed -n 2p "$tmp/r.txt"); r3=$(sed -n 3p "$tmp/r.txt")
# the hosts of both jobs, ranges expanded: 8 distinct
hl=$(echo "$r1" | tr ' ,' '\n\n' | awk -F- 'NF==2{for(i=$1;i<=$2;i++) print i; next} NF==1{print}')
n=$(echo "$hl" | grep -c .); u=$(echo "$hl" | sort -u | grep -c .)
[ "$r1" = "$r2" ] && [ "$r1" != "$r3" ] && [ "$n" = 8 ] && [ "$u" -eq 8 ] && ok \
  || no "random placement: '$r1' '$r2' '$r3'"

# ---- --trace FILE is --job 'traceN trace=FILE' ----------------------------
"$sim" custom $F --trace "$tmp/t.trace" --job-csv "$tmp/tf1.csv" --quiet
"$sim" custom $F --job "trace0 trace=$tmp/t.trace" --job-csv "$tmp/tf2.csv" --quiet
cmp -s "$tmp/tf1.csv" "$tmp/tf2.csv" && [ "$(col trace0 messages "$tmp/tf1.csv")" = 4 ] && ok \
  || no "--trace FILE differs from --job 'trace0 trace=FILE'"

# ---- a torus with dimension-order routes: the jobs' flows take the
# paths' dateline SLs (every message of an all-to-all arrives)
"$sim" custom --topology torus --x 4 --y 4 --routing dor \
  --job 'a pattern=alltoall-shift bytes=4000' --job-csv "$tmp/tor.csv" --quiet \
  && [ "$(col a delivered "$tmp/tor.csv")" = 240 ] && ok || no "jobs on a dimension-order torus"

# ---- params.csv runs the same jobs again (ibccsim run DIR/params.csv) ---
mkdir -p "$tmp/pa"
"$sim" custom $F --job 'a pattern=allreduce-ring hosts=0-3,5 bytes=1000' \
  --job 'b pattern=incast hosts=4,6,7 bytes=100' --summary "$tmp/pa/s.csv" \
  --job-csv "$tmp/pa1.csv" --quiet
grep -q '^job,a pattern=allreduce-ring hosts=0-3,5 bytes=1000 | b pattern=incast hosts=4,6,7 bytes=100$' \
  "$tmp/pa/s_params.csv" && ok || no "params.csv: the --job specs"
grep -q '^job_a_messages,40$' "$tmp/pa/s.csv" && grep -q '^job_b_delivered,2$' "$tmp/pa/s.csv" && ok \
  || no "summary.csv: the jobs' rows"
"$sim" run "$tmp/pa/s_params.csv" --job-csv "$tmp/pa2.csv" --quiet \
  && cmp -s "$tmp/pa1.csv" "$tmp/pa2.csv" && ok || no "params.csv does not run the same jobs again"

# ---- the same jobs from a scenario file: the same bytes -----------------
mkdir -p "$tmp/s/tr"
cp "$tmp/t.trace" "$tmp/s/tr/t.trace"
cat > "$tmp/s/j.ini" <<'EOF'
[fabric]
topology = fattree
k = 2
n = 3
[job ring]
pattern = allreduce-ring
hosts = 0-7
bytes = 8000
[job tr]
trace = tr/t.trace      # beside this file
hosts = 5, 1, 3
start = 3.5
[run]
time = 10
[output]
directory = out
EOF
"$sim" custom $F --job 'ring pattern=allreduce-ring hosts=0-7 bytes=8000' \
  --job "tr trace=$tmp/t.trace hosts=5,1,3 start=3.5" --job-csv "$tmp/c.csv" --quiet
if (cd / && "$sim" run "$tmp/s/j.ini" > "$tmp/s.out" 2>&1) && cmp -s "$tmp/c.csv" "$tmp/s/out/jobs.csv"
then ok; else no "custom --job and [job NAME] differ: $(tail -n 2 "$tmp/s.out")"; fi
grep -q '^job.tr.trace,tr/t.trace$' "$tmp/s/out/params.csv" && grep -q '^job.ring.bytes,8000$' \
  "$tmp/s/out/params.csv" && ok || no "params.csv lacks the jobs' keys"
grep -q "^trace = $tmp/s/tr/t.trace\$" "$tmp/s/out/scenario.ini" && ok \
  || no "scenario.ini: the trace's path is not absolute"
# a study over a job key: one row per point with the jobs' columns
"$sim" run "$tmp/s/j.ini" 'job.ring.bytes={8000,16000}' --quiet
awk -F, 'NR==1{ok=($3=="ring_completion_us" && $7=="tr_completion_us")} NR==3{b=$3} NR==2{a=$3}
  END{exit !(ok && b>a && a>0)}' "$tmp/s/out/study.csv" && ok || no "study.csv: the jobs' columns"
# the shipped example (two jobs, IBA CC off and on): CC shortens the
# victim (docs/scenario_jobs.md gives the numbers, tests/docnums.sh
# checks them)
if "$sim" run examples/scenarios/jobs_fattree_cc.ini output.directory="$tmp/ex" --quiet \
   && awk -F, 'NR==2{a=$5} NR==3{b=$5} END{exit !(a>b && b>1)}' "$tmp/ex/study.csv"
then ok; else no "examples/scenarios/jobs_fattree_cc.ini"; fi

# ---- refusals: a clear message, exit status 2, never a crash ------------
refuse() {   # refuse WHAT PATTERN ARGS...: status 2 and PATTERN on stderr
  what=$1; pat=$2; shift 2
  "$sim" "$@" > "$tmp/e.out" 2> "$tmp/e.err"; rc=$?
  if [ "$rc" -eq 2 ] && grep -q -- "$pat" "$tmp/e.err"; then ok
  else no "$what: exit $rc, stderr: $(head -c 300 "$tmp/e.err")"; fi
}
refuse "unknown key" "unknown key 'byts' (did you mean bytes?)" custom $F --job 'x pattern=incast byts=10'
refuse "bad pattern" "one of trace, alltoall-shift" custom $F --job 'x pattern=allreduce bytes=10'
refuse "no bytes" "needs bytes = N" custom $F --job 'x pattern=incast'
refuse "no pattern" "needs pattern = " custom $F --job 'x hosts=0-3'
refuse "bytes of a trace" "bytes applies to a collective" custom $F --job "x trace=$tmp/t.trace bytes=4"
refuse "root of a ring" "root does not apply to pattern = allreduce-ring" custom $F \
  --job 'x pattern=allreduce-ring root=1 bytes=100'
refuse "too many ranks" "9 ranks on the 8 hosts" custom $F --job 'x pattern=incast ranks=9 bytes=10'
refuse "shared list too small" "have 10 ranks, the list 8 hosts" custom $F \
  --job 'a pattern=incast ranks=5 place=random bytes=10' --job 'b pattern=incast ranks=5 place=random bytes=10'
refuse "host out of range" "hosts: host 0-8: the hosts are 0..7" custom $F --job 'x pattern=incast hosts=0-8 bytes=10'
refuse "dims" "dims 3,2: 6 ranks, the job has 4" custom $F --job 'x pattern=halo2d hosts=0-3 dims=3,2 bytes=10'
refuse "ring too small" "bytes 3 below the ranks" custom $F --job 'x pattern=allreduce-ring bytes=3'
refuse "no trace file" "none.trace: No such file" custom $F --job "x trace=$tmp/none.trace"
printf 'ibcc-trace 1\n0 0 1 10\n1 1 1 10\n' > "$tmp/bad.trace"
refuse "bad trace" "bad.trace:3:" custom $F --job "x trace=$tmp/bad.trace"
refuse "trace ranks" "ranks 5: the trace has 3 ranks" custom $F --job "x trace=$tmp/t.trace ranks=5"
refuse "two jobs of one name" "a second job of this name" custom $F \
  --job 'x pattern=incast bytes=10' --job 'x pattern=incast bytes=10'
refuse "bad name" "a job name is letters" custom $F --job 'x/y pattern=incast bytes=10'
refuse "not key=value" "expected key=value" custom $F --job 'x pattern=incast bytes=10 oops'
refuse "empty spec" "bad value '' for --job" custom $F --job ''
refuse "too many jobs" "at most 16 jobs" custom $F $(i=0; while [ $i -lt 17 ]; do
  printf -- "--job j$i\n"; i=$((i + 1)); done)
refuse "traffic none alone" "traffic = none leaves nothing" custom $F --traffic none
refuse "job-csv alone" "applies only with --job or --trace" custom $F --load 0.1 --job-csv x.csv
refuse "start after the run" "starts at 20000 us, after the run (10 ms)" custom $F \
  --job 'x pattern=incast bytes=10 start=20000'
refuse "a dateline SL" "SL 9: dimension order on this torus takes SL bits 0..1" custom \
  --topology torus --x 4 --y 4 --routing dor --job 'a pattern=incast bytes=10 sl=9'
refuse "huge bytes" "an integer 1..2^48" custom $F --job 'x pattern=incast bytes=281474976710657'
refuse "a key's bad value names the key" "bad value 'bogus' for key pattern=: one of trace" custom $F --job 'x pattern=bogus'
printf '[fabric]\ntopology = fattree\nk = 2\nn = 3\n[job x]\npattern = incast\nbytes = ten\n' > "$tmp/b1.ini"
refuse "a file's bad value" "b1.ini:7: ibccsim: bad value 'ten' for --bytes" run "$tmp/b1.ini"
printf '[fabric]\ntopology = fattree\nk = 2\nn = 3\n[job x]\npatern = incast\n' > "$tmp/b2.ini"
refuse "a file's misspelt key" "did you mean --pattern" run "$tmp/b2.ini"
refuse "override of no job" "no \[job y\]" run "$tmp/b1.ini" job.y.bytes=3
printf '[fabric]\ntopology = fattree\nk = 2\nn = 3\n[job x]\npattern = incast\nbytes = 1\n[job x]\n' > "$tmp/b3.ini"
refuse "a second [job x]" "a second \[job x\]" run "$tmp/b3.ini"
# a trace whose SLs are the traffic blocks' classes
printf '[fabric]\ntopology = fattree\nk = 2\nn = 3\n[traffic bg]\npattern = uniform\nload = 0.1\n[job x]\ntrace = %s\n' \
  "$tmp/t.trace" > "$tmp/b4.ini"
refuse "trace SL in a block's class" "sl=0, the class of the \[traffic\] blocks" run "$tmp/b4.ini"
# not done in time: the row says how far it got, the exit status 1
"$sim" custom $F --job 'big pattern=alltoall-shift bytes=10000000' --time 1 \
  --job-csv "$tmp/nd.csv" > "$tmp/nd.out" 2> "$tmp/nd.err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "not done after --time 1 ms" "$tmp/nd.err" && grep -q "^big,alltoall-shift,8,\"0-7\",56,0,0,0.000000,0,,,,,,,,,,,$" "$tmp/nd.csv" && ok \
  || no "a job not done: exit $rc, $(head -c 300 "$tmp/nd.err")"

echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
