/* Tests of the switch output arbiter (L1 arbiter): oldest-first with
   bounded bypass (order, limit, head count reset, per-output order), FIFO,
   round robin, pick_any, callback and bitmap modes, errors. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static uint64_t mem_[1 << 14];

static ibcc_result mk(ibcc_arbiter *a, ibcc_arb_policy p, uint32_t ports,
                      uint32_t limit, ibcc_can_send_fn fn, void *user)
{
    ibcc_arbiter_desc d;
    memset(&d, 0, sizeof d);
    d.policy = p;
    d.ports = ports;
    d.bypass_limit = limit;
    d.can_send = fn;
    d.user = user;
    return ibcc_arbiter_init(a, &d, mem_, t_size_arbiter(&d));
}

/* pick on `out`; returns the tag or -1, and releases the input. */
static long pick(ibcc_arbiter *a, unsigned out)
{
    ibcc_arb_grant g;
    if (!ibcc_arbiter_pick(a, out, &g)) return -1;
    T_EQU(g.out, out);
    T_EQ(ibcc_arbiter_input_busy(a, g.in), 1);
    ibcc_arbiter_set_input_busy(a, g.in, 0);
    return (long)g.tag;
}

static void test_desc(void)
{
    ibcc_arbiter_desc d, z;
    ibcc_arbiter a;
    memset(&z, 0, sizeof z);
    d = z;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_OK);
    T_EQU(d.ports, 8);
    T_EQU(d.capacity, 4);
    T_EQ(d.policy, IBCC_ARB_OLDEST);
    T_EQU(d.bypass_limit, 4);
    T_CHECK(d.can_send == NULL);
    /* inputs 8*32, entries 8*4*32, rr 8*4, counts, FIFO heads and tails
       8*8*2 each, two bitmaps 8*8 each, the ready bitmap 8 (the input
       and entry structs are 32 bytes where uint64_t aligns to 8 inside a
       struct; i386 aligns it to 4 and packs an entry into 28) */
    T_EQU(sizeof(ibcc_arb_input_), 32);
    if (sizeof(void *) == 8) T_EQU(sizeof(ibcc_arb_entry_), 32);
    T_SIZE_EQ(ibcc_arbiter_size, &z, 8 * sizeof(ibcc_arb_input_) + 8 * 4 * sizeof(ibcc_arb_entry_)
                                 + 32 + 3 * 128 + 2 * 64 + 8);
    d = z; d.policy = (ibcc_arb_policy)4;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_RANGE);
    T_SIZE_ERR(ibcc_arbiter_size, &d, IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_init(&a, &d, mem_, sizeof mem_), IBCC_ERR_RANGE);
    d = z; d.ports = 257;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_CAPACITY);
    T_EQU(d.ports, 257);
    d = z; d.capacity = 65536;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_arbiter_init(&a, &d, mem_, sizeof mem_), IBCC_ERR_CAPACITY);
    d = z; d.bypass_limit = 65536;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_ERR_RANGE);
    d = z; d.ports = 256; d.capacity = 2; d.bypass_limit = 65535;
    T_EQ(ibcc_arbiter_defaults(&d), IBCC_OK);
    T_EQ(ibcc_arbiter_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_arbiter_size, NULL, IBCC_ERR_NULL);
    d = z;
    T_EQ(ibcc_arbiter_init(NULL, &d, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_init(&a, NULL, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_init(&a, &d, NULL, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_init(&a, &d, (char *)mem_ + 4, sizeof mem_ - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_arbiter_init(&a, &d, mem_, t_size_arbiter(&d) - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_arbiter_init(&a, &d, mem_, t_size_arbiter(&d)), IBCC_OK);
    T_STREQ(ibcc_arb_policy_name(IBCC_ARB_OLDEST), "oldest");
    T_STREQ(ibcc_arb_policy_name(IBCC_ARB_FIFO), "fifo");
    T_STREQ(ibcc_arb_policy_name(IBCC_ARB_RR), "rr");
    T_STREQ(ibcc_arb_policy_name((ibcc_arb_policy)7), "?");
}

static void test_push_errors(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    unsigned out;
    uint32_t size;
    uint64_t tag;
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, NULL, NULL), IBCC_OK);
    T_EQ(ibcc_arbiter_push(NULL, 0, 0, 1, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_push(&a, 4, 0, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_push(&a, 0, 4, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_push(&a, 0, 1, 100, 7), IBCC_OK);
    T_EQ(ibcc_arbiter_push(&a, 0, 2, 200, 8), IBCC_OK);
    T_EQ(ibcc_arbiter_push(&a, 0, 3, 300, 9), IBCC_OK);
    T_EQ(ibcc_arbiter_push(&a, 0, 1, 400, 10), IBCC_OK);
    T_EQ(ibcc_arbiter_push(&a, 0, 1, 500, 11), IBCC_ERR_FULL);
    T_EQU(ibcc_arbiter_len(&a, 0), 4);
    T_EQ(ibcc_arbiter_peek(&a, 0, 2, &out, &size, &tag), IBCC_OK);
    T_EQU(out, 3); T_EQU(size, 300); T_EQU(tag, 9);
    T_EQ(ibcc_arbiter_peek(&a, 0, 3, NULL, NULL, &tag), IBCC_OK);
    T_EQU(tag, 10);
    T_EQ(ibcc_arbiter_peek(&a, 0, 4, &out, &size, &tag), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_peek(&a, 4, 0, &out, &size, &tag), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_peek(NULL, 0, 0, &out, &size, &tag), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_pick(&a, 4, &g), 0);
    T_EQ(ibcc_arbiter_pick(&a, 1, NULL), 0);
    T_EQ(ibcc_arbiter_pick(NULL, 1, &g), 0);
    T_EQ(ibcc_arbiter_pick_any(NULL, &g), 0);
    T_EQ(ibcc_arbiter_set_input_busy(&a, 4, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_set_input_busy(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_arbiter_set_output(&a, 4, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_set_output(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQU(ibcc_arbiter_len(&a, 4), 0);
    T_EQU(ibcc_arbiter_head_bypassed(&a, 4), 0);
    T_EQ(ibcc_arbiter_input_busy(&a, 4), 0);
    /* a full input stays full after a failed push; a pick makes room */
    T_EQ(ibcc_arbiter_pick(&a, 1, &g), 1);
    T_EQU(g.tag, 7); T_EQU(g.size, 100); T_EQU(g.in, 0); T_EQ(g.bypassed, 0);
    T_EQ(ibcc_arbiter_push(&a, 0, 1, 500, 11), IBCC_OK);
}

/* Oldest first across inputs; an input sends one packet at a time. */
static void test_oldest_order(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 2, 1, 1, 20);     /* oldest */
    ibcc_arbiter_push(&a, 0, 1, 1, 21);
    ibcc_arbiter_push(&a, 3, 1, 1, 22);
    ibcc_arbiter_push(&a, 2, 1, 1, 23);
    T_EQ(ibcc_arbiter_pick(&a, 1, &g), 1);
    T_EQU(g.tag, 20); T_EQU(g.in, 2);
    /* input 2 is busy: its next packet (23) waits although 21 is older
       anyway; after 21 and 22, 23 needs input 2 released */
    T_EQ(ibcc_arbiter_pick(&a, 1, &g), 1);
    T_EQU(g.tag, 21);
    T_EQ(ibcc_arbiter_pick(&a, 1, &g), 1);
    T_EQU(g.tag, 22);
    T_EQ(ibcc_arbiter_pick(&a, 1, &g), 0);  /* 23's input still busy */
    ibcc_arbiter_set_input_busy(&a, 2, 0);
    T_EQ(ibcc_arbiter_pick(&a, 1, &g), 1);
    T_EQU(g.tag, 23);
    T_EQU(a.grants, 4);
    T_EQU(a.bypasses, 0);
}

/* Bypass: input 0 holds [a->1, b->2, c->2, d->3]; output 1 cannot take. */
static void test_bypass_and_limit(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 2, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'a');
    ibcc_arbiter_push(&a, 0, 2, 1, 'b');
    ibcc_arbiter_push(&a, 0, 2, 1, 'c');
    ibcc_arbiter_push(&a, 0, 3, 1, 'd');
    /* all outputs can take: a is "waiting for an output that can take
       it", so nothing may pass it */
    T_EQ(pick(&a, 2), -1);
    ibcc_arbiter_set_output(&a, 1, 0);
    T_EQ(ibcc_arbiter_pick(&a, 2, &g), 1);
    T_EQU(g.tag, 'b'); T_EQ(g.bypassed, 1);
    T_EQU(ibcc_arbiter_head_bypassed(&a, 0), 1);
    ibcc_arbiter_set_input_busy(&a, 0, 0);
    T_EQ(pick(&a, 2), 'c');
    T_EQU(ibcc_arbiter_head_bypassed(&a, 0), 2);
    T_EQU(a.bypasses, 2);
    /* limit 2 reached: d may not pass a */
    T_EQ(pick(&a, 3), -1);
    /* a leaves: d becomes head with a fresh count */
    ibcc_arbiter_set_output(&a, 1, 1);
    T_EQ(pick(&a, 1), 'a');
    T_EQU(ibcc_arbiter_head_bypassed(&a, 0), 0);
    T_EQ(pick(&a, 3), 'd');
    T_EQU(ibcc_arbiter_len(&a, 0), 0);
}

/* The bypass count belongs to the head: when the head changes the new
   head may be passed bypass_limit times again. */
static void test_head_count_reset(void)
{
    ibcc_arbiter a;
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 1, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 1);    /* head h1 -> 1 */
    ibcc_arbiter_push(&a, 0, 2, 1, 2);
    ibcc_arbiter_push(&a, 0, 3, 1, 3);    /* h2 after h1 leaves */
    ibcc_arbiter_push(&a, 0, 2, 1, 4);
    ibcc_arbiter_set_output(&a, 1, 0);
    ibcc_arbiter_set_output(&a, 3, 0);
    T_EQ(pick(&a, 2), 2);                 /* passes h1 once */
    T_EQ(pick(&a, 2), -1);                /* limit 1 */
    ibcc_arbiter_set_output(&a, 1, 1);
    T_EQ(pick(&a, 1), 1);                 /* h1 leaves; head is now 3 */
    T_EQU(ibcc_arbiter_head_bypassed(&a, 0), 0);
    T_EQ(pick(&a, 2), 4);                 /* passes the new head once */
    T_EQU(ibcc_arbiter_head_bypassed(&a, 0), 1);
    /* a push into an empty buffer starts at 0 as well */
    ibcc_arbiter_set_output(&a, 3, 1);
    T_EQ(pick(&a, 3), 3);
    ibcc_arbiter_push(&a, 0, 1, 1, 5);
    T_EQU(ibcc_arbiter_head_bypassed(&a, 0), 0);
    /* default limit 4 */
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 8, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_set_output(&a, 1, 0);
    ibcc_arbiter_push(&a, 0, 1, 1, 100);
    {
        int i, got = 0;
        for (i = 0; i < 6; i++) {
            ibcc_arbiter_push(&a, 0, (unsigned)(2 + i), 1, (uint64_t)i);
            if (pick(&a, (unsigned)(2 + i)) == i) got++;
        }
        T_EQ(got, 4);
        T_EQU(ibcc_arbiter_len(&a, 0), 3);
    }
}

/* Age decides between a bypassing packet and another input's head. */
static void test_bypass_age(void)
{
    ibcc_arbiter a;
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'x');  /* seq 0 */
    ibcc_arbiter_push(&a, 1, 2, 1, 'z');  /* seq 1 */
    ibcc_arbiter_push(&a, 0, 2, 1, 'y');  /* seq 2 */
    ibcc_arbiter_set_output(&a, 1, 0);
    T_EQ(pick(&a, 2), 'z');
    T_EQ(pick(&a, 2), 'y');
    T_EQ(pick(&a, 2), -1);
    /* now y is older than w (another input's head) */
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'x');
    ibcc_arbiter_push(&a, 0, 2, 1, 'y');
    ibcc_arbiter_push(&a, 1, 2, 1, 'w');
    ibcc_arbiter_set_output(&a, 1, 0);
    T_EQ(pick(&a, 2), 'y');
    T_EQ(pick(&a, 2), 'w');
}

/* Callback mode: credits depend on size. */
typedef struct cred { uint32_t room[4]; int calls; } cred;
static int can_send_cb(void *user, unsigned out, unsigned in, uint32_t size)
{
    cred *c = (cred *)user;
    (void)in;
    c->calls++;
    return size <= c->room[out];
}

static void test_callback_order(void)
{
    ibcc_arbiter a;
    cred c;
    memset(&c, 0, sizeof c);
    c.room[1] = 0; c.room[2] = 1000; c.room[3] = 1000;
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, can_send_cb, &c), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 100, 'a');
    ibcc_arbiter_push(&a, 0, 2, 2000, 'b');  /* too big for output 2 */
    ibcc_arbiter_push(&a, 0, 2, 100, 'c');   /* fits, but may not pass b */
    ibcc_arbiter_push(&a, 0, 3, 100, 'd');   /* b cannot go: d may pass */
    T_EQ(pick(&a, 2), -1);
    T_EQ(pick(&a, 3), 'd');
    T_CHECK(c.calls > 0);
    c.room[2] = 5000;
    T_EQ(pick(&a, 2), 'b');
    T_EQ(pick(&a, 2), 'c');
    /* bitmap is ignored in callback mode */
    ibcc_arbiter_set_output(&a, 1, 0);
    c.room[1] = 1000;
    T_EQ(pick(&a, 1), 'a');
    /* pick on a free output whose callback says the packet does not fit:
       a smaller, younger packet of another input goes instead */
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, can_send_cb, &c), IBCC_OK);
    c.room[1] = 500;
    ibcc_arbiter_push(&a, 0, 1, 1000, 'p');
    ibcc_arbiter_push(&a, 1, 1, 400, 'q');
    T_EQ(pick(&a, 1), 'q');
    T_EQ(pick(&a, 1), -1);
}

static void test_fifo(void)
{
    ibcc_arbiter a;
    T_EQ(mk(&a, IBCC_ARB_FIFO, 4, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'a');
    ibcc_arbiter_push(&a, 0, 2, 1, 'b');
    ibcc_arbiter_push(&a, 1, 2, 1, 'c');
    ibcc_arbiter_set_output(&a, 1, 0);
    T_EQ(pick(&a, 2), 'c');               /* b may not pass a */
    T_EQ(pick(&a, 2), -1);
    ibcc_arbiter_set_output(&a, 1, 1);
    T_EQ(pick(&a, 1), 'a');
    T_EQ(pick(&a, 2), 'b');
}

/* RR: per-output pointer, heads only, the pointer moves past the winner. */
static void test_rr(void)
{
    ibcc_arbiter a;
    unsigned i;
    T_EQ(mk(&a, IBCC_ARB_RR, 4, 0, NULL, NULL), IBCC_OK);
    for (i = 0; i < 4; i++) {
        ibcc_arbiter_push(&a, 3 - i, 1, 1, 10 + (3 - i)); /* 3 is oldest */
        ibcc_arbiter_push(&a, 3 - i, 1, 1, 20 + (3 - i));
    }
    /* age does not matter: inputs 0, 1, 2, 3, 0, ... */
    T_EQ(pick(&a, 1), 10);
    T_EQ(pick(&a, 1), 11);
    T_EQ(pick(&a, 1), 12);
    T_EQ(pick(&a, 1), 13);
    T_EQ(pick(&a, 1), 20);
    T_EQ(pick(&a, 1), 21);
    /* pointer now at 2 */
    T_EQ(pick(&a, 1), 22);   /* input 2 still had one */
    ibcc_arbiter_push(&a, 0, 1, 1, 30);
    T_EQ(pick(&a, 1), 23);   /* pointer 3 */
    T_EQ(pick(&a, 1), 30);   /* wraps to 0 */
    /* heads only */
    ibcc_arbiter_push(&a, 0, 2, 1, 40);
    ibcc_arbiter_push(&a, 0, 1, 1, 41);
    ibcc_arbiter_set_output(&a, 2, 0);
    T_EQ(pick(&a, 1), -1);
    ibcc_arbiter_set_output(&a, 2, 1);
    T_EQ(pick(&a, 2), 40);
    T_EQ(pick(&a, 1), 41);
    /* busy input skipped; the pointer passes it */
    ibcc_arbiter_push(&a, 1, 3, 1, 50);
    ibcc_arbiter_push(&a, 2, 3, 1, 51);
    ibcc_arbiter_set_input_busy(&a, 1, 1);
    T_EQ(pick(&a, 3), 51);
    ibcc_arbiter_set_input_busy(&a, 1, 0);
    T_EQ(pick(&a, 3), 50);
    T_EQU(a.bypasses, 0);
}

static void test_rr_pick_any(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    T_EQ(mk(&a, IBCC_ARB_RR, 4, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'a');
    ibcc_arbiter_push(&a, 1, 2, 1, 'b');
    ibcc_arbiter_push(&a, 2, 1, 1, 'c');
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);   /* output 1 first (from 0) */
    T_EQU(g.tag, 'a'); T_EQU(g.out, 1);
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);   /* then output 2 */
    T_EQU(g.tag, 'b'); T_EQU(g.out, 2);
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);   /* wraps to output 1 */
    T_EQU(g.tag, 'c');
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 0);
    ibcc_arbiter_set_input_busy(&a, 0, 0);
    ibcc_arbiter_push(&a, 0, 3, 1, 'd');
    ibcc_arbiter_set_output(&a, 3, 0);
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 0);
    ibcc_arbiter_set_output(&a, 3, 1);
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);
    T_EQU(g.tag, 'd');
}

