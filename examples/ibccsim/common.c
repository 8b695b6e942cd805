#include "ibccsim.h"

/* Where flags came from when a scenario file is run (ibccsim run): the
   file and the line of each flag, so that errors name the line. */
const char *g_file;
const char *g_key[SC_MAX_KEYS];
unsigned g_line[SC_MAX_KEYS], g_nkeys;

void where(const char *flag)
{
    unsigned i;
    if (!g_file) return;
    for (i = 0; i < g_nkeys; i++)
        if (!strcmp(g_key[i], flag + 2)) {
            fprintf(stderr, "%s:%u: ", g_file, g_line[i]);
            return;
        }
    fprintf(stderr, "%s: ", g_file);
}

int bad(const char *flag, const char *val, const char *why)
{
    where(flag);
    fprintf(stderr, "ibccsim: bad value '%s' for %s: %s\n",
            val ? val : "(missing)", flag, why);
    return 2;
}

/* --law: a law kind of the library by its name (ibcc_law_kind_name),
   one that its name alone describes (not a custom law, which needs its
   functions); 0 for another text. */
int law_parse(const char *v, int *kind)
{
    ibcc_law_desc d;
    memset(&d, 0, sizeof d);
    if (!v || ibcc_law_kind_parse(v, &d.kind) != IBCC_OK
        || ibcc_law_defaults(&d) != IBCC_OK) return 0;
    *kind = (int)d.kind;
    return 1;
}

/* head, then the names law_parse takes, in the library's order, joined
   by sep: the text of --law's errors. */
const char *law_list(char *buf, size_t len, const char *head,
                            const char *sep)
{
    const char *name;
    int k, any = 0, kind;
    snprintf(buf, len, "%s", head);
    for (k = 1; strcmp(name = ibcc_law_kind_name((ibcc_law_kind)k), "?"); k++) {
        size_t n = strlen(buf);
        if (!law_parse(name, &kind)) continue;
        snprintf(buf + n, len - n, "%s%s", any ? sep : "", name);
        any = 1;
    }
    return buf;
}

/* The value after flag argv[i], or NULL when there is none: the next
   argument is missing or is itself a flag (so `--summary --quiet` is an
   error, not a file named "--quiet"). */
const char *flag_value(int argc, char **argv, int i)
{
    if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) return NULL;
    return argv[i + 1];
}

int parse_uint(const char *s, unsigned long long lo,
                      unsigned long long hi, unsigned long long *out)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-') return 0;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v;
    if (!s || !*s) return 0;
    errno = 0;
    v = strtod(s, &end);
    if (errno || *end || !(v >= lo && v <= hi)) return 0;
    *out = v;
    return 1;
}


/* Closes an output file; a write that failed anywhere (full disk, a
   closed pipe) is reported with the file name and gives 0. */
int close_out(FILE *fp, const char *path)
{
    int err = ferror(fp);
    if (fclose(fp) != 0 || err) {
        fprintf(stderr, "ibccsim: writing %s failed: %s\n", path,
                strerror(errno ? errno : EIO));
        return 0;
    }
    return 1;
}

/* ibcc_fabric_create with the library's reason for a refusal printed as
   "ibccsim WHO: fabric: REASON" (the field and the rule it broke). */
ibcc_result fabric_create(const char *who, ibcc_fabric **f,
                                 ibcc_fabric_desc *d)
{
    ibcc_fabric_error err;
    ibcc_result r;
    d->error = &err;
    r = ibcc_fabric_create(f, d);
    d->error = NULL;
    if (r != IBCC_OK)
        fprintf(stderr, "ibccsim%s%s: fabric: %s\n", *who ? " " : "", who,
                err.reason[0] ? err.reason : ibcc_result_str(r));
    return r;
}

/* Loads a CCT: quadratic ([G]'s delays in units of mpt, the maximum
   packet's wire time), linear, or a file of OpenSM cc_cct lines or
   ibccconfig CongestionControlTable lines. `cmd` names the subcommand in
   messages. Returns entries, 0 on error. */
char *fc_read(const char *cmd, const char *flag, const char *path,
                     size_t *len);
static uint32_t gr_cct_blocks(const char *cmd, const char *what, char *text,
                              uint16_t *cct, uint32_t cap);
