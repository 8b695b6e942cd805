#!/bin/sh
# make firmware-check (and make test, through tests/run.sh): the firmware
# profile of ibcc.h (IBCC_FIRMWARE; docs/embedding.md).
#
# 1. ibccsim law-table --emit-c writes ROM tables (the non-static file
#    compiles on its own, freestanding, and under a user's IBCC_FIRMWARE
#    without a warning); tests/firmware/rom_test.c
#    checks, hosted, that each ROM law steps exactly as the law compiled at
#    init, and that damaged tables are refused.
# 2. tests/firmware/fw.c (every per-packet engine, static memory, a ROM law)
#    is compiled freestanding for each target present: -ffreestanding,
#    -nostdinc with only the compiler's own headers and
#    tests/firmware/include/string.h, no floating point (x86-64:
#    -mgeneral-regs-only, which rejects any floating-point code; the
#    32-bit and s390x targets: soft float, so floating point would show up
#    as calls to the compiler's float helpers). Its undefined symbols are
#    printed one per line after "undefined symbols:" (and must be the
#    README's row for that target); anything beyond
#    memcpy, memset and the compiler's integer helpers (64-bit division,
#    count-trailing-zeros: __aeabi_uldivmod/__aeabi_ldivmod/__aeabi_uidivmod/
#    __aeabi_idivmod on ARM, __udivdi3/__umoddi3/__divdi3/__moddi3/
#    __udivmoddi4/__divmoddi4 on i386, __ctzdi2 and friends) fails. The
#    object is then linked with -nostdlib, tests/firmware/stubs.c (memcpy,
#    memset) and the compiler's libgcc.
#    Targets: the host compiler (x86-64), and when installed
#    arm-linux-gnueabihf-gcc (Cortex-M3 Thumb-2, soft float),
#    i686-linux-gnu-gcc, s390x-linux-gnu-gcc; skipped with a message
#    otherwise (apt-get install gcc-arm-linux-gnueabihf gcc-i686-linux-gnu
#    gcc-s390x-linux-gnu).
# 3. fw.c hosted (-DFW_HOSTED) runs its own checks natively and, with
#    qemu-user, on armhf, i386 and s390x.
# 4. The profile leaves functions out at compile time: a call to one of
#    them does not compile.
# 5. On ARM, the worst stack depth per engine (tools/stack.sh, GCC's
#    -fcallgraph-info=su); fails if an engine's per-packet calls need more
#    than STACK_BUDGET bytes (default 512), or if README's stack table or
#    docs/embedding.md's maxima differ from what it measured.
# 6. examples/firmware_marker.c, the README's firmware example, compiled
#    freestanding like fw.c for the host and linked with -nostdlib: its
#    undefined symbols must be memcpy and memset and nothing else; built
#    hosted it must mark 9 of its 24 packets (what the same setting gave
#    when it was read from its ibccconfig text).
# Prints RESULT <passed> <failed> for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
B=$BUILD/firmware
SIM=$BUILD/ibccsim
BUDGET=${STACK_BUDGET:-512}
mkdir -p "$B"
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL firmware: $1"; [ -f "$B/err" ] && sed 's/^/  /' "$B/err" | head -n 20; }
try() { name=$1; shift; if "$@" >"$B/err" 2>&1; then ok; else bad "$name"; fi; }
have() { command -v "$1" >/dev/null 2>&1; }

if [ ! -x "$SIM" ]; then
  echo "FAIL firmware: $SIM not built (make $SIM)"; echo "RESULT 0 1"; exit 1
fi

# ---- 1. ROM tables -------------------------------------------------------
gen() {  # FILE NAME FLAGS...: one ROM file
  f=$1; n=$2; shift 2; "$SIM" law-table "$@" --emit-c --name "$n" > "$B/$f.c"
}
gen_all() {
  gen fw_rom fw_lipd --law lipd --static &&
  gen rom_lipd rom_lipd --law lipd --static &&
  gen rom_lipd100 rom_lipd100 --law lipd --rmin-div 100 --static &&
  gen rom_fimd rom_fimd --law fimd --rates geometric --size 64 --static &&
  gen rom_aimd rom_aimd --law aimd --m 1.5 --rmin 0.001 --rates geometric --size 300 --static &&
  gen ext_aimd ext_aimd --law aimd
}
try "ibccsim law-table --emit-c" gen_all
# the non-static form compiles as a C99 translation unit of its own
try "emitted C file, pedantic C99" cc -std=c99 -Wall -Wextra -Werror -pedantic \
    -I. -c "$B/ext_aimd.c" -o "$B/ext_aimd.o"
