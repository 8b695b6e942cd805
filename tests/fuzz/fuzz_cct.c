/* Fuzz harness: the IBA CA congestion-control agent (ibcc_cct) against an
   eager reference that visits every flow of an SL at every timer expiry.

   Input: a description (flows, table given or default, limit, per-QP or
   per-SL control, disabled SLs, per-SL settings, flow SLs, log size, max
   packet time), then operations at times that mostly grow and sometimes
   go back: BECNs, CCTI / delay / interval / timer queries, advance,
   set_sl, set_flow_sl, set_port, set_table (valid and invalid), log
   reads, reset.

   The reference keeps one CCTI per flow (per SL in per-SL mode) and one
   timer per SL: at each expiry (start + k * period, before any event at
   the same time; never at or beyond IBCC_TIME_MAX) every flow of the SL
   above CCTI_Min loses one, and the timer re-arms while one is still above
   it. A BECN adds CCTI_Increase up to CCTI_Limit, starts a stopped timer
   and logs when the CCTI reaches Trigger_Threshold. Times earlier than
   the latest state-changing call count as that time; queries apply the
   expiries without storing them.

   Checked after every operation: each result against the reference
   (CCTIs, delays = (max_pkt_time >> shift) * multiplier of the entry,
   timer state and expiry counts, log events oldest first, counts of
   logged and lost events, settings, table); a rejected call (any error
   code) leaves every byte of the agent and its memory unchanged;
   ibcc_cct_defaults, ibcc_cct_size and ibcc_cct_init agree on validity. */
#include "fuzz.h"

#define MF 48                       /* flows */
#define MT 512                      /* table entries */
#define MLOG 16                     /* the default log capacity */
#define P1 UINT64_C(1024000)        /* CCTI_Timer unit */

typedef struct model {
    uint32_t flows;
    unsigned per_sl;
    uint16_t map, limit;
    ibcc_cct_sl p[16];
    ibcc_time period[16], next[16];
    int running[16];
    uint64_t count[16];
    uint16_t ccti[MF], sccti[16];
    uint8_t sl[MF];
    ibcc_time last;
} model;

typedef struct mlog {
    uint32_t cap, head, n;
    uint64_t total, lost;
    ibcc_cct_event ev[MLOG];
} mlog;

static uint16_t mtable_[IBCC_CCT_MAX_ENTRIES];
static uint32_t mentries_;
static ibcc_time mpt_;

