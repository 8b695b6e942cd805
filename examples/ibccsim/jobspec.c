#include "ibccsim.h"
#include "scn.h"
#include <ctype.h>
/* ---- jobs: collectives and traces as a workload (docs/jobs.md) ----------
   One option table (jb_cmd) describes a job; the same rows serve a job on
   the command line (custom --job 'NAME key=value ...') and a [job NAME]
   section of a scenario file. This file turns the settings into
   ibcc_job_desc (host lists, placement, traces), appends the jobs' flows
   to a fabric's, attaches them to the fabric, runs each job alone for
   its ideal time and writes the results (standard output, CSV). It uses
   ibcc.h's L2 coll and L3 jobs only, so any experiment with a fabric
   desc can run jobs beside its own traffic, in this order (custom.c's
   cu_jobs and scenario.c's sv_jobs do):

       jb_set js = {0}; js.who = "ibccsim NAME";
       jb_spec(&js, "victim pattern=incast bytes=4096")  (or jb_add with
                                a jb_opts filled from a section)
       jb_resolve(&js, host_count, host_nodes, ib_or_NULL, seed, time_ms);
       jb_classes(&js, first_free_class, "what owns the classes below");
       jb_flows(&js, &template, &flows, &flow_count);   the experiment's
                                flows first; template: agent, window, rate
       ... desc.flows = flows; ibcc_fabric_create(&f, &desc) ...
       jb_attach(&js, f);  run;  jb_collect(&js);
       jb_ideal(&js, &desc, flows, limit);   each job alone, same desc
       jb_print(&js, stdout); jb_csv(&js, path); jb_free(&js);

   Every function says its own errors on stderr (prefixed by who, and
   the scenario file and [job NAME] when file is set) and returns 2. */

static const int jb_kinds[] = {
    0, IBCC_COLL_ALLTOALL_SHIFT, IBCC_COLL_ALLTOALL_PAIRWISE,
    IBCC_COLL_ALLREDUCE_RING, IBCC_COLL_ALLREDUCE_RD, IBCC_COLL_BCAST_BINOMIAL,
    IBCC_COLL_HALO2D, IBCC_COLL_HALO3D, IBCC_COLL_INCAST};
static const int jb_places[] = {IBCC_PLACE_LINEAR, IBCC_PLACE_INTERLEAVED,
                                IBCC_PLACE_RANDOM};

#define OPT_T jb_opts
static const opt jb_opt[] = {
    OPT_CHOICEV("pattern", pattern, "trace|alltoall-shift|alltoall-pairwise|"
                "allreduce-ring|allreduce-rd|bcast-binomial|halo2d|halo3d|incast",
                jb_kinds, NULL, "the collective, or trace (with trace = FILE)"),
    OPT_TEXT("trace", trace, "FILE", NULL, "an ibcc-trace 1 file (docs/jobs.md);\n"
             "pattern = trace"),
    OPT_TEXT("hosts", hosts, "HOSTS", "all", "where the ranks may go: all, or indexes,\n"
             "ranges a-b, host names or GUIDs, comma-separated"),
    {"ranks", OT_UINT, OPT_F(ranks), 1, 1u << 24, NULL, "N", NULL, NULL,
     "ranks of the job", "the hosts listed; a trace: its ranks", NULL, 0, NULL, NULL, NULL},
    OPT_CHOICEV("place", place, "linear|interleaved|random", jb_places, "linear",
                "rank r on the list's r-th host; or the jobs\n"
                "with this policy and the same hosts share the\n"
                "list: dealt round robin, or drawn at random\n"
                "(the run's seed)"),
    OPT_U64("bytes", bytes, 1, 281474976710656.0, "N", "bytes", NULL,
            "a collective's message size (allreduce: the\n"
            "vector; required)"),
    OPT_UINT("root", root, 0, (1u << 24) - 1u, "R", NULL, "0", "bcast-binomial, incast: the root rank"),
    {"dims", OT_TEXT, OPT_F(dims), 0, 0, NULL, "X,Y[,Z]", NULL, NULL,
     "halo2d, halo3d: the grid", "the most nearly square or cubic", NULL, 0, NULL, NULL, NULL},
    OPT_CHOICE("periodic", periodic, "no|yes", "no", "halo2d, halo3d: wrapping neighbours"),
    OPT_UINT("iterations", iterations, 1, 1u << 20, "N", NULL, "1", "halo2d, halo3d: exchanges"),
    OPT_DOUBLE("start", start_us, 0, 1e10, "US", "us", "0", "the job's first step"),
    OPT_UINT("sl", sl, 0, 15, "S", NULL, "0", "service level (and class) of a collective's\n"
             "flows (a trace's messages: their own sl=)"),
};
#undef OPT_T
const opt_cmd jb_cmd = {"[job]", NULL, NULL, jb_opt, OPT_N(jb_opt), NULL, NULL, 0};

