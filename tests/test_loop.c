/* Unit tests for L2 loop: ordering, same-time FIFO, cancel, every error
   path, callbacks that schedule and cancel, run_until semantics, and a
   randomised comparison with a naive reference scheduler. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

/* ---- helpers ------------------------------------------------------------ */

/* Storage for a loop; uint64_t array so it is aligned. */
#define MEM_WORDS 8192
static uint64_t mem_a[MEM_WORDS], mem_b[MEM_WORDS];

static ibcc_result make_loop(ibcc_loop *l, uint32_t cap, uint64_t *mem)
{
    ibcc_loop_desc d;
    size_t need;
    d.capacity = cap;
    need = t_size_loop(&d);
    if (need == 0 || need > sizeof mem_a) return IBCC_ERR_NOMEM;
    return ibcc_loop_init(l, &d, mem, need);
}

/* Execution log written by the callbacks. */
typedef struct rec { ibcc_time t; uint64_t arg; } rec;
typedef struct logbuf { rec r[4096]; int n; } logbuf;

static void cb_log(ibcc_loop *l, void *ctx, uint64_t arg)
{
    logbuf *g = (logbuf *)ctx;
    if (g->n < 4096) {
        g->r[g->n].t = ibcc_loop_now(l);
        g->r[g->n].arg = arg;
        g->n++;
    }
}

static void cb_nop(ibcc_loop *l, void *ctx, uint64_t arg)
{
    (void)l; (void)ctx; (void)arg;
}

/* ---- init, size, defaults ---------------------------------------------- */

static void test_defaults_and_size(void)
{
    ibcc_loop_desc d;
    size_t s1, s2, s1024;
    T_EQ(ibcc_loop_defaults(NULL), IBCC_ERR_NULL);
    d.capacity = 0;
    T_EQ(ibcc_loop_defaults(&d), IBCC_OK);
    T_EQU(d.capacity, 1024);                 /* zero means default */
    d.capacity = 7;
    T_EQ(ibcc_loop_defaults(&d), IBCC_OK);
    T_EQU(d.capacity, 7);
    d.capacity = UINT32_C(0x7fffffff);
    T_EQ(ibcc_loop_defaults(&d), IBCC_OK);
    d.capacity = UINT32_C(0x80000000);
    T_EQ(ibcc_loop_defaults(&d), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_loop_size, &d, IBCC_ERR_CAPACITY);
    d.capacity = UINT32_MAX;
    T_SIZE_ERR(ibcc_loop_size, &d, IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_loop_size, NULL, IBCC_ERR_NULL);
    d.capacity = 1;
    s1 = t_size_loop(&d);
    d.capacity = 2;
    s2 = t_size_loop(&d);
    d.capacity = 1024;
    s1024 = t_size_loop(&d);
    T_CHECK(s1 > 0 && s2 > s1);
    /* a 64-byte line of alignment pad, then linear in the capacity */
    T_EQU(s1024 - 64u, 1024 * (s1 - 64u));
    T_EQU(s1 - 64u, sizeof(ibcc_hent_) + sizeof(ibcc_event_));
    d.capacity = 0;
    T_SIZE_EQ(ibcc_loop_size, &d, s1024);        /* default capacity */
}

