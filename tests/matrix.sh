#!/bin/sh
# Compile matrix: ibcc.h with and without IBCC_IMPLEMENTATION as C99/C11 and
# C++11/C++17 on gcc and clang with -Wall -Wextra -Werror -pedantic (plus
# -Wconversion -Wsign-conversion), a two-translation-unit link, an
# IBCC_STATIC build (no exported ibcc symbols), IBCC_NO_FABRIC, and a
# C-implementation / C++-user link (extern "C").
# Prints RESULT <passed> <failed> for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}/matrix
mkdir -p "$B"
W="-Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion -Wshadow"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL matrix: $1"; sed 's/^/  /' "$B/err" | head -n 20; }
try() { name=$1; shift; if "$@" >"$B/err" 2>&1; then ok; else bad "$name"; fi; }

for cc in gcc clang; do
  if ! command -v $cc >/dev/null 2>&1; then
    echo "skip: $cc not installed (apt-get install $cc)"; continue
  fi
  for std in c99 c11; do
    for impl in "" "-DIBCC_IMPLEMENTATION" "-DIBCC_IMPLEMENTATION -DIBCC_NO_FABRIC"; do
      try "$cc -std=$std $impl" $cc -std=$std $W $impl -I. -c tests/compile/use.c -o "$B/use.o"
    done
  done
  try "$cc two-TU link" sh -c "$cc -std=c99 $W -I. -c tests/compile/use.c -o $B/a.o && \
      $cc -std=c99 $W -I. -c tests/compile/main_impl.c -o $B/b.o && \
      $cc $B/a.o $B/b.o -o $B/link -lm && $B/link"
  try "$cc IBCC_STATIC" sh -c "$cc -std=c99 $W -DIBCC_STATIC -DIBCC_IMPLEMENTATION -I. -c tests/compile/use.c -o $B/sa.o && \
      $cc -std=c99 $W -DIBCC_STATIC -I. -c tests/compile/main_impl.c -o $B/sb.o && \
      $cc $B/sa.o $B/sb.o -o $B/slink -lm && $B/slink && \
      ! nm -g --defined-only $B/sa.o $B/sb.o | grep ' ibcc_' | grep -qv ' ibcc_compile_probe\$'"
done
for cxx in g++ clang++; do
  if ! command -v $cxx >/dev/null 2>&1; then
    echo "skip: $cxx not installed (apt-get install ${cxx%++}${cxx#*++})"; continue
  fi
  for std in c++11 c++17; do
    for impl in "" "-DIBCC_IMPLEMENTATION" "-DIBCC_IMPLEMENTATION -DIBCC_NO_FABRIC"; do
      try "$cxx -std=$std $impl" $cxx -std=$std $W $impl -I. -c tests/compile/use.cc -o "$B/usecc.o"
    done
  done
  cc=gcc; [ "$cxx" = clang++ ] && cc=clang
  if command -v $cc >/dev/null 2>&1; then
    try "$cc C implementation + $cxx user link" sh -c "$cc -std=c99 $W -I. -c tests/compile/main_impl.c -o $B/mc.o && \
        $cxx -std=c++11 $W -I. -c tests/compile/cxx_user.cc -o $B/mu.o && \
        $cxx $B/mc.o $B/mu.o -o $B/mixed -lm && $B/mixed"
  fi
done
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
