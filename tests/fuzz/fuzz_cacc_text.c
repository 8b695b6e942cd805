/* Fuzz harness: text forms of the IBA CA congestion settings (ibccconfig
   CACongestionSetting / CongestionControlTable arguments and OpenSM
   cc_ca_* / cc_cct lines, ibcc_cacc).

   Input: a selector byte, then text (up to the first NUL) given to
   ibcc_cacc_setting_parse_args, ibcc_cacc_block_parse_args, ibcc_cacc_parse_opensm_line
   (on a configuration that is not all zero) or ibcc_cacc_parse_opensm.

   Checked:
   - results are OK, PARSE or RANGE (NOT_FOUND for lines of other
     options); a failed parse leaves its output untouched;
   - a parsed setting has equal entries on the SLs of its Control_Map and
     zero elsewhere, prints, and parses back to itself; printing is
     stable; a parsed block has block <= 255 and limit <= 16383 and
     parse -> print -> parse gives it back with the entries beyond
     CCTI_Limit zeroed (print writes only valid entries);
   - an OpenSM line changes only what it names; parsing a whole text
     equals parsing its lines one by one (value, error and line number);
   - malformed wins: a setting or block that parsed (OK) or was out of
     range (RANGE), or an OpenSM line that was out of range, is PARSE with
     a stray token appended;
   - a parsed configuration prints and parses back to itself; it applies
     to a CCT agent with a large enough table (ibcc_cacc_apply_config),
     after which the agent reports the same settings, CCTI_Limit and
     table (ibcc_cacc_from_cct), or is refused with CCTI_Min above the
     new limit (RANGE) and left unchanged. */
#include "fuzz.h"

#define MAXT 8192


static void cfg_equal(const ibcc_cacc_config *a, const ibcc_cacc_config *b, const char *what)
{
    FZ_CHECK(a->cct_len == b->cct_len && fz_setting_eq(&a->setting, &b->setting)
             && memcmp(a->cct, b->cct, a->cct_len * sizeof a->cct[0]) == 0, "%s", what);
}

static void cfg_round_trip(const ibcc_cacc_config *c)
{
    static char a[MAXT], b[MAXT];
    ibcc_cacc_config t;
    FZ_CHECK(ibcc_cacc_print_opensm(c, a, sizeof a) == IBCC_OK, "opensm print");
    memset(&t, 0, sizeof t);
    FZ_CHECK(ibcc_cacc_parse_opensm(&t, a, NULL) == IBCC_OK, "opensm parse of printed text");
    cfg_equal(c, &t, "opensm round trip");
    FZ_CHECK(ibcc_cacc_print_opensm(&t, b, sizeof b) == IBCC_OK && strcmp(a, b) == 0,
             "opensm printing not stable");
}

