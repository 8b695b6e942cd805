/* ==== L1 law ============================================================
   Source rate laws: how a flow's rate limit answers each ACK. An unmarked
   ACK applies r = finc(r), a marked one r = fdec(r), always within
   [Rmin, Rmax] [S03 §V]. Laws: AIMD, FIMD, LIPD (formulas below, from
   MECHANISMS.md §4.2) and a caller-supplied finc/fdec pair. Each law runs
   in one of three forms chosen by the description:

     CONTINUOUS  reference: the exact rate in a double.
     DISCRETE    IBA IPD rates only: the applied rate is always
                 Rmax/(1+ipd), ipd integer 0..255. The exact state is kept
                 in fixed point (Q32.32 fraction of Rmax, 2^32 = Rmax) and
                 stepped by the continuous law (rounded to nearest);
                 only the applied rate is quantised, with the rule
                 "highest allowed rate not above the exact rate":
                 ipd = ceil(2^32/(q + 1/2)) - 1 (the half unit absorbs the
                 state's own rounding), at most floor(1/rmin) - 1 so the
                 applied rate is never below Rmin (this cap acts only
                 when rmin is not an IPD rate 1/n). So slow increases
                 accumulate in the state and never freeze (MECHANISMS §4.2).
     TABLE       the law compiled at init into per-entry tables over a
                 finite rate set (default: the 256 IPD rates, index = ipd;
                 or a geometric set): next_on_mark[i], next_on_unmark[i]
                 and a progress increment inc[i] (Q1.31: 2^31 = one
                 step). The per-ACK step is integer-only: a marked ACK
                 moves to next_on_mark[i]; an unmarked ACK adds inc[i] to
                 a progress accumulator and moves to next_on_unmark[i]
                 when it reaches one step (2^31).
                 This deterministic fractional counter is how the table
                 avoids freezing slow increases (docs/law.md).

   RATE UNITS. Rates are normalised: x = r / Rmax, x in [rmin, 1]; Rmax is
   the flow's line rate (the rate at which a packet takes its wire time
   tau). ibcc_law_rate_bytes() converts to bytes/s for a given Rmax. Time
   between packets comes from ibcc_law_gap(): after a packet that took tau
   to transmit the source waits gap = tau * (Rmax/r - 1) = ipd * tau
   [S03 §IV-B].

   VARIABLE PACKET SIZES [S03 §IV-B]: ibcc_law_on_ack_sized() takes the
   acknowledged size relative to a reference packet as a Q16.16 weight
   (65536 = one reference packet); an unmarked ACK's increase is scaled by
   the weight (continuous/discrete: r += w * (finc(r) - r); table: progress
   += w * inc[i]). A marked ACK applies fdec once whatever its size.

   Sources: [S03] §IV-B (window + rate, IPD form), §V (response functions,
   design conditions 1-3, discrete rates, tables), §VI-B.2 (persistent
   state). The laws (x normalised, k = rmin):
     FIMD  fdec(x) = max(x/m, k)             finc(x) = min(x * m^(k/x), 1)
     LIPD  fdec(x) = max(1/(1/x + 1), k)     finc(x) = min(x / (1 - k), 1)
     AIMD  fdec(x) = max(x/m, k)             finc(x) = min(x + (m-1)k^2/x, 1)
   Results of a custom pair are clamped the same way (NaN becomes rmin).

   Defaults (ibcc_law_desc, zero means default):
   | field      | default              | range                              |
   | kind       | IBCC_LAW_LIPD        | LIPD, FIMD, AIMD, CUSTOM           |
   | form       | IBCC_LAW_CONTINUOUS  | CONTINUOUS, DISCRETE, TABLE        |
   | rmin       | 1/256 (of Rmax)      | [2^-16, 1); DISCRETE and the IPD   |
   |            |                      | table set: [1/256, 1)              |
   | m          | 2                    | (1, 65536] (AIMD, FIMD; ignored by |
   |            |                      | LIPD and CUSTOM but still checked) |
   | finc, fdec | NULL                 | both required for CUSTOM           |
   | rates      | IBCC_LAW_RATES_IPD   | IPD, GEOMETRIC (TABLE form only)   |
   | table_size | IPD: number of rates | IPD: 0 or exactly that number;     |
   |            | Rmax/(1+ipd) >= rmin;| GEOMETRIC: 2 .. 65536              |
   |            | GEOMETRIC: 256       |                                    |
   A new law starts at Rmax (no slow start, MECHANISMS §4.2).
   ====================================================================== */

