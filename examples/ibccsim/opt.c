/* ibccsim's option tables: parsing, --help, defaults and params.csv from
   one table per subcommand (opt.h says how to add a flag). */
#include "ibccsim.h"

#define OPT_MAX_GIVEN 128
static const char *g_given[OPT_MAX_GIVEN];
static unsigned g_ngiven;

int opt_given(const char *name)
{
    unsigned i;
    for (i = 0; i < g_ngiven; i++)
        if (!strcmp(g_given[i], name)) return 1;
    return 0;
}

/* A number as --help and the messages write it: integers as they are,
   large powers of ten and two as 10^N and 2^N, others with %g. */
static void opt_num(double x, char *buf, size_t len)
{
    int e;
    if (x >= 18446744073709551615.0) { snprintf(buf, len, "2^64-1"); return; }
    for (e = 20; e <= 62; e++)
        if (x == ldexp(1.0, e)) {
            snprintf(buf, len, "2^%d", e);
            return;
        }
    for (e = 12; e <= 40; e++)
        if (x == ldexp(1.0, -e)) { snprintf(buf, len, "2^-%d", e); return; }
    for (e = 6; e <= 15; e++)
        if (x == pow(10.0, e)) { snprintf(buf, len, "10^%d", e); return; }
    for (e = 4; e <= 12; e++)
        if (fabs(x - pow(10.0, -e)) < 1e-3 * pow(10.0, -e)) {
            snprintf(buf, len, "10^-%d", e);
            return;
        }
    if (x == floor(x) && fabs(x) < 1e15) snprintf(buf, len, "%.0f", x);
    else snprintf(buf, len, "%g", x);
}

/* The range of a row, "lo..hi" (or "> lo and <= hi"), with its unit. */
static void opt_range(const opt *p, char *buf, size_t len)
{
    char lo[32], hi[32];
    opt_num(p->lo, lo, sizeof lo);
    opt_num(p->hi, hi, sizeof hi);
    if (p->flags & OPT_LO_OPEN)
        snprintf(buf, len, "> %s and <= %s%s%s", lo, hi, p->unit ? " " : "",
                 p->unit ? p->unit : "");
    else if (p->flags & OPT_HI_OPEN)
        snprintf(buf, len, ">= %s and < %s%s%s", lo, hi, p->unit ? " " : "",
                 p->unit ? p->unit : "");
    else
        snprintf(buf, len, "%s..%s%s%s", lo, hi, p->unit ? " " : "",
                 p->unit ? p->unit : "");
}

/* "a or b" / "one of a, b, c" from "a|b|c", after head. */
static void opt_choices(const char *names, const char *zero, char *buf,
                        size_t len)
{
    const char *s;
    unsigned n = 1;
    size_t u;
    for (s = names; *s; s++) n += *s == '|';
    if (zero) n++;
    snprintf(buf, len, n == 2 ? "" : "one of ");
    u = strlen(buf);
    if (zero) {
        snprintf(buf + u, len - u, "%s%s", zero, n == 2 ? " or " : ", ");
        u = strlen(buf);
    }
    for (s = names; *s && u + 1 < len; s++) {
        if (*s == '|') {
            snprintf(buf + u, len - u, "%s", n == 2 ? " or " : ", ");
        } else {
            buf[u] = *s;
            buf[u + 1] = 0;
        }
        u = strlen(buf);
    }
}

/* The index of v in "a|b|c", or -1. */
static int opt_choice_index(const char *names, const char *v)
{
    const char *s = names;
    size_t n = strlen(v);
    int i = 0;
    if (!n) return -1;
    for (;;) {
        const char *e = strchr(s, '|');
        size_t k = e ? (size_t)(e - s) : strlen(s);
        if (k == n && !strncmp(s, v, n)) return i;
        if (!e) return -1;
        s = e + 1;
        i++;
    }
}

/* Set while opt_set_value parses a key=value word inside another flag's
   value (custom --job's keys): errors then name the key as written. */
static int opt_as_key;

/* bad() for row p: "--name" is the flag (where() finds its line), or
   "name=" for a key of opt_set_value. */
static int opt_bad(const opt *p, const char *v, const char *why)
{
    char flag[84];
    if (opt_as_key) {
        snprintf(flag, sizeof flag, "--%s", p->name);
        where(flag);
        fprintf(stderr, "ibccsim: bad value '%s' for key %s=: %s\n",
                v ? v : "(missing)", p->name, why);
        return 2;
    }
    snprintf(flag, sizeof flag, "--%s", p->name);
    return bad(flag, v, why);
}

