/* Fuzz harness: the event loop (ibcc_loop) against a reference that keeps
   the pending events in a plain array and always runs the one with the
   smallest (time, scheduling order).

   Input: a capacity (possibly invalid), then operations: schedule at an
   absolute time (some in the past) or after a delay (some overflowing),
   cancel (pending, already run or cancelled, and made-up handles), step,
   run_until (some in the past), run, and queries. Events carry an action
   in their argument; when they run they may schedule a child event (also
   at the same instant), cancel another pending event, try to cancel
   themselves or to schedule in the past, so callbacks change the heap
   while it runs.

   Checked: every callback is the reference's next event (argument and
   time), with ibcc_loop_now equal to its time; result codes (PAST, FULL,
   OVERFLOW, NOT_FOUND; a handle is never 0 and is 0 after a failure);
   pending counts, next_time, now, the number of events run by run_until
   and run, that run_until leaves no event at or before its time, and that
   a handle stays invalid once its event ran or was cancelled even after
   its slot is reused. */
#include "fuzz.h"

#define MAXCAP 256
#define MEV 4096

typedef struct rev { ibcc_time t; uint64_t seq, arg; ibcc_event_id id; } rev;

typedef struct st {
    ibcc_loop loop;
    rev ev[MAXCAP + 8];              /* pending, unordered */
    uint32_t n, cap;
    uint64_t seq, uid, ran;
    ibcc_event_id dead[64];          /* handles of events that ran or were cancelled */
    uint32_t ndead;
    int budget;                      /* children callbacks may still schedule */
} st;

static st s_;

static void add_dead(ibcc_event_id id)
{
    s_.dead[s_.ndead % 64u] = id;
    s_.ndead++;
}

static int ref_min(void)
{
    uint32_t i;
    int b = -1;
    for (i = 0; i < s_.n; i++)
        if (b < 0 || s_.ev[i].t < s_.ev[b].t
            || (s_.ev[i].t == s_.ev[b].t && s_.ev[i].seq < s_.ev[b].seq))
            b = (int)i;
    return b;
}

static void ref_remove(uint32_t i)
{
    s_.ev[i] = s_.ev[s_.n - 1u];
    s_.n--;
}

static void cb(ibcc_loop *l, void *ctx, uint64_t arg);

/* schedule through the loop and the reference; checks the result code */
static void sched(ibcc_time t, int after, ibcc_time delay, uint64_t action)
{
    ibcc_loop *l = &s_.loop;
    ibcc_event_id id = 12345;
    uint64_t arg = (++s_.uid << 16) | (action & 0xffffu);
    ibcc_result r, want = IBCC_OK;
    ibcc_time when = t;
    if (after) {
        if (delay > UINT64_MAX - l->now) want = IBCC_ERR_OVERFLOW;
        else when = l->now + delay;
    }
    if (want == IBCC_OK) {
        if (when < ibcc_loop_now(l)) want = IBCC_ERR_PAST;
        else if (s_.n >= s_.cap) want = IBCC_ERR_FULL;
    }
    r = after ? ibcc_loop_after(l, delay, cb, &s_, arg, &id)
              : ibcc_loop_at(l, t, cb, &s_, arg, &id);
    FZ_CHECK(r == want, "schedule at %llu (now %llu, pending %u/%u): %d, reference %d",
             (unsigned long long)when, (unsigned long long)ibcc_loop_now(l), s_.n, s_.cap,
             (int)r, (int)want);
    if (r != IBCC_OK) { FZ_CHECK(id == 0, "handle %llu after a failure", (unsigned long long)id); return; }
    FZ_CHECK(id != 0, "handle 0");
    s_.ev[s_.n].t = when;
    s_.ev[s_.n].seq = s_.seq++;
    s_.ev[s_.n].arg = arg;
    s_.ev[s_.n].id = id;
    s_.n++;
}

static void cancel_index(uint32_t i)
{
    ibcc_event_id id = s_.ev[i].id;
    FZ_CHECK(ibcc_loop_cancel(&s_.loop, id) == IBCC_OK, "cancel of a pending event");
    ref_remove(i);
    add_dead(id);
    FZ_CHECK(ibcc_loop_cancel(&s_.loop, id) == IBCC_ERR_NOT_FOUND, "second cancel");
}