static void test_init_errors(void)
{
    ibcc_loop l;
    ibcc_loop_desc d;
    size_t need;
    int i;
    d.capacity = 16;
    need = t_size_loop(&d);
    T_EQ(ibcc_loop_init(NULL, &d, mem_a, need), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_init(&l, NULL, mem_a, need), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_init(&l, &d, NULL, need), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_init(&l, &d, mem_a, need - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_loop_init(&l, &d, mem_a, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_loop_init(&l, &d, (unsigned char *)mem_a + 4, need), IBCC_ERR_ALIGN);
    T_EQ(ibcc_loop_init(&l, &d, (unsigned char *)mem_a + 1, need), IBCC_ERR_ALIGN);
    d.capacity = UINT32_C(0x80000000);
    T_EQ(ibcc_loop_init(&l, &d, mem_a, sizeof mem_a), IBCC_ERR_CAPACITY);
    d.capacity = 16;
    T_EQ(ibcc_loop_init(&l, &d, mem_a, need), IBCC_OK);
    T_EQU(ibcc_loop_now(&l), 0);
    T_EQU(ibcc_loop_pending(&l), 0);
    /* more memory than needed is fine */
    T_EQ(ibcc_loop_init(&l, &d, mem_a, sizeof mem_a), IBCC_OK);
    /* zero capacity means the default 1024 */
    d.capacity = 0;
    T_EQ(ibcc_loop_init(&l, &d, mem_a, t_size_loop(&d) - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_loop_init(&l, &d, mem_a, t_size_loop(&d)), IBCC_OK);
    for (i = 0; i < 1024; i++)
        T_EQ(ibcc_loop_at(&l, (ibcc_time)i, cb_nop, NULL, 0, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 0, cb_nop, NULL, 0, NULL), IBCC_ERR_FULL);
    T_EQU(ibcc_loop_run(&l), 1024);
}

/* ---- ordering ----------------------------------------------------------- */

static void test_time_order(void)
{
    static const ibcc_time when[8] = { 50, 10, 40, 20, 70, 30, 60, 0 };
    ibcc_loop l;
    logbuf g;
    int i;
    g.n = 0;
    T_EQ(make_loop(&l, 8, mem_a), IBCC_OK);
    for (i = 0; i < 8; i++)
        T_EQ(ibcc_loop_at(&l, when[i], cb_log, &g, (uint64_t)i, NULL), IBCC_OK);
    T_EQU(ibcc_loop_pending(&l), 8);
    T_EQU(ibcc_loop_run(&l), 8);
    T_EQ(g.n, 8);
    for (i = 0; i < 8; i++) T_EQU(g.r[i].t, (ibcc_time)(10 * i));
    T_EQU(g.r[0].arg, 7);
    T_EQU(g.r[1].arg, 1);
    T_EQU(g.r[7].arg, 4);
    T_EQU(ibcc_loop_now(&l), 70);
    T_EQU(ibcc_loop_pending(&l), 0);
}

static void test_same_time_fifo(void)
{
    ibcc_loop l;
    logbuf g;
    int i;
    g.n = 0;
    T_EQ(make_loop(&l, 64, mem_a), IBCC_OK);
    /* interleave two times; each time's events must keep scheduling order */
    for (i = 0; i < 60; i++)
        T_EQ(ibcc_loop_at(&l, (i % 2) ? 200 : 100, cb_log, &g, (uint64_t)i, NULL),
             IBCC_OK);
    T_EQU(ibcc_loop_run(&l), 60);
    for (i = 0; i < 30; i++) {
        T_EQU(g.r[i].t, 100);
        T_EQU(g.r[i].arg, (uint64_t)(2 * i));
        T_EQU(g.r[30 + i].t, 200);
        T_EQU(g.r[30 + i].arg, (uint64_t)(2 * i + 1));
    }
}

/* FIFO must survive cancellations that reshuffle the heap. */
static void test_fifo_after_cancel(void)
{
    ibcc_loop l;
    logbuf g;
    ibcc_event_id id[40];
    int i, k = 0;
    g.n = 0;
    T_EQ(make_loop(&l, 64, mem_a), IBCC_OK);
    for (i = 0; i < 40; i++)
        T_EQ(ibcc_loop_at(&l, 5, cb_log, &g, (uint64_t)i, &id[i]), IBCC_OK);
    for (i = 0; i < 40; i += 3) T_EQ(ibcc_loop_cancel(&l, id[i]), IBCC_OK);
    ibcc_loop_run(&l);
    for (i = 0; i < 40; i++) {
        if (i % 3 == 0) continue;
        T_EQU(g.r[k].arg, (uint64_t)i);
        k++;
    }
    T_EQ(g.n, k);
}

/* ---- cancel ------------------------------------------------------------- */

static void test_cancel(void)
{
    ibcc_loop l, other;
    logbuf g;
    ibcc_event_id a, b, c, again, again2;
    g.n = 0;
    T_EQ(make_loop(&l, 4, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 10, cb_log, &g, 1, &a), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 20, cb_log, &g, 2, &b), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 30, cb_log, &g, 3, &c), IBCC_OK);
    T_CHECK(a != 0 && b != 0 && c != 0 && a != b && b != c && a != c);
    /* pending: removed, does not run */
    T_EQ(ibcc_loop_cancel(&l, b), IBCC_OK);
    T_EQU(ibcc_loop_pending(&l), 2);
    /* already cancelled */
    T_EQ(ibcc_loop_cancel(&l, b), IBCC_ERR_NOT_FOUND);
    /* already run */
    T_EQ(ibcc_loop_step(&l), 1);
    T_EQ(ibcc_loop_cancel(&l, a), IBCC_ERR_NOT_FOUND);
    /* unknown handles: 0, slot beyond capacity, generation never issued */
    T_EQ(ibcc_loop_cancel(&l, 0), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, (UINT64_C(1) << 32) | 4u), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, UINT64_MAX), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, c + (UINT64_C(7) << 32)), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, 3), IBCC_ERR_NOT_FOUND); /* generation 0 */
    /* a's slot is free now and its generation was bumped once: a forged
       handle with that generation must not match a free slot */
    T_EQ(ibcc_loop_cancel(&l, a + (UINT64_C(1) << 32)), IBCC_ERR_NOT_FOUND);
    /* stale handle after its slot was reused by a new event */
    T_EQ(ibcc_loop_at(&l, 40, cb_log, &g, 4, &again), IBCC_OK);
    T_CHECK(again != a && again != b);
    T_EQ(ibcc_loop_cancel(&l, a), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, b), IBCC_ERR_NOT_FOUND);
    T_EQU(ibcc_loop_pending(&l), 2);
    /* handles of another loop: slot index out of its range, and the same
       slot index in a loop of the same capacity with a pending event there */
    T_EQ(make_loop(&other, 1, mem_b), IBCC_OK);
    T_EQ(ibcc_loop_cancel(&other, c), IBCC_ERR_NOT_FOUND);
    T_EQ(make_loop(&other, 4, mem_b), IBCC_OK);
    {   /* fill `other` until one of its events has again's slot index */
        unsigned k, n = 0;
        do {
            T_EQ(ibcc_loop_at(&other, 1, cb_nop, NULL, 0, &again2), IBCC_OK);
            n++;
        } while ((again2 & 0xffffffffu) != (again & 0xffffffffu) && n < 4);
        T_CHECK((again2 & 0xffffffffu) == (again & 0xffffffffu)); /* same slot */
        T_EQ(ibcc_loop_cancel(&other, again), IBCC_ERR_NOT_FOUND);
        T_EQ(ibcc_loop_cancel(&l, again2), IBCC_ERR_NOT_FOUND);
        T_EQU(ibcc_loop_pending(&other), n);
        for (k = 0; k < n; k++) T_EQ(ibcc_loop_step(&other), 1);
    }
    T_EQ(ibcc_loop_cancel(NULL, c), IBCC_ERR_NULL);
    /* the rest runs in order and cancelled b never ran */
    T_EQU(ibcc_loop_run(&l), 2);
    T_EQ(g.n, 3);
    T_EQU(g.r[0].arg, 1);
    T_EQU(g.r[1].arg, 3);
    T_EQU(g.r[2].arg, 4);
    T_EQ(ibcc_loop_cancel(&l, c), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_loop_cancel(&l, again), IBCC_ERR_NOT_FOUND);
}

