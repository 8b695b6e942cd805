/* ==== L1 marker =========================================================
   Switch marking engines: one ibcc_marker object per switch (per virtual
   lane, if the caller models several data VLs: VLs are independent), the
   engine chosen in its desc:
     NONE          counts only, never marks (a switch without CC)
     NAIVE         [S02 §IV-A, S03 §IV-A] mark every packet in an input
                   buffer that an arrival makes full
     INPUT         [S02 §IV-B, S03 §IV-A] input-triggered: cnt1/cnt2 per
                   output, the outputs that have a packet in the full buffer
                   are triggered (cnt2 = cnt1), packets are marked as they
                   are transmitted while cnt2 > 0
     INPUT_OUTPUT  [S02 §IV-C] INPUT plus an output trigger when
                   cnt1[o] > T_out, evaluated at every arrival
     IBA           [G §II-A, IBA Annex A10] per-port Threshold (0..15),
                   root/victim test, Victim_Mask, Packet_Size, Marking_Rate
     MVPM          [F §4.1] MB on arrival above the input threshold, VB on
                   departure through a saturated output when MB is set
   See docs/marker.md for behaviour, choices and worked examples.

   Two step functions per packet (plus one for CIOQ switches):
     ibcc_marker_arrive(m, in, out, size)        packet entered input buffer
                                                 `in`, headed for `out`
     ibcc_marker_depart(m, in, out, size, hdr, out_has_credit)
                                                 packet left input buffer
                                                 `in` through output `out`
     ibcc_marker_leave(m, out, size)             CIOQ only: packet left the
                                                 output buffer onto the link
   arrive/depart return header bits (IBCC_FECN, IBCC_MB, IBCC_VB) to OR into
   the packet's header. `size` is in bytes; the buffer unit of the desc says
   how much room it takes: 1 (packets) or ceil(size / 64) (credits).

   Buffers and levels (all in the desc's unit unless "packets" is said):
     occupancy(in)  data in input buffer `in`
     cnt1[o]        PACKETS in the input buffers waiting for output o
     cnt2[o]        PACKETS still to be marked when transmitted on o
     level(o)       the queue of output o used by IBA and MVPM: in an
                    input-buffered switch (org INPUT_BUFFERED) the data
                    waiting for o in all input buffers; in a CIOQ switch
                    the data in o's output buffer (entered at depart, left
                    at ibcc_marker_leave)

   No packet is ever visited. A trigger (an arrival after which
   occupancy(in) >= trigger) walks a per-input bitmap of the outputs that
   have a packet in buffer `in` (ANDed with the busy bitmap for the BUSY
   classification) and for each such output o copies
     INPUT, INPUT_OUTPUT:  cnt2[o] = cnt1[o]
     NAIVE:                mk[in][o] = n[in][o]  (mark the next n[in][o]
                           departures in->o: exactly the packets resident
                           at the trigger when packets of one input and one
                           output leave in order, as the arbiter keeps
                           them; otherwise the same number, first to leave)
   IBA threshold weight w -> queue level: out_capacity * (16 - w) / 16.

   Events that contradict the recorded state (port out of range, a depart
   with no matching arrive, an arrival beyond the input capacity, a leave
   with no matching depart) leave the state untouched, return 0 and are
   counted: stats.errors, stats.last_error (IBCC_ERR_RANGE, IBCC_ERR_MISMATCH,
   IBCC_ERR_FULL); read them with ibcc_marker_errors(). A NULL marker is
   ignored (returns 0).

   Defaults (ibcc_marker_desc, zero means default):
   | field              | default                      | range                 |
   | engine             | NONE                         | NONE..MVPM            |
   | ports              | 8                            | 1 .. 256              |
   | unit               | PACKETS                      | PACKETS, CREDITS (64B)|
   | org                | INPUT_BUFFERED               | INPUT_BUFFERED, CIOQ  |
   | in_capacity        | 4 packets / 128 credits      | 1 .. 65535            |
   | out_capacity       | in_capacity                  | 1 .. 65535            |
   | trigger            | in_capacity (buffer full)    | 1 .. in_capacity      |
   | t_out (packets)    | 8                            | 1 .. 2^31             |
   | classify           | ALL                          | ALL, BUSY             |
   | mvpm_in_threshold  | in_capacity * 2 / 3          | 1 .. in_capacity      |
   | mvpm_out_threshold | out_capacity / 3             | 1 .. out_capacity     |
   | iba_threshold      | 0 (never mark, as IBA/OpenSM)| 0 .. 15               |
   | iba_packet_size    | 0 (every size eligible)      | 0 .. 255 (64B units)  |
   | iba_marking_rate   | 0 (mark every eligible)      | 0 .. 65535            |
   | victim_mask        | all 0                        | bits 0..ports-1       |
   | iba_rng            | NULL (deterministic counter) | caller's ibcc_rng     |
   | hold               | 0 (depart frees the room)    | 0, 1                  |
   ====================================================================== */

