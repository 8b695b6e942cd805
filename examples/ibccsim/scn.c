/* ibccsim scenario files, version 2 (scn.h). */
#if !defined(_XOPEN_SOURCE) && !defined(_WIN32)
#define _XOPEN_SOURCE 700       /* realpath */
#endif
#include "scn.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int scn_err(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    if (msg && len) {
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return 1;
}

static char *scn_dup(const char *p, size_t n)
{
    char *q = (char *)malloc(n + 1u);
    if (!q) return NULL;
    memcpy(q, p, n);
    q[n] = 0;
    return q;
}

static int scn_keychar(int c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Trims [*p, *e) of blanks. */
static void scn_trim(const char **p, const char **e)
{
    while (*p < *e && (**p == ' ' || **p == '\t' || **p == '\r')) (*p)++;
    while (*e > *p && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
        (*e)--;
}

static void scn_entry_free(scn_entry *x)
{
    unsigned i;
    free(x->section);
    free(x->name);
    free(x->key);
    free(x->value);
    if (x->items) for (i = 0; i < x->nitems; i++) free(x->items[i]);
    free(x->items);
    memset(x, 0, sizeof *x);
}

void scn_free(scn *s)
{
    unsigned i;
    if (!s) return;
    for (i = 0; i < s->n; i++) scn_entry_free(&s->e[i]);
    s->n = 0;
}

/* A value into x: a list "{a, b}" split into items, else one value.
   where: "file:line" for messages. */
static int scn_set_value(scn_entry *x, const char *p, const char *e,
                         const char *where, char *msg, size_t len)
{
    char **items = NULL;
    unsigned n = 0, i;
    const char *vp, *ve;
    scn_trim(&p, &e);
    vp = p;
    ve = e;
    if (p == e)
        return scn_err(msg, len, "%s: %s has no value", where, x->key);
    if (*p == '{') {
        const char *q;
        if (e[-1] != '}')
            return scn_err(msg, len, "%s: a list is {a, b, ...} on one line",
                           where);
        p++;
        e--;
        for (q = p; q < e; q++)
            if (*q == '{' || *q == '}')
                return scn_err(msg, len, "%s: a list inside a list", where);
        items = (char **)calloc(SCN_MAX_LIST, sizeof *items);
        if (!items) return scn_err(msg, len, "%s: out of memory", where);
        for (;;) {
            const char *a = p, *b;
            while (p < e && *p != ',') p++;
            b = p;
            scn_trim(&a, &b);
            if (a == b) {
                for (i = 0; i < n; i++) free(items[i]);
                free(items);
                return scn_err(msg, len, "%s: an empty item in the list of %s",
                               where, x->key);
            }
            if (n >= SCN_MAX_LIST) {
                for (i = 0; i < n; i++) free(items[i]);
                free(items);
                return scn_err(msg, len, "%s: the list of %s has more than %u "
                               "items (refused, not cut)", where, x->key,
                               SCN_MAX_LIST);
            }
            if (!(items[n++] = scn_dup(a, (size_t)(b - a)))) {
                for (i = 0; i + 1u < n; i++) free(items[i]);
                free(items);
                return scn_err(msg, len, "%s: out of memory", where);
            }
            if (p >= e) break;
            p++;
        }
    }
    free(x->value);
    if (x->items) for (i = 0; i < x->nitems; i++) free(x->items[i]);
    free(x->items);
    x->value = items ? scn_dup(vp + 1, (size_t)(ve - vp - 2)) : scn_dup(p, (size_t)(e - p));
    x->items = items;
    x->nitems = items ? n : 0;
    x->pick = 0;
    if (!x->value) return scn_err(msg, len, "%s: out of memory", where);
    return 0;
}

static int scn_section_ok(const char *sec)
{
    return !strcmp(sec, "fabric") || !strcmp(sec, "sm") || !strcmp(sec, "traffic")
        || !strcmp(sec, "job") || !strcmp(sec, "run") || !strcmp(sec, "output");
}

scn_entry *scn_find(const scn *s, const char *section, const char *name,
                    const char *key)
{
    unsigned i;
    if (!name) name = "";
    for (i = 0; i < s->n; i++)
        if (!strcmp(s->e[i].section, section) && !strcmp(s->e[i].name, name)
            && !strcmp(s->e[i].key, key))
            return (scn_entry *)&s->e[i];
    return NULL;
}

const char *scn_value(const scn_entry *e)
{
    if (!e) return NULL;
    return e->items ? e->items[e->pick] : e->value;
}

const char *scn_get(const scn *s, const char *section, const char *name,
                    const char *key)
{
    return scn_value(scn_find(s, section, name, key));
}

static scn_entry *scn_add(scn *s, const char *sec, const char *name,
                          const char *key, size_t klen, unsigned line,
                          const char *where, char *msg, size_t len)
{
    scn_entry *x;
    if (s->n >= SCN_MAX_ENTRIES) {
        scn_err(msg, len, "%s: more than %u keys", where, SCN_MAX_ENTRIES);
        return NULL;
    }
    x = &s->e[s->n];
    memset(x, 0, sizeof *x);
    x->section = scn_dup(sec, strlen(sec));
    x->name = scn_dup(name, strlen(name));
    x->key = scn_dup(key, klen);
    x->line = line;
    if (!x->section || !x->name || !x->key) {
        scn_entry_free(x);
        scn_err(msg, len, "%s: out of memory", where);
        return NULL;
    }
    s->n++;
    return x;
}

int scn_parse(scn *s, const char *text, size_t len, const char *file,
              char *msg, size_t msglen)
{
    const char *p = text, *end = text + len, *slash;
    char sec[16] = "", name[128] = "", where[1100];
    unsigned line = 0, sections = 0, keys_before = 0;
    memset(s, 0, sizeof *s);
    if (!file) file = "(scenario)";
    snprintf(s->file, sizeof s->file, "%s", file);
    slash = strrchr(file, '/');
    if (slash) snprintf(s->dir, sizeof s->dir, "%.*s", (int)(slash == file ? 1 : slash - file), file);
    else snprintf(s->dir, sizeof s->dir, ".");
    if (memchr(text, 0, len))
        return scn_err(msg, msglen, "%s: a NUL byte (not a text file)", file);
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        const char *a = p, *b = nl ? nl : end, *q;
        p = nl ? nl + 1 : end;
        line++;
        snprintf(where, sizeof where, "%s:%u", file, line);
        for (q = a; q < b; q++)     /* '#' or ';' at the start or after a blank */
            if ((*q == '#' || *q == ';') && (q == a || q[-1] == ' ' || q[-1] == '\t')) {
                b = q;
                break;
            }
        scn_trim(&a, &b);
        if (a == b) continue;
        if (*a == '[') {
            const char *c, *d;
            if (b[-1] != ']') { scn_free(s); return scn_err(msg, msglen, "%s: a section line is [name], [traffic NAME] or [job NAME]", where); }
            if (keys_before) { scn_free(s); return scn_err(msg, msglen, "%s: keys before the first [section] (line %u)", where, keys_before); }
            c = a + 1; d = b - 1;
            scn_trim(&c, &d);
            q = c;
            while (q < d && *q != ' ' && *q != '\t') q++;
            if ((size_t)(q - c) >= sizeof sec) q = c;
            snprintf(sec, sizeof sec, "%.*s", (int)(q - c), c);
            if (!scn_section_ok(sec)) {
                scn_free(s);
                return scn_err(msg, msglen, "%s: unknown section [%.*s] (fabric, sm, traffic NAME, job NAME, run, output)",
                               where, (int)(d - c > 40 ? 40 : d - c), c);
            }
            c = q;
            scn_trim(&c, &d);
            if (!strcmp(sec, "traffic") || !strcmp(sec, "job")) {
                const char *r;
                unsigned i;
                size_t cap = !strcmp(sec, "job") ? 32u : sizeof name;
                if (c == d) { scn_free(s); return scn_err(msg, msglen, "%s: [%s NAME] needs a name", where, sec); }
                for (r = c; r < d; r++)
                    if (!scn_keychar(*r)) { scn_free(s); return scn_err(msg, msglen, "%s: a %s name is letters, digits, '_', '-', '.'", where, sec); }
                if ((size_t)(d - c) >= cap) { scn_free(s); return scn_err(msg, msglen, "%s: a %s name of more than %u characters", where, sec, (unsigned)cap - 1u); }
                snprintf(name, sizeof name, "%.*s", (int)(d - c), c);
                for (i = 0; i < s->n; i++)
                    if (!strcmp(s->e[i].section, sec) && !strcmp(s->e[i].name, name)) {
                        unsigned first = s->e[i].line;
                        scn_free(s);
                        return scn_err(msg, msglen, "%s: a second [%s %s] (its keys start on line %u)", where, sec, name, first);
                    }
            } else {
                if (c != d) { scn_free(s); return scn_err(msg, msglen, "%s: only [traffic NAME] and [job NAME] take a name", where); }
                name[0] = 0;
            }
            sections++;
            continue;
        }
        {
            const char *eq = (const char *)memchr(a, '=', (size_t)(b - a)), *k = a, *ke;
            scn_entry *x;
            if (!eq) { scn_free(s); return scn_err(msg, msglen, "%s: expected key = value", where); }
            ke = eq;
            scn_trim(&k, &ke);
            if (k == ke) { scn_free(s); return scn_err(msg, msglen, "%s: a key before '='", where); }
            for (q = k; q < ke; q++)
                if (!scn_keychar(*q)) { scn_free(s); return scn_err(msg, msglen, "%s: a key is letters, digits, '_', '-', '.'", where); }
            if (!sections && !keys_before) keys_before = line;
            {
                char kbuf[128];
                scn_entry *old;
                snprintf(kbuf, sizeof kbuf, "%.*s", (int)(ke - k), k);
                if ((old = scn_find(s, sec, name, kbuf)) != NULL) {
                    unsigned ol = old->line;
                    scn_free(s);
                    return scn_err(msg, msglen, "%s: %s given twice in this section (also on line %u)", where, kbuf, ol);
                }
            }
            x = scn_add(s, sec, name, k, (size_t)(ke - k), line, where, msg, msglen);
            if (!x || scn_set_value(x, eq + 1, b, where, msg, msglen)) { scn_free(s); return 1; }
        }
    }
    s->v1 = sections == 0;
    return 0;
}

int scn_override(scn *s, const char *arg, char *msg, size_t msglen)
{
    const char *eq = strchr(arg, '='), *k = arg, *ke, *d1, *d2 = NULL;
    char sec[16] = "", name[128] = "", key[128];
    scn_entry *x;
    int added;
    if (!eq || eq == arg) return scn_err(msg, msglen, "override \"%s\": expected [section.]key=value", arg);
    ke = eq;
    scn_trim(&k, &ke);
    d1 = (const char *)memchr(k, '.', (size_t)(ke - k));
    if (d1) d2 = (const char *)memchr(d1 + 1, '.', (size_t)(ke - d1 - 1));
    if (d1 && (size_t)(d1 - k) < sizeof sec) {
        snprintf(sec, sizeof sec, "%.*s", (int)(d1 - k), k);
        if (!scn_section_ok(sec)) sec[0] = 0;
    }
    if (sec[0] && (!strcmp(sec, "traffic") || !strcmp(sec, "job"))) {
        if (!d2) return scn_err(msg, msglen, "override \"%s\": a %s key is %s.NAME.key", arg, sec, sec);
        snprintf(name, sizeof name, "%.*s", (int)(d2 - d1 - 1), d1 + 1);
        snprintf(key, sizeof key, "%.*s", (int)(ke - d2 - 1), d2 + 1);
    } else if (sec[0]) {
        snprintf(key, sizeof key, "%.*s", (int)(ke - d1 - 1), d1 + 1);
    } else {                        /* a key of exactly one section */
        unsigned i, hits = 0;
        snprintf(key, sizeof key, "%.*s", (int)(ke - k), k);
        for (i = 0; i < s->n; i++)
            if (!strcmp(s->e[i].key, key)) {
                if (hits++ == 0) {
                    snprintf(sec, sizeof sec, "%s", s->e[i].section);
                    snprintf(name, sizeof name, "%s", s->e[i].name);
                }
            }
        if (hits > 1) return scn_err(msg, msglen, "override \"%s\": %s is in several sections: write section.%s", arg, key, key);
        if (hits == 0 && !s->v1) return scn_err(msg, msglen, "override \"%s\": %s is not in %s: write section.%s=value", arg, key, s->file, key);
    }
    if (!key[0]) return scn_err(msg, msglen, "override \"%s\": no key", arg);
    {
        const char *q;
        for (q = key; *q; q++)
            if (!scn_keychar(*q))
                return scn_err(msg, msglen, "override \"%.60s\": a key is letters, digits, '_', '-', '.'", arg);
        for (q = name; *q; q++)
            if (!scn_keychar(*q))
                return scn_err(msg, msglen, "override \"%.60s\": a %s name is letters, digits, '_', '-', '.'", arg, sec);
        if (strpbrk(eq + 1, "\n\r"))
            return scn_err(msg, msglen, "override \"%.60s\": a value is one line", arg);
    }
    x = scn_find(s, sec, name, key);
    added = x == NULL;
    if (!x) {
        if (!strcmp(sec, "traffic") || !strcmp(sec, "job")) {
            unsigned i, known = 0;
            for (i = 0; i < s->n; i++)
                if (!strcmp(s->e[i].section, sec) && !strcmp(s->e[i].name, name)) known = 1;
            if (!known) return scn_err(msg, msglen, "override \"%s\": no [%s %s] in %s", arg, sec, name, s->file);
        }
        x = scn_add(s, sec, name, key, strlen(key), 0, "override", msg, msglen);
        if (!x) return 1;
    }
    {
        char where[160];
        snprintf(where, sizeof where, "override \"%.120s\"", arg);
        if (scn_set_value(x, eq + 1, eq + 1 + strlen(eq + 1), where, msg, msglen)) {
            if (added) {            /* a refused new key leaves nothing */
                scn_entry_free(x);
                s->n--;
            }
            return 1;
        }
        return 0;
    }
}

unsigned long scn_points(const scn *s, char *msg, size_t msglen)
{
    unsigned long n = 1;
    unsigned i;
    for (i = 0; i < s->n; i++)
        if (s->e[i].items) {
            n *= s->e[i].nitems;
            if (n > SCN_MAX_POINTS) {
                scn_err(msg, msglen, "%s: the study has more than %u points (refused)",
                        s->file, SCN_MAX_POINTS);
                return 0;
            }
        }
    return n;
}

void scn_select(scn *s, unsigned long i)
{
    unsigned k = s->n;
    while (k-- > 0)                 /* the last list varies fastest */
        if (s->e[k].items) {
            s->e[k].pick = (unsigned)(i % s->e[k].nitems);
            i /= s->e[k].nitems;
        }
}

int scn_point_args(const scn *s, char *buf, size_t len)
{
    size_t u = 0;
    unsigned i;
    if (!len) return 1;
    buf[0] = 0;
    for (i = 0; i < s->n; i++) {
        const scn_entry *x = &s->e[i];
        int w;
        if (!x->items) continue;
        if (x->name[0])
            w = snprintf(buf + u, len - u, "%s%s.%s.%s=%s", u ? " " : "", x->section,
                         x->name, x->key, x->items[x->pick]);
        else if (x->section[0])
            w = snprintf(buf + u, len - u, "%s%s.%s=%s", u ? " " : "", x->section,
                         x->key, x->items[x->pick]);
        else
            w = snprintf(buf + u, len - u, "%s%s=%s", u ? " " : "", x->key,
                         x->items[x->pick]);
        if (w < 0 || (size_t)w >= len - u) return 1;
        u += (size_t)w;
    }
    return 0;
}

int scn_path(const scn *s, const char *path, char *out, size_t len)
{
    int w;
    if (!path || !path[0] || !len) return 1;
    if (path[0] == '/' || !strcmp(s->dir, ".")) w = snprintf(out, len, "%s", path);
    else w = snprintf(out, len, "%s/%s", s->dir, path);
    return w < 0 || (size_t)w >= len;
}

char *scn_read_file(const char *path, size_t *len, char *msg, size_t msglen)
{
    FILE *fp;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        scn_err(msg, msglen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        scn_err(msg, msglen, "%s: a directory, not a file", path);
        return NULL;
    }
    if (!(fp = fopen(path, "rb"))) {
        scn_err(msg, msglen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n + 4096u + 1u > cap) {
            size_t nc = cap ? cap * 2u : 65536u;
            char *nb = (char *)realloc(buf, nc);
            if (!nb) {
                free(buf);
                fclose(fp);
                scn_err(msg, msglen, "%s: out of memory", path);
                return NULL;
            }
            buf = nb;
            cap = nc;
        }
        got = fread(buf + n, 1, cap - n - 1u, fp);
        n += got;
        if (got == 0) break;
    }
    if (ferror(fp)) {
        free(buf);
        fclose(fp);
        scn_err(msg, msglen, "%s: read error", path);
        return NULL;
    }
    fclose(fp);
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        scn_err(msg, msglen, "%s: a NUL byte (not a text file)", path);
        return NULL;
    }
    *len = n;
    return buf;
}