/* Parses v into row p's field of base; 0, or 2 after the message. */
static int opt_set(const opt *p, const char *v, void *base)
{
    char *f = (char *)base + p->off, why[320];
    unsigned long long u;
    double x;
    switch (p->type) {
    case OT_SWITCH:
        *(int *)f = (int)p->hi;
        return 0;
    case OT_UINT:
    case OT_U64:
        if (p->zero && v && !strcmp(v, p->zero)) u = 0;
        else if (!parse_uint(v, (unsigned long long)p->lo,
                             p->hi >= 18446744073709551615.0 ? ~0ull
                             : (unsigned long long)p->hi, &u)) {
            char r[96];
            opt_range(p, r, sizeof r);
            snprintf(why, sizeof why, "an integer %s%s%s%s", r,
                     p->zero ? " or '" : "", p->zero ? p->zero : "",
                     p->zero ? "'" : "");
            return opt_bad(p, v, why);
        }
        if (p->type == OT_UINT) *(unsigned *)f = (unsigned)u;
        else *(unsigned long long *)f = u;
        return 0;
    case OT_DOUBLE:
        if (!parse_double(v, p->lo, p->hi, &x)
            || ((p->flags & OPT_LO_OPEN) && x <= p->lo)
            || ((p->flags & OPT_HI_OPEN) && x >= p->hi)) {
            char r[96];
            opt_range(p, r, sizeof r);
            snprintf(why, sizeof why, "a number %s", r);
            return opt_bad(p, v, why);
        }
        *(double *)f = x;
        return 0;
    case OT_CHOICE: {
        int k = v ? opt_choice_index(p->names, v) : -1;
        if (k < 0) {
            opt_choices(p->names, NULL, why, sizeof why);
            return opt_bad(p, v, why);
        }
        *(int *)f = p->vals ? p->vals[k] : k;
        return 0;
    }
    case OT_TEXT:
        if (!v || !*v) {
            snprintf(why, sizeof why, "a %s",
                     p->arg && !strcmp(p->arg, "FILE") ? "file name" : "value");
            return opt_bad(p, v, why);
        }
        *(const char **)f = v;
        return 0;
    case OT_LAW:
        if (p->zero && v && !strcmp(v, p->zero)) { *(int *)f = 0; return 0; }
        if (!law_parse(v, (int *)f)) {
            char head[32];
            snprintf(head, sizeof head, "one of %s%s", p->zero ? p->zero : "",
                     p->zero ? ", " : "");
            return opt_bad(p, v, law_list(why, sizeof why, head, ", "));
        }
        return 0;
    case OT_FUNC:
        return p->fn(p, v, base, NULL, 0);
    case OT_HEAD:
        break;
    }
    return 0;
}

int opt_set_value(const opt *p, const char *v, void *base)
{
    int rc;
    opt_as_key = 1;
    rc = opt_set(p, v, base);
    opt_as_key = 0;
    return rc;
}

void opt_value(const opt *p, const void *base, char *buf, size_t len)
{
    const char *f = (const char *)base + p->off;
    buf[0] = 0;
    switch (p->type) {
    case OT_SWITCH:
        snprintf(buf, len, "%s", *(const int *)f == (int)p->hi ? "yes" : "no");
        break;
    case OT_UINT:
        if (p->zero && !*(const unsigned *)f) snprintf(buf, len, "%s", p->zero);
        else snprintf(buf, len, "%u", *(const unsigned *)f);
        break;
    case OT_U64:
        if (p->zero && !*(const unsigned long long *)f) snprintf(buf, len, "%s", p->zero);
        else snprintf(buf, len, "%llu", *(const unsigned long long *)f);
        break;
    case OT_DOUBLE: {
        /* the shortest text that reads back as the same double */
        double x = *(const double *)f;
        int prec;
        for (prec = 6; prec <= 17; prec++) {
            snprintf(buf, len, "%.*g", prec, x);
            if (strtod(buf, NULL) == x) break;
        }
        break;
    }
    case OT_CHOICE: {
        int k = *(const int *)f, i = 0;
        const char *s = p->names;
        if (p->vals) {
            int j = 0, m = 1;
            for (s = p->names; *s; s++) m += *s == '|';
            while (j < m && p->vals[j] != k) j++;
            k = j;
            s = p->names;
        }
        while (i < k && (s = strchr(s, '|')) != NULL) { s++; i++; }
        if (s) snprintf(buf, len, "%.*s", (int)strcspn(s, "|"), s);
        break;
    }
    case OT_TEXT:
        if (*(const char *const *)f)
            snprintf(buf, len, "%s", *(const char *const *)f);
        break;
    case OT_LAW:
        if (!*(const int *)f) snprintf(buf, len, "%s", p->zero ? p->zero : "");
        else snprintf(buf, len, "%s",
                      ibcc_law_kind_name((ibcc_law_kind)*(const int *)f));
        break;
    case OT_FUNC:
        {
            /* fn prints from the struct when v is NULL: it does not write */
            union { const void *c; void *m; } u;
            u.c = base;
            (void)p->fn(p, NULL, u.m, buf, len);
        }
        break;
    case OT_HEAD:
        break;
    }
}