uint32_t gr_load_cct(const char *cmd, const char *what, ibcc_time mpt,
                            uint16_t *cct, uint32_t cap)
{
    char *text;
    size_t n;
    uint32_t got;
    unsigned line = 0;
    ibcc_cacc_config cfg;
    if (!strcmp(what, "quadratic")) {
        if (ibcc_cct_fill_quadratic(cct, 128, mpt, IBCC_CCT_QUAD_COEF,
                                    IBCC_CCT_QUAD_G_ROOT) != IBCC_OK) {
            fprintf(stderr, "ibccsim %s: --cct quadratic: the delays do not "
                    "fit the table at this packet time\n", cmd);
            return 0;
        }
        return 128;
    }
    if (!strcmp(what, "linear"))
        return ibcc_cct_fill_linear(cct, 128) == IBCC_OK ? 128u : 0u;
    /* the whole file, whatever its size (fc_read refuses NUL bytes and
       what cannot be read, naming the file) */
    if (!(text = fc_read(cmd, "--cct", what, &n))) return 0;
    {
        char *t = (char *)realloc(text, n + 1u);
        if (!t) {
            free(text);
            fprintf(stderr, "ibccsim %s: out of memory\n", cmd);
            return 0;
        }
        text = t;
        text[n] = 0;
    }
    memset(&cfg, 0, sizeof cfg);
    if (ibcc_cacc_parse_opensm(&cfg, text, &line) == IBCC_OK && cfg.cct_len) {
        memcpy(cct, cfg.cct, cfg.cct_len * sizeof *cct);
        free(text);
        return cfg.cct_len;
    }
    got = gr_cct_blocks(cmd, what, text, cct, cap);
    free(text);
    return got;
}

/* ibccconfig CongestionControlTable lines, one block per line: the
   table's entries, 0 on error (with a message). */
static uint32_t gr_cct_blocks(const char *cmd, const char *what, char *text,
                              uint16_t *cct, uint32_t cap)
{
    unsigned line;
    {
        /* ibccconfig: one CongestionControlTable block per line */
        char *p = text, *nl;
        uint32_t len = 0;
        line = 0;
        memset(cct, 0, cap * sizeof *cct);
        while (*p) {
            ibcc_cacc_block b;
            nl = strchr(p, '\n');
            if (nl) *nl = 0;
            line++;
            if (*p && *p != '#') {
                if (ibcc_cacc_block_parse_args(&b, p) != IBCC_OK
                    || ibcc_cacc_block_to_table(&b, cct, cap) != IBCC_OK) {
                    fprintf(stderr, "ibccsim %s: --cct %s:%u: not a cc_cct "
                            "or CongestionControlTable line\n", cmd, what,
                            line);
                    return 0;
                }
                if ((uint32_t)b.ccti_limit + 1u > len) len = b.ccti_limit + 1u;
            }
            if (!nl) break;
            p = nl + 1;
        }
        if (len == 0)
            fprintf(stderr, "ibccsim %s: --cct %s: no table found\n", cmd,
                    what);
        return len;
    }
}


/* ---- sweeps: independent points in worker processes -----------------
   Runs point(idx, ctx) for idx = 0 .. total-1, each in a child process
   (at most `jobs` at once), with a progress line on stderr. A point
   returns 0 on success. Returns 1 when every point succeeded. */
int run_points(const char *what, unsigned total, unsigned jobs,
                      int (*point)(unsigned idx, void *ctx), void *ctx)
{
    unsigned next = 0, done = 0, running = 0, tenth = 0;
    int ok = 1, tty = isatty(2);
    while (done < total) {
        int st;
        pid_t pid;
        while (ok && running < jobs && next < total) {
            pid = fork();
            if (pid < 0) {
                fprintf(stderr, "ibccsim %s: fork: %s\n", what, strerror(errno));
                ok = 0;
                break;
            }
            if (pid == 0) {
                g_quiet = 1;            /* the sweep shows the progress */
                _exit(point(next, ctx) ? 1 : 0);
            }
            next++;
            running++;
        }
        if (running == 0) break;
        pid = wait(&st);
        if (pid < 0) break;
        running--;
        done++;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            if (ok) fprintf(stderr, "%sibccsim %s: a run failed\n", tty ? "\n" : "", what);
            ok = 0;
        }
        /* a terminal: one line rewritten; a file: a line per 10% */
        if (g_quiet) continue;
        if (tty) fprintf(stderr, "\r%s: %u of %u points done", what, done, total);
        else if (done * 10u / total > tenth || done == total) {
            tenth = done * 10u / total;
            fprintf(stderr, "%s: %u of %u points done\n", what, done, total);
        }
    }
    if (tty && !g_quiet && done) fprintf(stderr, "\n");
    return ok && done == total;
}