WF="-std=c99 -Wall -Wextra -Werror -pedantic"
# ... and as its header says: freestanding as it is, with -DIBCC_FIRMWARE,
# and #included after a user's own #define IBCC_FIRMWARE (no "redefined")
try "emitted C file, freestanding" cc $WF -Os -ffreestanding -I. -c "$B/ext_aimd.c" -o "$B/ext_aimd_fs.o"
try "emitted C file, -DIBCC_FIRMWARE" cc $WF -DIBCC_FIRMWARE -I. -c "$B/ext_aimd.c" -o "$B/ext_aimd_fw.o"
printf '#define IBCC_FIRMWARE\n#include "ext_aimd.c"\n' > "$B/ext_user.c"
try "emitted C file under a user's #define IBCC_FIRMWARE" cc $WF -I. -I"$B" -c "$B/ext_user.c" -o "$B/ext_user.o"
try "rom_test build" cc $WF -O1 -DIBCC_NO_FABRIC -I. -Itests -I"$B" tests/firmware/rom_test.c -o "$B/rom_test" -lm
try "rom_test: ROM laws step as laws compiled at init" "$B/rom_test"

# ---- 2. freestanding objects ---------------------------------------------
# allowed externals: memcpy, memset and integer helpers of the compiler
allowed='^(memcpy|memset|__aeabi_(u?ldivmod|u?idivmod|u?idiv|llsl|llsr|lasr|lmul|u?lcmp)|__(u?div|u?mod)di3|__u?divmoddi4|__(ctz|clz|popcount|ffs|parity)[ds]i2|__(ashl|ashr|lshr|mul)di3|__u?cmpdi2)$'
# freestanding TARGET-NAME CC FLAGS...: builds $B/TARGET/fw.o and links it
freestanding() {
  t=$1; cc=$2; shift 2
  d=$B/$t; mkdir -p "$d"
  inc=$($cc -print-file-name=include)
  ff="-std=c99 -Os -ffreestanding -nostdinc -isystem $inc -Itests/firmware/include -I. -I$B"
  if ! $cc $ff "$@" -Wall -Wextra -Werror -pedantic -fcallgraph-info=su \
       -c tests/firmware/fw.c -o "$d/fw.o" >"$B/err" 2>&1; then
    # older compilers without -fcallgraph-info
    if ! $cc $ff "$@" -Wall -Wextra -Werror -pedantic -c tests/firmware/fw.c \
         -o "$d/fw.o" >"$B/err" 2>&1; then
      bad "$t: freestanding compile ($cc $*)"; return
    fi
  fi
  ok
  echo "firmware object $d/fw.o ($t: $cc -Os -ffreestanding $*)"
  echo "undefined symbols:"
  nm=nm; case $cc in *-gcc) p=${cc%gcc}; have "${p}nm" && nm=${p}nm ;; esac
  $nm -u "$d/fw.o" | awk '{print $NF}' | sort -u > "$d/undefined.txt"
  cat "$d/undefined.txt"
  # README's table of undefined symbols says the same for this target
  case $t in
    host) [ "$(uname -m)" = x86_64 ] && lbl='x86-64 (`-mgeneral-regs-only`)' || lbl= ;;
    arm) lbl='ARM Cortex-M3, soft float' ;;
    *) lbl="$t, soft float" ;;
  esac
  if [ -n "$lbl" ]; then
    row="| $lbl | \`$(tr '\n' ' ' < "$d/undefined.txt" | sed 's/ $//')\` |"
    if grep -F -x -q -- "$row" README.md; then ok
    else echo "  README.md lacks the row: $row" > "$B/err"; bad "$t: README's undefined-symbol table"; fi
  fi
  extra=$(grep -Ev "$allowed" "$d/undefined.txt")
  if [ -n "$extra" ]; then
    printf '%s\n' "$extra" > "$B/err"; bad "$t: needs more than memcpy, memset and integer helpers"
  else
    ok
  fi
  if $cc $ff "$@" -fno-builtin -fno-tree-loop-distribute-patterns -c tests/firmware/stubs.c \
       -o "$d/stubs.o" >"$B/err" 2>&1 &&
     $cc "$@" -nostdlib -static $LINKX -Wl,-e,ibcc_fw_run "$d/fw.o" "$d/stubs.o" -lgcc \
       -o "$d/fw.elf" >"$B/err" 2>&1; then
    ok; echo "linked with -nostdlib: $d/fw.elf"
  else
    bad "$t: -nostdlib link"
  fi
}

