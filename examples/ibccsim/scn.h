/* ibccsim scenario files, version 2: INI with sections (docs/scenarios.md,
   "Scenario files").

       [fabric]                     # a builder, or a real fabric
       ibdiagnet = ../capture       # paths are relative to this file
       [sm]
       opensm_conf = opensm.conf    # congestion_control decides CC on/off
       cc_sw_cong_setting_threshold = {4, 8, 15}    # a list: a sweep
       [traffic incast]             # any number of blocks, one class each
       pattern = incast
       [run]
       time = 2
       [output]
       directory = results          # default: results/ beside the file

   This module is the file format only: sections, keys, lists and their
   cross product, command-line overrides (section.key=value), path
   resolution against the file's folder, the [sm] section read with the
   header's OpenSM parsers, [fabric]'s InfiniBand sources loaded with the
   header's loader, and host lists of [traffic] blocks. It uses only the C
   library and ibcc.h. Errors fill a message "file:line: reason" and
   return nonzero; nothing here prints or exits. */
#ifndef IBCCSIM_SCN_H
#define IBCCSIM_SCN_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ibcc.h"

#define SCN_MAX_ENTRIES 512     /* keys in a file (with its overrides) */
#define SCN_MAX_LIST 64         /* items of one list: longer is refused */
#define SCN_MAX_POINTS 100000u  /* points of a study: more is refused */
#define SCN_MSG 512

typedef struct scn_entry {
    char *section;              /* "fabric", "sm", "traffic", "run", "output" */
    char *name;                 /* [traffic NAME]'s NAME, else "" */
    char *key;
    char *value;                /* as written (a list: without its braces) */
    char **items;               /* a list's items; NULL for a single value */
    unsigned nitems, pick;      /* list size; the item of the current point */
    unsigned line;              /* 0: from an override */
} scn_entry;

typedef struct scn {
    char file[1024];            /* as given */
    char dir[1024];             /* its folder ("." when none) */
    scn_entry e[SCN_MAX_ENTRIES];
    unsigned n;
    int v1;                     /* no [section] at all: an old flat file */
} scn;

/* Parses text (len bytes) named `file` into *s (which it zeroes first).
   0 or nonzero with msg "file:line: reason". A text without any [section]
   line is accepted as a version 1 file (s->v1 = 1, entries in section
   ""). Sections: fabric, sm, traffic NAME (NAME: letters, digits, '_',
   '-', '.'), run, output; keys: [A-Za-z0-9_.-]+, once per section. */
int scn_parse(scn *s, const char *text, size_t len, const char *file,
              char *msg, size_t msglen);
/* Frees what s holds. */
void scn_free(scn *s);

/* Applies "section.key=value", "traffic.NAME.key=value" or "key=value"
   (a key that is in exactly one section of the file). The value may be
   a list. 0 or nonzero with msg. */
int scn_override(scn *s, const char *arg, char *msg, size_t msglen);

/* The entry of (section, name, key) or NULL. name NULL means "". */
scn_entry *scn_find(const scn *s, const char *section, const char *name,
                    const char *key);
/* Its value at the current point (a list's picked item). */
const char *scn_value(const scn_entry *e);
/* The value of (section, name, key) at the current point, or NULL. */
const char *scn_get(const scn *s, const char *section, const char *name,
                    const char *key);

/* The points of the study: the product of the list sizes (1 without
   lists). 0 with msg when above SCN_MAX_POINTS. */
unsigned long scn_points(const scn *s, char *msg, size_t msglen);
/* Selects point i (0-based; the first list varies slowest). */
void scn_select(scn *s, unsigned long i);
/* The overrides that select the current point, "section.key=value ..."
   (traffic keys as traffic.NAME.key), into buf; 0, or nonzero when buf
   is too small. */
int scn_point_args(const scn *s, char *buf, size_t len);

/* path relative to the file's folder (absolute paths unchanged) into
   out; 0, nonzero when out is too small or path empty. */
int scn_path(const scn *s, const char *path, char *out, size_t len);

/* ---- [sm]: OpenSM's settings ------------------------------------------- */
typedef struct scn_sm {
    int cc;                     /* congestion_control: 1 TRUE, 0 FALSE,
                                   -1 not said */
    ibcc_swcc sw;
    ibcc_cacc_config ca;
    int sw_given, ca_given;     /* some cc_sw_* / cc_ca_* or cc_cct set */
    char skipped[8192];         /* options of the conf not modelled,
                                   ", "-separated, each once */
    unsigned nskipped;
    ibcc_qos_config qos;        /* qos and qos_* (ibcc_qos_parse_opensm),
                                   the ports' VLs when qos_given */
    int qos_given;
} scn_sm;
/* Reads [sm]: opensm_conf (its file: every line through
   ibcc_swcc_parse_opensm_line and ibcc_cacc_parse_opensm_line,
   congestion_control TRUE|FALSE, qos and qos_* options through
   ibcc_qos_parse_opensm, other options listed in skipped), then the
   section's own keys in OpenSM's names, which override the file:
   congestion_control, cc_sw_cong_setting_*, cc_ca_cong_setting_*
   (per-SL ones as "SL value", as name_slN = value, or one value for
   every SL), cc_cct, qos and qos_* (also qos_ca_*, qos_sw0_*,
   qos_swe_*, qos_rtr_*; read after the file's, all at once). sm starts from the caller's defaults (sw, ca). 0 or
   nonzero with msg naming the file (the conf's own line for its
   errors). */
int scn_read_sm(const scn *s, scn_sm *sm, char *msg, size_t msglen);

/* ---- [fabric]: a real InfiniBand fabric --------------------------------- */
/* 1 when [fabric] names a real fabric (ibnetdiscover, ibdiagnet, lst or
   db_csv), 0 for a builder. */
int scn_is_ibfabric(const scn *s);
/* Loads it into *ib: ibnetdiscover = FILE with optional lfts = FILE; or
   ibdiagnet = DIR (ibdiagnet2.lst, else ibdiagnet2.db_csv; ibdiagnet2.fdbs
   when present) or FILE (.lst or .db_csv); lst = FILE or db_csv = FILE
   with optional fdbs = FILE. Without tables, up/down routes. `what`
   (optional, 256 bytes) describes the files read. 0 or nonzero with
   msg "file:line: reason". */
int scn_load_ibfabric(const scn *s, ibcc_ibfabric *ib, char *what,
                      char *msg, size_t msglen);

/* ---- [traffic NAME]: hosts ---------------------------------------------- */
/* Parses a host list "0, 3-5, node01 HCA-1, 0x0002c90300001002" (indexes
   and ranges 0-based; names and GUIDs need ib, which may be NULL for a
   builder's fabric) of hosts 0..nhosts-1 into out[] (cap entries, in the
   order given, duplicates refused); *n the count. "all" is every host.
   0 or nonzero with msg (without the file part). */
int scn_hosts(const char *spec, uint32_t nhosts, const ibcc_ibfabric *ib,
              uint32_t *out, uint32_t cap, uint32_t *n, char *msg,
              size_t msglen);

/* The scenario at its current point as a file of its own (every list at
   its item, the paths of [fabric] and opensm_conf made absolute, the
   output directory "." so that the copy writes beside itself), into fp.
   0, or nonzero with msg (a path that does not resolve). */
int scn_write_point(const scn *s, FILE *fp, char *msg, size_t msglen);

/* Reads a whole file (no size limit; a directory, a NUL byte or an
   unreadable file is an error naming it). Free with free(). */
char *scn_read_file(const char *path, size_t *len, char *msg, size_t msglen);
#endif
