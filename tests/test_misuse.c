/* Misuse tests: the promise "bad input gets a clear error code, never a
   crash, an abort or undefined behaviour", checked on every public
   function of ibcc.h.

   Coverage: every function declared with IBCC_API / IBCC_INLINE in the
   declaration half of ibcc.h; tests/coverage.sh (part of make test)
   fails when a public function is added without a call here. Each is called
   with NULL pointers, zero and oversized lengths and counts,
   out-of-range indices / ports / flows / SLs, times at or near
   IBCC_TIME_MAX, NaN / inf / negative doubles, and (parsers) empty,
   huge-number, trailing-junk, junk and unterminated text; descs with
   fields at their boundaries. Error codes are asserted exactly. Built
   also under -fsanitize=address,undefined (make build/san/test_misuse),
   where undefined behaviour would abort the run. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

#include <float.h>

static uint64_t mem_[1u << 16];          /* 512 KiB, uint64_t-aligned */
#define MEM ((void *)mem_)
#define MEMLEN sizeof mem_
/* misaligned pointer into a buffer */
#define MISALIGNED ((void *)((unsigned char *)mem_ + 1))

static double nan_(void) { volatile double z = 0.0; return z / z; }
static double inf_(void) { volatile double z = 0.0; return 1.0 / z; }

static void ev_nop(ibcc_loop *l, void *ctx, uint64_t arg)
{
    (void)l; (void)ctx; (void)arg;
}

/* ---- L0 basics -------------------------------------------------------- */
static void basics_misuse(void)
{
    ibcc_rng r;
    ibcc_time t = 0;
    T_STREQ(ibcc_version(), IBCC_VERSION_STRING);
    T_STREQ(ibcc_result_str((ibcc_result)-99), "unknown ibcc_result code");
    T_STREQ(ibcc_result_str((ibcc_result)12345), "unknown ibcc_result code");
    T_CHECK(ibcc_result_str(IBCC_ERR_UNSUPPORTED) != NULL);
    /* wire time */
    T_EQ(ibcc_wire_time(1, 1, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_wire_time(1, 0, &t), IBCC_ERR_RANGE);
    T_EQ(ibcc_wire_time(UINT64_MAX, 1, &t), IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_wire_time(UINT64_MAX, 3, &t), IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_wire_time(UINT64_MAX, UINT64_MAX, &t), IBCC_OK);
    T_EQU(t, UINT64_C(1000000000000));
    T_EQ(ibcc_wire_time(0, 7, &t), IBCC_OK);
    T_EQU(t, 0);
    /* rng: NULL and degenerate parameters */
    ibcc_rng_seed(NULL, 1);
    T_EQU(ibcc_rng_next(NULL), 0);
    T_EQU(ibcc_rng_below(NULL, 10), 0);
    T_CHECK(ibcc_rng_double(NULL) == 0.0);
    T_CHECK(ibcc_rng_exp(NULL, 1.0) == 0.0);
    T_EQ(ibcc_rng_bernoulli(NULL, 0.5), 0);
    ibcc_rng_seed(&r, 0);
    T_EQU(ibcc_rng_below(&r, 0), 0);
    T_CHECK(ibcc_rng_below(&r, UINT64_MAX) < UINT64_MAX);
    T_EQU(ibcc_rng_below(&r, 1), 0);
    T_CHECK(ibcc_rng_exp(&r, nan_()) == 0.0);
    T_CHECK(ibcc_rng_exp(&r, -1.0) == 0.0);
    T_CHECK(ibcc_rng_exp(&r, -inf_()) == 0.0);
    T_EQ(ibcc_rng_bernoulli(&r, nan_()), 0);
    T_EQ(ibcc_rng_bernoulli(&r, -inf_()), 0);
    T_EQ(ibcc_rng_bernoulli(&r, inf_()), 1);
    T_EQ(ibcc_rng_bernoulli(&r, 1.0), 1);
    {
        double u = ibcc_rng_double(&r);
        T_CHECK(u >= 0.0 && u < 1.0);
    }
}

/* ---- L2 loop ---------------------------------------------------------- */
static void loop_misuse(void)
{
    ibcc_loop_desc d;
    ibcc_loop l;
    ibcc_event_id id = 77;
    uint64_t ran = 5;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_loop_defaults(NULL), IBCC_ERR_NULL);
    d.capacity = UINT32_C(0x80000000);
    T_EQ(ibcc_loop_defaults(&d), IBCC_ERR_CAPACITY);
    d.capacity = UINT32_MAX;
    T_SIZE_ERR(ibcc_loop_size, &d, IBCC_ERR_CAPACITY);
    d.capacity = UINT32_C(0x7fffffff);          /* largest: 56 bytes each + 64 */
    if (sizeof(size_t) >= 8) {
        /* the size fits a size_t: MEMLEN is too small */
        T_SIZE_EQ(ibcc_loop_size, &d, 64u + (uint64_t)0x7fffffff
              * (sizeof(ibcc_hent_) + sizeof(ibcc_event_)));
        T_EQ(ibcc_loop_init(&l, &d, MEM, MEMLEN), IBCC_ERR_NOMEM);
    } else {
        /* 32-bit size_t: 2^31 - 1 events do not fit the address space,
           so the size query and init refuse the capacity */
        T_SIZE_ERR(ibcc_loop_size, &d, IBCC_ERR_CAPACITY);
        T_EQ(ibcc_loop_init(&l, &d, MEM, MEMLEN), IBCC_ERR_CAPACITY);
    }
    d.capacity = UINT32_MAX;
    T_SIZE_ERR(ibcc_loop_size, NULL, IBCC_ERR_NULL);
    T_EQ(ibcc_loop_init(&l, &d, MEM, MEMLEN), IBCC_ERR_CAPACITY);
    d.capacity = 4;
    T_EQ(ibcc_loop_init(NULL, &d, MEM, MEMLEN), IBCC_ERR_NULL);
    {
        ibcc_loop zl;
        memset(&zl, 0, sizeof zl);                 /* never initialised */
        d.capacity = 4;
        T_EQ(ibcc_loop_grow(&zl, &d, MEM, MEMLEN), IBCC_ERR_NULL);
        T_EQ(ibcc_loop_grow(NULL, &d, MEM, MEMLEN), IBCC_ERR_NULL);
        T_EQ(ibcc_loop_grow(&zl, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    }
    T_EQ(ibcc_loop_init(&l, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_init(&l, &d, NULL, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_init(&l, &d, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_loop_init(&l, &d, MEM, t_size_loop(&d) - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_loop_init(&l, &d, MEM, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_loop_init(&l, &d, MEM, t_size_loop(&d)), IBCC_OK);
    /* scheduling */
    T_EQ(ibcc_loop_at(NULL, 0, ev_nop, NULL, 0, &id), IBCC_ERR_NULL);
    T_EQU(id, 0);
    T_EQ(ibcc_loop_at(&l, 0, NULL, NULL, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_after(NULL, 0, ev_nop, NULL, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_after(&l, 0, NULL, NULL, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_at(&l, IBCC_TIME_MAX, ev_nop, NULL, 0, &id), IBCC_OK);
    T_EQ(ibcc_loop_after(&l, IBCC_TIME_MAX, ev_nop, NULL, 0, NULL), IBCC_OK);
    T_EQ(ibcc_loop_run_until(&l, IBCC_TIME_MAX - 1, &ran), IBCC_OK);
    T_EQU(ran, 0);
    T_EQ(ibcc_loop_after(&l, 2, ev_nop, NULL, 0, NULL), IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_loop_after(&l, 1, ev_nop, NULL, 0, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 5, ev_nop, NULL, 0, NULL), IBCC_ERR_PAST);
    T_EQ(ibcc_loop_at(&l, IBCC_TIME_MAX, ev_nop, NULL, 0, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, IBCC_TIME_MAX, ev_nop, NULL, 0, NULL), IBCC_ERR_FULL);
    T_EQ(ibcc_loop_run_until(&l, 3, NULL), IBCC_ERR_PAST);
    T_EQ(ibcc_loop_run_until(NULL, 3, &ran), IBCC_ERR_NULL);
    T_EQU(ran, 0);
    /* cancel: null, zero, foreign and stale handles */
    T_EQ(ibcc_loop_cancel(NULL, id), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_cancel(&l, 0), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, UINT64_MAX), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, (id & UINT64_C(0xffffffff00000000)) | 1000u),
         IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, id), IBCC_OK);
    T_EQ(ibcc_loop_cancel(&l, id), IBCC_ERR_NOT_FOUND);
    T_EQU(ibcc_loop_next_time(&l), IBCC_TIME_MAX);
    T_EQU(ibcc_loop_pending(&l), 3);
    T_EQU(ibcc_loop_run(&l), 3);
    T_EQU(ibcc_loop_now(&l), IBCC_TIME_MAX);
    T_EQ(ibcc_loop_step(&l), 0);
    T_EQ(ibcc_loop_step(NULL), 0);
    T_EQU(ibcc_loop_run(NULL), 0);
    T_EQU(ibcc_loop_now(NULL), 0);
    T_EQU(ibcc_loop_pending(NULL), 0);
    T_EQU(ibcc_loop_next_time(NULL), IBCC_TIME_MAX);
    T_EQ(ibcc_loop_run_until(&l, IBCC_TIME_MAX, NULL), IBCC_OK);
    T_EQ(ibcc_loop_set_idle(NULL, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_set_idle(&l, NULL, &l), IBCC_OK);
}

/* ---- L1 law ----------------------------------------------------------- */
static double bad_nan_fn(double x, void *u) { (void)x; (void)u; return nan_(); }
static double bad_inf_fn(double x, void *u) { (void)x; (void)u; return inf_(); }
static double bad_neg_fn(double x, void *u) { (void)x; (void)u; return -1.0; }

static void law_misuse(void)
{
    ibcc_law_desc d;
    ibcc_law l;
    ibcc_law_state s;
    ibcc_law_entry e;
    ibcc_law_recovery_result rr;
    ibcc_law_point pts[4];
    ibcc_law_check_desc cd;
    ibcc_law_check_result cr;
    double tu = 0.0;
    T_EQ(ibcc_law_defaults(NULL), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d);
    d.kind = (ibcc_law_kind)99;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    /* kind names: unknown kinds have none, NULLs and unknown names refused */
    T_STREQ(ibcc_law_kind_name((ibcc_law_kind)99), "?");
    T_STREQ(ibcc_law_kind_name((ibcc_law_kind)-1), "?");
    d.kind = IBCC_LAW_FIMD;
    T_EQ(ibcc_law_kind_parse(NULL, &d.kind), IBCC_ERR_NULL);
    T_EQ(ibcc_law_kind_parse("lipd", NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_law_kind_parse("none", &d.kind), IBCC_ERR_PARSE);
    T_EQ(d.kind, IBCC_LAW_FIMD);
    memset(&d, 0, sizeof d);
    d.kind = (ibcc_law_kind)-1;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    d.form = (ibcc_law_form)4;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    d.form = IBCC_LAW_TABLE;
    d.rates = (ibcc_law_rates)3;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    /* rmin: NaN, inf, negative, 1, just below 2^-16 */
    memset(&d, 0, sizeof d); d.rmin = nan_();
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.rmin = inf_();
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.rmin = -0.5;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.rmin = 1.0;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.rmin = 1.0 / 65536.0 * (1.0 - 1e-12);
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.rmin = 1.0 / 65536.0;
    T_EQ(ibcc_law_defaults(&d), IBCC_OK);
    memset(&d, 0, sizeof d); d.rmin = 1.0 / 65536.0; d.form = IBCC_LAW_DISCRETE;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    /* m: NaN, inf, 1, above 65536 */
    memset(&d, 0, sizeof d); d.m = nan_();
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.m = inf_();
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.m = 1.0;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.m = 65536.5;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.m = 65536.0; d.kind = IBCC_LAW_FIMD;
    T_EQ(ibcc_law_defaults(&d), IBCC_OK);
    /* custom without functions */
    memset(&d, 0, sizeof d); d.kind = IBCC_LAW_CUSTOM; d.finc = bad_nan_fn;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_NULL);
    /* table sizes */
    memset(&d, 0, sizeof d); d.form = IBCC_LAW_TABLE; d.table_size = 255;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.form = IBCC_LAW_TABLE;
    d.rates = IBCC_LAW_RATES_GEOMETRIC; d.table_size = 1;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_CAPACITY);
    d.table_size = 65537;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_law_size, &d, IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.table_size = 4;
    T_EQ(ibcc_law_defaults(&d), IBCC_ERR_UNSUPPORTED);
    T_SIZE_ERR(ibcc_law_size, NULL, IBCC_ERR_NULL);
    /* init */
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_law_init(NULL, &d, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_law_init(&l, NULL, NULL, 0), IBCC_ERR_NULL);
    d.form = IBCC_LAW_TABLE;
    T_EQ(ibcc_law_init(&l, &d, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_law_init(&l, &d, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_law_init(&l, &d, MEM, t_size_law(&d) - 1), IBCC_ERR_NOMEM);
    /* NULL law: steps ignored, queries 0 */
    ibcc_law_on_ack(NULL, 1);
    ibcc_law_on_ack_sized(NULL, 0, 65536u);
    T_EQU(ibcc_law_gap(NULL, 100), 0);
    T_CHECK(ibcc_law_rate(NULL) == 0.0);
    T_CHECK(ibcc_law_exact_rate(NULL) == 0.0);
    T_EQU(ibcc_law_rate_bytes(NULL, 1000), 0);
    T_EQU(ibcc_law_ipd(NULL), 0);
    T_EQ(ibcc_law_at_max(NULL), 0);
    ibcc_law_reset(NULL);
    T_EQ(ibcc_law_set_rate(NULL, 0.5), IBCC_ERR_NULL);
    T_EQ(ibcc_law_get_state(NULL, &s), IBCC_ERR_NULL);
    T_EQ(ibcc_law_set_state(NULL, &s), IBCC_ERR_NULL);
    T_CHECK(ibcc_law_finc(NULL, 0.5) == 0.0);
    T_CHECK(ibcc_law_fdec(NULL, 0.5) == 0.0);
    T_EQU(ibcc_law_table_size(NULL), 0);
    T_EQ(ibcc_law_table_entry(NULL, 0, &e), IBCC_ERR_NULL);
    T_EQ(ibcc_law_recovery(NULL, 1, NULL, 0, &rr), IBCC_ERR_NULL);
    T_EQ(ibcc_law_recovery_closed(NULL, &tu), IBCC_ERR_NULL);
    T_EQ(ibcc_law_check(NULL, NULL, &cr), IBCC_ERR_NULL);
    /* every form, extreme inputs */
    {
        int form;
        for (form = 1; form <= 3; form++) {
            memset(&d, 0, sizeof d);
            d.form = (ibcc_law_form)form;
            d.kind = IBCC_LAW_FIMD;
            T_EQ(ibcc_law_init(&l, &d, MEM, MEMLEN), IBCC_OK);
            T_EQ(ibcc_law_set_rate(&l, nan_()), IBCC_ERR_RANGE);
            T_EQ(ibcc_law_set_rate(&l, inf_()), IBCC_OK);
            T_EQ(ibcc_law_at_max(&l), 1);
            T_EQ(ibcc_law_set_rate(&l, -inf_()), IBCC_OK);
            T_EQU(ibcc_law_ipd(&l), 255);
            /* gap saturates at IBCC_TIME_MAX; tau 0 gives 0 */
            T_EQU(ibcc_law_gap(&l, IBCC_TIME_MAX), IBCC_TIME_MAX);
            T_EQU(ibcc_law_gap(&l, 0), 0);
            if (form == 1)  /* double: within one of the exact floor */
                T_CHECK(ibcc_law_rate_bytes(&l, UINT64_MAX) - UINT64_MAX / 256u
                        <= 1u);
            else
                T_EQU(ibcc_law_rate_bytes(&l, UINT64_MAX), UINT64_MAX / 256u);
            T_EQU(ibcc_law_rate_bytes(&l, 0), 0);
            /* weights 0 and 2^32 - 1 (from Rmin: capped moves) */
            ibcc_law_on_ack_sized(&l, 0, 0);
            ibcc_law_on_ack_sized(&l, 0, UINT32_MAX);
            T_CHECK(ibcc_law_rate(&l) > 1.0 / 256.0);
            T_EQ(ibcc_law_set_rate(&l, 1.0), IBCC_OK);
            ibcc_law_on_ack_sized(&l, 0, UINT32_MAX);
            T_EQ(ibcc_law_at_max(&l), 1);
            ibcc_law_on_ack(&l, 12345);
            T_CHECK(!ibcc_law_at_max(&l));
            T_CHECK(ibcc_law_finc(&l, nan_()) >= 1.0 / 256.0);
            T_CHECK(ibcc_law_fdec(&l, inf_()) == 0.5);
            T_CHECK(ibcc_law_fdec(&l, -inf_()) == 1.0 / 256.0);
            T_EQ(ibcc_law_get_state(&l, NULL), IBCC_ERR_NULL);
            T_EQ(ibcc_law_set_state(&l, NULL), IBCC_ERR_NULL);
            memset(&s, 0, sizeof s);
            s.x = nan_();
            T_EQ(ibcc_law_set_state(&l, &s), IBCC_ERR_RANGE);
            memset(&s, 0, sizeof s);
            s.index = UINT32_MAX; s.q = UINT64_MAX; s.acc = UINT32_MAX;
            T_EQ(ibcc_law_set_state(&l, &s), IBCC_ERR_RANGE);
            T_EQ(ibcc_law_table_entry(&l, 0, NULL), IBCC_ERR_NULL);
            if (form == 3) {
                T_EQ(ibcc_law_table_entry(&l, 256, &e), IBCC_ERR_RANGE);
                T_EQ(ibcc_law_table_entry(&l, UINT32_MAX, &e), IBCC_ERR_RANGE);
            } else {
                T_EQ(ibcc_law_table_entry(&l, 0, &e), IBCC_ERR_STATE);
            }
            T_EQ(ibcc_law_recovery(&l, 0, NULL, 0, &rr), IBCC_ERR_RANGE);
            T_EQ(ibcc_law_recovery(&l, 1, NULL, 4, &rr), IBCC_ERR_NULL);
            T_EQ(ibcc_law_recovery(&l, 1, pts, 4, NULL), IBCC_ERR_NULL);
            T_EQ(ibcc_law_recovery(&l, IBCC_TIME_MAX / 2, pts, 4, &rr),
                 IBCC_ERR_OVERFLOW);
            T_EQ(ibcc_law_recovery(&l, 1000, pts, 4, &rr), IBCC_OK);
            T_EQU(rr.points, 4);
        }
    }
    /* ROM tables: NULLs, other forms, a compiled table described as a
       ROM and loaded back, descs and counts that do not match */
    {
        ibcc_law_rom rom;
        ibcc_law_desc bad;
        ibcc_law r2;
        uint32_t ck = 0;
        T_EQ(ibcc_law_to_rom(NULL, &rom), IBCC_ERR_NULL);
        T_EQ(ibcc_law_init_rom(NULL, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_law_rom_check(NULL, NULL, 0, NULL), IBCC_ERR_NULL);
        memset(&d, 0, sizeof d);
        d.form = IBCC_LAW_DISCRETE;
        T_EQ(ibcc_law_init(&l, &d, NULL, 0), IBCC_OK);
        T_EQ(ibcc_law_to_rom(&l, &rom), IBCC_ERR_STATE);
        T_EQ(ibcc_law_to_rom(&l, NULL), IBCC_ERR_NULL);
        memset(&l, 0, sizeof l);                     /* never initialised */
        l.d.form = IBCC_LAW_TABLE;
        T_EQ(ibcc_law_to_rom(&l, &rom), IBCC_ERR_STATE);
        d.form = IBCC_LAW_TABLE;
        T_EQ(ibcc_law_init(&l, &d, MEM, MEMLEN), IBCC_OK);
        T_EQ(ibcc_law_to_rom(&l, &rom), IBCC_OK);
        T_EQ(ibcc_law_rom_check(rom.desc, rom.table, rom.n, &ck), IBCC_OK);
        T_EQU(ck, rom.check);
        T_EQ(ibcc_law_rom_check(rom.desc, rom.table, rom.n, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_law_rom_check(rom.desc, NULL, rom.n, &ck), IBCC_ERR_NULL);
        T_EQ(ibcc_law_rom_check(rom.desc, rom.table, 0, &ck), IBCC_ERR_MISMATCH);
        T_EQ(ibcc_law_rom_check(rom.desc, rom.table, UINT32_MAX, &ck), IBCC_ERR_MISMATCH);
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_OK);
        rom.check ^= 1u;
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_MISMATCH);
        rom.check ^= 1u;
        rom.n = UINT32_MAX;
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_MISMATCH);
        rom.n = 0;
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_MISMATCH);
        T_EQ(ibcc_law_to_rom(&l, &rom), IBCC_OK);
        bad = *rom.desc;
        bad.rmin = nan_();
        rom.desc = &bad;
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_RANGE);
        T_EQ(ibcc_law_rom_check(&bad, rom.table, rom.n, &ck), IBCC_ERR_RANGE);
        bad.rmin = -inf_();
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_RANGE);
        bad = l.d;
        bad.form = IBCC_LAW_CONTINUOUS;
        bad.rates = (ibcc_law_rates)0;
        bad.table_size = 0;
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_UNSUPPORTED);
        T_EQ(ibcc_law_rom_check(&bad, rom.table, rom.n, &ck), IBCC_ERR_UNSUPPORTED);
        bad.kind = (ibcc_law_kind)99;
        T_EQ(ibcc_law_init_rom(&r2, &rom), IBCC_ERR_RANGE);
    }
    /* custom laws returning NaN, inf, negative: clamped, never UB */
    {
        ibcc_law_fn fns[3];
        int i, form;
        fns[0] = bad_nan_fn; fns[1] = bad_inf_fn; fns[2] = bad_neg_fn;
        for (i = 0; i < 3; i++) {
            for (form = 1; form <= 3; form++) {
                memset(&d, 0, sizeof d);
                d.kind = IBCC_LAW_CUSTOM;
                d.form = (ibcc_law_form)form;
                d.finc = fns[i];
                d.fdec = fns[i];
                T_EQ(ibcc_law_init(&l, &d, MEM, MEMLEN), IBCC_OK);
                ibcc_law_on_ack(&l, 1);
                ibcc_law_on_ack(&l, 0);
                T_CHECK(ibcc_law_rate(&l) >= 1.0 / 256.0
                        && ibcc_law_rate(&l) <= 1.0);
                T_EQU(ibcc_law_gap(&l, IBCC_US(1)) <= 255u * IBCC_US(1), 1);
            }
            T_EQ(ibcc_law_recovery_closed(&d, &tu), IBCC_ERR_UNSUPPORTED);
            memset(&cd, 0, sizeof cd);
            cd.points = 16;
            {
                ibcc_result r = ibcc_law_check(&d, &cd, &cr);
                T_CHECK(r == IBCC_OK || r == IBCC_ERR_CAPACITY);
            }
        }
    }
    /* closed form and checker argument errors */
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_law_recovery_closed(&d, NULL), IBCC_ERR_NULL);
    d.rmin = nan_();
    T_EQ(ibcc_law_recovery_closed(&d, &tu), IBCC_ERR_RANGE);
    T_EQ(ibcc_law_check(&d, NULL, &cr), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_law_check(&d, NULL, NULL), IBCC_ERR_NULL);
    memset(&cd, 0, sizeof cd);
    cd.points = 1;
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_ERR_RANGE);
    cd.points = 65537;
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_ERR_RANGE);
    cd.points = 8; cd.tol1 = nan_();
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_ERR_RANGE);
    cd.tol1 = 0; cd.tol2 = -1.0;
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_ERR_RANGE);
    cd.tol2 = 0; cd.tol3 = inf_();
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_ERR_RANGE);
    cd.tol3 = 0;
    cd.points = 2;      /* grid {k, 1}: fdec(k) hits the floor, fdec(1) not */
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_OK);
    T_EQU(cr.evaluated, 1);
    /* m = 65536 with FIMD: one mark from Rmax hits the floor everywhere */
    d.kind = IBCC_LAW_FIMD; d.m = 65536.0;
    T_EQ(ibcc_law_check(&d, &cd, &cr), IBCC_ERR_CAPACITY);
}