static int scn_is_path_key(const scn_entry *x)
{
    static const char *const fk[] = {"ibnetdiscover", "lfts", "ibdiagnet", "lst",
                                     "db_csv", "fdbs"};
    unsigned i;
    if (!strcmp(x->section, "sm")) return !strcmp(x->key, "opensm_conf");
    if (!strcmp(x->section, "job")) return !strcmp(x->key, "trace");
    if (strcmp(x->section, "fabric")) return 0;
    for (i = 0; i < sizeof fk / sizeof fk[0]; i++) if (!strcmp(x->key, fk[i])) return 1;
    return 0;
}

int scn_write_point(const scn *s, FILE *fp, char *msg, size_t msglen)
{
    static const char *const order[] = {"fabric", "sm", "traffic", "job", "run", "output"};
    unsigned k, i, j;
    fprintf(fp, "# %s at one point of its study, its paths absolute\n", s->file);
    for (k = 0; k < 6u; k++)
        for (i = 0; i < s->n; i++) {        /* each (section, name) once */
            const scn_entry *g = &s->e[i];
            if (strcmp(g->section, order[k])) continue;
            for (j = 0; j < i; j++)
                if (!strcmp(s->e[j].section, g->section) && !strcmp(s->e[j].name, g->name)) break;
            if (j < i) continue;
            fprintf(fp, "[%s%s%s]\n", g->section, g->name[0] ? " " : "", g->name);
            for (j = i; j < s->n; j++) {
                const scn_entry *x = &s->e[j];
                char path[1100], abs[4096];
                const char *v = scn_value(x);
                if (strcmp(x->section, g->section) || strcmp(x->name, g->name)) continue;
                if (!strcmp(x->section, "output") && !strcmp(x->key, "directory")) continue;
                if (scn_is_path_key(x)) {
                    if (scn_path(s, v, path, sizeof path) || !realpath(path, abs))
                        return scn_err(msg, msglen, "%s: %s = %s: %s", s->file, x->key, v,
                                       strerror(errno));
                    v = abs;
                }
                fprintf(fp, "%s = %s\n", x->key, v);
            }
        }
    fprintf(fp, "[output]\ndirectory = .\n");
    return 0;
}

