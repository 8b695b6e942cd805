#!/bin/sh
# Compile matrix: ibcc.h with and without IBCC_IMPLEMENTATION as C99/C11 and
# C++11/C++17 on gcc and clang with -Wall -Wextra -Werror -pedantic and the
# warnings simulator code commonly adds (below), a two-translation-unit
# link, an IBCC_STATIC build (no exported ibcc symbols), IBCC_NO_FABRIC,
# the firmware profile (IBCC_FIRMWARE, IBCC_NO_FLOAT, IBCC_NO_STDIO), and a
# C-implementation / C++-user link (extern "C"), and the bench sources.
#
# Warnings, on top of -Wall -Wextra -Werror -pedantic:
#   all:      -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wundef
#             -Wcast-align -Wdouble-promotion -Wfloat-equal -Wformat=2
#             -Wno-format-nonliteral -Wredundant-decls
#   C:        -Wstrict-prototypes -Wmissing-prototypes -Wvla
#             (gcc: -Wold-style-definition -Wlogical-op -Wduplicated-cond
#             -Wjump-misses-init; clang: -Wcomma -Wnewline-eof
#             -Wmissing-variable-declarations -Wextra-semi-stmt)
#   C++:      -Wold-style-cast -Wzero-as-null-pointer-constant -Wextra-semi
#             -Wmissing-declarations (g++: -Wuseless-cast -Wlogical-op
#             -Wduplicated-cond; clang++: -Wreserved-identifier (clang 13
#             and later) -Wcomma -Wnewline-eof -Wmissing-prototypes
#             -Wmissing-variable-declarations -Wextra-semi-stmt)
# The implementation compiled as C++ silences -Wold-style-cast,
# -Wzero-as-null-pointer-constant, -Wuseless-cast and -Wreserved-identifier
# for itself (see the comment at IBCC_IMPLEMENTATION in ibcc.h); the
# declarations, which every user file compiles, get no such help: the
# header-only C++ builds below check them under every flag.
# Prints RESULT <passed> <failed>.
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}/matrix
mkdir -p "$B"
W="-Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion -Wshadow \
-Wcast-qual -Wundef -Wcast-align -Wdouble-promotion -Wfloat-equal -Wformat=2 \
-Wno-format-nonliteral -Wredundant-decls"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL matrix: $1"; sed 's/^/  /' "$B/err" | head -n 20; }
try() { name=$1; shift; if "$@" >"$B/err" 2>&1; then ok; else bad "$name"; fi; }
# flags FILE-LANG COMPILER FLAG...: the flags this compiler accepts
flags() {
  lang=$1; comp=$2; shift 2; out=""
  for f in "$@"; do
    if echo "int x;" | $comp -x "$lang" -Werror "$f" -fsyntax-only - >/dev/null 2>&1; then
      out="$out $f"
    fi
  done
  echo "$out"
}
PROFILES="-DIBCC_NO_FABRIC -DIBCC_FIRMWARE -DIBCC_NO_FLOAT -DIBCC_NO_STDIO"

