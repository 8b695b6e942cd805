/* ==== L1 pacer ==========================================================
   Per-flow injection control [S03 §IV-B]: a window limit (packets sent and
   not yet acknowledged) AND a rate limit (from a rate law, a fixed rate, or
   none). After a packet that took tau to transmit and started at s, the
   next may start at
       next = s + tau + gap(tau)          gap = tau * (Rmax/r - 1)
   with r the rate limit's CURRENT rate (so an ACK that lowers the rate
   between two sends lengthens the pending gap), and only while fewer than
   `window` packets are outstanding. The pacer only computes; the caller
   owns the clock and the packets.

   Granularity: one ibcc_pacer per flow (window, outstanding count, last
   send; it points at the flow's ibcc_law, which the caller owns). Optional
   persistent state [S03 §VI-B.2] lives in a separate ibcc_pairstate store
   keyed by (source, destination) in caller memory: save a flow's law state
   when it ends, load it when the pair's next flow starts (a pair never
   seen starts at Rmax).

   Defaults (ibcc_pacer_desc, zero means default):
   | field  | default | range                                             |
   | window | 1       | 1 .. 2^32-2, or IBCC_PACER_NO_WINDOW (no limit)   |
   | law    | NULL    | an initialised ibcc_law (rate from the law)       |
   | rate   | 0       | fixed rate, bytes/s, 1 .. rmax (0: none)          |
   | rmax   | 0       | line rate, bytes/s; required with `rate`          |
   At most one of law and rate; neither means no rate limit (gap 0).

   Defaults (ibcc_pairstate_desc):
   | field    | default | range       |
   | capacity | 1024    | 1 .. 2^24   |  (pairs; full store: IBCC_ERR_FULL)
   ====================================================================== */

#define IBCC_PACER_NO_WINDOW UINT32_MAX

typedef struct ibcc_pacer_desc {
    uint32_t window;        /* outstanding packets allowed, default 1 */
    ibcc_law *law;          /* rate from this law (caller-owned) */
    ibcc_rate rate;         /* or a fixed rate in bytes/s */
    ibcc_rate rmax;         /* line rate (bytes/s) for `rate` */
} ibcc_pacer_desc;

typedef struct ibcc_pacer {
    uint32_t window;        /* limit, IBCC_PACER_NO_WINDOW = none */
    uint32_t outstanding;   /* sent and not yet acknowledged */
    ibcc_law *law;          /* rate source, or NULL */
    ibcc_rate rate;         /* fixed rate (bytes/s), 0 when not fixed */
    ibcc_rate rmax;         /* line rate for the fixed rate */
    int has_sent;           /* a packet has been sent since init/reset */
    ibcc_time last_start;   /* start time of the last packet sent */
    ibcc_time last_tau;     /* its wire time */
    uint64_t sent, acked;   /* counters since init/reset */
} ibcc_pacer;

/* Fills zero fields (window = 1) and validates. Errors: NULL, RANGE (rate
   > rmax; rmax 0 with rate), UNSUPPORTED (both law and rate; rmax without
   rate). */
IBCC_API ibcc_result ibcc_pacer_defaults(ibcc_pacer_desc *d);
/* Initialises an idle flow (nothing outstanding, may send at once).
   Errors: those of ibcc_pacer_defaults, NULL (p). */
IBCC_API ibcc_result ibcc_pacer_init(ibcc_pacer *p, const ibcc_pacer_desc *d);
/* Flow restart: nothing outstanding, no last send, counters 0. The law is
   NOT touched (reset it, or load it from an ibcc_pairstate). */
IBCC_API void ibcc_pacer_reset(ibcc_pacer *p);

