/* ---- L2 loop: implementation ------------------------------------------

   Memory (one block from the caller, uint64_t-aligned):
       [ cap x ibcc__hent heap entries ][ cap x ibcc__event slots ]
   A pending event owns one slot (callback, ctx, arg, seq, generation) and
   one heap entry (due time, slot index); slot.pos is the entry's heap
   index, kept up to date on every move so cancel can find it. A free slot
   has fn == NULL and is on a singly linked free list through slot.pos
   (last-in first-out, so the slot just released by a running event is the
   one its callback reuses: warm in cache).

   Heap: 4-ary, ordered by (t, seq) ascending, so same-time events pop in
   scheduling order (seq is a 64-bit counter: it does not wrap in practice).
   Entries carry t, so comparisons read only the heap array; seq is read
   from the slots on equal times only. Measured with bench/bench_loop.c
   (hold model) against a binary heap of slot indices and a binary keyed
   heap: the 4-ary keyed heap was fastest from N = 16 to N = 2^20 (about
   1.8x the index heap at N = 1024, 1.5x at N = 2^20); see docs/loop.md.
       parent(i) = (i - 1) / 4,  children(i) = 4i + 1 .. 4i + 4

   Handle: ((uint64_t)gen << 32) | slot. gen is bumped each time the slot
   is released (run or cancelled), skipping 0, so a handle is never 0 and a
   stale handle no longer matches its slot (a slot would have to be reused
   2^32 - 1 times for a stale handle to match again). Every slot's first
   gen is a hash of the memory address and capacity, so a handle of another
   loop is rejected too, except by a 2^-32-scale coincidence. */

#define IBCC__LOOP_CAP_MAX  UINT32_C(0x7fffffff)
#define IBCC__LOOP_CAP_DEF  UINT32_C(1024)
#define IBCC__LOOP_NONE     UINT32_C(0xffffffff)
#define IBCC__LOOP_ARITY    4u

IBCC_API ibcc_result ibcc_loop_defaults(ibcc_loop_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->capacity == 0) d->capacity = IBCC__LOOP_CAP_DEF;
    if (d->capacity > IBCC__LOOP_CAP_MAX) return IBCC_ERR_CAPACITY;
    return IBCC_OK;
}

IBCC_API size_t ibcc_loop_size(const ibcc_loop_desc *d)
{
    ibcc_loop_desc e;
    size_t per = sizeof(ibcc__hent) + sizeof(ibcc__event);
    if (!d) return 0;
    e = *d;
    if (ibcc_loop_defaults(&e) != IBCC_OK) return 0;
    if ((size_t)e.capacity > ((size_t)-1) / per) return 0; /* 32-bit size_t */
    return (size_t)e.capacity * per;
}

/* Heap entry a runs before b: earlier time, or same time and scheduled
   earlier. */
static int ibcc__loop_less(const ibcc_loop *l, const ibcc__hent *a,
                           const ibcc__hent *b)
{
    if (a->t != b->t) return a->t < b->t;
    return l->slot[a->slot].seq < l->slot[b->slot].seq;
}

/* Places entry x at heap index i or above (the hole at i moves up). */
static void ibcc__loop_up(ibcc_loop *l, uint32_t i, ibcc__hent x)
{
    ibcc__hent *h = l->heap;
    ibcc__event *s = l->slot;
    while (i > 0) {
        uint32_t p = (i - 1u) / IBCC__LOOP_ARITY;
        if (!ibcc__loop_less(l, &x, &h[p])) break;
        h[i] = h[p];
        s[h[i].slot].pos = i;
        i = p;
    }
    h[i] = x;
    s[x.slot].pos = i;
}

/* Places entry x at heap index i or below (the hole at i moves down). */
static void ibcc__loop_down(ibcc_loop *l, uint32_t i, ibcc__hent x)
{
    ibcc__hent *h = l->heap;
    ibcc__event *s = l->slot;
    uint32_t n = l->count;
    for (;;) {
        uint64_t first = (uint64_t)IBCC__LOOP_ARITY * i + 1u; /* no wrap */
        uint32_t c, j, end;
        if (first >= n) break;
        c = (uint32_t)first;
        end = (n - c > IBCC__LOOP_ARITY) ? c + IBCC__LOOP_ARITY : n;
        for (j = c + 1u; j < end; j++)     /* least of the children */
            if (ibcc__loop_less(l, &h[j], &h[c])) c = j;
        if (!ibcc__loop_less(l, &h[c], &x)) break;
        h[i] = h[c];
        s[h[i].slot].pos = i;
        i = c;
    }
    h[i] = x;
    s[x.slot].pos = i;
}

/* Removes heap index i (< count): the last entry fills the hole and moves
   up or down to its place. */
static void ibcc__loop_remove_at(ibcc_loop *l, uint32_t i)
{
    ibcc__hent last;
    l->count--;
    if (i == l->count) return;
    last = l->heap[l->count];
    if (i > 0 && ibcc__loop_less(l, &last,
                                 &l->heap[(i - 1u) / IBCC__LOOP_ARITY]))
        ibcc__loop_up(l, i, last);
    else
        ibcc__loop_down(l, i, last);
}

/* Returns slot k to the free list and invalidates its handles. */
static void ibcc__loop_release(ibcc_loop *l, uint32_t k)
{
    ibcc__event *e = &l->slot[k];
    e->fn = NULL;
    e->ctx = NULL;
    e->gen++;
    if (e->gen == 0) e->gen = 1;
    e->pos = l->free_head;
    l->free_head = k;
}