host_cc=${CC:-cc}
case $(uname -m) in
  x86_64|amd64|i?86) LINKX="-no-pie" freestanding host "$host_cc" -mgeneral-regs-only ;;
  *) LINKX="-no-pie" freestanding host "$host_cc" ;;
esac
if have arm-linux-gnueabihf-gcc; then
  # Cortex-M3: a microcontroller; the Linux cross toolchain's libgcc is
  # built for the A profile, hence --no-warn-mismatch for the link
  LINKX="-Wl,--no-warn-mismatch" freestanding arm arm-linux-gnueabihf-gcc \
      -mthumb -mcpu=cortex-m3 -mfloat-abi=soft
else
  echo "skip: 32-bit ARM firmware build: no arm-linux-gnueabihf-gcc (apt-get install gcc-arm-linux-gnueabihf)"
fi
if have i686-linux-gnu-gcc; then
  LINKX="-no-pie" freestanding i386 i686-linux-gnu-gcc -msoft-float -mno-sse -mno-80387 -fno-pic
else
  echo "skip: i386 firmware build: no i686-linux-gnu-gcc (apt-get install gcc-i686-linux-gnu)"
fi
if have s390x-linux-gnu-gcc; then
  LINKX="" freestanding s390x s390x-linux-gnu-gcc -msoft-float
else
  echo "skip: s390x firmware build: no s390x-linux-gnu-gcc (apt-get install gcc-s390x-linux-gnu)"
fi

# ---- 3. the firmware TU's own checks, hosted -----------------------------
try "fw.c hosted (native)" sh -c "cc $WF -DFW_HOSTED -I. -I$B tests/firmware/fw.c -o $B/fw_host && $B/fw_host"
cross_run() {  # NAME CC QEMU SYSROOT
  if have "$2" && have "$3"; then
    try "fw.c hosted ($1, $3)" sh -c "$2 $WF -DFW_HOSTED -I. -I$B tests/firmware/fw.c -o $B/fw_$1 && $3 -L $4 $B/fw_$1"
    try "rom_test ($1, $3)" sh -c "$2 $WF -O1 -DIBCC_NO_FABRIC -I. -Itests -I$B tests/firmware/rom_test.c -o $B/rom_test_$1 -lm && $3 -L $4 $B/rom_test_$1"
  else
    echo "skip: $1 run: needs $2 and $3 (apt-get install gcc-${2%-gcc} qemu-user)"
  fi
}
cross_run armhf arm-linux-gnueabihf-gcc qemu-arm /usr/arm-linux-gnueabihf
cross_run i386 i686-linux-gnu-gcc qemu-i386 /usr/i686-linux-gnu
cross_run s390x s390x-linux-gnu-gcc qemu-s390x /usr/s390x-linux-gnu

# ---- 4. left out at compile time -----------------------------------------
absent() {  # NAME MACRO CODE: must not compile
  printf '#define %s\n#define IBCC_IMPLEMENTATION\n#include "ibcc.h"\nint f(void);\nint f(void) { %s }\n' \
    "$2" "$3" > "$B/absent.c"
  if cc -std=c99 -Werror -pedantic -I. -c "$B/absent.c" -o "$B/absent.o" >"$B/err" 2>&1; then
    echo "  compiled: $3" > "$B/err"; bad "$1 is still there under $2"
  else
    ok
  fi
}
absent "ibcc_law_rate" IBCC_FIRMWARE "ibcc_law l; return ibcc_law_rate(&l) > 0.5;"
absent "ibcc_rng_double" IBCC_NO_FLOAT "ibcc_rng r; return ibcc_rng_double(&r) > 0.5;"
absent "ibcc_cct_fill_us" IBCC_NO_FLOAT "uint16_t o[1]; double u[1] = {1}; return (int)ibcc_cct_fill_us(o, u, 1, 1);"
absent "ibcc_swcc_parse_args" IBCC_NO_STDIO "ibcc_swcc s; return (int)ibcc_swcc_parse_args(&s, \"x\");"
absent "ibcc_cacc_parse_opensm_line" IBCC_NO_STDIO "ibcc_cacc_config c; return (int)ibcc_cacc_parse_opensm_line(&c, \"x\");"
absent "ibcc_vlarb_parse_table" IBCC_NO_STDIO "ibcc_vlarb_entry e[1]; uint32_t n; return (int)ibcc_vlarb_parse_table(\"x\", e, 1, &n);"
absent "the fabric (L3)" IBCC_NO_STDIO "return (int)sizeof(ibcc_fabric_desc);"
absent "the fabric (L3)" IBCC_NO_FLOAT "return (int)sizeof(ibcc_fabric_desc);"