void opt_defaults(const opt_cmd *c, void *o)
{
    unsigned i;
    for (i = 0; i < c->n; i++) {
        const opt *p = &c->opts[i];
        if (p->type == OT_HEAD || !p->def) continue;
        if (opt_set(p, p->def, o) != 0)
            fprintf(stderr, "ibccsim %s: internal: default '%s' of --%s\n",
                    c->name, p->def, p->name);
    }
    if (c->also) opt_defaults(c->also, (char *)o + c->also_off);
}

const opt *opt_find(const opt_cmd *c, const char *name, void *o, void **base)
{
    unsigned i;
    for (i = 0; i < c->n; i++)
        if (c->opts[i].name && !strcmp(c->opts[i].name, name)) {
            if (base) *base = o;
            return &c->opts[i];
        }
    if (c->also)
        return opt_find(c->also, name, o ? (char *)o + c->also_off : NULL, base);
    return NULL;
}

/* Edit distance of a and b: insertions, deletions, substitutions and
   swaps of two neighbours (at most 63 characters each counted). */
static unsigned opt_dist(const char *a, const char *b)
{
    unsigned d[64][64], i, j, n = (unsigned)strlen(a), m = (unsigned)strlen(b);
    if (n > 63) n = 63;
    if (m > 63) m = 63;
    for (i = 0; i <= n; i++) d[i][0] = i;
    for (j = 0; j <= m; j++) d[0][j] = j;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= m; j++) {
            unsigned x = d[i - 1][j] + 1, y = d[i][j - 1] + 1,
                     z = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            d[i][j] = x < y ? (x < z ? x : z) : (y < z ? y : z);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;      /* two letters swapped */
        }
    return d[n][m];
}

static void opt_near(const opt_cmd *c, const char *name, const char **best,
                     unsigned *bd)
{
    unsigned i;
    for (i = 0; i < c->n; i++) {
        unsigned dd;
        if (!c->opts[i].name) continue;
        dd = opt_dist(name, c->opts[i].name);
        if (dd < *bd) { *bd = dd; *best = c->opts[i].name; }
    }
    if (c->also) opt_near(c->also, name, best, bd);
}

const char *opt_suggest(const opt_cmd *c, const char *name)
{
    const char *best = NULL;
    unsigned bd = ~0u, lim = (unsigned)strlen(name) / 3u;
    opt_near(c, name, &best, &bd);
    if (lim < 2) lim = 2;
    return best && bd <= lim ? best : NULL;
}