/* ---- [sm] ----------------------------------------------------------------- */
static const char *const scn_persl_[] = {
    "cc_ca_cong_setting_ccti_timer", "cc_ca_cong_setting_ccti_increase",
    "cc_ca_cong_setting_trigger_threshold", "cc_ca_cong_setting_ccti_min"};

/* OpenSM's boolean: TRUE/FALSE (any case), also yes/no, on/off, 1/0. */
static int scn_bool(const char *v)
{
    static const char *const t[] = {"true", "yes", "on", "1"};
    static const char *const f[] = {"false", "no", "off", "0"};
    char w[8];
    size_t i, n = strlen(v);
    if (n >= sizeof w) return -1;
    for (i = 0; i <= n; i++) w[i] = (char)tolower((unsigned char)v[i]);
    for (i = 0; i < 4u; i++) {
        if (!strcmp(w, t[i])) return 1;
        if (!strcmp(w, f[i])) return 0;
    }
    return -1;
}

/* One OpenSM line for the switch or CA parser: 0 applied, 1 not theirs,
   -1 refused (msg). */
static int scn_cc_line(scn_sm *sm, const char *line, const char *where,
                       char *msg, size_t msglen)
{
    ibcc_result r = ibcc_swcc_parse_opensm_line(&sm->sw, line);
    if (r == IBCC_OK) { sm->sw_given = 1; return 0; }
    if (r != IBCC_ERR_NOT_FOUND) {
        scn_err(msg, msglen, "%s: %s (%s)", where, r == IBCC_ERR_RANGE
                ? "a value out of range" : "a bad value", ibcc_result_str(r));
        return -1;
    }
    r = ibcc_cacc_parse_opensm_line(&sm->ca, line);
    if (r == IBCC_OK) { sm->ca_given = 1; return 0; }
    if (r != IBCC_ERR_NOT_FOUND) {
        scn_err(msg, msglen, "%s: %s (%s)", where, r == IBCC_ERR_RANGE
                ? "a value out of range" : "a bad value", ibcc_result_str(r));
        return -1;
    }
    return 1;
}

