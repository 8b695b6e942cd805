/* Fuzz harness: IBA switch congestion settings as MAD bytes (ibcc_swcc).

   Input: a selector byte, then attribute bytes (SwitchCongestionSetting,
   76 bytes, or SwitchPortCongestionSetting elements, 4 bytes each; short
   inputs are padded with zeros), then a port count for the marker.

   Checked:
   - decode accepts any bytes; validate fails exactly when Control_Map
     has a bit above 4 (every other field's width fits its range);
   - decode -> encode gives the same bytes with the reserved bits cleared
     (byte 68 and 70 low nibbles, byte 71; bits 5..4 of an element's first
     byte): the encoding is canonical, and decoding it again gives the
     same value; an invalid setting is refused and nothing is written;
   - the text forms of the decoded value round-trip: print_args ->
     parse_args and print_opensm -> parse_opensm give the same value, and
     a buffer too small gives NOMEM and an empty string;
   - applied to an IBA marker, the setting has the documented effect
     (UNSUPPORTED with credit-mask or credit-starvation bits, RANGE for
     victim bits at or above the port count, else the Victim_Mask and the
     per-port threshold levels it selects) and a refused setting changes
     nothing. */
#include "fuzz.h"

static void check_text(const ibcc_swcc *s)
{
    char buf[1024], small[1024];
    ibcc_swcc t;
    size_t n, len;
    FZ_CHECK(ibcc_swcc_print_args(s, buf, sizeof buf) == IBCC_OK, "print_args");
    memset(&t, 0x5a, sizeof t);
    FZ_CHECK(ibcc_swcc_parse_args(&t, buf) == IBCC_OK, "parse_args of printed \"%s\"", buf);
    FZ_CHECK(memcmp(&t, s, sizeof t) == 0, "args round trip of \"%s\"", buf);
    n = strlen(buf);
    for (len = n; len + 3 > n && len > 0; len--) {
        memset(small, 'x', sizeof small);
        FZ_CHECK(ibcc_swcc_print_args(s, small, len) == IBCC_ERR_NOMEM, "print_args into %zu bytes", len);
        FZ_CHECK(small[0] == '\0' && small[len] == 'x',
                 "a text that does not fit leaves an empty string and nothing past len");
    }
    FZ_CHECK(ibcc_swcc_print_opensm(s, buf, sizeof buf) == IBCC_OK, "print_opensm");
    memset(&t, 0, sizeof t);
    FZ_CHECK(ibcc_swcc_parse_opensm(&t, buf, NULL) == IBCC_OK, "parse_opensm of printed text");
    FZ_CHECK(memcmp(&t, s, sizeof t) == 0, "opensm round trip");
}