void jb_defaults(jb_opts *o)
{
    memset(o, 0, sizeof *o);
    opt_defaults(&jb_cmd, o);
    o->pattern = -1;
}

/* An error of job j: "WHO: job NAME: reason". Returns 2. */
static int jb_fail(const jb_set *s, const char *name, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s%s%s", s->who, s->file ? s->file : "",
            s->file ? ": " : "", "");
    if (name) fprintf(stderr, s->file ? "[job %s] " : "--job %s: ", name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return 2;
}

int jb_add(jb_set *s, const char *name, const jb_opts *o)
{
    unsigned j;
    if (s->n >= JB_MAX)
        return jb_fail(s, name, "more than %u jobs", JB_MAX);
    for (j = 0; j < s->n; j++)
        if (!strcmp(s->job[j].name, name))
            return jb_fail(s, name, "a second job of this name");
    memset(&s->job[s->n], 0, sizeof s->job[s->n]);
    snprintf(s->job[s->n].name, sizeof s->job[s->n].name, "%s", name);
    s->job[s->n].o = *o;
    s->n++;
    return 0;
}

int jb_spec(jb_set *s, const char *spec)
{
    jb_opts o;
    char name[32], *copy, *w, *save = NULL;
    int first = 1;
    size_t len = strlen(spec);
    jb_defaults(&o);
    snprintf(name, sizeof name, "job%u", s->n);
    if (!(copy = (char *)malloc(len + 1u))) return jb_fail(s, NULL, "out of memory");
    memcpy(copy, spec, len + 1u);
    /* the words are kept: the options struct points into them */
    for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save), first = 0) {
        char *eq = strchr(w, '=');
        const opt *p;
        void *base;
        if (!eq && first) {
            const char *c;
            if (strlen(w) >= sizeof name) { free(copy); return jb_fail(s, w, "a name of more than 31 characters"); }
            for (c = w; *c; c++)
                if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.')) {
                    free(copy);
                    return jb_fail(s, w, "a job name is letters, digits, '_', '-', '.'");
                }
            snprintf(name, sizeof name, "%s", w);
            continue;
        }
        if (!eq) {
            free(copy);
            return jb_fail(s, name, "'%s': expected key=value (the first word may be the job's name)", w);
        }
        *eq = 0;
        if (!(p = opt_find(&jb_cmd, w, &o, &base))) {
            const char *near = opt_suggest(&jb_cmd, w);
            jb_fail(s, name, "unknown key '%s'%s%s%s (keys: pattern, trace, hosts, ranks, place, bytes, "
                    "root, dims, periodic, iterations, start, sl)", w, near ? " (did you mean " : "",
                    near ? near : "", near ? "?)" : "");
            free(copy);
            return 2;
        }
        if (opt_set_value(p, eq + 1, base)) {
            jb_fail(s, name, "in '%s'", spec);
            free(copy);
            return 2;
        }
    }
    if (s->nwords < JB_MAX) s->words[s->nwords++] = copy;
    else free(copy);
    return jb_add(s, name, &o);
}

