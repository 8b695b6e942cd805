#!/bin/sh
# Finds an installed ns-3 (Debian/Ubuntu: apt-get install libns3-dev) and
# prints the compiler flags for some of its modules.
#
#   sh tools/ns3-detect.sh --sh MODULE...        shell assignments (eval them)
#   sh tools/ns3-detect.sh --mk FILE MODULE...   make assignments into FILE
#                                                (rewritten only when changed)
# MODULE is an ns-3 module name (core, network, ...). Output variables:
# NS3_CFLAGS, NS3_LIBS, NS3_VERSION. Exit status 1, with a "skip:" line on
# standard error, when ns-3 or a C++ compiler ($CXX, default c++) is missing.
#
# Debian's ns-3 3.37 .pc files emit a broken "-I/usr\;" token and name
# libsqlite3/libgsl .so files that exist only with their -dev packages, so
# only -I directories and library files that exist are kept (and the -I
# directories become -isystem: warnings in ns-3's headers are not ours).
# Without pkg-config, headers in /usr/include/ns3 mean -lns3-<module>.
# IBCC_NS3=no in the environment skips ns-3 even when it is installed.
fmt=$1; shift
out=
if [ "$fmt" = --mk ]; then out=$1; shift; fi
if [ "${IBCC_NS3:-}" = no ]; then
  echo "skip: ns-3 model (IBCC_NS3=no)" >&2
  exit 1
fi
CXX=${CXX:-c++}
command -v "$CXX" >/dev/null 2>&1 || CXX=g++
if ! command -v "$CXX" >/dev/null 2>&1; then
  echo "skip: no C++ compiler for the ns-3 model (apt-get install g++)" >&2
  exit 1
fi
cflags=""; libs=""; version=""
pcs=""
for m in "$@"; do pcs="$pcs ns3-$m"; done
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $pcs 2>/dev/null; then
  for w in $(pkg-config --cflags $pcs 2>/dev/null); do
    d=${w#-I}
    case $w in
      *\\*|*\;*|*\"*) ;;   # the broken token: not a directory
      -I*) [ -d "$d" ] && case " $cflags " in *" -isystem $d "*) ;; *) cflags="$cflags -isystem $d" ;; esac ;;
    esac
  done
  for w in $(pkg-config --libs $pcs 2>/dev/null); do
    w=$(printf '%s' "$w" | tr -d '\\;"')
    case $w in
      -l*|-L*) libs="$libs $w" ;;
      /*) [ -f "$w" ] && libs="$libs $w" ;;
    esac
  done
  version=$(pkg-config --modversion ns3-core 2>/dev/null)
else
  for m in "$@"; do
    found=no
    for f in /usr/lib/libns3*-"$m".so /usr/lib/*/libns3*-"$m".so /usr/lib64/libns3*-"$m".so; do
      [ -f "$f" ] && found=yes
    done
    if [ ! -d /usr/include/ns3 ] || [ $found = no ]; then
      echo "skip: ns-3 not found (apt-get install libns3-dev)" >&2
      exit 1
    fi
    libs="-lns3-$m $libs"   # dependents first: network before core
  done
fi
[ -f /usr/include/ns3/simulator.h ] || [ -n "$cflags" ] || {
  echo "skip: ns-3 not found (apt-get install libns3-dev)" >&2
  exit 1
}
if [ "$fmt" = --mk ]; then
  mkdir -p "$(dirname "$out")"
  new=$(printf 'NS3_CFLAGS =%s\nNS3_LIBS =%s\nNS3_VERSION = %s\nNS3_CXX = %s\n' \
        "$cflags" "$libs" "${version:-unknown}" "$CXX")
  if [ ! -f "$out" ] || [ "$(cat "$out")" != "$new" ]; then
    printf '%s\n' "$new" > "$out"
  fi
else
  printf "NS3_CFLAGS='%s'\nNS3_LIBS='%s'\nNS3_VERSION='%s'\nNS3_CXX='%s'\n" \
    "$cflags" "$libs" "$version" "$CXX"
fi