static ibcc_time sat_add(ibcc_time a, ibcc_time b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void m_fire(model *m, unsigned s)
{
    unsigned min = m->p[s].ccti_min;
    int any = 0;
    uint32_t i;
    if (m->per_sl) {
        if (m->sccti[s] > min) m->sccti[s]--;
        any = m->sccti[s] > min;
    } else {
        for (i = 0; i < m->flows; i++) {
            if (m->sl[i] != s) continue;
            if (m->ccti[i] > min) m->ccti[i]--;
            if (m->ccti[i] > min) any = 1;
        }
    }
    m->count[s]++;
    if (any) m->next[s] = sat_add(m->next[s], m->period[s]);
    else m->running[s] = 0;
}

static void m_adv(model *m, ibcc_time now)
{
    unsigned s;
    for (s = 0; s < 16; s++)
        while (m->running[s] && m->next[s] != UINT64_MAX && m->next[s] <= now)
            m_fire(m, s);
}

static ibcc_time m_eff(const model *m, ibcc_time t) { return t < m->last ? m->last : t; }

static uint16_t *m_ref(model *m, uint32_t f)
{
    return m->per_sl ? &m->sccti[m->sl[f]] : &m->ccti[f];
}

static ibcc_time m_delay_of(unsigned ccti)
{
    uint16_t e = mtable_[ccti];
    uint64_t u = mpt_ >> IBCC_CCT_SHIFT(e), k = IBCC_CCT_MULT(e);
    if (k != 0 && u > UINT64_MAX / k) return UINT64_MAX;
    return u * k;
}

static void m_clear_sl(model *m, unsigned s)
{
    uint32_t i;
    m->running[s] = 0;
    m->sccti[s] = 0;
    for (i = 0; i < m->flows; i++) if (m->sl[i] == s) m->ccti[i] = 0;
}

/* The agent and its memory: a rejected call must leave both unchanged. */
static uint64_t mem_[8192];
static uint64_t snap_mem_[8192];
static ibcc_cct snap_c_;
static size_t memlen_;

static void snap(const ibcc_cct *c)
{
    memcpy(&snap_c_, c, sizeof *c);
    memcpy(snap_mem_, mem_, memlen_);
}
static void same_as_snap(const ibcc_cct *c, const char *what, ibcc_result r)
{
    FZ_CHECK(memcmp(&snap_c_, c, sizeof *c) == 0 && memcmp(snap_mem_, mem_, memlen_) == 0,
             "%s rejected with %d but changed the agent", what, (int)r);
}

static void rand_sl(fz *f, ibcc_cct_sl *p)
{
    memset(p, 0, sizeof *p);
    p->ccti_timer = (uint16_t)(fz_u8(f) < 16 ? 0 : fz_range(f, 1, 6));
    if (fz_u8(f) == 0) p->ccti_timer = fz_u16(f);
    p->ccti_increase = (uint8_t)fz_range(f, 0, 5);
    p->trigger_threshold = (uint8_t)(fz_u8(f) < 128 ? 0 : fz_range(f, 1, 12));
    p->ccti_min = (uint8_t)fz_range(f, 0, 6);
}

static void check_flow(const ibcc_cct *c, model *m, uint32_t f, ibcc_time t)
{
    model tmp = *m;
    ibcc_time eff = m_eff(m, t);
    unsigned want;
    m_adv(&tmp, eff);
    want = f < tmp.flows ? *m_ref(&tmp, f) : 0u;
    FZ_CHECK(ibcc_cct_ccti(c, f, t) == want, "ccti of flow %u at %llu: %u, reference %u",
             f, (unsigned long long)t, ibcc_cct_ccti(c, f, t), want);
    {
        ibcc_time d = 0;
        if (f < tmp.flows && ((tmp.map >> tmp.sl[f]) & 1u)) d = m_delay_of(want);
        FZ_CHECK(ibcc_cct_delay(c, f, t) == d, "delay of flow %u", f);
        FZ_CHECK(ibcc_cct_interval(c, f, t, 777) == sat_add(777, d), "interval of flow %u", f);
    }
    FZ_CHECK(ibcc_cct_flow_sl(c, f) == (f < tmp.flows ? tmp.sl[f] : 0u), "flow_sl");
}

static void check_timers(const ibcc_cct *c, model *m, ibcc_time t)
{
    model tmp = *m;
    unsigned s;
    m_adv(&tmp, m_eff(m, t));
    for (s = 0; s < 17; s++) {
        int run = s < 16 ? tmp.running[s] : 0;
        uint64_t cnt = s < 16 ? tmp.count[s] : 0;
        FZ_CHECK(ibcc_cct_timer_running(c, s, t) == run, "timer %u running %d, reference %d",
                 s, ibcc_cct_timer_running(c, s, t), run);
        FZ_CHECK(ibcc_cct_timer_expiries(c, s, t) == cnt, "timer %u expiries %llu, reference %llu",
                 s, (unsigned long long)ibcc_cct_timer_expiries(c, s, t), (unsigned long long)cnt);
    }
}

static void check_settings(const ibcc_cct *c, const model *m)
{
    unsigned s;
    uint32_t i;
    const uint16_t *t = ibcc_cct_table(c);
    FZ_CHECK(ibcc_cct_limit(c) == m->limit, "limit");
    for (s = 0; s < 16; s++) {
        const ibcc_cct_sl *p = ibcc_cct_get_sl(c, s);
        FZ_CHECK(p && fz_sl_eq(p, &m->p[s]), "settings of SL %u", s);
    }
    FZ_CHECK(ibcc_cct_get_sl(c, 16) == NULL, "get_sl(16)");
    for (i = 0; i < mentries_; i++) FZ_CHECK(t[i] == mtable_[i], "table entry %u", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint16_t tab[MT];
    static uint8_t fsl[MF];
    fz f;
    ibcc_cct_desc d, e;
    ibcc_cct c;
    ibcc_result rd, ri;
    size_t need;
    model m;
    mlog lg;
    unsigned s, ops = 0;
    uint32_t i;
    ibcc_time base = 0;

    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    d.flows = fz_range(&f, 0, MF);
    d.per_sl = fz_u8(&f) % 3u;                           /* 2: invalid */
    d.disabled_sls = fz_u8(&f) < 192 ? 0 : fz_u16(&f);
    d.log_capacity = fz_range(&f, 0, MLOG);
    switch (fz_u8(&f) % 4u) {                            /* packet time */
    case 0: d.max_pkt_time = 0; break;                   /* default wire time */
    case 1: d.max_pkt_time = fz_range(&f, 1, 4000); break;
    case 2: d.max_pkt_time = fz_u32(&f); break;
    default: d.max_pkt_time = fz_u64(&f); break;
    }
    if (fz_u8(&f) & 1u) {                                /* caller's table */
        uint32_t n = fz_range(&f, 0, MT);
        for (i = 0; i < n; i++) tab[i] = fz_u16(&f);
        d.table = tab;
        d.table_len = n;
        d.entries = fz_u8(&f) < 128 ? 0 : fz_range(&f, 0, MT);
    } else {
        d.entries = fz_range(&f, 0, MT);
        if (fz_u8(&f) == 3) d.table_len = 5;             /* invalid: no table */
    }
    d.ccti_limit = (uint16_t)(fz_u8(&f) < 128 ? 0 : fz_below(&f, MT + 2u));
    for (s = 0; s < 16; s++) {
        rand_sl(&f, &d.sl[s]);
        if (d.sl[s].ccti_min > 3 && fz_u8(&f) < 200) d.sl[s].ccti_min = 0;
    }
    if (fz_u8(&f) & 1u) {
        for (i = 0; i < MF; i++) fsl[i] = (uint8_t)(fz_u8(&f) % 17u);  /* 16: invalid */
        d.flow_sl = fsl;
    }

    /* one validation for defaults, size and init */
    e = d;
    rd = ibcc_cct_defaults(&e);
    {
        ibcc_result rs = ibcc_cct_size(&d, &need);
        FZ_CHECK(rs == rd && (rd == IBCC_OK ? need != 0 : need == 0),
                 "size %d (%zu bytes) vs defaults %d", (int)rs, need, (int)rd);
    }
    if (rd == IBCC_OK && need > sizeof mem_) return 0;
    ri = ibcc_cct_init(&c, &d, mem_, sizeof mem_);
    FZ_CHECK(ri == rd, "init %d vs defaults %d", (int)ri, (int)rd);
    if (ri != IBCC_OK) return 0;
    memlen_ = need;

    /* reference from the effective description */
    memset(&m, 0, sizeof m);
    m.flows = e.flows;
    m.per_sl = e.per_sl;
    m.map = (uint16_t)~e.disabled_sls;
    m.limit = e.ccti_limit;
    for (s = 0; s < 16; s++) {
        m.p[s] = e.sl[s];
        m.period[s] = (ibcc_time)e.sl[s].ccti_timer * P1;
    }
    for (i = 0; i < m.flows; i++) m.sl[i] = e.flow_sl ? e.flow_sl[i] : 0;
    mentries_ = e.entries;
    mpt_ = e.max_pkt_time;
    memcpy(mtable_, ibcc_cct_table(&c), mentries_ * sizeof(uint16_t));
    if (e.table) {
        for (i = 0; i < mentries_; i++)
            FZ_CHECK(mtable_[i] == (i < e.table_len ? e.table[i] : 0u), "initial table %u", i);
    }
    memset(&lg, 0, sizeof lg);
    lg.cap = e.log_capacity;
    check_settings(&c, &m);

    while (fz_more(&f) && ops++ < 2000u) {
        uint8_t op = fz_u8(&f), g = fz_u8(&f);
        uint32_t fl = fz_below(&f, m.flows + 1u);        /* = flows: unknown */
        ibcc_time t;
        /* time: small steps, period-grid steps, idle gaps, the far end,
           or a step back */
        if (g < 120) base = sat_add(base, fz_u16(&f) * UINT64_C(100));
        else if (g < 180) base = sat_add(base, (P1 / 4) * fz_below(&f, 8));
        else if (g < 200) base = sat_add(base, P1 * fz_u16(&f));
        else if (g == 200) base = UINT64_MAX - fz_u32(&f);
        t = base;
        if (g > 240) {
            ibcc_time back = (ibcc_time)fz_u32(&f) * 16u;
            t = back < base ? base - back : 0;
        }

        switch (op % 12u) {
        case 0: case 1: case 2: {                        /* BECN */
            unsigned got = ibcc_cct_on_becn(&c, fl, t), want = 0;
            if (fl < m.flows && ((m.map >> m.sl[fl]) & 1u)) {
                ibcc_time eff = m_eff(&m, t);
                unsigned sl = m.sl[fl], v, nv;
                uint16_t *r;
                m_adv(&m, eff);
                m.last = eff;
                r = m_ref(&m, fl);
                v = *r;
                nv = v + m.p[sl].ccti_increase;
                if (nv > m.limit) nv = m.limit;
                if (v > nv) nv = v;
                *r = (uint16_t)nv;
                if (m.period[sl] != 0 && !m.running[sl]) {
                    m.running[sl] = 1;
                    m.next[sl] = sat_add(eff, m.period[sl]);
                }
                if (m.p[sl].trigger_threshold != 0 && nv >= m.p[sl].trigger_threshold && lg.cap) {
                    ibcc_cct_event ev;
                    uint32_t slot;
                    memset(&ev, 0, sizeof ev);
                    ev.time = eff; ev.flow = fl; ev.ccti = (uint16_t)nv; ev.sl = (uint8_t)sl;
                    if (lg.n == lg.cap) {
                        slot = lg.head;
                        lg.head = (lg.head + 1u) % lg.cap;
                        lg.lost++;
                    } else {
                        slot = (lg.head + lg.n) % lg.cap;
                        lg.n++;
                    }
                    lg.ev[slot] = ev;
                    lg.total++;
                }
                want = nv;
            }
            FZ_CHECK(got == want, "BECN on flow %u: %u, reference %u", fl, got, want);
            break;
        }
        case 3: case 4:                                  /* queries */
            check_flow(&c, &m, fl, t);
            break;
        case 5:                                          /* timers, advance */
            if (op & 0x80) {
                ibcc_time eff = m_eff(&m, t);
                ibcc_cct_advance(&c, t);
                m_adv(&m, eff);
                m.last = eff;
            }
            check_timers(&c, &m, t);
            break;
        case 6: {                                        /* set_sl */
            ibcc_cct_sl p;
            ibcc_result r, want;
            s = fz_below(&f, 17);
            rand_sl(&f, &p);
            if (fz_u8(&f) < 16) p.ccti_min = (uint8_t)fz_u8(&f);
            want = (s >= 16 || p.ccti_min > m.limit) ? IBCC_ERR_RANGE : IBCC_OK;
            snap(&c);
            r = ibcc_cct_set_sl(&c, s, &p, t);
            FZ_CHECK(r == want, "set_sl %d, reference %d", (int)r, (int)want);
            if (r != IBCC_OK) { same_as_snap(&c, "set_sl", r); break; }
            {
                ibcc_time eff = m_eff(&m, t);
                m_adv(&m, eff);
                m.last = eff;
                m.p[s] = p;
                m.period[s] = (ibcc_time)p.ccti_timer * P1;
                if (m.period[s] == 0) m.running[s] = 0;
            }
            break;
        }
        case 7: {                                        /* set_flow_sl */
            ibcc_result r, want = IBCC_OK;
            ibcc_time eff = m_eff(&m, t);
            model tmp = m;
            s = fz_below(&f, 17);
            m_adv(&tmp, eff);
            if (fl >= m.flows || s >= 16) want = IBCC_ERR_RANGE;
            else if (!m.per_sl && (tmp.ccti[fl] > tmp.p[tmp.sl[fl]].ccti_min
                                   || tmp.ccti[fl] > tmp.p[s].ccti_min))
                want = IBCC_ERR_STATE;
            snap(&c);
            r = ibcc_cct_set_flow_sl(&c, fl, s, t);
            FZ_CHECK(r == want, "set_flow_sl %d, reference %d", (int)r, (int)want);
            if (r != IBCC_OK) { same_as_snap(&c, "set_flow_sl", r); break; }
            m = tmp;
            m.last = eff;
            m.sl[fl] = (uint8_t)s;
            break;
        }
        case 8: {                                        /* set_port */
            uint16_t pc = (uint16_t)(fz_u8(&f) < 240 ? fz_u8(&f) & 1u : fz_u16(&f));
            uint16_t map = fz_u8(&f) < 128 ? (uint16_t)0xffffu : fz_u16(&f);
            ibcc_result r;
            snap(&c);
            r = ibcc_cct_set_port(&c, pc, map, t);
            if (pc & ~1u) {
                FZ_CHECK(r == IBCC_ERR_RANGE, "set_port reserved bits: %d", (int)r);
                same_as_snap(&c, "set_port", r);
                break;
            }
            FZ_CHECK(r == IBCC_OK, "set_port %d", (int)r);
            {
                ibcc_time eff = m_eff(&m, t);
                m_adv(&m, eff);
                m.last = eff;
                for (s = 0; s < 16; s++) {
                    int off = ((m.map >> s) & 1u) && !((map >> s) & 1u);
                    if ((unsigned)(pc & 1u) != m.per_sl || off) m_clear_sl(&m, s);
                }
                m.per_sl = pc & 1u;
                m.map = map;
            }
            break;
        }
        case 9: {                                        /* set_table */
            uint32_t n = fz_below(&f, mentries_ + 3u);
            uint16_t lim = (uint16_t)fz_below(&f, n + 2u), minmax = 0;
            ibcc_result r, want = IBCC_OK;
            static uint16_t ent[MT + 2];
            for (i = 0; i < n; i++) ent[i] = (uint16_t)(fz_u8(&f) * 257u);
            for (s = 0; s < 16; s++) if (m.p[s].ccti_min > minmax) minmax = m.p[s].ccti_min;
            if (n > mentries_) want = IBCC_ERR_CAPACITY;
            else if (lim >= (n > 0 ? n : 1u) || lim < minmax) want = IBCC_ERR_RANGE;
            snap(&c);
            r = ibcc_cct_set_table(&c, ent, n, lim, t);
            FZ_CHECK(r == want, "set_table %d, reference %d", (int)r, (int)want);
            if (r != IBCC_OK) { same_as_snap(&c, "set_table", r); break; }
            {
                ibcc_time eff = m_eff(&m, t);
                m_adv(&m, eff);
                m.last = eff;
                memset(mtable_, 0, mentries_ * sizeof(uint16_t));
                memcpy(mtable_, ent, n * sizeof(uint16_t));
                m.limit = lim;
                for (i = 0; i < m.flows; i++) if (m.ccti[i] > lim) m.ccti[i] = lim;
                for (s = 0; s < 16; s++) if (m.sccti[s] > lim) m.sccti[s] = lim;
            }
            check_settings(&c, &m);
            break;
        }
        case 10: {                                       /* log */
            ibcc_cct_event out[MLOG];
            uint32_t max = fz_below(&f, MLOG + 1u), got, k;
            FZ_CHECK(ibcc_cct_log_count(&c) == lg.n, "log count %u, reference %u",
                     ibcc_cct_log_count(&c), lg.n);
            FZ_CHECK(ibcc_cct_log_total(&c) == lg.total && ibcc_cct_log_lost(&c) == lg.lost,
                     "log totals");
            got = ibcc_cct_log_read(&c, out, max);
            FZ_CHECK(got == (max < lg.n ? max : lg.n), "log read %u", got);
            for (k = 0; k < got; k++) {
                const ibcc_cct_event *w = &lg.ev[(lg.head + k) % lg.cap];
                FZ_CHECK(out[k].time == w->time && out[k].flow == w->flow
                         && out[k].ccti == w->ccti && out[k].sl == w->sl,
                         "log event %u: flow %u ccti %u sl %u, reference flow %u ccti %u sl %u",
                         k, out[k].flow, out[k].ccti, out[k].sl, w->flow, w->ccti, w->sl);
            }
            if (got) { lg.head = (lg.head + got) % lg.cap; lg.n -= got; }
            break;
        }
        default:                                         /* reset, sweep */
            if ((op & 0xf0) == 0xf0) {
                ibcc_cct_reset(&c);
                for (i = 0; i < m.flows; i++) m.ccti[i] = 0;
                for (s = 0; s < 16; s++) {
                    m.sccti[s] = 0; m.running[s] = 0; m.count[s] = 0; m.next[s] = 0;
                }
                m.last = 0;
                base = 0;
                lg.head = lg.n = 0;
                lg.total = lg.lost = 0;
            }
            for (i = 0; i <= m.flows; i++) check_flow(&c, &m, i, t);
            check_timers(&c, &m, t);
            check_settings(&c, &m);
            break;
        }
    }
    /* final sweep */
    for (i = 0; i <= m.flows; i++) check_flow(&c, &m, i, base);
    check_timers(&c, &m, base);
    return 0;
}
