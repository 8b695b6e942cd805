/* ---- L2 loop: implementation ------------------------------------------

   Memory (one block from the caller, uint64_t-aligned):
       [ cap x ibcc__event slots ][ cap x uint32_t heap of slot indices ]
   A pending event owns one slot; slot.pos is its index in the heap. A free
   slot is on a singly linked free list through slot.pos and has fn == NULL.
   Heap order: (t, seq) ascending, so same-time events pop in scheduling
   order (seq is a 64-bit counter, it never wraps in practice).
   Handle: ((uint64_t)gen << 32) | slot. gen is bumped each time the slot
   is released (run or cancelled), skipping 0, so a handle is never 0 and a
   stale handle no longer matches its slot (a slot would have to be reused
   2^32 - 1 times for a stale handle to match again). Every slot's first
   gen is a hash of the memory address and capacity, so a handle of another
   loop is rejected too, except by a 2^-32-scale coincidence. */

#define IBCC__LOOP_CAP_MAX  UINT32_C(0x7fffffff)
#define IBCC__LOOP_CAP_DEF  UINT32_C(1024)
#define IBCC__LOOP_NONE     UINT32_C(0xffffffff)

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
    size_t per = sizeof(ibcc__event) + sizeof(uint32_t);
    if (!d) return 0;
    e = *d;
    if (ibcc_loop_defaults(&e) != IBCC_OK) return 0;
    if ((size_t)e.capacity > ((size_t)-1) / per) return 0; /* 32-bit size_t */
    return (size_t)e.capacity * per;
}

/* a before b: earlier time, or same time and scheduled earlier */
#define IBCC__LOOP_LESS(a, b) \
    ((a)->t < (b)->t || ((a)->t == (b)->t && (a)->seq < (b)->seq))

/* Moves the event in heap position i up to its place. */
static void ibcc__loop_up(ibcc_loop *l, uint32_t i)
{
    uint32_t *h = l->heap;
    ibcc__event *s = l->slot;
    uint32_t x = h[i];
    const ibcc__event *e = &s[x];
    while (i > 0) {
        uint32_t p = (i - 1u) / 2u;
        if (!IBCC__LOOP_LESS(e, &s[h[p]])) break;
        h[i] = h[p];
        s[h[i]].pos = i;
        i = p;
    }
    h[i] = x;
    s[x].pos = i;
}

/* Moves the event in heap position i down to its place. */
static void ibcc__loop_down(ibcc_loop *l, uint32_t i)
{
    uint32_t *h = l->heap;
    ibcc__event *s = l->slot;
    uint32_t n = l->count;
    uint32_t x = h[i];
    const ibcc__event *e = &s[x];
    for (;;) {
        uint32_t c = 2u * i + 1u; /* cannot wrap: i < n <= 2^31 - 1 */
        if (c >= n) break;
        if (c + 1u < n && IBCC__LOOP_LESS(&s[h[c + 1u]], &s[h[c]])) c++;
        if (!IBCC__LOOP_LESS(&s[h[c]], e)) break;
        h[i] = h[c];
        s[h[i]].pos = i;
        i = c;
    }
    h[i] = x;
    s[x].pos = i;
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

/* Removes heap position i (count > i) and re-establishes heap order. */
static void ibcc__loop_remove_at(ibcc_loop *l, uint32_t i)
{
    uint32_t last;
    l->count--;
    if (i == l->count) return;
    last = l->heap[l->count];
    l->heap[i] = last;
    l->slot[last].pos = i;
    if (i > 0 && IBCC__LOOP_LESS(&l->slot[last],
                                 &l->slot[l->heap[(i - 1u) / 2u]]))
        ibcc__loop_up(l, i);
    else
        ibcc__loop_down(l, i);
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
    /* per-loop first generation: 64-bit multiplicative hash, top 32 bits */
    h = ((uint64_t)(uintptr_t)mem ^ ((uint64_t)e.capacity << 40))
        * UINT64_C(0x9E3779B97F4A7C15);
    gen0 = (uint32_t)(h >> 32);
    if (gen0 == 0) gen0 = 1;
    l->now = 0;
    l->seq = 0;
    l->executed = 0;
    l->cap = e.capacity;
    l->count = 0;
    l->slot = (ibcc__event *)mem;
    l->heap = (uint32_t *)(void *)((unsigned char *)mem
                                   + (size_t)e.capacity * sizeof(ibcc__event));
    for (k = 0; k < e.capacity; k++) {
        ibcc__event *s = &l->slot[k];
        s->t = 0;
        s->seq = 0;
        s->fn = NULL;
        s->ctx = NULL;
        s->arg = 0;
        s->gen = gen0;
        s->pos = (k + 1u < e.capacity) ? k + 1u : IBCC__LOOP_NONE;
        l->heap[k] = 0;
    }
    l->free_head = 0;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_loop_at(ibcc_loop *l, ibcc_time t, ibcc_event_fn fn,
                                  void *ctx, uint64_t arg, ibcc_event_id *id)
{
    uint32_t k;
    ibcc__event *e;
    if (id) *id = 0;
    if (!l || !fn) return IBCC_ERR_NULL;
    if (t < l->now) return IBCC_ERR_PAST;
    if (l->count >= l->cap) return IBCC_ERR_FULL;
    k = l->free_head;
    e = &l->slot[k];
    l->free_head = e->pos;
    e->t = t;
    e->seq = l->seq++;
    e->fn = fn;
    e->ctx = ctx;
    e->arg = arg;
    l->heap[l->count] = k;
    l->count++;
    ibcc__loop_up(l, l->count - 1u);
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
    k = l->heap[0];
    e = &l->slot[k];
    fn = e->fn;
    ctx = e->ctx;
    arg = e->arg;
    l->now = e->t;
    ibcc__loop_remove_at(l, 0);
    ibcc__loop_release(l, k); /* the callback may reuse the slot */
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
    while (l->count > 0 && l->slot[l->heap[0]].t <= t) {
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
