/* Shared helpers of the fuzz harnesses in tests/fuzz/ (docs/robustness.md).

   Each harness defines LLVMFuzzerTestOneInput(data, size): it decodes the
   bytes into a configuration and a sequence of operations, runs them on an
   ibcc engine and on a simple reference (or checks documented invariants)
   and calls abort() with a message on the first disagreement.

   Built with clang -fsanitize=fuzzer the libFuzzer driver calls it. Built
   with -DIBCC_FUZZ_STANDALONE (any C99 compiler) this header supplies a
   main() that runs every file of the directories (or the files) named on
   the command line once, so that a machine without libFuzzer can replay
   the committed corpus: `build/fuzz-sa/fuzz_law tests/fuzz/corpus/law`.

   Include this header first: it selects POSIX for the directory reader. */
#ifndef IBCC_FUZZ_H
#define IBCC_FUZZ_H

#if defined(IBCC_FUZZ_STANDALONE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ibcc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- input decoding ----------------------------------------------------
   Reads past the end give zeros, so every input decodes to something. */
typedef struct fz {
    const uint8_t *p;
    size_t n, i;
} fz;

static inline void fz_init(fz *f, const uint8_t *p, size_t n)
{
    f->p = p;
    f->n = n;
    f->i = 0;
}
static inline int fz_more(const fz *f) { return f->i < f->n; }
static inline uint8_t fz_u8(fz *f) { return f->i < f->n ? f->p[f->i++] : 0u; }
static inline uint16_t fz_u16(fz *f)
{
    uint16_t lo = fz_u8(f);
    return (uint16_t)(lo | (uint16_t)(fz_u8(f) << 8));
}
static inline uint32_t fz_u32(fz *f)
{
    uint32_t lo = fz_u16(f);
    return lo | ((uint32_t)fz_u16(f) << 16);
}
static inline uint64_t fz_u64(fz *f)
{
    uint64_t lo = fz_u32(f);
    return lo | ((uint64_t)fz_u32(f) << 32);
}
/* A value in [0, n) (n > 0), from one byte when n <= 256. */
static inline uint32_t fz_below(fz *f, uint32_t n)
{
    if (n == 0) return 0;
    if (n <= 256u) return fz_u8(f) % n;
    if (n <= 65536u) return fz_u16(f) % n;
    return fz_u32(f) % n;
}
/* A value in [lo, hi]. */
static inline uint32_t fz_range(fz *f, uint32_t lo, uint32_t hi)
{
    return lo + fz_below(f, hi - lo + 1u);
}

/* Field-wise equality of structs that have padding (memcmp would compare
   the padding bytes too, which struct assignment need not copy). */
static inline int fz_sl_eq(const ibcc_cct_sl *a, const ibcc_cct_sl *b)
{
    return a->ccti_timer == b->ccti_timer && a->ccti_increase == b->ccti_increase
        && a->trigger_threshold == b->trigger_threshold && a->ccti_min == b->ccti_min;
}
static inline int fz_setting_eq(const ibcc_cacc_setting *a, const ibcc_cacc_setting *b)
{
    unsigned i;
    if (a->port_control != b->port_control || a->control_map != b->control_map) return 0;
    for (i = 0; i < IBCC_CCT_SLS; i++) if (!fz_sl_eq(&a->sl[i], &b->sl[i])) return 0;
    return 1;
}

/* ---- checks ------------------------------------------------------------ */
/* The text harnesses' "malformed wins" property: text (at most
   FZ_MAXTEXT bytes) with a token that is never a number or a keyword
   appended. */
#define FZ_MAXTEXT 8192
static inline const char *fz_spoiled(const char *text)
{
    static char t[FZ_MAXTEXT + 8];
    size_t n = strlen(text);
    if (n > FZ_MAXTEXT) n = FZ_MAXTEXT;
    memcpy(t, text, n);
    memcpy(t + n, " ;", 3);
    return t;
}

#define FZ_CHECK(cond, ...) do { \
    if (!(cond)) { \
        fprintf(stderr, "%s:%d: property violated: %s\n  ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
        abort(); \
    } } while (0)

/* ---- standalone replay driver ------------------------------------------ */
#ifdef IBCC_FUZZ_STANDALONE
#include <dirent.h>
#include <sys/stat.h>

static int fz_run_file_(const char *path, unsigned long *count)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf;
    long len;
    size_t got;
    if (!fp) { fprintf(stderr, "cannot open %s\n", path); return 1; }
    if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0
        || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    buf = (uint8_t *)malloc(len > 0 ? (size_t)len : 1u);
    if (!buf) { fclose(fp); return 1; }
    got = fread(buf, 1, (size_t)len, fp);
    fclose(fp);
    if (got != (size_t)len) { free(buf); fprintf(stderr, "short read %s\n", path); return 1; }
    (void)LLVMFuzzerTestOneInput(buf, got);
    free(buf);
    (*count)++;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long count = 0;
    int i, bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    for (i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { fprintf(stderr, "no such path %s\n", argv[i]); bad = 1; continue; }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            if (!d) { bad = 1; continue; }
            while ((e = readdir(d)) != NULL) {
                char path[4096];
                struct stat fs;
                if (e->d_name[0] == '.') continue;
                if ((size_t)snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name) >= sizeof path)
                    continue;
                if (stat(path, &fs) != 0 || !S_ISREG(fs.st_mode)) continue;
                bad |= fz_run_file_(path, &count);
            }
            closedir(d);
        } else {
            bad |= fz_run_file_(argv[i], &count);
        }
    }
    printf("%s: %lu inputs replayed, every property held\n", argv[0], count);
    return bad;
}
#endif
#endif
