/* ==== L1 swcc ===========================================================
   IBA switch congestion settings (IBA Annex A10; MECHANISMS.md §7, [G]):
   the SwitchCongestionSetting and SwitchPortCongestionSetting attributes as
   plain structs, with
     - encode/decode to the MAD attribute bytes,
     - range validation,
     - the rdma-core ibccconfig argument forms (parse and print),
     - the OpenSM cc_sw_cong_setting_* option lines (parse and print),
     - applying a setting to an IBA marker (ibcc_marker_apply_swcc/_swport).
   See docs/swcc.md.

   MAD layouts (big-endian, as every IBA MAD; bit offsets below are those of
   the libibmad field tables, counted from the most significant bit of the
   first byte):
   SwitchCongestionSetting, 76 bytes:
     bytes  0..3   Control_Map   (bit offset   0, 32 bits)
     bytes  4..35  Victim_Mask   (bit offset  32, 256 bits; port p = bit p
                                  of the 256-bit big-endian number, i.e.
                                  byte 35 - p/8, bit p%8)
     bytes 36..67  Credit_Mask   (bit offset 288, same numbering)
     byte  68      Threshold     (bit offset 544, 4 bits: the high nibble;
                                  the low nibble is reserved)
     byte  69      Packet_Size   (bit offset 552, 8 bits, 64-byte units)
     byte  70      CS_Threshold  (bit offset 560, 4 bits: the high nibble;
                                  the rest of bytes 70..71 is reserved)
     bytes 72..73  CS_ReturnDelay(bit offset 576, 16 bits: shift in bits
                                  15..14, multiplier in bits 13..0)
     bytes 74..75  Marking_Rate  (bit offset 592, 16 bits)
   SwitchPortCongestionSetting: blocks of 32 elements of 4 bytes (attribute
   modifier = block = port / 32), element for port p at byte 4*(p % 32):
     byte 0: Valid = bit 7 (0x80), Control_Type = bit 6 (0x40), bits 5..4
             reserved, Threshold = bits 3..0
     byte 1: Packet_Size
     bytes 2..3: Marking_Rate (Cong_Parm), big-endian
   Reserved bits are written as 0 and ignored when decoding.

   Control_Map bits (which fields a switch applies):
   | bit | constant               | fields                               |
   | 0   | IBCC_SWCC_VICTIM_MASK  | Victim_Mask                          |
   | 1   | IBCC_SWCC_CREDIT_MASK  | Credit_Mask                          |
   | 2   | IBCC_SWCC_THRESHOLD    | Threshold and Packet_Size            |
   | 3   | IBCC_SWCC_CS           | CS_Threshold and CS_ReturnDelay      |
   | 4   | IBCC_SWCC_MARKING_RATE | Marking_Rate                         |

   Ranges (ibcc_swcc_validate / ibcc_swport_validate, IBCC_ERR_RANGE):
   | field              | range                         |
   | control_map        | bits 0..4 only                |
   | threshold          | 0..15 (0 none, 1 loose .. 15 aggressive) |
   | packet_size        | 0..255 (64-byte units)        |
   | cs_threshold       | 0..15                         |
   | cs_return_delay    | shift 0..3, multiplier 0..16383 |
   | marking_rate       | 0..65535                      |
   | port element valid, control_type | 0..1            |
   Every field zero (the OpenSM default) means: nothing enabled.
   ====================================================================== */

#define IBCC_SWCC_VICTIM_MASK  0x01u
#define IBCC_SWCC_CREDIT_MASK  0x02u
#define IBCC_SWCC_THRESHOLD    0x04u
#define IBCC_SWCC_CS           0x08u
#define IBCC_SWCC_MARKING_RATE 0x10u
#define IBCC_SWCC_MAD_BYTES    76u   /* SwitchCongestionSetting */
#define IBCC_SWPORT_BYTES      4u    /* one port element */
#define IBCC_SWPORT_BLOCK      32u   /* elements per attribute block */

/* SwitchCongestionSetting. Masks: bit p of word p/32 = port p. */
typedef struct ibcc_swcc {
    uint32_t control_map;
    uint32_t victim_mask[8];
    uint32_t credit_mask[8];
    uint32_t threshold;
    uint32_t packet_size;
    uint32_t cs_threshold;
    uint32_t cs_return_delay_shift;   /* CS_ReturnDelay bits 15..14 */
    uint32_t cs_return_delay_mult;    /* CS_ReturnDelay bits 13..0 */
    uint32_t marking_rate;
} ibcc_swcc;

/* One SwitchPortCongestionSetting element. */
typedef struct ibcc_swport {
    uint32_t valid;                   /* 1: the switch applies this element */
    uint32_t control_type;            /* 0 congestion control, 1 credit
                                         starvation */
    uint32_t threshold;
    uint32_t packet_size;
    uint32_t marking_rate;            /* Cong_Parm */
} ibcc_swport;

/* IBCC_OK or IBCC_ERR_RANGE (first field out of range), IBCC_ERR_NULL. */
IBCC_API ibcc_result ibcc_swcc_validate(const ibcc_swcc *s);
IBCC_API ibcc_result ibcc_swport_validate(const ibcc_swport *e);