/* ---- L1 pacer --------------------------------------------------------- */
static void pacer_misuse(void)
{
    ibcc_pacer_desc d;
    ibcc_pacer p;
    ibcc_pairstate_desc pd;
    ibcc_pairstate ps;
    ibcc_law_desc ld;
    ibcc_law l, l2;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_pacer_defaults(NULL), IBCC_ERR_NULL);
    d.rate = 10; d.rmax = 9;
    T_EQ(ibcc_pacer_defaults(&d), IBCC_ERR_RANGE);
    d.rmax = 0;
    T_EQ(ibcc_pacer_defaults(&d), IBCC_ERR_RANGE);
    d.rate = 0; d.rmax = 5;
    T_EQ(ibcc_pacer_defaults(&d), IBCC_ERR_UNSUPPORTED);
    memset(&ld, 0, sizeof ld);
    T_EQ(ibcc_law_init(&l, &ld, NULL, 0), IBCC_OK);
    d.rmax = 5; d.rate = 5; d.law = &l;
    T_EQ(ibcc_pacer_defaults(&d), IBCC_ERR_UNSUPPORTED);
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_ERR_UNSUPPORTED);
    T_EQ(ibcc_pacer_init(NULL, &d), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_init(&p, NULL), IBCC_ERR_NULL);
    /* NULL pacer */
    ibcc_pacer_reset(NULL);
    T_EQU(ibcc_pacer_gap(NULL, 10), 0);
    T_EQU(ibcc_pacer_next(NULL), 0);
    T_EQ(ibcc_pacer_window_open(NULL), 0);
    T_EQU(ibcc_pacer_earliest(NULL), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_can_send(NULL, 0), 0);
    T_EQ(ibcc_pacer_on_send(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_on_ack(NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_on_ack_sized(NULL, 0, 1), IBCC_ERR_NULL);
    /* fixed rate 1 B/s of UINT64_MAX: gap saturates */
    memset(&d, 0, sizeof d);
    d.rate = 1; d.rmax = UINT64_MAX; d.window = IBCC_PACER_NO_WINDOW;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQU(ibcc_pacer_gap(&p, 2), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_on_send(&p, 0, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_pacer_on_ack_sized(&p, 1, UINT32_MAX), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_pacer_on_send(&p, IBCC_TIME_MAX - 1, IBCC_TIME_MAX), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), IBCC_TIME_MAX);
    T_EQU(ibcc_pacer_earliest(&p), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_can_send(&p, IBCC_TIME_MAX), 1);
    T_EQ(ibcc_pacer_on_send(&p, IBCC_TIME_MAX - 2, 1), IBCC_ERR_PAST);
    T_EQ(ibcc_pacer_on_send(&p, IBCC_TIME_MAX, IBCC_TIME_MAX), IBCC_OK);
    /* window 1, law-paced */
    memset(&d, 0, sizeof d);
    d.law = &l;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 0, IBCC_TIME_MAX), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, IBCC_TIME_MAX, 1), IBCC_ERR_FULL);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_ERR_MISMATCH);
    /* pair state */
    memset(&pd, 0, sizeof pd);
    T_EQ(ibcc_pairstate_defaults(NULL), IBCC_ERR_NULL);
    pd.capacity = (UINT32_C(1) << 24) + 1u;
    T_EQ(ibcc_pairstate_defaults(&pd), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_pairstate_size, &pd, IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_pairstate_size, NULL, IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, &pd, MEM, MEMLEN), IBCC_ERR_CAPACITY);
    pd.capacity = UINT32_C(1) << 24;            /* largest: 2^25 slots */
    T_SIZE_EQ(ibcc_pairstate_size, &pd, (UINT64_C(1) << 25) * sizeof(ibcc_pair_slot_));
    T_EQ(ibcc_pairstate_init(&ps, &pd, MEM, MEMLEN), IBCC_ERR_NOMEM);
    pd.capacity = 1;
    T_EQ(ibcc_pairstate_init(NULL, &pd, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, &pd, NULL, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, &pd, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_pairstate_init(&ps, &pd, MEM, t_size_pairstate(&pd) - 1),
         IBCC_ERR_NOMEM);
    T_EQ(ibcc_pairstate_init(&ps, &pd, MEM, t_size_pairstate(&pd)), IBCC_OK);
    T_EQ(ibcc_pairstate_save(NULL, 0, 0, &l), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_save(&ps, 0, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_save(&ps, UINT32_MAX, UINT32_MAX, &l), IBCC_OK);
    T_EQ(ibcc_pairstate_save(&ps, 0, 0, &l), IBCC_ERR_FULL);
    T_EQ(ibcc_pairstate_load(NULL, 0, 0, &l), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_load(&ps, 0, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_load(&ps, 0, 0, &l), IBCC_ERR_NOT_FOUND);
    /* a state saved from a CONTINUOUS law does not fit a DISCRETE one */
    ld.form = IBCC_LAW_DISCRETE;
    T_EQ(ibcc_law_init(&l2, &ld, NULL, 0), IBCC_OK);
    T_EQ(ibcc_pairstate_load(&ps, UINT32_MAX, UINT32_MAX, &l2), IBCC_ERR_RANGE);
    T_EQ(ibcc_law_at_max(&l2), 1);
    ibcc_pairstate_reset(NULL);
    ibcc_pairstate_reset(&ps);
    {
        ibcc_pairstate z;
        memset(&z, 0, sizeof z);
        T_EQ(ibcc_pairstate_save(&z, 0, 0, &l), IBCC_ERR_STATE);
        T_EQ(ibcc_pairstate_load(&z, 0, 0, &l), IBCC_ERR_STATE);
        ibcc_pairstate_reset(&z);
    }
    T_EQ(ibcc_pairstate_save(&ps, 0, 0, &l), IBCC_OK);
}

/* ---- L1 cct ------------------------------------------------------------ */
static double fdec_nan(void *u, double x) { (void)u; (void)x; return nan_(); }
static double fdec_zero(void *u, double x) { (void)u; (void)x; return 0.0; }
static double fdec_tiny(void *u, double x) { (void)u; (void)x; return 1e-300; }
static double fdec_big(void *u, double x) { (void)u; (void)x; return 1.5; }

static void cct_misuse(void)
{
    uint16_t tab[IBCC_CCT_MAX_ENTRIES + 1];
    ibcc_time delays[2];
    double us[2];
    uint16_t e = 0;
    ibcc_cct_desc d;
    ibcc_cct c;
    ibcc_cct_sl sl;
    ibcc_cct_event ev[4];
    ibcc_law_desc ld;
    ibcc_law l;
    uint8_t fsl[3];
    /* entries */
    T_EQU(ibcc_cct_entry_delay(0xffffu, IBCC_TIME_MAX), IBCC_TIME_MAX);
    T_EQU(ibcc_cct_entry_delay(0xffffu, 0), 0);
    T_EQ(ibcc_cct_entry_from_delay(1, 1, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_entry_from_delay(1, 0, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_entry_from_delay(IBCC_TIME_MAX, 1, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_entry_from_delay(IBCC_TIME_MAX, IBCC_TIME_MAX, &e), IBCC_OK);
    T_EQU(e, IBCC_CCT_ENTRY(0, 1));
    T_EQ(ibcc_cct_entry_from_delay(16383u * 8u + 4u, 8, &e), IBCC_OK);
    T_EQU(e, IBCC_CCT_ENTRY(0, 16383));
    T_EQ(ibcc_cct_entry_from_delay(16383u * 8u + 5u, 8, &e), IBCC_ERR_RANGE);
    /* fills */
    delays[0] = 0; delays[1] = IBCC_TIME_MAX;
    T_EQ(ibcc_cct_fill_delays(NULL, delays, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_delays(tab, NULL, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_delays(tab, delays, 0, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_delays(tab, delays, 16385, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_delays(tab, delays, 2, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_delays(tab, delays, 1, 0), IBCC_ERR_RANGE);
    us[0] = nan_(); us[1] = 1.0;
    T_EQ(ibcc_cct_fill_us(NULL, us, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_us(tab, NULL, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_us(tab, us, 0, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_us(tab, us, 1, 1), IBCC_ERR_RANGE);
    us[0] = inf_();
    T_EQ(ibcc_cct_fill_us(tab, us, 1, 1), IBCC_ERR_RANGE);
    us[0] = -inf_();
    T_EQ(ibcc_cct_fill_us(tab, us, 1, 1), IBCC_ERR_RANGE);
    us[0] = -1e-3;
    T_EQ(ibcc_cct_fill_us(tab, us, 1, 1), IBCC_ERR_RANGE);
    us[0] = 1.8e13;     /* 1.8e19 ps: above the double -> uint64 guard */
    T_EQ(ibcc_cct_fill_us(tab, us, 1, IBCC_TIME_MAX), IBCC_ERR_RANGE);
    us[0] = DBL_MAX;
    T_EQ(ibcc_cct_fill_us(tab, us, 1, IBCC_TIME_MAX), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(NULL, 1, 1, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_quadratic(tab, 0, 1, 1, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_quadratic(tab, 16385, 1, 1, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_quadratic(tab, 2, 0, 1, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(tab, 2, 1, 0, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(tab, 2, 1, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(tab, 16384, 1, IBCC_TIME_MAX, 1),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(tab, 16384, IBCC_TIME_MAX, IBCC_TIME_MAX,
                                 UINT32_MAX), IBCC_OK);
    T_EQ(ibcc_cct_fill_linear(NULL, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_linear(tab, 0), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_linear(tab, 16385), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_linear(tab, 16384), IBCC_OK);
    T_EQU(tab[16383], IBCC_CCT_ENTRY(0, 16383));
    T_EQ(ibcc_cct_fill_fdec(NULL, 2, 1, fdec_nan, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_fdec(tab, 2, 1, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_fdec(tab, 0, 1, fdec_nan, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_fdec(tab, 16385, 1, fdec_nan, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_fdec(tab, 2, 0, fdec_nan, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(tab, 2, 1, fdec_nan, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(tab, 2, 1, fdec_zero, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(tab, 2, 1, fdec_big, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(tab, 2, IBCC_TIME_MAX, fdec_tiny, NULL),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(tab, 1, 1, fdec_nan, NULL), IBCC_OK);
    T_EQ(ibcc_cct_fill_law(tab, 2, 1, NULL), IBCC_ERR_NULL);
    memset(&ld, 0, sizeof ld);
    T_EQ(ibcc_law_init(&l, &ld, NULL, 0), IBCC_OK);
    T_EQ(ibcc_cct_fill_law(NULL, 2, 1, &l), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_law(tab, 0, 1, &l), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_law(tab, 300, 1, &l), IBCC_OK); /* floor: IPD 255 */
    T_EQU(tab[299], IBCC_CCT_ENTRY(0, 255));
    /* desc boundaries */
    T_EQ(ibcc_cct_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_cct_size, NULL, IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.flows = UINT32_C(0x80000000);
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    d.flows = UINT32_C(0x7fffffff); d.entries = 16384; d.log_capacity = 65535;
    /* the default quadratic table over 16384 entries reaches
       16383^2 * 7/106^2 us = 167 us, beyond 16383 default packet times
       (17 us): invalid, as init would find (it used to pass defaults) */
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    T_SIZE_ERR(ibcc_cct_size, &d, IBCC_ERR_RANGE);
    d.max_pkt_time = IBCC_US(11);           /* 16383 x 11 us > 167 us */
    T_EQ(ibcc_cct_defaults(&d), IBCC_OK);
    if (sizeof(size_t) >= 8)
        T_SIZE_EQ(ibcc_cct_size, &d, (uint64_t)0x7fffffff * 16u + 65535u * 16u
              + 16384u * 2u);
    T_EQ(ibcc_cct_init(&c, &d, MEM, MEMLEN), IBCC_ERR_NOMEM);
    memset(&d, 0, sizeof d); d.entries = 16385;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.log_capacity = 65536;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.per_sl = 2;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.max_pkt_bytes = UINT32_MAX; d.port_rate = 1;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_OVERFLOW);   /* 4.3e21 ps > 2^64 */
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 0;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 16385;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 10; d.entries = 5;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.table_len = 10;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.ccti_limit = 128;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.sl[15].ccti_min = 128; d.entries = 100;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    fsl[0] = 0; fsl[1] = 15; fsl[2] = 16;
    memset(&d, 0, sizeof d); d.flows = 3; d.flow_sl = fsl;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    T_SIZE_ERR(ibcc_cct_size, &d, IBCC_ERR_RANGE);
    /* quadratic default table does not fit 1-ps packets: RANGE at init */
    memset(&d, 0, sizeof d); d.max_pkt_time = 1;
    T_EQ(ibcc_cct_init(&c, &d, MEM, MEMLEN), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_cct_init(NULL, &d, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_init(&c, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_init(&c, &d, NULL, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_init(&c, &d, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_cct_init(&c, &d, MEM, t_size_cct(&d) - 1), IBCC_ERR_NOMEM);
    /* NULL agent */
    ibcc_cct_reset(NULL);
    ibcc_cct_advance(NULL, 5);
    T_EQU(ibcc_cct_on_becn(NULL, 0, 0), 0);
    T_EQU(ibcc_cct_ccti(NULL, 0, 0), 0);
    T_EQU(ibcc_cct_delay(NULL, 0, 0), 0);
    T_EQU(ibcc_cct_interval(NULL, 0, 0, 7), 7);
    T_EQU(ibcc_cct_flow_sl(NULL, 0), 0);
    T_EQ(ibcc_cct_set_flow_sl(NULL, 0, 0, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_timer_running(NULL, 0, 0), 0);
    T_EQU(ibcc_cct_timer_expiries(NULL, 0, 0), 0);
    T_EQ(ibcc_cct_set_sl(NULL, 0, &sl, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_port(NULL, 0, 0, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_table(NULL, tab, 1, 0, 0), IBCC_ERR_NULL);
    T_CHECK(ibcc_cct_get_sl(NULL, 0) == NULL);
    T_EQU(ibcc_cct_limit(NULL), 0);
    T_CHECK(ibcc_cct_table(NULL) == NULL);
    T_EQU(ibcc_cct_log_read(NULL, ev, 4), 0);
    T_EQU(ibcc_cct_log_count(NULL), 0);
    T_EQU(ibcc_cct_log_total(NULL), 0);
    T_EQU(ibcc_cct_log_lost(NULL), 0);
    /* a real agent: out-of-range flows and SLs, times at IBCC_TIME_MAX */
    memset(&d, 0, sizeof d);
    d.flows = 2; d.log_capacity = 1;
    d.sl[0].trigger_threshold = 1;
    d.sl[0].ccti_increase = 255;
    d.sl[0].ccti_timer = 65535;
    T_EQ(ibcc_cct_init(&c, &d, MEM, MEMLEN), IBCC_OK);
    T_EQU(ibcc_cct_on_becn(&c, 2, 0), 0);
    T_EQU(ibcc_cct_on_becn(&c, UINT32_MAX, 0), 0);
    T_EQU(ibcc_cct_ccti(&c, 2, 0), 0);
    T_EQU(ibcc_cct_delay(&c, UINT32_MAX, 0), 0);
    T_EQU(ibcc_cct_flow_sl(&c, 2), 0);
    T_EQ(ibcc_cct_set_flow_sl(&c, 2, 0, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 16, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_timer_running(&c, 16, 0), 0);
    T_EQU(ibcc_cct_timer_expiries(&c, UINT32_MAX, 0), 0);
    T_CHECK(ibcc_cct_get_sl(&c, 16) == NULL);
    T_EQ(ibcc_cct_set_sl(&c, 16, &sl, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_sl(&c, 0, NULL, 0), IBCC_ERR_NULL);
    memset(&sl, 0, sizeof sl); sl.ccti_min = 200;
    T_EQ(ibcc_cct_set_sl(&c, 0, &sl, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_port(&c, 2, 0xffffu, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_port(&c, 0x8000u, 0xffffu, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_table(&c, NULL, 1, 0, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_table(&c, tab, 129, 0, 0), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_set_table(&c, tab, 0, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_table(&c, tab, 10, 10, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_log_read(&c, NULL, 4), 0);
    T_EQU(ibcc_cct_on_becn(&c, 0, IBCC_TIME_MAX - 5), 127);
    T_EQU(ibcc_cct_on_becn(&c, 0, IBCC_TIME_MAX), 127);  /* capped at limit */
    T_EQU(ibcc_cct_log_total(&c), 2);
    T_EQU(ibcc_cct_log_lost(&c), 1);
    T_EQU(ibcc_cct_log_read(&c, ev, 0), 0);
    T_EQU(ibcc_cct_log_read(&c, ev, 4), 1);
    /* the timer's next expiry lies beyond IBCC_TIME_MAX: never fires,
       however often the agent is asked at IBCC_TIME_MAX */
    T_EQU(ibcc_cct_ccti(&c, 0, IBCC_TIME_MAX), 127);
    ibcc_cct_advance(&c, IBCC_TIME_MAX);
    ibcc_cct_advance(&c, IBCC_TIME_MAX);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, IBCC_TIME_MAX), 0);
    T_EQU(ibcc_cct_ccti(&c, 0, IBCC_TIME_MAX), 127);
    /* earlier times after IBCC_TIME_MAX are taken as IBCC_TIME_MAX */
    T_EQU(ibcc_cct_ccti(&c, 0, 0), 127);
    T_EQU(ibcc_cct_interval(&c, 0, 0, IBCC_TIME_MAX), IBCC_TIME_MAX);
    T_EQ(ibcc_cct_set_table(&c, tab, 0, 0, 0), IBCC_OK);   /* empty table */
    T_EQU(ibcc_cct_ccti(&c, 0, 0), 0);
    T_EQU(ibcc_cct_on_becn(&c, 1, 0), 0);
    T_EQU(ibcc_cct_delay(&c, 1, 0), 0);
    ibcc_cct_reset(&c);
    T_EQU(ibcc_cct_limit(&c), 0);
    /* zeroed, never initialised agent */
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_cct_set_table(&c, tab, 0, 0, 0), IBCC_ERR_STATE);
    memset(&sl, 0, sizeof sl);
    T_EQ(ibcc_cct_set_sl(&c, 0, &sl, 0), IBCC_OK);
    T_EQ(ibcc_cct_set_port(&c, 1, 0xffffu, 0), IBCC_OK);
    T_EQU(ibcc_cct_on_becn(&c, 0, 0), 0);
    T_EQU(ibcc_cct_log_read(&c, ev, 4), 0);
    ibcc_cct_advance(&c, IBCC_TIME_MAX);
    ibcc_cct_reset(&c);
}

/* ---- L1 cacc ----------------------------------------------------------- */
static void cacc_misuse(void)
{
    static ibcc_cacc_config cfg;
    static char big[8192];
    uint8_t buf[IBCC_CACC_SETTING_BYTES];
    char small[8];
    ibcc_cacc_setting s;
    ibcc_cacc_block b;
    uint16_t tab[200];
    unsigned line = 99;
    ibcc_cct_desc d;
    ibcc_cct c;
    memset(&s, 0, sizeof s);
    memset(&b, 0, sizeof b);
    memset(tab, 0, sizeof tab);
    /* MAD bytes */
    T_EQ(ibcc_cacc_setting_encode(NULL, buf, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_encode(&s, NULL, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_encode(&s, buf, 131), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_setting_encode(&s, buf, 0), IBCC_ERR_NOMEM);
    s.port_control = 2;
    T_EQ(ibcc_cacc_setting_encode(&s, buf, sizeof buf), IBCC_ERR_RANGE);
    s.port_control = 0;
    T_EQ(ibcc_cacc_setting_decode(NULL, buf, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_decode(&s, NULL, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_decode(&s, buf, 131), IBCC_ERR_NOMEM);
    memset(buf, 0xff, sizeof buf);
    T_EQ(ibcc_cacc_setting_decode(&s, buf, sizeof buf), IBCC_OK);
    T_EQU(s.port_control, 1);
    T_EQ(ibcc_cacc_block_encode(NULL, buf, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_encode(&b, NULL, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_encode(&b, buf, 131), IBCC_ERR_NOMEM);
    b.ccti_limit = 16384;
    T_EQ(ibcc_cacc_block_encode(&b, buf, sizeof buf), IBCC_ERR_RANGE);
    b.ccti_limit = 0; b.block = 256;
    T_EQ(ibcc_cacc_block_encode(&b, buf, sizeof buf), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_decode(NULL, 0, buf, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_decode(&b, 0, NULL, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_decode(&b, 0, buf, 131), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_block_decode(&b, 0, buf, sizeof buf), IBCC_ERR_RANGE);
    buf[0] = 0x3f;
    T_EQ(ibcc_cacc_block_decode(&b, 256, buf, sizeof buf), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_decode(&b, 255, buf, sizeof buf), IBCC_OK);
    T_EQU(ibcc_cacc_blocks(0), 1);
    T_EQU(ibcc_cacc_blocks(0xffffu), 1024);
    /* tables */
    T_EQ(ibcc_cacc_block_from_table(NULL, tab, 1, 0, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_from_table(&b, NULL, 1, 0, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_from_table(&b, NULL, 0, 0, 0), IBCC_OK);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 16385, 0, 0), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 10, 10, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 10, 9, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 200, 199, 3), IBCC_OK);
    T_EQ(ibcc_cacc_block_to_table(NULL, tab, 200), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_to_table(&b, NULL, 200), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_to_table(&b, tab, 199), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cacc_block_to_table(&b, tab, 0), IBCC_ERR_CAPACITY);
    b.block = 0xffffu;      /* beyond the limit: nothing valid, nothing written */
    T_EQ(ibcc_cacc_block_to_table(&b, tab, 0), IBCC_OK);
    /* ibccconfig text */
    T_EQ(ibcc_cacc_setting_parse_args(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_parse_args(&s, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_parse_args(&s, ""), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0 0 0 0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0 0 0 0 0 0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0 0 0 0 0x"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0 0 0 0 1z"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0 0 0 0 -1"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 2 0 0 0 0 0"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s,
         "CACongestionSetting 0 0 99999999999999999999999999 0 0 0"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s,
         "CACongestionSetting 0 0xffffffffffffffffffffff 0 0 0 0"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSettingX 0 0 0 0 0 0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, " CACongestionSetting 1 0xffff 65535 255 255 255 "),
         IBCC_OK);
    T_EQ(ibcc_cacc_setting_print_args(NULL, small, sizeof small), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_print_args(&s, NULL, 8), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_print_args(&s, small, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_setting_print_args(&s, small, sizeof small), IBCC_ERR_NOMEM);
    T_STREQ(small, "");
    s.sl[3].ccti_min = 1;
    T_EQ(ibcc_cacc_setting_print_args(&s, big, sizeof big), IBCC_ERR_UNSUPPORTED);
    T_EQ(ibcc_cacc_block_parse_args(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_parse_args(&b, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_parse_args(&b, ""), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 16384 0"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 256"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 4:0"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 0:16384"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 0:"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 :1"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 0:1,0:2"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 0:1x"),
         IBCC_ERR_PARSE);
    {   /* 65 entries */
        size_t n = 0;
        int i;
        n += (size_t)sprintf(big + n, "CongestionControlTable 100 1");
        for (i = 0; i < 65; i++) n += (size_t)sprintf(big + n, " 0:%d", i);
        T_EQ(ibcc_cacc_block_parse_args(&b, big), IBCC_ERR_RANGE);
    }
    T_EQ(ibcc_cacc_block_print_args(NULL, small, sizeof small), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_print_args(&b, NULL, 8), IBCC_ERR_NULL);
    b.block = 3; b.ccti_limit = 199;              /* a valid block */
    T_EQ(ibcc_cacc_block_print_args(&b, small, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_block_print_args(&b, small, 1), IBCC_ERR_NOMEM);
    T_STREQ(small, "");
    T_EQ(ibcc_cacc_block_print_args(&b, big, sizeof big), IBCC_OK);
    b.block = 0xffffu; b.ccti_limit = 0xffffu;    /* struct beyond ranges: */
    strcpy(big, "kept");                          /* refused, nothing written */
    T_EQ(ibcc_cacc_block_print_args(&b, big, sizeof big), IBCC_ERR_RANGE);
    T_STREQ(big, "kept");
    /* OpenSM */
    memset(&cfg, 0, sizeof cfg);
    T_EQ(ibcc_cacc_parse_opensm_line(NULL, ""), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, ""), IBCC_OK);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "   # x"), IBCC_OK);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_cct_x 1"), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_ccti_timer 16 1"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_ccti_timer 0 65536"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_ccti_min 0 256"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_ccti_min 0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_ccti_min 0 1 2"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_port_control 2"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_ca_cong_setting_control_map 0x10000"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_cct (null) x"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_cct 0:1,"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_cct 0:1,,0:2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_cct 0:1 0:2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&cfg, "cc_cct"), IBCC_OK);
    T_EQU(cfg.cct_len, 0);
    {   /* 129 entries */
        size_t n = 0;
        int i;
        n += (size_t)sprintf(big + n, "cc_cct ");
        for (i = 0; i < 129; i++) n += (size_t)sprintf(big + n, "%s0:%d", i ? "," : "", i);
        T_EQ(ibcc_cacc_parse_opensm_line(&cfg, big), IBCC_ERR_RANGE);
        T_EQU(cfg.cct_len, 0);
    }
    T_EQ(ibcc_cacc_parse_opensm(NULL, "", &line), IBCC_ERR_NULL);
    T_EQU(line, 0);
    T_EQ(ibcc_cacc_parse_opensm(&cfg, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_parse_opensm(&cfg, "", &line), IBCC_OK);
    T_EQ(ibcc_cacc_parse_opensm(&cfg, "\n\n\nfoo bar\ncc_cct 9:9", &line),
         IBCC_ERR_RANGE);
    T_EQU(line, 5);
    T_EQ(ibcc_cacc_parse_opensm(&cfg, "cc_cct 0:1\n", NULL), IBCC_OK);
    T_EQ(ibcc_cacc_print_opensm(NULL, big, sizeof big), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_print_opensm(&cfg, NULL, 8), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_print_opensm(&cfg, big, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_print_opensm(&cfg, small, sizeof small), IBCC_ERR_NOMEM);
    cfg.cct_len = 129;
    T_EQ(ibcc_cacc_print_opensm(&cfg, big, sizeof big), IBCC_ERR_RANGE);
    /* agent */
    memset(&d, 0, sizeof d);
    d.entries = 64;
    T_EQ(ibcc_cct_init(&c, &d, MEM, MEMLEN), IBCC_OK);
    T_EQ(ibcc_cacc_from_cct(NULL, &c), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_from_cct(&s, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply(NULL, &s, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply(&c, NULL, 0), IBCC_ERR_NULL);
    memset(&s, 0, sizeof s);
    s.port_control = 0x8000u;
    T_EQ(ibcc_cacc_apply(&c, &s, 0), IBCC_ERR_RANGE);
    s.port_control = 0; s.sl[15].ccti_min = 64;
    T_EQ(ibcc_cacc_apply(&c, &s, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_apply_config(NULL, &cfg, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply_config(&c, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, 0), IBCC_ERR_RANGE); /* len 129 */
    cfg.cct_len = 65;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, 0), IBCC_ERR_CAPACITY);
    cfg.cct_len = 0; cfg.setting.sl[2].ccti_min = 1;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, 0), IBCC_ERR_RANGE);
    cfg.setting.sl[2].ccti_min = 0;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_TIME_MAX), IBCC_OK);
    T_EQU(ibcc_cct_limit(&c), 0);
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, 0), IBCC_ERR_STATE);
}

/* ---- L1 mvcm ----------------------------------------------------------- */
static void mvcm_misuse(void)
{
    ibcc_mvcm_desc d;
    ibcc_mvcm a;
    ibcc_mvcm_flow f;
    double w = 0, lo = 0, hi = 0;
    uint32_t dw = 0;
    ibcc_time t = 0;
    T_EQ(ibcc_mvcm_class(0xffffffffu), IBCC_MVCM_HOT);
    T_EQ(ibcc_mvcm_class(IBCC_VB), IBCC_MVCM_COLD);
    T_EQ(ibcc_mvcm_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_mvcm_size, NULL, IBCC_ERR_NULL);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);           /* ws required */
    d.ws = 1; d.flows = UINT32_C(0x80000000);
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_CAPACITY);
    d.flows = UINT32_C(0x7fffffff); d.dw_max = 65535; d.k = 65535; d.n = 64;
    T_EQ(ibcc_mvcm_init(&a, &d, MEM, MEMLEN), IBCC_ERR_NOMEM);
    d.dw_max = 0; d.k = 0; d.n = 0;
    d.flows = 0; d.dw_max = 65536;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.dw_max = 0; d.k = 1;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.k = 65536;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.k = 0; d.n = 65;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.n = 0; d.flags = 8;                  /* no such flag */
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    T_SIZE_ERR(ibcc_mvcm_size, &d, IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    d.ws = IBCC_TIME_MAX; d.k = 65535; d.n = 64; d.flags = IBCC_MVCM_NO_CAP;
    d.flows = 2;
    T_EQ(ibcc_mvcm_init(NULL, &d, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_init(&a, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_init(&a, &d, NULL, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_init(&a, &d, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_mvcm_init(&a, &d, MEM, t_size_mvcm(&d) - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_mvcm_init(&a, &d, MEM, t_size_mvcm(&d)), IBCC_OK);
    T_EQ(ibcc_mvcm_on_ack(NULL, 0, IBCC_MB), -1);
    T_EQ(ibcc_mvcm_on_ack(&a, 2, IBCC_MB), -1);
    T_EQ(ibcc_mvcm_on_ack(&a, UINT32_MAX, IBCC_MB), -1);
    ibcc_mvcm_on_inject_empty(NULL, 0);
    ibcc_mvcm_on_inject_empty(&a, 2);
    T_EQU(ibcc_mvcm_window(NULL, 0), 0);
    T_EQU(ibcc_mvcm_window(&a, 2), 0);
    T_EQU(ibcc_mvcm_wait(NULL, 0), 0);
    T_EQU(ibcc_mvcm_wait(&a, 2), 0);
    T_CHECK(ibcc_mvcm_state(NULL, 0) == NULL);
    T_CHECK(ibcc_mvcm_state(&a, 2) == NULL);
    T_EQ(ibcc_mvcm_step(NULL, &f, 0), -1);
    T_EQ(ibcc_mvcm_step(&a, NULL, 0), -1);
    ibcc_mvcm_flow_reset(NULL, &f);
    ibcc_mvcm_flow_reset(&a, NULL);
    {   /* no cap: nWS saturates, the wait saturates */
        int i;
        for (i = 0; i < 40; i++) ibcc_mvcm_on_ack(&a, 1, IBCC_MB | IBCC_VB);
        T_EQU(ibcc_mvcm_state(&a, 1)->nws, UINT32_MAX);
        T_EQU(ibcc_mvcm_wait(&a, 1), IBCC_TIME_MAX);
    }
    /* helpers */
    T_CHECK(ibcc_mvcm_hop_bytes(IBCC_TIME_MAX, UINT64_MAX) > 1e26);
    T_EQ(ibcc_mvcm_omega(1, 1, 1, 1, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_omega(1, nan_(), 1, 1, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(1, -1, 1, 1, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(1, 1, 0, 1, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(1, 1, inf_(), 1, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(1, 1, 1, -inf_(), &w), IBCC_ERR_RANGE);
    /* finite inputs whose omega overflows to inf */
    T_EQ(ibcc_mvcm_omega(UINT32_MAX, 1e299, 1e-10, 0, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(1, 1, 1, 2, 1, NULL, &hi), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_omega_bounds(1, 1, 1, 2, 1, &lo, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_omega_bounds(1, 1, 0, 2, 1, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(1, 1, 2, 1, 1, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(1, nan_(), 1, 2, 1, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(1, 1, 1, inf_(), 1, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(UINT32_MAX, 1e299, 1e-10, 1, 0, &lo, &hi),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(2.0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_dw_max(nan_(), &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(inf_(), &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(0.999, &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(65535.5, &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(65535.0, &dw), IBCC_OK);
    T_EQU(dw, 65535);
    T_EQ(ibcc_mvcm_rtt_min(1, 1, 1, 1, 1, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_rtt_min(1, 1, 0, 1, 1, &t), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_rtt_min(1, 1, 1, 0, 1, &t), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_rtt_min(UINT32_MAX, IBCC_TIME_MAX, 1, 1, 1, &t),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_mvcm_rtt_min(1, IBCC_TIME_MAX / 2, UINT64_MAX, 1, 1, &t),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_mvcm_rtt_min(0, 0, 1, UINT32_MAX, 1, &t), IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_mvcm_rtt_min(0, 0, 1000, UINT32_MAX, UINT32_MAX, &t), IBCC_OK);
    T_EQU(t, UINT64_C(8589934590000000000));
}

/* ---- L1 dest ----------------------------------------------------------- */
static void dest_misuse(void)
{
    ibcc_dest_desc d;
    ibcc_dest x;
    ibcc_dest_reply r;
    T_EQ(ibcc_dest_defaults(NULL), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.scheme = 3;
    T_EQ(ibcc_dest_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.transport = 2;
    T_EQ(ibcc_dest_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.becn_by_cnp = 2;
    T_EQ(ibcc_dest_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.transport = IBCC_DEST_UNACKED;
    T_EQ(ibcc_dest_defaults(&d), IBCC_ERR_UNSUPPORTED);
    memset(&d, 0, sizeof d); d.scheme = IBCC_DEST_MVPM; d.becn_by_cnp = 1;
    T_EQ(ibcc_dest_defaults(&d), IBCC_ERR_UNSUPPORTED);
    memset(&d, 0, sizeof d); d.ack_bytes = 65536;
    T_EQ(ibcc_dest_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.cnp_bytes = UINT32_MAX;
    T_EQ(ibcc_dest_init(&x, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_dest_init(NULL, &d), IBCC_ERR_NULL);
    T_EQ(ibcc_dest_init(&x, NULL), IBCC_OK);
    r = ibcc_dest_on_packet(NULL, IBCC_FECN);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    T_EQU(ibcc_dest_ack(NULL, 0), 0);
    T_EQU(ibcc_dest_marks(NULL, IBCC_ACK | IBCC_ECN), 0);
    T_EQU(ibcc_dest_reply_bytes(NULL, IBCC_ACK), 0);
    r = ibcc_dest_on_packet(&x, 0xffffffffu);       /* every bit: an ACK */
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    T_EQU(ibcc_dest_marks(&x, 0xffffffffu), IBCC_ECN);
    T_EQU(ibcc_dest_reply_bytes(&x, 0xffffffffu), 20);
    T_EQU(ibcc_dest_reply_bytes(&x, 0), 0);
}

/* ---- L1 segment -------------------------------------------------------- */
static void segment_misuse(void)
{
    ibcc_segment_desc d;
    ibcc_segment s, zero;
    ibcc_segment_iter it;
    T_EQ(ibcc_segment_defaults(NULL), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.adaptive = 2;
    T_EQ(ibcc_segment_defaults(&d), IBCC_ERR_RANGE);
    T_EQ(ibcc_segment_init(&s, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_segment_init(NULL, NULL), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d);
    d.seg_bytes = UINT32_MAX; d.slack_bytes = UINT32_MAX; d.adaptive = 1;
    T_EQ(ibcc_segment_init(&s, &d), IBCC_OK);
    T_EQU(ibcc_segment_adaptive_len(UINT32_MAX, UINT32_MAX),
          (uint64_t)UINT32_MAX * UINT32_MAX);
    T_EQU(ibcc_segment_adaptive_len(0, 0), 0);
    T_EQU(ibcc_segment_len(&s, IBCC_SEGMENT_LOW, 0), UINT32_MAX);
    T_EQU(ibcc_segment_len(NULL, IBCC_SEGMENT_LOW, 0), IBCC_SEGMENT_WHOLE);
    T_EQU(ibcc_segment_count(&s, UINT64_MAX, IBCC_SEGMENT_HIGH, 3), 1);
    T_EQU(ibcc_segment_count(&s, UINT64_MAX, -7, UINT32_MAX), 2);
    T_EQU(ibcc_segment_count(NULL, 5, IBCC_SEGMENT_LOW, 1), 1);
    /* a zeroed, never initialised segment: no division by zero */
    memset(&zero, 0, sizeof zero);
    T_EQU(ibcc_segment_count(&zero, 100, IBCC_SEGMENT_LOW, 1), 0);
    ibcc_segment_begin(NULL, &s, 5, 0, 1);
    ibcc_segment_begin(&it, &zero, 100, IBCC_SEGMENT_LOW, 1);
    T_EQU(ibcc_segment_next(&it), 0);
    T_EQU(ibcc_segment_next(NULL), 0);
    ibcc_segment_begin(&it, &s, UINT64_MAX, IBCC_SEGMENT_HIGH, 0);
    T_EQU(ibcc_segment_next(&it), UINT64_MAX);
    T_EQU(ibcc_segment_next(&it), 0);
    T_EQ(ibcc_segment_pick(-1, 0, 0), IBCC_SEGMENT_PICK_NONE);
    T_EQ(ibcc_segment_pick(0, -5, 1), IBCC_SEGMENT_HIGH);
    T_EQ(ibcc_segment_pick(0, 0, 0), IBCC_SEGMENT_PICK_NONE);
    {
        ibcc_segment_delay dl;
        T_EQ(ibcc_segment_high_delay(1, 1, 1, 1, 1, 1, 1, 1, 1, NULL),
             IBCC_ERR_NULL);
        T_EQ(ibcc_segment_high_delay(1, 0, 1, 1, 1, 1, 1, 1, 1, &dl),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_segment_high_delay(1, 1, 0, 1, 1, 1, 1, 1, 1, &dl),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_segment_high_delay(UINT64_MAX, UINT64_MAX, UINT64_MAX,
             UINT64_MAX, UINT32_MAX, UINT32_MAX, IBCC_TIME_MAX,
             IBCC_TIME_MAX, IBCC_TIME_MAX, &dl), IBCC_OK);
    }
}

/* ---- L1 marker (read-only use: another engineer's section) ------------ */
static void marker_misuse(void)
{
    ibcc_marker_desc d;
    ibcc_marker m;
    ibcc_result last = IBCC_OK;
    ibcc_marker_stats st;
    T_EQ(ibcc_marker_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_marker_size, NULL, IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.engine = (ibcc_marker_engine)7;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.ports = 257;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_marker_size, &d, IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.in_capacity = 65536;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.unit = (ibcc_buffer_unit)2;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.org = (ibcc_switch_org)2;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.classify = (ibcc_classify)2;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.iba_threshold = 16;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.iba_packet_size = 256;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.iba_marking_rate = 65536;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.ports = 8; d.victim_mask[0] = 0x100u;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.trigger = 5;          /* > in_capacity 4 */
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_marker_init(NULL, &d, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(&m, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(&m, &d, NULL, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(&m, &d, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_marker_init(&m, &d, MEM, t_size_marker(&d) - 1), IBCC_ERR_NOMEM);
    /* NULL marker */
    ibcc_marker_reset(NULL);
    T_EQU(ibcc_marker_units(NULL, 100), 1);        /* used to dereference NULL */
    T_EQU(ibcc_marker_arrive(NULL, 0, 0, 1), 0);
    T_EQU(ibcc_marker_depart(NULL, 0, 0, 1, 0, 1), 0);
    ibcc_marker_leave(NULL, 0, 1);
    ibcc_marker_release(NULL, 0, 1);
    ibcc_marker_settle(NULL);                      /* ignored */
    ibcc_marker_set_busy(NULL, 0, 1);
    T_EQ(ibcc_marker_set_iba_port(NULL, 0, 1, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_set_victim(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQU(ibcc_marker_occupancy(NULL, 0), 0);
    T_EQU(ibcc_marker_packets(NULL, 0), 0);
    T_EQU(ibcc_marker_waiting(NULL, 0, 0), 0);
    T_EQU(ibcc_marker_cnt1(NULL, 0), 0);
    T_EQU(ibcc_marker_cnt2(NULL, 0), 0);
    T_EQU(ibcc_marker_naive_pending(NULL, 0, 0), 0);
    T_EQU(ibcc_marker_level(NULL, 0), 0);
    T_EQ(ibcc_marker_iba_congested(NULL, 0, 1), 0);
    T_EQU(ibcc_marker_iba_level(NULL, 0), 0);
    T_EQU(ibcc_marker_errors(NULL, &last), 0);
    T_EQ(last, IBCC_ERR_NULL);
    st = ibcc_marker_get_stats(NULL);
    T_EQU(st.arrivals, 0);
    T_STREQ(ibcc_marker_engine_name((ibcc_marker_engine)99), "?");
    /* a real marker (NAIVE, 256 ports, credits): every event out of range */
    memset(&d, 0, sizeof d);
    d.engine = IBCC_MARKER_NAIVE; d.ports = 256; d.unit = IBCC_UNIT_CREDITS;
    d.in_capacity = 65535;
    T_CHECK(t_size_marker(&d) <= MEMLEN);
    T_EQ(ibcc_marker_init(&m, &d, MEM, MEMLEN), IBCC_OK);
    T_EQU(ibcc_marker_units(&m, 0), 1);
    T_EQU(ibcc_marker_units(&m, UINT32_MAX), UINT32_C(67108864));
    T_EQU(ibcc_marker_arrive(&m, 256, 0, 1), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, UINT32_MAX, 1), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 0, UINT32_MAX), 0);   /* > capacity */
    T_EQU(ibcc_marker_depart(&m, 0, 0, 1, 0, 1), 0);       /* no arrival */
    T_EQU(ibcc_marker_depart(&m, 256, 256, 1, 0, 1), 0);
    ibcc_marker_leave(&m, 0, 1);                           /* not CIOQ */
    ibcc_marker_release(&m, 0, 1);                         /* hold 0 */
    ibcc_marker_set_busy(&m, 256, 1);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 1, 1, 1), IBCC_ERR_STATE);
    T_EQ(ibcc_marker_set_victim(&m, 0, 1), IBCC_ERR_STATE);
    T_EQU(ibcc_marker_errors(&m, &last), 8);
    T_EQ(last, IBCC_ERR_RANGE);
    T_EQU(ibcc_marker_occupancy(&m, 256), 0);
    T_EQU(ibcc_marker_waiting(&m, 0, 256), 0);
    T_EQU(ibcc_marker_naive_pending(&m, 256, 0), 0);
    T_EQU(ibcc_marker_level(&m, UINT32_MAX), 0);
    ibcc_marker_reset(&m);
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
    /* a zeroed, never initialised marker: clear leaves it alone (it
       used to pass NULL to memset, undefined behaviour) */
    {
        ibcc_marker z;
        memset(&z, 0, sizeof z);
        ibcc_marker_reset(&z);
        T_EQU(ibcc_marker_errors(&z, NULL), 0);
    }
    /* IBA engine: field ranges */
    memset(&d, 0, sizeof d);
    d.engine = IBCC_MARKER_IBA; d.ports = 256;
    T_EQ(ibcc_marker_init(&m, &d, MEM, MEMLEN), IBCC_OK);
    T_EQ(ibcc_marker_set_iba_port(&m, 256, 1, 1, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 16, 1, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 1, 256, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 1, 1, 65536), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 255, 15, 255, 65535), IBCC_OK);
    ibcc_marker_release(&m, 0, 1);                     /* hold 0: STATE */
    T_EQU(ibcc_marker_errors(&m, &last), 1);
    T_EQ(last, IBCC_ERR_STATE);
    T_EQ(ibcc_marker_set_victim(&m, 256, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_victim(&m, 255, 1), IBCC_OK);
    T_EQ(ibcc_marker_iba_congested(&m, 256, 1), 0);
    T_EQU(ibcc_marker_iba_level(&m, 256), 0);
}

/* ---- L1 arbiter (read-only use) ---------------------------------------- */
static int can_never(void *u, unsigned out, unsigned in, uint32_t size)
{
    (void)u; (void)out; (void)in; (void)size;
    return 0;
}

static void arbiter_misuse(void)
{
    ibcc_arbiter_desc d;
    ibcc_arbiter a;
    ibcc_arb_grant g;
    unsigned o = 9;
    uint32_t sz = 9;
    uint64_t tag = 9;
    T_EQ(ibcc_arbiter_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_arbiter_size, NULL, IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.ports = 257;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.capacity = 65536;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.policy = (ibcc_arb_policy)4;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.bypass_limit = 65536;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_RANGE);
    T_SIZE_ERR(ibcc_arbiter_size, &d, IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_arbiter_init(NULL, &d, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_init(&a, NULL, MEM, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_init(&a, &d, NULL, MEMLEN), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_init(&a, &d, MISALIGNED, MEMLEN - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_arbiter_init(&a, &d, MEM, t_size_arbiter(&d) - 1),
         IBCC_ERR_NOMEM);
    T_EQ(ibcc_arbiter_push(NULL, 0, 0, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_pick(NULL, 0, &g), 0);
    T_EQ(ibcc_arbiter_pick_any(NULL, &g), 0);
    T_EQ(ibcc_arbiter_set_input_busy(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_set_output(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_close_output(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQU(ibcc_arbiter_len(NULL, 0), 0);
    T_EQU(ibcc_arbiter_head_bypassed(NULL, 0), 0);
    T_EQ(ibcc_arbiter_input_busy(NULL, 0), 0);
    T_EQ(ibcc_arbiter_peek(NULL, 0, 0, &o, &sz, &tag), IBCC_ERR_NULL);
    T_STREQ(ibcc_arb_policy_name((ibcc_arb_policy)7), "?");
    {
        int pol;
        for (pol = 0; pol < 3; pol++) {
            memset(&d, 0, sizeof d);
            d.ports = 256; d.capacity = 1; d.policy = (ibcc_arb_policy)pol;
            T_EQ(ibcc_arbiter_init(&a, &d, MEM, MEMLEN), IBCC_OK);
            T_EQ(ibcc_arbiter_push(&a, 256, 0, 1, 1), IBCC_ERR_RANGE);
            T_EQ(ibcc_arbiter_push(&a, 0, 256, 1, 1), IBCC_ERR_RANGE);
            T_EQ(ibcc_arbiter_push(&a, 255, 255, UINT32_MAX, UINT64_MAX), IBCC_OK);
            T_EQ(ibcc_arbiter_push(&a, 255, 0, 1, 1), IBCC_ERR_FULL);
            T_EQ(ibcc_arbiter_pick(&a, 256, &g), 0);
            T_EQ(ibcc_arbiter_pick(&a, 0, NULL), 0);
            T_EQ(ibcc_arbiter_pick_any(&a, NULL), 0);
            T_EQ(ibcc_arbiter_set_input_busy(&a, 256, 1), IBCC_ERR_RANGE);
            T_EQ(ibcc_arbiter_set_output(&a, 256, 1), IBCC_ERR_RANGE);
            T_EQ(ibcc_arbiter_close_output(&a, 256, 1), IBCC_ERR_RANGE);
            /* the last output of the last bitmap word: closed, nothing
               goes; open again, its packet is there to go */
            T_EQ(ibcc_arbiter_close_output(&a, 255, 1), IBCC_OK);
            T_EQ(ibcc_arbiter_pick(&a, 255, &g), 0);
            T_EQ(ibcc_arbiter_pick_any(&a, &g), 0);
            T_EQ(ibcc_arbiter_close_output(&a, 255, 0), IBCC_OK);
            T_EQU(ibcc_arbiter_len(&a, 255), 1);
            T_EQU(ibcc_arbiter_len(&a, 256), 0);
            T_EQU(ibcc_arbiter_head_bypassed(&a, UINT32_MAX), 0);
            T_EQ(ibcc_arbiter_input_busy(&a, 256), 0);
            T_EQ(ibcc_arbiter_peek(&a, 256, 0, NULL, NULL, NULL), IBCC_ERR_RANGE);
            T_EQ(ibcc_arbiter_peek(&a, 255, 1, NULL, NULL, NULL), IBCC_ERR_RANGE);
            T_EQ(ibcc_arbiter_peek(&a, 255, 0, NULL, NULL, NULL), IBCC_OK);
            T_EQ(ibcc_arbiter_peek(&a, 255, 0, &o, &sz, &tag), IBCC_OK);
            T_EQU(tag, UINT64_MAX);
            T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);
            T_EQU(g.in, 255); T_EQU(g.out, 255);
        }
        memset(&d, 0, sizeof d);
        d.can_send = can_never;
        T_EQ(ibcc_arbiter_init(&a, &d, MEM, MEMLEN), IBCC_OK);
        T_EQ(ibcc_arbiter_push(&a, 0, 1, 1, 1), IBCC_OK);
        T_EQ(ibcc_arbiter_pick(&a, 1, &g), 0);
        T_EQ(ibcc_arbiter_pick_any(&a, &g), 0);
    }
}

/* ---- L1 vlarb ------------------------------------------------------------ */
static void vlarb_misuse(void)
{
    ibcc_vlarb_desc d, d0;
    ibcc_vlarb a;
    ibcc_vlarb_entry e[64];
    unsigned vl = 77;
    uint32_t n = 77, lim = 77;
    char buf[16];
    size_t sz = 5;
    T_EQ(ibcc_vlarb_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_vlarb_size, NULL, IBCC_ERR_NULL);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_vlarb_size(&d, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_size(&d, &sz), IBCC_OK);
    T_EQU(sz, 0);
    /* fields at and past their bounds; a refused desc stays as given */
    d.vls = UINT32_MAX; d0 = d;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    T_CHECK(memcmp(&d, &d0, sizeof d) == 0);
    memset(&d, 0, sizeof d); d.high_limit = UINT32_MAX;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.n_high = UINT32_MAX;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.n_low = 65;
    T_SIZE_ERR(ibcc_vlarb_size, &d, IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.vls = 15; d.n_low = 1; d.low[0].vl = 255;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    d.low[0].vl = 14; d.low[0].weight = 255; d.high_limit = 255;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_OK);
    T_EQ(ibcc_vlarb_init(NULL, &d, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_init(&a, NULL, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_init(&a, &d, MISALIGNED, 3), IBCC_OK);   /* unused */
    /* steps: NULLs, every ready mask, extreme sizes */
    T_EQ(ibcc_vlarb_pick(NULL, ~0u, &vl), 0);
    T_EQ(ibcc_vlarb_pick(&a, ~0u, NULL), 0);
    T_EQ(ibcc_vlarb_sent(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_sent(&a, 15, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_sent(&a, UINT32_MAX, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_sent(&a, 14, 1), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_vlarb_pick(&a, 0x8000u, &vl), 0);    /* VL15: not a data VL */
    T_EQ(ibcc_vlarb_pick(&a, ~0u, &vl), 1);
    T_EQU(vl, 14);
    T_EQ(ibcc_vlarb_sent(&a, 14, UINT32_MAX), IBCC_OK);
    T_EQ(ibcc_vlarb_pick(&a, ~0u, &vl), 1);
    T_EQ(ibcc_vlarb_sent(&a, 14, UINT32_MAX), IBCC_OK);
    T_EQU(ibcc_vlarb_bytes(&a, 14), 2 * (uint64_t)UINT32_MAX);
    T_EQU(ibcc_vlarb_bytes(NULL, 0), 0);
    T_EQU(ibcc_vlarb_bytes(&a, 15), 0);
    T_EQU(ibcc_vlarb_bytes(&a, UINT32_MAX), 0);
    /* text: NULLs, empty, huge numbers, junk, unterminated pairs */
    T_EQ(ibcc_vlarb_parse_table(NULL, e, 64, &n), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_parse_table("0:1", NULL, 64, &n), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_parse_table("0:1", e, 64, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_parse_table("", NULL, 0, &n), IBCC_OK);
    T_EQU(n, 0);
    T_EQ(ibcc_vlarb_parse_table("0:1", NULL, 0, &n), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_vlarb_parse_table("18446744073709551616:1", e, 64, &n),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_parse_table("0:1 junk", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0x:1", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("\x01", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_limit(NULL, &lim), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_parse_limit("1", NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_parse_limit("18446744073709551616", &lim), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_parse_limit("1 junk", &lim), IBCC_ERR_PARSE);
    T_EQU(lim, 77);
    T_EQ(ibcc_vlarb_print_table(NULL, 1, buf, sizeof buf), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_print_table(e, 0, NULL, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_vlarb_print_table(e, UINT32_MAX, buf, sizeof buf),
         IBCC_ERR_CAPACITY);
    T_EQ(ibcc_vlarb_parse_table("14:255", e, 64, &n), IBCC_OK);
    T_EQ(ibcc_vlarb_print_table(e, n, buf, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_vlarb_print_table(e, n, buf, 6), IBCC_ERR_NOMEM);
    T_STREQ(buf, "");
    T_EQ(ibcc_vlarb_print_table(e, n, buf, 7), IBCC_OK);
    T_STREQ(buf, "14:255");
}

/* ---- L1 ecn, dcqcn, hpcc ---------------------------------------------- */
static void ethernet_misuse(void)
{
    ibcc_ecn e;
    ibcc_ecn_desc ed;
    ibcc_int_record rec;
    ibcc_int_hop hop;
    ibcc_rng r;
    ibcc_dcqcn d;
    ibcc_dcqcn_desc dd;
    ibcc_dcqcn_rp rp;
    ibcc_dcqcn_np np;
    ibcc_hpcc h;
    ibcc_hpcc_desc hd;
    ibcc_rng_seed(&r, 3);
    /* ecn: NULLs, boundaries, a garbage engine */
    T_EQ(ibcc_ecn_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_ecn_init(NULL, NULL), IBCC_ERR_NULL);
    memset(&ed, 0, sizeof ed);
    ed.kmin = ed.kmax = IBCC_ECN_KMAX_MAX; ed.pmax = IBCC_ECN_PPM;
    T_EQ(ibcc_ecn_init(&e, &ed), IBCC_OK);
    T_EQU(ibcc_ecn_mark(&e, UINT64_MAX, NULL), IBCC_ECN);
    ed.kmax = UINT64_MAX;
    T_EQ(ibcc_ecn_init(&e, &ed), IBCC_ERR_RANGE);
    T_EQU(ibcc_ecn_mark(NULL, 1, &r), 0);
    T_EQU(ibcc_ecn_prob_ppm(NULL, 1), 0);
    memset(&e, 0xff, sizeof e);                 /* garbage: no crash */
    (void)ibcc_ecn_mark(&e, 5, &r);
    (void)ibcc_ecn_prob_ppm(&e, UINT64_MAX);
    e.kmin = 0; e.kmax = UINT64_MAX;
    (void)ibcc_ecn_mark(&e, 5, &r);
    (void)ibcc_ecn_prob_ppm(&e, 5);
    /* INT */
    ibcc_int_stamp(NULL, 1, 1, 1, 1);
    ibcc_int_stamp(&hop, IBCC_TIME_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX);
    T_EQU(hop.ts, IBCC_TIME_MAX);
    ibcc_int_clear(NULL);
    T_EQ(ibcc_int_push(NULL, 1, 1, 1, 1), 0);
    memset(&rec, 0xff, sizeof rec);             /* garbage count: refused */
    T_EQ(ibcc_int_push(&rec, 1, 1, 1, 1), 0);
    T_EQU(rec.dropped, UINT32_MAX);
    /* dcqcn: NULLs, boundaries, times at IBCC_TIME_MAX, garbage */
    T_EQ(ibcc_dcqcn_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_dcqcn_init(NULL, NULL), IBCC_ERR_NULL);
    memset(&dd, 0, sizeof dd);
    dd.line_rate = UINT64_C(1) << 62; dd.k = dd.timer_t = dd.n = 1; dd.b = 1;
    dd.g = dd.alpha_init = IBCC_DCQCN_ONE; dd.f = 65535; dd.gd_shift = 15;
    dd.r_ai = dd.r_hai = dd.line_rate >> 20; dd.rate_min = 1;
    T_EQ(ibcc_dcqcn_init(&d, &dd), IBCC_OK);
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_send(&d, &rp, UINT64_MAX, 1);
    (void)ibcc_dcqcn_rp_rate(&d, &rp, IBCC_TIME_MAX);
    T_CHECK(rp.rc >= 1 && rp.rc <= rp.rt && rp.rt <= dd.line_rate);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_TIME_MAX);
    T_EQU(rp.t_next, IBCC_TIME_MAX);            /* never fires */
    ibcc_dcqcn_rp_advance(&d, &rp, IBCC_TIME_MAX);
    T_EQU(ibcc_dcqcn_rp_on_cnp(NULL, &rp, 0), 0);
    T_EQU(ibcc_dcqcn_rp_on_send(&d, NULL, 1, 0), 0);
    T_EQU(ibcc_dcqcn_rp_rate(&d, NULL, 0), 0);
    ibcc_dcqcn_rp_init(&d, NULL, 0);
    ibcc_dcqcn_rp_advance(NULL, &rp, 0);
    ibcc_dcqcn_np_init(NULL);
    ibcc_dcqcn_np_init(&np);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, NULL, IBCC_ECN, 0), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(NULL, &np, IBCC_ECN, 0), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, ~0u, IBCC_TIME_MAX), 0);  /* ACK|CNP */
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_TIME_MAX), IBCC_CNP);
    memset(&d, 0, sizeof d);                    /* zeroed: never initialised */
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 5);
    (void)ibcc_dcqcn_rp_on_send(&d, &rp, 1000, 6);
    (void)ibcc_dcqcn_rp_rate(&d, &rp, IBCC_TIME_MAX);
    memset(&d, 0xff, sizeof d);                 /* garbage parameters */
    memset(&rp, 0xff, sizeof rp);               /* and garbage state */
    rp.t_next = rp.k_next = 0; rp.last = 0; rp.bytes = 0;
    (void)ibcc_dcqcn_rp_on_send(&d, &rp, UINT64_MAX, IBCC_S(1));
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_S(2));
    d.p.k = d.p.timer_t = 1; d.p.b = 1; d.p.r_ai = d.p.r_hai = 0;
    rp.t_next = rp.k_next = 0; rp.last = 0;
    (void)ibcc_dcqcn_rp_on_send(&d, &rp, UINT64_MAX, IBCC_TIME_MAX - 1u);
    /* hpcc: NULLs, boundaries, garbage */
    T_EQ(ibcc_hpcc_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_hpcc_init(NULL, NULL), IBCC_ERR_NULL);
    memset(&hd, 0, sizeof hd);
    hd.line_rate = UINT64_C(1) << 62; hd.base_rtt = IBCC_S(1);
    T_EQ(ibcc_hpcc_init(&h, &hd), IBCC_ERR_RANGE);  /* W_init above 2^48 */
    hd.w_init = UINT64_C(1) << 48; hd.w_ai = hd.w_init; hd.eta = IBCC_HPCC_ONE;
    T_EQ(ibcc_hpcc_init(&h, &hd), IBCC_OK);
    ibcc_int_clear(&rec);
    (void)ibcc_int_push(&rec, 0, 0, 0, 1);
    (void)ibcc_hpcc_on_ack(&h, 0, 0, &rec);
    ibcc_int_clear(&rec);
    (void)ibcc_int_push(&rec, IBCC_TIME_MAX, UINT64_MAX, UINT64_MAX, 1);
    T_EQU(ibcc_hpcc_on_ack(&h, UINT64_MAX, UINT64_MAX, &rec), hd.w_init);
    T_EQU(ibcc_hpcc_on_ack(NULL, 0, 0, &rec), 0);
    T_EQU(ibcc_hpcc_on_ack(&h, 0, 0, NULL), h.w);
    T_EQU(ibcc_hpcc_window(NULL), 0);
    T_EQU(ibcc_hpcc_rate(NULL), 0);
    (void)ibcc_hpcc_rate(&h);
    ibcc_hpcc_reset(NULL);
    memset(&h, 0, sizeof h);                    /* zeroed: never initialised */
    (void)ibcc_hpcc_on_ack(&h, 1, 1, &rec);
    (void)ibcc_hpcc_on_ack(&h, 2, 2, &rec);
    T_EQU(ibcc_hpcc_rate(&h), 0);
    memset(&h, 0xff, sizeof h);                 /* garbage */
    memset(&rec, 0xff, sizeof rec);
    (void)ibcc_hpcc_on_ack(&h, 1, 1, &rec);
    (void)ibcc_hpcc_on_ack(&h, 2, 2, &rec);
    (void)ibcc_hpcc_rate(&h);
    ibcc_hpcc_reset(&h);
}

/* ---- L1 qos ------------------------------------------------------------ */
/* Collective schedules, placement, jobs and traces: NULLs, garbage
   descriptions, huge numbers, a job on a fabric whose flows are not its. */
static void jobs_misuse(void)
{
    ibcc_coll_desc d;
    ibcc_coll_msg m;
    uint32_t x = 0, hosts[4] = {0, 1, 2, 3}, out[4], ranks = 4;
    uint64_t a = 0, b = 0;
    ibcc_job_desc j;
    ibcc_job_stats st;
    ibcc_trace t;
    ibcc_trace_msg tm[2];
    ibcc_fabric_error e;
    ibcc_fabric_flow fl[16];
    ibcc_jobs *js = NULL;
    ibcc_time q = 0;
    static char line[4200];
    memset(&d, 0xff, sizeof d);                  /* garbage desc */
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_steps(&d, 0, &x), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_count(&d, 0, 0, &x, &x), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_send(&d, 0, 0, 0, &m), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_wait(&d, 0, 0, 0, &m), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_consumer(&d, 0, 1, 0, &x), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_totals(&d, &a, &b, &x), IBCC_ERR_RANGE);
    T_STREQ(ibcc_coll_name(d.kind), "?");
    T_EQ(ibcc_coll_parse(""), 0);
    memset(&d, 0, sizeof d);
    d.kind = IBCC_COLL_ALLTOALL_SHIFT;
    d.ranks = UINT32_C(1) << 24;                 /* the most ranks */
    d.bytes = UINT64_C(1) << 48;                 /* the most bytes */
    T_EQ(ibcc_coll_totals(&d, &a, &b, &x), IBCC_OK);
    T_EQU(a, (uint64_t)d.ranks * (d.ranks - 1u));
    T_EQ(ibcc_coll_send(&d, d.ranks - 1u, d.ranks - 2u, 0, &m), IBCC_OK);
    T_EQU(m.peer, d.ranks - 2u);
    T_EQ(ibcc_coll_send(&d, 0, 0, UINT32_MAX, &m), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_wait(&d, 0, UINT32_MAX, 0, &m), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_consumer(&d, 0, 1, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_totals(NULL, &a, &b, &x), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_count(&d, 0, 0, NULL, &x), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_wait(NULL, 0, 0, 0, &m), IBCC_ERR_NULL);
    d.kind = IBCC_COLL_HALO3D;                   /* 2^24 = 256^3 */
    T_EQ(ibcc_coll_defaults(&d), IBCC_OK);
    T_EQU(d.dims[0] * d.dims[1] * d.dims[2], UINT32_C(1) << 24);
    T_EQ(ibcc_place(hosts, 4, &ranks, 1, IBCC_PLACE_RANDOM, 1, NULL),
         IBCC_ERR_NULL);
    ranks = UINT32_MAX;
    T_EQ(ibcc_place(hosts, 4, &ranks, 1, IBCC_PLACE_INTERLEAVED, 1, out),
         IBCC_ERR_CAPACITY);
    /* jobs */
    memset(&j, 0xa5, sizeof j);                  /* garbage job */
    T_EQ(ibcc_jobs_flows(&j, 1, fl, 16, &x, &e), IBCC_ERR_RANGE);
    T_CHECK(e.reason[0] != 0);
    T_EQ(ibcc_jobs_flows(NULL, 1, fl, 16, &x, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_flows(&j, 1, fl, 16, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_sources(&j, 1, NULL, 0, &x, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_jobs_sources(NULL, 1, NULL, 0, &x, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_create_on_sources(NULL, NULL, &j, 1, 0, NULL),
         IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_on_source_message(NULL, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_create(NULL, NULL, &j, 1, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_create(&js, NULL, &j, 1, 0, &e), IBCC_ERR_NULL);
    T_CHECK(js == NULL);
    ibcc_jobs_destroy(NULL);
    T_EQ(ibcc_jobs_done(NULL), 0);
    T_EQ(ibcc_jobs_stats(NULL, 0, &st), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_msg_quantile(NULL, 0, 0.5, &q), IBCC_ERR_NULL);
    memset(&j, 0, sizeof j);
    j.coll.kind = IBCC_COLL_INCAST;
    j.coll.ranks = 4;
    j.coll.bytes = 1000;
    j.hosts = hosts;
    j.start = IBCC_FABRIC_MAX_TIME + 1u;
    T_EQ(ibcc_jobs_flows(&j, 1, fl, 16, &x, &e), IBCC_ERR_RANGE);
    j.start = 0;
    {   /* a fabric, a job attached, then misuse of the queries */
        ibcc_topo tp;
        ibcc_fabric_desc fd;
        ibcc_fabric *f = NULL;
        memset(&fd, 0, sizeof fd);
        T_EQ(ibcc_topo_fattree(&tp, 2, 2, NULL), IBCC_OK);
        T_EQ(ibcc_topo_apply(&tp, &fd), IBCC_OK);
        T_EQ(ibcc_jobs_flows(&j, 1, fl, 16, &x, &e), IBCC_OK);
        T_EQU(x, 3);
        fd.flows = fl;
        fd.flow_count = x;
        T_EQ(ibcc_fabric_create(&f, &fd), IBCC_OK);
        T_EQ(ibcc_jobs_sources(&j, 1, NULL, 0, &x, &e), IBCC_ERR_CAPACITY);
        T_EQU(x, 4);                /* one source per host of the job */
        T_EQ(ibcc_jobs_create_on_sources(&js, f, &j, 1, 0, &e),
             IBCC_ERR_MISMATCH);    /* the fabric has flows, no sources */
        T_CHECK(js == NULL);
        T_EQ(ibcc_jobs_create(&js, f, &j, 1, 1, &e), IBCC_ERR_MISMATCH);
        T_EQ(ibcc_jobs_create(&js, f, &j, 1, UINT32_MAX, &e),
             IBCC_ERR_MISMATCH);
        T_EQ(ibcc_jobs_create(&js, f, &j, 1, 0, &e), IBCC_OK);
        T_EQ(ibcc_jobs_stats(js, 1, &st), IBCC_ERR_RANGE);
        T_EQ(ibcc_jobs_stats(js, 0, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_jobs_msg_quantile(js, 0, 0.5, &q), IBCC_ERR_NOT_FOUND);
        T_EQ(ibcc_jobs_msg_quantile(js, 0, 0.0, &q), IBCC_ERR_RANGE);
        T_EQ(ibcc_jobs_msg_quantile(js, 0, 1.5, &q), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_push(f, 0, (UINT64_C(1) << 48) + 1u),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_push(f, UINT32_MAX, 1), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_on_message(NULL, NULL, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(1)), IBCC_OK);
        T_CHECK(ibcc_jobs_done(js));
        T_EQ(ibcc_jobs_msg_quantile(js, 0, 1.0, &q), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_jobs_destroy(js);
        T_EQ(ibcc_fabric_on_message(f, NULL, NULL), IBCC_OK);
        ibcc_fabric_destroy(f);
        ibcc_topo_free(&tp);
    }
    /* traces: NULLs, a 4 KiB line of commas, a huge id list */
    memset(&t, 0, sizeof t);
    t.msgs = tm;
    t.msg_cap = 2;
    T_EQ(ibcc_trace_parse(NULL, "", 0, "f", &e), IBCC_ERR_NULL);
    T_EQ(ibcc_trace_parse(&t, NULL, 5, "f", &e), IBCC_ERR_NULL);
    memset(line, ',', sizeof line - 1u);
    memcpy(line, "ibcc-trace 1\n1 0 1 5 after=", 27);
    T_EQ(ibcc_trace_parse(&t, line, strlen(line), NULL, &e), IBCC_ERR_PARSE);
    T_EQU(e.line, 2);
    T_EQ(ibcc_trace_parse(&t, "ibcc-trace 1\n99999999999999999999999 0 1 5",
                          40, "f", &e), IBCC_ERR_RANGE);
    memset(&t, 0xee, sizeof t);                  /* garbage trace struct */
    t.msgs = NULL;
    t.deps = NULL;
    T_EQ(ibcc_trace_parse(&t, "ibcc-trace 1\n1 0 1 5\n", 21, "f", NULL),
         IBCC_ERR_CAPACITY);
    T_EQU(t.count, 1);
}

static void qos_misuse(void)
{
    ibcc_qos_config c;
    ibcc_vlarb_desc d;
    uint8_t m[16];
    unsigned bad = 7;
    char big[4096];
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_qos_parse_opensm(NULL, "", &bad), IBCC_ERR_NULL);
    T_EQU(bad, 0);
    T_EQ(ibcc_qos_parse_opensm(&c, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_qos_parse_opensm(&c, "", NULL), IBCC_OK);
    T_EQ(ibcc_qos_parse_opensm(&c, "\n\n#\n\x01\n", &bad), IBCC_OK);
    T_EQU(c.other, 1);
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_max_vls 18446744073709551616", &bad),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_sl2vl 99999999999999999999999", &bad),
         IBCC_ERR_PARSE);                   /* one VL: too few */
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_vlarb_low 0:", &bad), IBCC_ERR_PARSE);
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_ca_", &bad), IBCC_OK);
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_", &bad), IBCC_OK);
    memset(big, ',', sizeof big - 1);       /* a long line of commas */
    memcpy(big, "qos_sl2vl ", 10);
    big[sizeof big - 1] = '\0';
    T_EQ(ibcc_qos_parse_opensm(&c, big, &bad), IBCC_ERR_PARSE);
    T_EQU(bad, 1);
    T_EQ(ibcc_qos_port_setting(NULL, IBCC_QOS_CA, &d, m), IBCC_ERR_NULL);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, NULL, m), IBCC_ERR_NULL);
    T_EQ(ibcc_qos_port_setting(&c, (ibcc_qos_port)7, &d, m), IBCC_ERR_RANGE);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_RTR, &d, NULL), IBCC_OK);
    memset(&c, 0xff, sizeof c);             /* garbage everywhere */
    T_CHECK(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m) != IBCC_OK);
}

/* ---- L1 swcc (read-only use) -------------------------------------------- */
static void swcc_misuse(void)
{
    ibcc_swcc s;
    ibcc_swport e;
    uint8_t buf[IBCC_SWCC_MAD_BYTES];
    char small[4], big[2048];
    unsigned port = 77, bad = 99;
    ibcc_marker_desc md;
    ibcc_marker m;
    memset(&s, 0, sizeof s);
    memset(&e, 0, sizeof e);
    T_EQ(ibcc_swcc_validate(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_validate(NULL), IBCC_ERR_NULL);
    s.control_map = 0x20u;
    T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s.control_map = 0; s.threshold = 16;
    T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s.threshold = 0; s.cs_return_delay_shift = 4;
    T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s.cs_return_delay_shift = 0; s.cs_return_delay_mult = 16384;
    T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s.cs_return_delay_mult = 0; s.marking_rate = 65536;
    T_EQ(ibcc_swcc_encode(&s, buf, IBCC_SWCC_MAD_BYTES), IBCC_ERR_RANGE);
    s.marking_rate = 0;
    e.valid = 2;
    T_EQ(ibcc_swport_validate(&e), IBCC_ERR_RANGE);
    e.valid = 1; e.threshold = UINT32_MAX;
    T_EQ(ibcc_swport_encode(&e, buf, IBCC_SWPORT_BYTES), IBCC_ERR_RANGE);
    e.threshold = 0;
    T_EQ(ibcc_swcc_encode(NULL, buf, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_encode(&s, NULL, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_decode(NULL, buf, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_decode(&s, NULL, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_encode(NULL, buf, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_encode(&e, NULL, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_decode(NULL, buf, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_decode(&e, NULL, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    memset(buf, 0xff, sizeof buf);
    T_EQ(ibcc_swcc_decode(&s, buf, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);    /* control_map kept */
    T_EQ(ibcc_swport_decode(&e, buf, IBCC_SWPORT_BYTES), IBCC_OK);
    T_EQ(ibcc_swport_validate(&e), IBCC_OK);
    /* text */
    T_EQ(ibcc_swcc_parse_args(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_args(&s, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_args(&s, ""), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "SwitchCongestionSetting 0 0 0 0 0 0 0:0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "SwitchCongestionSetting 0 0 0 0 0 0 0:0 0 0"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 0 0 0 0:0 0x"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 0 0 0 0:0 1k"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 16 0 0 0:0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s,
         "0 0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff "
         "0 0 0 0 0:0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s,
         "0 99999999999999999999999 0 0 0 0 0:0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 0 0 0 4:0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 0 0 0 0: 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swport_parse_args(NULL, &port, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_parse_args(&e, NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_parse_args(&e, &port, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_parse_args(&e, &port, ""), IBCC_ERR_PARSE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 0 0 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 2 0 0 0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "256 1 0 0 0 0"), IBCC_ERR_RANGE);
    T_EQU(port, 77);
    T_EQ(ibcc_swcc_print_args(NULL, big, sizeof big), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_print_args(&s, NULL, 8), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_print_args(&s, big, sizeof big), IBCC_ERR_RANGE);
    memset(&s, 0, sizeof s);
    T_EQ(ibcc_swcc_print_args(&s, small, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_swcc_print_args(&s, small, sizeof small), IBCC_ERR_NOMEM);
    T_CHECK(strlen(small) < sizeof small);
    T_EQ(ibcc_swport_print_args(NULL, 0, big, sizeof big), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_print_args(&e, 0, NULL, 8), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_print_args(&e, 256, big, sizeof big), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_print_args(&e, 0, small, sizeof small), IBCC_ERR_NOMEM);
    T_EQ(ibcc_swcc_parse_opensm_line(NULL, ""), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, ""), IBCC_OK);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "#"), IBCC_OK);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_foo 1"), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_threshold"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_threshold 0x10"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_threshold 1 2"),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_opensm(NULL, "", &bad), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm(&s, NULL, &bad), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm(&s, "x y\n\ncc_sw_cong_setting_marking_rate 65536",
                                &bad), IBCC_ERR_RANGE);
    T_EQU(bad, 3);
    T_EQ(ibcc_swcc_print_opensm(NULL, big, sizeof big), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_print_opensm(&s, NULL, 8), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_print_opensm(&s, small, sizeof small), IBCC_ERR_NOMEM);
    s.threshold = 99;
    T_EQ(ibcc_swcc_print_opensm(&s, big, sizeof big), IBCC_ERR_RANGE);
    s.threshold = 0;
    /* applying */
    memset(&md, 0, sizeof md);
    T_EQ(ibcc_marker_init(&m, &md, MEM, MEMLEN), IBCC_OK);   /* NONE */
    T_EQ(ibcc_marker_apply_swcc(NULL, &s), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_apply_swcc(&m, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_STATE);
    T_EQ(ibcc_marker_apply_swport(NULL, 0, &e), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_apply_swport(&m, 0, NULL), IBCC_ERR_NULL);
    md.engine = IBCC_MARKER_IBA; md.ports = 8;
    T_EQ(ibcc_marker_init(&m, &md, MEM, MEMLEN), IBCC_OK);
    s.control_map = IBCC_SWCC_CREDIT_MASK;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_UNSUPPORTED);
    s.control_map = IBCC_SWCC_VICTIM_MASK; s.victim_mask[7] = 0x80000000u;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_RANGE);
    e.valid = 1; e.control_type = 0;
    T_EQ(ibcc_marker_apply_swport(&m, 8, &e), IBCC_ERR_RANGE);
    e.control_type = 1;
    T_EQ(ibcc_marker_apply_swport(&m, 0, &e), IBCC_ERR_UNSUPPORTED);
}

/* ---- L3 fabric (read-only use) ------------------------------------------ */
static void *alloc_fail(void *u, size_t n) { (void)u; (void)n; return NULL; }
static void free_nop(void *u, void *p) { (void)u; (void)p; }

static void fabric_misuse(void)
{
    static ibcc_twoswitch ts;
    ibcc_fabric_desc d;
    ibcc_fabric *f = (ibcc_fabric *)MEM;     /* must be set to NULL on error */
    ibcc_fabric_counters fc;
    ibcc_fabric_flow_stats fs;
    uint32_t ch = 0;
    uint64_t bytes = 0;
    ibcc_time busy = 0;
    double rate = 0, x[3];
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_fabric_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_create(NULL, &d), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_create(&f, NULL), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.data_size = 65536;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_NULL);          /* no nodes */
    T_CHECK(f == NULL);
    ibcc_fabric_destroy(NULL);
    T_EQ(ibcc_fabric_run_until(NULL, 1), IBCC_ERR_NULL);
    T_EQU(ibcc_fabric_now(NULL), 0);
    T_CHECK(ibcc_fabric_last_error(NULL) == NULL);
    T_CHECK(ibcc_fabric_loop(NULL) == NULL);
    T_EQ(ibcc_fabric_check(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_counters_get(NULL, &fc), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_flow_stats_get(NULL, 0, &fs), IBCC_ERR_NULL);
    {
        ibcc_mvcm_stats ms;
        T_EQ(ibcc_fabric_mvcm_stats(NULL, &ms), IBCC_ERR_NULL);
    }
    {
        ibcc_marker_stats ks;
        T_EQ(ibcc_fabric_marker_stats(NULL, 0, &ks), IBCC_ERR_NULL);
    }
    {
        ibcc_fabric_pfc_stats ps;
        ibcc_fabric_pfc_totals pt;
        T_EQ(ibcc_fabric_pfc_stats_get(NULL, 0, 0, 0, &ps), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_pfc_totals_get(NULL, &pt), IBCC_ERR_NULL);
        /* PFC fields out of range, and garbage thresholds */
        memset(&d, 0, sizeof d);
        d.flow_control = (ibcc_flow_control)7;
        T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
        memset(&d, 0, sizeof d);
        d.flow_control = IBCC_FLOW_PFC;
        d.pfc.xoff = 0xffffffffu;
        T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
        memset(&d, 0, sizeof d);
        d.flow_control = IBCC_FLOW_PFC;
        d.pfc.size = 0xffffffffu;
        T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
        memset(&d, 0, sizeof d);
        d.flow_control = IBCC_FLOW_PFC;
        d.pfc.refresh = UINT64_MAX;
        T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
        {
            ibcc_fabric_link ln;
            memset(&ln, 0, sizeof ln);
            memset(&d, 0, sizeof d);
            d.flow_control = IBCC_FLOW_PFC;
            d.links = &ln;
            d.link_count = 1;
            ln.prop = IBCC_FABRIC_MAX_DELAY;     /* a headroom of petabytes */
            T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
            ln.prop = 0;
            ln.rate = UINT64_MAX;
            T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
        }
        memset(&d, 0, sizeof d);
        d.flow_control = IBCC_FLOW_PFC;
        d.buf_credits = 5;
        T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
        memset(&d, 0, sizeof d);
        d.flow_control = IBCC_FLOW_PFC;
        T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);
        T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);            /* idempotent */
    }
    T_EQ(ibcc_fabric_channel(NULL, 0, 0, &ch), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_flow_bytes(NULL, 0, 0, 1, &bytes), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_channel_bytes(NULL, 0, 0, 1, &bytes), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_channel_totals(NULL, 0, &bytes, &busy), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_rate(NULL, 0, 0, 0, 1, &rate), IBCC_ERR_NULL);
    T_CHECK(ibcc_jain(NULL, 0) == 1.0);
    x[0] = 0; x[1] = 0; x[2] = 0;
    T_CHECK(ibcc_jain(x, 3) == 1.0);
    x[0] = 1; x[1] = 0; x[2] = 0;
    T_NEAR(ibcc_jain(x, 3), 1.0 / 3.0, 1e-12);
    {
        uint32_t hs[2] = {0, 1}, n = 0;
        ibcc_fabric_flow fl[2];
        ibcc_fabric_class_stats cs;
        ibcc_time q = 0;
        T_EQ(ibcc_traffic_uniform(NULL, 2, 100, fl, 2, &n), IBCC_ERR_NULL);
        T_EQ(ibcc_traffic_uniform(hs, 2, 100, fl, 2, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_traffic_uniform(hs, 2, 100, NULL, 2, &n), IBCC_ERR_NULL);
        T_EQ(ibcc_traffic_uniform(hs, 0, 100, fl, 2, &n), IBCC_ERR_RANGE);
        T_EQ(ibcc_traffic_uniform(hs, UINT32_MAX, 100, fl, 2, &n),
             IBCC_ERR_RANGE);                     /* rate per pair 0 */
        T_EQ(ibcc_traffic_uniform(hs, 70000, UINT64_MAX, fl, 2, &n),
             IBCC_ERR_CAPACITY);
        T_EQ(ibcc_traffic_permutation(NULL, 2, 0, fl, 2, &n), IBCC_ERR_NULL);
        T_EQ(ibcc_traffic_permutation(hs, 1, 0, fl, 2, &n), IBCC_ERR_RANGE);
        T_EQ(ibcc_traffic_permutation(hs, 2, 0, fl, 1, &n), IBCC_ERR_CAPACITY);
        T_EQ(ibcc_traffic_incast(NULL, 1, 0, fl, 2, &n), IBCC_ERR_NULL);
        T_EQ(ibcc_traffic_incast(hs, 0, 5, fl, 2, &n), IBCC_ERR_RANGE);
        T_EQ(ibcc_traffic_hotspot(hs, 2, 5, 1, 0, 0, fl, 2, &n),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_traffic_hotspot(hs, 2, 5, 1, 1, 0, fl, 1, &n),
             IBCC_ERR_CAPACITY);
        {
            ibcc_fabric_source sr[2];
            ibcc_fabric_flow_stats ss;
            T_EQ(ibcc_traffic_uniform_sources(NULL, 2, 100, sr, 2, &n),
                 IBCC_ERR_NULL);
            T_EQ(ibcc_traffic_uniform_sources(hs, 2, 100, sr, 2, NULL),
                 IBCC_ERR_NULL);
            T_EQ(ibcc_traffic_uniform_sources(hs, 2, 100, NULL, 2, &n),
                 IBCC_ERR_NULL);
            T_EQ(ibcc_traffic_uniform_sources(hs, 1, 100, sr, 2, &n),
                 IBCC_ERR_RANGE);
            T_EQ(ibcc_traffic_uniform_sources(hs, 2, 0, sr, 2, &n),
                 IBCC_ERR_RANGE);
            T_EQ(ibcc_traffic_uniform_sources(hs, UINT32_MAX, 100, sr, 2, &n),
                 IBCC_ERR_CAPACITY);
            T_EQ(ibcc_fabric_source_stats_get(NULL, 0, &ss), IBCC_ERR_NULL);
            T_EQ(ibcc_fabric_source_kick(NULL, 0), IBCC_ERR_NULL);
        }
        T_EQ(ibcc_fabric_class_stats_get(NULL, 0, &cs), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_latency_quantile(NULL, 0, 0.5, &q), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_stats_reset(NULL), IBCC_ERR_NULL);
        T_CHECK(ibcc_fabric_flow_law(NULL, 0) == NULL);
    }
    {
        ibcc_topo tp;
        ibcc_fabric_allocator al;
        memset(&al, 0, sizeof al);
        al.alloc = alloc_fail;                     /* without free */
        T_EQ(ibcc_topo_fattree(&tp, 2, 2, &al), IBCC_ERR_NULL);
        al.free = free_nop;
        T_EQ(ibcc_topo_fattree(&tp, 2, 2, &al), IBCC_ERR_NOMEM);
        T_EQ(ibcc_topo_nfly(&tp, 2, 2, &al), IBCC_ERR_NOMEM);
        T_EQ(ibcc_topo_mesh(&tp, 2, 2, 1, 1, 0, &al), IBCC_ERR_NOMEM);
        T_EQ(ibcc_topo_nfly(NULL, 2, 2, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_topo_mesh(NULL, 2, 2, 1, 1, 0, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_topo_apply(NULL, NULL), IBCC_ERR_NULL);
        ibcc_topo_free(NULL);
    }
    T_EQ(ibcc_twoswitch_build(NULL, 1, 1, &d), IBCC_ERR_NULL);
    T_EQ(ibcc_twoswitch_build(&ts, 1, 1, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_twoswitch_build(&ts, 0, 1, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_twoswitch_build(&ts, 1, 65, &d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_twoswitch_build(&ts, 1, 1, &d), IBCC_OK);
    d.allocator.alloc = alloc_fail;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_NULL);  /* alloc without free */
    d.allocator.free = free_nop;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_NOMEM);
    T_CHECK(f == NULL);
    memset(&d.allocator, 0, sizeof d.allocator);
    ts.flows[0].src = 9999;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_twoswitch_build(&ts, 1, 1, &d), IBCC_OK);
    d.horizon = IBCC_US(10);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (f) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(2)), IBCC_OK);
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(1)), IBCC_ERR_PAST);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        T_EQ(ibcc_fabric_counters_get(f, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_flow_stats_get(f, 0, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_flow_stats_get(f, 3, &fs), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_flow_stats_get(f, UINT32_MAX, &fs), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_channel(f, 0, 0, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_channel(f, UINT32_MAX, 0, &ch), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_channel(f, 0, UINT32_MAX, &ch), IBCC_ERR_RANGE);
        {
            ibcc_marker_stats ks;
            T_EQ(ibcc_fabric_marker_stats(f, 0, NULL), IBCC_ERR_NULL);
            T_EQ(ibcc_fabric_marker_stats(f, UINT32_MAX, &ks), IBCC_ERR_RANGE);
        }
        T_EQ(ibcc_fabric_flow_bytes(f, 0, 0, 1, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_flow_bytes(f, 3, 0, 1, &bytes), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_flow_bytes(f, 0, 0, IBCC_TIME_MAX, &bytes), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_flow_bytes(f, 0, IBCC_TIME_MAX, 0, &bytes), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_channel_bytes(f, 0, 0, 1, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_channel_bytes(f, UINT32_MAX, 0, 1, &bytes), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_channel_totals(f, UINT32_MAX, &bytes, &busy), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_channel_totals(f, 0, NULL, NULL), IBCC_OK);
        T_EQ(ibcc_fabric_rate(f, 0, 0, 0, 1, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_rate(f, 2, 0, IBCC_US(5), IBCC_US(2), &rate), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 3, IBCC_US(5), IBCC_US(2), &rate),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_US(5), 0, &rate),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_TIME_MAX, IBCC_TIME_MAX,
                              &rate), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_CHANNEL, 0, 0, IBCC_TIME_MAX, &rate),
             IBCC_ERR_RANGE);
        T_CHECK(ibcc_fabric_loop(f) != NULL);
        T_EQU(ibcc_fabric_now(f), IBCC_US(2));
        T_EQ(ibcc_fabric_last_error(f)->code, IBCC_OK);   /* no stall */
        T_STREQ(ibcc_fabric_last_error(f)->reason, "");
        {
            ibcc_fabric_class_stats cs;
            ibcc_time q = 0;
            T_CHECK(ibcc_fabric_flow_law(f, 0) == NULL);      /* NONE */
            T_CHECK(ibcc_fabric_flow_law(f, UINT32_MAX) == NULL);
            T_CHECK(ibcc_fabric_flow_hpcc(f, 0) == NULL);     /* NONE */
            T_CHECK(ibcc_fabric_flow_hpcc(f, UINT32_MAX) == NULL);
            T_CHECK(ibcc_fabric_flow_hpcc(NULL, 0) == NULL);
            T_EQ(ibcc_fabric_class_stats_get(f, 0, NULL), IBCC_ERR_NULL);
            T_EQ(ibcc_fabric_class_stats_get(f, UINT32_MAX, &cs),
                 IBCC_ERR_RANGE);
            T_EQ(ibcc_fabric_latency_quantile(f, 0, 2.0, &q), IBCC_ERR_RANGE);
            T_EQ(ibcc_fabric_latency_quantile(f, 0, -1.0, &q), IBCC_ERR_RANGE);
            T_EQ(ibcc_fabric_stats_reset(f), IBCC_OK);
        }
        ibcc_fabric_destroy(f);
    }
}

/* Regression (fuzz_fabric): a link's propagation delay of 2^64 - 1 ps
   was accepted and made event times wrap (the packet "arrived" before it
   was sent; run_until then failed with PAST). Delays are bounded by
   IBCC_FABRIC_MAX_DELAY and the clock by IBCC_FABRIC_MAX_TIME, so that
   no event time wraps; at the limits a fabric runs and balances. */
static void fabric_time_limits(void)
{
    static ibcc_twoswitch ts;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters c;
    memset(&d, 0, sizeof d);
    d.prop_delay = IBCC_FABRIC_MAX_DELAY;
    d.fwd_delay = IBCC_FABRIC_MAX_DELAY;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);
    d.prop_delay = IBCC_FABRIC_MAX_DELAY + 1u;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    d.prop_delay = 0;
    d.fwd_delay = UINT64_MAX;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_twoswitch_build(&ts, 1, 1, &d), IBCC_OK);
    ts.links[1].prop = UINT64_MAX;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(f == NULL);
    ts.links[1].prop = IBCC_FABRIC_MAX_DELAY + 1u;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    /* at the limits: 1 B/s links (a packet takes 2068 s), every delay
       2^60 ps, run to 2^63 ps */
    ts.links[1].prop = IBCC_FABRIC_MAX_DELAY;
    d.prop_delay = IBCC_FABRIC_MAX_DELAY;
    d.fwd_delay = IBCC_FABRIC_MAX_DELAY;
    d.link_rate = 1;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_FABRIC_MAX_TIME / 2u), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_FABRIC_MAX_TIME + 1u), IBCC_ERR_RANGE);
    T_EQU(ibcc_fabric_now(f), IBCC_FABRIC_MAX_TIME / 2u);
    T_EQ(ibcc_fabric_run_until(f, IBCC_FABRIC_MAX_TIME), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_counters_get(f, &c), IBCC_OK);
    T_CHECK(c.data_delivered > 0);          /* credits return every 2^61 ps */
    T_EQU(c.bytes_in_network + c.bytes_delivered, c.bytes_sent);
    ibcc_fabric_destroy(f);
}

/* The InfiniBand fabric loader: NULL and out-of-order calls, a bad
   allocator, NUL bytes, non-terminated text, absurd numbers. */
static void ibfabric_misuse(void)
{
    static const char good[] =
        "Switch\t2 \"S-0000000000000010\" # \"sw\" base port 0 lid 1 lmc 0\n"
        "[1]\t\"H-0000000000000020\"[1](21) # \"a\" lid 2 4xQDR\n"
        "[2]\t\"H-0000000000000030\"[1](31) # \"b\" lid 3 4xQDR\n"
        "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
        "Ca\t1 \"H-0000000000000030\" # \"b\"\n";
    ibcc_ibfabric f, z;
    ibcc_ibfabric_error e;
    ibcc_fabric_allocator half;
    ibcc_fabric_desc d;
    uint64_t pairs = 7;
    uint32_t h = 0;
    char nul[] = "Switch\t2 \"S-10\"\0garbage\n";
    memset(&z, 0, sizeof z);
    memset(&half, 0, sizeof half);
    half.alloc = NULL;
    half.free = free_nop;
    T_EQ(ibcc_ibfabric_parse(NULL, good, sizeof good - 1u, "x", NULL, &e),
         IBCC_ERR_NULL);
    T_EQ(e.code, IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_parse(&f, NULL, 5, "x", NULL, &e), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_parse(&f, good, sizeof good - 1u, "x", &half, &e),
         IBCC_ERR_NULL);                      /* free without alloc */
    half.alloc = alloc_fail;                  /* every allocation fails */
    T_EQ(ibcc_ibfabric_parse(&f, good, sizeof good - 1u, "x", &half, &e),
         IBCC_ERR_NOMEM);
    T_EQ(ibcc_ibfabric_parse(&f, NULL, 0, NULL, NULL, NULL),
         IBCC_ERR_NOT_FOUND);                        /* empty: no host */
    T_EQ(ibcc_ibfabric_parse(&f, nul, sizeof nul - 1u, "x", NULL, &e),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_ibfabric_parse(&f, "Switch 99999999999999999999 \"S-1\"\n", 34,
                             "x", NULL, &e), IBCC_ERR_PARSE);
    T_EQ(ibcc_ibfabric_parse(&f, "[", 1, "x", NULL, &e), IBCC_ERR_PARSE);
    T_EQ(ibcc_ibfabric_parse(&f, good, 20, "x", NULL, &e), IBCC_ERR_PARSE);
    /* calls on an empty fabric */
    T_EQ(ibcc_ibfabric_lfts(NULL, "", 0, "l", &e), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_lfts(&z, "", 0, "l", &e), IBCC_ERR_STATE);
    T_EQ(ibcc_ibfabric_lfts(&z, NULL, 3, "l", &e), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_updown(NULL, &e), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_updown(&z, NULL), IBCC_ERR_STATE);
    T_EQ(ibcc_ibfabric_check(NULL, &pairs, &e), IBCC_ERR_NULL);
    T_EQU(pairs, 0);
    T_EQ(ibcc_ibfabric_check(&z, NULL, NULL), IBCC_ERR_STATE);
    T_EQ(ibcc_ibfabric_to_desc(NULL, &d), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_to_desc(&z, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_to_desc(&z, &d), IBCC_ERR_STATE);
    T_EQ(ibcc_ibfabric_find_host(NULL, "a", &h), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_find_host(&z, NULL, &h), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_find_host(&z, "a", NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_find_host(&z, "a", &h), IBCC_ERR_NOT_FOUND);
    ibcc_ibfabric_free(NULL);
    ibcc_ibfabric_free(&z);
    /* a loaded fabric: bad tables, then the calls work */
    T_EQ(ibcc_ibfabric_parse(&f, good, sizeof good - 1u, "x", NULL, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_ERR_NOT_FOUND); /* no routes */
    T_EQ(ibcc_ibfabric_lfts(&f, "0x", 2, "l", &e), IBCC_ERR_PARSE);
    T_EQ(ibcc_ibfabric_lfts(&f, "0xffffffffffffffffff 1", 22, "l", &e),
         IBCC_ERR_PARSE);
    T_EQ(ibcc_ibfabric_lfts(&f, "Unicast lids [", 14, "l", &e), IBCC_ERR_PARSE);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x", &h), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x21zz", &h), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x21", &h), IBCC_OK);
    T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_OK);
    T_EQU(pairs, 2);
    /* routes edited by the caller into nonsense are refused, not followed */
    f.routes[0].port = 1000;
    T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_ERR_RANGE);
    f.routes[0].sw = 1000;
    T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_ibfabric_to_desc(&f, &d), IBCC_OK);
    ibcc_ibfabric_free(&f);
    /* ibdiagnet's forms: NULLs, a bad allocator, NUL bytes, absurd
       numbers, tables on an empty fabric */
    {
        static const char lst[] =
            "{ SW Ports:02 SystemGUID:10 NodeGUID:10 PortGUID:10 VenID:0 DevID:0 Rev:0 {sw} LID:0001 PN:01 } "
            "{ CA Ports:01 SystemGUID:20 NodeGUID:20 PortGUID:21 VenID:0 DevID:0 Rev:0 {a} LID:0002 PN:01 } PHY=4x LOG=ACT SPD=10\n"
            "{ SW Ports:02 SystemGUID:10 NodeGUID:10 PortGUID:10 VenID:0 DevID:0 Rev:0 {sw} LID:0001 PN:02 } "
            "{ CA Ports:01 SystemGUID:30 NodeGUID:30 PortGUID:31 VenID:0 DevID:0 Rev:0 {b} LID:0003 PN:01 } PHY=4x LOG=ACT SPD=10\n";
        static const char csv[] =
            "START_NODES\nNodeDesc,NumPorts,NodeType,NodeGUID\n\"sw\",2,2,0x10\n"
            "\"a\",1,1,0x20\n\"b\",1,1,0x30\nEND_NODES\n"
            "START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0x10,1,0x20,1\n0x10,2,0x30,1\nEND_LINKS\n";
        char nul2[] = "START_NODES\0\n";
        T_EQ(ibcc_ibfabric_parse_lst(NULL, lst, sizeof lst - 1u, "x", NULL, &e), IBCC_ERR_NULL);
        T_EQ(ibcc_ibfabric_parse_lst(&f, NULL, 5, "x", NULL, &e), IBCC_ERR_NULL);
        T_EQ(ibcc_ibfabric_parse_lst(&f, lst, sizeof lst - 1u, "x", &half, &e), IBCC_ERR_NOMEM);
        T_EQ(ibcc_ibfabric_parse_lst(&f, NULL, 0, NULL, NULL, NULL), IBCC_ERR_NOT_FOUND);
        T_EQ(ibcc_ibfabric_parse_lst(&f, "{ SW Ports:999999999999999999999", 32, "x", NULL, &e),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_ibfabric_parse_lst(&f, "{", 1, "x", NULL, &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_parse_lst(&f, lst, 40, "x", NULL, &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_parse_dbcsv(NULL, csv, sizeof csv - 1u, "x", NULL, &e), IBCC_ERR_NULL);
        T_EQ(ibcc_ibfabric_parse_dbcsv(&f, NULL, 5, "x", NULL, &e), IBCC_ERR_NULL);
        T_EQ(ibcc_ibfabric_parse_dbcsv(&f, csv, sizeof csv - 1u, "x", &half, &e), IBCC_ERR_NOMEM);
        T_EQ(ibcc_ibfabric_parse_dbcsv(&f, NULL, 0, NULL, NULL, NULL), IBCC_ERR_NOT_FOUND);
        T_EQ(ibcc_ibfabric_parse_dbcsv(&f, nul2, sizeof nul2 - 1u, "x", NULL, &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_parse_dbcsv(&f, csv, 60, "x", NULL, &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_fdbs(NULL, "", 0, "l", &e), IBCC_ERR_NULL);
        T_EQ(ibcc_ibfabric_fdbs(&z, "", 0, "l", &e), IBCC_ERR_STATE);
        T_EQ(ibcc_ibfabric_fdbs(&z, NULL, 3, "l", &e), IBCC_ERR_NULL);
        T_EQ(ibcc_ibfabric_parse_dbcsv(&f, csv, sizeof csv - 1u, "x", NULL, &e), IBCC_OK);
        T_EQ(ibcc_ibfabric_fdbs(&f, "0x", 2, "l", &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_fdbs(&f, "0x0001 : 001", 12, "l", &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_fdbs(&f, "dump_ucast_routes: Switch 0x", 28, "l", &e), IBCC_ERR_PARSE);
        T_EQ(ibcc_ibfabric_fdbs(&f, "PLFT_NUM: 99999999999", 21, "l", &e), IBCC_ERR_PARSE);
        ibcc_ibfabric_free(&f);
        T_EQ(ibcc_ibfabric_parse_lst(&f, lst, sizeof lst - 1u, "x", NULL, &e), IBCC_OK);
        ibcc_ibfabric_free(&f);
    }
}

/* The sizing idiom: NULL desc or NULL bytes is IBCC_ERR_NULL, and bytes
   are 0 after any error. */
static void size_misuse(void)
{
    ibcc_marker_desc md;
    ibcc_arbiter_desc ad;
    ibcc_law_desc ld;
    ibcc_pairstate_desc pd;
    ibcc_cct_desc cd;
    ibcc_mvcm_desc vd;
    ibcc_loop_desc od;
    size_t n;
    memset(&md, 0, sizeof md); md.ports = 2;
    memset(&ad, 0, sizeof ad); ad.ports = 2;
    memset(&ld, 0, sizeof ld);
    memset(&pd, 0, sizeof pd);
    memset(&cd, 0, sizeof cd);
    memset(&vd, 0, sizeof vd);
    memset(&od, 0, sizeof od);
    vd.ws = 1000;
    n = 7;
    T_EQ(ibcc_marker_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_marker_size(&md, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_size(&md, &n), IBCC_OK);
    T_CHECK(n > 0);
    n = 7;
    T_EQ(ibcc_arbiter_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_arbiter_size(&ad, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_size(&ad, &n), IBCC_OK);
    T_CHECK(n > 0);
    n = 7;
    T_EQ(ibcc_law_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_law_size(&ld, NULL), IBCC_ERR_NULL);
    n = 7;
    T_EQ(ibcc_law_size(&ld, &n), IBCC_OK);
    T_EQU(n, 0);                              /* continuous: no memory */
    n = 7;
    T_EQ(ibcc_pairstate_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_pairstate_size(&pd, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_size(&pd, &n), IBCC_OK);
    T_CHECK(n > 0);
    n = 7;
    T_EQ(ibcc_cct_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_cct_size(&cd, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_size(&cd, &n), IBCC_OK);
    T_CHECK(n > 0);
    n = 7;
    T_EQ(ibcc_mvcm_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_mvcm_size(&vd, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_size(&vd, &n), IBCC_OK);
    T_CHECK(n > 0);
    n = 7;
    T_EQ(ibcc_loop_size(NULL, &n), IBCC_ERR_NULL);
    T_EQU(n, 0);
    T_EQ(ibcc_loop_size(&od, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_size(&od, &n), IBCC_OK);
    T_CHECK(n > 0);
}

/* One validation idiom: a defaults call that fails leaves the caller's
   desc exactly as given, even when earlier fields were zero (to be
   defaulted) and the bad field comes after them; the size query fails
   with the same code and 0 bytes. */
static void defaults_atomic(void)
{
    ibcc_law_desc ld, ld0;
    ibcc_cct_desc cd, cd0;
    ibcc_mvcm_desc vd, vd0;
    ibcc_loop_desc od, od0;
    ibcc_pacer_desc pd, pd0;
    ibcc_dest_desc dd, dd0;
    ibcc_segment_desc sd, sd0;
    ibcc_fabric_desc fd, fd0;
    memset(&ld, 0, sizeof ld); ld.m = 0.5;              /* rmin 0 stays 0 */
    ld0 = ld;
    T_EQ(ibcc_law_defaults(&ld), IBCC_ERR_RANGE);
    T_CHECK(memcmp(&ld, &ld0, sizeof ld) == 0);
    T_SIZE_ERR(ibcc_law_size, &ld, IBCC_ERR_RANGE);
    memset(&cd, 0, sizeof cd); cd.log_capacity = 65536; /* entries 0 stays 0 */
    cd0 = cd;
    T_EQ(ibcc_cct_defaults(&cd), IBCC_ERR_CAPACITY);
    T_CHECK(memcmp(&cd, &cd0, sizeof cd) == 0);
    T_SIZE_ERR(ibcc_cct_size, &cd, IBCC_ERR_CAPACITY);
    memset(&vd, 0, sizeof vd); vd.flows = 0x80000000u;
    vd0 = vd;
    T_EQ(ibcc_mvcm_defaults(&vd), IBCC_ERR_CAPACITY);
    T_CHECK(memcmp(&vd, &vd0, sizeof vd) == 0);
    memset(&od, 0, sizeof od); od.capacity = UINT32_MAX;
    od0 = od;
    T_EQ(ibcc_loop_defaults(&od), IBCC_ERR_CAPACITY);
    T_CHECK(memcmp(&od, &od0, sizeof od) == 0);
    memset(&pd, 0, sizeof pd); pd.rmax = 1; pd.rate = 2;  /* rate above rmax */
    pd0 = pd;
    T_CHECK(ibcc_pacer_defaults(&pd) != IBCC_OK);
    T_CHECK(memcmp(&pd, &pd0, sizeof pd) == 0);
    memset(&dd, 0, sizeof dd); dd.ack_bytes = 0; dd.scheme = 99;
    dd0 = dd;
    T_EQ(ibcc_dest_defaults(&dd), IBCC_ERR_RANGE);
    T_CHECK(memcmp(&dd, &dd0, sizeof dd) == 0);
    memset(&sd, 0, sizeof sd); sd.adaptive = 2;
    sd0 = sd;
    T_EQ(ibcc_segment_defaults(&sd), IBCC_ERR_RANGE);
    T_CHECK(memcmp(&sd, &sd0, sizeof sd) == 0);
    memset(&fd, 0, sizeof fd); fd.worm_priority = 2;    /* data_size 0 stays 0 */
    fd0 = fd;
    T_CHECK(ibcc_fabric_defaults(&fd) != IBCC_OK);
    T_CHECK(memcmp(&fd, &fd0, sizeof fd) == 0);
}

/* Every refusal of a fabric, topology or two-switch configuration names
   the field and the rule in the error record (ibcc_fabric_error); a
   success clears it. */
static int has_(const char *s, const char *part)
{
    return strstr(s, part) != NULL;
}
static void fabric_reasons(void)
{
    static ibcc_twoswitch ts;
    ibcc_fabric_desc d;
    ibcc_fabric_error e;
    ibcc_fabric *f = NULL;
    ibcc_topo t;
    /* desc ranges */
    memset(&d, 0, sizeof d); d.error = &e;
    d.buf_packets = 70000;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    T_EQ(e.code, IBCC_ERR_RANGE);
    T_STREQ(e.reason, "buf_packets 70000: at most 65535");
    T_STREQ(e.file, "");
    T_EQU(e.line, 0);
    T_EQU(d.buf_packets, 70000);                  /* desc untouched */
    d.buf_packets = 0; d.switch_kind = (ibcc_switch_kind)7;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "switch_kind 7: at most 3");
    d.switch_kind = (ibcc_switch_kind)0; d.buf_credits = 10; /* < 33 */
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "buf_credits 10: a data packet of 2068 bytes needs "
                      "33 64-byte credits");
    d.buf_credits = 0; d.out_buf_credits = 40;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    T_CHECK(has_(e.reason, "out_buf_credits 40: needs buf_credits"));
    d.out_buf_credits = 0; d.slack_bytes = 80; d.stop_mark = 90;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "stop_mark 90: above slack_bytes 80");
    d.stop_mark = 0; d.slack_bytes = 0;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);      /* success clears */
    T_EQ(e.code, IBCC_OK);
    T_STREQ(e.reason, "");
    /* topology, routes, flows: the two-switch network */
    memset(&d, 0, sizeof d); d.error = &e;
    T_EQ(ibcc_twoswitch_build(&ts, 0, 2, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "L (local) 0: 1..64 sources");
    T_EQ(ibcc_twoswitch_build(&ts, 2, 65, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "R (remote) 65: 1..64 sources");
    T_EQ(ibcc_twoswitch_build(&ts, 2, 2, &d), IBCC_OK);
    T_EQ(e.code, IBCC_OK);                         /* cleared */
    T_STREQ(e.reason, "");
    T_EQ(ibcc_fabric_create(NULL, &d), IBCC_ERR_NULL);
    T_STREQ(e.reason, "out: NULL");
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    T_EQ(e.code, IBCC_OK);
    ibcc_fabric_destroy(f); f = NULL;
    ts.links[1].b_port = 9;                        /* A has 2 + 2 ports */
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(f == NULL);
    T_STREQ(e.reason, "links[1]: b_port 9: node 0 has 4 ports");
    ts.links[1].b_port = ts.links[0].b_port;      /* that port again */
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "links[1]: node 0 port 0 is linked twice (also "
                      "links[0])");
    T_EQ(ibcc_twoswitch_build(&ts, 2, 2, &d), IBCC_OK);
    ts.nodes[1].switch_kind = (ibcc_switch_kind)9;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "nodes[1]: switch_kind 9: 0 (the desc's), or a kind "
                      "1..3");
    ts.nodes[1].switch_kind = (ibcc_switch_kind)0;
    ts.flows[0].dst = ts.sw_a;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "flows[0]: dst 0: not a host node");
    ts.flows[0].dst = ts.bc; ts.flows[0].cls = 16;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "flows[0]: cls 16: at most 15");
    ts.flows[0].cls = 0; ts.flows[0].traffic = IBCC_TRAFFIC_POISSON;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_STREQ(e.reason, "flows[0]: POISSON traffic needs offered above 0");
    ts.flows[0].traffic = IBCC_TRAFFIC_GREEDY;
    ts.routes[0].port = ts.routes[0].port == 0 ? 1 : 0; /* a loop or a
                                                         wrong host */
    T_CHECK(ibcc_fabric_create(&f, &d) == IBCC_ERR_RANGE);
    T_CHECK(has_(e.reason, "routes: "));
    T_EQ(ibcc_twoswitch_build(&ts, 2, 2, &d), IBCC_OK);
    d.marker.engine = (ibcc_marker_engine)99;      /* an engine's desc */
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(has_(e.reason, "marker (ibcc_marker_desc) at switch node 0"));
    d.marker.engine = IBCC_MARKER_NONE;
    ts.flows[0].agent = IBCC_AGENT_MVCM;           /* MVCM without ws */
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(has_(e.reason, "flows[0]: the MVCM agent's engine at host node"));
    ts.flows[0].agent = IBCC_AGENT_NONE;
    d.switch_kind = IBCC_SWITCH_WORMHOLE; d.host_cap = IBCC_GBITS(10);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_UNSUPPORTED);
    T_STREQ(e.reason, "host_cap: not with WORMHOLE switches");
    /* topology builders */
    memset(&t, 0xab, sizeof t);                   /* a refusal zeroes it */
    T_EQ(ibcc_topo_fattree(&t, 1, 2, NULL), IBCC_ERR_RANGE);
    T_STREQ(t.error.reason, "k 1: at least 2");
    T_CHECK(t.nodes == NULL && t.links == NULL && t.node_count == 0);
    ibcc_topo_free(&t);
    T_EQ(ibcc_topo_nfly(&t, 2, 0, NULL), IBCC_ERR_RANGE);
    T_STREQ(t.error.reason, "n 0: at least 1");
    T_EQ(ibcc_topo_fattree(&t, 200, 2, NULL), IBCC_ERR_CAPACITY);
    T_STREQ(t.error.reason, "k 200: switches of 2k ports, at most 256");
    T_EQ(ibcc_topo_mesh(&t, 4, 4, 1, 1, 16, NULL), IBCC_ERR_RANGE);
    T_STREQ(t.error.reason, "root 16: a switch 0..15");
    T_EQ(ibcc_topo_mesh(&t, 0, 4, 1, 0, 0, NULL), IBCC_ERR_RANGE);
    T_STREQ(t.error.reason, "x 0: at least 1");
    T_EQ(ibcc_topo_mesh(&t, 4, 4, 1, 0, 0, NULL), IBCC_OK);
    T_EQ(t.error.code, IBCC_OK);
    /* credit loops: NULLs, half an allocator, links and routes naming
       nodes and ports that do not exist, a port taken twice, 2^32 ports */
    {
        ibcc_fabric_desc cd;
        ibcc_credit_loops o;
        ibcc_fabric_allocator half = {NULL, NULL, NULL};
        ibcc_fabric_link bad_link;
        ibcc_fabric_route bad_route;
        ibcc_fabric_node big[3];
        const ibcc_fabric_link *keep_links = NULL;
        memset(&cd, 0, sizeof cd);
        ibcc_topo_apply(&t, &cd);
        cd.error = &e;
        T_EQ(ibcc_fabric_credit_loops(NULL, &o, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_credit_loops(&cd, NULL, NULL), IBCC_ERR_NULL);
        half.alloc = t_alloc;
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, &half), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_OK);
        T_EQU(o.loops, 0);
        keep_links = cd.links;
        bad_link = t.links[0];
        bad_link.b = 1000;
        cd.links = &bad_link; cd.link_count = 1;
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_ERR_RANGE);
        T_CHECK(strstr(e.reason, "link 0") != NULL);
        bad_link = t.links[0];
        bad_link.a_port = 77;
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_ERR_RANGE);
        cd.links = keep_links; cd.link_count = t.link_count;
        {   /* the same port twice */
            ibcc_fabric_link two[2];
            two[0] = t.links[0]; two[1] = t.links[0];
            cd.links = two; cd.link_count = 2;
            T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_ERR_RANGE);
            T_CHECK(strstr(e.reason, "taken") != NULL);
            cd.links = keep_links; cd.link_count = t.link_count;
        }
        bad_route = t.routes[0];
        bad_route.sw = 0;                   /* a host, not a switch */
        cd.routes = &bad_route; cd.route_count = 1;
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_ERR_RANGE);
        T_CHECK(strstr(e.reason, "route 0") != NULL);
        cd.route_count = 0;                 /* no routes: all unrouted */
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_OK);
        T_EQU(o.unrouted, 16u * 15u);   /* every other host's switch */
        memset(big, 0, sizeof big);
        big[0].kind = big[1].kind = big[2].kind = IBCC_FABRIC_SWITCH;
        big[0].ports = big[1].ports = big[2].ports = 0x7FFFFFFFu;
        cd.nodes = big; cd.node_count = 3;
        cd.link_count = 0; cd.route_count = 0;
        T_EQ(ibcc_fabric_credit_loops(&cd, &o, NULL), IBCC_ERR_RANGE);
        T_CHECK(strstr(e.reason, "2^32") != NULL);
        /* the SL form: NULLs, a mask beyond SL 15 */
        {
            ibcc_credit_loops_sls sls;
            memset(&sls, 0, sizeof sls);
            memset(&cd, 0, sizeof cd);
            ibcc_topo_apply(&t, &cd);
            cd.error = &e;
            T_EQ(ibcc_fabric_credit_loops_sl(NULL, &sls, &o, NULL), IBCC_ERR_NULL);
            T_EQ(ibcc_fabric_credit_loops_sl(&cd, &sls, NULL, NULL), IBCC_ERR_NULL);
            T_EQ(ibcc_fabric_credit_loops_sl(&cd, NULL, &o, &half), IBCC_ERR_NULL);
            sls.mask = 0x10000u;
            T_EQ(ibcc_fabric_credit_loops_sl(&cd, &sls, &o, NULL), IBCC_ERR_RANGE);
            T_CHECK(strstr(e.reason, "SL mask") != NULL);
            sls.mask = 1;
            T_EQ(ibcc_fabric_credit_loops_sl(&cd, &sls, &o, NULL), IBCC_OK);
        }
    }
    ibcc_topo_free(&t);
    /* routing with VLs: NULLs, arguments out of range, each with its reason */
    T_EQ(ibcc_topo_mesh_dor(NULL, 4, 4, 1, 1, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_topo_mesh_dor(&t, 4, 4, 0, 1, NULL), IBCC_ERR_RANGE);
    T_STREQ(t.error.reason, "hps 0: at least 1");
    T_EQ(ibcc_topo_dragonfly(NULL, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_ERR_NULL);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 0, 2, 9, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_ERR_RANGE);
    T_STREQ(t.error.reason, "p 0: at least 1");
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 1, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, 7, 2, NULL), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.error.reason, "routing 7") != NULL);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_DOR, 2, NULL),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 15, NULL),
         IBCC_ERR_RANGE);
    T_CHECK(strstr(t.error.reason, "vls 15") != NULL);
    {
        ibcc_fabric_allocator half2 = {NULL, NULL, NULL};
        half2.alloc = t_alloc;
        T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, &half2),
             IBCC_ERR_NULL);
    }
    /* Valiant needs 3 VLs and LIDs (LMC 1..7) */
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 2, NULL),
         IBCC_ERR_RANGE);
    T_CHECK(strstr(t.error.reason, "vls 2") != NULL);
    T_CHECK(t.nodes == NULL);
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 4, 0,
                                 NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 4, 8,
                                 NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly_lmc(NULL, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 4, 1,
                                 NULL), IBCC_ERR_NULL);
    T_EQU(ibcc_topo_path_sl(NULL, 0, 1, 0), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sls(NULL, 0, 1), 0);
    T_EQU(ibcc_topo_path_sl_lid(NULL, 0, 1, 0, 0), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sls_lid(NULL, 0, 1, 0), 0);
    T_EQU(ibcc_topo_valiant_group(NULL, 0, 1), IBCC_FABRIC_NONE);
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 4, 1,
                                 NULL), IBCC_OK);
    T_EQU(ibcc_topo_path_sl_lid(&t, 0, 1, 2, 0), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sl_lid(&t, 0, 1, 0, 4), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sls_lid(&t, 0, 72, 0), 0);
    T_EQU(ibcc_topo_valiant_group(&t, 72, 1), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_valiant_group(&t, 0, 2), IBCC_FABRIC_NONE);
    ibcc_topo_free(&t);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_OK);
    T_EQU(ibcc_topo_path_sl(&t, 0, 1, 16), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sl(&t, 0, 1, 15), 15);
    ibcc_topo_free(&t);
}

int main(void)
{
    T_RUN(basics_misuse);
    T_RUN(loop_misuse);
    T_RUN(law_misuse);
    T_RUN(pacer_misuse);
    T_RUN(cct_misuse);
    T_RUN(cacc_misuse);
    T_RUN(mvcm_misuse);
    T_RUN(dest_misuse);
    T_RUN(segment_misuse);
    T_RUN(marker_misuse);
    T_RUN(arbiter_misuse);
    T_RUN(vlarb_misuse);
    T_RUN(qos_misuse);
    T_RUN(ethernet_misuse);
    T_RUN(jobs_misuse);
    T_RUN(swcc_misuse);
    T_RUN(fabric_misuse);
    T_RUN(fabric_reasons);
    T_RUN(fabric_time_limits);
    T_RUN(ibfabric_misuse);
    T_RUN(defaults_atomic);
    T_RUN(size_misuse);
    return t_summary();
}