/* Cancel of each position in a larger heap (root, leaves, middle). */
static void test_cancel_every_position(void)
{
    ibcc_loop l;
    logbuf g;
    ibcc_event_id id[31];
    int victim, i;
    for (victim = 0; victim < 31; victim++) {
        g.n = 0;
        T_EQ(make_loop(&l, 31, mem_a), IBCC_OK);
        for (i = 0; i < 31; i++)   /* times 0..30 in a scrambled order */
            T_EQ(ibcc_loop_at(&l, (ibcc_time)((i * 17) % 31), cb_log, &g,
                              (uint64_t)((i * 17) % 31), &id[i]), IBCC_OK);
        T_EQ(ibcc_loop_cancel(&l, id[victim]), IBCC_OK);
        T_EQU(ibcc_loop_run(&l), 30);
        for (i = 1; i < g.n; i++) T_CHECK(g.r[i - 1].t < g.r[i].t);
        for (i = 0; i < g.n; i++)
            T_CHECK(g.r[i].arg != (uint64_t)((victim * 17) % 31));
    }
}

/* Cancelling in one subtree moves the last heap entry (from another
   subtree) into the hole, where it can be smaller than its new parent and
   must move up; a remove that only sifts down would later run a larger
   time first. Inserted in array order, a valid heap layout stays as is,
   so the two layouts below set this up for a 4-ary heap (cancel 20 at
   index 5 under 10; last entry 3 at index 17 under 2) and for a binary
   heap (cancel 11 at index 3 under 10; last entry 4 at index 11 under 3).
   Either way the run order must be the sorted remaining times. */
static void check_cancel_layout(const ibcc_time *ins, int n, int victim)
{
    ibcc_loop l;
    logbuf g;
    ibcc_event_id id[32];
    int i;
    g.n = 0;
    T_EQ(make_loop(&l, 32, mem_a), IBCC_OK);
    for (i = 0; i < n; i++)
        T_EQ(ibcc_loop_at(&l, ins[i], cb_log, &g, ins[i], &id[i]), IBCC_OK);
    T_EQ(ibcc_loop_cancel(&l, id[victim]), IBCC_OK);
    T_EQU(ibcc_loop_run(&l), (uint64_t)(n - 1));
    T_EQ(g.n, n - 1);
    for (i = 1; i < g.n; i++) T_CHECK(g.r[i - 1].t < g.r[i].t);
    for (i = 0; i < g.n; i++) T_CHECK(g.r[i].t != ins[victim]);
}

static void test_cancel_moves_up(void)
{
    static const ibcc_time quad[18] = { 1, 10, 11, 12, 2, 20, 21, 22, 23, 24,
                                        25, 26, 27, 28, 29, 30, 31, 3 };
    static const ibcc_time bin[12] = { 1, 10, 2, 11, 12, 3, 20, 13, 14, 15, 16, 4 };
    check_cancel_layout(quad, 18, 5);
    check_cancel_layout(bin, 12, 3);
}

/* ---- errors while scheduling -------------------------------------------- */

