/* ==== L1 cacc ===========================================================
   IBA channel-adapter congestion settings exactly as a subnet manager
   programs them (MECHANISMS.md §7, IBA 1.2.1 Annex A10): the
   CACongestionSetting and CongestionControlTable attributes as MAD bytes,
   the rdma-core ibccconfig argument forms, the OpenSM option lines
   cc_ca_cong_setting_* and cc_cct, in and out, and applying them to an
   ibcc_cct agent.

   MAD layouts (bytes of the attribute data, i.e. starting at offset 64
   of the 256-byte CC MAD, after the 24-byte common header, the 8-byte
   CC_Key and 32 reserved bytes; all fields big-endian). Field order and
   widths from MECHANISMS.md §7; the positions of the reserved fields
   were checked against the packed structures of the OpenSM development
   headers (ib_ca_cong_setting_t / ib_ca_cong_entry_t / ib_cc_tbl_t in
   iba/ib_types.h) and agree with libibmad's field table:
     CACongestionSetting (132 bytes)
       0  Port_Control 16   (bit 0: 0 per-QP, 1 per-SL; bits 15..1 reserved)
       2  Control_Map  16   (bit s: SL s)
       4 + 8 s, s = 0..15, one CACongestionEntry of 8 bytes:
         +0 CCTI_Timer 16   (1.024 us units)
         +2 CCTI_Increase 8
         +3 Trigger_Threshold 8
         +4 CCTI_Min 8
         +5 reserved 24
     CongestionControlTable (132 bytes; attribute modifier = block index)
       0  CCTI_Limit 16
       2  reserved 16
       4 + 2 i, i = 0..63: CCT entry (block * 64 + i): shift 2 | mult 14
   Encode writes reserved fields as 0; decode ignores them (IBA receiver
   rule) and never reads beyond 132 bytes.

   Text forms
   - ibccconfig (rdma-core):
       CACongestionSetting <port_control> <control_map> <ccti_timer>
                           <ccti_increase> <trigger_threshold> <ccti_min>
     sets the four values on every SL whose Control_Map bit is set (the
     other entries are 0);
       CongestionControlTable <cctilimit> <index> <shift:mult>...
     with index the block index (attribute modifier), at most 64 entries
     (the rest of the block is 0).
   - OpenSM (opensm.conf), one option per line, everything 0 / off by
     default:
       cc_ca_cong_setting_port_control <v>
       cc_ca_cong_setting_control_map <v>
       cc_ca_cong_setting_ccti_timer <SL> <v>        (one line per SL)
       cc_ca_cong_setting_ccti_increase <SL> <v>
       cc_ca_cong_setting_trigger_threshold <SL> <v>
       cc_ca_cong_setting_ccti_min <SL> <v>
       cc_cct <shift:mult>,<shift:mult>,...          (at most 128 entries;
                                                      "(null)" or nothing:
                                                      none, CCTI_Limit 0)
     With n entries OpenSM programs CCTI_Limit n - 1.
   - Numbers: decimal or 0x-hexadecimal; every value is checked against
     its field width (IBCC_ERR_RANGE); anything else, including trailing
     text, is IBCC_ERR_PARSE. Printing uses 0x hex for Port_Control and
     Control_Map, decimal elsewhere. A text buffer too small for the
     output gives IBCC_ERR_NOMEM (and an empty string when len > 0).

   Defaults: none (plain data; every zero field is the IBA value 0).
   ====================================================================== */

#define IBCC_CACC_SETTING_BYTES 132u
#define IBCC_CACC_TABLE_BYTES   132u
#define IBCC_CACC_BLOCK_ENTRIES 64u
#define IBCC_CACC_MAX_BLOCKS    256u /* IBCC_CCT_MAX_ENTRIES / 64 */
#define IBCC_CACC_OPENSM_CCT_MAX 128u

/* CACongestionSetting. */
typedef struct ibcc_cacc_setting {
    uint16_t port_control;      /* bit 0: per-SL control */
    uint16_t control_map;       /* bit s: SL s */
    ibcc_cct_sl sl[IBCC_CCT_SLS];
} ibcc_cacc_setting;

/* One CongestionControlTable attribute (a block of 64 entries). */
typedef struct ibcc_cacc_block {
    uint16_t ccti_limit;        /* highest valid index of the whole CCT */
    uint16_t block;             /* attribute modifier (block index) */
    uint16_t entry[IBCC_CACC_BLOCK_ENTRIES]; /* entries block*64 + i */
} ibcc_cacc_block;

/* What OpenSM's options describe: one setting and up to 128 entries. */
typedef struct ibcc_cacc_config {
    ibcc_cacc_setting setting;
    uint32_t cct_len;           /* 0 .. 128 */
    uint16_t cct[IBCC_CACC_OPENSM_CCT_MAX];
} ibcc_cacc_config;

/* ---- MAD bytes --------------------------------------------------------- */

/* Writes the 132 attribute bytes. Errors: NULL, NOMEM (len < 132),
   RANGE (reserved Port_Control bits set). */
IBCC_API ibcc_result ibcc_cacc_setting_encode(const ibcc_cacc_setting *s,
                                              uint8_t *buf, size_t len);
/* Reads them (reserved fields ignored). Errors: NULL, NOMEM (len < 132). */
IBCC_API ibcc_result ibcc_cacc_setting_decode(ibcc_cacc_setting *s,
                                              const uint8_t *buf, size_t len);