/* A sweep's temporary folder: ibccsim-NAME-XXXXXX under $TMPDIR (when set
   and at most 120 characters) or /tmp. 0, said on stderr, when it cannot
   be made. */
int sw_mkdtemp(char *dir, size_t len, const char *what)
{
    const char *t = getenv("TMPDIR");
    if (!t || !*t || strlen(t) > 120) t = "/tmp";
    snprintf(dir, len, "%s/ibccsim-%s-XXXXXX", t, what);
    if (mkdtemp(dir)) return 1;
    fprintf(stderr, "ibccsim %s: no temporary directory in %s: %s\n", what, t,
            strerror(errno));
    return 0;
}

/* Removes a sweep's temporary folder with whatever its points wrote. */
void sw_rmtemp(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char f[256];
    if (d) {
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (snprintf(f, sizeof f, "%s/%s", dir, e->d_name) < (int)sizeof f)
                remove(f);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* A sweep's output, opened before any point runs (so a path in a missing
   folder costs no simulation); standard output when out is NULL. */
FILE *sw_open_out(const char *what, const char *out)
{
    FILE *fo = out ? fopen(out, "w") : stdout;
    if (!fo)
        fprintf(stderr, "ibccsim %s: cannot write %s: %s\n", what, out,
                strerror(errno));
    return fo;
}

/* A failed sweep: its temporary folder removed, its output file (empty:
   nothing was written yet) closed and removed. Returns 1. */
int sw_fail(const char *dir, FILE *fo, const char *out)
{
    if (dir) sw_rmtemp(dir);
    if (out && fo) {
        fclose(fo);
        remove(out);
    }
    return 1;
}



int sw_list(const char *s, unsigned lo, unsigned hi, unsigned *v,
                   unsigned *n)
{
    char buf[512], *p, *tok;
    unsigned long long u;
    if (!s || strlen(s) >= sizeof buf) return 0;
    strcpy(buf, s);
    *n = 0;
    for (p = buf; (tok = strtok(p, ",")) != NULL; p = NULL) {
        if (*n >= SW_MAX || !parse_uint(tok, lo, hi, &u)) return 0;
        v[(*n)++] = (unsigned)u;
    }
    return *n > 0;
}

/* A word as a shell reads it: as it is when it holds only characters no
   shell treats specially, else in single quotes (a quote inside closed,
   escaped and reopened). */
static void sw_word(FILE *fo, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        "0123456789+-_.,:/=@%") == strlen(w)) {
        fputs(w, fo);
        return;
    }
    fputc('\'', fo);
    for (; *w; w++) {
        if (*w == '\'') fputs("'\\''", fo);
        else fputc(*w, fo);
    }
    fputc('\'', fo);
}

/* One point of a sweep as a command of its own: "SELF NAME", then every
   parameter row of c (and of its second table) whose value in o differs
   from the row's default or is named in force (a NULL-ended list: flags
   whose mere presence matters), then `tail` as it is. The table is the
   one the point's own command parses, so the command runs the point the
   sweep would run. Returns 0 on a write error. */
int sw_point_cmd(FILE *fo, const char *self, const opt_cmd *c, const void *o,
                 const char *const *force, const char *tail)
{
    const opt_cmd *t;
    const char *base;
    char buf[512];
    unsigned i, k;
    fprintf(fo, "%s %s", self, c->name);
    for (t = c, base = (const char *)o; t;
         base = t->also ? base + t->also_off : base, t = t->also) {
        for (i = 0; i < t->n; i++) {
            const opt *p = &t->opts[i];
            int forced = 0;
            if (p->type == OT_HEAD || (p->flags & OPT_NOPARAM)) continue;
            for (k = 0; force && force[k]; k++)
                if (!strcmp(force[k], p->name)) forced = 1;
            if (!p->def && opt_given(p->name)) forced = 1;  /* its zero
                                            given: not the same as none */
            opt_value(p, base, buf, sizeof buf);
            if (!forced && opt_is_default(p, buf)) continue;
            if (p->type == OT_FUNC && !buf[0]) continue;  /* an empty list
                                            (gran --job): not given */
            if (p->type == OT_SWITCH) {
                if (strcmp(buf, "yes")) continue;
                fprintf(fo, " --%s", p->name);
                continue;
            }
            fprintf(fo, " --%s ", p->name);
            sw_word(fo, buf);
        }
    }
    if (tail && *tail) fprintf(fo, " %s", tail);
    fputc('\n', fo);
    return !ferror(fo);
}

