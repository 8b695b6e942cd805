#!/bin/sh
# Stages `make install` under a DESTDIR and builds a small consumer with
# CMake through find_package(ibcc) and the ibcc::ibcc target. Prints RESULT
# for tests/run.sh; skipped (RESULT 0 0) without cmake.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd); B=${BUILD:-build}
case $B in /*) work=$B/cmaketest ;; *) work=$root/$B/cmaketest ;; esac
stage=$work/stage
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
if ! command -v cmake >/dev/null 2>&1; then
  echo "skip: cmake not installed (apt-get install cmake)"
  echo "RESULT 0 0"; exit 0
fi
version=$(sed -n 's/^#define IBCC_VERSION_STRING "\(.*\)"/\1/p' ibcc.h)
rm -rf "$work"; mkdir -p "$work/src"

# 1. the package files are installed
if make -s install DESTDIR="$stage" PREFIX=/usr/local >"$work/install.log" 2>&1 \
   && [ -f "$stage/usr/local/lib/cmake/ibcc/ibccConfig.cmake" ] \
   && [ -f "$stage/usr/local/lib/cmake/ibcc/ibccConfigVersion.cmake" ]; then
  ok
else
  bad "make install did not install lib/cmake/ibcc/ibccConfig*.cmake"; cat "$work/install.log"
fi

# The consumer: two translation units (the implementation in one), C, and
# the implementation needs libm, which ibcc::ibcc must bring. Its source
# directory has no ibcc.h: only the staged copy can be found.
cp tests/compile/main_impl.c tests/compile/use.c "$work/src/"
cat > "$work/src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.5)
project(ibcc_consumer C)
find_package(ibcc \${WANT} REQUIRED)
if(NOT ibcc_VERSION STREQUAL "${version}")
  message(FATAL_ERROR "found ibcc \${ibcc_VERSION}, expected ${version}")
endif()
message(STATUS "ibcc \${ibcc_VERSION} from \${ibcc_DIR}")
add_executable(consumer main_impl.c use.c)
target_link_libraries(consumer PRIVATE ibcc::ibcc)
EOF

configure() {   # configure DIR WANTED_VERSION
  rm -rf "$1"; mkdir -p "$1"
  (cd "$1" && cmake -DCMAKE_PREFIX_PATH="$stage/usr/local" -DWANT="$2" \
                    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" "$work/src") >"$1.log" 2>&1
}

# 2. find_package(ibcc <major.minor>) finds the staged package; the
#    consumer builds, links (libm) and runs
want=$(echo "$version" | cut -d. -f1,2)
if configure "$work/build" "$want" && (cd "$work/build" && cmake --build .) >>"$work/build.log" 2>&1 \
   && "$work/build/consumer"; then
  ok
else
  bad "find_package(ibcc $want) consumer (log: $work/build.log)"; tail -n 30 "$work/build.log"
fi
# 3. it was the staged copy
if grep -q "from $stage/usr/local/lib/cmake/ibcc" "$work/build.log"; then
  ok
else
  bad "ibcc_DIR is not the staged package"; grep "ibcc " "$work/build.log"
fi
# 4. a version it cannot satisfy is refused
if configure "$work/build99" 99.0; then
  bad "find_package(ibcc 99.0) succeeded"
else
  ok
fi
echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
