/* ==== L1 arbiter ========================================================
   Switch output arbitration as pure state. The arbiter mirrors the order of
   the packets in each input buffer of one switch (one VL): the caller
   pushes (in, out, size, tag) when a packet enters input buffer `in`, and
   asks for the next packet to start on an output; the arbiter returns
   (in, tag) and forgets the packet. The caller keeps its packets; `tag` is
   whatever identifies one to it (an index, a pointer cast to uintptr_t).
   See docs/arbiter.md.

   Policies (SCENARIOS.md §A "Switch scheduling"):
     OLDEST  (default) oldest first with bounded bypass. Age = push order at
             this switch. A packet is eligible for output o when o can take
             it now and either it is the head of its input buffer, or
             - every older packet in its buffer waits for an output that
               cannot take that packet now, and
             - the head has been bypassed fewer than bypass_limit times.
             Among eligible packets of all inputs the oldest starts. A
             packet never passes an older packet of its own buffer bound
             for the same output (per input/output order is kept, as IB's
             in-order delivery needs). The bypass count belongs to the head
             and restarts at 0 whenever a packet becomes head.
     FIFO    heads only, oldest head first (OLDEST with no bypass).
     RR      round robin over inputs, heads only: output o keeps a pointer;
             the first input at or after it whose head is bound for o (and
             fits) wins, and the pointer moves just past the winner.
   An input sends one packet at a time: a pick marks the winning input
   busy until the caller calls ibcc_arbiter_set_input_busy(a, in, 0) (when
   the packet's tail has left the buffer). Busy inputs are skipped.

   "Output o can take a packet of `size` bytes from input `in` now" comes
   from the caller, in one of two ways chosen by the desc:
     can_send != NULL  the arbiter calls can_send(user, out, in, size)
                       (non-zero = yes), e.g. "link free and downstream
                       credits >= units(size)";
     can_send == NULL  a bitmap of outputs the caller keeps up to date with
                       ibcc_arbiter_set_output(a, out, can_take) (initially
                       every output can take), sizes not considered.
   The callback is called only during picks, never stored results.

   Defaults (ibcc_arbiter_desc, zero means default):
   | field        | default | range          |
   | ports        | 8       | 1 .. 256       |
   | capacity     | 4       | 1 .. 65535     |
   | policy       | OLDEST  | OLDEST, FIFO, RR |
   | bypass_limit | 4       | 1 .. 65535 (OLDEST; FIFO = no bypass) |
   | can_send     | NULL    | (bitmap mode)  |
   ====================================================================== */

typedef enum ibcc_arb_policy {
    IBCC_ARB_OLDEST = 0,          /* oldest first, bounded bypass (default) */
    IBCC_ARB_FIFO = 1,            /* oldest head first, no bypass */
    IBCC_ARB_RR = 2               /* round robin over inputs, heads only */
} ibcc_arb_policy;

#define IBCC_ARBITER_MAX_PORTS 256u
#define IBCC_ARBITER_MAX_CAPACITY 65535u

/* Can output `out` take a packet of `size` bytes from input `in` now?
   Non-zero = yes. */
typedef int (*ibcc_can_send_fn)(void *user, unsigned out, unsigned in,
                                uint32_t size);

typedef struct ibcc_arbiter_desc {
    uint32_t ports;               /* inputs = outputs = ports */
    uint32_t capacity;            /* packets each input buffer can hold */
    ibcc_arb_policy policy;
    uint32_t bypass_limit;        /* OLDEST: bypasses allowed per head */
    ibcc_can_send_fn can_send;    /* NULL: output bitmap mode */
    void *user;                   /* passed to can_send */
} ibcc_arbiter_desc;

/* Result of a pick. */
typedef struct ibcc_arb_grant {
    unsigned in;                  /* input buffer the packet leaves */
    unsigned out;                 /* output it starts on */
    uint32_t size;                /* its size as pushed */
    uint64_t tag;                 /* the caller's tag as pushed */
    int bypassed;                 /* 1 if it passed its buffer's head */
} ibcc_arb_grant;

/* Internal: one queued packet. */
typedef struct ibcc__arb_entry {
    uint64_t seq;                 /* push order (age) */
    uint64_t tag;
    uint32_t size;
    uint32_t out;
} ibcc__arb_entry;