static void scn_skip(scn_sm *sm, const char *name, size_t n)
{
    char key[96];
    size_t u = strlen(sm->skipped);
    const char *p = sm->skipped;
    if (n >= sizeof key) n = sizeof key - 1u;
    memcpy(key, name, n);
    key[n] = 0;
    while (*p) {                        /* listed once */
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == n && !memcmp(p, key, n)) return;
        p = c ? c + 2 : p + l;
    }
    sm->nskipped++;
    if (u + n + 3u < sizeof sm->skipped)
        snprintf(sm->skipped + u, sizeof sm->skipped - u, "%s%s", u ? ", " : "", key);
}

/* An OpenSM QoS option the fabric models (its ports' VLs): qos, or
   qos_[ca_|sw0_|swe_|rtr_] and max_vls, high_limit, vlarb_high,
   vlarb_low or sl2vl (not qos_policy_file). */
static int scn_is_qos(const char *key, size_t n)
{
    static const char *const set[] = {"ca_", "sw0_", "swe_", "rtr_", ""};
    static const char *const val[] = {"max_vls", "high_limit", "vlarb_high",
                                      "vlarb_low", "sl2vl"};
    unsigned i, j;
    if (n == 3u && !strncmp(key, "qos", 3)) return 1;
    if (n <= 4u || strncmp(key, "qos_", 4)) return 0;
    for (i = 0; i < 5u; i++)
        for (j = 0; j < 5u; j++) {
            size_t a = strlen(set[i]), b = strlen(val[j]);
            if (n == 4u + a + b && !strncmp(key + 4, set[i], a)
                && !strncmp(key + 4 + a, val[j], b))
                return 1;
        }
    return 0;
}