for cc in gcc clang; do
  if ! command -v $cc >/dev/null 2>&1; then
    echo "skip: $cc not installed (apt-get install $cc)"; continue
  fi
  WC="$W $(flags c $cc -Wstrict-prototypes -Wmissing-prototypes -Wvla \
      -Wold-style-definition -Wlogical-op -Wduplicated-cond -Wjump-misses-init \
      -Wcomma -Wnewline-eof -Wmissing-variable-declarations -Wextra-semi-stmt)"
  for std in c99 c11; do
    try "$cc -std=$std" $cc -std=$std $WC -I. -c tests/compile/use.c -o "$B/use.o"
    try "$cc -std=$std -DIBCC_IMPLEMENTATION" $cc -std=$std $WC -DIBCC_IMPLEMENTATION \
        -I. -c tests/compile/use.c -o "$B/use.o"
    for p in $PROFILES; do
      try "$cc -std=$std -DIBCC_IMPLEMENTATION $p" $cc -std=$std $WC -DIBCC_IMPLEMENTATION $p \
          -I. -c tests/compile/use.c -o "$B/use.o"
    done
  done
  try "$cc two-TU link" sh -c "$cc -std=c99 $WC -I. -c tests/compile/use.c -o $B/a.o && \
      $cc -std=c99 $WC -I. -c tests/compile/main_impl.c -o $B/b.o && \
      $cc $B/a.o $B/b.o -o $B/link -lm && $B/link"
  try "$cc IBCC_STATIC" sh -c "$cc -std=c99 $WC -DIBCC_STATIC -DIBCC_IMPLEMENTATION -I. -c tests/compile/use.c -o $B/sa.o && \
      $cc -std=c99 $WC -DIBCC_STATIC -I. -c tests/compile/main_impl.c -o $B/sb.o && \
      $cc $B/sa.o $B/sb.o -o $B/slink -lm && $B/slink && \
      ! nm -g --defined-only $B/sa.o $B/sb.o | grep ' ibcc_' | grep -qv ' ibcc_compile_probe\$'"
  try "$cc IBCC_STATIC IBCC_FIRMWARE" $cc -std=c99 $WC -DIBCC_STATIC -DIBCC_FIRMWARE \
      -DIBCC_IMPLEMENTATION -I. -c tests/compile/use.c -o "$B/sf.o"
done
for cxx in g++ clang++; do
  if ! command -v $cxx >/dev/null 2>&1; then
    echo "skip: $cxx not installed (apt-get install ${cxx%++}${cxx#*++})"; continue
  fi
  WX="$W $(flags c++ $cxx -Wold-style-cast -Wzero-as-null-pointer-constant -Wextra-semi \
      -Wmissing-declarations -Wuseless-cast -Wlogical-op -Wduplicated-cond \
      -Wreserved-identifier -Wcomma -Wnewline-eof -Wmissing-prototypes \
      -Wmissing-variable-declarations -Wextra-semi-stmt)"
  for std in c++11 c++17; do
    try "$cxx -std=$std" $cxx -std=$std $WX -I. -c tests/compile/use.cc -o "$B/usecc.o"
    try "$cxx -std=$std -DIBCC_FIRMWARE" $cxx -std=$std $WX -DIBCC_FIRMWARE -I. \
        -c tests/compile/use.cc -o "$B/usecc.o"
    try "$cxx -std=$std -DIBCC_IMPLEMENTATION" $cxx -std=$std $WX -DIBCC_IMPLEMENTATION \
        -I. -c tests/compile/use.cc -o "$B/usecc.o"
    for p in $PROFILES; do
      try "$cxx -std=$std -DIBCC_IMPLEMENTATION $p" $cxx -std=$std $WX -DIBCC_IMPLEMENTATION $p \
          -I. -c tests/compile/use.cc -o "$B/usecc.o"
    done
  done
  cc=gcc; [ "$cxx" = clang++ ] && cc=clang
  if command -v $cc >/dev/null 2>&1; then
    WC="$W $(flags c $cc -Wstrict-prototypes -Wmissing-prototypes)"
    try "$cc C implementation + $cxx user link" sh -c "$cc -std=c99 $WC -I. -c tests/compile/main_impl.c -o $B/mc.o && \
        $cxx -std=c++11 $WX -I. -c tests/compile/cxx_user.cc -o $B/mu.o && \
        $cxx $B/mc.o $B/mu.o -o $B/mixed -lm && $B/mixed"
  fi
done
# The benchmarks are built only by `make bench`: check here that their
# sources still compile against today's header (an enum value a bench's
# switch does not handle, a changed signature), with the flags `make
# bench` uses, front end only.
for f in bench/bench_*.c; do
  try "gcc $f (make bench's flags)" gcc -std=c99 -D_POSIX_C_SOURCE=199309L \
      -Wall -Wextra -Werror -pedantic -I. -Ibench -fsyntax-only "$f"
done
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
