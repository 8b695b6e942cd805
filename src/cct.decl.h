/* ==== L1 cct ============================================================
   IBA channel-adapter congestion-control agent: the Congestion Control
   Table (CCT), one CCT index (CCTI) per flow (QP) or per SL, BECN
   reaction, one CCTI_Timer per SL, the Trigger_Threshold event log, and
   table populations. [G §II-B], IBA 1.2.1 Annex A10, MECHANISMS.md §4.3,
   §7.

   Behaviour
   - CCT entry (16 bits, IBA encoding): CCT_Shift = bits 15..14,
     CCT_Multiplier = bits 13..0. Its inter-packet delay (IRD) is
         delay = (max_pkt_time >> shift) * multiplier            (ps)
     where max_pkt_time is the wire time of a maximum-size packet at the
     port rate (as real CA code applies it). Entry 0 means no delay.
   - Control level (Port_Control bit 0): 0 = one CCTI per flow (QP),
     1 = one CCTI per SL shared by all flows of that SL. Exclusive.
   - BECN on a flow of SL s (CC enabled on s by control_map):
         CCTI = min(CCTI + CCTI_Increase[s], CCTI_Limit)
     then the timer of SL s is started if it is not running; if
     Trigger_Threshold[s] != 0 and the new CCTI >= Trigger_Threshold[s] an
     event is logged.
   - SL timer (period CCTI_Timer[s] x 1.024 us = x 1024 ns exactly; 0 =
     timer off, the CCTI never decreases): at each expiry every flow of SL
     s with CCTI > CCTI_Min[s] has CCTI -= 1; the timer then re-arms if at
     least one flow of s is still above CCTI_Min[s], else it stops. A
     started timer always runs at least one period. Expiries are periodic
     from the start instant (start + k x period), as a re-armed hardware
     timer. An expiry at time t is applied before any event at time t.
     An expiry due at or beyond IBCC_TIME_MAX never fires.
   - Lazy timers: the agent never visits the flows of an SL at an expiry.
     Each SL keeps (count of expiries so far, next expiry time, running,
     stop count); each flow keeps its CCTI and the SL expiry count it was
     last brought up to. Touching a flow applies the expiries it missed:
         CCTI = CCTI > Min ? max(Min, CCTI - (count - seen)) : CCTI
     in O(1). The timer's running state is exact without visiting flows:
     a flow at CCTI c > Min after a BECN at expiry count E reaches Min at
     count E + (c - Min) and never later, so the SL keeps
         stop = max(start count + 1, max over BECNs of E + (c - Min))
     and the timer runs until its count reaches stop. (A flow left above
     a lowered CCTI_Min by a setter while the timer is stopped is
     "parked": its excess enters stop when a BECN restarts the timer.) Every per-event
     operation is O(1) however many flows share the SL, and the CCTI
     sequence equals an eager per-expiry simulation of the rule above
     (tests/test_cct.c checks it on long random streams).
   - Time: every call takes `now` (ps). Times must be non-decreasing
     across calls on one agent; a time earlier than the latest
     state-changing call (BECN, setter) is treated as that latest time
     (expiries already applied are never undone).
   - Trigger_Threshold log: a ring of log_capacity events in the agent's
     memory; when full the oldest event is overwritten and counted as
     lost. ibcc_cct_log_read() drains it oldest first (as reading the IBA
     CongestionLog clears it).
   - Control_Map bit s clear: CC is off on SL s: BECNs of its flows are
     ignored and their delay is 0.

   Choices where the sources leave one (documented in docs/cct.md)
   - BECN increase is capped at CCTI_Limit (MECHANISMS.md §4.3); the hfi1
     driver instead skips an increase that would exceed the limit.
   - The trigger test uses the CCTI after the increase ("reaches").
   - CCTI_Timer 0 disables the timer.
   - Per-SL mode keeps an independent CCTI per SL (hfi1 programs one port
     rate from the highest CCTI of all SLs; ibcc does not merge them).
   - A flow may move to another SL only while its CCTI is at or below
     CCTI_Min of both SLs (e.g. a fresh flow at CCTI 0); otherwise
     IBCC_ERR_STATE. Settings changes (ibcc_cct_set_*) bring the affected
     flows up to date eagerly (O(flows), configuration path, not per
     event); a running timer keeps its pending expiry and uses the new
     period from then on.

   Defaults (ibcc_cct_desc, zero means default; the defaults are the [G]
   testbed values so that a zero desc gives a working agent. The setters
   ibcc_cct_set_* take literal IBA values, where 0 means 0.)
   | field            | default                       | range                 |
   | flows            | 1                             | 1 .. 2^31 - 1         |
   | entries          | 128, or table_len if larger   | 1 .. 16384            |
   | log_capacity     | 16                            | 1 .. 65535            |
   | max_pkt_bytes    | 2074 (2048 MTU + 26 B hdrs)   | 1 .. 2^32 - 1         |
   | port_rate        | IBCC_GBITS(16) (4x DDR data)  | > 0                   |
   | max_pkt_time     | wire time of max_pkt_bytes at port_rate | > 0 ps      |
   | per_sl           | 0 (per-QP CCTI)               | 0, 1                  |
   | disabled_sls     | 0 (CC on for all 16 SLs)      | 16-bit mask           |
   | ccti_limit       | table length - 1              | < table length        |
   | table, table_len | NULL: quadratic [G] i^2*7/106^2 us over `entries` | table_len <= entries |
   | sl[s].ccti_timer | 150 (x 1.024 us)              | 1 .. 65535            |
   | sl[s].ccti_increase | 1                          | 1 .. 255              |
   | sl[s].trigger_threshold | 0 (no log)             | 0 .. 255              |
   | sl[s].ccti_min   | 0                             | 0 .. ccti_limit       |
   | flow_sl          | NULL: every flow on SL 0      | entries 0 .. 15       |
   ====================================================================== */