typedef enum ibcc_law_kind {
    IBCC_LAW_KIND_DEFAULT = 0,  /* = IBCC_LAW_LIPD */
    IBCC_LAW_LIPD   = 1,        /* linear inter-packet delay [S03 §V] */
    IBCC_LAW_FIMD   = 2,        /* fast increase, multiplicative decrease */
    IBCC_LAW_AIMD   = 3,        /* additive increase (in time), mult. decrease */
    IBCC_LAW_CUSTOM = 4         /* caller's finc/fdec */
} ibcc_law_kind;

typedef enum ibcc_law_form {
    IBCC_LAW_FORM_DEFAULT = 0,  /* = IBCC_LAW_CONTINUOUS */
    IBCC_LAW_CONTINUOUS = 1,    /* reference, double state */
    IBCC_LAW_DISCRETE   = 2,    /* IPD rates, exact state in Q32.32 */
    IBCC_LAW_TABLE      = 3     /* compiled tables, integer-only step */
} ibcc_law_form;

typedef enum ibcc_law_rates {
    IBCC_LAW_RATES_DEFAULT   = 0, /* = IBCC_LAW_RATES_IPD */
    IBCC_LAW_RATES_IPD       = 1, /* x_i = 1/(1+i), i = 0 .. (index = ipd) */
    IBCC_LAW_RATES_GEOMETRIC = 2  /* x_i = rmin^(i/(n-1)), i = 0 .. n-1 */
} ibcc_law_rates;

/* A custom increase or decrease function: maps a normalised rate x in
   [rmin, 1] to the next one. `user` is ibcc_law_desc.user. Called per ACK
   in the CONTINUOUS and DISCRETE forms, only at init in the TABLE form
   (and by the checker/recovery helpers). Must be deterministic. */
typedef double (*ibcc_law_fn)(double x, void *user);

typedef struct ibcc_law_desc {
    ibcc_law_kind kind;     /* default IBCC_LAW_LIPD */
    ibcc_law_form form;     /* default IBCC_LAW_CONTINUOUS */
    double rmin;            /* Rmin / Rmax, default 1/256 */
    double m;               /* decrease factor (AIMD, FIMD), default 2 */
    ibcc_law_fn finc;       /* CUSTOM only: unmarked-ACK function */
    ibcc_law_fn fdec;       /* CUSTOM only: marked-ACK function */
    void *user;             /* passed to finc/fdec */
    ibcc_law_rates rates;   /* TABLE only: rate set, default IPD */
    uint32_t table_size;    /* TABLE only: entries (see table above) */
} ibcc_law_desc;

/* The dynamic state of a law (what persistent per-pair state saves).
   Which fields are meaningful depends on the form; the others are 0. */
typedef struct ibcc_law_state {
    double   x;             /* CONTINUOUS: rate / Rmax in [rmin, 1] */
    uint64_t q;             /* DISCRETE: exact rate, Q32.32 (2^32 = Rmax) */
    uint32_t index;         /* DISCRETE: applied ipd; TABLE: entry index */
    uint32_t acc;           /* TABLE: progress to next_on_unmark, Q1.31
                               (2^31 = one step), always < 2^31 */
} ibcc_law_state;

/* One compiled table entry (internal layout; read with
   ibcc_law_table_entry). */
typedef struct ibcc__law_entry {
    double   rate;          /* x_i, normalised */
    uint32_t inc;           /* progress per unmarked ACK, Q1.31 */
    uint32_t gapq;          /* Rmax/x_i - 1, Q16.16 (exactly ipd<<16 on
                               the IPD set) */
    uint16_t mark;          /* next_on_mark[i] */
    uint16_t up;            /* next_on_unmark[i] */
} ibcc__law_entry;

typedef struct ibcc_law {
    ibcc_law_desc d;        /* effective description (after defaults) */
    ibcc_law_state s;       /* current state */
    uint64_t qmin;          /* DISCRETE: rmin in Q32.32 (rounded up) */
    uint32_t ipd_max;       /* DISCRETE: largest applied ipd,
                               floor(1/rmin) - 1 */
    uint32_t n;             /* TABLE: entries */
    ibcc__law_entry *table; /* TABLE: n entries in caller memory */
} ibcc_law;