/* Reads and parses a trace file into t (malloc'ed msgs and deps). */
static int jb_trace(const jb_set *s, const char *name, const char *path, ibcc_trace *t)
{
    char msg[SCN_MSG], *text;
    size_t len = 0;
    ibcc_fabric_error e;
    ibcc_result r;
    memset(t, 0, sizeof *t);
    if (!(text = scn_read_file(path, &len, msg, sizeof msg)))
        return jb_fail(s, name, "trace: %s", msg);
    memset(&e, 0, sizeof e);
    r = ibcc_trace_parse(t, text, len, path, &e);
    if (r == IBCC_ERR_CAPACITY) {
        t->msgs = (ibcc_trace_msg *)calloc(t->count + 1u, sizeof *t->msgs);
        t->deps = (uint32_t *)calloc(t->ndeps + 1u, sizeof *t->deps);
        t->msg_cap = t->count + 1u;
        t->dep_cap = t->ndeps + 1u;
        if (!t->msgs || !t->deps) {
            free(text);
            return jb_fail(s, name, "trace %s: out of memory", path);
        }
        r = ibcc_trace_parse(t, text, len, path, &e);
    }
    free(text);
    if (r != IBCC_OK) {
        if (e.line) return jb_fail(s, name, "%s:%u: %s", e.file[0] ? e.file : path, e.line, e.reason);
        return jb_fail(s, name, "trace %s: %s", path, e.reason[0] ? e.reason : ibcc_result_str(r));
    }
    if (t->count == 0) return jb_fail(s, name, "trace %s has no messages", path);
    return 0;
}

/* "X,Y[,Z]" into dims (2D: two numbers, 3D: three). */
static int jb_dims(const char *v, unsigned want, uint32_t *dims)
{
    unsigned n = 0;
    const char *p = v;
    while (n < 3u) {
        char *e;
        unsigned long x;
        if (!isdigit((unsigned char)*p)) return 0;
        x = strtoul(p, &e, 10);
        if (x == 0 || x > (1ul << 24)) return 0;
        dims[n++] = (uint32_t)x;
        p = e;
        if (!*p) break;
        if (*p != ',') return 0;
        p++;
    }
    return *p == 0 && n == want;
}

/* Job b's host list from its hosts: a host given twice is refused, but
   with place = linear (rank r on the list's r-th host) a list of single
   items may repeat hosts: ranks that share a host (several processes of
   a node). 0, or 2 with the reason in msg. */
static int jb_host_list(const jb_opts *o, uint32_t nh, const ibcc_ibfabric *ib, jb_job *b,
                        char *msg, size_t len)
{
    size_t items = 1;
    const char *c;
    uint32_t *one, n1 = 0;
    char item[128];
    for (c = o->hosts; *c; c++) items += *c == ',';
    if (!(b->list = (uint32_t *)calloc(nh * items + 1u, sizeof *b->list))) {
        snprintf(msg, len, "out of memory");
        return 2;
    }
    if (!scn_hosts(o->hosts, nh, ib, b->list, nh, &b->nlist, msg, len)) return 0;
    if (o->place != IBCC_PLACE_LINEAR || !strstr(msg, "given twice")) return 2;
    if (!(one = (uint32_t *)calloc(nh + 1u, sizeof *one))) return 2;
    b->nlist = 0;
    for (c = o->hosts;;) {      /* each item alone, repeats allowed */
        const char *e = strchr(c, ',');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        char m2[SCN_MSG];
        uint32_t k;
        snprintf(item, sizeof item, "%.*s", (int)(n < 127 ? n : 127), c);
        if (scn_hosts(item, nh, ib, one, nh, &n1, m2, sizeof m2)) {
            snprintf(msg, len, "%s", m2);
            free(one);
            return 2;
        }
        for (k = 0; k < n1; k++) b->list[b->nlist++] = one[k];
        if (!e) break;
        c = e + 1;
    }
    free(one);
    return 0;
}