/* "Arbitrate repeatedly until nothing more can start": outputs become
   busy as packets start on them. */
typedef struct linkst { int busy[4]; } linkst;
static int link_free(void *user, unsigned out, unsigned in, uint32_t size)
{
    (void)in; (void)size;
    return !((linkst *)user)->busy[out];
}

static void test_pick_any_until_idle(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    linkst L;
    uint64_t tags[8];
    int n = 0;
    memset(&L, 0, sizeof L);
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, link_free, &L), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'a');  /* seq 0 */
    ibcc_arbiter_push(&a, 1, 1, 1, 'b');  /* seq 1 */
    ibcc_arbiter_push(&a, 1, 2, 1, 'c');  /* seq 2 */
    ibcc_arbiter_push(&a, 2, 2, 1, 'd');  /* seq 3 */
    ibcc_arbiter_push(&a, 3, 3, 1, 'e');  /* seq 4 */
    while (ibcc_arbiter_pick_any(&a, &g)) {
        L.busy[g.out] = 1;
        tags[n++] = g.tag;
    }
    /* a on 1; b blocked (1 busy) so c passes it on 2 (older than d); e */
    T_EQ(n, 3);
    T_EQU(tags[0], 'a');
    T_EQU(tags[1], 'c');
    T_EQU(tags[2], 'e');
    T_EQU(ibcc_arbiter_head_bypassed(&a, 1), 1);
    /* FIFO: b blocks c, so d goes on 2 */
    memset(&L, 0, sizeof L);
    n = 0;
    T_EQ(mk(&a, IBCC_ARB_FIFO, 4, 0, link_free, &L), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 1, 1, 'a');
    ibcc_arbiter_push(&a, 1, 1, 1, 'b');
    ibcc_arbiter_push(&a, 1, 2, 1, 'c');
    ibcc_arbiter_push(&a, 2, 2, 1, 'd');
    while (ibcc_arbiter_pick_any(&a, &g)) {
        L.busy[g.out] = 1;
        tags[n++] = g.tag;
    }
    T_EQ(n, 2);
    T_EQU(tags[0], 'a');
    T_EQU(tags[1], 'd');
}