typedef enum ibcc_marker_engine {
    IBCC_MARKER_NONE = 0,         /* counts only, never marks (default) */
    IBCC_MARKER_NAIVE = 1,        /* [S02 §IV-A] */
    IBCC_MARKER_INPUT = 2,        /* [S02 §IV-B] input-triggered */
    IBCC_MARKER_INPUT_OUTPUT = 3, /* [S02 §IV-C] input-output-triggered */
    IBCC_MARKER_IBA = 4,          /* [G], IBA Annex A10 FECN marking */
    IBCC_MARKER_MVPM = 5          /* [F §4.1] marking + validation */
} ibcc_marker_engine;

/* Unit in which buffers, capacities and thresholds are counted. */
typedef enum ibcc_buffer_unit {
    IBCC_UNIT_PACKETS = 0,        /* one unit per packet (default) */
    IBCC_UNIT_CREDITS = 1         /* 64-byte credits: ceil(size / 64) */
} ibcc_buffer_unit;

/* Switch organisation: where the output queue level is measured. */
typedef enum ibcc_switch_org {
    IBCC_ORG_INPUT_BUFFERED = 0,  /* level(o) = data waiting for o in the
                                     input buffers (default) */
    IBCC_ORG_CIOQ = 1             /* level(o) = data in o's output buffer;
                                     depart moves a packet into it and
                                     ibcc_marker_leave takes it out */
} ibcc_switch_org;

/* Trigger classification of MECHANISMS.md §2.2 (NAIVE, INPUT,
   INPUT_OUTPUT). */
typedef enum ibcc_classify {
    IBCC_CLASSIFY_ALL = 0,        /* every output with a packet in the full
                                     buffer (the sources' rule, default) */
    IBCC_CLASSIFY_BUSY = 1        /* only those the caller reported busy or
                                     out of credits (ibcc_marker_set_busy) */
} ibcc_classify;

#define IBCC_MARKER_MAX_PORTS 256u
#define IBCC_MARKER_MAX_CAPACITY 65535u
#define IBCC_CREDIT_BYTES 64u

