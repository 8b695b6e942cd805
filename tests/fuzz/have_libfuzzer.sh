#!/bin/sh
# Prints "yes" when the C compiler $1 (default clang) can build and link a
# libFuzzer harness with the address and undefined-behaviour sanitizers.
cc=${1:-clang}
command -v "$cc" >/dev/null 2>&1 || exit 0
tmp=$(mktemp -d 2>/dev/null || echo /tmp/ibcc-lf.$$)
mkdir -p "$tmp"
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
  > "$tmp/probe.c"
if "$cc" -fsanitize=fuzzer,address,undefined "$tmp/probe.c" -o "$tmp/probe" >/dev/null 2>&1; then
  echo yes
fi
rm -rf "$tmp"