int opt_parse(const opt_cmd *c, int argc, char **argv, void *o)
{
    int i;
    g_ngiven = 0;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *eq;
        char name[80];
        const opt *p;
        void *base;
        int rc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            opt_help(c, stdout);
            return 1;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "ibccsim %s: unexpected argument '%s'\n", c->name, a);
            return 2;
        }
        eq = strchr(a, '=');
        snprintf(name, sizeof name, "%.*s",
                 (int)(eq ? (size_t)(eq - a - 2) : strlen(a + 2)), a + 2);
        p = opt_find(c, name, o, &base);
        if (!p) {
            const char *s = opt_suggest(c, name);
            where(a);
            if (s)
                fprintf(stderr, "ibccsim %s: unknown flag '--%s' (did you mean "
                        "--%s? see --help)\n", c->name, name, s);
            else
                fprintf(stderr, "ibccsim %s: unknown flag '--%s' (see --help)\n",
                        c->name, name);
            return 2;
        }
        if (g_ngiven < OPT_MAX_GIVEN) g_given[g_ngiven++] = p->name;
        if (p->type == OT_SWITCH) {
            if (eq) {
                const char *w = eq + 1;
                if (!strcmp(w, "no") || !strcmp(w, "off") || !strcmp(w, "false")) {
                    g_ngiven--;
                    continue;
                }
                if (strcmp(w, "yes") && strcmp(w, "on") && strcmp(w, "true"))
                    return opt_bad(p, w, "a flag without a value takes "
                               "yes, on, true, no, off or false");
            }
            (void)opt_set(p, NULL, base);
            continue;
        }
        if (eq) v = eq + 1;
        else {
            v = flag_value(argc, argv, i);
            if (v) i++;
        }
        if ((rc = opt_set(p, v, base)) != 0) return rc;
    }
    g_quiet = opt_given("quiet");
    return 0;
}

/* One row of --help. */
static void opt_help_row(const opt *p, FILE *out)
{
    char lead[128], tail[160], r[96];
    const char *h = p->help ? p->help : "", *nl;
    int col;
    if (p->type == OT_HEAD) {
        fprintf(out, "%s\n", h);
        return;
    }
    switch (p->type) {
    case OT_SWITCH:
        snprintf(lead, sizeof lead, "  --%s", p->name);
        break;
    case OT_CHOICE:
        snprintf(lead, sizeof lead, "  --%s %s", p->name, p->names);
        break;
    case OT_LAW: {
        char laws[256];
        snprintf(lead, sizeof lead, "  --%s %s%s%s", p->name,
                 p->zero ? p->zero : "", p->zero ? "|" : "",
                 law_list(laws, sizeof laws, "", "|"));
        break;
    }
    default:
        if (p->zero)
            snprintf(lead, sizeof lead, "  --%s %s|%s", p->name,
                     p->arg ? p->arg : "X", p->zero);
        else
            snprintf(lead, sizeof lead, "  --%s %s", p->name,
                     p->arg ? p->arg : "X");
        break;
    }
    tail[0] = 0;
    if (p->type == OT_UINT || p->type == OT_U64 || p->type == OT_DOUBLE) {
        opt_range(p, r, sizeof r);
        /* "(lo..hi, unit)": tests/help_ranges.awk reads the range */
        opt_range(p, r, sizeof r);
        if (p->unit && !(p->flags & (OPT_LO_OPEN | OPT_HI_OPEN)))
            r[strlen(r) - strlen(p->unit) - 1u] = 0;
        snprintf(tail, sizeof tail, " (%s%s%s)", r,
                 p->unit && !(p->flags & (OPT_LO_OPEN | OPT_HI_OPEN)) ? ", " : "",
                 p->unit && !(p->flags & (OPT_LO_OPEN | OPT_HI_OPEN)) ? p->unit : "");
    }
    if (p->defdoc || p->def) {
        size_t u = strlen(tail);
        snprintf(tail + u, sizeof tail - u, " [%s]", p->defdoc ? p->defdoc : p->def);
    }
    col = fprintf(out, "%s", lead);
    if (col >= 23) { fprintf(out, "\n"); col = 0; }
    fprintf(out, "%*s", 24 - col, "");
    while ((nl = strchr(h, '\n')) != NULL) {
        fprintf(out, "%.*s\n%24s", (int)(nl - h), h, "");
        h = nl + 1;
    }
    fprintf(out, "%s%s\n", h, tail);
}

void opt_help(const opt_cmd *c, FILE *out)
{
    unsigned i;
    fprintf(out, "usage: ibccsim %s %s\n", c->name, c->usage ? c->usage : "[flags]");
    if (c->about) fprintf(out, "%s", c->about);
    for (i = 0; i < c->n; i++) opt_help_row(&c->opts[i], out);
    if (c->also) {
        fprintf(out, "flags of ibccsim %s:\n", c->also->name);
        for (i = 0; i < c->also->n; i++) opt_help_row(&c->also->opts[i], out);
    }
    if (c->after) fprintf(out, "%s", c->after);
}