/* The [sm] section's qos and qos_* keys, one "key value" line each in
   file order, read at once after the conf's. */
static int scn_sm_qos(const scn *s, scn_sm *sm, char *msg, size_t msglen)
{
    char *text;
    size_t cap = 1, len = 0;
    unsigned i, n = 0, line = 0, k = 0, other = sm->qos.other;
    const scn_entry **at;
    ibcc_result r;
    for (i = 0; i < s->n; i++)
        if (!strcmp(s->e[i].section, "sm") && scn_is_qos(s->e[i].key, strlen(s->e[i].key))) {
            cap += strlen(s->e[i].key) + strlen(scn_value(&s->e[i])) + 2u;
            n++;
        }
    if (!n) return 0;
    text = (char *)malloc(cap);
    at = (const scn_entry **)malloc(n * sizeof *at);
    if (!text || !at) {
        free(text);
        free((void *)at);
        return scn_err(msg, msglen, "%s: out of memory", s->file);
    }
    for (i = 0; i < s->n; i++) {
        const scn_entry *x = &s->e[i];
        if (strcmp(x->section, "sm") || !scn_is_qos(x->key, strlen(x->key))) continue;
        len += (size_t)sprintf(text + len, "%s %s\n", x->key, scn_value(x));
        at[k++] = x;
    }
    r = ibcc_qos_parse_opensm(&sm->qos, text, &line);
    free(text);
    sm->qos_given = 1;
    if (r != IBCC_OK || sm->qos.other != other) {
        const scn_entry *x = at[line ? line - 1u : 0];
        char where[1100];
        unsigned j;
        if (r == IBCC_OK)               /* a qos_ name OpenSM lacks */
            for (j = 0; j < n; j++) {
                unsigned o2 = 0;
                ibcc_qos_config one;
                char l1[600];
                memset(&one, 0, sizeof one);
                snprintf(l1, sizeof l1, "%s %s\n", at[j]->key, scn_value(at[j]));
                (void)ibcc_qos_parse_opensm(&one, l1, &o2);
                if (one.other) { x = at[j]; break; }
            }
        if (x->line) snprintf(where, sizeof where, "%s:%u", s->file, x->line);
        else snprintf(where, sizeof where, "override sm.%s", x->key);
        free((void *)at);
        if (r == IBCC_OK)
            return scn_err(msg, msglen, "%s: unknown key %s in [sm] (OpenSM's qos "
                           "options: qos, qos_max_vls, qos_high_limit, qos_vlarb_high, "
                           "qos_vlarb_low, qos_sl2vl, and their qos_ca_, qos_sw0_, "
                           "qos_swe_, qos_rtr_ forms)", where, x->key);
        return scn_err(msg, msglen, "%s: %s = %s: %s", where, x->key, scn_value(x),
                       ibcc_result_str(r));
    }
    free((void *)at);
    return 0;
}

