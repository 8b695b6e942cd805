/* ---- L1 swcc: implementation ------------------------------------------ */

static void ibcc__swcc_put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static void ibcc__swcc_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static uint32_t ibcc__swcc_get16(const uint8_t *p)
{
    return ((uint32_t)p[0] << 8) | p[1];
}
static uint32_t ibcc__swcc_get32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[2] << 8) | p[3];
}

/* 256-bit mask (bit p of word p/32 = port p) as a big-endian 32-byte
   field: word w holds ports 32w..32w+31, i.e. field bytes 28-4w..31-4w. */
static void ibcc__swcc_put_mask(uint8_t *field, const uint32_t *mask)
{
    unsigned w;
    for (w = 0; w < 8u; w++) ibcc__swcc_put32(field + 28u - 4u * w, mask[w]);
}
static void ibcc__swcc_get_mask(uint32_t *mask, const uint8_t *field)
{
    unsigned w;
    for (w = 0; w < 8u; w++) mask[w] = ibcc__swcc_get32(field + 28u - 4u * w);
}

IBCC_API ibcc_result ibcc_swcc_validate(const ibcc_swcc *s)
{
    if (!s) return IBCC_ERR_NULL;
    if (s->control_map & ~(uint32_t)0x1fu) return IBCC_ERR_RANGE;
    if (s->threshold > 15u || s->packet_size > 255u || s->cs_threshold > 15u ||
        s->cs_return_delay_shift > 3u || s->cs_return_delay_mult > 16383u ||
        s->marking_rate > 65535u)
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_validate(const ibcc_swport *e)
{
    if (!e) return IBCC_ERR_NULL;
    if (e->valid > 1u || e->control_type > 1u || e->threshold > 15u ||
        e->packet_size > 255u || e->marking_rate > 65535u)
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_encode(const ibcc_swcc *s, uint8_t *out)
{
    ibcc_result r;
    if (!s || !out) return IBCC_ERR_NULL;
    r = ibcc_swcc_validate(s);
    if (r != IBCC_OK) return r;
    memset(out, 0, IBCC_SWCC_MAD_BYTES);
    ibcc__swcc_put32(out + 0, s->control_map);
    ibcc__swcc_put_mask(out + 4, s->victim_mask);
    ibcc__swcc_put_mask(out + 36, s->credit_mask);
    out[68] = (uint8_t)(s->threshold << 4);
    out[69] = (uint8_t)s->packet_size;
    out[70] = (uint8_t)(s->cs_threshold << 4);
    ibcc__swcc_put16(out + 72, (s->cs_return_delay_shift << 14) |
                               s->cs_return_delay_mult);
    ibcc__swcc_put16(out + 74, s->marking_rate);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_decode(ibcc_swcc *s, const uint8_t *in)
{
    uint32_t rd;
    if (!s || !in) return IBCC_ERR_NULL;
    memset(s, 0, sizeof *s);
    s->control_map = ibcc__swcc_get32(in + 0);
    ibcc__swcc_get_mask(s->victim_mask, in + 4);
    ibcc__swcc_get_mask(s->credit_mask, in + 36);
    s->threshold = (uint32_t)in[68] >> 4;
    s->packet_size = in[69];
    s->cs_threshold = (uint32_t)in[70] >> 4;
    rd = ibcc__swcc_get16(in + 72);
    s->cs_return_delay_shift = rd >> 14;
    s->cs_return_delay_mult = rd & 0x3fffu;
    s->marking_rate = ibcc__swcc_get16(in + 74);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_encode(const ibcc_swport *e, uint8_t *out)
{
    ibcc_result r;
    if (!e || !out) return IBCC_ERR_NULL;
    r = ibcc_swport_validate(e);
    if (r != IBCC_OK) return r;
    out[0] = (uint8_t)((e->valid << 7) | (e->control_type << 6) | e->threshold);
    out[1] = (uint8_t)e->packet_size;
    ibcc__swcc_put16(out + 2, e->marking_rate);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_decode(ibcc_swport *e, const uint8_t *in)
{
    if (!e || !in) return IBCC_ERR_NULL;
    e->valid = (uint32_t)(in[0] >> 7) & 1u;
    e->control_type = (uint32_t)(in[0] >> 6) & 1u;
    e->threshold = (uint32_t)in[0] & 0x0fu;
    e->packet_size = in[1];
    e->marking_rate = ibcc__swcc_get16(in + 2);
    return IBCC_OK;
}

/* ---- text ------------------------------------------------------------- */

static int ibcc__swcc_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next token of *p (stops at end of string); returns its length, 0 at the
   end, and advances *p past it. */
static size_t ibcc__swcc_token(const char **p, const char **tok)
{
    const char *s = *p;
    size_t n = 0;
    while (*s && ibcc__swcc_space(*s)) s++;
    *tok = s;
    while (s[n] && !ibcc__swcc_space(s[n])) n++;
    *p = s + n;
    return n;
}

static int ibcc__swcc_hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Number token: 0x-hex or decimal, at most `max`. */
static ibcc_result ibcc__swcc_num(const char *t, size_t n, uint64_t max,
                                  uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    if (n == 0) return IBCC_ERR_PARSE;
    if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        for (i = 2; i < n; i++) {
            int h = ibcc__swcc_hexval(t[i]);
            if (h < 0) return IBCC_ERR_PARSE;
            if (x > (UINT64_MAX >> 4)) return IBCC_ERR_RANGE;
            x = (x << 4) | (uint64_t)h;
        }
    } else {
        for (i = 0; i < n; i++) {
            uint64_t dgt;
            if (t[i] < '0' || t[i] > '9') return IBCC_ERR_PARSE;
            dgt = (uint64_t)(t[i] - '0');
            if (x > (UINT64_MAX - dgt) / 10u) return IBCC_ERR_RANGE;
            x = x * 10u + dgt;
        }
    }
    if (x > max) return IBCC_ERR_RANGE;
    *v = x;
    return IBCC_OK;
}

static ibcc_result ibcc__swcc_u32(const char *t, size_t n, uint32_t max,
                                  uint32_t *v)
{
    uint64_t x = 0;
    ibcc_result r = ibcc__swcc_num(t, n, max, &x);
    if (r == IBCC_OK) *v = (uint32_t)x;
    return r;
}

/* 256-bit mask token: 0x + up to 64 significant hex digits, or a decimal
   below 2^64. */
static ibcc_result ibcc__swcc_mask(const char *t, size_t n, uint32_t *mask)
{
    uint32_t m[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        size_t i, k = 0;
        for (i = 2; i < n; i++)
            if (ibcc__swcc_hexval(t[i]) < 0) return IBCC_ERR_PARSE;
        i = 2;
        while (i < n - 1u && t[i] == '0') i++;   /* leading zeros */
        if (n - i > 64u) return IBCC_ERR_RANGE;
        /* digit k from the right holds bits 4k..4k+3 */
        for (k = 0; k < n - i; k++) {
            uint32_t h = (uint32_t)ibcc__swcc_hexval(t[n - 1u - k]);
            m[k / 8u] |= h << (4u * (k % 8u));
        }
    } else {
        uint64_t x;
        ibcc_result r = ibcc__swcc_num(t, n, UINT64_MAX, &x);
        if (r != IBCC_OK) return r;
        m[0] = (uint32_t)x;
        m[1] = (uint32_t)(x >> 32);
    }
    memcpy(mask, m, sizeof m);
    return IBCC_OK;
}

/* "shift:mult" with shift 0..3 and mult 0..16383. */
static ibcc_result ibcc__swcc_delay(const char *t, size_t n, uint32_t *shift,
                                    uint32_t *mult)
{
    size_t c = 0;
    uint32_t s, m;
    ibcc_result r;
    while (c < n && t[c] != ':') c++;
    if (c == n) return IBCC_ERR_PARSE;
    r = ibcc__swcc_u32(t, c, 3u, &s);
    if (r != IBCC_OK) return r;
    r = ibcc__swcc_u32(t + c + 1, n - c - 1u, 16383u, &m);
    if (r != IBCC_OK) return r;
    *shift = s;
    *mult = m;
    return IBCC_OK;
}

static int ibcc__swcc_is(const char *t, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(t, word, n) == 0;
}

IBCC_API ibcc_result ibcc_swcc_parse_args(ibcc_swcc *s, const char *text)
{
    ibcc_swcc v;
    const char *p = text, *t;
    size_t n;
    ibcc_result r;
    if (!s || !text) return IBCC_ERR_NULL;
    memset(&v, 0, sizeof v);
    n = ibcc__swcc_token(&p, &t);
    if (ibcc__swcc_is(t, n, "SwitchCongestionSetting")) n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, UINT32_MAX, &v.control_map)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_mask(t, n, v.victim_mask)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_mask(t, n, v.credit_mask)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 15u, &v.threshold)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 255u, &v.packet_size)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 15u, &v.cs_threshold)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_delay(t, n, &v.cs_return_delay_shift,
                              &v.cs_return_delay_mult)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 65535u, &v.marking_rate)) != IBCC_OK) return r;
    if (ibcc__swcc_token(&p, &t) != 0) return IBCC_ERR_PARSE;
    if ((r = ibcc_swcc_validate(&v)) != IBCC_OK) return r;
    *s = v;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_parse_args(ibcc_swport *e, unsigned *port,
                                            const char *text)
{
    ibcc_swport v;
    uint32_t pt;
    const char *p = text, *t;
    size_t n;
    ibcc_result r;
    if (!e || !port || !text) return IBCC_ERR_NULL;
    n = ibcc__swcc_token(&p, &t);
    if (ibcc__swcc_is(t, n, "SwitchPortCongestionSetting")) n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 255u, &pt)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 1u, &v.valid)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 1u, &v.control_type)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 15u, &v.threshold)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 255u, &v.packet_size)) != IBCC_OK) return r;
    n = ibcc__swcc_token(&p, &t);
    if ((r = ibcc__swcc_u32(t, n, 65535u, &v.marking_rate)) != IBCC_OK) return r;
    if (ibcc__swcc_token(&p, &t) != 0) return IBCC_ERR_PARSE;
    *e = v;
    *port = pt;
    return IBCC_OK;
}

