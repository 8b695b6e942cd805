/* Fuzz harness: IBA CA congestion settings as MAD bytes (ibcc_cacc):
   CACongestionSetting and CongestionControlTable blocks.

   Input: a selector byte, a buffer length (some below the 132 bytes of an
   attribute), an attribute modifier (block index) and attribute bytes
   (short inputs are padded with zeros).

   Checked:
   - decode refuses buffers below 132 bytes (NOMEM) and, for a table
     block, a block index above 255 or a CCTI_Limit above 16383 (RANGE);
   - decode -> encode gives the same 132 bytes with the reserved fields
     cleared (Port_Control bits 15..1, bytes 5..7 of every CACongestion-
     Entry, the 16 reserved bits after CCTI_Limit): canonical; decoding
     the encoding gives the same value; encode refuses reserved
     Port_Control bits;
   - the text forms of the decoded values round-trip: a setting whose
     Control_Map SLs share one entry (others zero) prints and parses back
     to itself (otherwise print is UNSUPPORTED), a block prints its valid
     entries (index <= CCTI_Limit) and parses back to itself with the
     others zero, and the OpenSM form of a configuration built from them
     parses back to the same configuration; buffers too small give NOMEM
     and an empty string;
   - block_to_table then block_from_table gives back the valid entries,
     and ibcc_cacc_blocks(limit) = limit / 64 + 1. */
#include "fuzz.h"

static void cfg_equal(const ibcc_cacc_config *a, const ibcc_cacc_config *b)
{
    FZ_CHECK(a->cct_len == b->cct_len, "cct_len %u vs %u", a->cct_len, b->cct_len);
    FZ_CHECK(fz_setting_eq(&a->setting, &b->setting), "setting differs");
    FZ_CHECK(memcmp(a->cct, b->cct, a->cct_len * sizeof a->cct[0]) == 0, "cct differs");
}

