/* Microbenchmark of the switch marking engines and the arbiter.

   Marker: ns per packet (one arrive + one depart) for each engine at 8, 36
   and 64 ports over a random trace, and in the same run a straightforward
   reference that keeps the actual buffer contents and scans the input
   buffers whenever it needs a count (trigger classification, cnt1 at a
   trigger or at the T_out test, the output level for IBA and MVPM). Both
   must make exactly the same marking decisions: the bench compares the
   number of marked packets and a hash of which packets were marked, and
   prints MISMATCH (exit status 1) if they differ.

   Trace: input buffers of 4 packets; at each step a random input either
   receives a packet (probability 0.5 while not full; half of them for
   hot output 0, the rest uniform) or sends one: a random resident packet
   picks the output, and the oldest packet of that input for that output
   leaves (per input/output order, as the arbiter keeps it). Sizes
   64..2048 bytes, downstream credit present with probability 1/2.

   "trace replay floor" is the replay loop alone (reading the trace, no
   engine call): every other row includes it. Engine "none" is the
   counting every engine does (occupancy, cnt1, the
   per input/output counts) with no marking: the floor of the others.

   Counter kernel (input-triggered only): the same bookkeeping written
   as a minimal loop in this file, on the same trace, interleaved with
   the engine; "engine/kernel" is the engine's time over the kernel's
   (both include the replay loop), and the kernel must mark the same
   packets.

   Arbiter: ns per pick call (granted or not; a grant includes the push
   that refills the input) with every input buffer kept full; bitmap mode,
   the outputs redrawn every 16 calls with 3 of 4 able to take packets.

   Usage: bench_marker [csv]   (rows appended to csv) */
#include "bench.h"          /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#define CAP 4u
#define MAXP 64u
#define NEV 400000u

typedef struct ev {
    uint8_t dep, in, out, cred;
    uint32_t size;
} ev;

static ev trace_[NEV];
static unsigned ntrace_;
static uint64_t mem_[1 << 16];

static void make_trace(unsigned P, uint64_t seed)
{
    static uint8_t buf[MAXP][CAP];
    static uint32_t bsz[MAXP][CAP];
    unsigned len[MAXP];
    ibcc_rng r;
    unsigned i;
    memset(len, 0, sizeof len);
    ibcc_rng_seed(&r, seed);
    ntrace_ = 0;
    for (i = 0; i < NEV; i++) {
        unsigned in = (unsigned)ibcc_rng_below(&r, P);
        ev *e = &trace_[ntrace_];
        if (len[in] < CAP && (len[in] == 0 || ibcc_rng_below(&r, 100) < 50)) {
            unsigned out = ibcc_rng_below(&r, 2) ? 0u : (unsigned)ibcc_rng_below(&r, P);
            e->dep = 0;
            e->in = (uint8_t)in;
            e->out = (uint8_t)out;
            e->size = 64u + (uint32_t)ibcc_rng_below(&r, 1985);
            e->cred = 0;
            buf[in][len[in]] = (uint8_t)out;
            bsz[in][len[in]] = e->size;
            len[in]++;
        } else {
            unsigned k = (unsigned)ibcc_rng_below(&r, len[in]), j;
            unsigned out = buf[in][k];
            for (j = 0; buf[in][j] != out; j++) {}
            e->dep = 1;
            e->in = (uint8_t)in;
            e->out = (uint8_t)out;
            e->size = bsz[in][j];
            e->cred = (uint8_t)ibcc_rng_below(&r, 2);
            for (; j + 1u < len[in]; j++) {
                buf[in][j] = buf[in][j + 1u];
                bsz[in][j] = bsz[in][j + 1u];
            }
            len[in]--;
        }
        ntrace_++;
    }
}

typedef struct result { uint64_t marks, hash, pkts; } result;

/* hdr bits each resident packet got at arrival (MVPM), FIFO per input */
static unsigned hdrq_[MAXP][CAP];
static unsigned hdrlen_[MAXP];