static void test_schedule_errors(void)
{
    ibcc_loop l;
    ibcc_event_id id = 99;
    int i;
    T_EQ(make_loop(&l, 3, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_at(NULL, 5, cb_nop, NULL, 0, &id), IBCC_ERR_NULL);
    T_EQU(id, 0);                             /* *id cleared on error */
    T_EQ(ibcc_loop_at(&l, 5, NULL, NULL, 0, &id), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_after(NULL, 5, cb_nop, NULL, 0, &id), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_after(&l, 5, NULL, NULL, 0, &id), IBCC_ERR_NULL);
    T_EQU(ibcc_loop_pending(&l), 0);
    /* PAST: after time has advanced */
    T_EQ(ibcc_loop_run_until(&l, 1000, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 999, cb_nop, NULL, 0, &id), IBCC_ERR_PAST);
    T_EQU(id, 0);
    T_EQ(ibcc_loop_at(&l, 0, cb_nop, NULL, 0, NULL), IBCC_ERR_PAST);
    T_EQ(ibcc_loop_at(&l, 1000, cb_nop, NULL, 0, &id), IBCC_OK); /* t == now */
    T_CHECK(id != 0);
    T_EQ(ibcc_loop_after(&l, 0, cb_nop, NULL, 0, NULL), IBCC_OK);
    /* OVERFLOW: now + delay beyond 2^64 - 1 */
    T_EQ(ibcc_loop_after(&l, IBCC_TIME_MAX, cb_nop, NULL, 0, &id), IBCC_ERR_OVERFLOW);
    T_EQU(id, 0);
    T_EQ(ibcc_loop_after(&l, IBCC_TIME_MAX - 999, cb_nop, NULL, 0, NULL),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_loop_after(&l, IBCC_TIME_MAX - 1000, cb_nop, NULL, 0, &id), IBCC_OK);
    T_EQU(ibcc_loop_pending(&l), 3);
    /* FULL */
    T_EQ(ibcc_loop_at(&l, 2000, cb_nop, NULL, 0, &id), IBCC_ERR_FULL);
    T_EQU(id, 0);
    T_EQ(ibcc_loop_after(&l, 1, cb_nop, NULL, 0, NULL), IBCC_ERR_FULL);
    T_EQU(ibcc_loop_pending(&l), 3);
    /* the event at the end of time runs and leaves now at the maximum */
    T_EQU(ibcc_loop_run(&l), 3);
    T_EQU(ibcc_loop_now(&l), IBCC_TIME_MAX);
    T_EQ(ibcc_loop_after(&l, 1, cb_nop, NULL, 0, NULL), IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_loop_after(&l, 0, cb_nop, NULL, 0, NULL), IBCC_OK);
    /* after draining, the whole capacity is usable again */
    T_EQU(ibcc_loop_run(&l), 1);
    for (i = 0; i < 3; i++)
        T_EQ(ibcc_loop_at(&l, IBCC_TIME_MAX, cb_nop, NULL, 0, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, IBCC_TIME_MAX, cb_nop, NULL, 0, NULL), IBCC_ERR_FULL);
}

static void test_null_queries(void)
{
    uint64_t ran = 5;
    T_EQ(ibcc_loop_step(NULL), 0);
    T_EQU(ibcc_loop_run(NULL), 0);
    T_EQU(ibcc_loop_now(NULL), 0);
    T_EQU(ibcc_loop_pending(NULL), 0);
    T_EQ(ibcc_loop_run_until(NULL, 5, &ran), IBCC_ERR_NULL);
    T_EQU(ran, 0);
}

/* ---- step and run_until ------------------------------------------------- */

static void test_step(void)
{
    ibcc_loop l;
    logbuf g;
    g.n = 0;
    T_EQ(make_loop(&l, 4, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_step(&l), 0);              /* empty */
    T_EQU(ibcc_loop_now(&l), 0);
    T_EQ(ibcc_loop_after(&l, 25, cb_log, &g, 9, NULL), IBCC_OK);
    T_EQ(ibcc_loop_after(&l, 5, cb_log, &g, 8, NULL), IBCC_OK);
    T_EQ(ibcc_loop_step(&l), 1);
    T_EQU(ibcc_loop_now(&l), 5);
    T_EQ(g.n, 1);
    T_EQU(g.r[0].arg, 8);
    T_EQ(ibcc_loop_step(&l), 1);
    T_EQU(ibcc_loop_now(&l), 25);
    T_EQ(ibcc_loop_step(&l), 0);
    T_EQU(ibcc_loop_now(&l), 25);             /* unchanged when empty */
    T_EQU(ibcc_loop_run(&l), 0);
}

/* Callback that schedules a follow-up at now + arg (while arg > 0). */
static void cb_chain(ibcc_loop *l, void *ctx, uint64_t arg)
{
    cb_log(l, ctx, arg);
    if (arg > 0) ibcc_loop_after(l, arg, cb_chain, ctx, arg - 1, NULL);
}

static void test_run_until(void)
{
    ibcc_loop l;
    logbuf g;
    uint64_t ran = 0;
    g.n = 0;
    T_EQ(make_loop(&l, 8, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 100, cb_log, &g, 1, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 200, cb_log, &g, 2, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 201, cb_log, &g, 3, NULL), IBCC_OK);
    T_EQ(ibcc_loop_run_until(&l, 99, &ran), IBCC_OK);
    T_EQU(ran, 0);
    T_EQU(ibcc_loop_now(&l), 99);
    /* due exactly at t runs; after t does not */
    T_EQ(ibcc_loop_run_until(&l, 200, &ran), IBCC_OK);
    T_EQU(ran, 2);
    T_EQU(ibcc_loop_now(&l), 200);
    T_EQU(ibcc_loop_pending(&l), 1);
    T_EQ(ibcc_loop_run_until(&l, 200, &ran), IBCC_OK); /* t == now */
    T_EQU(ran, 0);
    T_EQ(ibcc_loop_run_until(&l, 150, &ran), IBCC_ERR_PAST);
    T_EQU(ibcc_loop_now(&l), 200);
    T_EQ(ibcc_loop_run_until(&l, 150, NULL), IBCC_ERR_PAST);
    /* events scheduled by events: chain at 300, +3 -> 303, +2 -> 305,
       +1 -> 306, 0 -> stop; run_until 305 runs three of them (and the one
       at 201), and the 306 one stays pending */
    T_EQ(ibcc_loop_at(&l, 300, cb_chain, &g, 3, NULL), IBCC_OK);
    T_EQ(ibcc_loop_run_until(&l, 305, &ran), IBCC_OK);
    T_EQU(ran, 4);
    T_EQU(ibcc_loop_now(&l), 305);
    T_EQU(ibcc_loop_pending(&l), 1);
    T_EQ(g.n, 6);
    T_EQU(g.r[3].t, 300);
    T_EQU(g.r[4].t, 303);
    T_EQU(g.r[5].t, 305);
    T_EQ(ibcc_loop_run_until(&l, 1000, NULL), IBCC_OK);
    T_EQ(g.n, 7);
    T_EQU(g.r[6].t, 306);
    T_EQU(ibcc_loop_now(&l), 1000);
    /* after run_until, delays count from the new now */
    T_EQ(ibcc_loop_after(&l, 1, cb_log, &g, 77, NULL), IBCC_OK);
    T_EQ(ibcc_loop_step(&l), 1);
    T_EQU(g.r[7].t, 1001);
}

/* ---- callbacks that schedule and cancel --------------------------------- */

typedef struct ctl {
    logbuf g;
    ibcc_event_id victim, self;
    ibcc_result cancel_victim, cancel_self, sched_same, sched_past;
} ctl;

static void cb_actor(ibcc_loop *l, void *ctx, uint64_t arg)
{
    ctl *c = (ctl *)ctx;
    cb_log(l, &c->g, arg);
    c->cancel_victim = ibcc_loop_cancel(l, c->victim);
    c->cancel_self = ibcc_loop_cancel(l, c->self);       /* already running */
    c->sched_same = ibcc_loop_after(l, 0, cb_log, &c->g, 100, NULL);
    c->sched_past = ibcc_loop_at(l, ibcc_loop_now(l) - 1, cb_log, &c->g, 101, NULL);
}

static void test_callbacks_schedule_and_cancel(void)
{
    ibcc_loop l;
    ctl c;
    memset(&c, 0, sizeof c);
    T_EQ(make_loop(&l, 8, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 10, cb_actor, &c, 1, &c.self), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 10, cb_log, &c.g, 2, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 10, cb_log, &c.g, 3, &c.victim), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 20, cb_log, &c.g, 4, NULL), IBCC_OK);
    T_EQU(ibcc_loop_run(&l), 4);
    T_EQ(c.cancel_victim, IBCC_OK);
    T_EQ(c.cancel_self, IBCC_ERR_NOT_FOUND);
    T_EQ(c.sched_same, IBCC_OK);
    T_EQ(c.sched_past, IBCC_ERR_PAST);
    /* order: 1 (actor), 2, then 100 (scheduled during 1 at the same time,
       so after 2 which was scheduled earlier), 3 was cancelled, then 4 */
    T_EQ(c.g.n, 4);
    T_EQU(c.g.r[0].arg, 1);
    T_EQU(c.g.r[1].arg, 2);
    T_EQU(c.g.r[2].arg, 100);
    T_EQU(c.g.r[2].t, 10);
    T_EQU(c.g.r[3].arg, 4);
}