int jb_resolve(jb_set *s, uint32_t nh, const uint32_t *nodes, const ibcc_ibfabric *ib,
               unsigned long long seed, double time_ms)
{
    unsigned j, k;
    char msg[SCN_MSG];
    for (j = 0; j < s->n; j++) {
        jb_job *b = &s->job[j];
        jb_opts *o = &b->o;
        if (o->pattern < 0) {
            if (!o->trace)
                return jb_fail(s, b->name, "needs pattern = alltoall-shift|alltoall-pairwise|"
                               "allreduce-ring|allreduce-rd|bcast-binomial|halo2d|halo3d|"
                               "incast, or trace = FILE");
            o->pattern = 0;
        }
        if (o->pattern == 0 && !o->trace)
            return jb_fail(s, b->name, "pattern = trace needs trace = FILE");
        if (o->pattern != 0 && o->trace)
            return jb_fail(s, b->name, "trace = FILE is a job of its own: not with pattern = %s",
                           ibcc_coll_name((ibcc_coll_kind)o->pattern));
        if (o->pattern != 0 && !o->bytes)
            return jb_fail(s, b->name, "needs bytes = N (the %s's message size)",
                           ibcc_coll_name((ibcc_coll_kind)o->pattern));
        if (time_ms > 0 && o->start_us >= time_ms * 1e3)
            return jb_fail(s, b->name, "starts at %g us, after the run (%g ms)", o->start_us,
                           time_ms);
        if (o->pattern == 0 && o->bytes)
            return jb_fail(s, b->name, "bytes applies to a collective (a trace gives each message's)");
        {
            static const struct { const char *key; int kinds; } only[] = {
                {"root", 1 << IBCC_COLL_BCAST_BINOMIAL | 1 << IBCC_COLL_INCAST},
                {"dims", 1 << IBCC_COLL_HALO2D | 1 << IBCC_COLL_HALO3D},
                {"periodic", 1 << IBCC_COLL_HALO2D | 1 << IBCC_COLL_HALO3D},
                {"iterations", 1 << IBCC_COLL_HALO2D | 1 << IBCC_COLL_HALO3D}};
            int given[4];
            given[0] = o->root != 0;
            given[1] = o->dims != NULL;
            given[2] = o->periodic != 0;
            given[3] = o->iterations != 1;
            for (k = 0; k < 4u; k++)
                if (given[k] && !(only[k].kinds >> o->pattern & 1))
                    return jb_fail(s, b->name, "%s does not apply to pattern = %s", only[k].key,
                                   o->pattern ? ibcc_coll_name((ibcc_coll_kind)o->pattern) : "trace");
        }
        if (jb_host_list(o, nh, ib, b, msg, sizeof msg)) return jb_fail(s, b->name, "hosts: %s", msg);
        if (o->pattern == 0) {
            if (jb_trace(s, b->name, o->trace, &b->tr)) return 2;
            if (o->ranks && o->ranks != b->tr.ranks)
                return jb_fail(s, b->name, "ranks %u: the trace has %u ranks", o->ranks, b->tr.ranks);
            b->ranks = b->tr.ranks;
        } else {
            b->ranks = o->ranks ? o->ranks : b->nlist;
        }
    }
    /* placement: linear jobs alone; the others grouped by (policy, hosts) */
    for (j = 0; j < s->n; j++) {
        jb_job *b = &s->job[j];
        uint32_t ranks[JB_MAX], members[JB_MAX], nm = 0, total = 0, *out, i, at;
        ibcc_result r;
        if (b->hosts) continue;
        for (k = j; k < s->n; k++) {
            jb_job *c = &s->job[k];
            if (c->hosts || c->o.place != b->o.place) continue;
            if (k != j && (b->o.place == IBCC_PLACE_LINEAR || strcmp(c->o.hosts, b->o.hosts)))
                continue;
            members[nm] = k;
            ranks[nm++] = c->ranks;
            total += c->ranks;
        }
        if (total > b->nlist) {
            if (nm == 1)
                return jb_fail(s, b->name, "%u ranks on the %u hosts of '%s'", b->ranks, b->nlist,
                               b->o.hosts);
            return jb_fail(s, b->name, "the %u jobs placed %s on '%s' have %u ranks, the list "
                           "%u hosts", nm, b->o.place == IBCC_PLACE_RANDOM ? "at random"
                           : "interleaved", b->o.hosts, total, b->nlist);
        }
        if (!(out = (uint32_t *)calloc(total ? total : 1u, sizeof *out)))
            return jb_fail(s, b->name, "out of memory");
        r = ibcc_place(b->list, b->nlist, ranks, nm, (ibcc_place_policy)b->o.place, seed, out);
        if (r != IBCC_OK) {
            free(out);
            return jb_fail(s, b->name, "placement: %s", ibcc_result_str(r));
        }
        for (i = 0, at = 0; i < nm; i++) {
            jb_job *c = &s->job[members[i]];
            uint32_t q;
            if (!(c->hosts = (uint32_t *)calloc(c->ranks, sizeof *c->hosts))) {
                free(out);
                return jb_fail(s, c->name, "out of memory");
            }
            for (q = 0; q < c->ranks; q++) c->hosts[q] = out[at + q];
            at += c->ranks;
        }
        free(out);
    }
    /* the descs: host indexes to nodes */
    for (j = 0; j < s->n; j++) {
        jb_job *b = &s->job[j];
        ibcc_job_desc *d = &s->desc[j];
        uint32_t q;
        memset(d, 0, sizeof *d);
        if (!(b->nodes = (uint32_t *)calloc(b->ranks, sizeof *b->nodes)))
            return jb_fail(s, b->name, "out of memory");
        for (q = 0; q < b->ranks; q++) b->nodes[q] = nodes[b->hosts[q]];
        d->hosts = b->nodes;
        d->start = (ibcc_time)(b->o.start_us * 1e6 + 0.5);
        if (b->o.pattern == 0) {
            d->trace = &b->tr;
        } else {
            d->coll.kind = (ibcc_coll_kind)b->o.pattern;
            d->coll.ranks = b->ranks;
            d->coll.bytes = b->o.bytes;
            d->coll.root = b->o.root;
            d->coll.periodic = (uint32_t)b->o.periodic;
            d->coll.iterations = b->o.iterations;
            if (b->o.dims && !jb_dims(b->o.dims, b->o.pattern == IBCC_COLL_HALO2D ? 2u : 3u,
                                      d->coll.dims))
                return jb_fail(s, b->name, "dims '%s': %s positive numbers, comma-separated",
                               b->o.dims, b->o.pattern == IBCC_COLL_HALO2D ? "two" : "three");
            d->cls = b->o.sl;
            d->flow.sl = b->o.sl;
            if (b->o.root >= b->ranks)
                return jb_fail(s, b->name, "root %u: the job has ranks 0..%u", b->o.root, b->ranks - 1u);
            if (d->coll.kind == IBCC_COLL_ALLREDUCE_RING && b->o.bytes < b->ranks)
                return jb_fail(s, b->name, "allreduce-ring: bytes %llu below the ranks (%u): every "
                               "rank's chunk needs a byte", b->o.bytes, b->ranks);
            if (d->coll.dims[0]) {
                uint64_t p = (uint64_t)d->coll.dims[0] * d->coll.dims[1]
                             * (d->coll.dims[2] ? d->coll.dims[2] : 1u);
                if (p != b->ranks)
                    return jb_fail(s, b->name, "dims %s: %llu ranks, the job has %u", b->o.dims,
                                   (unsigned long long)p, b->ranks);
            }
            if (ibcc_coll_defaults(&d->coll) != IBCC_OK)
                return jb_fail(s, b->name, "the collective refuses these settings (%u ranks)", b->ranks);
        }
        {
            uint64_t m = 0, by = 0;
            uint32_t ms = 0;
            if (d->coll.kind) (void)ibcc_coll_totals(&d->coll, &m, &by, &ms);
            else m = b->tr.count;
            b->messages = m;
        }
    }
    return 0;
}