int scn_read_sm(const scn *s, scn_sm *sm, char *msg, size_t msglen)
{
    const char *conf = scn_get(s, "sm", NULL, "opensm_conf");
    unsigned i;
    sm->cc = -1;
    sm->sw_given = sm->ca_given = 0;
    sm->skipped[0] = 0;
    sm->nskipped = 0;
    memset(&sm->qos, 0, sizeof sm->qos);
    sm->qos_given = 0;
    if (conf) {
        char path[1100], where[1200];
        size_t len = 0;
        char *text, *p, *end;
        unsigned line = 0;
        if (scn_path(s, conf, path, sizeof path))
            return scn_err(msg, msglen, "%s:%u: opensm_conf: a path too long", s->file,
                           scn_find(s, "sm", NULL, "opensm_conf")->line);
        if (!(text = scn_read_file(path, &len, msg, msglen))) return 1;
        {   /* its qos options: the ports' VLs */
            ibcc_result r = ibcc_qos_parse_opensm(&sm->qos, text, &line);
            if (r != IBCC_OK) {
                free(text);
                return scn_err(msg, msglen, "%s:%u: %s", path, line, ibcc_result_str(r));
            }
            line = 0;
        }
        p = text;
        end = text + len;
        while (p < end) {
            char *nl = (char *)memchr(p, '\n', (size_t)(end - p)), *a = p, *b;
            p = nl ? nl + 1 : end;
            if (nl) *nl = 0;
            b = a + strlen(a);
            line++;
            while (*a == ' ' || *a == '\t') a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) *--b = 0;
            if (!*a || *a == '#') continue;
            snprintf(where, sizeof where, "%s:%u", path, line);
            if (!strncmp(a, "congestion_control", 18) && (a[18] == ' ' || a[18] == '\t')) {
                const char *v = a + 18;
                while (*v == ' ' || *v == '\t') v++;
                if ((sm->cc = scn_bool(v)) < 0) {
                    free(text);
                    return scn_err(msg, msglen, "%s: congestion_control takes TRUE or FALSE", where);
                }
                continue;
            }
            {
                int r = scn_cc_line(sm, a, where, msg, msglen);
                if (r < 0) { free(text); return 1; }
                if (r > 0) {
                    size_t k = 0;
                    while (a[k] && a[k] != ' ' && a[k] != '\t') k++;
                    if (scn_is_qos(a, k)) sm->qos_given = 1;
                    else scn_skip(sm, a, k);
                }
            }
        }
        free(text);
    }
    for (i = 0; i < s->n; i++) {        /* the file's own keys win */
        const scn_entry *x = &s->e[i];
        char line[600], where[1100];
        const char *v = scn_value(x);
        unsigned k;
        int r;
        if (strcmp(x->section, "sm") || !strcmp(x->key, "opensm_conf")
            || scn_is_qos(x->key, strlen(x->key))) continue;
        if (x->line) snprintf(where, sizeof where, "%s:%u", s->file, x->line);
        else snprintf(where, sizeof where, "override sm.%s", x->key);
        if (!strcmp(x->key, "congestion_control")) {
            if ((sm->cc = scn_bool(v)) < 0)
                return scn_err(msg, msglen, "%s: congestion_control takes TRUE or FALSE", where);
            continue;
        }
        for (k = 0; k < 4u; k++) {
            size_t n = strlen(scn_persl_[k]);
            if (!strncmp(x->key, scn_persl_[k], n)) break;
        }
        if (k < 4u) {                   /* per SL: name_slN, "SL v" or v */
            size_t n = strlen(scn_persl_[k]);
            const char *sfx = x->key + n;
            if (!strncmp(sfx, "_sl", 3)) {
                char *e2;
                long sl = strtol(sfx + 3, &e2, 10);
                if (!sfx[3] || *e2 || sl < 0 || sl > 15)
                    return scn_err(msg, msglen, "%s: %s: the SL is 0..15", where, x->key);
                snprintf(line, sizeof line, "%s %ld %s", scn_persl_[k], sl, v);
            } else if (*sfx) {
                return scn_err(msg, msglen, "%s: unknown key %s in [sm]", where, x->key);
            } else if (!strchr(v, ' ') && !strchr(v, '\t')) {
                unsigned sl;
                for (sl = 0; sl < 16u; sl++) {
                    snprintf(line, sizeof line, "%s %u %s", scn_persl_[k], sl, v);
                    if (scn_cc_line(sm, line, where, msg, msglen) != 0) return 1;
                }
                continue;
            } else snprintf(line, sizeof line, "%s %s", x->key, v);
        } else snprintf(line, sizeof line, "%s %s", x->key, v);
        r = scn_cc_line(sm, line, where, msg, msglen);
        if (r < 0) return 1;
        if (r > 0)
            return scn_err(msg, msglen, "%s: unknown key %s in [sm] (opensm_conf, "
                           "congestion_control, cc_sw_cong_setting_*, "
                           "cc_ca_cong_setting_*, cc_cct, qos, qos_*)", where, x->key);
    }
    return scn_sm_qos(s, sm, msg, msglen);
}