/* With capacity 1 the running event's slot is free inside its callback. */
static void cb_reschedule(ibcc_loop *l, void *ctx, uint64_t arg)
{
    logbuf *g = (logbuf *)ctx;
    cb_log(l, ctx, arg);
    if (arg < 5 && ibcc_loop_after(l, 10, cb_reschedule, g, arg + 1, NULL) != IBCC_OK)
        g->n = -1000;
}

static void test_capacity_one_hold(void)
{
    ibcc_loop l;
    logbuf g;
    g.n = 0;
    T_EQ(make_loop(&l, 1, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 0, cb_reschedule, &g, 0, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 0, cb_nop, NULL, 0, NULL), IBCC_ERR_FULL);
    T_EQU(ibcc_loop_run(&l), 6);
    T_EQ(g.n, 6);
    T_EQU(g.r[5].t, 50);
    T_EQU(g.r[5].arg, 5);
}

/* ---- randomised comparison with a naive reference ----------------------
   The reference keeps every scheduled event in an array with its time,
   scheduling sequence and state, and runs the live one with the least
   (time, sequence) by linear search. Both sides see the same operations:
   schedule (times drawn from now + [0, span), small spans give ties), cancel
   of a random handle ever issued (pending, run, cancelled or invalid),
   step, and run_until. Events whose arg is divisible by 3 schedule a
   child from inside their callback, on both sides. The logs of executed
   args and every result code must agree. */

#define REF_MAX 20000
typedef struct ref_ev { ibcc_time t; uint64_t seq, arg; int live; } ref_ev;
typedef struct ref_loop {
    ref_ev ev[REF_MAX];
    int n, pending;
    uint64_t seq;
    ibcc_time now;
    uint64_t log[REF_MAX];
    int nlog;
} ref_loop;

typedef struct fuzz {
    logbuf dummy;
    uint64_t log[REF_MAX];
    int nlog;
    uint64_t next_arg;
    int child_failed;
} fuzz;

static ibcc_time child_delay(uint64_t arg) { return (ibcc_time)(arg % 5u); }

