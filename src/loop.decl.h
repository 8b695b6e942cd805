/* ==== L2 loop ===========================================================
   Minimal discrete-event loop: timed events on a 4-ary heap held in caller
   memory. Events at the same time run in the order they were scheduled.
   Nothing is allocated; there is no global state.

   Defaults (ibcc_loop_desc, zero means default):
   | field    | default | range          |
   | capacity | 1024    | 1 .. 2^31 - 1  |
   ====================================================================== */

typedef struct ibcc_loop ibcc_loop;

/* Event callback: `ctx` and `arg` are whatever was given when scheduling.
   The callback may schedule and cancel events. */
typedef void (*ibcc_event_fn)(ibcc_loop *loop, void *ctx, uint64_t arg);

/* Handle of a scheduled event; 0 is never a valid handle. */
typedef uint64_t ibcc_event_id;

typedef struct ibcc_loop_desc {
    uint32_t capacity;          /* maximum pending events (default 1024) */
} ibcc_loop_desc;

/* Internal heap entry (do not touch): due time and the event's slot, so
   heap comparisons read only the heap array. */
typedef struct ibcc__hent {
    ibcc_time t;                /* due time */
    uint32_t slot;              /* index of the event's slot */
    uint32_t pad;               /* unused, zero */
} ibcc__hent;

/* Internal event slot (do not touch). */
typedef struct ibcc__event {
    uint64_t seq;               /* scheduling order, ties broken by it */
    ibcc_event_fn fn;           /* NULL while the slot is free */
    void *ctx;
    uint64_t arg;
    uint32_t pos;               /* index in heap, or free-list link */
    uint32_t gen;               /* generation, part of the handle */
} ibcc__event;

struct ibcc_loop {
    ibcc_time now;              /* time of the event running or last run */
    uint64_t seq;               /* next scheduling sequence number */
    uint64_t executed;          /* events run so far */
    uint32_t cap;               /* capacity */
    uint32_t count;             /* pending events */
    uint32_t free_head;         /* first free slot */
    ibcc__hent *heap;           /* cap entries, count of them heap-ordered */
    ibcc__event *slot;          /* cap slots */
};

/* Fills zero fields of *d with defaults. IBCC_ERR_NULL / IBCC_ERR_CAPACITY. */
IBCC_API ibcc_result ibcc_loop_defaults(ibcc_loop_desc *d);
/* Bytes of memory ibcc_loop_init needs for this desc (0 if desc invalid). */
IBCC_API size_t ibcc_loop_size(const ibcc_loop_desc *d);
/* Initialises an empty loop at time 0 on caller memory `mem` of `len`
   bytes (uint64_t-aligned). Errors: NULL (l, d, mem), CAPACITY, ALIGN,
   NOMEM (len < ibcc_loop_size). */
IBCC_API ibcc_result ibcc_loop_init(ibcc_loop *l, const ibcc_loop_desc *d,
                                    void *mem, size_t len);
/* Schedules fn(l, ctx, arg) at absolute time t >= now. *id (optional)
   receives the handle. Errors: NULL (l, fn), PAST, FULL. */
IBCC_API ibcc_result ibcc_loop_at(ibcc_loop *l, ibcc_time t, ibcc_event_fn fn,
                                  void *ctx, uint64_t arg, ibcc_event_id *id);
/* Same, at now + delay. Errors as ibcc_loop_at, plus OVERFLOW. */
IBCC_API ibcc_result ibcc_loop_after(ibcc_loop *l, ibcc_time delay,
                                     ibcc_event_fn fn, void *ctx, uint64_t arg,
                                     ibcc_event_id *id);
/* Cancels a pending event. IBCC_ERR_NOT_FOUND if it already ran, was
   cancelled, or is not a handle of this loop. */
IBCC_API ibcc_result ibcc_loop_cancel(ibcc_loop *l, ibcc_event_id id);
/* Runs the earliest pending event; returns 1, or 0 if none is pending. */
IBCC_API int ibcc_loop_step(ibcc_loop *l);
/* Runs every event due at or before t, then sets now = t. Events scheduled
   at or before t by those events run too. *ran (optional) = events run.
   Errors: NULL, PAST (t < now). */
IBCC_API ibcc_result ibcc_loop_run_until(ibcc_loop *l, ibcc_time t,
                                         uint64_t *ran);
/* Runs until no event is pending; returns the number of events run. */
IBCC_API uint64_t ibcc_loop_run(ibcc_loop *l);
/* Current time and pending-event count (0 for a NULL loop; step and run
   return 0 for it too). */
IBCC_API ibcc_time ibcc_loop_now(const ibcc_loop *l);
IBCC_API uint32_t ibcc_loop_pending(const ibcc_loop *l);
/* Due time of the earliest pending event, IBCC_TIME_MAX if none (O(1)).
   Lets a caller act inline when nothing else is due at the same instant. */
IBCC_API ibcc_time ibcc_loop_next_time(const ibcc_loop *l);