static unsigned take_hdr(unsigned in, unsigned out, const uint8_t *outs)
{
    /* the departing packet is the first of `in` for `out` */
    unsigned j, h;
    for (j = 0; outs[j] != out; j++) {}
    h = hdrq_[in][j];
    for (; j + 1u < hdrlen_[in]; j++) hdrq_[in][j] = hdrq_[in][j + 1u];
    hdrlen_[in]--;
    return h;
}

static ibcc_marker_desc engine_desc(ibcc_marker_engine e, unsigned P)
{
    ibcc_marker_desc d;
    memset(&d, 0, sizeof d);
    d.engine = e;
    d.ports = P;
    d.in_capacity = CAP;
    d.t_out = 8;
    if (e == IBCC_MARKER_IBA) {
        d.out_capacity = 16;
        d.iba_threshold = 8;          /* level 8 */
        d.iba_packet_size = 8;        /* 512 bytes */
        d.iba_marking_rate = 2;
    }
    return d;
}

/* ---- ibcc marker over the trace --------------------------------------- */
static result run_marker(ibcc_marker_engine eng, unsigned P, double *ns)
{
    ibcc_marker m;
    ibcc_marker_desc d = engine_desc(eng, P);
    static uint8_t outs[MAXP][CAP];
    static unsigned olen[MAXP];
    result res = {0, 0, 0};
    unsigned i;
    double t0, t1;
    if (ibcc_marker_init(&m, &d, mem_, sizeof mem_) != IBCC_OK) {
        printf("marker init failed\n");
        exit(1);
    }
    memset(olen, 0, sizeof olen);
    memset(hdrlen_, 0, sizeof hdrlen_);
    t0 = bench_now_ns();
    if (eng == IBCC_MARKER_MVPM) {
        /* MVPM needs the packet's header at departure: keep it per
           resident packet (the caller's job, inside the timing as a
           simulator would do it) */
        for (i = 0; i < ntrace_; i++) {
            const ev *e = &trace_[i];
            if (!e->dep) {
                unsigned b = ibcc_marker_arrive(&m, e->in, e->out, e->size);
                outs[e->in][olen[e->in]++] = e->out;
                hdrq_[e->in][hdrlen_[e->in]++] = b;
            } else {
                unsigned h = take_hdr(e->in, e->out, outs[e->in]), j;
                unsigned b = ibcc_marker_depart(&m, e->in, e->out, e->size, h, e->cred);
                for (j = 0; outs[e->in][j] != e->out; j++) {}
                for (; j + 1u < olen[e->in]; j++) outs[e->in][j] = outs[e->in][j + 1u];
                olen[e->in]--;
                if (b) { res.marks++; res.hash += (uint64_t)i * 2654435761u; }
                res.pkts++;
            }
        }
    } else {
        for (i = 0; i < ntrace_; i++) {
            const ev *e = &trace_[i];
            if (!e->dep) {
                ibcc_marker_arrive(&m, e->in, e->out, e->size);
            } else {
                unsigned b = ibcc_marker_depart(&m, e->in, e->out, e->size, 0, e->cred);
                if (b) { res.marks++; res.hash += (uint64_t)i * 2654435761u; }
                res.pkts++;
            }
        }
    }
    t1 = bench_now_ns();
    if (m.stats.errors) { printf("marker rejected events\n"); exit(1); }
    *ns = (t1 - t0) / (double)res.pkts;
    return res;
}

/* ---- floor: the same replay loop with no engine ------------------------ */
static double run_floor(void)
{
    uint64_t acc = 0, pkts = 0;
    unsigned i;
    double t0 = bench_now_ns(), t1;
    for (i = 0; i < ntrace_; i++) {
        const ev *e = &trace_[i];
        if (!e->dep) {
            acc += (uint64_t)e->in * 31u + e->out + e->size;
        } else {
            acc ^= (uint64_t)e->out + e->cred + e->size;
            pkts++;
        }
    }
    t1 = bench_now_ns();
    BENCH_KEEP(acc);
    return (t1 - t0) / (double)pkts;
}

/* ---- minimal counter kernel: the input-triggered bookkeeping alone ----
   What IBCC_MARKER_INPUT must do per packet, written as plainly as it
   can be for this trace (packet units, trigger = a full buffer, at most
   64 ports, no argument checks, no statistics): occupancy per input,
   packets per input/output pair with a bitmap of the pairs present,
   cnt1/cnt2 per output. It must mark exactly the packets the engine
   marks; the bench reports the engine's cost as a multiple of it. */