/* pick_any and pick agree: pick_any's winner is the oldest of the winners
   pick would give per output (random check against that definition). */
static int any_vs_pick(unsigned P, int rounds, unsigned npush, uint64_t seed)
{
    static uint64_t mem2[1 << 14];
    ibcc_rng r;
    int round, bad = 0;
    ibcc_rng_seed(&r, seed);
    for (round = 0; round < rounds; round++) {
        ibcc_arbiter a, b;
        ibcc_arbiter_desc d;
        ibcc_arb_grant g, h;
        unsigned i, o;
        uint64_t best = UINT64_MAX;
        int any;
        memset(&d, 0, sizeof d);
        d.ports = P;
        d.capacity = 5;
        d.bypass_limit = 2;
        T_EQ(ibcc_arbiter_init(&a, &d, mem_, t_size_arbiter(&d)), IBCC_OK);
        for (i = 0; i < npush; i++)
            ibcc_arbiter_push(&a, (unsigned)ibcc_rng_below(&r, P),
                              (unsigned)ibcc_rng_below(&r, P), 1, i);
        for (o = 0; o < P; o++)
            ibcc_arbiter_set_output(&a, o, (int)ibcc_rng_below(&r, 2));
        for (i = 0; i < P; i++) {
            ibcc_arbiter_set_input_busy(&a, i, ibcc_rng_below(&r, 4) == 0);
            a.input[i].bypassed = (uint32_t)ibcc_rng_below(&r, 3);
        }
        for (o = 0; o < P; o++) {
            b = a;
            memcpy(mem2, mem_, t_size_arbiter(&d));
            /* copy points into mem_: work on the copy's memory instead */
            b.input = (ibcc_arb_input_ *)(void *)((char *)mem2 + ((char *)a.input - (char *)mem_));
            b.q = (ibcc_arb_entry_ *)(void *)((char *)mem2 + ((char *)a.q - (char *)mem_));
            b.rr = (uint32_t *)(void *)((char *)mem2 + ((char *)a.rr - (char *)mem_));
            b.io = (ibcc_arb_io_ *)(void *)((char *)mem2 + ((char *)a.io - (char *)mem_));
            b.inq = (uint64_t *)(void *)((char *)mem2 + ((char *)a.inq - (char *)mem_));
            b.outs = (uint64_t *)(void *)((char *)mem2 + ((char *)a.outs - (char *)mem_));
            b.ready = (uint64_t *)(void *)((char *)mem2 + ((char *)a.ready - (char *)mem_));
            if (ibcc_arbiter_pick(&b, o, &h) && h.tag < best) best = h.tag;
        }
        any = ibcc_arbiter_pick_any(&a, &g);
        if (best == UINT64_MAX) { if (any) bad++; }
        else if (!any || g.tag != best) bad++;
    }
    return bad;
}