/* Writes one CongestionControlTable attribute (132 bytes; b->block goes in
   the attribute modifier, not in the bytes). Errors: NULL, NOMEM, RANGE
   (ccti_limit > 16383 or block > 255). */
IBCC_API ibcc_result ibcc_cacc_block_encode(const ibcc_cacc_block *b,
                                            uint8_t *buf, size_t len);
/* Reads one, with its attribute modifier `block`. Errors: NULL, NOMEM,
   RANGE (block > 255, CCTI_Limit > 16383). */
IBCC_API ibcc_result ibcc_cacc_block_decode(ibcc_cacc_block *b, uint16_t block,
                                            const uint8_t *buf, size_t len);
/* Number of blocks that carry a table with CCTI_Limit `limit`:
   limit / 64 + 1. */
IBCC_API uint32_t ibcc_cacc_blocks(uint16_t limit);
/* Block `block` of a table entries[0 .. n-1] with CCTI_Limit `limit`
   (entries beyond n are 0). Errors: NULL (b; entries with n > 0), RANGE
   (limit >= max(n, 1), block > limit / 64), CAPACITY (n > 16384). */
IBCC_API ibcc_result ibcc_cacc_block_from_table(ibcc_cacc_block *b,
                                                const uint16_t *entries,
                                                uint32_t n, uint16_t limit,
                                                uint16_t block);
/* Stores a block's entries into entries[block*64 ..] (capacity cap); the
   caller takes CCTI_Limit from b->ccti_limit. Entries that fall beyond
   cap are an error only if the block carries valid entries there
   (index <= ccti_limit). Errors: NULL, CAPACITY. */
IBCC_API ibcc_result ibcc_cacc_block_to_table(const ibcc_cacc_block *b,
                                              uint16_t *entries, uint32_t cap);

/* ---- ibccconfig forms ------------------------------------------------- */

/* Parses "CACongestionSetting <pc> <map> <timer> <inc> <thr> <min>".
   Errors: NULL, PARSE, RANGE. */
IBCC_API ibcc_result ibcc_cacc_setting_parse(ibcc_cacc_setting *s, const char *text);
/* Prints that form (no newline). Errors: NULL, NOMEM, UNSUPPORTED (the
   SL entries in Control_Map differ, or an SL outside it is not all 0:
   the form cannot express the setting). */
IBCC_API ibcc_result ibcc_cacc_setting_print(const ibcc_cacc_setting *s,
                                             char *buf, size_t len);
/* Parses "CongestionControlTable <limit> <index> <shift:mult>...".
   Errors: NULL, PARSE, RANGE (values; more than 64 entries; index > 255;
   limit > 16383). */
IBCC_API ibcc_result ibcc_cacc_block_parse(ibcc_cacc_block *b, const char *text);
/* Prints that form with the block's valid entries (those with index <=
   ccti_limit; none when the block lies beyond it). Errors: NULL, NOMEM. */
IBCC_API ibcc_result ibcc_cacc_block_print(const ibcc_cacc_block *b,
                                           char *buf, size_t len);

/* ---- OpenSM options --------------------------------------------------- */

/* Applies one opensm.conf line to *c. Blank lines and '#' comments: OK,
   nothing changed. Another option's line: IBCC_ERR_NOT_FOUND, nothing
   changed (so the same text can be offered to other parsers). Errors:
   NULL, PARSE, RANGE (SL > 15, values beyond the field, more than 128
   CCT entries). */
IBCC_API ibcc_result ibcc_cacc_opensm_line(ibcc_cacc_config *c, const char *line);
/* Applies every line of a text (lines of other options are skipped).
   Stops at the first error; *line_no (optional) = its 1-based line. */
IBCC_API ibcc_result ibcc_cacc_opensm_parse(ibcc_cacc_config *c, const char *text,
                                            unsigned *line_no);
/* Prints every cc_ca_* option (the per-SL ones once per SL) and cc_cct,
   one per line, in the order listed above. Errors: NULL, NOMEM, RANGE
   (cct_len > 128). */
IBCC_API ibcc_result ibcc_cacc_opensm_print(const ibcc_cacc_config *c,
                                            char *buf, size_t len);

/* ---- agent ------------------------------------------------------------ */

/* Reads an agent's current setting. Errors: NULL. */
IBCC_API ibcc_result ibcc_cacc_from_cct(ibcc_cacc_setting *s, const ibcc_cct *c);
/* Programs a setting into an agent at `now` (ibcc_cct_set_port, then
   ibcc_cct_set_sl for the 16 SLs). Checked first, applied only if valid.
   Errors: NULL, RANGE (reserved Port_Control bits, CCTI_Min above the
   agent's CCTI_Limit). */
IBCC_API ibcc_result ibcc_cacc_apply(ibcc_cct *c, const ibcc_cacc_setting *s,
                                     ibcc_time now);
/* Programs an OpenSM configuration: the CCT (cct_len entries, CCTI_Limit
   cct_len - 1, or an empty table with CCTI_Limit 0) and the setting.
   Checked first, applied only if valid. Errors: NULL, CAPACITY (more
   entries than the agent's table), RANGE (as ibcc_cacc_apply against
   the new limit; cct_len > 128), STATE (an agent never initialised). */
IBCC_API ibcc_result ibcc_cacc_apply_config(ibcc_cct *c, const ibcc_cacc_config *cfg,
                                            ibcc_time now);