#define IBCC_CCT_SLS 16                 /* service levels per port */
#define IBCC_CCT_MAX_ENTRIES 16384u     /* table capacity ibcc supports
                                           (256 blocks of 64; CCTI_Limit
                                           <= 16383) */
#define IBCC_CCT_MULT_MAX 16383u        /* 14-bit CCT_Multiplier */
#define IBCC_CCT_TIMER_UNIT_PS 1024000u /* CCTI_Timer unit: 1.024 us */
/* Builds / splits a CCT entry: entry = shift << 14 | multiplier. */
#define IBCC_CCT_ENTRY(shift, mult) \
    ((uint16_t)((((unsigned)(shift) & 3u) << 14) | ((unsigned)(mult) & 0x3fffu)))
#define IBCC_CCT_SHIFT(e) ((unsigned)(((unsigned)(e) >> 14) & 3u))
#define IBCC_CCT_MULT(e)  ((unsigned)((unsigned)(e) & 0x3fffu))
/* [G] quadratic population i^2 * 7 / 106^2 us, vendor default i^2*7/95^2. */
#define IBCC_CCT_QUAD_COEF IBCC_US(7)
#define IBCC_CCT_QUAD_G_ROOT 106u
#define IBCC_CCT_QUAD_VENDOR_ROOT 95u

/* One per-SL entry of CACongestionSetting (literal IBA values). */
typedef struct ibcc_cct_sl {
    uint16_t ccti_timer;        /* period in 1.024 us units; 0 = off */
    uint8_t ccti_increase;      /* CCTI added per BECN */
    uint8_t trigger_threshold;  /* log when CCTI >= this; 0 = no log */
    uint8_t ccti_min;           /* floor of timer decrements */
} ibcc_cct_sl;

typedef struct ibcc_cct_desc {
    uint32_t flows;             /* flows (QPs), default 1 */
    uint32_t entries;           /* table capacity, default 128 (or
                                   table_len if larger) */
    uint32_t log_capacity;      /* trigger-event ring, default 16 */
    uint32_t max_pkt_bytes;     /* default 2074 */
    ibcc_rate port_rate;        /* default IBCC_GBITS(16) */
    ibcc_time max_pkt_time;     /* ps; 0 = wire time of the two above */
    unsigned per_sl;            /* Port_Control bit 0 (0 per QP, 1 per SL) */
    uint16_t disabled_sls;      /* bit s set: CC off on SL s (default 0) */
    uint16_t ccti_limit;        /* 0 = table length - 1 */
    const uint16_t *table;      /* initial CCT (copied); NULL = [G] quad. */
    uint32_t table_len;         /* entries in `table` (1 .. entries) */
    ibcc_cct_sl sl[IBCC_CCT_SLS]; /* zero fields = defaults above */
    const uint8_t *flow_sl;     /* SL of each flow (`flows` entries, each
                                   < 16; copied); NULL = every flow on SL 0 */
} ibcc_cct_desc;