static void check_apply(fz *f, const ibcc_swcc *s, int valid)
{
    static uint64_t mem[2048], mem0[2048];
    ibcc_marker_desc d;
    ibcc_marker m, m0;
    ibcc_result r, want;
    unsigned p, P;
    memset(&d, 0, sizeof d);
    d.engine = fz_u8(f) == 7 ? IBCC_MARKER_INPUT : IBCC_MARKER_IBA;
    d.ports = fz_range(f, 1, 70);
    d.out_capacity = fz_range(f, 1, 300);
    if (ibcc_marker_init(&m, &d, mem, sizeof mem) != IBCC_OK) return;
    P = m.d.ports;
    memcpy(&m0, &m, sizeof m);
    memcpy(mem0, mem, sizeof mem);
    want = IBCC_OK;
    if (!valid) want = IBCC_ERR_RANGE;
    else if (d.engine != IBCC_MARKER_IBA) want = IBCC_ERR_STATE;
    else if (s->control_map & (IBCC_SWCC_CREDIT_MASK | IBCC_SWCC_CS)) want = IBCC_ERR_UNSUPPORTED;
    else if (s->control_map & IBCC_SWCC_VICTIM_MASK) {
        for (p = P; p < 256u; p++)
            if ((s->victim_mask[p / 32u] >> (p % 32u)) & 1u) want = IBCC_ERR_RANGE;
    }
    r = ibcc_marker_apply_swcc(&m, s);
    FZ_CHECK(r == want, "apply_swcc %d, reference %d", (int)r, (int)want);
    if (r != IBCC_OK) {
        FZ_CHECK(memcmp(&m, &m0, sizeof m) == 0 && memcmp(mem, mem0, sizeof mem) == 0,
                 "a refused setting changed the marker");
        return;
    }
    for (p = 0; p < P; p++) {
        uint32_t lvl = ibcc_marker_iba_level(&m, p);
        int vic = (int)((m.victim[p / 64u] >> (p % 64u)) & 1u);
        if (s->control_map & IBCC_SWCC_THRESHOLD) {
            uint32_t w = s->threshold;
            FZ_CHECK(lvl == (w ? m.d.out_capacity * (16u - w) / 16u : UINT32_MAX), "level of %u", p);
            FZ_CHECK(m.port[p].iba_min_bytes == 64u * s->packet_size, "Packet_Size of %u", p);
        } else {
            FZ_CHECK(lvl == UINT32_MAX, "threshold changed without bit 2");
        }
        if (s->control_map & IBCC_SWCC_MARKING_RATE)
            FZ_CHECK(m.port[p].iba_rate == s->marking_rate, "Marking_Rate of %u", p);
        if (s->control_map & IBCC_SWCC_VICTIM_MASK)
            FZ_CHECK(vic == (int)((s->victim_mask[p / 32u] >> (p % 32u)) & 1u), "victim bit %u", p);
        else
            FZ_CHECK(vic == 0, "victim changed without bit 0");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    uint8_t in[IBCC_SWCC_MAD_BYTES], out[IBCC_SWCC_MAD_BYTES], again[IBCC_SWCC_MAD_BYTES];
    unsigned i, sel;
    fz_init(&f, data, size);
    sel = fz_u8(&f) % 3u;
    if (sel == 0) {                                       /* SwitchCongestionSetting */
        ibcc_swcc s, t;
        int valid;
        for (i = 0; i < sizeof in; i++) in[i] = fz_u8(&f);
        FZ_CHECK(ibcc_swcc_decode(&s, in, IBCC_SWCC_MAD_BYTES) == IBCC_OK, "decode");
        valid = (s.control_map & ~0x1fu) == 0;
        FZ_CHECK(ibcc_swcc_validate(&s) == (valid ? IBCC_OK : IBCC_ERR_RANGE), "validate");
        memset(out, 0xa5, sizeof out);
        if (!valid) {
            FZ_CHECK(ibcc_swcc_encode(&s, out, IBCC_SWCC_MAD_BYTES) == IBCC_ERR_RANGE, "encode of an invalid setting");
            for (i = 0; i < sizeof out; i++) FZ_CHECK(out[i] == 0xa5, "encode wrote on failure");
            s.control_map &= 0x1fu;                       /* the rest still round-trips */
            in[0] = in[1] = in[2] = 0;
            in[3] &= 0x1fu;
        }
        FZ_CHECK(ibcc_swcc_encode(&s, out, IBCC_SWCC_MAD_BYTES) == IBCC_OK, "encode");
        memcpy(again, in, sizeof again);
        again[68] &= 0xf0u;
        again[70] &= 0xf0u;
        again[71] = 0;
        for (i = 0; i < sizeof out; i++)
            FZ_CHECK(out[i] == again[i], "byte %u: encoded %#x, canonical input %#x", i, out[i], again[i]);
        FZ_CHECK(ibcc_swcc_decode(&t, out, IBCC_SWCC_MAD_BYTES) == IBCC_OK && memcmp(&s, &t, sizeof s) == 0,
                 "decode of the encoding");
        check_text(&s);
        check_apply(&f, &s, 1);
        if (!valid) {
            s.control_map |= 0x20u;
            check_apply(&f, &s, 0);
        }
    } else {                                              /* port elements */
        unsigned n = fz_range(&f, 1, IBCC_SWPORT_BLOCK);
        for (i = 0; i < n; i++) {
            uint8_t e4[4], o4[4];
            ibcc_swport e, g, bad;
            char buf[256];
            unsigned port = fz_below(&f, 300), port2 = 9999;
            unsigned k;
            for (k = 0; k < 4; k++) e4[k] = fz_u8(&f);
            FZ_CHECK(ibcc_swport_decode(&e, e4, IBCC_SWPORT_BYTES) == IBCC_OK, "element decode");
            FZ_CHECK(ibcc_swport_validate(&e) == IBCC_OK, "a decoded element is valid");
            FZ_CHECK(ibcc_swport_encode(&e, o4, IBCC_SWPORT_BYTES) == IBCC_OK, "element encode");
            FZ_CHECK(o4[0] == (e4[0] & 0xcfu) && o4[1] == e4[1] && o4[2] == e4[2] && o4[3] == e4[3],
                     "element bytes %02x%02x%02x%02x -> %02x%02x%02x%02x",
                     e4[0], e4[1], e4[2], e4[3], o4[0], o4[1], o4[2], o4[3]);
            FZ_CHECK(ibcc_swport_decode(&g, o4, IBCC_SWPORT_BYTES) == IBCC_OK && memcmp(&g, &e, sizeof e) == 0,
                     "element decode of the encoding");
            if (port > 255u) {
                FZ_CHECK(ibcc_swport_print_args(&e, port, buf, sizeof buf) == IBCC_ERR_RANGE,
                         "port above 255 printed");
            } else {
                FZ_CHECK(ibcc_swport_print_args(&e, port, buf, sizeof buf) == IBCC_OK, "element print");
                memset(&g, 0x5a, sizeof g);
                FZ_CHECK(ibcc_swport_parse_args(&g, &port2, buf) == IBCC_OK, "element parse \"%s\"", buf);
                FZ_CHECK(memcmp(&g, &e, sizeof e) == 0 && port2 == port, "element text round trip");
            }
            /* an element with a field beyond its width is refused */
            bad = e;
            switch (fz_u8(&f) % 5u) {
            case 0: bad.valid = 2u + fz_u8(&f); break;
            case 1: bad.control_type = 2u + fz_u8(&f); break;
            case 2: bad.threshold = 16u + fz_u8(&f); break;
            case 3: bad.packet_size = 256u + fz_u8(&f); break;
            default: bad.marking_rate = 65536u + fz_u16(&f); break;
            }
            memset(o4, 0xa5, sizeof o4);
            FZ_CHECK(ibcc_swport_validate(&bad) == IBCC_ERR_RANGE
                     && ibcc_swport_encode(&bad, o4, IBCC_SWPORT_BYTES) == IBCC_ERR_RANGE
                     && o4[0] == 0xa5 && o4[3] == 0xa5, "invalid element accepted");
        }
    }
    return 0;
}