static void cb_fuzz(ibcc_loop *l, void *ctx, uint64_t arg)
{
    fuzz *f = (fuzz *)ctx;
    if (f->nlog < REF_MAX) f->log[f->nlog++] = arg;
    if (arg % 3u == 0) {
        uint64_t a = f->next_arg++;
        ibcc_result r = ibcc_loop_after(l, child_delay(arg), cb_fuzz, f, a, NULL);
        if (r != IBCC_OK && r != IBCC_ERR_FULL) f->child_failed = 1;
    }
}

static int ref_add(ref_loop *r, ibcc_time t, uint64_t arg, int cap)
{
    if (t < r->now) return IBCC_ERR_PAST;
    if (r->pending >= cap) return IBCC_ERR_FULL;
    if (r->n >= REF_MAX) return -100;
    r->ev[r->n].t = t;
    r->ev[r->n].seq = r->seq++;
    r->ev[r->n].arg = arg;
    r->ev[r->n].live = 1;
    r->n++;
    r->pending++;
    return IBCC_OK;
}

static int ref_min(const ref_loop *r)
{
    int i, best = -1;
    for (i = 0; i < r->n; i++) {
        const ref_ev *e = &r->ev[i];
        if (!e->live) continue;
        if (best < 0 || e->t < r->ev[best].t
            || (e->t == r->ev[best].t && e->seq < r->ev[best].seq))
            best = i;
    }
    return best;
}

static int ref_step(ref_loop *r, int cap, uint64_t *next_arg)
{
    int b = ref_min(r);
    uint64_t arg;
    if (b < 0) return 0;
    r->ev[b].live = 0;
    r->pending--;
    r->now = r->ev[b].t;
    arg = r->ev[b].arg;
    if (r->nlog < REF_MAX) r->log[r->nlog++] = arg;
    if (arg % 3u == 0) {
        uint64_t a = (*next_arg)++;
        ref_add(r, r->now + child_delay(arg), a, cap);
    }
    return 1;
}

static ref_loop ref_;
static fuzz fz_;
static ibcc_event_id ids_[REF_MAX];
static int ref_index_[REF_MAX];

static void fuzz_run(uint64_t seed, uint32_t cap, int ops, uint64_t span)
{
    ibcc_loop l;
    ibcc_rng rng;
    uint64_t ref_next_arg = 1u << 30;
    int nids = 0, op, mismatch = 0;
    memset(&ref_, 0, sizeof ref_);
    memset(&fz_, 0, sizeof fz_);
    fz_.next_arg = 1u << 30;                 /* children: args from 2^30 */
    ibcc_rng_seed(&rng, seed);
    if (make_loop(&l, cap, mem_a) != IBCC_OK) { T_FAIL_("init"); return; }
    for (op = 0; op < ops && !mismatch; op++) {
        uint64_t kind = ibcc_rng_below(&rng, 10);
        if (kind < 5) {                      /* schedule */
            ibcc_time t = ibcc_loop_now(&l) + ibcc_rng_below(&rng, span);
            uint64_t arg = (uint64_t)op;
            ibcc_event_id id = 0;
            int want = ref_add(&ref_, t, arg, (int)cap);
            ibcc_result got = ibcc_loop_at(&l, t, cb_fuzz, &fz_, arg, &id);
            if ((int)got != want) mismatch = 1;
            if (got == IBCC_OK && nids < REF_MAX) {
                ids_[nids] = id;
                ref_index_[nids] = ref_.n - 1;
                nids++;
            }
        } else if (kind < 7) {               /* cancel */
            if (nids > 0 && ibcc_rng_below(&rng, 8) != 0) {
                int k = (int)ibcc_rng_below(&rng, (uint64_t)nids);
                ref_ev *e = &ref_.ev[ref_index_[k]];
                int want = e->live ? IBCC_OK : IBCC_ERR_NOT_FOUND;
                ibcc_result got = ibcc_loop_cancel(&l, ids_[k]);
                if ((int)got != want) mismatch = 2;
                if (e->live) { e->live = 0; ref_.pending--; }
            } else {                         /* random invalid-ish handle */
                ibcc_event_id h = ibcc_rng_next(&rng) | (UINT64_C(1) << 63);
                if (ibcc_loop_cancel(&l, h) != IBCC_ERR_NOT_FOUND) mismatch = 3;
            }
        } else if (kind < 9) {               /* step */
            int want = ref_step(&ref_, (int)cap, &ref_next_arg);
            if (ibcc_loop_step(&l) != want) mismatch = 4;
        } else {                             /* run_until */
            ibcc_time t = ibcc_loop_now(&l) + ibcc_rng_below(&rng, 8);
            uint64_t ran = 0, want = 0;
            int b;
            while ((b = ref_min(&ref_)) >= 0 && ref_.ev[b].t <= t) {
                ref_step(&ref_, (int)cap, &ref_next_arg);
                want++;
            }
            ref_.now = t;
            if (ibcc_loop_run_until(&l, t, &ran) != IBCC_OK || ran != want)
                mismatch = 5;
        }
        if (ibcc_loop_now(&l) != ref_.now) mismatch = 6;
        if ((int)ibcc_loop_pending(&l) != ref_.pending) mismatch = 7;
        if (fz_.nlog != ref_.nlog) mismatch = 8;
    }
    /* drain both */
    while (!mismatch && ref_step(&ref_, (int)cap, &ref_next_arg))
        if (ibcc_loop_step(&l) != 1) mismatch = 9;
    if (!mismatch && ibcc_loop_step(&l) != 0) mismatch = 10;
    if (fz_.child_failed) mismatch = 11;
    if (!mismatch && fz_.nlog != ref_.nlog) mismatch = 12;
    if (!mismatch && memcmp(fz_.log, ref_.log, sizeof(uint64_t) * (size_t)ref_.nlog) != 0)
        mismatch = 13;
    if (mismatch)
        T_FAIL_("seed %llu cap %u: mismatch %d at op %d",
                (unsigned long long)seed, (unsigned)cap, mismatch, op);
    T_CHECK(ref_.nlog > ops / 10);           /* the run did execute events */
}