/* One Trigger_Threshold event. */
typedef struct ibcc_cct_event {
    ibcc_time time;             /* time of the BECN */
    uint32_t flow;              /* flow that received it */
    uint16_t ccti;              /* CCTI after the increase */
    uint8_t sl;                 /* SL of the flow */
    uint8_t reserved;
} ibcc_cct_event;

/* Internal per-flow and per-SL state (do not touch). */
typedef struct ibcc__cct_flow {
    uint64_t seen;              /* SL expiry count this CCTI is as of */
    uint16_t ccti;
    uint8_t sl;
    uint8_t pad[5];
} ibcc__cct_flow;

typedef struct ibcc__cct_slstate {
    ibcc_time next;             /* next expiry (valid while running) */
    ibcc_time period;           /* ccti_timer x 1024 ns, 0 = off */
    uint64_t count;             /* expiries fired so far (cumulative) */
    uint64_t stop;              /* the timer stops when count reaches it */
    ibcc__cct_flow agg;         /* the SL's CCTI in per-SL mode */
    ibcc_cct_sl p;              /* settings */
    uint8_t running;
    uint16_t parked;            /* largest CCTI - Min of a flow above Min
                                   while the timer is stopped (only after
                                   settings changes) */
} ibcc__cct_slstate;

typedef struct ibcc_cct {
    uint32_t flows, entries, log_cap;
    uint32_t log_head, log_count; /* ring: oldest at log_head */
    unsigned per_sl;
    uint16_t control_map;       /* bit s: CC on for SL s */
    uint16_t ccti_limit;
    ibcc_time max_pkt_time;
    ibcc_time last;             /* latest time seen */
    uint64_t log_total;         /* events ever logged */
    uint64_t log_lost;          /* events overwritten in the ring */
    ibcc__cct_slstate sl[IBCC_CCT_SLS];
    ibcc__cct_flow *flow;       /* flows */
    uint16_t *table;            /* entries (beyond the loaded length: 0) */
    ibcc_cct_event *log;        /* log_cap */
} ibcc_cct;

/* ---- entries and populations (pure functions) ------------------------ */

/* Delay of one entry: (max_pkt_time >> shift) * multiplier, in ps,
   saturating at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_cct_entry_delay(uint16_t entry, ibcc_time max_pkt_time);

/* Entry whose delay is nearest to `delay` (ps). For each shift 0..3 with
   unit u = max_pkt_time >> shift (u > 0) the multiplier is
   m = floor(delay / u + 1/2), capped at 16383; the (shift, m) with the
   smallest |m*u - delay| wins, ties to the smaller shift. delay 0 gives
   entry 0. Errors: NULL (out), RANGE (max_pkt_time 0, or delay more than
   half a unit above 16383 * max_pkt_time, the largest delay). */
IBCC_API ibcc_result ibcc_cct_entry_from_delay(ibcc_time delay,
                                               ibcc_time max_pkt_time,
                                               uint16_t *out);

/* out[i] = entry nearest to delays[i] (as ibcc_cct_entry_from_delay),
   i < n. Errors: NULL, CAPACITY (n 0 or > 16384), RANGE. */
IBCC_API ibcc_result ibcc_cct_fill_delays(uint16_t *out, const ibcc_time *delays,
                                          uint32_t n, ibcc_time max_pkt_time);

/* The same from delays in microseconds, as [G] publishes its tables:
   out[i] = entry nearest to floor(us[i] * 10^6 + 1/2) ps. Errors: as
   ibcc_cct_fill_delays, plus RANGE (a value negative, not finite or
   beyond the largest entry). */
IBCC_API ibcc_result ibcc_cct_fill_us(uint16_t *out, const double *us,
                                      uint32_t n, ibcc_time max_pkt_time);

/* Quadratic population: out[i] = entry nearest to
       d_i = i^2 * coef / root^2   ps (rounded half up to whole ps)
   [G]: coef IBCC_CCT_QUAD_COEF (7 us), root 106; vendor default root 95.
   Errors: NULL, CAPACITY (n), RANGE (coef or root 0, or an entry beyond
   the largest delay). */
