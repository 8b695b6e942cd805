#!/bin/sh
# make test: ibcc's WORMHOLE fabric and the second model of [K]'s network
# (tools/kmodel/kmodel.c, written without ibcc.h) give every message of one
# trace the same first byte out, last head in and last byte in, byte time
# for byte time, at two slack buffers and six segment lengths
# (tools/kmodel/run.sh agree; docs/scenario_wormhole.md, "A second model").
# Prints RESULT <passed> <failed> for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
out=$(BUILD=$BUILD IBCC_NICE= sh tools/kmodel/run.sh agree 2>&1)
rc=$?
echo "$out"
p=$(echo "$out" | grep -c ' of 1500 messages identical$')
ok=$(echo "$out" | grep -c '1500 of 1500 messages identical$')
if [ $rc -eq 0 ] && [ "$ok" -eq 12 ]; then echo "RESULT 12 0"
else echo "RESULT $ok $((p > ok ? p - ok : 1))"; fi