/* ---- [fabric] ------------------------------------------------------------- */
int scn_is_ibfabric(const scn *s)
{
    return scn_get(s, "fabric", NULL, "ibnetdiscover") || scn_get(s, "fabric", NULL, "ibdiagnet")
        || scn_get(s, "fabric", NULL, "lst") || scn_get(s, "fabric", NULL, "db_csv");
}

static int scn_exists(const char *path, int want_dir)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    return want_dir ? S_ISDIR(st.st_mode) : !S_ISDIR(st.st_mode);
}

static int scn_ends(const char *s, const char *sfx)
{
    size_t a = strlen(s), b = strlen(sfx);
    return a >= b && !strcmp(s + a - b, sfx);
}

typedef ibcc_result (*scn_topofn)(ibcc_ibfabric *, const char *, size_t,
                                  const char *, const ibcc_fabric_allocator *,
                                  ibcc_ibfabric_error *);
typedef ibcc_result (*scn_tabfn)(ibcc_ibfabric *, const char *, size_t,
                                 const char *, ibcc_ibfabric_error *);

int scn_load_ibfabric(const scn *s, ibcc_ibfabric *ib, char *what,
                      char *msg, size_t msglen)
{
    static const char *const srcs[] = {"ibnetdiscover", "ibdiagnet", "lst", "db_csv"};
    char topo[1100] = "", tabs[1100] = "";
    const char *given = NULL, *tkey = NULL;
    scn_topofn tf = NULL;
    scn_tabfn bf = NULL;
    unsigned i, nsrc = 0;
    size_t len = 0;
    char *text;
    ibcc_ibfabric_error e;
    ibcc_result r;
    for (i = 0; i < 4u; i++)
        if (scn_get(s, "fabric", NULL, srcs[i])) { nsrc++; given = srcs[i]; }
    if (nsrc != 1)
        return scn_err(msg, msglen, "%s: [fabric] names %s of ibnetdiscover, ibdiagnet, lst, db_csv",
                       s->file, nsrc ? "more than one" : "none");
    if (scn_path(s, scn_get(s, "fabric", NULL, given), topo, sizeof topo))
        return scn_err(msg, msglen, "%s: [fabric] %s: a path too long", s->file, given);
    if (!strcmp(given, "ibnetdiscover")) {
        tf = ibcc_ibfabric_parse;
        bf = ibcc_ibfabric_lfts;
        tkey = "lfts";
    } else if (!strcmp(given, "ibdiagnet")) {
        bf = ibcc_ibfabric_fdbs;
        tkey = "fdbs";
        if (scn_exists(topo, 1)) {
            char dir[1000];
            if (strlen(topo) >= sizeof dir)
                return scn_err(msg, msglen, "%s: a path too long", topo);
            memcpy(dir, topo, strlen(topo) + 1u);
            if (snprintf(topo, sizeof topo, "%s/ibdiagnet2.lst", dir) >= (int)sizeof topo)
                return scn_err(msg, msglen, "%s: a path too long", dir);
            tf = ibcc_ibfabric_parse_lst;
            if (!scn_exists(topo, 0)) {
                snprintf(topo, sizeof topo, "%s/ibdiagnet2.db_csv", dir);
                tf = ibcc_ibfabric_parse_dbcsv;
                if (!scn_exists(topo, 0))
                    return scn_err(msg, msglen, "%s: neither ibdiagnet2.lst nor ibdiagnet2.db_csv in this folder", dir);
            }
            if (!scn_get(s, "fabric", NULL, "fdbs")) {
                snprintf(tabs, sizeof tabs, "%s/ibdiagnet2.fdbs", dir);
                if (!scn_exists(tabs, 0)) tabs[0] = 0;
            }
        } else if (scn_ends(topo, ".lst")) tf = ibcc_ibfabric_parse_lst;
        else if (scn_ends(topo, ".db_csv")) tf = ibcc_ibfabric_parse_dbcsv;
        else return scn_err(msg, msglen, "%s: ibdiagnet = a folder, or a .lst or .db_csv file", topo);
    } else {
        tf = !strcmp(given, "lst") ? ibcc_ibfabric_parse_lst : ibcc_ibfabric_parse_dbcsv;
        bf = ibcc_ibfabric_fdbs;
        tkey = "fdbs";
    }
    if (scn_get(s, "fabric", NULL, !strcmp(tkey, "lfts") ? "fdbs" : "lfts"))
        return scn_err(msg, msglen, "%s: [fabric] %s goes with %s",
                       s->file, !strcmp(tkey, "lfts") ? "fdbs" : "lfts",
                       !strcmp(tkey, "lfts") ? "ibdiagnet, lst or db_csv" : "ibnetdiscover");
    if (scn_get(s, "fabric", NULL, tkey)
        && scn_path(s, scn_get(s, "fabric", NULL, tkey), tabs, sizeof tabs))
        return scn_err(msg, msglen, "%s: [fabric] %s: a path too long", s->file, tkey);
    if (!(text = scn_read_file(topo, &len, msg, msglen))) return 1;
    r = tf(ib, text, len, topo, NULL, &e);
    free(text);
    if (r != IBCC_OK) return scn_err(msg, msglen, "%s:%u: %s", e.file, e.line, e.reason);
    if (tabs[0]) {
        if (!(text = scn_read_file(tabs, &len, msg, msglen))) { ibcc_ibfabric_free(ib); return 1; }
        r = bf(ib, text, len, tabs, &e);
        free(text);
    } else r = ibcc_ibfabric_updown(ib, &e);
    if (r != IBCC_OK) {
        ibcc_ibfabric_free(ib);
        return scn_err(msg, msglen, "%s:%u: %s", e.file, e.line, e.reason);
    }
    if (what)
        snprintf(what, 256, "%.110s%s%.110s", topo, tabs[0] ? " + " : " (up/down routes)",
                 tabs[0] ? tabs : "");
    return 0;
}