/* Internal: one input buffer (entries [0, len) in arrival order). */
typedef struct ibcc__arb_input {
    uint32_t len;
    uint32_t bypassed;            /* times the current head was bypassed */
    uint32_t busy;                /* sending a packet now */
    uint32_t pad_;
} ibcc__arb_input;

typedef struct ibcc_arbiter {
    ibcc_arbiter_desc d;          /* effective desc */
    uint64_t seq;                 /* next push order number */
    uint64_t out_ok[4];           /* bitmap mode: outputs that can take */
    ibcc__arb_input *input;       /* ports */
    ibcc__arb_entry *q;           /* q[in * capacity + k] */
    uint32_t *rr;                 /* RR: next input to consider, per output */
    uint16_t *cnt;                /* cnt[in * ports + out]: packets queued */
    uint64_t *inq;                /* inq[out * words + w]: bit `in` set when
                                     input `in` holds a packet for out */
    uint32_t rr_out;              /* RR pick_any: next output to try */
    uint32_t words;               /* 64-bit words per port bitmap */
    uint64_t grants;              /* packets picked */
    uint64_t bypasses;            /* picks that passed a head */
} ibcc_arbiter;

/* Fills zero fields with defaults. Errors: NULL; RANGE (unknown policy,
   bypass_limit above 65535); CAPACITY (ports or capacity above maximum). */
IBCC_API ibcc_result ibcc_arbiter_defaults(ibcc_arbiter_desc *d);
/* Bytes ibcc_arbiter_init needs, about
   ports * (16 + 24 * capacity + 4 + 2 * ports + 8 * ceil(ports / 64));
   0 if the desc is invalid. */
IBCC_API size_t ibcc_arbiter_size(const ibcc_arbiter_desc *d);
/* Errors: as defaults, plus NULL, ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_arbiter_init(ibcc_arbiter *a,
                                       const ibcc_arbiter_desc *d,
                                       void *mem, size_t len);

/* A packet entered input buffer `in` bound for `out`. Errors: NULL,
   RANGE (in or out >= ports), FULL (the input already holds `capacity`
   packets; nothing changes). */
IBCC_API ibcc_result ibcc_arbiter_push(ibcc_arbiter *a, unsigned in,
                                       unsigned out, uint32_t size,
                                       uint64_t tag);
/* Picks the packet that starts on output `out` now, removes it, marks its
   input busy and fills *g. Returns 1, or 0 when no packet can start on
   `out` (or out >= ports). */
IBCC_API int ibcc_arbiter_pick(ibcc_arbiter *a, unsigned out,
                               ibcc_arb_grant *g);
/* Picks the best start over all outputs at once: OLDEST/FIFO: the oldest
   eligible packet of any output; RR: outputs are tried in round-robin
   order from a rotating output pointer, the first that can start wins.
   Returns 1 (packet removed, input busy, *g filled) or 0. Calling it until
   it returns 0 (updating can_send's answers between calls as outputs
   start) is "arbitrate repeatedly until nothing more can start". */
IBCC_API int ibcc_arbiter_pick_any(ibcc_arbiter *a, ibcc_arb_grant *g);

/* Input `in` is sending (busy != 0) or free. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_arbiter_set_input_busy(ibcc_arbiter *a,
                                                 unsigned in, int busy);
/* Bitmap mode: output `out` can take packets now (can_take != 0) or not.
   Errors: NULL, RANGE. Inline-cheap; ignored when can_send is set. */
IBCC_API ibcc_result ibcc_arbiter_set_output(ibcc_arbiter *a, unsigned out,
                                             int can_take);

/* Queries (out-of-range: 0). Packets queued at `in`; times its head has
   been bypassed; whether it is busy. */
IBCC_API uint32_t ibcc_arbiter_len(const ibcc_arbiter *a, unsigned in);
IBCC_API uint32_t ibcc_arbiter_head_bypassed(const ibcc_arbiter *a,
                                             unsigned in);
IBCC_API int ibcc_arbiter_input_busy(const ibcc_arbiter *a, unsigned in);
/* k-th queued packet of `in` (0 = head): fills out/size/tag (each
   optional). Errors: NULL, RANGE (in >= ports or k >= len). */
IBCC_API ibcc_result ibcc_arbiter_peek(const ibcc_arbiter *a, unsigned in,
                                       uint32_t k, unsigned *out,
                                       uint32_t *size, uint64_t *tag);
/* Policy name ("oldest", "fifo", "rr"), "?" if unknown. */
IBCC_API const char *ibcc_arb_policy_name(ibcc_arb_policy p);