static void test_pick_any_matches_pick(void)
{
    T_EQ(any_vs_pick(6, 2000, 20, 5), 0);
    T_EQ(any_vs_pick(70, 100, 300, 6), 0);
}

/* RR on 130 ports (three bitmap words) against a direct model: pointer
   per output, first input at or after it whose head is for the output. */
static void test_rr_wide_random(void)
{
    ibcc_arbiter a;
    ibcc_arbiter_desc d;
    ibcc_rng r;
    static unsigned qo[130][3], ql[130], rrp[130];
    static uint64_t qt[130][3];
    uint64_t tag = 0;
    int i, bad = 0, grants = 0;
    memset(&d, 0, sizeof d);
    d.ports = 130;
    d.capacity = 3;
    d.policy = IBCC_ARB_RR;
    T_EQ(ibcc_arbiter_init(&a, &d, mem_, t_size_arbiter(&d)), IBCC_OK);
    memset(ql, 0, sizeof ql);
    memset(rrp, 0, sizeof rrp);
    ibcc_rng_seed(&r, 77);
    for (i = 0; i < 20000; i++) {
        unsigned in = (unsigned)ibcc_rng_below(&r, 130);
        unsigned o = (unsigned)ibcc_rng_below(&r, 4) * 40u + (unsigned)ibcc_rng_below(&r, 3);
        if (ibcc_rng_below(&r, 2) && ql[in] < 3) {
            if (ibcc_arbiter_push(&a, in, o, 1, tag) != IBCC_OK) bad++;
            qo[in][ql[in]] = o; qt[in][ql[in]] = tag; ql[in]++; tag++;
        } else {
            ibcc_arb_grant g;
            unsigned j, win = 999;
            int got;
            for (j = 0; j < 130; j++) {
                unsigned c = (rrp[o] + j) % 130u;
                if (ql[c] && qo[c][0] == o) { win = c; break; }
            }
            got = ibcc_arbiter_pick(&a, o, &g);
            if (win == 999) { if (got) bad++; continue; }
            if (!got || g.in != win || g.tag != qt[win][0]) { bad++; continue; }
            grants++;
            ibcc_arbiter_set_input_busy(&a, g.in, 0);
            rrp[o] = (win + 1u) % 130u;
            for (j = 0; j + 1u < ql[win]; j++) {
                qo[win][j] = qo[win][j + 1u]; qt[win][j] = qt[win][j + 1u];
            }
            ql[win]--;
        }
    }
    T_EQ(bad, 0);
    T_CHECK(grants > 2000);
}