static void cfg_apply(const ibcc_cacc_config *cfg)
{
    static uint64_t mem[1024];
    static uint64_t mem0[1024];
    ibcc_cct_desc d;
    ibcc_cct c, c0;
    ibcc_cacc_setting back;
    ibcc_result r, want = IBCC_OK;
    uint16_t limit = (uint16_t)(cfg->cct_len ? cfg->cct_len - 1u : 0u);
    unsigned s;
    uint32_t i;
    memset(&d, 0, sizeof d);
    d.flows = 4;
    d.entries = IBCC_CACC_OPENSM_CCT_MAX;
    d.max_pkt_time = IBCC_US(1);
    if (ibcc_cct_init(&c, &d, mem, sizeof mem) != IBCC_OK) return;
    ibcc_cct_on_becn(&c, 1, 5);
    memcpy(&c0, &c, sizeof c);
    memcpy(mem0, mem, sizeof mem);
    if (cfg->setting.port_control & ~1u) want = IBCC_ERR_RANGE;
    for (s = 0; s < 16; s++) if (cfg->setting.sl[s].ccti_min > limit) want = IBCC_ERR_RANGE;
    r = ibcc_cacc_apply_config(&c, cfg, 10);
    FZ_CHECK(r == want, "apply_config %d, reference %d", (int)r, (int)want);
    if (r != IBCC_OK) {
        FZ_CHECK(memcmp(&c, &c0, sizeof c) == 0 && memcmp(mem, mem0, sizeof mem) == 0,
                 "a refused configuration changed the agent");
        return;
    }
    FZ_CHECK(ibcc_cacc_from_cct(&back, &c) == IBCC_OK, "from_cct");
    FZ_CHECK(fz_setting_eq(&back, &cfg->setting), "agent settings after apply_config");
    FZ_CHECK(ibcc_cct_limit(&c) == limit, "agent limit");
    for (i = 0; i < IBCC_CACC_OPENSM_CCT_MAX; i++)
        FZ_CHECK(ibcc_cct_table(&c)[i] == (i < cfg->cct_len ? cfg->cct[i] : 0u), "agent table %u", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[MAXT + 1], a[MAXT], b[MAXT];
    size_t n;
    unsigned sel, i;
    ibcc_result r;
    if (size == 0) return 0;
    sel = data[0] % 4u;
    n = size - 1u < MAXT ? size - 1u : MAXT;
    memcpy(text, data + 1, n);
    text[n] = '\0';

    if (sel == 0) {                                           /* setting */
        ibcc_cacc_setting s, t, sentinel;
        memset(&s, 0x5a, sizeof s);
        sentinel = s;
        r = ibcc_cacc_setting_parse_args(&s, text);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE, "setting parse %d", (int)r);
        if (r != IBCC_ERR_PARSE)
            FZ_CHECK(ibcc_cacc_setting_parse_args(&t, fz_spoiled(text)) == IBCC_ERR_PARSE,
                     "a stray token after a %s setting is not PARSE", r ? "RANGE" : "good");
        if (r != IBCC_OK) { FZ_CHECK(fz_setting_eq(&s, &sentinel), "failed parse wrote"); return 0; }
        FZ_CHECK(s.port_control <= 1u, "port control");
        for (i = 0; i < 16; i++) {
            ibcc_cct_sl z;
            int first = -1;
            unsigned k;
            memset(&z, 0, sizeof z);
            for (k = 0; k < 16; k++) if ((s.control_map >> k) & 1u) { first = (int)k; break; }
            if ((s.control_map >> i) & 1u)
                FZ_CHECK(fz_sl_eq(&s.sl[i], &s.sl[first]), "SLs of the map differ");
            else
                FZ_CHECK(fz_sl_eq(&s.sl[i], &z), "an SL outside the map is set");
        }
        FZ_CHECK(ibcc_cacc_setting_print_args(&s, a, sizeof a) == IBCC_OK, "setting print");
        FZ_CHECK(ibcc_cacc_setting_parse_args(&t, a) == IBCC_OK && fz_setting_eq(&t, &s),
                 "setting round trip of \"%s\"", a);
        FZ_CHECK(ibcc_cacc_setting_print_args(&t, b, sizeof b) == IBCC_OK && strcmp(a, b) == 0,
                 "setting printing not stable");
    } else if (sel == 1) {                                    /* block */
        ibcc_cacc_block bl, t, sentinel;
        uint32_t nvalid = 0;
        memset(&bl, 0x5a, sizeof bl);
        sentinel = bl;
        r = ibcc_cacc_block_parse_args(&bl, text);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE, "block parse %d", (int)r);
        if (r != IBCC_ERR_PARSE)
            FZ_CHECK(ibcc_cacc_block_parse_args(&t, fz_spoiled(text)) == IBCC_ERR_PARSE,
                     "a stray token after a %s block is not PARSE", r ? "RANGE" : "good");
        if (r != IBCC_OK) { FZ_CHECK(memcmp(&bl, &sentinel, sizeof bl) == 0, "failed parse wrote"); return 0; }
        FZ_CHECK(bl.block <= 255u && bl.ccti_limit <= 16383u, "parsed block header");
        if ((uint32_t)bl.block * 64u <= bl.ccti_limit) {
            nvalid = bl.ccti_limit - (uint32_t)bl.block * 64u + 1u;
            if (nvalid > 64u) nvalid = 64u;
        }
        FZ_CHECK(ibcc_cacc_block_print_args(&bl, a, sizeof a) == IBCC_OK, "block print");
        FZ_CHECK(ibcc_cacc_block_parse_args(&t, a) == IBCC_OK, "block parse of printed \"%s\"", a);
        for (i = nvalid; i < 64u; i++) bl.entry[i] = 0;
        FZ_CHECK(memcmp(&t, &bl, sizeof t) == 0, "block round trip of \"%s\"", a);
        FZ_CHECK(ibcc_cacc_block_print_args(&t, b, sizeof b) == IBCC_OK && strcmp(a, b) == 0,
                 "block printing not stable");
    } else if (sel == 2) {                                    /* one OpenSM line */
        ibcc_cacc_config c, before;
        unsigned k, diff = 0;
        memset(&c, 0, sizeof c);
        c.setting.control_map = 0x00ffu;
        for (k = 0; k < 16; k++) {
            c.setting.sl[k].ccti_timer = (uint16_t)(100u + k);
            c.setting.sl[k].ccti_increase = (uint8_t)(1u + k % 3u);
        }
        c.cct_len = 3;
        c.cct[0] = 0; c.cct[1] = 5; c.cct[2] = 0x4007;
        before = c;
        r = ibcc_cacc_parse_opensm_line(&c, text);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE
                 || r == IBCC_ERR_NOT_FOUND, "opensm line %d", (int)r);
        if (r == IBCC_ERR_RANGE) {
            ibcc_cacc_config c2 = before;
            FZ_CHECK(ibcc_cacc_parse_opensm_line(&c2, fz_spoiled(text)) == IBCC_ERR_PARSE,
                     "a stray token after an out-of-range value is not PARSE");
        }
        if (r != IBCC_OK) {
            cfg_equal(&c, &before, "a failed line changed the configuration");
            return 0;
        }
        diff += c.setting.port_control != before.setting.port_control;
        diff += c.setting.control_map != before.setting.control_map;
        for (k = 0; k < 16; k++) {
            diff += c.setting.sl[k].ccti_timer != before.setting.sl[k].ccti_timer;
            diff += c.setting.sl[k].ccti_increase != before.setting.sl[k].ccti_increase;
            diff += c.setting.sl[k].trigger_threshold != before.setting.sl[k].trigger_threshold;
            diff += c.setting.sl[k].ccti_min != before.setting.sl[k].ccti_min;
        }
        if (diff > 0)
            FZ_CHECK(diff == 1 && c.cct_len == before.cct_len
                     && memcmp(c.cct, before.cct, sizeof c.cct) == 0, "a line changed several fields");
        cfg_round_trip(&c);
        cfg_apply(&c);
    } else {                                                  /* whole OpenSM text */
        ibcc_cacc_config whole, lines;
        unsigned bad = 777, want_bad = 0, no = 0;
        ibcc_result want = IBCC_OK;
        const char *p = text;
        static char line[MAXT + 1];
        memset(&whole, 0, sizeof whole);
        memset(&lines, 0, sizeof lines);
        r = ibcc_cacc_parse_opensm(&whole, text, &bad);
        while (*p) {
            size_t k = 0;
            ibcc_result lr;
            no++;
            while (p[k] && p[k] != '\n') k++;
            memcpy(line, p, k);
            line[k] = '\0';
            lr = ibcc_cacc_parse_opensm_line(&lines, line);
            if (lr != IBCC_OK && lr != IBCC_ERR_NOT_FOUND) { want = lr; want_bad = no; break; }
            p += k;
            if (*p == '\n') p++;
        }
        FZ_CHECK(r == want, "whole text %d, line by line %d", (int)r, (int)want);
        FZ_CHECK(bad == (r == IBCC_OK ? 0u : want_bad), "bad line %u, line by line %u", bad, want_bad);
        FZ_CHECK(whole.cct_len == lines.cct_len
                 && fz_setting_eq(&whole.setting, &lines.setting)
                 && memcmp(whole.cct, lines.cct, sizeof whole.cct) == 0, "whole text and lines differ");
        if (r == IBCC_OK) {
            cfg_round_trip(&whole);
            cfg_apply(&whole);
        }
    }
    return 0;
}
