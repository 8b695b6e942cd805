/* Fuzz harness: the trace text reader (ibcc_trace_parse) and trace jobs
   on a fabric (L3 jobs).

   Input: the text of a trace (all of it; NUL bytes included).

   Checked:
   - the result is OK, PARSE, RANGE or CAPACITY; an error other than
     CAPACITY names the file and a line (1 .. lines of the text + 1) and
     gives a reason;
   - counting (no memory) and reading with room give the same counts and
     the same error (but an `after` id that lies between read ids without
     being one, which counting cannot see), and reading with exactly the counted room succeeds
     whenever counting succeeded with CAPACITY only;
   - a trace read is what the grammar promises: ids strictly increasing,
     ranks below t.ranks and different, bytes 1 .. 2^48, sl 0 .. 15,
     dependencies contiguous and all on earlier messages;
   - a small one (up to 64 messages, 8 ranks, 256 KB, `at` up to 10 us)
     runs as a job on a
     one-switch fabric: every message is delivered (a trace cannot
     deadlock), the fabric's check holds, and no message completes before
     the time its dependencies and `at` allow. */
#include "fuzz.h"

#define MAXM 4096
#define MAXD 8192

static ibcc_trace_msg msgs[MAXM];
static uint32_t deps[MAXD];

static void run_job(const ibcc_trace *t)
{
    static ibcc_fabric_flow flows[256];
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_jobs *js = NULL;
    ibcc_job_desc j;
    ibcc_job_stats s;
    ibcc_fabric_error e;
    uint32_t hosts[8], i, nf = 0;
    ibcc_time now = 0;
    memset(&j, 0, sizeof j);
    memset(&d, 0, sizeof d);
    for (i = 0; i < 8u; i++) hosts[i] = i;
    j.trace = t;
    j.hosts = hosts;
    FZ_CHECK(ibcc_topo_mesh(&topo, 1, 1, 8, 0, 0, NULL) == IBCC_OK, "topo");
    FZ_CHECK(ibcc_topo_apply(&topo, &d) == IBCC_OK, "apply");
    FZ_CHECK(ibcc_jobs_flows(&j, 1, flows, 256, &nf, &e) == IBCC_OK,
             "flows: %s", e.reason);
    d.flows = flows;
    d.flow_count = nf;
    FZ_CHECK(ibcc_fabric_create(&f, &d) == IBCC_OK, "create");
    FZ_CHECK(ibcc_jobs_create(&js, f, &j, 1, 0, &e) == IBCC_OK, "jobs: %s",
             e.reason);
    while (!ibcc_jobs_done(js) && now < IBCC_MS(100)) {
        now += IBCC_US(50);
        FZ_CHECK(ibcc_fabric_run_until(f, now) == IBCC_OK, "run");
    }
    FZ_CHECK(ibcc_jobs_done(js), "a trace job did not finish");
    FZ_CHECK(ibcc_fabric_check(f) == IBCC_OK, "fabric check");
    FZ_CHECK(ibcc_jobs_stats(js, 0, &s) == IBCC_OK, "stats");
    FZ_CHECK(s.delivered == t->count && s.messages == t->count,
             "delivered %llu of %u", (unsigned long long)s.delivered,
             t->count);
    {   /* the earliest a message can complete: its release (the latest
           dependency's earliest completion + at) plus its wire time */
        static ibcc_time early[MAXM];
        ibcc_time last = 0;
        for (i = 0; i < t->count; i++) {
            const ibcc_trace_msg *m = &t->msgs[i];
            ibcc_time r = 0;
            uint32_t k;
            for (k = 0; k < m->ndeps; k++)
                if (early[t->deps[m->first + k]] > r)
                    r = early[t->deps[m->first + k]];
            early[i] = r + m->at + m->bytes * 1000u;   /* 1 GB/s */
            if (early[i] > last) last = early[i];
        }
        FZ_CHECK(s.completion >= last, "completion %llu below the bound "
                 "%llu", (unsigned long long)s.completion,
                 (unsigned long long)last);
    }
    ibcc_jobs_destroy(js);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    ibcc_trace t, c;
    ibcc_fabric_error e, ec;
    ibcc_result r, rc;
    uint32_t i, lines = 1, ndeps = 0;
    uint64_t total = 0;
    ibcc_time at = 0;
    if (size > 65536u) return 0;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    memset(&c, 0, sizeof c);
    rc = ibcc_trace_parse(&c, text, size, "in.trace", &ec);
    memset(&t, 0, sizeof t);
    t.msgs = msgs;
    t.deps = deps;
    t.msg_cap = MAXM;
    t.dep_cap = MAXD;
    r = ibcc_trace_parse(&t, text, size, "in.trace", &e);
    FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE
             || r == IBCC_ERR_CAPACITY, "result %d", (int)r);
    if (r != IBCC_OK && r != IBCC_ERR_CAPACITY)
        FZ_CHECK(e.line >= 1u && e.line <= lines && e.reason[0]
                 && strcmp(e.file, "in.trace") == 0,
                 "error without a place: line %u of %u, \"%s\"", e.line,
                 lines, e.reason);
    /* counting agrees, up to the dependencies it cannot resolve */
    if (r == IBCC_OK) {
        FZ_CHECK(rc == IBCC_ERR_CAPACITY || (rc == IBCC_OK && t.count == 0),
                 "counting gave %d", (int)rc);
        FZ_CHECK(c.count == t.count && c.ndeps == t.ndeps
                 && c.ranks == t.ranks, "counts differ");
    } else if (strstr(e.reason, "after: id") && strstr(e.reason, "earlier")) {
        /* counting cannot see that an id in range was never read */
        FZ_CHECK(rc == IBCC_ERR_CAPACITY || rc == IBCC_OK
                 || ec.line >= e.line, "counting failed earlier (line %u) "
                 "than reading (line %u)", ec.line, e.line);
    } else if (rc != IBCC_ERR_CAPACITY) {
        FZ_CHECK(rc == r && ec.line == e.line, "counting: %d at line %u, "
                 "reading: %d at line %u", (int)rc, ec.line, (int)r, e.line);
    }
    if (r != IBCC_OK) return 0;
    if (t.count) {                  /* exactly the room counted */
        ibcc_trace x = c;
        x.msgs = msgs;
        x.deps = deps;
        x.msg_cap = c.count;
        x.dep_cap = c.ndeps;
        FZ_CHECK(ibcc_trace_parse(&x, text, size, "in.trace", NULL)
                 == IBCC_OK, "exact room refused");
    }
    for (i = 0; i < t.count; i++) {
        const ibcc_trace_msg *m = &t.msgs[i];
        uint32_t k;
        FZ_CHECK(i == 0 || m->id > t.msgs[i - 1u].id, "ids not increasing");
        FZ_CHECK(m->src < t.ranks && m->dst < t.ranks && m->src != m->dst,
                 "ranks");
        FZ_CHECK(m->bytes >= 1u && m->bytes <= (UINT64_C(1) << 48), "bytes");
        FZ_CHECK(m->sl <= 15u, "sl");
        FZ_CHECK(m->first == ndeps, "dependencies not contiguous");
        for (k = 0; k < m->ndeps; k++)
            FZ_CHECK(t.deps[m->first + k] < i, "a dependency on a later "
                     "message");
        ndeps += m->ndeps;
        total += m->bytes;
        if (m->at > at) at = m->at;
    }
    FZ_CHECK(ndeps == t.ndeps, "dependency count");
    if (t.count && t.count <= 64u && t.ranks <= 8u && total <= 262144u
        && at <= IBCC_US(10))
        run_job(&t);
    return 0;
}