static struct kern {
    uint32_t occ[MAXP], cnt1[MAXP], cnt2[MAXP];
    uint64_t pres[MAXP];
    uint16_t n[MAXP][MAXP];
} k_;

static result run_kernel(unsigned P, double *ns)
{
    result res = {0, 0, 0};
    unsigned i;
    double t0, t1;
    (void)P;
    memset(&k_, 0, sizeof k_);
    t0 = bench_now_ns();
    for (i = 0; i < ntrace_; i++) {
        const ev *e = &trace_[i];
        unsigned in = e->in, out = e->out;
        if (!e->dep) {
            k_.occ[in]++;
            if (k_.n[in][out]++ == 0) k_.pres[in] |= (uint64_t)1u << out;
            k_.cnt1[out]++;
            if (k_.occ[in] >= CAP) {
                uint64_t b = k_.pres[in];
                while (b) {
                    unsigned o = (unsigned)__builtin_ctzll(b);
                    b &= b - 1u;
                    k_.cnt2[o] = k_.cnt1[o];
                }
            }
        } else {
            k_.occ[in]--;
            if (--k_.n[in][out] == 0) k_.pres[in] &= ~((uint64_t)1u << out);
            k_.cnt1[out]--;
            if (k_.cnt2[out] > 0) {
                k_.cnt2[out]--;
                res.marks++;
                res.hash += (uint64_t)i * 2654435761u;
            }
            res.pkts++;
        }
    }
    t1 = bench_now_ns();
    *ns = (t1 - t0) / (double)res.pkts;
    return res;
}

/* ---- reference: buffer contents, scans ------------------------------- */
typedef struct rpkt { unsigned out, size, flag, hdr; } rpkt;

static result run_reference(ibcc_marker_engine eng, unsigned P, double *ns)
{
    static rpkt b[MAXP][CAP];
    unsigned len[MAXP], cnt2[MAXP], skip[MAXP];
    unsigned char present[MAXP];
    ibcc_marker_desc d = engine_desc(eng, P);
    result res = {0, 0, 0};
    unsigned i;
    double t0, t1;
    ibcc_marker_defaults(&d);
    memset(len, 0, sizeof len);
    memset(cnt2, 0, sizeof cnt2);
    memset(skip, 0, sizeof skip);
    t0 = bench_now_ns();
    for (i = 0; i < ntrace_; i++) {
        const ev *e = &trace_[i];
        unsigned in = e->in, o = e->out, j, k;
        if (!e->dep) {
            rpkt *p = &b[in][len[in]];
            p->out = o; p->size = e->size; p->flag = 0; p->hdr = 0;
            if (eng == IBCC_MARKER_MVPM && len[in] > d.mvpm_in_threshold)
                p->hdr = IBCC_MB;
            len[in]++;
            if ((eng == IBCC_MARKER_NAIVE || eng == IBCC_MARKER_INPUT ||
                 eng == IBCC_MARKER_INPUT_OUTPUT) && len[in] >= d.trigger) {
                /* classify: scan the full buffer */
                memset(present, 0, P);
                for (j = 0; j < len[in]; j++) {
                    present[b[in][j].out] = 1;
                    if (eng == IBCC_MARKER_NAIVE) b[in][j].flag = 1;
                }
                if (eng != IBCC_MARKER_NAIVE) {
                    unsigned q;
                    for (q = 0; q < P; q++) {
                        unsigned c = 0;
                        if (!present[q]) continue;
                        /* cnt1[q] by scanning every input buffer */
                        for (j = 0; j < P; j++)
                            for (k = 0; k < len[j]; k++) c += b[j][k].out == q;
                        cnt2[q] = c;
                    }
                }
            }
            if (eng == IBCC_MARKER_INPUT_OUTPUT) {
                unsigned c = 0;
                for (j = 0; j < P; j++)
                    for (k = 0; k < len[j]; k++) c += b[j][k].out == o;
                if (c > d.t_out) cnt2[o] = c;
            }
        } else {
            unsigned level = 0, mark = 0;
            rpkt p;
            if (eng == IBCC_MARKER_IBA || eng == IBCC_MARKER_MVPM) {
                for (j = 0; j < P; j++)
                    for (k = 0; k < len[j]; k++) level += b[j][k].out == o;
            }
            for (j = 0; b[in][j].out != o; j++) {}
            p = b[in][j];
            for (; j + 1u < len[in]; j++) b[in][j] = b[in][j + 1u];
            len[in]--;
            switch (eng) {
            case IBCC_MARKER_NAIVE:
                mark = p.flag;
                break;
            case IBCC_MARKER_INPUT:
            case IBCC_MARKER_INPUT_OUTPUT:
                if (cnt2[o]) { cnt2[o]--; mark = 1; }
                break;
            case IBCC_MARKER_IBA:
                /* the departing packet is not counted in its queue */
                if (level - 1u > d.out_capacity * (16u - d.iba_threshold) / 16u &&
                    e->cred && p.size >= 64u * d.iba_packet_size) {
                    if (skip[o] == 0) { mark = 1; skip[o] = d.iba_marking_rate; }
                    else skip[o]--;
                }
                break;
            case IBCC_MARKER_MVPM:
                mark = (p.hdr & IBCC_MB) && level > d.mvpm_out_threshold;
                break;
            case IBCC_MARKER_NONE:
            case IBCC_MARKER_ECN:   /* not among this bench's engines */
                break;
            }
            if (mark) { res.marks++; res.hash += (uint64_t)i * 2654435761u; }
            res.pkts++;
        }
    }
    t1 = bench_now_ns();
    *ns = (t1 - t0) / (double)res.pkts;
    return res;
}