int jb_classes(jb_set *s, unsigned first, const char *what)
{
    unsigned j;
    uint32_t i;
    for (j = 0; j < s->n; j++) {
        jb_job *b = &s->job[j];
        if (b->o.pattern != 0) {
            if (first + j >= IBCC_FABRIC_CLASSES)
                return jb_fail(s, b->name, "no class left for it: %s take classes 0..%u and each "
                               "collective one more (at most 16)", what, first - 1u);
            s->desc[j].cls = first + j;
            continue;
        }
        for (i = 0; i < b->tr.count; i++)
            if (b->tr.msgs[i].sl < first)
                return jb_fail(s, b->name, "trace message %llu has sl=%u, the class of %s "
                               "(classes 0..%u): give the trace's messages sl >= %u",
                               (unsigned long long)b->tr.msgs[i].id, b->tr.msgs[i].sl, what,
                               first - 1u, first);
    }
    return 0;
}

int jb_flows(jb_set *s, const ibcc_fabric_flow *tmpl, ibcc_fabric_flow **flows,
             uint32_t *nf)
{
    uint32_t j, need = 0, n;
    ibcc_fabric_error e;
    ibcc_fabric_flow *q;
    for (j = 0; j < s->n; j++) {
        uint32_t sl = s->desc[j].flow.sl;
        s->desc[j].flow = *tmpl;
        s->desc[j].flow.sl = sl;
        memset(&e, 0, sizeof e);
        n = 0;
        if (ibcc_jobs_flows(&s->desc[j], 1, NULL, 0, &n, &e) != IBCC_ERR_CAPACITY && n)
            return jb_fail(s, s->job[j].name, "%s", e.reason);
        if (n == 0) {
            ibcc_result r = ibcc_jobs_flows(&s->desc[j], 1, NULL, 0, &n, &e);
            if (r != IBCC_OK) return jb_fail(s, s->job[j].name, "%s", e.reason);
            return jb_fail(s, s->job[j].name, "no messages");
        }
        s->job[j].nflows = n;
        need += n;
    }
    if ((uint64_t)*nf + need > (1u << 24)) return jb_fail(s, NULL, "more than 2^24 flows with the jobs'");
    q = (ibcc_fabric_flow *)realloc(*flows, ((size_t)*nf + need) * sizeof *q);
    if (!q) return jb_fail(s, NULL, "out of memory");
    *flows = q;
    s->first = *nf;
    for (j = 0; j < s->n; j++) {
        s->job[j].first = *nf;
        if (ibcc_jobs_flows(&s->desc[j], 1, q + *nf, s->job[j].nflows, &n, &e) != IBCC_OK)
            return jb_fail(s, s->job[j].name, "%s", e.reason);
        *nf += n;
    }
    return 0;
}

