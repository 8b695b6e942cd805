#!/bin/sh
# Stages `make install` under a DESTDIR and builds a program against it
# through `pkg-config --cflags --libs ibcc`; ibccsim and its manual page
# are installed beside it. Prints RESULT for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd); B=${BUILD:-build}
case $B in /*) stage=$B/stage ;; *) stage=$root/$B/stage ;; esac
rm -rf "$stage"; mkdir -p "$B"
pass=0; fail=0
if ! command -v pkg-config >/dev/null 2>&1; then
  echo "skip: pkg-config not installed (apt-get install pkg-config)"
  echo "RESULT 0 0"; exit 0
fi
if make -s install DESTDIR="$stage" PREFIX=/usr/local >"$B/install.log" 2>&1 \
   && [ -f "$stage/usr/local/include/ibcc.h" ] \
   && [ -f "$stage/usr/local/lib/pkgconfig/ibcc.pc" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL install: make install DESTDIR=$stage"; cat "$B/install.log"
fi
# ibccsim beside the header, with its manual page; it runs from there
if [ -x "$stage/usr/local/bin/ibccsim" ] && [ -s "$stage/usr/local/share/man/man1/ibccsim.1" ] \
   && "$stage/usr/local/bin/ibccsim" --version | grep -q "^ibccsim (ibcc $(sed -n 's/^#define IBCC_VERSION_STRING "\(.*\)"/\1/p' ibcc.h))$" \
   && head -n 1 "$stage/usr/local/share/man/man1/ibccsim.1" | grep -q '^\.TH IBCCSIM 1' \
   && [ "$(grep -c '^\.SS ' "$stage/usr/local/share/man/man1/ibccsim.1")" -ge 13 ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL install: ibccsim or its manual page missing or wrong"
fi
if command -v man >/dev/null 2>&1; then
  if man -l "$stage/usr/local/share/man/man1/ibccsim.1" 2>"$B/man.err" | grep -q 'ccti-timer'; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL install: man -l ibccsim.1: $(cat "$B/man.err")"
  fi
fi
flags=$(PKG_CONFIG_PATH="$stage/usr/local/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage" \
        pkg-config --cflags --libs ibcc 2>&1)
mkdir -p "$B/pkgtest"
# build from a directory without ibcc.h so only the staged copy can be found
if (cd "$B/pkgtest" && ${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic \
      $root/tests/compile/main_impl.c $root/tests/compile/use.c $flags -o prog && ./prog) \
      >"$B/pkgtest.log" 2>&1 \
   && echo "$flags" | grep -q "$stage/usr/local/include"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL pkg-config build (flags: $flags)"; cat "$B/pkgtest.log"
fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
