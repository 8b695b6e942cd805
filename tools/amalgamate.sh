#!/bin/sh
# Builds the single header ibcc.h from the section files in src/.
# Usage: tools/amalgamate.sh [PART...]   (writes to standard output)
# With no PART, every part below is included, in layer order. Naming parts
# lets one build a header with only some sections (used during development).
# Each part NAME contributes src/NAME.decl.h to the declaration half and
# src/NAME.impl.h (if present) to the implementation half.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
order="basics marker arbiter swcc law pacer cct cacc mvcm dest segment loop fabric"
if [ $# -gt 0 ]; then order="$*"; fi
cat "$here/src/_begin.h"
for p in $order; do
  f="$here/src/$p.decl.h"
  [ -f "$f" ] && { cat "$f"; echo; }
done
cat "$here/src/_middle.h"
for p in $order; do
  f="$here/src/$p.impl.h"
  [ -f "$f" ] && { cat "$f"; echo; }
done
cat "$here/src/_end.h"