int jb_attach(jb_set *s, ibcc_fabric *f)
{
    ibcc_fabric_error e;
    memset(&e, 0, sizeof e);
    if (ibcc_jobs_create(&s->js, f, s->desc, s->n, s->first, &e) != IBCC_OK)
        return jb_fail(s, NULL, "%s", e.reason);
    return 0;
}

/* Stats and quantiles of jobs js[0 ..] into res (job j of s is js's k). */
static void jb_read(const ibcc_jobs *js, uint32_t k, jb_res *r)
{
    static const double q[4] = {0.5, 0.9, 0.99, 1.0};
    unsigned i;
    memset(r, 0, sizeof *r);
    (void)ibcc_jobs_stats(js, k, &r->st);
    for (i = 0; i < 4u; i++) {
        ibcc_time t = 0;
        if (ibcc_jobs_msg_quantile(js, k, q[i], &t) == IBCC_OK) r->q[i] = t;
    }
    r->done = r->st.messages && r->st.delivered == r->st.messages;
}

void jb_collect(jb_set *s)
{
    unsigned j;
    for (j = 0; j < s->n; j++) jb_read(s->js, j, &s->job[j].run);
    ibcc_jobs_destroy(s->js);
    s->js = NULL;
}

int jb_ideal(jb_set *s, const ibcc_fabric_desc *base, const ibcc_fabric_flow *flows,
             ibcc_time limit)
{
    unsigned j;
    for (j = 0; j < s->n; j++) {
        jb_job *b = &s->job[j];
        ibcc_fabric_desc d = *base;
        ibcc_fabric *f = NULL;
        ibcc_jobs *js = NULL;
        ibcc_fabric_error e;
        ibcc_time t = 0, step = IBCC_US(100);
        ibcc_result r;
        if (!b->run.done) continue;     /* reported as not done */
        memset(&e, 0, sizeof e);
        d.flows = flows + b->first;
        d.flow_count = b->nflows;
        d.bin = 0;
        d.horizon = 0;
        d.error = &e;
        if ((r = ibcc_fabric_create(&f, &d)) != IBCC_OK)
            return jb_fail(s, b->name, "the ideal run's fabric: %s", e.reason);
        if (ibcc_jobs_create(&js, f, &s->desc[j], 1, 0, &e) != IBCC_OK) {
            ibcc_fabric_destroy(f);
            return jb_fail(s, b->name, "the ideal run: %s", e.reason);
        }
        while (!ibcc_jobs_done(js) && t < limit) {
            t = limit - t < step ? limit : t + step;
            if ((r = ibcc_fabric_run_until(f, t)) != IBCC_OK) break;
        }
        jb_read(js, 0, &b->ideal);
        ibcc_jobs_destroy(js);
        ibcc_fabric_destroy(f);
        if (r != IBCC_OK) return jb_fail(s, b->name, "the ideal run: %s", ibcc_result_str(r));
        if (!b->ideal.done)
            return jb_fail(s, b->name, "alone on the idle fabric it is not done after %g ms "
                           "(raise the run's time)", (double)limit / 1e9);
    }
    return 0;
}

