/* The <string.h> of a bare-metal C library, cut down to what ibcc.h's
   firmware profile uses: tests/firmware.sh compiles the firmware object
   with -nostdinc, the compiler's own headers (stddef.h, stdint.h) and
   this file, so any other C library dependency fails to compile. */
#ifndef IBCC_FIRMWARE_STRING_H
#define IBCC_FIRMWARE_STRING_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
#ifdef __cplusplus
}
#endif
#endif