/* ---- [traffic NAME]: hosts ----------------------------------------------- */
int scn_hosts(const char *spec, uint32_t nhosts, const ibcc_ibfabric *ib,
              uint32_t *out, uint32_t cap, uint32_t *n, char *msg,
              size_t msglen)
{
    const char *p = spec;
    *n = 0;
    if (!strcmp(spec, "all")) {
        uint32_t i;
        if (nhosts > cap) return scn_err(msg, msglen, "more than %u hosts", cap);
        for (i = 0; i < nhosts; i++) out[i] = i;
        *n = nhosts;
        return 0;
    }
    for (;;) {
        const char *a = p, *b;
        uint32_t lo, hi, h, k;
        char item[128];
        while (*p && *p != ',') p++;
        b = p;
        scn_trim(&a, &b);
        if (a == b) return scn_err(msg, msglen, "an empty host in \"%s\"", spec);
        snprintf(item, sizeof item, "%.*s", (int)(b - a), a);
        {
            char *e1, *e2;
            unsigned long x = strtoul(item, &e1, 10), y = x;
            int number = isdigit((unsigned char)item[0]) && !(item[0] == '0' && item[1] == 'x');
            if (number && *e1 == '-' && isdigit((unsigned char)e1[1])) {
                y = strtoul(e1 + 1, &e2, 10);
                e1 = e2;
            }
            if (number && *e1 == 0) {
                if (x >= nhosts || y >= nhosts || y < x)
                    return scn_err(msg, msglen, "host %s: the hosts are 0..%u", item,
                                   nhosts ? nhosts - 1u : 0u);
                lo = (uint32_t)x;
                hi = (uint32_t)y;
            } else {
                ibcc_result r;
                if (!ib) return scn_err(msg, msglen, "host \"%s\": a built fabric's hosts are numbers 0..%u",
                                        item, nhosts ? nhosts - 1u : 0u);
                r = ibcc_ibfabric_find_host(ib, item, &h);
                if (r != IBCC_OK)
                    return scn_err(msg, msglen, r == IBCC_ERR_MISMATCH
                                   ? "host \"%s\" names several hosts (use a port GUID)"
                                   : "no host \"%s\" in the fabric", item);
                lo = hi = h;
            }
        }
        for (h = lo; ; h++) {
            for (k = 0; k < *n; k++)
                if (out[k] == h) return scn_err(msg, msglen, "host %u given twice in \"%s\"", h, spec);
            if (*n >= cap) return scn_err(msg, msglen, "more than %u hosts", cap);
            out[(*n)++] = h;
            if (h == hi) break;
        }
        if (!*p) break;
        p++;
    }
    return 0;
}