typedef struct ibcc_marker_desc {
    ibcc_marker_engine engine;
    uint32_t ports;               /* inputs = outputs = ports, numbered
                                     0..ports-1 (port p = Victim_Mask bit p) */
    ibcc_buffer_unit unit;
    ibcc_switch_org org;
    uint32_t in_capacity;         /* capacity of each input buffer (unit) */
    uint32_t out_capacity;        /* output queue capacity (unit): the base
                                     of IBA thresholds and MVPM's default */
    uint32_t trigger;             /* NAIVE/INPUT/INPUT_OUTPUT: an arrival
                                     after which occupancy >= trigger
                                     triggers marking (unit) */
    uint32_t t_out;               /* INPUT_OUTPUT: trigger o when
                                     cnt1[o] > t_out (packets) */
    ibcc_classify classify;
    uint32_t mvpm_in_threshold;   /* MVPM: MB when occupancy found by the
                                     arriving packet > this (unit) */
    uint32_t mvpm_out_threshold;  /* MVPM: VB when level(o) > this (unit) */
    uint32_t iba_threshold;       /* IBA Threshold weight, every port */
    uint32_t iba_packet_size;     /* IBA Packet_Size (64-byte units): a
                                     packet of fewer than 64*N bytes is
                                     never marked */
    uint32_t iba_marking_rate;    /* IBA Marking_Rate: eligible packets
                                     skipped between two marks */
    uint32_t victim_mask[8];      /* IBA Victim_Mask, bit p of word p/32 =
                                     port p */
    ibcc_rng *iba_rng;            /* non-NULL: random Marking_Rate (each
                                     eligible packet marked with probability
                                     1/(rate+1), same mean gap); the
                                     generator is the caller's and must
                                     outlive the marker */
    uint32_t hold;                /* 0: depart frees the packet's room in
                                     its input buffer; 1: the room stays
                                     counted in occupancy(in) until
                                     ibcc_marker_release (virtual cut-
                                     through: the tail is still in the
                                     buffer while the header leaves) */
} ibcc_marker_desc;

/* Counters kept by every engine. */
typedef struct ibcc_marker_stats {
    uint64_t arrivals;            /* accepted arrive() calls */
    uint64_t departures;          /* accepted depart() calls */
    uint64_t in_triggers;         /* input-buffer triggers (NAIVE, INPUT,
                                     INPUT_OUTPUT) */
    uint64_t out_triggers;        /* outputs classified congested: cnt2
                                     copies (INPUT, INPUT_OUTPUT, incl. the
                                     T_out test) or NAIVE (in, out) counter
                                     loads */
    uint64_t fecn;                /* packets returned IBCC_FECN */
    uint64_t mb;                  /* packets returned IBCC_MB */
    uint64_t vb;                  /* packets returned IBCC_VB */
    uint64_t errors;              /* rejected events (state untouched) */
    ibcc_result last_error;       /* code of the last rejected event */
} ibcc_marker_stats;

/* Per-port state (internal; read it through the queries). */
typedef struct ibcc__mport {
    uint32_t occ;                 /* input: units in the input buffer */
    uint32_t pk;                  /* input: packets in the input buffer */
    uint32_t cnt1;                /* output: packets waiting for it */
    uint32_t cnt2;                /* output: packets still to be marked */
    uint32_t qunits;              /* output: units waiting for it in the
                                     input buffers */
    uint32_t obuf;                /* output: units in its output buffer */
    uint32_t iba_level;           /* output: IBA threshold level (unit);
                                     congested when level(o) > iba_level */
    uint32_t iba_min_bytes;       /* output: 64 * Packet_Size */
    uint16_t iba_rate;            /* output: Marking_Rate */
    uint16_t iba_skip;            /* output: eligible packets still to skip */
    uint8_t iba_weight;           /* output: Threshold 0..15 */
    uint8_t pad_[3];
    uint32_t held;                /* input (hold): units of departed
                                     packets still in the buffer */
    uint32_t held_pk;             /* input (hold): such packets */
} ibcc__mport;

typedef struct ibcc_marker {
    ibcc_marker_desc d;           /* effective desc (defaults filled) */
    uint32_t words;               /* 64-bit words per port bitmap */
    uint64_t busy[4];             /* outputs busy / out of credits (BUSY) */
    uint64_t victim[4];           /* IBA Victim_Mask, bit p = port p */
    ibcc__mport *port;            /* ports entries */
    uint16_t *n;                  /* n[in * ports + out]: packets from in
                                     waiting for out */
    uint16_t *mk;                 /* NAIVE: mk[in * ports + out]: next
                                     departures in->out still to mark */
    uint64_t *present;            /* present[in * words + w]: bit o set
                                     when n[in][o] > 0 */
    ibcc_marker_stats stats;
} ibcc_marker;