/* Public view of one table entry. */
typedef struct ibcc_law_entry {
    double   rate;          /* x_i = r_i / Rmax */
    uint32_t next_on_mark;  /* index after a marked ACK */
    uint32_t next_on_unmark;/* index once progress reaches 1.0 */
    uint32_t inc;           /* progress per unmarked ACK, Q1.31: 2^31
                               means every ACK moves; above 2^31 the excess
                               is carried (the continuous law passed
                               next_on_unmark's rate in one ACK); 0: the
                               law does not increase from this entry.
                               Resolution: a step needing n ACKs gets
                               round(2^31/n), so counts are exact to 0.1 %
                               up to n = 2^21 and saturate at 2^31 */
    uint32_t gap_q16;       /* Rmax/x_i - 1 in Q16.16 */
} ibcc_law_entry;

/* Fills zero fields of *d with the effective defaults and validates the
   whole description. Errors: NULL (d; finc/fdec of CUSTOM), RANGE (kind,
   form, rates out of the enum; rmin outside its range or NaN; m <= 1,
   > 65536 or NaN; table_size out of range), CAPACITY (GEOMETRIC
   table_size 1 or > 65536), UNSUPPORTED (rates or table_size set for a
   form other than TABLE). */
IBCC_API ibcc_result ibcc_law_defaults(ibcc_law_desc *d);
/* Bytes of caller memory ibcc_law_init needs: the table for TABLE, and 8
   for the other forms (which use none; 0 is kept for "invalid desc"). */
IBCC_API size_t ibcc_law_size(const ibcc_law_desc *d);
/* Initialises a law at Rmax. TABLE compiles the tables into `mem`
   (uint64_t-aligned, at least ibcc_law_size bytes); the other forms accept
   mem = NULL, len = 0. Errors: those of ibcc_law_defaults, NULL (l; mem
   for TABLE), ALIGN, NOMEM. The desc is copied; `mem` must outlive l. */
IBCC_API ibcc_result ibcc_law_init(ibcc_law *l, const ibcc_law_desc *d,
                                   void *mem, size_t len);

/* One step of table progress, Q1.31 (private). */
#define IBCC__LAW_STEP UINT64_C(0x80000000)

/* Private steps of the non-table forms (called by the inline functions). */
IBCC_API void ibcc__law_step(ibcc_law *l, int marked, uint32_t weight_q16);

/* Per-ACK step. marked != 0: r = fdec(r); else r = finc(r). Inline: the
   TABLE form runs entirely here (two loads, an add, a compare). A NULL l
   is ignored (as by every step and query below: queries of a NULL law
   return 0). */
IBCC_INLINE void ibcc_law_on_ack(ibcc_law *l, int marked)
{
    if (!l) return;
    if (l->d.form == IBCC_LAW_TABLE) {
        const ibcc__law_entry *e = l->table + l->s.index;
        if (marked) {
            l->s.index = e->mark;
            l->s.acc = 0;
        } else {
            /* progress (Q1.31) += inc[i]; at one step (2^31) move to
               up[i]; a carry of another whole step moves one entry
               further up; what is left is capped just under one step
               (0 at Rmax) */
            uint64_t a = (uint64_t)l->s.acc + e->inc;
            if (a >= IBCC__LAW_STEP) {
                uint32_t j = e->up;
                a -= IBCC__LAW_STEP;
                if (a >= IBCC__LAW_STEP && j > 0) { j--; a -= IBCC__LAW_STEP; }
                if (a >= IBCC__LAW_STEP) a = IBCC__LAW_STEP - 1u;
                if (j == 0) a = 0;
                l->s.index = j;
            }
            l->s.acc = (uint32_t)a;
        }
    } else {
        ibcc__law_step(l, marked, 65536u);
    }
}

/* Per-ACK step for variable packet sizes: weight_q16 is the acknowledged
   size divided by the reference packet size, Q16.16 (65536 = one reference
   packet; e.g. (acked_bytes << 16) / ref_bytes). Unmarked: the increase is
   scaled by the weight (TABLE: progress += inc[i] * w, with the same
   move rule as ibcc_law_on_ack: at most one entry beyond next_on_unmark
   per ACK, the remainder capped below one step). Marked: fdec
   once. Inline (TABLE path integer-only). */
