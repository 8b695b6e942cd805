#!/bin/sh
# make cross: the unit tests (tests/test_*.c) built with Debian's cross
# compilers and run under qemu-user on the 32-bit and big-endian targets
# firmware runs on:
#   armhf  arm-linux-gnueabihf-gcc  qemu-arm    32-bit, little-endian
#   i386   i686-linux-gnu-gcc       qemu-i386   32-bit, x87 floating point
#   s390x  s390x-linux-gnu-gcc      qemu-s390x  64-bit, big-endian
# A target whose compiler or qemu is missing is skipped with a message
# (apt-get install gcc-arm-linux-gnueabihf gcc-i686-linux-gnu
# gcc-s390x-linux-gnu qemu-user). CROSS_TARGETS="armhf i386" picks
# targets; JOBS (default 2) compiles in parallel. Each test's RESULT line
# is added up as tests/run.sh does; prints RESULT <passed> <failed>.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
TARGETS=${CROSS_TARGETS:-armhf i386 s390x}
WARN="-Wall -Wextra -Werror -pedantic"
pass=0; fail=0; ran=0
for t in $TARGETS; do
  case $t in
    armhf) cc=arm-linux-gnueabihf-gcc; q=qemu-arm; root=/usr/arm-linux-gnueabihf ;;
    i386)  cc=i686-linux-gnu-gcc;      q=qemu-i386; root=/usr/i686-linux-gnu ;;
    s390x) cc=s390x-linux-gnu-gcc;     q=qemu-s390x; root=/usr/s390x-linux-gnu ;;
    *) echo "cross: unknown target '$t' (armhf, i386, s390x)"; fail=$((fail + 1)); continue ;;
  esac
  if ! command -v $cc >/dev/null 2>&1 || ! command -v $q >/dev/null 2>&1; then
    echo "skip: cross $t: needs $cc and $q (apt-get install gcc-${cc%-gcc} qemu-user)"
    continue
  fi
  d=$BUILD/cross/$t
  mkdir -p "$d"
  echo "== $t ($cc, $q)"
  # build in parallel; a failed build counts as a failed test
  ls tests/test_*.c | xargs -P "$JOBS" -I{} sh -c '
    n=$(basename {} .c)
    '"$cc"' -std=c99 -O1 -g '"$WARN"' -I. -Itests {} -o '"$d"'/$n -lm 2>'"$d"'/$n.build.txt ||
      rm -f '"$d"'/$n'
  for src in tests/test_*.c; do
    n=$(basename "$src" .c)
    ran=1
    if [ ! -x "$d/$n" ]; then
      echo "FAIL $t $n: build"; sed 's/^/  /' "$d/$n.build.txt" | head -n 20
      fail=$((fail + 1)); continue
    fi
    out=$($q -L "$root" "$d/$n" 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep '^RESULT ' | tail -n 1)
    if [ -n "$line" ]; then
      p=$(echo "$line" | cut -d' ' -f2); f=$(echo "$line" | cut -d' ' -f3)
    else
      p=0; f=1
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f))
    if [ "$f" -ne 0 ]; then
      printf '%s\n' "$out" | grep -v '^RESULT ' | tail -n 30
      printf '%-8s %-22s %4d passed, %d FAILED (exit %d)\n' "$t" "$n" "$p" "$f" "$rc"
    else
      printf '%-8s %-22s %4d passed\n' "$t" "$n" "$p"
    fi
  done
done
[ "$ran" -eq 0 ] && echo "cross: no target available; nothing run"
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
