/* Tiny test harness shared by the unit tests.
   A test case is a function; it passes when none of its checks fail.
   Each test program ends with t_summary(), which prints
   "RESULT <passed> <failed>" for tests/run.sh to add up. */
#ifndef IBCC_T_H
#define IBCC_T_H
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>

static int t_pass_, t_fail_, t_case_failed_;
static const char *t_case_name_ = "";

#define T_FAIL_(...) do { \
    if (!t_case_failed_) fprintf(stderr, "FAIL %s\n", t_case_name_); \
    t_case_failed_ = 1; fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } while (0)

#define T_CHECK(c) do { if (!(c)) T_FAIL_("check failed: %s", #c); } while (0)
#define T_EQ(a, b) do { long long ta_ = (long long)(a), tb_ = (long long)(b); \
    if (ta_ != tb_) T_FAIL_("%s == %s: %lld != %lld", #a, #b, ta_, tb_); } while (0)
#define T_EQU(a, b) do { unsigned long long ta_ = (unsigned long long)(a), \
    tb_ = (unsigned long long)(b); if (ta_ != tb_) \
    T_FAIL_("%s == %s: %llu != %llu", #a, #b, ta_, tb_); } while (0)
#define T_NEAR(a, b, tol) do { double ta_ = (double)(a), tb_ = (double)(b); \
    if (!(fabs(ta_ - tb_) <= (double)(tol))) \
    T_FAIL_("%s ~= %s: %.17g vs %.17g (tol %g)", #a, #b, ta_, tb_, (double)(tol)); } while (0)
#define T_STREQ(a, b) do { const char *ta_ = (a), *tb_ = (b); \
    if (!ta_ || !tb_ || strcmp(ta_, tb_) != 0) \
    T_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b, ta_ ? ta_ : "(null)", tb_ ? tb_ : "(null)"); } while (0)

#define T_RUN(fn) do { t_case_name_ = #fn; t_case_failed_ = 0; fn(); \
    if (t_case_failed_) t_fail_++; else t_pass_++; } while (0)

#ifdef IBCC_H
/* Engine sizes inside expressions: the bytes ibcc_X_size reports, 0
   after an error (tests of the errors call ibcc_X_size through
   T_SIZE_ERR). */
#define T_SIZE_FN_(x) static inline size_t t_size_##x(const ibcc_##x##_desc *d) \
    { size_t n = 0; (void)ibcc_##x##_size(d, &n); return n; }
T_SIZE_FN_(marker)
T_SIZE_FN_(arbiter)
T_SIZE_FN_(law)
T_SIZE_FN_(pairstate)
T_SIZE_FN_(cct)
T_SIZE_FN_(mvcm)
T_SIZE_FN_(loop)
/* A size query that must fail with `code` and report 0 bytes. */
#define T_SIZE_ERR(fn, d, code) do { size_t tn_ = 1; T_EQ(fn((d), &tn_), (code)); \
    T_EQU(tn_, 0); } while (0)
/* A size query that must succeed with `want` bytes. */
#define T_SIZE_EQ(fn, d, want) do { size_t tn_ = 1; T_EQ(fn((d), &tn_), IBCC_OK); \
    T_EQU(tn_, (want)); } while (0)
#endif

#ifndef IBCC_NO_FABRIC
/* FNV-1a over a route list (switch, destination, port as 32-bit words),
   continuing from h (start: T_FNV_START). */
#define T_FNV_START UINT64_C(14695981039346656037)
static inline uint64_t t_routes_hash(uint64_t h, const ibcc_fabric_route *r,
                                     uint32_t n)
{
    uint32_t i, w, v[3];
    for (i = 0; i < n; i++) {
        v[0] = r[i].sw; v[1] = r[i].dst; v[2] = r[i].port;
        for (w = 0; w < 3u; w++) {
            uint32_t b;
            for (b = 0; b < 4u; b++) {
                h ^= (v[w] >> (8u * b)) & 0xffu;
                h *= UINT64_C(1099511628211);
            }
        }
    }
    return h;
}

/* An allocator that refuses after `fail_after` allocations (-1: never)
   and counts the blocks still live; its user pointer is the t_alloc_ctl. */
typedef struct t_alloc_ctl { long live; int fail_after; } t_alloc_ctl;
static inline void *t_alloc(void *u, size_t n)
{
    t_alloc_ctl *c = (t_alloc_ctl *)u;
    if (c->fail_after == 0) return NULL;
    if (c->fail_after > 0) c->fail_after--;
    c->live++;
    return malloc(n);
}
static inline void t_free(void *u, void *p)
{
    ((t_alloc_ctl *)u)->live--;
    free(p);
}
#endif

static int t_summary(void)
{
    printf("RESULT %d %d\n", t_pass_, t_fail_);
    return t_fail_ ? 1 : 0;
}
#endif