IBCC_INLINE void ibcc_law_on_ack_sized(ibcc_law *l, int marked,
                                       uint32_t weight_q16)
{
    if (!l) return;
    if (l->d.form == IBCC_LAW_TABLE) {
        const ibcc__law_entry *e = l->table + l->s.index;
        if (marked) {
            l->s.index = e->mark;
            l->s.acc = 0;
        } else {
            /* progress += (inc[i] * w) >> 16, then as ibcc_law_on_ack */
            uint64_t a = (uint64_t)l->s.acc
                       + (((uint64_t)e->inc * weight_q16) >> 16);
            if (a >= IBCC__LAW_STEP) {
                uint32_t j = e->up;
                a -= IBCC__LAW_STEP;
                if (a >= IBCC__LAW_STEP && j > 0) { j--; a -= IBCC__LAW_STEP; }
                if (a >= IBCC__LAW_STEP) a = IBCC__LAW_STEP - 1u;
                if (j == 0) a = 0;
                l->s.index = j;
            }
            l->s.acc = (uint32_t)a;
        }
    } else {
        ibcc__law_step(l, marked, weight_q16);
    }
}

/* Inter-packet delay after a packet that took `tau` (its wire time at
   Rmax): gap = tau * (Rmax/r - 1) = ipd * tau at the APPLIED rate.
   DISCRETE: tau * ipd exactly; TABLE: (tau * gap_q16) >> 16 (exact on the
   IPD set); CONTINUOUS: rounded to the nearest ps. Integer-only except
   CONTINUOUS. Saturates at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_law_gap(const ibcc_law *l, ibcc_time tau);

/* Applied normalised rate r/Rmax: CONTINUOUS x; DISCRETE 1/(1+ipd); TABLE
   x_index. */
IBCC_API double ibcc_law_rate(const ibcc_law *l);
/* Exact normalised rate: CONTINUOUS x; DISCRETE q/2^32; TABLE x_index. */
IBCC_API double ibcc_law_exact_rate(const ibcc_law *l);
/* Applied rate in bytes/s for a line rate rmax: floor(rmax * r/Rmax),
   exact integer arithmetic for DISCRETE and the IPD table. */
IBCC_API ibcc_rate ibcc_law_rate_bytes(const ibcc_law *l, ibcc_rate rmax);
/* Applied IPD, ceil(Rmax/r) - 1 ("highest IPD rate not above r"); for
   DISCRETE and the IPD table this is the exact ipd of the applied rate. */
IBCC_API uint32_t ibcc_law_ipd(const ibcc_law *l);
/* True (1) when the applied rate is Rmax. */
IBCC_API int ibcc_law_at_max(const ibcc_law *l);

/* Back to Rmax (what a new flow starts with). */
IBCC_API void ibcc_law_reset(ibcc_law *l);
/* Sets the exact rate to x (clamped to [rmin, 1]); TABLE: the entry of
   the highest table rate not above x. Errors: NULL, RANGE (x NaN). */
IBCC_API ibcc_result ibcc_law_set_rate(ibcc_law *l, double x);
/* Copies the dynamic state out / in (persistent per-pair state). set
   validates it for this law: RANGE if a field is outside the form's
   domain (x not in [rmin,1], q not in [qmin, 2^32], index >= entries or
   not the ipd of q, acc >= 2^31). */
IBCC_API ibcc_result ibcc_law_get_state(const ibcc_law *l, ibcc_law_state *s);
IBCC_API ibcc_result ibcc_law_set_state(ibcc_law *l, const ibcc_law_state *s);

/* The law's continuous functions with the clamp to [rmin, 1] (whatever
   the form; a TABLE was compiled from these). Useful to build other
   tables (e.g. an IBA CCT) from a law. */
IBCC_API double ibcc_law_finc(const ibcc_law *l, double x);
IBCC_API double ibcc_law_fdec(const ibcc_law *l, double x);

/* TABLE form: number of entries (0 for other forms) and entry i.
   Errors: NULL, STATE (not a TABLE law), RANGE (i >= entries). */
IBCC_API uint32_t ibcc_law_table_size(const ibcc_law *l);
IBCC_API ibcc_result ibcc_law_table_entry(const ibcc_law *l, uint32_t i,
                                          ibcc_law_entry *out);

/* ---- recovery helper (SCENARIOS §A run 8) ------------------------------
   Runs a copy of the law (same form, tables shared read-only) from Rmin
   to Rmax with no marks, one ACK per packet interval at the applied rate:
   the interval at rate r is tau*Rmax/r = tau + ibcc_law_gap(tau), tau the
   packet's wire time at Rmax. Point j is (t_j, applied rate after j ACKs);
   point 0 is (0, Rmin's applied rate), the last is (time, 1.0). Points
   beyond `cap` are not stored (`points` says how many were); the totals
   are still computed. */