# ---- 5. stack depth on ARM -----------------------------------------------
if [ -f "$B/arm/fw.ci" ]; then
  echo "worst stack depth per engine, bytes (ARM Cortex-M3 Thumb-2, gcc -Os; tools/stack.sh):"
  sh tools/stack.sh "$B/arm/fw.ci" | tee "$B/arm/stack.txt"
  over=$(awk -v b="$BUDGET" 'NR > 1 && $4 != "-" && $4 + 0 > b {print $1 " " $4}' "$B/arm/stack.txt")
  if [ -n "$over" ]; then echo "$over" > "$B/err"; bad "stack above $BUDGET bytes"; else ok; fi
  # README's stack table and docs/embedding.md's maxima are this table
  st=$B/arm/stack.txt
  col() { awk -v e="$1" -v c="$2" '$1 == e { print $c }' "$st"; }
  doc_has() {  # FILE TEXT: TEXT in FILE, line breaks counting as spaces
    if DOC_TEXT=$2 awk 'BEGIN { t = ENVIRON["DOC_TEXT"] } { b = b " " $0 }
         END { gsub(/[ \t]+/, " ", b); exit !index(b, t) }' "$1"; then ok
    else echo "  $1 lacks: $2" > "$B/err"; bad "$1 disagrees with the ARM stack table"; fi
  }
  for e in marker arbiter vlarb law pacer pairstate cct mvcm dest segment ecn int dcqcn hpcc loop; do
    doc_has README.md "$(col $e 2) (\`$(col $e 3)\`)"
  done
  for e in marker arbiter vlarb law pacer cct mvcm dest segment dcqcn hpcc loop; do
    doc_has README.md "$(col $e 4) (\`$(col $e 5)\`"
  done
  doc_has README.md "| $(col swcc 2) / $(col cacc 2) (\`$(col cacc 3)\`) |"
  doc_has README.md "| $(col wire 2) / $(col rng 2) | $(col wire 4) / $(col rng 4) |"
  pp=$(awk 'NR > 1 && $4 != "-" && $4 + 0 > m { m = $4 + 0; f = $5 } END { print m " " f }' "$st")
  any=$(awk 'NR > 1 && $2 + 0 > m { m = $2 + 0; f = $3 } END { print m " " f }' "$st")
  doc_has docs/embedding.md "at most ${pp%% *} bytes for any per-packet call"
  doc_has docs/embedding.md "${any%% *} for any call at all (\`${any#* }\`)"
else
  echo "skip: ARM stack depth table: needs arm-linux-gnueabihf-gcc with -fcallgraph-info (apt-get install gcc-arm-linux-gnueabihf)"
fi

# ---- 6. the README's firmware example -------------------------------------
EX=examples/firmware_marker.c
d=$B/example; mkdir -p "$d"
inc=$(cc -print-file-name=include)
xf=; case $(uname -m) in x86_64|amd64|i?86) xf=-mgeneral-regs-only ;; esac
exf="-std=c99 -Os -ffreestanding -nostdinc -isystem $inc -Itests/firmware/include -I. $xf"
if cc $exf -Wall -Wextra -Werror -pedantic -c $EX -o "$d/ex.o" >"$B/err" 2>&1; then
  ok
  und=$(nm -u "$d/ex.o" | awk '{print $NF}' | sort -u | tr '\n' ' ')
  echo "$EX freestanding: undefined symbols: $und"
  if [ "$und" = "memcpy memset " ]; then ok; else
    echo "  $und" > "$B/err"; bad "$EX freestanding needs more than memcpy and memset"
  fi
  try "$EX -nostdlib link" sh -c "cc $exf -fno-builtin -fno-tree-loop-distribute-patterns -c tests/firmware/stubs.c -o $d/stubs.o && cc -nostdlib -static -no-pie -Wl,-e,fw_switch_demo $d/ex.o $d/stubs.o -lgcc -o $d/ex.elf"
else
  bad "$EX: freestanding compile (cc $exf)"
fi
if cc -std=c99 -O2 -Wall -Wextra -Werror -pedantic -I. $EX -o "$d/ex_hosted" >"$B/err" 2>&1 &&
   "$d/ex_hosted" > "$d/ex_hosted.out" 2>"$B/err"; then
  last=$(tail -n 1 "$d/ex_hosted.out")
  if [ "$last" = "9 of 24 marked; rejected events: 0" ]; then ok; else
    echo "  $last" > "$B/err"; bad "$EX hosted: expected 9 of 24 marked"
  fi
else
  bad "$EX: hosted build and run"
fi

echo "RESULT $pass $fail"
[ "$fail" -eq 0 ]
