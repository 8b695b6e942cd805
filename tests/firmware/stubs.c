/* memcpy and memset for the -nostdlib link of make firmware-check
   (tests/firmware.sh): a firmware image gets them from its C library or
   SDK; here they only let the link show that nothing else is missing.
   Compiled with -fno-builtin and -fno-tree-loop-distribute-patterns so
   the loops stay loops. */
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

#if defined(__arm__)
/* ARM run-time ABI hooks a platform defines: called by the compiler's
   64-bit division helpers (__aeabi_uldivmod, __aeabi_ldivmod) on a
   division by zero. A bare-metal libgcc provides empty ones; the Linux
   cross compiler's calls raise(), so the check defines them. ibcc never
   divides by zero. */
void __aeabi_idiv0(void);
void __aeabi_ldiv0(void);
void __aeabi_idiv0(void) { }
void __aeabi_ldiv0(void) { }
#endif
