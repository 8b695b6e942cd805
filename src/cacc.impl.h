/* ---- L1 cacc: implementation ------------------------------------------ */

static void ibcc__cacc_put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)((v >> 8) & 0xffu);
    p[1] = (uint8_t)(v & 0xffu);
}

static unsigned ibcc__cacc_get16(const uint8_t *p)
{
    return ((unsigned)p[0] << 8) | (unsigned)p[1];
}

IBCC_API ibcc_result ibcc_cacc_setting_encode(const ibcc_cacc_setting *s,
                                              uint8_t *buf, size_t len)
{
    unsigned i;
    if (!s || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_SETTING_BYTES) return IBCC_ERR_NOMEM;
    if (s->port_control & ~1u) return IBCC_ERR_RANGE;
    memset(buf, 0, IBCC_CACC_SETTING_BYTES);
    ibcc__cacc_put16(buf + 0, s->port_control);
    ibcc__cacc_put16(buf + 2, s->control_map);
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        uint8_t *e = buf + 4 + 8 * i;       /* 8-byte CACongestionEntry */
        ibcc__cacc_put16(e, s->sl[i].ccti_timer);
        e[2] = s->sl[i].ccti_increase;
        e[3] = s->sl[i].trigger_threshold;
        e[4] = s->sl[i].ccti_min;           /* e[5..7] reserved */
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_setting_decode(ibcc_cacc_setting *s,
                                              const uint8_t *buf, size_t len)
{
    unsigned i;
    if (!s || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_SETTING_BYTES) return IBCC_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->port_control = (uint16_t)(ibcc__cacc_get16(buf) & 1u); /* 15..1 rsvd */
    s->control_map = (uint16_t)ibcc__cacc_get16(buf + 2);
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        const uint8_t *e = buf + 4 + 8 * i;
        s->sl[i].ccti_timer = (uint16_t)ibcc__cacc_get16(e);
        s->sl[i].ccti_increase = e[2];
        s->sl[i].trigger_threshold = e[3];
        s->sl[i].ccti_min = e[4];
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_block_encode(const ibcc_cacc_block *b,
                                            uint8_t *buf, size_t len)
{
    unsigned i;
    if (!b || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_TABLE_BYTES) return IBCC_ERR_NOMEM;
    if (b->ccti_limit >= IBCC_CCT_MAX_ENTRIES || b->block >= IBCC_CACC_MAX_BLOCKS)
        return IBCC_ERR_RANGE;
    ibcc__cacc_put16(buf, b->ccti_limit);
    ibcc__cacc_put16(buf + 2, 0);                              /* reserved */
    for (i = 0; i < IBCC_CACC_BLOCK_ENTRIES; i++)
        ibcc__cacc_put16(buf + 4 + 2 * i, b->entry[i]);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_block_decode(ibcc_cacc_block *b, uint16_t block,
                                            const uint8_t *buf, size_t len)
{
    unsigned i, limit;
    if (!b || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_TABLE_BYTES) return IBCC_ERR_NOMEM;
    limit = ibcc__cacc_get16(buf);
    if (block >= IBCC_CACC_MAX_BLOCKS || limit >= IBCC_CCT_MAX_ENTRIES)
        return IBCC_ERR_RANGE;
    b->ccti_limit = (uint16_t)limit;
    b->block = block;
    for (i = 0; i < IBCC_CACC_BLOCK_ENTRIES; i++)
        b->entry[i] = (uint16_t)ibcc__cacc_get16(buf + 4 + 2 * i);
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_cacc_blocks(uint16_t limit)
{
    return (uint32_t)limit / IBCC_CACC_BLOCK_ENTRIES + 1u;
}

IBCC_API ibcc_result ibcc_cacc_block_from_table(ibcc_cacc_block *b,
                                                const uint16_t *entries,
                                                uint32_t n, uint16_t limit,
                                                uint16_t block)
{
    uint32_t i;
    if (!b || (n > 0 && !entries)) return IBCC_ERR_NULL;
    if (n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (limit >= (n > 0 ? n : 1u) || block > limit / IBCC_CACC_BLOCK_ENTRIES)
        return IBCC_ERR_RANGE;
    b->ccti_limit = limit;
    b->block = block;
    for (i = 0; i < IBCC_CACC_BLOCK_ENTRIES; i++) {
        uint32_t k = (uint32_t)block * IBCC_CACC_BLOCK_ENTRIES + i;
        b->entry[i] = k < n ? entries[k] : (uint16_t)0;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_block_to_table(const ibcc_cacc_block *b,
                                              uint16_t *entries, uint32_t cap)
{
    uint32_t first, last, k;
    if (!b || !entries) return IBCC_ERR_NULL;
    first = (uint32_t)b->block * IBCC_CACC_BLOCK_ENTRIES;
    if (first > b->ccti_limit) return IBCC_OK;          /* nothing valid */
    last = first + IBCC_CACC_BLOCK_ENTRIES - 1u;
    if (last > b->ccti_limit) last = b->ccti_limit;
    if (last >= cap) return IBCC_ERR_CAPACITY;
    for (k = first; k <= last; k++) entries[k] = b->entry[k - first];
    return IBCC_OK;
}

/* ---- text: output ------------------------------------------------------ */

typedef struct ibcc__cacc_out {
    char *buf;
    size_t len, pos;
    int over;
} ibcc__cacc_out;

static void ibcc__cacc_str(ibcc__cacc_out *o, const char *s)
{
    while (*s) {
        if (o->pos + 1 >= o->len) { o->over = 1; return; }
        o->buf[o->pos++] = *s++;
    }
    o->buf[o->pos] = '\0';
}

static void ibcc__cacc_num_out(ibcc__cacc_out *o, uint64_t v, int hex)
{
    char t[24];
    int i = 23;
    t[i] = '\0';
    do {
        unsigned d = (unsigned)(hex ? (v & 15u) : (v % 10u));
        t[--i] = (char)(d < 10 ? '0' + d : 'a' + (d - 10));
        v = hex ? v >> 4 : v / 10u;
    } while (v != 0);
    if (hex) { t[--i] = 'x'; t[--i] = '0'; }
    ibcc__cacc_str(o, t + i);
}

static void ibcc__cacc_entry_out(ibcc__cacc_out *o, uint16_t e)
{
    ibcc__cacc_num_out(o, IBCC_CCT_SHIFT(e), 0);
    ibcc__cacc_str(o, ":");
    ibcc__cacc_num_out(o, IBCC_CCT_MULT(e), 0);
}

static void ibcc__cacc_out_begin(ibcc__cacc_out *o, char *buf, size_t len)
{
    o->buf = buf;
    o->len = len;
    o->pos = 0;
    o->over = 0;
    if (len > 0) buf[0] = '\0';
}

static ibcc_result ibcc__cacc_out_end(ibcc__cacc_out *o)
{
    if (o->len == 0 || o->over) {
        if (o->len > 0) o->buf[0] = '\0';
        return IBCC_ERR_NOMEM;
    }
    return IBCC_OK;
}

/* ---- text: input ------------------------------------------------------- */

static int ibcc__cacc_isws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static const char *ibcc__cacc_skip(const char *p, const char *end)
{
    while (p < end && ibcc__cacc_isws(*p)) p++;
    return p;
}

/* Unsigned number, decimal or 0x-hex, at *pp; ends at a non-digit.
   PARSE if no digit, RANGE if above max. */
static ibcc_result ibcc__cacc_num_in(const char **pp, const char *end,
                                     uint64_t max, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    int digits = 0, big = 0;
    if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        for (; p < end; p++) {
            unsigned d;
            if (*p >= '0' && *p <= '9') d = (unsigned)(*p - '0');
            else if (*p >= 'a' && *p <= 'f') d = (unsigned)(*p - 'a') + 10u;
            else if (*p >= 'A' && *p <= 'F') d = (unsigned)(*p - 'A') + 10u;
            else break;
            if (v > (UINT64_MAX >> 4)) big = 1; else v = (v << 4) | d;
            digits++;
        }
    } else {
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            unsigned d = (unsigned)(*p - '0');
            if (v > (UINT64_MAX - d) / 10u) big = 1; else v = v * 10u + d;
            digits++;
        }
    }
    if (!digits) return IBCC_ERR_PARSE;
    *pp = p;
    if (big || v > max) return IBCC_ERR_RANGE;
    *out = v;
    return IBCC_OK;
}

/* A number that must be followed by whitespace or the end. */
static ibcc_result ibcc__cacc_field(const char **pp, const char *end,
                                    uint64_t max, uint64_t *out)
{
    ibcc_result r;
    *pp = ibcc__cacc_skip(*pp, end);
    r = ibcc__cacc_num_in(pp, end, max, out);
    if (r == IBCC_ERR_PARSE) return r;
    if (*pp < end && !ibcc__cacc_isws(**pp)) return IBCC_ERR_PARSE;
    return r;
}

/* "shift:mult" followed by whitespace, ',' or the end. */
static ibcc_result ibcc__cacc_entry_in(const char **pp, const char *end,
                                       uint16_t *out)
{
    uint64_t s = 0, m = 0;
    ibcc_result r, rr = IBCC_OK;
    r = ibcc__cacc_num_in(pp, end, 3, &s);
    if (r == IBCC_ERR_PARSE) return r;
    if (r != IBCC_OK) rr = r;
    if (*pp >= end || **pp != ':') return IBCC_ERR_PARSE;
    (*pp)++;
    r = ibcc__cacc_num_in(pp, end, IBCC_CCT_MULT_MAX, &m);
    if (r == IBCC_ERR_PARSE) return r;
    if (r != IBCC_OK) rr = r;
    if (*pp < end && !ibcc__cacc_isws(**pp) && **pp != ',') return IBCC_ERR_PARSE;
    if (rr != IBCC_OK) return rr;
    *out = IBCC_CCT_ENTRY(s, m);
    return IBCC_OK;
}

/* Keyword `w` followed by whitespace or the end. */
static int ibcc__cacc_word(const char **pp, const char *end, const char *w)
{
    const char *p = *pp;
    size_t n = strlen(w);
    if ((size_t)(end - p) < n || memcmp(p, w, n) != 0) return 0;
    p += n;
    if (p < end && !ibcc__cacc_isws(*p)) return 0;
    *pp = p;
    return 1;
}

static int ibcc__cacc_at_end(const char *p, const char *end)
{
    return ibcc__cacc_skip(p, end) == end;
}

/* ---- ibccconfig forms --------------------------------------------------- */

IBCC_API ibcc_result ibcc_cacc_setting_parse(ibcc_cacc_setting *s, const char *text)
{
    const char *p, *end;
    uint64_t v[6];
    static const uint64_t max[6] = {1u, 0xffffu, 0xffffu, 0xffu, 0xffu, 0xffu};
    ibcc_cacc_setting t;
    ibcc_result r;
    unsigned i;
    if (!s || !text) return IBCC_ERR_NULL;
    end = text + strlen(text);
    p = ibcc__cacc_skip(text, end);
    if (!ibcc__cacc_word(&p, end, "CACongestionSetting")) return IBCC_ERR_PARSE;
    for (i = 0; i < 6; i++) {
        r = ibcc__cacc_field(&p, end, max[i], &v[i]);
        if (r != IBCC_OK) return r;
    }
    if (!ibcc__cacc_at_end(p, end)) return IBCC_ERR_PARSE;
    memset(&t, 0, sizeof t);
    t.port_control = (uint16_t)v[0];
    t.control_map = (uint16_t)v[1];
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        if (!((t.control_map >> i) & 1u)) continue;
        t.sl[i].ccti_timer = (uint16_t)v[2];
        t.sl[i].ccti_increase = (uint8_t)v[3];
        t.sl[i].trigger_threshold = (uint8_t)v[4];
        t.sl[i].ccti_min = (uint8_t)v[5];
    }
    *s = t;
    return IBCC_OK;
}

static int ibcc__cacc_sl_eq(const ibcc_cct_sl *a, const ibcc_cct_sl *b)
{
    return a->ccti_timer == b->ccti_timer && a->ccti_increase == b->ccti_increase
        && a->trigger_threshold == b->trigger_threshold && a->ccti_min == b->ccti_min;
}

IBCC_API ibcc_result ibcc_cacc_setting_print(const ibcc_cacc_setting *s,
                                             char *buf, size_t len)
{
    ibcc__cacc_out o;
    ibcc_cct_sl zero, v;
    unsigned i;
    int have = 0;
    if (!s || !buf) return IBCC_ERR_NULL;
    memset(&zero, 0, sizeof zero);
    v = zero;
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        if ((s->control_map >> i) & 1u) {
            if (!have) { v = s->sl[i]; have = 1; }
            else if (!ibcc__cacc_sl_eq(&v, &s->sl[i])) return IBCC_ERR_UNSUPPORTED;
        } else if (!ibcc__cacc_sl_eq(&zero, &s->sl[i])) {
            return IBCC_ERR_UNSUPPORTED;
        }
    }
    ibcc__cacc_out_begin(&o, buf, len);
    ibcc__cacc_str(&o, "CACongestionSetting ");
    ibcc__cacc_num_out(&o, s->port_control, 0);
    ibcc__cacc_str(&o, " ");
    ibcc__cacc_num_out(&o, s->control_map, 1);
    ibcc__cacc_str(&o, " ");
    ibcc__cacc_num_out(&o, v.ccti_timer, 0);
    ibcc__cacc_str(&o, " ");
    ibcc__cacc_num_out(&o, v.ccti_increase, 0);
    ibcc__cacc_str(&o, " ");
    ibcc__cacc_num_out(&o, v.trigger_threshold, 0);
    ibcc__cacc_str(&o, " ");
    ibcc__cacc_num_out(&o, v.ccti_min, 0);
    return ibcc__cacc_out_end(&o);
}

IBCC_API ibcc_result ibcc_cacc_block_parse(ibcc_cacc_block *b, const char *text)
{
    const char *p, *end;
    uint64_t limit, index;
    ibcc_cacc_block t;
    ibcc_result r;
    unsigned n = 0;
    if (!b || !text) return IBCC_ERR_NULL;
    end = text + strlen(text);
    p = ibcc__cacc_skip(text, end);
    if (!ibcc__cacc_word(&p, end, "CongestionControlTable")) return IBCC_ERR_PARSE;
    r = ibcc__cacc_field(&p, end, IBCC_CCT_MAX_ENTRIES - 1u, &limit);
    if (r != IBCC_OK) return r;
    r = ibcc__cacc_field(&p, end, IBCC_CACC_MAX_BLOCKS - 1u, &index);
    if (r != IBCC_OK) return r;
    memset(&t, 0, sizeof t);
    t.ccti_limit = (uint16_t)limit;
    t.block = (uint16_t)index;
    for (;;) {
        uint16_t e;
        p = ibcc__cacc_skip(p, end);
        if (p == end) break;
        if (n == IBCC_CACC_BLOCK_ENTRIES) return IBCC_ERR_RANGE;
        r = ibcc__cacc_entry_in(&p, end, &e);
        if (r != IBCC_OK) return r;
        if (p < end && *p == ',') return IBCC_ERR_PARSE; /* ibccconfig: blanks */
        t.entry[n++] = e;
    }
    *b = t;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_block_print(const ibcc_cacc_block *b,
                                           char *buf, size_t len)
{
    ibcc__cacc_out o;
    uint32_t first, i, n = 0;
    if (!b || !buf) return IBCC_ERR_NULL;
    first = (uint32_t)b->block * IBCC_CACC_BLOCK_ENTRIES;
    if (first <= b->ccti_limit) {
        n = b->ccti_limit - first + 1u;
        if (n > IBCC_CACC_BLOCK_ENTRIES) n = IBCC_CACC_BLOCK_ENTRIES;
    }
    ibcc__cacc_out_begin(&o, buf, len);
    ibcc__cacc_str(&o, "CongestionControlTable ");
    ibcc__cacc_num_out(&o, b->ccti_limit, 0);
    ibcc__cacc_str(&o, " ");
    ibcc__cacc_num_out(&o, b->block, 0);
    for (i = 0; i < n; i++) {
        ibcc__cacc_str(&o, " ");
        ibcc__cacc_entry_out(&o, b->entry[i]);
    }
    return ibcc__cacc_out_end(&o);
}

/* ---- OpenSM options ---------------------------------------------------- */

static const char *const ibcc__cacc_sl_opt[4] = {
    "cc_ca_cong_setting_ccti_timer",
    "cc_ca_cong_setting_ccti_increase",
    "cc_ca_cong_setting_trigger_threshold",
    "cc_ca_cong_setting_ccti_min"
};

/* One line given as [p, end). */
static ibcc_result ibcc__cacc_line(ibcc_cacc_config *c, const char *p,
                                   const char *end)
{
    uint64_t a, b;
    ibcc_result r;
    unsigned k;
    p = ibcc__cacc_skip(p, end);
    if (p == end || *p == '#') return IBCC_OK;
    if (ibcc__cacc_word(&p, end, "cc_ca_cong_setting_port_control")) {
        r = ibcc__cacc_field(&p, end, 1u, &a);
        if (r != IBCC_OK) return r;
        if (!ibcc__cacc_at_end(p, end)) return IBCC_ERR_PARSE;
        c->setting.port_control = (uint16_t)a;
        return IBCC_OK;
    }
    if (ibcc__cacc_word(&p, end, "cc_ca_cong_setting_control_map")) {
        r = ibcc__cacc_field(&p, end, 0xffffu, &a);
        if (r != IBCC_OK) return r;
        if (!ibcc__cacc_at_end(p, end)) return IBCC_ERR_PARSE;
        c->setting.control_map = (uint16_t)a;
        return IBCC_OK;
    }
    for (k = 0; k < 4; k++) {
        if (!ibcc__cacc_word(&p, end, ibcc__cacc_sl_opt[k])) continue;
        r = ibcc__cacc_field(&p, end, IBCC_CCT_SLS - 1u, &a);
        if (r != IBCC_OK) return r;
        r = ibcc__cacc_field(&p, end, k == 0 ? 0xffffu : 0xffu, &b);
        if (r != IBCC_OK) return r;
        if (!ibcc__cacc_at_end(p, end)) return IBCC_ERR_PARSE;
        switch (k) {
        case 0: c->setting.sl[a].ccti_timer = (uint16_t)b; break;
        case 1: c->setting.sl[a].ccti_increase = (uint8_t)b; break;
        case 2: c->setting.sl[a].trigger_threshold = (uint8_t)b; break;
        default: c->setting.sl[a].ccti_min = (uint8_t)b; break;
        }
        return IBCC_OK;
    }
    if (ibcc__cacc_word(&p, end, "cc_cct")) {
        uint16_t t[IBCC_CACC_OPENSM_CCT_MAX];
        uint32_t n = 0;
        p = ibcc__cacc_skip(p, end);
        if (ibcc__cacc_word(&p, end, "(null)") || p == end) {
            if (!ibcc__cacc_at_end(p, end)) return IBCC_ERR_PARSE;
            c->cct_len = 0;
            return IBCC_OK;
        }
        for (;;) {
            uint16_t e;
            if (n == IBCC_CACC_OPENSM_CCT_MAX) return IBCC_ERR_RANGE;
            r = ibcc__cacc_entry_in(&p, end, &e);
            if (r != IBCC_OK) return r;
            t[n++] = e;
            p = ibcc__cacc_skip(p, end);
            if (p == end) break;
            if (*p != ',') return IBCC_ERR_PARSE;
            p = ibcc__cacc_skip(p + 1, end);
        }
        memcpy(c->cct, t, (size_t)n * sizeof t[0]);
        c->cct_len = n;
        return IBCC_OK;
    }
    return IBCC_ERR_NOT_FOUND;
}

IBCC_API ibcc_result ibcc_cacc_opensm_line(ibcc_cacc_config *c, const char *line)
{
    if (!c || !line) return IBCC_ERR_NULL;
    return ibcc__cacc_line(c, line, line + strlen(line));
}

IBCC_API ibcc_result ibcc_cacc_opensm_parse(ibcc_cacc_config *c, const char *text,
                                            unsigned *line_no)
{
    const char *p;
    unsigned no = 0;
    if (line_no) *line_no = 0;
    if (!c || !text) return IBCC_ERR_NULL;
    p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        ibcc_result r;
        if (!e) e = p + strlen(p);
        no++;
        r = ibcc__cacc_line(c, p, e);
        if (r != IBCC_OK && r != IBCC_ERR_NOT_FOUND) {
            if (line_no) *line_no = no;
            return r;
        }
        p = *e ? e + 1 : e;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_opensm_print(const ibcc_cacc_config *c,
                                            char *buf, size_t len)
{
    ibcc__cacc_out o;
    unsigned k, s;
    uint32_t i;
    if (!c || !buf) return IBCC_ERR_NULL;
    if (c->cct_len > IBCC_CACC_OPENSM_CCT_MAX) return IBCC_ERR_RANGE;
    ibcc__cacc_out_begin(&o, buf, len);
    ibcc__cacc_str(&o, "cc_ca_cong_setting_port_control ");
    ibcc__cacc_num_out(&o, c->setting.port_control, 1);
    ibcc__cacc_str(&o, "\ncc_ca_cong_setting_control_map ");
    ibcc__cacc_num_out(&o, c->setting.control_map, 1);
    ibcc__cacc_str(&o, "\n");
    for (k = 0; k < 4; k++) {
        for (s = 0; s < IBCC_CCT_SLS; s++) {
            const ibcc_cct_sl *e = &c->setting.sl[s];
            unsigned v = k == 0 ? e->ccti_timer : k == 1 ? e->ccti_increase
                       : k == 2 ? e->trigger_threshold : e->ccti_min;
            ibcc__cacc_str(&o, ibcc__cacc_sl_opt[k]);
            ibcc__cacc_str(&o, " ");
            ibcc__cacc_num_out(&o, s, 0);
            ibcc__cacc_str(&o, " ");
            ibcc__cacc_num_out(&o, v, 0);
            ibcc__cacc_str(&o, "\n");
        }
    }
    ibcc__cacc_str(&o, "cc_cct ");
    if (c->cct_len == 0) ibcc__cacc_str(&o, "(null)");
    for (i = 0; i < c->cct_len; i++) {
        if (i) ibcc__cacc_str(&o, ",");
        ibcc__cacc_entry_out(&o, c->cct[i]);
    }
    ibcc__cacc_str(&o, "\n");
    return ibcc__cacc_out_end(&o);
}

/* ---- agent ------------------------------------------------------------- */

IBCC_API ibcc_result ibcc_cacc_from_cct(ibcc_cacc_setting *s, const ibcc_cct *c)
{
    unsigned i;
    if (!s || !c) return IBCC_ERR_NULL;
    s->port_control = (uint16_t)(c->per_sl & 1u);
    s->control_map = c->control_map;
    for (i = 0; i < IBCC_CCT_SLS; i++) s->sl[i] = c->sl[i].p;
    return IBCC_OK;
}

static ibcc_result ibcc__cacc_check(const ibcc_cacc_setting *s, unsigned limit)
{
    unsigned i;
    if (s->port_control & ~1u) return IBCC_ERR_RANGE;
    for (i = 0; i < IBCC_CCT_SLS; i++)
        if (s->sl[i].ccti_min > limit) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_apply(ibcc_cct *c, const ibcc_cacc_setting *s,
                                     ibcc_time now)
{
    ibcc_result r;
    unsigned i;
    if (!c || !s) return IBCC_ERR_NULL;
    r = ibcc__cacc_check(s, c->ccti_limit);
    if (r != IBCC_OK) return r;
    r = ibcc_cct_set_port(c, s->port_control, s->control_map, now);
    for (i = 0; i < IBCC_CCT_SLS && r == IBCC_OK; i++)
        r = ibcc_cct_set_sl(c, i, &s->sl[i], now);
    return r;
}

IBCC_API ibcc_result ibcc_cacc_apply_config(ibcc_cct *c, const ibcc_cacc_config *cfg,
                                            ibcc_time now)
{
    ibcc_result r;
    uint16_t limit;
    unsigned i;
    if (!c || !cfg) return IBCC_ERR_NULL;
    if (!c->table) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    if (cfg->cct_len > IBCC_CACC_OPENSM_CCT_MAX) return IBCC_ERR_RANGE;
    if (cfg->cct_len > c->entries) return IBCC_ERR_CAPACITY;
    limit = (uint16_t)(cfg->cct_len ? cfg->cct_len - 1u : 0u);
    r = ibcc__cacc_check(&cfg->setting, limit);
    if (r != IBCC_OK) return r;
    r = ibcc_cct_set_port(c, cfg->setting.port_control, cfg->setting.control_map, now);
    /* CCTI_Min must stay <= CCTI_Limit at every step: first the new
       settings with each Min capped at the current limit, then the table,
       then the exact Mins */
    for (i = 0; i < IBCC_CCT_SLS && r == IBCC_OK; i++) {
        ibcc_cct_sl p = cfg->setting.sl[i];
        if (p.ccti_min > c->ccti_limit) p.ccti_min = (uint8_t)c->ccti_limit;
        if (p.ccti_min > limit) p.ccti_min = (uint8_t)limit;
        r = ibcc_cct_set_sl(c, i, &p, now);
    }
    if (r == IBCC_OK) r = ibcc_cct_set_table(c, cfg->cct, cfg->cct_len, limit, now);
    for (i = 0; i < IBCC_CCT_SLS && r == IBCC_OK; i++)
        r = ibcc_cct_set_sl(c, i, &cfg->setting.sl[i], now);
    return r;
}