typedef struct ibcc_law_point {
    ibcc_time t;            /* time since the start, ps */
    double rate;            /* applied rate / Rmax */
} ibcc_law_point;

typedef struct ibcc_law_recovery_result {
    ibcc_time time;         /* time at which the applied rate reaches Rmax */
    double time_tau;        /* the same in units of tau (exact sum for
                               CONTINUOUS, not rounded to ps) */
    uint64_t acks;          /* unmarked ACKs taken */
    size_t points;          /* points written to the curve */
} ibcc_law_recovery_result;

/* Errors: NULL (l, out; curve with cap > 0), RANGE (tau 0; the law does
   not reach Rmax within 2^26 ACKs), OVERFLOW (time beyond IBCC_TIME_MAX). */
IBCC_API ibcc_result ibcc_law_recovery(const ibcc_law *l, ibcc_time tau,
                                       ibcc_law_point *curve, size_t cap,
                                       ibcc_law_recovery_result *out);

/* Closed-form recovery time Rmin -> Rmax in units of tau, continuous
   limit, one ACK per interval 1/r (derivations in docs/law.md), k = rmin:
     FIMD  (1/k) * log_m(1/k)          (= 2048 tau for k = 1/256, m = 2)
     LIPD  (1/k) * (1/k - 1)           (= 65280 tau)
     AIMD  (1 - k) / ((m - 1) k^2)     (= 65280 tau for m = 2)
   For these three the ACK-by-ACK sum of the CONTINUOUS form is exact up
   to the final ACK's clamp at Rmax: closed <= helper < closed + last
   interval. Errors: NULL, the desc errors, UNSUPPORTED (CUSTOM). */
IBCC_API ibcc_result ibcc_law_recovery_closed(const ibcc_law_desc *d,
                                              double *tau_units);

/* ---- design-conditions checker [S03 §V], MECHANISMS §4.2 ---------------
   Evaluates, for the desc's law (its continuous functions, whatever the
   form), over a geometric grid of `points` rates r_i = k^(1 - i/(n-1)),
   i = 0..n-1 (Rmin .. Rmax), restricted to the rates where fdec does not
   hit the floor (fdec(r) > Rmin: below that a decrease is truncated by
   the clamp and the conditions do not apply):
     C1  worst (finc(fdec(r)) - r) / r               pass if <= tol1
     C2  worst relative drop of Trec: max over r of
         (max_{r' <= r} Trec(r') - Trec(r)) / max_{r'<=r} Trec(r')
                                                      pass if <= tol2
     C3  worst |Trec(r) * Rmin - 1|                   pass if <= tol3
   Trec(r): time (in units of 1/Rmax, i.e. tau) from fdec(r) back to r
   with no marks, ACKs one per interval 1/x, stepped ACK by ACK; the last
   ACK counts for the fraction ln(r/z)/ln(z'/z) of its interval (z before,
   z' after it, z' not clamped at Rmax). This geometric interpolation
   removes the staircase of whole ACKs; it is exact for FIMD (ln r linear
   in time) and second order in the step size otherwise (LIPD: 3.3e-4 at
   k = 1/256, hence tol3 = 1e-3). A law that stops
   increasing below r gives Trec = +inf (reported; fails C3,
   and C2 if a finite Trec follows at a higher rate). */
typedef struct ibcc_law_check_desc {
    uint32_t points;        /* grid size, default 256, range 2 .. 65536 */
    double tol1;            /* default 1e-9 (rounding only) */
    double tol2;            /* default 1e-3 */
    double tol3;            /* default 1e-3 */
} ibcc_law_check_desc;

typedef struct ibcc_law_condition {
    double worst;           /* worst measure over the grid (see above) */
    double rate;            /* normalised rate where it occurs */
    int pass;               /* worst <= tolerance */
} ibcc_law_condition;

typedef struct ibcc_law_check_result {
    ibcc_law_condition cond[3]; /* C1, C2, C3 */
    uint32_t points;        /* grid size used */
    uint32_t evaluated;     /* grid rates in the domain (fdec(r) > Rmin) */
    ibcc_law_check_desc tol;/* effective tolerances */
} ibcc_law_check_result;

/* c may be NULL (all defaults). Errors: NULL (d, out), the desc errors,
   RANGE (points out of range, a tolerance negative, NaN or infinite),
   CAPACITY (no grid rate in the domain). */
IBCC_API ibcc_result ibcc_law_check(const ibcc_law_desc *d,
                                    const ibcc_law_check_desc *c,
                                    ibcc_law_check_result *out);
