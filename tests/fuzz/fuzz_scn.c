/* Fuzz harness: ibccsim's scenario files with sections
   (examples/ibccsim/scn.c): the INI reader, overrides, lists and their
   cross product, host lists.

   Input: text up to the first NUL (the scenario), then NUL-separated
   overrides (section.key=value), the last of them a host list; a byte
   picks the point.

   Checked:
   - parse: 0, or nonzero with a message that starts with the file name;
     a parsed file has at most SCN_MAX_ENTRIES keys, each with a section,
     a key and a value, lists of 1..SCN_MAX_LIST items, no key twice in
     one (section, name);
   - overrides: applied or refused with a message; a refused one changes
     no value;
   - points: the product of the list sizes (0 with a message above
     SCN_MAX_POINTS); selecting point i gives each list the item of the
     mixed-radix digits of i (the last list fastest), and point_args
     lists exactly those items;
   - a file without path keys written at its point (scn_write_point)
     parses back to the same values at that point;
   - host lists of 8 hosts: refused with a message, or 1..8 distinct
     hosts below 8. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"
#include "../../examples/ibccsim/scn.c"

#define MAXT 8192

static scn g_s, g_t;

static void check_parsed(const scn *s)
{
    unsigned i, j;
    FZ_CHECK(s->n <= SCN_MAX_ENTRIES, "entries %u", s->n);
    for (i = 0; i < s->n; i++) {
        const scn_entry *x = &s->e[i];
        FZ_CHECK(x->section && x->name && x->key && x->value && x->key[0], "entry %u incomplete: [%s] [%s] key \"%s\" value %s", i, x->section ? x->section : "-", x->name ? x->name : "-", x->key ? x->key : "-", x->value ? "set" : "NULL");
        FZ_CHECK(!x->items || (x->nitems >= 1 && x->nitems <= SCN_MAX_LIST && x->pick < x->nitems),
                 "entry %u list of %u", i, x->nitems);
        for (j = 0; j < i; j++)
            FZ_CHECK(strcmp(s->e[j].section, x->section) || strcmp(s->e[j].name, x->name)
                     || strcmp(s->e[j].key, x->key), "key %s twice", x->key);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[MAXT + 2];
    char msg[SCN_MSG], args[8192];
    const char *p, *end;
    size_t n = size < MAXT ? size : MAXT, tl;
    unsigned long pts, pick, k;
    unsigned i;
    memcpy(text, data, n);
    text[n] = 0;
    text[n + 1] = 0;
    tl = strlen(text);
    msg[0] = 0;
    if (scn_parse(&g_s, text, tl, "f.ini", msg, sizeof msg)) {
        FZ_CHECK(!strncmp(msg, "f.ini", 5), "message \"%s\"", msg);
        FZ_CHECK(g_s.n == 0, "entries left after an error");
        return 0;
    }
    check_parsed(&g_s);
    /* overrides: every NUL-separated piece after the text but the last */
    end = text + n;
    p = text + tl + 1;
    while (p < end) {
        const char *q = p + strlen(p);
        if (q >= end) break;                /* the last piece: hosts */
        {
            char before[64];
            const char *v0 = g_s.n ? scn_value(&g_s.e[0]) : NULL;
            snprintf(before, sizeof before, "%s", v0 ? v0 : "");
            if (scn_override(&g_s, p, msg, sizeof msg) != 0) {
                FZ_CHECK(!g_s.n || !strncmp(before, scn_value(&g_s.e[0]), strlen(before)),
                         "a refused override changed a value");
            }
        }
        check_parsed(&g_s);
        p = q + 1;
    }
    pts = scn_points(&g_s, msg, sizeof msg);
    {
        unsigned long prod = 1;
        int over = 0;
        for (i = 0; i < g_s.n; i++)
            if (g_s.e[i].items) {
                prod *= g_s.e[i].nitems;
                if (prod > SCN_MAX_POINTS) { over = 1; break; }
            }
        FZ_CHECK(over ? pts == 0 : pts == prod, "points %lu, product %lu", pts, prod);
    }
    if (pts) {
        pick = (n ? data[n - 1] : 0) * 7919ul % pts;
        scn_select(&g_s, pick);
        k = pick;
        i = g_s.n;
        while (i-- > 0)
            if (g_s.e[i].items) {
                FZ_CHECK(g_s.e[i].pick == k % g_s.e[i].nitems, "pick of %s", g_s.e[i].key);
                k /= g_s.e[i].nitems;
            }
        if (scn_point_args(&g_s, args, sizeof args) == 0) {
            for (i = 0; i < g_s.n; i++)
                if (g_s.e[i].items)
                    FZ_CHECK(strstr(args, g_s.e[i].items[g_s.e[i].pick]) != NULL,
                             "point_args lacks %s", g_s.e[i].key);
        }
        /* write the point and read it back (files without path keys) */
        {
            int paths = 0;
            for (i = 0; i < g_s.n; i++) paths |= scn_is_path_key(&g_s.e[i]);
            if (!paths && !g_s.v1) {
                FILE *fp = tmpfile();
                if (fp) {
                    static char back[1 << 17];
                    size_t bl;
                    FZ_CHECK(scn_write_point(&g_s, fp, msg, sizeof msg) == 0, "write_point");
                    rewind(fp);
                    bl = fread(back, 1, sizeof back - 1, fp);
                    fclose(fp);
                    if (bl < sizeof back - 1 && scn_parse(&g_t, back, bl, "g.ini", msg, sizeof msg) == 0) {
                        for (i = 0; i < g_s.n; i++) {
                            const scn_entry *x = &g_s.e[i];
                            const char *v;
                            if (!strcmp(x->section, "output") && !strcmp(x->key, "directory")) continue;
                            v = scn_get(&g_t, x->section, x->name, x->key);
                            /* a value with a comment sign or braces may read differently */
                            if (strpbrk(scn_value(x), "#;{}\\r")) continue;
                            FZ_CHECK(v && !strcmp(v, scn_value(x)), "%s.%s back as \"%s\", was \"%s\"",
                                     x->section, x->key, v ? v : "(none)", scn_value(x));
                        }
                        scn_free(&g_t);
                    }
                }
            }
        }
    }
    /* hosts: the last piece */
    if (p < end) {
        uint32_t h[16], nh = 0, a, b;
        if (scn_hosts(p, 8, NULL, h, 16, &nh, msg, sizeof msg) == 0) {
            FZ_CHECK(nh >= 1 && nh <= 8, "%u hosts", nh);
            for (a = 0; a < nh; a++) {
                FZ_CHECK(h[a] < 8, "host %u", h[a]);
                for (b = 0; b < a; b++) FZ_CHECK(h[a] != h[b], "host %u twice", h[a]);
            }
        } else FZ_CHECK(msg[0] != 0, "a refused host list without a message");
    }
    scn_free(&g_s);
    return 0;
}