/* Fills the zero fields of *d with their defaults (the table above).
   Errors: IBCC_ERR_NULL; IBCC_ERR_RANGE for an unknown engine, unit, org or
   classify value, a threshold/trigger/IBA field outside its range, or a
   Victim_Mask bit at or above `ports`; IBCC_ERR_CAPACITY for ports or a
   capacity above its maximum. The fields are left as given on error. */
IBCC_API ibcc_result ibcc_marker_defaults(ibcc_marker_desc *d);
/* Bytes of memory ibcc_marker_init needs (0 if the desc is invalid).
   ports*(40 + 8*ceil(ports/64) + 2*ports) bytes (rounded up to 8 per
   array), plus 2*ports*ports for NAIVE. */
IBCC_API size_t ibcc_marker_size(const ibcc_marker_desc *d);
/* Initialises an empty switch on caller memory (uint64_t-aligned, at least
   ibcc_marker_size bytes). Errors: as ibcc_marker_defaults, plus
   IBCC_ERR_ALIGN, IBCC_ERR_NOMEM. */
IBCC_API ibcc_result ibcc_marker_init(ibcc_marker *m,
                                      const ibcc_marker_desc *d,
                                      void *mem, size_t len);
/* Empties every buffer and counter (keeps the configuration, the busy
   bitmap and per-port IBA settings; clears stats). A NULL or never
   initialised (zeroed) marker is left alone. */
IBCC_API void ibcc_marker_clear(ibcc_marker *m);

/* Room a packet of `size` bytes takes in this marker's unit: 1 packet, or
   ceil(size / 64) credits with a minimum of 1 (a packet always has a
   header). A NULL marker counts packets (returns 1). Inline. */
IBCC_INLINE uint32_t ibcc_marker_units(const ibcc_marker *m, uint32_t size)
{
    uint32_t u;
    if (!m || m->d.unit != IBCC_UNIT_CREDITS) return 1u;
    u = size / IBCC_CREDIT_BYTES + (uint32_t)(size % IBCC_CREDIT_BYTES != 0u);
    return u ? u : 1u;
}

/* Packet of `size` bytes entered input buffer `in`, headed for output
   `out`. Returns IBCC_MB (MVPM) or 0; NAIVE/INPUT/INPUT_OUTPUT triggers
   happen here and show up in later depart() results. */
IBCC_API unsigned ibcc_marker_arrive(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size);
/* Packet left input buffer `in` through output `out` (must match an
   earlier arrive with the same in, out, size). `hdr` = the packet's header
   bits as they are now (MVPM validates only when IBCC_MB is in hdr: OR the
   bits arrive returned into it first); `out_has_credit` = the downstream
   buffer of `out` has credits (IBA root test). Returns the bits to OR into
   the header: IBCC_FECN (NAIVE, INPUT, INPUT_OUTPUT, IBA) or IBCC_VB
   (MVPM). IBA and MVPM test level(out) as the packet finds it: input-
   buffered, the data waiting for `out` including this packet (it is still
   queued when it starts); CIOQ, the output buffer before this packet
   enters it. A depart is checked against the counts (packets in->out,
   occupancy and level at least its units); sizes that differ from the
   arrival's cannot be detected and are the caller's responsibility. */
IBCC_API unsigned ibcc_marker_depart(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size,
                                     unsigned hdr, int out_has_credit);
/* CIOQ only: the packet left output buffer `out` onto the link. In an
   input-buffered marker this is a rejected event (IBCC_ERR_STATE). */
IBCC_API void ibcc_marker_leave(ibcc_marker *m, unsigned out, uint32_t size);
/* desc.hold = 1 only: the tail of a departed packet of `size` bytes has
   left input buffer `in`; its room leaves occupancy(in) now. Rejected
   events: STATE (hold = 0), RANGE (in), MISMATCH (no such departed
   packet still held). */