/* ---- arbiter ------------------------------------------------------------ */
static uint8_t rnd_[1 << 16];

static double bench_arbiter(ibcc_arb_policy pol, unsigned P, int any,
                            double *granted)
{
    ibcc_arbiter a;
    ibcc_arbiter_desc d;
    ibcc_rng r;
    unsigned in, k, picks = 0, calls;
    double t0, t1;
    const unsigned N = 200000;
    memset(&d, 0, sizeof d);
    d.ports = P;
    d.capacity = CAP;
    d.policy = pol;
    if (ibcc_arbiter_init(&a, &d, mem_, sizeof mem_) != IBCC_OK) exit(1);
    ibcc_rng_seed(&r, 99);
    for (k = 0; k < sizeof rnd_; k++) rnd_[k] = (uint8_t)ibcc_rng_below(&r, 256);
    for (in = 0; in < P; in++)
        for (k = 0; k < CAP; k++)
            ibcc_arbiter_push(&a, in, (unsigned)ibcc_rng_below(&r, P), 2068, k);
    t0 = bench_now_ns();
    for (calls = 0; calls < N; calls++) {
        ibcc_arb_grant g;
        int got;
        /* every 16 calls the outputs are redrawn: 3 of 4 can take */
        if ((calls & 15u) == 0)
            for (k = 0; k < P; k++)
                ibcc_arbiter_set_output(&a, k, (rnd_[(calls + k) & 0xffffu] & 3u) != 0);
        if (any) got = ibcc_arbiter_pick_any(&a, &g);
        else got = ibcc_arbiter_pick(&a, rnd_[calls & 0xffffu] % P, &g);
        if (!got) continue;
        picks++;
        ibcc_arbiter_set_input_busy(&a, g.in, 0);
        ibcc_arbiter_push(&a, g.in, rnd_[(picks * 3u) & 0xffffu] % P, 2068, g.tag);
    }
    t1 = bench_now_ns();
    BENCH_KEEP(a.grants);
    *granted = (double)picks / (double)N;
    return (t1 - t0) / (double)N;
}