/* Against the rule written directly (docs/scenarios.md (A) plus per-output
   order): entry k of a free input is eligible iff its output can take it,
   no older entry of its buffer has the same output, and k == 0 or (OLDEST,
   head bypassed < limit, and no older entry j is first for its output and
   able to go). pick_any = oldest eligible; pick(o) = oldest eligible for o.
   Sizes matter: each output takes packets up to a random size. */
typedef struct lim { uint32_t max[10]; } lim;
static int lim_cb(void *user, unsigned out, unsigned in, uint32_t size)
{
    (void)in;
    return size <= ((lim *)user)->max[out];
}

static int rule_eligible(const ibcc_arbiter *a, const lim *L, unsigned in,
                         uint32_t k)
{
    unsigned o, o2;
    uint32_t sz, sz2, j, i;
    ibcc_arbiter_peek(a, in, k, &o, &sz, NULL);
    if (ibcc_arbiter_input_busy(a, in) || sz > L->max[o]) return 0;
    for (j = 0; j < k; j++) {
        int first = 1;
        ibcc_arbiter_peek(a, in, j, &o2, &sz2, NULL);
        if (o2 == o) return 0;
        for (i = 0; i < j; i++) {
            unsigned o3;
            ibcc_arbiter_peek(a, in, i, &o3, NULL, NULL);
            if (o3 == o2) first = 0;
        }
        if (first && sz2 <= L->max[o2]) return 0;
    }
    if (k == 0) return 1;
    return a->d.policy == IBCC_ARB_OLDEST &&
           ibcc_arbiter_head_bypassed(a, in) < a->d.bypass_limit;
}

