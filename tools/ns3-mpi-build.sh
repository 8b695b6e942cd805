#!/bin/sh
# Builds ns-3's MPI module (the distributed simulator, the MPI interface,
# remote channel bundles, the receiver) for an installed ns-3 that ships
# without it (Debian's libns3-dev 3.37 is built with --disable-mpi), from
# ns-3's own sources of the installed version, against Open MPI:
#   build/ns3mpi/include/ns3/*.h   the module's headers
#   build/ns3mpi/lib/libns3-mpi.so the module, linked to the installed
#                                  ns3-core and ns3-network
#   build/ns3mpi/flags.mk          MPI_CXX, MPI_CFLAGS, MPI_LIBS for make
# The sources: $NS3_MPI_SRC (an ns-3 source tree or its src/mpi/model
# directory) if set, else Debian's source package of the installed
# libns3-dev version, fetched once with `apt-get source --download-only`
# into build/ns3mpi/dl (needs deb-src entries in apt's sources) and only
# src/mpi/model extracted. The module's eight sources need nothing from
# ns-3's core or network built with MPI (NS3_MPI appears only in the
# point-to-point helper; the installed headers' only configuration macros,
# NS3_LOG_ENABLE, NS3_ASSERT_ENABLE and the build profile, change no class
# layout), so they link to Debian's libraries as they are; logging is on,
# as in Debian's build (NS3_LOG_ENABLE).
#
# Exit 0 when built (or up to date); 1 with a "skip:" line on standard
# error naming what to install when a part is missing; 2 when a build
# step fails. Environment: BUILD (default build).
B=${BUILD:-build}
D=$B/ns3mpi
skip() { echo "skip: ns-3 MPI build: $*" >&2; exit 1; }
fail() { echo "FAIL: ns-3 MPI build: $*" >&2; exit 2; }

command -v mpicxx >/dev/null 2>&1 ||
  skip "no MPI C++ compiler (apt-get install libopenmpi-dev openmpi-bin)"
command -v mpirun >/dev/null 2>&1 ||
  skip "no mpirun (apt-get install openmpi-bin)"
[ -f /usr/include/ns3/simulator.h ] && [ -f /usr/include/ns3/node-list.h ] ||
  skip "no ns-3 headers (apt-get install libns3-dev)"
ver=$(pkg-config --modversion ns3-core 2>/dev/null)
[ -n "$ver" ] || skip "ns-3's version unknown (apt-get install libns3-dev pkg-config)"

mkdir -p "$D/include/ns3" "$D/lib" "$D/obj" "$D/dl" || fail "cannot create $D"
src=$D/src
if [ ! -f "$src/mpi-interface.cc" ]; then
  mkdir -p "$src"
  if [ -n "${NS3_MPI_SRC:-}" ]; then
    for d in "$NS3_MPI_SRC" "$NS3_MPI_SRC/src/mpi/model" "$NS3_MPI_SRC/model"; do
      [ -f "$d/mpi-interface.cc" ] && { cp -p "$d"/*.cc "$d"/*.h "$src/" || fail "copy from $d"; break; }
    done
    [ -f "$src/mpi-interface.cc" ] || skip "NS3_MPI_SRC=$NS3_MPI_SRC has no src/mpi/model"
  else
    command -v apt-get >/dev/null 2>&1 ||
      skip "no apt-get to fetch ns-3 $ver's sources (set NS3_MPI_SRC to an ns-3-$ver source tree)"
    debver=$(dpkg-query -W -f='${Version}' libns3-dev 2>/dev/null)
    [ -n "$debver" ] || skip "libns3-dev is not a Debian package here (set NS3_MPI_SRC)"
    if ! ls "$D"/dl/ns3_*.orig.tar.* >/dev/null 2>&1; then
      echo "  GET  ns3 $debver source package (apt-get source --download-only)"
      if ! (cd "$D/dl" && apt-get source -qq --download-only "ns3=$debver") >"$D/dl/get.log" 2>&1; then
        skip "apt-get source ns3=$debver failed (enable deb-src entries: a 'Types: deb-src' stanza or deb-src line for your Debian suite, then apt-get update; see $D/dl/get.log)"
      fi
    fi
    tarball=$(ls "$D"/dl/ns3_*.orig.tar.* 2>/dev/null | head -n 1)
    [ -n "$tarball" ] || fail "no ns3 .orig tarball in $D/dl"
    rm -rf "$D/dl/x" && mkdir -p "$D/dl/x"
    tar -xf "$tarball" -C "$D/dl/x" --wildcards '*/src/mpi/model/*' ||
      fail "cannot extract src/mpi/model from $tarball"
    m=$(find "$D/dl/x" -type d -path '*/src/mpi/model' | head -n 1)
    [ -n "$m" ] && cp -p "$m"/*.cc "$m"/*.h "$src/" || fail "no src/mpi/model in $tarball"
    rm -rf "$D/dl/x"
  fi
fi
cp -p "$src"/*.h "$D/include/ns3/" || fail "headers"

# Open MPI's C++ bindings are not used by ns-3 (its C API only)
cxxflags="-std=c++17 -O2 -fPIC -DNS3_LOG_ENABLE -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX -I$D/include"
objs=""
for f in "$src"/*.cc; do
  o=$D/obj/$(basename "$f" .cc).o
  objs="$objs $o"
  if [ ! -f "$o" ] || [ "$f" -nt "$o" ]; then
    echo "  CXX  ns-3 $ver src/mpi/model/$(basename "$f")"
    mpicxx $cxxflags -c "$f" -o "$o" 2>"$o.log" || { cat "$o.log" >&2; fail "compiling $f"; }
  fi
done
lib=$D/lib/libns3-mpi.so
newer=no
for o in $objs; do [ "$o" -nt "$lib" ] && newer=yes; done
if [ ! -f "$lib" ] || [ $newer = yes ]; then
  echo "  LINK $lib (ns-3 $ver MPI module)"
  # shellcheck disable=SC2086
  mpicxx -shared -Wl,--no-undefined -o "$lib" $objs -lns3-network -lns3-core ||
    fail "linking $lib against the installed ns3-network and ns3-core"
fi
new=$(printf 'MPI_CXX = mpicxx\nMPI_CFLAGS = -DOMPI_SKIP_MPICXX=1 -DMPICH_SKIP_MPICXX -I%s/include\nMPI_LIBS = -L%s/lib -Wl,-rpath,%s/lib -lns3-mpi\nNS3_MPI_VERSION = %s\n' \
      "$(cd "$D" && pwd)" "$(cd "$D" && pwd)" "$(cd "$D" && pwd)" "$ver")
if [ ! -f "$D/flags.mk" ] || [ "$(cat "$D/flags.mk")" != "$new" ]; then
  printf '%s\n' "$new" > "$D/flags.mk"
fi
exit 0