/* Queries of a NULL pacer: gap, next, window_open, can_send 0; earliest
   IBCC_TIME_MAX.
   Rate gap after a packet of wire time tau at the current rate: law ->
   ibcc_law_gap; fixed -> ceil(tau * (rmax - rate) / rate), exact integer
   arithmetic (one 64-bit division; 128-bit product when needed), so the
   fixed rate is never exceeded; none -> 0. Saturates at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_pacer_gap(const ibcc_pacer *p, ibcc_time tau);
/* Earliest start time allowed by the rate limit alone:
   last_start + last_tau + gap(last_tau), or 0 before the first send.
   Saturates at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_pacer_next(const ibcc_pacer *p);
/* 1 when fewer than `window` packets are outstanding. */
IBCC_API int ibcc_pacer_window_open(const ibcc_pacer *p);
/* Earliest start time allowed by both limits: IBCC_TIME_MAX while the
   window is full (an ACK must come first), else ibcc_pacer_next. */
IBCC_API ibcc_time ibcc_pacer_earliest(const ibcc_pacer *p);
/* 1 when a packet may start at `now` (window open and now >= next). */
IBCC_API int ibcc_pacer_can_send(const ibcc_pacer *p, ibcc_time now);

/* A packet of wire time tau (> 0) starts at `now`. Errors (nothing
   changes): FULL (window full), PAST (now < next, or earlier than the
   previous start), RANGE (tau 0). */
IBCC_API ibcc_result ibcc_pacer_on_send(ibcc_pacer *p, ibcc_time now,
                                        ibcc_time tau);
/* An ACK for one outstanding packet arrived; steps the law (if any) with
   ibcc_law_on_ack(marked). Error: MISMATCH (nothing outstanding; the law
   is not stepped). */
IBCC_API ibcc_result ibcc_pacer_on_ack(ibcc_pacer *p, int marked);
/* Same, with the acknowledged size as a Q16.16 weight (see
   ibcc_law_on_ack_sized). */
IBCC_API ibcc_result ibcc_pacer_on_ack_sized(ibcc_pacer *p, int marked,
                                             uint32_t weight_q16);

/* ---- persistent per-(source, destination) law state -------------------
   Open-addressing hash table (linear probing, power-of-two slots, at most
   half full) in caller memory. A store holds states of laws of one
   description; ibcc_law_set_state validates each on load. */
typedef struct ibcc_pairstate_desc {
    uint32_t capacity;      /* maximum pairs, default 1024 */
} ibcc_pairstate_desc;

typedef struct ibcc__pair_slot {
    uint64_t key;           /* (src << 32) | dst */
    ibcc_law_state st;
    uint32_t used;
} ibcc__pair_slot;

typedef struct ibcc_pairstate {
    uint32_t capacity;      /* maximum pairs */
    uint32_t count;         /* pairs stored */
    uint32_t mask;          /* slots - 1 */
    ibcc__pair_slot *slot;
} ibcc_pairstate;

/* Fills zero fields; errors NULL, CAPACITY (capacity > 2^24). */
IBCC_API ibcc_result ibcc_pairstate_defaults(ibcc_pairstate_desc *d);
/* Bytes needed (0 if the desc is invalid). */
IBCC_API size_t ibcc_pairstate_size(const ibcc_pairstate_desc *d);
/* Empty store on caller memory. Errors: desc errors, NULL, ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_pairstate_init(ibcc_pairstate *ps,
                                         const ibcc_pairstate_desc *d,
                                         void *mem, size_t len);
/* Stores (or overwrites) the pair's law state, typically when its flow
   ends. Errors: NULL, FULL (a new pair and `capacity` pairs stored),
   STATE (a zeroed store that was never initialised; load too). */
IBCC_API ibcc_result ibcc_pairstate_save(ibcc_pairstate *ps, uint32_t src,
                                         uint32_t dst, const ibcc_law *l);
/* Loads the pair's saved state into l, typically when a flow starts.
   Returns OK if restored; NOT_FOUND if the pair was never saved, in which
   case l is reset to Rmax (the new-flow rule). Errors: NULL, and those of
   ibcc_law_set_state (l left at Rmax). */
IBCC_API ibcc_result ibcc_pairstate_load(const ibcc_pairstate *ps,
                                         uint32_t src, uint32_t dst,
                                         ibcc_law *l);
/* Removes every pair. */
IBCC_API void ibcc_pairstate_clear(ibcc_pairstate *ps);