IBCC_API ibcc_result ibcc_loop_init(ibcc_loop *l, const ibcc_loop_desc *d,
                                    void *mem, size_t len)
{
    ibcc_loop_desc e;
    size_t need;
    uint32_t k, gen0;
    uint64_t h;
    if (!l || !d || !mem) return IBCC_ERR_NULL;
    e = *d;
    if (ibcc_loop_defaults(&e) != IBCC_OK) return IBCC_ERR_CAPACITY;
    need = ibcc_loop_size(&e);
    if (need == 0) return IBCC_ERR_CAPACITY;
    if (((uintptr_t)mem) % sizeof(uint64_t) != 0) return IBCC_ERR_ALIGN;
    if (len < need) return IBCC_ERR_NOMEM;
    /* first generation of this loop's slots: multiplicative hash (golden
       ratio constant) of address and capacity, top 32 bits, never 0 */
    h = ((uint64_t)(uintptr_t)mem ^ ((uint64_t)e.capacity << 40))
        * UINT64_C(0x9E3779B97F4A7C15);
    gen0 = (uint32_t)(h >> 32);
    if (gen0 == 0) gen0 = 1;
    l->now = 0;
    l->seq = 0;
    l->executed = 0;
    l->cap = e.capacity;
    l->count = 0;
    l->free_head = 0;
    l->heap = (ibcc__hent *)mem;
    l->slot = (ibcc__event *)(void *)((unsigned char *)mem
                                      + (size_t)e.capacity * sizeof(ibcc__hent));
    for (k = 0; k < e.capacity; k++) {
        ibcc__event *s = &l->slot[k];
        s->seq = 0;
        s->fn = NULL;
        s->ctx = NULL;
        s->arg = 0;
        s->gen = gen0;
        s->pos = (k + 1u < e.capacity) ? k + 1u : IBCC__LOOP_NONE;
        l->heap[k].t = 0;
        l->heap[k].slot = 0;
        l->heap[k].pad = 0;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_loop_at(ibcc_loop *l, ibcc_time t, ibcc_event_fn fn,
                                  void *ctx, uint64_t arg, ibcc_event_id *id)
{
    uint32_t k;
    ibcc__event *e;
    ibcc__hent x;
    if (id) *id = 0;
    if (!l || !fn) return IBCC_ERR_NULL;
    if (t < l->now) return IBCC_ERR_PAST;
    if (l->count >= l->cap) return IBCC_ERR_FULL;
    k = l->free_head;
    e = &l->slot[k];
    l->free_head = e->pos;
    e->seq = l->seq++;
    e->fn = fn;
    e->ctx = ctx;
    e->arg = arg;
    x.t = t;
    x.slot = k;
    x.pad = 0;
    l->count++;
    ibcc__loop_up(l, l->count - 1u, x);
    if (id) *id = ((uint64_t)e->gen << 32) | k;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_loop_after(ibcc_loop *l, ibcc_time delay,
                                     ibcc_event_fn fn, void *ctx, uint64_t arg,
                                     ibcc_event_id *id)
{
    if (id) *id = 0;
    if (!l || !fn) return IBCC_ERR_NULL;
    if (delay > IBCC_TIME_MAX - l->now) return IBCC_ERR_OVERFLOW;
    return ibcc_loop_at(l, l->now + delay, fn, ctx, arg, id);
}

IBCC_API ibcc_result ibcc_loop_cancel(ibcc_loop *l, ibcc_event_id id)
{
    uint32_t k, gen;
    ibcc__event *e;
    if (!l) return IBCC_ERR_NULL;
    k = (uint32_t)(id & 0xffffffffu);
    gen = (uint32_t)(id >> 32);
    if (gen == 0 || k >= l->cap) return IBCC_ERR_NOT_FOUND;
    e = &l->slot[k];
    if (e->gen != gen || e->fn == NULL) return IBCC_ERR_NOT_FOUND;
    ibcc__loop_remove_at(l, e->pos);
    ibcc__loop_release(l, k);
    return IBCC_OK;
}

IBCC_API int ibcc_loop_step(ibcc_loop *l)
{
    uint32_t k;
    ibcc__event *e;
    ibcc_event_fn fn;
    void *ctx;
    uint64_t arg;
    if (!l || l->count == 0) return 0;
    k = l->heap[0].slot;
    e = &l->slot[k];
    fn = e->fn;
    ctx = e->ctx;
    arg = e->arg;
    l->now = l->heap[0].t;
    ibcc__loop_remove_at(l, 0);
    ibcc__loop_release(l, k); /* before the call: the callback may reuse it */
    l->executed++;
    fn(l, ctx, arg);
    return 1;
}

IBCC_API ibcc_result ibcc_loop_run_until(ibcc_loop *l, ibcc_time t,
                                         uint64_t *ran)
{
    uint64_t n = 0;
    if (ran) *ran = 0;
    if (!l) return IBCC_ERR_NULL;
    if (t < l->now) return IBCC_ERR_PAST;
    while (l->count > 0 && l->heap[0].t <= t) {
        ibcc_loop_step(l);
        n++;
    }
    l->now = t;
    if (ran) *ran = n;
    return IBCC_OK;
}

IBCC_API uint64_t ibcc_loop_run(ibcc_loop *l)
{
    uint64_t n = 0;
    while (ibcc_loop_step(l)) n++;
    return n;
}

IBCC_API ibcc_time ibcc_loop_now(const ibcc_loop *l)
{
    return l ? l->now : 0;
}

IBCC_API uint32_t ibcc_loop_pending(const ibcc_loop *l)
{
    return l ? l->count : 0;
}

IBCC_API ibcc_time ibcc_loop_next_time(const ibcc_loop *l)
{
    return (l && l->count) ? l->heap[0].t : IBCC_TIME_MAX;
}