static void test_random_vs_reference(void)
{
    /* span: scheduled times are now + [0, span); small spans make ties */
    fuzz_run(1, 1000, 6000, 20);   /* roomy: FULL never reached */
    fuzz_run(2, 37, 6000, 20);     /* tight: FULL on both sides */
    fuzz_run(3, 5, 3000, 3);
    fuzz_run(4, 1, 2000, 20);
    fuzz_run(5, 200, 8000, 1000);  /* few ties, deep heap */
    fuzz_run(6, 1000, 8000, 1);    /* everything at the same time */
}

/* ibcc_loop_next_time peeks at the earliest due time without running it. */
static void test_next_time(void)
{
    ibcc_loop l;
    ibcc_event_id a = 0, b = 0;
    T_EQ(make_loop(&l, 8, mem_a), IBCC_OK);
    T_EQU(ibcc_loop_next_time(&l), IBCC_TIME_MAX);
    T_EQU(ibcc_loop_next_time(NULL), IBCC_TIME_MAX);
    T_EQ(ibcc_loop_at(&l, IBCC_NS(30), cb_nop, NULL, 0, &a), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, IBCC_NS(20), cb_nop, NULL, 0, &b), IBCC_OK);
    T_EQU(ibcc_loop_next_time(&l), IBCC_NS(20));
    T_EQ(ibcc_loop_cancel(&l, b), IBCC_OK);
    T_EQU(ibcc_loop_next_time(&l), IBCC_NS(30));
    T_EQ(ibcc_loop_step(&l), 1);
    T_EQU(ibcc_loop_now(&l), IBCC_NS(30));
    T_EQU(ibcc_loop_next_time(&l), IBCC_TIME_MAX);
}

/* Growing a loop keeps time, pending events, their order (same-time
   FIFO included) and their handles; the new slots are usable; errors. */
static uint64_t grow_mem[3][4096];
typedef struct growctx { ibcc_loop *l; int stage; logbuf g; } growctx;

static void cb_grow(ibcc_loop *l, void *ctx, uint64_t arg)
{
    growctx *c = (growctx *)ctx;
    ibcc_loop_desc d;
    cb_log(l, &c->g, arg);
    if (arg == 100 && c->stage == 0) {     /* full: grow from a callback */
        d.capacity = 64;
        c->stage = 1;
        (void)ibcc_loop_grow(l, &d, grow_mem[2], t_size_loop(&d));
        (void)ibcc_loop_after(l, 5, cb_grow, c, 101, NULL);
    }
}