static void cb(ibcc_loop *l, void *ctx, uint64_t arg)
{
    st *s = (st *)ctx;
    int b = ref_min();
    unsigned act = (unsigned)(arg & 0xffffu);
    ibcc_event_id self;
    FZ_CHECK(s == &s_ && l == &s_.loop, "callback context");
    FZ_CHECK(b >= 0, "an event ran while the reference has none pending");
    FZ_CHECK(s_.ev[b].arg == arg, "ran event %llu, reference expects %llu",
             (unsigned long long)(arg >> 16), (unsigned long long)(s_.ev[b].arg >> 16));
    FZ_CHECK(ibcc_loop_now(l) == s_.ev[b].t, "now %llu at an event due %llu",
             (unsigned long long)ibcc_loop_now(l), (unsigned long long)s_.ev[b].t);
    self = s_.ev[b].id;
    ref_remove((uint32_t)b);
    add_dead(self);
    s_.ran++;
    FZ_CHECK(ibcc_loop_pending(l) == s_.n, "pending inside a callback");
    /* actions: bit 0 child, bits 1..3 its delay (0 = same instant), bit 4
       cancel the pending event chosen by bits 8..15, bit 5 cancel itself,
       bit 6 schedule in the past */
    if ((act & 0x20u))
        FZ_CHECK(ibcc_loop_cancel(l, self) == IBCC_ERR_NOT_FOUND, "a running event cancelled itself");
    if ((act & 0x10u) && s_.n > 0) cancel_index((act >> 8) % s_.n);
    if ((act & 0x40u) && ibcc_loop_now(l) > 0) {
        ibcc_event_id id = 7;
        FZ_CHECK(ibcc_loop_at(l, ibcc_loop_now(l) - 1u, cb, s, 0, &id) == IBCC_ERR_PAST && id == 0,
                 "schedule in the past from a callback");
    }
    if ((act & 1u) && s_.budget > 0) {
        s_.budget--;
        sched(0, 1, (act >> 1) & 7u, (act & 0xff00u) | (act & 0x70u));   /* no grandchild */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t mem[(MAXCAP * 64) / 8];
    fz f;
    ibcc_loop_desc d;
    ibcc_result r;
    size_t need;
    ibcc_result rs;
    unsigned ops = 0;

    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    {
        uint8_t c = fz_u8(&f);
        d.capacity = c == 255 ? UINT32_C(0x80000000) : fz_range(&f, 1, MAXCAP);
        if (c == 254) d.capacity = 0;                         /* default 1024: too big here */
    }
    rs = ibcc_loop_size(&d, &need);
    if (d.capacity == UINT32_C(0x80000000)) {
        FZ_CHECK(rs == IBCC_ERR_CAPACITY && need == 0, "size of an invalid capacity");
        FZ_CHECK(ibcc_loop_init(&s_.loop, &d, mem, sizeof mem) == IBCC_ERR_CAPACITY, "init capacity");
        return 0;
    }
    FZ_CHECK(rs == IBCC_OK && need > 0, "size of a valid loop: %d", (int)rs);
    if (need > sizeof mem) {
        FZ_CHECK(ibcc_loop_init(&s_.loop, &d, mem, sizeof mem) == IBCC_ERR_NOMEM, "init NOMEM");
        return 0;
    }
    memset(&s_, 0, sizeof s_);
    r = ibcc_loop_init(&s_.loop, &d, mem, sizeof mem);
    FZ_CHECK(r == IBCC_OK, "init %d", (int)r);
    s_.cap = d.capacity;
    s_.budget = 400;

    while (fz_more(&f) && ops++ < 4000u) {
        uint8_t op = fz_u8(&f);
        ibcc_loop *l = &s_.loop;
        ibcc_time now = ibcc_loop_now(l);
        switch (op % 8u) {
        case 0: case 1: {                                     /* at */
            uint8_t h = fz_u8(&f);
            ibcc_time t;
            if (h < 200) t = now + fz_u16(&f) % 64u;
            else if (h < 230) t = now + fz_u32(&f);
            else if (h < 250) t = now > 0 ? now - 1u - fz_u8(&f) % now : 0;
            else t = UINT64_MAX - fz_u8(&f);
            sched(t, 0, 0, fz_u16(&f));
            break;
        }
        case 2: {                                             /* after */
            uint8_t h = fz_u8(&f);
            ibcc_time dl = h < 220 ? fz_u16(&f) % 64u : (h < 250 ? fz_u32(&f) : UINT64_MAX - fz_u8(&f));
            sched(0, 1, dl, fz_u16(&f));
            break;
        }
        case 3: {                                             /* cancel */
            uint8_t h = fz_u8(&f);
            if (h < 128 && s_.n > 0) cancel_index(fz_below(&f, s_.n));
            else if (h < 220 && s_.ndead > 0) {
                ibcc_event_id id = s_.dead[fz_below(&f, s_.ndead < 64 ? s_.ndead : 64)];
                FZ_CHECK(ibcc_loop_cancel(l, id) == IBCC_ERR_NOT_FOUND, "cancel of a dead handle");
            } else {
                ibcc_event_id id = fz_u64(&f);
                uint32_t i, pending = 0;
                for (i = 0; i < s_.n; i++) if (s_.ev[i].id == id) pending = 1;
                if (!pending)
                    FZ_CHECK(ibcc_loop_cancel(l, id) == IBCC_ERR_NOT_FOUND, "cancel of a made-up handle");
            }
            break;
        }
        case 4: {                                             /* step */
            uint64_t before = s_.ran;
            int want = s_.n > 0, got = ibcc_loop_step(l);
            FZ_CHECK(got == want, "step %d, reference %d", got, want);
            FZ_CHECK(s_.ran == before + (uint64_t)got, "step ran %llu callbacks",
                     (unsigned long long)(s_.ran - before));
            break;
        }
        case 5: {                                             /* run_until */
            uint8_t h = fz_u8(&f);
            ibcc_time t = h < 240 ? now + fz_u16(&f) % 200u : (now > 0 ? now - 1u : 0);
            uint64_t before = s_.ran, ran = 99;
            uint32_t i;
            r = ibcc_loop_run_until(l, t, &ran);
            if (t < now) {
                FZ_CHECK(r == IBCC_ERR_PAST && ran == 0, "run_until in the past");
                break;
            }
            FZ_CHECK(r == IBCC_OK, "run_until %d", (int)r);
            FZ_CHECK(ran == s_.ran - before, "run_until ran %llu, callbacks %llu",
                     (unsigned long long)ran, (unsigned long long)(s_.ran - before));
            for (i = 0; i < s_.n; i++)
                FZ_CHECK(s_.ev[i].t > t, "an event due at %llu left after run_until(%llu)",
                         (unsigned long long)s_.ev[i].t, (unsigned long long)t);
            FZ_CHECK(ibcc_loop_now(l) == t, "now after run_until");
            break;
        }
        case 6: {                                             /* run */
            uint64_t before = s_.ran, n;
            if (s_.n > 64) break;
            n = ibcc_loop_run(l);
            FZ_CHECK(n == s_.ran - before && s_.n == 0, "run ran %llu, callbacks %llu, left %u",
                     (unsigned long long)n, (unsigned long long)(s_.ran - before), s_.n);
            break;
        }
        default: {                                            /* misuse */
            ibcc_event_id id = 5;
            FZ_CHECK(ibcc_loop_at(l, now, NULL, NULL, 0, &id) == IBCC_ERR_NULL && id == 0,
                     "NULL callback");
            FZ_CHECK(ibcc_loop_step(NULL) == 0 && ibcc_loop_pending(NULL) == 0, "NULL loop");
            break;
        }
        }
        {
            int b = ref_min();
            FZ_CHECK(ibcc_loop_pending(l) == s_.n, "pending %u, reference %u",
                     ibcc_loop_pending(l), s_.n);
            FZ_CHECK(ibcc_loop_next_time(l) == (b < 0 ? IBCC_TIME_MAX : s_.ev[b].t), "next_time");
            FZ_CHECK(ibcc_loop_now(l) >= now, "time went back");
            FZ_CHECK(l->executed == s_.ran, "executed count");
        }
    }
    return 0;
}