/* A host list as ranges ("0-7,9"), shortened after about len bytes. */
static void jb_hosts_text(const jb_job *b, char *buf, size_t len)
{
    uint32_t i = 0;
    size_t u = 0;
    buf[0] = 0;
    while (i < b->ranks && u + 24 < len) {
        uint32_t k = i;
        while (k + 1u < b->ranks && b->hosts[k + 1u] == b->hosts[k] + 1u) k++;
        if (k > i) u += (size_t)snprintf(buf + u, len - u, "%s%u-%u", i ? "," : "", b->hosts[i], b->hosts[k]);
        else u += (size_t)snprintf(buf + u, len - u, "%s%u", i ? "," : "", b->hosts[i]);
        i = k + 1u;
    }
    if (i < b->ranks) snprintf(buf + u, len - u, ",...");
}

static double jb_us(ibcc_time t) { return (double)t / 1e6; }

void jb_print(const jb_set *s, FILE *fp)
{
    unsigned j;
    fprintf(fp, "%-12s %-18s %-14s %8s %13s %9s %8s %8s %8s %8s\n", "job", "pattern", "hosts",
            "messages", "completion_us", "ideal_us", "slowdown", "p50_us", "p99_us", "max_us");
    for (j = 0; j < s->n; j++) {
        const jb_job *b = &s->job[j];
        char h[64];
        jb_hosts_text(b, h, sizeof h);
        if (!b->run.done) {
            fprintf(fp, "%-12s %-18s %-14s %8llu %13s (%llu of %llu messages delivered)\n", b->name,
                    b->o.pattern ? ibcc_coll_name((ibcc_coll_kind)b->o.pattern) : "trace", h,
                    (unsigned long long)b->messages, "not done",
                    (unsigned long long)b->run.st.delivered, (unsigned long long)b->messages);
            continue;
        }
        fprintf(fp, "%-12s %-18s %-14s %8llu %13.1f %9.1f %8.2f %8.1f %8.1f %8.1f\n", b->name,
                b->o.pattern ? ibcc_coll_name((ibcc_coll_kind)b->o.pattern) : "trace", h,
                (unsigned long long)b->messages, jb_us(b->run.st.completion),
                jb_us(b->ideal.st.completion),
                (double)b->run.st.completion / (double)b->ideal.st.completion,
                jb_us(b->run.q[0]), jb_us(b->run.q[2]), jb_us(b->run.st.msg_max));
    }
}