/* Encodes a valid setting into out[IBCC_SWCC_MAD_BYTES] (the attribute
   data of the MAD). Errors: NULL, RANGE (nothing written). */
IBCC_API ibcc_result ibcc_swcc_encode(const ibcc_swcc *s, uint8_t *out);
/* Decodes in[IBCC_SWCC_MAD_BYTES]; reserved bits are ignored. Every field
   width fits its range except control_map, which is kept as received
   (validate rejects unknown bits). Errors: NULL. */
IBCC_API ibcc_result ibcc_swcc_decode(ibcc_swcc *s, const uint8_t *in);
/* One element to/from 4 bytes. Errors: NULL, RANGE (encode). */
IBCC_API ibcc_result ibcc_swport_encode(const ibcc_swport *e, uint8_t *out);
IBCC_API ibcc_result ibcc_swport_decode(ibcc_swport *e, const uint8_t *in);

/* ibccconfig argument forms. Numbers are decimal or 0x-hex (a leading 0 is
   decimal, not octal); masks take up to 64 hex digits (256 bits) or a
   decimal below 2^64; the return delay is "shift:mult". The command word
   may be present or not. Tokens are separated by spaces or tabs.
     SwitchCongestionSetting <controlmap> <victimmask> <creditmask>
         <threshold> <packetsize> <csthreshold> <csreturndelay shift:mult>
         <markingrate>
     SwitchPortCongestionSetting <port> <valid> <control_type> <threshold>
         <packet_size> <marking_rate>
   Errors: NULL, PARSE (malformed, missing or extra tokens), RANGE (a value
   outside its field). *s / *e / *port are written only on success. */
IBCC_API ibcc_result ibcc_swcc_parse_args(ibcc_swcc *s, const char *text);
IBCC_API ibcc_result ibcc_swport_parse_args(ibcc_swport *e, unsigned *port,
                                            const char *text);
/* Prints the same forms (with the command word; masks and control map in
   hex, the rest decimal) into buf. Errors: NULL, RANGE (invalid setting),
   FULL (buf too small; buf holds a truncated, terminated string). */
IBCC_API ibcc_result ibcc_swcc_print_args(const ibcc_swcc *s, char *buf,
                                          size_t len);
IBCC_API ibcc_result ibcc_swport_print_args(const ibcc_swport *e,
                                            unsigned port, char *buf,
                                            size_t len);

/* OpenSM option lines (opensm.conf): one "name value" line:
     cc_sw_cong_setting_control_map, _victim_mask, _credit_mask,
     _threshold, _packet_size, _credit_starvation_threshold,
     _credit_starvation_return_delay (shift:mult), _marking_rate
   Returns IBCC_OK when the line set a field of *s (or is blank or a
   # comment: nothing changes), IBCC_ERR_NOT_FOUND when it is another
   option (left for other parsers), IBCC_ERR_PARSE / IBCC_ERR_RANGE for a
   bad value of one of these options (*s unchanged), IBCC_ERR_NULL. */
IBCC_API ibcc_result ibcc_swcc_parse_opensm_line(ibcc_swcc *s,
                                                 const char *line);
/* Every line of `text` (a whole opensm.conf, say): lines of other options
   are skipped. On a PARSE/RANGE error *bad_line (optional) = its 1-based
   number and *s keeps the lines before it. */
IBCC_API ibcc_result ibcc_swcc_parse_opensm(ibcc_swcc *s, const char *text,
                                            unsigned *bad_line);
/* The 8 option lines, each ending in '\n' (numbers in 0x-hex, the return
   delay as shift:mult). Errors: NULL, RANGE, FULL (as print_args). */
IBCC_API ibcc_result ibcc_swcc_print_opensm(const ibcc_swcc *s, char *buf,
                                            size_t len);

/* Applies a SwitchCongestionSetting to an IBA marker the way a switch
   does, field groups selected by Control_Map: bit 0 sets the Victim_Mask,
   bit 2 Threshold and Packet_Size of every port, bit 4 Marking_Rate of
   every port (restarting their counters). Credit masks and credit
   starvation (bits 1 and 3) are not modelled by the marker: a setting
   with either bit set is refused (IBCC_ERR_UNSUPPORTED) and nothing
   changes. Errors: NULL, RANGE (invalid setting or a Victim_Mask bit at
   or above the marker's ports), STATE (marker engine is not IBA),
   UNSUPPORTED. */
IBCC_API ibcc_result ibcc_marker_apply_swcc(ibcc_marker *m,
                                            const ibcc_swcc *s);
/* Applies one port element: valid = 0 changes nothing (IBCC_OK);
   control_type 1 (credit starvation) is IBCC_ERR_UNSUPPORTED; otherwise
   the port gets Threshold, Packet_Size and Marking_Rate. Errors: NULL,
   RANGE (element or port), STATE, UNSUPPORTED. */
IBCC_API ibcc_result ibcc_marker_apply_swport(ibcc_marker *m, unsigned port,
                                              const ibcc_swport *e);