static void test_grow(void)
{
    ibcc_loop l;
    ibcc_loop_desc d;
    ibcc_event_id id[8], extra;
    growctx c;
    int k;
    memset(&c, 0, sizeof c);
    d.capacity = 8;
    T_EQ(ibcc_loop_init(&l, &d, grow_mem[0], t_size_loop(&d)), IBCC_OK);
    for (k = 0; k < 8; k++)                 /* two same-time groups */
        T_EQ(ibcc_loop_at(&l, k < 4 ? 50u : 20u, cb_grow, &c, (uint64_t)k,
                          &id[k]), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 1, cb_grow, &c, 99, NULL), IBCC_ERR_FULL);
    T_EQ(ibcc_loop_run_until(&l, 10, NULL), IBCC_OK);
    d.capacity = 4;
    T_EQ(ibcc_loop_grow(&l, &d, grow_mem[1], t_size_loop(&d)),
         IBCC_ERR_CAPACITY);
    d.capacity = 16;
    T_EQ(ibcc_loop_grow(&l, &d, grow_mem[1], 8), IBCC_ERR_NOMEM);
    T_EQ(ibcc_loop_grow(&l, &d, (char *)grow_mem[1] + 4,
                        t_size_loop(&d)), IBCC_ERR_ALIGN);
    T_EQ(ibcc_loop_grow(NULL, &d, grow_mem[1], t_size_loop(&d)),
         IBCC_ERR_NULL);
    T_EQ(ibcc_loop_grow(&l, NULL, grow_mem[1], t_size_loop(&d)),
         IBCC_ERR_NULL);
    memset(grow_mem[0], 0xab, sizeof grow_mem[0]); /* old block unused now? */
    T_EQ(ibcc_loop_init(&l, &d, grow_mem[0], t_size_loop(&d)), IBCC_OK);
    d.capacity = 8;
    T_EQ(ibcc_loop_init(&l, &d, grow_mem[0], t_size_loop(&d)), IBCC_OK);
    for (k = 0; k < 8; k++)
        T_EQ(ibcc_loop_at(&l, k < 4 ? 50u : 20u, cb_grow, &c, (uint64_t)k,
                          &id[k]), IBCC_OK);
    T_EQ(ibcc_loop_run_until(&l, 10, NULL), IBCC_OK);
    d.capacity = 16;
    T_EQ(ibcc_loop_grow(&l, &d, grow_mem[1], t_size_loop(&d)), IBCC_OK);
    memset(grow_mem[0], 0xab, sizeof grow_mem[0]);   /* the old block */
    T_EQU(ibcc_loop_now(&l), 10);
    T_EQU(ibcc_loop_pending(&l), 8);
    T_EQ(ibcc_loop_cancel(&l, id[5]), IBCC_OK);      /* old handles work */
    T_EQ(ibcc_loop_cancel(&l, id[5]), IBCC_ERR_NOT_FOUND);
    for (k = 0; k < 8; k++)                          /* 8 new free slots */
        T_EQ(ibcc_loop_at(&l, 30, cb_grow, &c, (uint64_t)(10 + k),
                          k ? NULL : &extra), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 40, cb_grow, &c, 100, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 41, cb_nop, NULL, 0, NULL), IBCC_ERR_FULL);
    c.l = &l;
    ibcc_loop_run(&l);
    /* 20: 4 5 6 7 without 5; 30: 10..17; 40: 100; 45: 101; 50: 0..3 */
    {
        uint64_t want[] = {4, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 100,
                           101, 0, 1, 2, 3};
        ibcc_time wt[] = {20, 20, 20, 30, 30, 30, 30, 30, 30, 30, 30, 40,
                          45, 50, 50, 50, 50};
        T_EQ(c.g.n, 17);
        for (k = 0; k < 17 && k < c.g.n; k++) {
            T_EQU(c.g.r[k].arg, want[k]);
            T_EQU(c.g.r[k].t, wt[k]);
        }
    }
    T_EQU(l.cap, 64);
}

/* End-of-instant hook: called once after the last event of each instant,
   with the loop's time at that instant; an event it schedules at the same
   time runs next, and the hook is called again after it. */
typedef struct idlectx { logbuf g; int again; } idlectx;

static void cb_idle(ibcc_loop *l, void *ctx, uint64_t arg)
{
    idlectx *c = (idlectx *)ctx;
    (void)arg;
    cb_log(l, &c->g, 1000u + (uint64_t)c->g.n);
    if (c->again) {            /* once: one more event at this instant */
        c->again = 0;
        T_EQ(ibcc_loop_at(l, ibcc_loop_now(l), cb_log, &c->g, 77, NULL), IBCC_OK);
    }
}

static void test_idle_hook(void)
{
    ibcc_loop l;
    idlectx c;
    memset(&c, 0, sizeof c);
    T_EQ(make_loop(&l, 16, mem_a), IBCC_OK);
    T_EQ(ibcc_loop_set_idle(NULL, cb_idle, &c), IBCC_ERR_NULL);
    T_EQ(ibcc_loop_set_idle(&l, cb_idle, &c), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 5, cb_log, &c.g, 1, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 5, cb_log, &c.g, 2, NULL), IBCC_OK);
    T_EQ(ibcc_loop_at(&l, 9, cb_log, &c.g, 3, NULL), IBCC_OK);
    T_EQ(ibcc_loop_step(&l), 1);        /* 1 at 5: 2 is still due at 5 */
    T_EQ(c.g.n, 1);
    c.again = 1;
    T_EQ(ibcc_loop_step(&l), 1);        /* 2 at 5, then the hook (which
                                           adds 77 at 5) */
    T_EQ(c.g.n, 3);
    T_EQ(ibcc_loop_step(&l), 1);        /* 77 at 5, then the hook again */
    T_EQ(c.g.n, 5);
    T_EQU(c.g.r[2].arg, 1002);
    T_EQU(c.g.r[3].arg, 77);
    T_EQU(c.g.r[4].arg, 1004);
    T_EQU(c.g.r[4].t, 5);
    T_EQ(ibcc_loop_set_idle(&l, NULL, &c), IBCC_OK);   /* removed */
    T_EQU(ibcc_loop_run(&l), 1);
    T_EQ(c.g.n, 6);
    T_EQU(c.g.r[5].arg, 3);
}

int main(void)
{
    T_RUN(test_idle_hook);
    T_RUN(test_defaults_and_size);
    T_RUN(test_init_errors);
    T_RUN(test_time_order);
    T_RUN(test_same_time_fifo);
    T_RUN(test_fifo_after_cancel);
    T_RUN(test_cancel);
    T_RUN(test_cancel_every_position);
    T_RUN(test_cancel_moves_up);
    T_RUN(test_schedule_errors);
    T_RUN(test_null_queries);
    T_RUN(test_step);
    T_RUN(test_run_until);
    T_RUN(test_callbacks_schedule_and_cancel);
    T_RUN(test_capacity_one_hold);
    T_RUN(test_random_vs_reference);
    T_RUN(test_next_time);
    T_RUN(test_grow);
    return t_summary();
}