/* ",value" with fmt, or "," for a missing value (NAN). */
void sw_put(FILE *fo, const char *fmt, double x)
{
    fputc(',', fo);
    if (x == x) fprintf(fo, fmt, x);
}

/* Reads metric `name` from a summary CSV; NAN when absent or empty. */
double sw_metric(const char *path, const char *name)
{
    FILE *fp = fopen(path, "r");
    char line[256];
    size_t k = strlen(name);
    double v = NAN;
    if (!fp) return v;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, name, k) && line[k] == ',')
            v = line[k + 1] == '\n' || !line[k + 1] ? NAN : atof(line + k + 1);
    fclose(fp);
    return v;
}

/* Treatment variation of [G]: at every series time point with the four
   contributors active (from the start of F5 on), max - min of their
   throughputs; Var = the variance of that series. */

/* The whole file in a malloc'd buffer (at most 256 MiB), or NULL with a
   message. */
char *fc_read(const char *cmd, const char *flag, const char *path,
                     size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!fp) {
        where(flag);
        fprintf(stderr, "ibccsim %s: cannot read %s: %s\n", cmd, path,
                strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            char *nb;
            if (cap >= ((size_t)256 << 20)) {
                where(flag);
                fprintf(stderr, "ibccsim %s: %s is too large\n", cmd, path);
                free(buf);
                fclose(fp);
                return NULL;
            }
            cap = cap ? cap * 2u : 65536u;
            nb = (char *)realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                fprintf(stderr, "ibccsim %s: out of memory\n", cmd);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0) break;
    }
    if (ferror(fp)) {
        int e = errno;
        where(flag);
        fprintf(stderr, "ibccsim %s: cannot read %s: %s\n", cmd, path,
                strerror(e));
        free(buf);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    if (n && memchr(buf, 0, n)) {
        where(flag);
        fprintf(stderr, "ibccsim %s: %s has a NUL byte at offset %lu: not "
                "a text file\n", cmd, path,
                (unsigned long)((char *)memchr(buf, 0, n) - buf));
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int fc_error(const ibcc_ibfabric_error *e)
{
    if (e->line)
        fprintf(stderr, "%s:%u: %s\n", e->file, e->line, e->reason);
    else
        fprintf(stderr, "%s: %s\n", e->file, e->reason);
    return 1;
}

/* A loaded fabric whose hosts share a name (adapters left with their
   default description): one warning on stderr, naming the first such
   name and its lines, since a lookup by that name is refused
   (ibcc_ibfabric_find_host: MISMATCH). */
static const ibcc_ibfabric *g_dup_f;
static int dup_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(g_dup_f->hosts[x].name, g_dup_f->hosts[y].name);
    return c ? c : (x > y) - (x < y);
}
void fc_dup_names(const char *cmd, const ibcc_ibfabric *f)
{
    uint32_t *ix, i, n = 0, first = 0;
    if (f->host_count < 2) return;
    ix = (uint32_t *)malloc(f->host_count * sizeof *ix);
    if (!ix) return;
    for (i = 0; i < f->host_count; i++) ix[i] = i;
    g_dup_f = f;
    qsort(ix, f->host_count, sizeof *ix, dup_cmp);
    for (i = 0; i < f->host_count; i++)
        if ((i > 0 && !strcmp(f->hosts[ix[i]].name, f->hosts[ix[i - 1]].name))
            || (i + 1 < f->host_count
                && !strcmp(f->hosts[ix[i]].name, f->hosts[ix[i + 1]].name))) {
            if (!n++) first = i;
        }
    if (n)
        fprintf(stderr, "ibccsim %s: warning: %s: %lu hosts share their name "
                "with another (\"%s\" on lines %lu and %lu); lookups by such a "
                "name are refused: give a host index or a port GUID\n", cmd, f->topo_file, (unsigned long)n,
                f->hosts[ix[first]].name, (unsigned long)f->hosts[ix[first]].line,
                (unsigned long)f->hosts[ix[first + 1]].line);
    free(ix);
}


/* ---- params.csv: every parameter of a run, so it can be run again ---- */

/* The params file of a summary: params.csv beside it when the summary is
   named summary.csv, else the summary's name with _params before .csv
   (s.csv -> s_params.csv). */
void params_path(const char *summary, char *buf, size_t len)
{
    const char *base = strrchr(summary, '/');
    size_t n = strlen(summary);
    base = base ? base + 1 : summary;
    if (!strcmp(base, "summary.csv"))
        snprintf(buf, len, "%.*sparams.csv", (int)(base - summary), summary);
    else if (n > 4 && !strcmp(summary + n - 4, ".csv"))
        snprintf(buf, len, "%.*s_params.csv", (int)(n - 4), summary);
    else
        snprintf(buf, len, "%s_params.csv", summary);
}

/* "name value" / "name SL value" lines of OpenSM as CSV rows: name,value
   and name_slN,value; 0x numbers in decimal. */
static void params_osm(FILE *fp, const char *text)
{
    char line[4096];
    while (*text) {
        size_t k = strcspn(text, "\n");
        char *sp, *sp2, *v;
        snprintf(line, sizeof line, "%.*s", (int)(k < sizeof line ? k : sizeof line - 1), text);
        text += k + (text[k] == '\n');
        if (!(sp = strchr(line, ' '))) continue;
        *sp = 0;
        v = sp + 1;
        if ((sp2 = strchr(v, ' ')) != NULL
            && !strncmp(line, "cc_ca_", 6) && strspn(v, "0123456789") == (size_t)(sp2 - v)) {
            *sp2 = 0;
            fprintf(fp, "%s_sl%s,", line, v);
            v = sp2 + 1;
        } else {
            fprintf(fp, "%s,", line);
        }
        if (!strcmp(v, "(null)"))          /* OpenSM's word for unset */
            fprintf(fp, "\n");
        else if (!strncmp(v, "0x", 2) && strspn(v + 2, "0123456789abcdefABCDEF") == strlen(v + 2))
            fprintf(fp, "%lu\n", strtoul(v, NULL, 16));
        else if (strchr(v, ','))
            fprintf(fp, "\"%s\"\n", v);
        else
            fprintf(fp, "%s\n", v);
    }
}

int params_write(const char *summary, const opt_cmd *c, const void *o,
                 const ibcc_swcc *sw, const ibcc_cacc_config *ca)
{
    char path[1024], buf[16384];
    FILE *fp;
    if (!summary) return 1;
    params_path(summary, path, sizeof path);
    if (!(fp = fopen(path, "w"))) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    fprintf(fp, "key,value\nexperiment,%s\nibcc_version,%s\n", c->name,
            ibcc_version());
    (void)opt_params(c, o, fp);
    fprintf(fp, "congestion_control,%s\n", sw || ca ? "TRUE" : "FALSE");
    if (sw && ibcc_swcc_print_opensm(sw, buf, sizeof buf) == IBCC_OK)
        params_osm(fp, buf);
    if (ca && ibcc_cacc_print_opensm(ca, buf, sizeof buf) == IBCC_OK)
        params_osm(fp, buf);
    return close_out(fp, path);
}

/* The IBA settings of a run in OpenSM's terms: switches (Threshold,
   Packet_Size, Marking_Rate, the Victim_Mask of ports 0..31 when
   victim_mask) and channel adapters (CCTI_Timer and CCTI_Increase on
   every SL; the CCT is the run's `cct` parameter, not echoed). */
void params_iba(ibcc_swcc *sw, ibcc_cacc_config *ca, unsigned threshold,
                unsigned packet_size, unsigned marking_rate,
                uint32_t victim_mask, unsigned timer, unsigned increase)
{
    unsigned i;
    memset(sw, 0, sizeof *sw);
    memset(ca, 0, sizeof *ca);
    sw->control_map = (victim_mask ? 0x1u : 0u) | 0x4u | 0x10u;
    sw->victim_mask[0] = victim_mask;
    sw->threshold = threshold;
    sw->packet_size = packet_size;
    sw->marking_rate = marking_rate;
    ca->setting.control_map = 0xffffu;
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        ca->setting.sl[i].ccti_timer = (uint16_t)timer;
        ca->setting.sl[i].ccti_increase = (uint8_t)increase;
    }
}