/* Hex of a 256-bit mask without leading zeros ("0x0" for none) into a
   buffer of at least 67 bytes. */
static void ibcc__swcc_mask_hex(const uint32_t *mask, char *out)
{
    int w = 7;
    size_t n;
    while (w > 0 && mask[w] == 0) w--;
    n = (size_t)sprintf(out, "0x%lx", (unsigned long)mask[w]);
    while (--w >= 0) n += (size_t)sprintf(out + n, "%08lx", (unsigned long)mask[w]);
}

/* snprintf result -> ibcc_result. */
static ibcc_result ibcc__swcc_fit(int n, size_t len)
{
    if (n < 0) return IBCC_ERR_FULL;
    return ((size_t)n < len) ? IBCC_OK : IBCC_ERR_FULL;
}

IBCC_API ibcc_result ibcc_swcc_print_args(const ibcc_swcc *s, char *buf,
                                          size_t len)
{
    char vm[72], cm[72];
    ibcc_result r;
    if (!s || !buf) return IBCC_ERR_NULL;
    if (len == 0) return IBCC_ERR_FULL;
    if ((r = ibcc_swcc_validate(s)) != IBCC_OK) return r;
    ibcc__swcc_mask_hex(s->victim_mask, vm);
    ibcc__swcc_mask_hex(s->credit_mask, cm);
    return ibcc__swcc_fit(snprintf(buf, len,
        "SwitchCongestionSetting 0x%lx %s %s %lu %lu %lu %lu:%lu %lu",
        (unsigned long)s->control_map, vm, cm, (unsigned long)s->threshold,
        (unsigned long)s->packet_size, (unsigned long)s->cs_threshold,
        (unsigned long)s->cs_return_delay_shift,
        (unsigned long)s->cs_return_delay_mult,
        (unsigned long)s->marking_rate), len);
}