int opt_params(const opt_cmd *c, const void *o, FILE *fp)
{
    unsigned i;
    char buf[512];
    for (i = 0; i < c->n; i++) {
        const opt *p = &c->opts[i];
        if (p->type == OT_HEAD || (p->flags & OPT_NOPARAM)) continue;
        opt_value(p, o, buf, sizeof buf);
        /* a row without a default that was not given and holds its
           zero: left empty, so that `run params.csv` leaves it to what
           the run took it from (--high-limit 0 given over a file's
           value is written as 0 and kept) */
        if (!p->def && !opt_given(p->name) && opt_is_default(p, buf))
            buf[0] = 0;
        fprintf(fp, "%s,%s\n", p->name, buf);
    }
    if (c->also) return opt_params(c->also, (const char *)o + c->also_off, fp);
    return !ferror(fp);
}

int opt_is_default(const opt *p, const char *value)
{
    /* the default parsed into a scratch copy of the struct and printed
       back; a row without a default is at it when it holds its zero,
       but for a choice, whose zero is a name like any other */
    static union { long double d; void *p; char c[16384]; } scratch;
    char buf[512];
    if (p->type == OT_HEAD || p->off + 64u > sizeof scratch) return 0;
    if (!p->def && (p->type == OT_CHOICE || p->type == OT_LAW
                    || p->type == OT_FUNC))
        return 0;
    memset(&scratch, 0, sizeof scratch);
    if (p->def && opt_set(p, p->def, &scratch) != 0) return 0;
    opt_value(p, &scratch, buf, sizeof buf);
    return !strcmp(buf, value);
}

/* roff text: '-' and '\' escaped, a leading '.' or '\'' guarded. */
static void opt_roff(FILE *out, const char *s, size_t n)
{
    size_t i;
    int bol = 1;
    for (i = 0; i < n && s[i]; i++) {
        char ch = s[i];
        if (bol && (ch == '.' || ch == '\'')) fputs("\\&", out);
        if (ch == '-') fputs("\\-", out);
        else if (ch == '\\') fputs("\\e", out);
        else fputc(ch, out);
        bol = ch == '\n';
    }
}

static void opt_roffs(FILE *out, const char *s)
{
    opt_roff(out, s, strlen(s));
}

void opt_man(const opt_cmd *c, FILE *out)
{
    unsigned i;
    const opt_cmd *t;
    fputs(".SS ", out);
    opt_roffs(out, c->name);
    fputs("\n.B ibccsim ", out);
    opt_roffs(out, c->name);
    fputs(" ", out);
    opt_roffs(out, c->usage ? c->usage : "[flags]");
    fputs("\n.PP\n", out);
    if (c->about) opt_roffs(out, c->about);
    for (t = c; t; t = t->also) {
        if (t != c) {
            fputs(".PP\nThe flags of ", out);
            opt_roffs(out, t->name);
            fputs(":\n", out);
        }
        for (i = 0; i < t->n; i++) {
            const opt *p = &t->opts[i];
            char lead[600];
            if (p->type == OT_HEAD) {
                fputs(".PP\n.I ", out);
                opt_roff(out, p->help, strcspn(p->help, "\n"));
                fputs("\n", out);
                continue;
            }
            /* the --help row's first column, without its indent */
            {
                FILE *m = tmpfile();
                long sz;
                if (!m) continue;
                opt_help_row(p, m);
                sz = ftell(m);
                rewind(m);
                if (sz < 0 || (size_t)sz >= sizeof lead) sz = (long)sizeof lead - 1;
                lead[fread(lead, 1, (size_t)sz, m)] = 0;
                fclose(m);
            }
            {
                char *s = lead + 2, *e = strstr(s, "  ");
                char *nl = strchr(s, '\n');
                size_t k = e && (!nl || e < nl) ? (size_t)(e - s)
                           : nl ? (size_t)(nl - s) : strlen(s);
                fputs(".TP\n.B ", out);
                opt_roff(out, s, k);
                fputs("\n", out);
                s += k;
                while (*s == ' ' || *s == '\n') s++;
                /* the text, its continuation lines joined */
                while (*s) {
                    size_t m = strcspn(s, "\n");
                    opt_roff(out, s, m);
                    fputs("\n", out);
                    s += m;
                    while (*s == '\n' || *s == ' ') s++;
                }
            }
        }
    }
    if (c->after) {
        fputs(".PP\n", out);
        opt_roffs(out, c->after);
    }
}