/* ---- progress of a long run on stderr ----------------------------------
   A run expected to take more than about 2 s of wall time shows its
   progress: on a terminal one line rewritten in place (simulated time,
   events per second, time left), into a file or a pipe one line per 10%
   of the simulated time (never a carriage return). --quiet (g_quiet) and
   the worker processes of sweeps print nothing. The run is cut into
   steps of ibcc_fabric_run_until, which gives the same events as one
   call. */
int g_quiet;

static double prog_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void prog_start(prog *p, const char *who, const ibcc_fabric *f, ibcc_time end)
{
    ibcc_fabric_counters c;
    memset(p, 0, sizeof *p);
    p->who = who;
    p->t0 = ibcc_fabric_now(f);
    p->end = end;
    p->w0 = prog_now();
    p->tty = isatty(2);
    memset(&c, 0, sizeof c);
    (void)ibcc_fabric_counters_get(f, &c);
    p->e0 = c.events;
}

static void prog_show(prog *p, const ibcc_fabric *f)
{
    ibcc_fabric_counters c;
    double w = prog_now() - p->w0, frac, left, eps;
    ibcc_time now = ibcc_fabric_now(f);
    int decile;
    if (g_quiet || p->end <= p->t0) return;
    frac = (double)(now - p->t0) / (double)(p->end - p->t0);
    if (frac > 1) frac = 1;
    if (!p->on) {
        /* on once the run is seen to need more than 2 s in all
           ($IBCCSIM_PROGRESS_AFTER seconds: tests set 0) */
        const char *e = getenv("IBCCSIM_PROGRESS_AFTER");
        double after = e && *e ? atof(e) : 2.0;
        if (frac <= 0 || (after > 0 && (w < 0.25 || w / frac < after))) return;
        p->on = 1;
    }
    memset(&c, 0, sizeof c);
    (void)ibcc_fabric_counters_get(f, &c);
    eps = w > 0 ? (double)(c.events - p->e0) / w : 0;
    left = frac > 0 ? w / frac - w : 0;
    decile = (int)(frac * 10.0 + 1e-9);
    if (p->tty) {
        if (w - p->shown < 0.2 && frac < 1) return;
        p->shown = w;
        fprintf(stderr, "\r%s: %.3f of %.3f ms simulated (%3.0f%%), %.2f M events/s, "
                "about %.0f s left   ", p->who, (double)now / 1e9,
                (double)p->end / 1e9, 100 * frac, eps / 1e6, left);
        p->dirty = 1;
    } else if (decile > p->decile) {
        p->decile = decile;
        fprintf(stderr, "%s: %d%% (%.3f of %.3f ms simulated), %.2f M events/s, "
                "about %.0f s left\n", p->who, 10 * decile, (double)now / 1e9,
                (double)p->end / 1e9, eps / 1e6, left);
    }
}

ibcc_result prog_run(prog *p, ibcc_fabric *f, ibcc_time until)
{
    ibcc_time step = (p->end - p->t0) / 200u, t = ibcc_fabric_now(f);
    ibcc_result r = IBCC_OK;
    if (step == 0) step = 1;
    if (t >= until) return ibcc_fabric_run_until(f, until);
    while (t < until) {
        t = until - t > step ? t + step : until;
        if ((r = ibcc_fabric_run_until(f, t)) != IBCC_OK) break;
        prog_show(p, f);
    }
    return r;
}

void prog_end(prog *p)
{
    if (p->dirty) fprintf(stderr, "\n");
    p->dirty = 0;
}

/* A failed run's message: the fabric's own reason when it has one (a
   stall names the blocked channels), else the result's name. */
void run_error(const char *cmd, const ibcc_fabric *f, ibcc_result r)
{
    const ibcc_fabric_error *e = f ? ibcc_fabric_last_error(f) : NULL;
    fprintf(stderr, "ibccsim %s: run: %s\n", cmd,
            e && e->code != IBCC_OK && e->reason[0] ? e->reason
                                                    : ibcc_result_str(r));
}