static void test_rule_random(void)
{
    ibcc_rng r;
    lim L;
    int round, bad = 0, grants = 0, bypassed = 0;
    ibcc_rng_seed(&r, 314);
    for (round = 0; round < 300; round++) {
        ibcc_arbiter a;
        ibcc_arbiter_desc d;
        unsigned i, step;
        uint64_t tag = 0;
        memset(&d, 0, sizeof d);
        d.ports = 10;
        d.capacity = 6;
        d.bypass_limit = 1u + (uint32_t)ibcc_rng_below(&r, 3);
        d.policy = ibcc_rng_below(&r, 4) ? IBCC_ARB_OLDEST : IBCC_ARB_FIFO;
        d.can_send = lim_cb;
        d.user = &L;
        T_EQ(ibcc_arbiter_init(&a, &d, mem_, t_size_arbiter(&d)), IBCC_OK);
        for (step = 0; step < 200; step++) {
            unsigned act = (unsigned)ibcc_rng_below(&r, 10);
            for (i = 0; i < 10; i++)
                L.max[i] = ibcc_rng_below(&r, 3) ? 2000u : (uint32_t)ibcc_rng_below(&r, 2000);
            if (act < 5) {
                unsigned in = (unsigned)ibcc_rng_below(&r, 10);
                (void)ibcc_arbiter_push(&a, in, (unsigned)ibcc_rng_below(&r, 10),
                                        1u + (uint32_t)ibcc_rng_below(&r, 2000), tag++);
            } else if (act < 7) {
                ibcc_arbiter_set_input_busy(&a, (unsigned)ibcc_rng_below(&r, 10), 0);
            } else {
                int any = act == 9;
                unsigned want = (unsigned)ibcc_rng_below(&r, 10), bin = 0;
                uint64_t best = UINT64_MAX;
                ibcc_arb_grant g;
                int got;
                for (i = 0; i < 10; i++) {
                    uint32_t k;
                    for (k = 0; k < ibcc_arbiter_len(&a, i); k++) {
                        unsigned o;
                        uint64_t t;
                        ibcc_arbiter_peek(&a, i, k, &o, NULL, &t);
                        if ((any || o == want) && t < best && rule_eligible(&a, &L, i, k)) {
                            best = t; bin = i;
                        }
                    }
                }
                got = any ? ibcc_arbiter_pick_any(&a, &g) : ibcc_arbiter_pick(&a, want, &g);
                if (best == UINT64_MAX) { if (got) bad++; continue; }
                if (!got || g.tag != best || g.in != bin) { bad++; continue; }
                grants++;
                bypassed += g.bypassed;
            }
        }
    }
    T_EQ(bad, 0);
    T_CHECK(grants > 5000);
    T_CHECK(bypassed > 500);
}