IBCC_API ibcc_result ibcc_swport_print_args(const ibcc_swport *e,
                                            unsigned port, char *buf,
                                            size_t len)
{
    ibcc_result r;
    if (!e || !buf) return IBCC_ERR_NULL;
    if (len == 0) return IBCC_ERR_FULL;
    if ((r = ibcc_swport_validate(e)) != IBCC_OK) return r;
    if (port > 255u) return IBCC_ERR_RANGE;
    return ibcc__swcc_fit(snprintf(buf, len,
        "SwitchPortCongestionSetting %u %lu %lu %lu %lu %lu", port,
        (unsigned long)e->valid, (unsigned long)e->control_type,
        (unsigned long)e->threshold, (unsigned long)e->packet_size,
        (unsigned long)e->marking_rate), len);
}

#define IBCC__SWCC_OPT "cc_sw_cong_setting_"

IBCC_API ibcc_result ibcc_swcc_parse_opensm_line(ibcc_swcc *s,
                                                 const char *line)
{
    static const char *const names[8] = {
        "control_map", "victim_mask", "credit_mask", "threshold",
        "packet_size", "credit_starvation_threshold",
        "credit_starvation_return_delay", "marking_rate"
    };
    const char *p = line, *t, *v;
    size_t n, vn, plen = sizeof(IBCC__SWCC_OPT) - 1u;
    int which = -1, i;
    ibcc_swcc x;
    ibcc_result r = IBCC_OK;
    if (!s || !line) return IBCC_ERR_NULL;
    n = ibcc__swcc_token(&p, &t);
    if (n == 0 || t[0] == '#') return IBCC_OK;
    if (n <= plen || memcmp(t, IBCC__SWCC_OPT, plen) != 0)
        return IBCC_ERR_NOT_FOUND;
    for (i = 0; i < 8; i++)
        if (ibcc__swcc_is(t + plen, n - plen, names[i])) which = i;
    if (which < 0) return IBCC_ERR_NOT_FOUND;
    vn = ibcc__swcc_token(&p, &v);
    if (vn == 0) return IBCC_ERR_PARSE;
    {
        const char *rest;
        if (ibcc__swcc_token(&p, &rest) != 0) return IBCC_ERR_PARSE;
    }
    x = *s;
    switch (which) {
    case 0: r = ibcc__swcc_u32(v, vn, 0x1fu, &x.control_map); break;
    case 1: r = ibcc__swcc_mask(v, vn, x.victim_mask); break;
    case 2: r = ibcc__swcc_mask(v, vn, x.credit_mask); break;
    case 3: r = ibcc__swcc_u32(v, vn, 15u, &x.threshold); break;
    case 4: r = ibcc__swcc_u32(v, vn, 255u, &x.packet_size); break;
    case 5: r = ibcc__swcc_u32(v, vn, 15u, &x.cs_threshold); break;
    case 6: r = ibcc__swcc_delay(v, vn, &x.cs_return_delay_shift,
                                 &x.cs_return_delay_mult); break;
    default: r = ibcc__swcc_u32(v, vn, 65535u, &x.marking_rate); break;
    }
    if (r != IBCC_OK) return r;
    *s = x;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_parse_opensm(ibcc_swcc *s, const char *text,
                                            unsigned *bad_line)
{
    char line[512];
    const char *p = text;
    unsigned no = 0;
    if (!s || !text) return IBCC_ERR_NULL;
    while (*p) {
        size_t n = 0;
        ibcc_result r;
        no++;
        while (p[n] && p[n] != '\n') n++;
        if (n >= sizeof line) {
            /* longer than any of these options can be: not ours unless it
               starts with the prefix */
            if (strncmp(p, IBCC__SWCC_OPT, sizeof(IBCC__SWCC_OPT) - 1u) == 0) {
                if (bad_line) *bad_line = no;
                return IBCC_ERR_PARSE;
            }
            r = IBCC_ERR_NOT_FOUND;
        } else {
            memcpy(line, p, n);
            line[n] = '\0';
            r = ibcc_swcc_parse_opensm_line(s, line);
        }
        if (r != IBCC_OK && r != IBCC_ERR_NOT_FOUND) {
            if (bad_line) *bad_line = no;
            return r;
        }
        p += n;
        if (*p == '\n') p++;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_print_opensm(const ibcc_swcc *s, char *buf,
                                            size_t len)
{
    char vm[72], cm[72];
    ibcc_result r;
    if (!s || !buf) return IBCC_ERR_NULL;
    if (len == 0) return IBCC_ERR_FULL;
    if ((r = ibcc_swcc_validate(s)) != IBCC_OK) return r;
    ibcc__swcc_mask_hex(s->victim_mask, vm);
    ibcc__swcc_mask_hex(s->credit_mask, cm);
    return ibcc__swcc_fit(snprintf(buf, len,
        IBCC__SWCC_OPT "control_map 0x%lx\n"
        IBCC__SWCC_OPT "victim_mask %s\n"
        IBCC__SWCC_OPT "credit_mask %s\n"
        IBCC__SWCC_OPT "threshold 0x%lx\n"
        IBCC__SWCC_OPT "packet_size 0x%lx\n"
        IBCC__SWCC_OPT "credit_starvation_threshold 0x%lx\n"
        IBCC__SWCC_OPT "credit_starvation_return_delay %lu:%lu\n"
        IBCC__SWCC_OPT "marking_rate 0x%lx\n",
        (unsigned long)s->control_map, vm, cm, (unsigned long)s->threshold,
        (unsigned long)s->packet_size, (unsigned long)s->cs_threshold,
        (unsigned long)s->cs_return_delay_shift,
        (unsigned long)s->cs_return_delay_mult,
        (unsigned long)s->marking_rate), len);
}

IBCC_API ibcc_result ibcc_marker_apply_swcc(ibcc_marker *m,
                                            const ibcc_swcc *s)
{
    ibcc_result r;
    unsigned p, w;
    if (!m || !s) return IBCC_ERR_NULL;
    if ((r = ibcc_swcc_validate(s)) != IBCC_OK) return r;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (s->control_map & (IBCC_SWCC_CREDIT_MASK | IBCC_SWCC_CS))
        return IBCC_ERR_UNSUPPORTED;
    if (s->control_map & IBCC_SWCC_VICTIM_MASK) {
        for (p = m->d.ports; p < 256u; p++)
            if ((s->victim_mask[p / 32u] >> (p % 32u)) & 1u) return IBCC_ERR_RANGE;
        for (w = 0; w < 4u; w++)
            m->victim[w] = (uint64_t)s->victim_mask[2u * w] |
                           ((uint64_t)s->victim_mask[2u * w + 1u] << 32);
    }
    for (p = 0; p < m->d.ports; p++) {
        const ibcc__mport *q = &m->port[p];
        unsigned thr = q->iba_weight;
        unsigned psize = q->iba_min_bytes / IBCC_CREDIT_BYTES;
        unsigned rate = q->iba_rate;
        if (!(s->control_map & (IBCC_SWCC_THRESHOLD | IBCC_SWCC_MARKING_RATE)))
            break;
        if (s->control_map & IBCC_SWCC_THRESHOLD) {
            thr = s->threshold;
            psize = s->packet_size;
        }
        if (s->control_map & IBCC_SWCC_MARKING_RATE) rate = s->marking_rate;
        r = ibcc_marker_set_iba_port(m, p, thr, psize, rate);
        if (r != IBCC_OK) return r;   /* not reached: values validated */
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_marker_apply_swport(ibcc_marker *m, unsigned port,
                                              const ibcc_swport *e)
{
    ibcc_result r;
    if (!m || !e) return IBCC_ERR_NULL;
    if ((r = ibcc_swport_validate(e)) != IBCC_OK) return r;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (port >= m->d.ports) return IBCC_ERR_RANGE;
    if (!e->valid) return IBCC_OK;
    if (e->control_type != 0) return IBCC_ERR_UNSUPPORTED;
    return ibcc_marker_set_iba_port(m, port, e->threshold, e->packet_size,
                                    e->marking_rate);
}
