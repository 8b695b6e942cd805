/* Fuzz harness: text forms of the IBA switch congestion settings
   (ibccconfig arguments and OpenSM option lines, ibcc_swcc).

   Input: a selector byte, then text (up to the first NUL) given to
   ibcc_swcc_parse_args, ibcc_swport_parse_args, ibcc_swcc_parse_opensm_line
   (on a setting that is not all zero) or ibcc_swcc_parse_opensm.

   Checked:
   - results are OK, PARSE, RANGE (NOT_FOUND for OpenSM lines of other
     options); a failed parse writes nothing (the output structs keep a
     sentinel);
   - a parsed value is valid and round-trips: parse -> print -> parse gives
     the same value and printing it again gives the same text;
   - an OpenSM line changes at most the field (group) it names;
   - parsing a whole OpenSM text equals parsing its lines one by one (same
     value, same error, same bad line number; 0 after success), lines of
     any length;
   - malformed wins: a text that parsed (OK) or was out of range (RANGE)
     is PARSE with a stray token appended. */
#include "fuzz.h"

#define MAXT 4096


static void round_trip(const ibcc_swcc *s)
{
    char a[1024], b[1024];
    ibcc_swcc t;
    FZ_CHECK(ibcc_swcc_validate(s) == IBCC_OK, "a parsed setting is invalid");
    FZ_CHECK(ibcc_swcc_print_args(s, a, sizeof a) == IBCC_OK, "print_args");
    memset(&t, 0x5a, sizeof t);
    FZ_CHECK(ibcc_swcc_parse_args(&t, a) == IBCC_OK && memcmp(&t, s, sizeof t) == 0,
             "args round trip of \"%s\"", a);
    FZ_CHECK(ibcc_swcc_print_args(&t, b, sizeof b) == IBCC_OK && strcmp(a, b) == 0,
             "printing is not stable: \"%s\" then \"%s\"", a, b);
    FZ_CHECK(ibcc_swcc_print_opensm(s, a, sizeof a) == IBCC_OK, "print_opensm");
    memset(&t, 0, sizeof t);
    FZ_CHECK(ibcc_swcc_parse_opensm(&t, a, NULL) == IBCC_OK && memcmp(&t, s, sizeof t) == 0,
             "opensm round trip");
}