IBCC_API ibcc_result ibcc_cct_fill_quadratic(uint16_t *out, uint32_t n,
                                             ibcc_time max_pkt_time,
                                             ibcc_time coef, uint32_t root);

/* Linear (LIPD-equivalent) population: out[i] = IBCC_CCT_ENTRY(0, i), an
   IPD of i maximum-size packet times, i.e. rate Rmax / (1 + i) for
   maximum-size packets. Errors: NULL, CAPACITY (n 0 or > 16384). */
IBCC_API ibcc_result ibcc_cct_fill_linear(uint16_t *out, uint32_t n);

/* Decrease function of a rate law on rates given as fractions of Rmax
   (1 = Rmax): returns fdec(rate). */
typedef double (*ibcc_cct_fdec_fn)(void *user, double rate_fraction);

/* Population from a law's decrease function: r_0 = 1, r_i = fdec(r_{i-1});
   entry i is the entry nearest to the IPD of rate r_i in maximum-size
   packet times:
       d_i = (1 / r_i - 1) * max_pkt_time   (ps, rounded to nearest)
   so that CCTI = i reproduces the rate after i marks from Rmax (for
   maximum-size packets). Errors: NULL, CAPACITY (n), RANGE (fdec returned
   a value outside (0, 1] or not finite, or a delay beyond the largest
   entry). */
IBCC_API ibcc_result ibcc_cct_fill_fdec(uint16_t *out, uint32_t n,
                                        ibcc_time max_pkt_time,
                                        ibcc_cct_fdec_fn fdec, void *user);

/* Population from a rate law of the law section (ibcc_law, any kind and
   form): as ibcc_cct_fill_fdec with the law's continuous decrease
   function ibcc_law_fdec (clamped to [rmin, 1]). With rmin = 1/256, LIPD
   gives the linear table up to IPD 255 and FIMD/AIMD (m = 2) the entries
   2^i - 1 up to 255. Errors as ibcc_cct_fill_fdec. */
IBCC_API ibcc_result ibcc_cct_fill_law(uint16_t *out, uint32_t n,
                                       ibcc_time max_pkt_time,
                                       const ibcc_law *law);

/* ---- the agent ------------------------------------------------------- */

/* Fills zero fields of *d with the defaults; checks every range.
   Errors: NULL (also table_len != 0 with table NULL), CAPACITY (flows,
   entries, log_capacity, table_len), RANGE, OVERFLOW (max_pkt_time 0 and
   the wire time of max_pkt_bytes at port_rate >= 2^64 ps). */
IBCC_API ibcc_result ibcc_cct_defaults(ibcc_cct_desc *d);
/* Bytes of memory ibcc_cct_init needs (0 if the desc is invalid). */
IBCC_API size_t ibcc_cct_size(const ibcc_cct_desc *d);
/* Initialises the agent at time 0: every CCTI 0, flows on the SLs of
   desc.flow_sl (default 0), timers stopped, log empty. Errors: NULL, CAPACITY, RANGE, ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_cct_init(ibcc_cct *c, const ibcc_cct_desc *d,
                                   void *mem, size_t len);
/* Back to the state right after init (settings, table and the flows'
   SLs kept). */
IBCC_API void ibcc_cct_reset(ibcc_cct *c);

/* BECN received for `flow` at `now`. Returns the new CCTI (0 and no
   effect when flow >= flows or CC is off on the flow's SL). O(1). */
IBCC_API unsigned ibcc_cct_on_becn(ibcc_cct *c, uint32_t flow, ibcc_time now);
/* CCTI of `flow` at `now` (timer expiries up to `now` applied; 0 if
   flow >= flows). O(1). */
IBCC_API unsigned ibcc_cct_ccti(const ibcc_cct *c, uint32_t flow, ibcc_time now);
/* Inter-packet delay (IRD) of `flow` at `now`: the delay of CCT[CCTI]
   (0 if flow >= flows or CC off on its SL). O(1), integer only. */
IBCC_API ibcc_time ibcc_cct_delay(const ibcc_cct *c, uint32_t flow, ibcc_time now);
/* Start-to-start gap after a packet of wire time pkt_time that starts at
   `now`: pkt_time + ibcc_cct_delay(c, flow, now). Saturates. */