static void check_print_small(const ibcc_cacc_setting *s, const ibcc_cacc_block *b,
                              const ibcc_cacc_config *c, size_t len)
{
    char buf[8192];
    ibcc_result r;
    memset(buf, 'x', sizeof buf);
    if (s) r = ibcc_cacc_setting_print_args(s, buf, len);
    else if (b) r = ibcc_cacc_block_print_args(b, buf, len);
    else r = ibcc_cacc_print_opensm(c, buf, len);
    FZ_CHECK(r == IBCC_ERR_NOMEM, "print into %zu bytes: %d", len, (int)r);
    if (len > 0) FZ_CHECK(buf[0] == '\0', "NOMEM leaves an empty string");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    uint8_t in[200], out[200], canon[200];
    size_t len, i;
    unsigned sel;
    char text[8192], text2[8192];
    fz_init(&f, data, size);
    sel = fz_u8(&f) % 2u;
    len = fz_u8(&f) < 240 ? IBCC_CACC_SETTING_BYTES : fz_below(&f, 200);
    for (i = 0; i < sizeof in; i++) in[i] = fz_u8(&f);

    if (sel == 0) {                                           /* CACongestionSetting */
        ibcc_cacc_setting s, t, bad;
        ibcc_cacc_config c, c2;
        ibcc_result r = ibcc_cacc_setting_decode(&s, in, len);
        if (len < IBCC_CACC_SETTING_BYTES) {
            FZ_CHECK(r == IBCC_ERR_NOMEM, "decode of %zu bytes", len);
            FZ_CHECK(ibcc_cacc_setting_encode(&t, out, len) == IBCC_ERR_NOMEM, "encode into %zu", len);
            return 0;
        }
        FZ_CHECK(r == IBCC_OK, "setting decode");
        memset(out, 0xa5, sizeof out);
        FZ_CHECK(ibcc_cacc_setting_encode(&s, out, len) == IBCC_OK, "setting encode");
        memcpy(canon, in, sizeof canon);
        canon[0] = 0;
        canon[1] &= 1u;
        for (i = 0; i < 16; i++) canon[4 + 8 * i + 5] = canon[4 + 8 * i + 6] = canon[4 + 8 * i + 7] = 0;
        for (i = 0; i < IBCC_CACC_SETTING_BYTES; i++)
            FZ_CHECK(out[i] == canon[i], "setting byte %zu: %#x, canonical %#x", i, out[i], canon[i]);
        FZ_CHECK(out[IBCC_CACC_SETTING_BYTES] == 0xa5, "encode wrote beyond 132 bytes");
        FZ_CHECK(ibcc_cacc_setting_decode(&t, out, IBCC_CACC_SETTING_BYTES) == IBCC_OK
                 && fz_setting_eq(&t, &s), "decode of the encoding");
        bad = s;
        bad.port_control = (uint16_t)(bad.port_control | (2u << (fz_u8(&f) % 15u)));
        FZ_CHECK(ibcc_cacc_setting_encode(&bad, out, len) == IBCC_ERR_RANGE, "reserved Port_Control bits");

        /* ibccconfig text: expressible when the SLs in the map share one
           entry and the others are zero; make it so from the decoded one */
        r = ibcc_cacc_setting_print_args(&s, text, sizeof text);
        {
            int ok = 1, have = 0;
            ibcc_cct_sl v, z;
            memset(&z, 0, sizeof z);
            memset(&v, 0, sizeof v);
            for (i = 0; i < 16; i++) {
                if ((s.control_map >> i) & 1u) {
                    if (!have) { v = s.sl[i]; have = 1; }
                    else if (!fz_sl_eq(&v, &s.sl[i])) ok = 0;
                } else if (!fz_sl_eq(&z, &s.sl[i])) ok = 0;
            }
            FZ_CHECK(r == (ok ? IBCC_OK : IBCC_ERR_UNSUPPORTED), "setting print %d (expressible %d)",
                     (int)r, ok);
            /* v: the first SL in the map (zero for an empty map) */
            for (i = 0; i < 16; i++) s.sl[i] = ((s.control_map >> i) & 1u) ? v : z;
        }
        FZ_CHECK(ibcc_cacc_setting_print_args(&s, text, sizeof text) == IBCC_OK, "print of an expressible setting");
        FZ_CHECK(ibcc_cacc_setting_parse_args(&t, text) == IBCC_OK && fz_setting_eq(&t, &s),
                 "setting text round trip \"%s\"", text);
        FZ_CHECK(ibcc_cacc_setting_print_args(&t, text2, sizeof text2) == IBCC_OK && strcmp(text, text2) == 0,
                 "setting printing not stable");
        check_print_small(&s, NULL, NULL, fz_below(&f, (uint32_t)strlen(text) + 1u));

        /* OpenSM form of a configuration with this setting and a table */
        memset(&c, 0, sizeof c);
        c.setting = s;
        ibcc_cacc_setting_decode(&c.setting, in, IBCC_CACC_SETTING_BYTES);   /* any per-SL values */
        c.cct_len = fz_below(&f, IBCC_CACC_OPENSM_CCT_MAX + 1u);
        for (i = 0; i < c.cct_len; i++) c.cct[i] = (uint16_t)(in[i % 132u] * 131u + i);
        FZ_CHECK(ibcc_cacc_print_opensm(&c, text, sizeof text) == IBCC_OK, "opensm print");
        memset(&c2, 0, sizeof c2);
        FZ_CHECK(ibcc_cacc_parse_opensm(&c2, text, NULL) == IBCC_OK, "opensm parse of printed text");
        cfg_equal(&c, &c2);
        check_print_small(NULL, NULL, &c, fz_below(&f, (uint32_t)strlen(text) + 1u));
        c.cct_len = IBCC_CACC_OPENSM_CCT_MAX + 1u;
        FZ_CHECK(ibcc_cacc_print_opensm(&c, text, sizeof text) == IBCC_ERR_RANGE, "cct_len 129 printed");
    } else {                                                  /* CongestionControlTable */
        ibcc_cacc_block b, t, b2;
        uint16_t blk = fz_u8(&f) < 240 ? (uint16_t)fz_u8(&f) : fz_u16(&f);
        unsigned limit = ((unsigned)in[0] << 8) | in[1], nvalid = 0;
        ibcc_result r = ibcc_cacc_block_decode(&b, blk, in, len);
        static uint16_t table[IBCC_CCT_MAX_ENTRIES];
        uint32_t cap;
        if (len < IBCC_CACC_TABLE_BYTES) { FZ_CHECK(r == IBCC_ERR_NOMEM, "block decode short"); return 0; }
        if (blk > 255u || limit > 16383u) { FZ_CHECK(r == IBCC_ERR_RANGE, "block decode range"); return 0; }
        FZ_CHECK(r == IBCC_OK && b.ccti_limit == limit && b.block == blk, "block decode");
        memset(out, 0xa5, sizeof out);
        FZ_CHECK(ibcc_cacc_block_encode(&b, out, len) == IBCC_OK, "block encode");
        memcpy(canon, in, sizeof canon);
        canon[2] = canon[3] = 0;
        for (i = 0; i < IBCC_CACC_TABLE_BYTES; i++)
            FZ_CHECK(out[i] == canon[i], "block byte %zu: %#x, canonical %#x", i, out[i], canon[i]);
        FZ_CHECK(ibcc_cacc_block_decode(&t, blk, out, len) == IBCC_OK && memcmp(&t, &b, sizeof b) == 0,
                 "block decode of the encoding");
        /* text: valid entries only */
        if ((uint32_t)blk * 64u <= limit) {
            nvalid = limit - (uint32_t)blk * 64u + 1u;
            if (nvalid > 64u) nvalid = 64u;
        }
        FZ_CHECK(ibcc_cacc_block_print_args(&b, text, sizeof text) == IBCC_OK, "block print");
        FZ_CHECK(ibcc_cacc_block_parse_args(&t, text) == IBCC_OK, "block parse of \"%.80s\"", text);
        b2 = b;
        for (i = nvalid; i < 64u; i++) b2.entry[i] = 0;
        FZ_CHECK(memcmp(&t, &b2, sizeof t) == 0, "block text round trip");
        FZ_CHECK(ibcc_cacc_block_print_args(&t, text2, sizeof text2) == IBCC_OK && strcmp(text, text2) == 0,
                 "block printing not stable");
        check_print_small(NULL, &b, NULL, fz_below(&f, (uint32_t)strlen(text) + 1u));
        /* table round trip through caller memory */
        FZ_CHECK(ibcc_cacc_blocks((uint16_t)limit) == limit / 64u + 1u, "blocks");
        cap = fz_u8(&f) < 128 ? IBCC_CCT_MAX_ENTRIES : fz_below(&f, IBCC_CCT_MAX_ENTRIES + 1u);
        memset(table, 0, sizeof table);
        r = ibcc_cacc_block_to_table(&b, table, cap);
        if (nvalid > 0 && (uint32_t)blk * 64u + nvalid - 1u >= cap) {
            FZ_CHECK(r == IBCC_ERR_CAPACITY, "to_table beyond the capacity: %d", (int)r);
        } else {
            FZ_CHECK(r == IBCC_OK, "to_table %d", (int)r);
            for (i = 0; i < nvalid; i++)
                FZ_CHECK(table[blk * 64u + i] == b.entry[i], "to_table entry %zu", i);
            if (nvalid > 0 && limit < cap) {
                FZ_CHECK(ibcc_cacc_block_from_table(&t, table, cap, (uint16_t)limit, blk) == IBCC_OK,
                         "from_table");
                FZ_CHECK(t.ccti_limit == limit && t.block == blk, "from_table header");
                for (i = 0; i < nvalid; i++) FZ_CHECK(t.entry[i] == b.entry[i], "from_table entry %zu", i);
            } else {
                /* limit >= max(cap, 1) or the block lies beyond the limit */
                r = ibcc_cacc_block_from_table(&t, table, cap, (uint16_t)limit, blk);
                FZ_CHECK(r == IBCC_ERR_RANGE, "from_table of an invalid block: %d", (int)r);
            }
        }
        b2 = b;
        b2.block = 256;
        FZ_CHECK(ibcc_cacc_block_encode(&b2, out, len) == IBCC_ERR_RANGE, "block 256 encoded");
    }
    return 0;
}