/* VOQ: per-output queues in each input buffer, round robin over inputs
   per output; a blocked head never blocks packets for other outputs, and
   there is no bypass limit. */
static void test_voq(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    unsigned k;
    ibcc_arbiter_desc d;
    memset(&d, 0, sizeof d);
    d.policy = IBCC_ARB_VOQ;
    d.ports = 3;
    d.capacity = 16;
    T_EQ(ibcc_arbiter_init(&a, &d, mem_, t_size_arbiter(&d)), IBCC_OK);
    T_STREQ(ibcc_arb_policy_name(IBCC_ARB_VOQ), "voq");
    ibcc_arbiter_push(&a, 0, 1, 1, 'a');
    ibcc_arbiter_push(&a, 0, 2, 1, 'b');
    ibcc_arbiter_push(&a, 0, 2, 1, 'c');
    ibcc_arbiter_push(&a, 1, 2, 1, 'd');
    ibcc_arbiter_set_output(&a, 1, 0);           /* a's output blocked */
    T_EQ(pick(&a, 1), -1);
    T_EQ(pick(&a, 2), 'b');                      /* passes head a */
    ibcc_arbiter_set_input_busy(&a, 0, 0);
    T_EQ(pick(&a, 2), 'd');                      /* round robin: input 1 */
    ibcc_arbiter_set_input_busy(&a, 1, 0);
    T_EQ(pick(&a, 2), 'c');
    ibcc_arbiter_set_input_busy(&a, 0, 0);
    /* no bypass limit: 10 packets for output 2 pass the blocked head */
    for (k = 0; k < 10; k++) ibcc_arbiter_push(&a, 0, 2, 1, 100 + k);
    for (k = 0; k < 10; k++) {
        T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);
        T_EQU(g.tag, 100 + k);
        ibcc_arbiter_set_input_busy(&a, 0, 0);
    }
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 0);
    ibcc_arbiter_set_output(&a, 1, 1);
    T_EQ(pick(&a, 1), 'a');
    T_EQU(ibcc_arbiter_len(&a, 0), 0);
}