IBCC_API void ibcc_marker_release(ibcc_marker *m, unsigned in, uint32_t size);

/* BUSY classification: output `out` is busy or out of credits (busy != 0)
   or can take a packet (busy == 0). Keep it up to date as links start and
   finish packets and credits run out and return; it is read only when an
   input buffer triggers. All outputs start not busy. An out-of-range port
   is a rejected event (IBCC_ERR_RANGE). Inline (one bit operation). */
IBCC_INLINE void ibcc_marker_set_busy(ibcc_marker *m, unsigned out, int busy)
{
    uint64_t bit;
    if (!m) return;
    if (out >= m->d.ports) {
        m->stats.errors++;
        m->stats.last_error = IBCC_ERR_RANGE;
        return;
    }
    bit = (uint64_t)1u << (out & 63u);
    if (busy) m->busy[out >> 6] |= bit;
    else m->busy[out >> 6] &= ~bit;
}

/* IBA per-port setting (SwitchPortCongestionSetting): Threshold 0..15,
   Packet_Size 0..255 (64-byte units), Marking_Rate 0..65535. Restarts the
   port's Marking_Rate counter (its next eligible packet is marked).
   Errors: NULL, RANGE (port or a field out of range), STATE (engine is
   not IBA). */
IBCC_API ibcc_result ibcc_marker_set_iba_port(ibcc_marker *m, unsigned port,
                                              unsigned threshold,
                                              unsigned packet_size,
                                              unsigned marking_rate);
/* IBA Victim_Mask bit of one port. Errors: NULL, RANGE, STATE. */
IBCC_API ibcc_result ibcc_marker_set_victim(ibcc_marker *m, unsigned port,
                                            int on);

/* ---- queries (out-of-range ports give 0) ------------------------------ */
/* Input buffer occupancy (unit) and packet count. */
IBCC_API uint32_t ibcc_marker_occupancy(const ibcc_marker *m, unsigned in);
IBCC_API uint32_t ibcc_marker_packets(const ibcc_marker *m, unsigned in);
/* Packets in input buffer `in` waiting for `out`. */
IBCC_API uint32_t ibcc_marker_waiting(const ibcc_marker *m, unsigned in,
                                      unsigned out);
/* cnt1[o], cnt2[o] (packets). */
IBCC_API uint32_t ibcc_marker_cnt1(const ibcc_marker *m, unsigned out);
IBCC_API uint32_t ibcc_marker_cnt2(const ibcc_marker *m, unsigned out);
/* NAIVE: departures from `in` to `out` still to be marked. */
IBCC_API uint32_t ibcc_marker_naive_pending(const ibcc_marker *m,
                                            unsigned in, unsigned out);
/* level(o) (unit): see the section comment. */
IBCC_API uint32_t ibcc_marker_level(const ibcc_marker *m, unsigned out);
/* IBA: 1 if a packet departing on `out` now would find its port in the
   congestion state (level(o) > its threshold level, Threshold != 0, and
   out_has_credit or Victim_Mask bit set), else 0. */
IBCC_API int ibcc_marker_iba_congested(const ibcc_marker *m, unsigned out,
                                       int out_has_credit);
/* IBA threshold level of a port (unit): out_capacity * (16 - w) / 16,
   rounded down, for Threshold w = 1..15 (UINT32_MAX for w = 0, never). */
IBCC_API uint32_t ibcc_marker_iba_level(const ibcc_marker *m, unsigned out);
/* Rejected events so far; *last (optional) = code of the last one. */
IBCC_API uint64_t ibcc_marker_errors(const ibcc_marker *m,
                                     ibcc_result *last);
/* Copy of the counters. */
IBCC_API ibcc_marker_stats ibcc_marker_get_stats(const ibcc_marker *m);
/* Engine name ("none", "naive", "input", "input-output", "iba", "mvpm"),
   "?" if unknown. */
IBCC_API const char *ibcc_marker_engine_name(ibcc_marker_engine e);