int jb_csv(const jb_set *s, const char *path)
{
    FILE *fp = fopen(path, "w");
    unsigned j;
    if (!fp) {
        fprintf(stderr, "%s: cannot write %s: %s\n", s->who, path, strerror(errno));
        return 1;
    }
    fprintf(fp, "job,pattern,ranks,hosts,messages,delivered,bytes,start_us,done,"
            "job_completion_us,job_ideal_us,ideal_by,slowdown,msg_mean_us,msg_p50_us,"
            "msg_p90_us,msg_p99_us,msg_max_us,ideal_msg_p50_us,ideal_msg_p99_us\n");
    for (j = 0; j < s->n; j++) {
        const jb_job *b = &s->job[j];
        const jb_res *r = &b->run;
        char h[4096];
        jb_hosts_text(b, h, sizeof h);
        fprintf(fp, "%s,%s,%u,\"%s\",%llu,%llu,%llu,%.6f,%d,", b->name,
                b->o.pattern ? ibcc_coll_name((ibcc_coll_kind)b->o.pattern) : "trace", b->ranks, h,
                (unsigned long long)b->messages, (unsigned long long)r->st.delivered,
                (unsigned long long)r->st.bytes, b->o.start_us, r->done);
        if (r->done)
            fprintf(fp, "%.6f,%.6f,run,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                    jb_us(r->st.completion), jb_us(b->ideal.st.completion),
                    (double)r->st.completion / (double)b->ideal.st.completion,
                    jb_us(r->st.msg_sum) / (double)r->st.delivered, jb_us(r->q[0]),
                    jb_us(r->q[1]), jb_us(r->q[2]), jb_us(r->st.msg_max),
                    jb_us(b->ideal.q[0]), jb_us(b->ideal.q[2]));
        else
            fprintf(fp, ",,,,,,,,,,\n");
    }
    return close_out(fp, path) ? 0 : 1;
}

void jb_summary(const jb_set *s, FILE *fp)
{
    unsigned j;
    for (j = 0; j < s->n; j++) {
        const jb_job *b = &s->job[j];
        fprintf(fp, "job_%s_messages,%llu\njob_%s_delivered,%llu\n", b->name,
                (unsigned long long)b->messages, b->name,
                (unsigned long long)b->run.st.delivered);
        if (b->run.done)
            fprintf(fp, "job_%s_completion_us,%.6f\njob_%s_ideal_us,%.6f\n"
                    "job_%s_slowdown,%.6f\njob_%s_msg_p99_us,%.6f\n", b->name,
                    jb_us(b->run.st.completion), b->name, jb_us(b->ideal.st.completion),
                    b->name, (double)b->run.st.completion / (double)b->ideal.st.completion,
                    b->name, jb_us(b->run.q[2]));
        else
            fprintf(fp, "job_%s_completion_us,\njob_%s_ideal_us,%.6f\n"
                    "job_%s_slowdown,\njob_%s_msg_p99_us,\n", b->name, b->name,
                    jb_us(b->ideal.st.completion), b->name, b->name);
    }
}

int jb_specs_fn(const char *v, const char **spec, unsigned *n, char *buf, size_t len)
{
    static char pool[1u << 16];
    static size_t used;
    unsigned i;
    size_t u = 0;
    if (v) {
        const char *a = v;
        for (;;) {
            const char *e = strchr(a, '|');
            size_t k = e ? (size_t)(e - a) : strlen(a);
            while (k && (*a == ' ' || *a == '\t')) { a++; k--; }
            while (k && (a[k - 1] == ' ' || a[k - 1] == '\t')) k--;
            if (!k) return bad("--job", v, "a job: [NAME] key=value ... (docs/jobs.md)");
            if (*n >= JB_MAX) return bad("--job", v, "at most 16 jobs");
            if (used + k + 1u > sizeof pool) return bad("--job", v, "the jobs' text is too long");
            memcpy(pool + used, a, k);
            pool[used + k] = 0;
            spec[(*n)++] = pool + used;
            used += k + 1u;
            if (!e) break;
            a = e + 1;
        }
        return 0;
    }
    buf[0] = 0;
    for (i = 0; i < *n && u + 1 < len; i++)
        u += (size_t)snprintf(buf + u, len - u, "%s%s", i ? " | " : "", spec[i]);
    return 0;
}

int jb_all_done(const jb_set *s)
{
    unsigned j;
    for (j = 0; j < s->n; j++)
        if (!s->job[j].run.done) return 0;
    return 1;
}

void jb_free(jb_set *s)
{
    unsigned j;
    if (s->js) ibcc_jobs_destroy(s->js);
    for (j = 0; j < s->n; j++) {
        free(s->job[j].list);
        free(s->job[j].hosts);
        free(s->job[j].nodes);
        free(s->job[j].tr.msgs);
        free(s->job[j].tr.deps);
    }
    for (j = 0; j < s->nwords; j++) free(s->words[j]);
    memset(s, 0, sizeof *s);
}