/* fields an OpenSM line may change: which group differs between a and b */
static int groups_changed(const ibcc_swcc *a, const ibcc_swcc *b)
{
    int n = 0;
    n += a->control_map != b->control_map;
    n += memcmp(a->victim_mask, b->victim_mask, sizeof a->victim_mask) != 0;
    n += memcmp(a->credit_mask, b->credit_mask, sizeof a->credit_mask) != 0;
    n += a->threshold != b->threshold;
    n += a->packet_size != b->packet_size;
    n += a->cs_threshold != b->cs_threshold;
    n += (a->cs_return_delay_shift != b->cs_return_delay_shift
          || a->cs_return_delay_mult != b->cs_return_delay_mult);
    n += a->marking_rate != b->marking_rate;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[MAXT + 1];
    size_t n;
    unsigned sel;
    ibcc_result r;
    if (size == 0) return 0;
    sel = data[0] % 4u;
    n = size - 1u < MAXT ? size - 1u : MAXT;
    memcpy(text, data + 1, n);
    text[n] = '\0';

    if (sel == 0) {                                           /* ibccconfig setting */
        ibcc_swcc s, sentinel;
        memset(&s, 0x5a, sizeof s);
        sentinel = s;
        r = ibcc_swcc_parse_args(&s, text);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE, "parse_args %d", (int)r);
        if (r != IBCC_ERR_PARSE) {
            ibcc_swcc t2;
            FZ_CHECK(ibcc_swcc_parse_args(&t2, fz_spoiled(text)) == IBCC_ERR_PARSE,
                     "a stray token after a %s text is not PARSE", r ? "RANGE" : "good");
        }
        if (r != IBCC_OK) FZ_CHECK(memcmp(&s, &sentinel, sizeof s) == 0, "failed parse wrote");
        else round_trip(&s);
    } else if (sel == 1) {                                    /* ibccconfig element */
        ibcc_swport e, sentinel, g;
        unsigned port = 4242, port2 = 0;
        char a[256], b[256];
        memset(&e, 0x5a, sizeof e);
        sentinel = e;
        r = ibcc_swport_parse_args(&e, &port, text);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE, "swport parse %d", (int)r);
        if (r != IBCC_ERR_PARSE)
            FZ_CHECK(ibcc_swport_parse_args(&g, &port2, fz_spoiled(text)) == IBCC_ERR_PARSE,
                     "a stray token after a %s element is not PARSE", r ? "RANGE" : "good");
        if (r != IBCC_OK) {
            FZ_CHECK(memcmp(&e, &sentinel, sizeof e) == 0 && port == 4242, "failed parse wrote");
        } else {
            FZ_CHECK(ibcc_swport_validate(&e) == IBCC_OK && port <= 255u, "parsed element invalid");
            FZ_CHECK(ibcc_swport_print_args(&e, port, a, sizeof a) == IBCC_OK, "element print");
            FZ_CHECK(ibcc_swport_parse_args(&g, &port2, a) == IBCC_OK
                     && memcmp(&g, &e, sizeof g) == 0 && port2 == port, "element round trip");
            FZ_CHECK(ibcc_swport_print_args(&g, port2, b, sizeof b) == IBCC_OK && strcmp(a, b) == 0,
                     "element printing not stable");
        }
    } else if (sel == 2) {                                    /* one OpenSM line */
        ibcc_swcc s, before;
        uint8_t mad[IBCC_SWCC_MAD_BYTES];
        size_t i;
        for (i = 0; i < sizeof mad; i++) mad[i] = (uint8_t)(i * 37u + n);
        mad[0] = mad[1] = mad[2] = 0;
        mad[3] &= 0x1fu;
        ibcc_swcc_decode(&s, mad, IBCC_SWCC_MAD_BYTES);
        before = s;
        r = ibcc_swcc_parse_opensm_line(&s, text);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE
                 || r == IBCC_ERR_NOT_FOUND, "opensm line %d", (int)r);
        if (r == IBCC_ERR_RANGE) {
            ibcc_swcc t2 = before;
            FZ_CHECK(ibcc_swcc_parse_opensm_line(&t2, fz_spoiled(text)) == IBCC_ERR_PARSE,
                     "a stray token after an out-of-range value is not PARSE");
        }
        if (r != IBCC_OK) FZ_CHECK(memcmp(&s, &before, sizeof s) == 0, "failed line changed the setting");
        else {
            FZ_CHECK(groups_changed(&s, &before) <= 1, "a line changed several fields");
            round_trip(&s);
        }
    } else {                                                  /* whole OpenSM text */
        ibcc_swcc whole, lines;
        unsigned bad = 777, want_bad = 777;
        ibcc_result want = IBCC_OK;
        const char *p = text;
        memset(&whole, 0, sizeof whole);
        memset(&lines, 0, sizeof lines);
        r = ibcc_swcc_parse_opensm(&whole, text, &bad);
        /* line by line */
        {
            unsigned no = 0;
            static char line[MAXT + 1];
            while (*p) {
                size_t k = 0;
                ibcc_result lr;
                no++;
                while (p[k] && p[k] != '\n') k++;
                memcpy(line, p, k);
                line[k] = '\0';
                lr = ibcc_swcc_parse_opensm_line(&lines, line);
                if (lr != IBCC_OK && lr != IBCC_ERR_NOT_FOUND) { want = lr; want_bad = no; break; }
                p += k;
                if (*p == '\n') p++;
            }
        }
        FZ_CHECK(r == want, "whole text %d, line by line %d", (int)r, (int)want);
        FZ_CHECK(memcmp(&whole, &lines, sizeof whole) == 0, "whole text and lines differ");
        FZ_CHECK(bad == (r == IBCC_OK ? 0u : want_bad), "bad line %u, line by line %u", bad, want_bad);
        if (r == IBCC_OK) round_trip(&whole);
    }
    return 0;
}