int main(int argc, char **argv)
{
    static const ibcc_marker_engine engs[6] = {
        IBCC_MARKER_NONE, IBCC_MARKER_NAIVE, IBCC_MARKER_INPUT, IBCC_MARKER_INPUT_OUTPUT,
        IBCC_MARKER_IBA, IBCC_MARKER_MVPM
    };
    static const unsigned ports[3] = {8, 36, 64};
    unsigned pi, ei;
    int rep, fail = 0;
    char name[128];
    bench_open(argc, argv);
    printf("bench_marker: ns per packet (arrive + depart), %u-event traces\n", NEV);
    for (pi = 0; pi < 3; pi++) {
        unsigned P = ports[pi];
        make_trace(P, 1000u + P);
        {
            double tf[BENCH_REPS];
            for (rep = 0; rep < BENCH_REPS; rep++) tf[rep] = run_floor();
            snprintf(name, sizeof name, "marker trace replay floor %u ports", P);
            bench_row(name, bench_median(tf, BENCH_REPS), "ns/pkt");
        }
        for (ei = 0; ei < 6; ei++) {
            double tc[BENCH_REPS], tr[BENCH_REPS], ratio[BENCH_REPS];
            result rc = {0, 0, 0}, rr = {0, 0, 0};
            const char *en = ibcc_marker_engine_name(engs[ei]);
            for (rep = 0; rep < BENCH_REPS; rep++) {
                rc = run_marker(engs[ei], P, &tc[rep]);
                rr = run_reference(engs[ei], P, &tr[rep]);
                ratio[rep] = tr[rep] / tc[rep];
            }
            if (rc.marks != rr.marks || rc.hash != rr.hash || rc.pkts != rr.pkts) {
                printf("MISMATCH %s %u ports: counter %llu marks, reference %llu\n",
                       en, P, (unsigned long long)rc.marks,
                       (unsigned long long)rr.marks);
                fail = 1;
            }
            snprintf(name, sizeof name, "marker %s %u ports", en, P);
            bench_row(name, bench_median(tc, BENCH_REPS), "ns/pkt");
            snprintf(name, sizeof name, "marker %s %u ports scan reference", en, P);
            bench_row(name, bench_median(tr, BENCH_REPS), "ns/pkt");
            snprintf(name, sizeof name, "marker %s %u ports reference/counter", en, P);
            bench_row(name, bench_median(ratio, BENCH_REPS), "ratio");
            printf("    (%llu of %llu packets marked, same in both)\n",
                   (unsigned long long)rc.marks, (unsigned long long)rc.pkts);
            if (engs[ei] == IBCC_MARKER_INPUT) {
                /* the engine against the minimal kernel, interleaved */
                double tk[BENCH_REPS], tm[BENCH_REPS], kr[BENCH_REPS];
                result rk = {0, 0, 0};
                for (rep = 0; rep < BENCH_REPS; rep++) {
                    rk = run_kernel(P, &tk[rep]);
                    rc = run_marker(engs[ei], P, &tm[rep]);
                    kr[rep] = tm[rep] / tk[rep];
                }
                if (rk.marks != rc.marks || rk.hash != rc.hash || rk.pkts != rc.pkts) {
                    printf("MISMATCH input %u ports: kernel %llu marks, engine %llu\n",
                           P, (unsigned long long)rk.marks,
                           (unsigned long long)rc.marks);
                    fail = 1;
                }
                snprintf(name, sizeof name, "marker input %u ports counter kernel", P);
                bench_row(name, bench_median(tk, BENCH_REPS), "ns/pkt");
                snprintf(name, sizeof name, "marker input %u ports engine/kernel", P);
                bench_row(name, bench_median(kr, BENCH_REPS), "ratio");
            }
        }
    }
    for (pi = 0; pi < 3; pi++) {
        static const char *const what[3] = {
            "oldest pick_any", "oldest pick(out)", "rr pick(out)"
        };
        unsigned P = ports[pi], w;
        for (w = 0; w < 3; w++) {
            double t[BENCH_REPS], granted = 0;
            for (rep = 0; rep < BENCH_REPS; rep++)
                t[rep] = bench_arbiter(w == 2 ? IBCC_ARB_RR : IBCC_ARB_OLDEST,
                                       P, w == 0, &granted);
            snprintf(name, sizeof name, "arbiter %s %u ports", what[w], P);
            bench_row(name, bench_median(t, BENCH_REPS), "ns/call");
            printf("    (%.0f%% of calls granted a packet)\n", 100.0 * granted);
        }
    }
    bench_close();
    return fail;
}