/* Closed outputs: refused without asking the callback (or the bitmap),
   inputs whose packets all wait for closed outputs are not read; opened
   again, the callback decides. */
typedef struct percall { int calls[4]; } percall;
static int count_cb(void *user, unsigned out, unsigned in, uint32_t size)
{
    percall *c = (percall *)user;
    (void)in; (void)size;
    c->calls[out]++;
    return 1;
}
static void test_close_output(void)
{
    ibcc_arbiter a;
    ibcc_arb_grant g;
    percall c;
    memset(&c, 0, sizeof c);
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, count_cb, &c), IBCC_OK);
    T_EQ(ibcc_arbiter_close_output(&a, 4, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_arbiter_close_output(NULL, 0, 1), IBCC_ERR_NULL);
    ibcc_arbiter_push(&a, 0, 1, 100, 'a');
    ibcc_arbiter_push(&a, 0, 3, 100, 'b');
    ibcc_arbiter_push(&a, 1, 1, 100, 'c');
    T_EQ(ibcc_arbiter_close_output(&a, 1, 1), IBCC_OK);
    /* a's output is closed: b passes it, c (only for 1) is not read */
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 1);
    T_EQ(g.tag, 'b');
    T_EQ(g.bypassed, 1);
    T_EQ(c.calls[1], 0);
    T_EQ(c.calls[3], 1);
    ibcc_arbiter_set_input_busy(&a, 0, 0);
    T_EQ(ibcc_arbiter_pick_any(&a, &g), 0);
    T_EQ(pick(&a, 1), -1);
    T_EQ(c.calls[1], 0);
    T_EQ(ibcc_arbiter_close_output(&a, 1, 0), IBCC_OK);
    T_EQ(pick(&a, 1), 'a');
    T_CHECK(c.calls[1] > 0);
    /* bitmap mode: closed beats an output that can take */
    T_EQ(mk(&a, IBCC_ARB_OLDEST, 4, 0, NULL, NULL), IBCC_OK);
    ibcc_arbiter_push(&a, 0, 2, 1, 'x');
    ibcc_arbiter_close_output(&a, 2, 1);
    T_EQ(pick(&a, 2), -1);
    ibcc_arbiter_close_output(&a, 2, 0);
    T_EQ(pick(&a, 2), 'x');
}

int main(void)
{
    T_RUN(test_desc);
    T_RUN(test_close_output);
    T_RUN(test_push_errors);
    T_RUN(test_oldest_order);
    T_RUN(test_bypass_and_limit);
    T_RUN(test_head_count_reset);
    T_RUN(test_bypass_age);
    T_RUN(test_callback_order);
    T_RUN(test_fifo);
    T_RUN(test_rr);
    T_RUN(test_rr_pick_any);
    T_RUN(test_pick_any_until_idle);
    T_RUN(test_pick_any_matches_pick);
    T_RUN(test_rr_wide_random);
    T_RUN(test_rule_random);
    T_RUN(test_voq);
    return t_summary();
}