IBCC_API ibcc_time ibcc_cct_gap(const ibcc_cct *c, uint32_t flow, ibcc_time now,
                                ibcc_time pkt_time);

/* Applies the timer expiries due at `now` to the state of all 16 SL
   timers (no flow is visited; O(16)) and makes `now` the latest time.
   Optional: every call above works without it. The timer state is
   otherwise brought forward by BECNs and setters only, and a query made
   one or more periods after that does one 64-bit division per query; a
   firmware loop that calls ibcc_cct_advance at least once per CCTI_Timer
   period keeps every BECN, CCTI and delay lookup division-free. */
IBCC_API void ibcc_cct_advance(ibcc_cct *c, ibcc_time now);

/* SL of a flow (0 if flow >= flows). */
IBCC_API unsigned ibcc_cct_flow_sl(const ibcc_cct *c, uint32_t flow);
/* Moves `flow` to SL `sl` at `now`. Errors: NULL, RANGE (flow, sl),
   STATE (CCTI above CCTI_Min of the old or the new SL). */
IBCC_API ibcc_result ibcc_cct_set_flow_sl(ibcc_cct *c, uint32_t flow,
                                          unsigned sl, ibcc_time now);

/* Timer of SL `sl` at `now`: running (1/0) and expiries fired so far
   (cumulative since init). 0 for sl >= 16. */
IBCC_API int ibcc_cct_timer_running(const ibcc_cct *c, unsigned sl, ibcc_time now);
IBCC_API uint64_t ibcc_cct_timer_expiries(const ibcc_cct *c, unsigned sl,
                                          ibcc_time now);

/* ---- settings (literal IBA values; configuration path, O(flows)) ----- */

/* Sets the per-SL entry of SL `sl` at `now`. Flows of the SL are brought
   up to date first; a CCTI above the new CCTI_Min with the timer stopped
   stays until the next BECN of the SL starts the timer. Errors: NULL,
   RANGE (sl >= 16, ccti_min > CCTI_Limit). */
IBCC_API ibcc_result ibcc_cct_set_sl(ibcc_cct *c, unsigned sl,
                                     const ibcc_cct_sl *p, ibcc_time now);
/* Port_Control (bit 0: per SL) and Control_Map (bit s: CC on for SL s) at
   `now`. Changing the control level resets every CCTI to 0 and stops the
   timers; disabling an SL resets its CCTIs to 0 and stops its timer.
   Errors: NULL, RANGE (port_control bits other than bit 0). */
IBCC_API ibcc_result ibcc_cct_set_port(ibcc_cct *c, uint16_t port_control,
                                       uint16_t control_map, ibcc_time now);
/* Loads a CCT: entries[0 .. n-1] (the rest of the capacity becomes 0) and
   CCTI_Limit `limit` (highest valid index). A CCTI above the new limit is
   lowered to it. n 0 means an empty table (limit must be 0).
   Errors: NULL (c, or entries with n > 0), CAPACITY (n > capacity),
   RANGE (limit >= max(n, 1), or limit < some SL's CCTI_Min), STATE (c
   zeroed and never initialised: no table memory). */
IBCC_API ibcc_result ibcc_cct_set_table(ibcc_cct *c, const uint16_t *entries,
                                        uint32_t n, uint16_t limit, ibcc_time now);
/* Current settings. */
IBCC_API const ibcc_cct_sl *ibcc_cct_get_sl(const ibcc_cct *c, unsigned sl);
IBCC_API uint16_t ibcc_cct_limit(const ibcc_cct *c);
IBCC_API const uint16_t *ibcc_cct_table(const ibcc_cct *c); /* capacity entries */

/* ---- Trigger_Threshold log ------------------------------------------- */

/* Copies up to `max` logged events, oldest first, into out and removes
   them from the ring. Returns the number copied. */
IBCC_API uint32_t ibcc_cct_log_read(ibcc_cct *c, ibcc_cct_event *out, uint32_t max);
/* Events currently in the ring, ever logged, and overwritten (lost). */
IBCC_API uint32_t ibcc_cct_log_count(const ibcc_cct *c);
IBCC_API uint64_t ibcc_cct_log_total(const ibcc_cct *c);
IBCC_API uint64_t ibcc_cct_log_lost(const ibcc_cct *c);
