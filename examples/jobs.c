/* jobs.c - two jobs interfering on a fat tree, and traces (docs/jobs.md).

   A 4-ary 2-tree (16 hosts on 4 leaf switches, 1 GB/s links, the fabric's
   defaults, no congestion control). The victim: a ring allreduce of
   256 KiB (8 ranks on hosts 0-7, linear placement: 2 leaves). The
   aggressor: an incast of 6 x 400 packets from hosts 8-13 into host 5,
   one of the victim's. Each job runs alone (its ideal time, by a run)
   and then both together; the table gives each job's completion time,
   its ideal, the slowdown and its messages' completion-time quantiles.

   Build: make examples   (or: cc -std=c99 -I. examples/jobs.c -lm)
   Run:   build/jobs              the table
          build/jobs FILE.trace   FILE's trace (ibcc-trace 1) on hosts
                                  0 .. ranks-1 of the same fabric, alone */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct result {
    ibcc_job_stats st;
    ibcc_time p50, p99;
} result;

/* Runs jobs[0 .. n) together on the fat tree until all are done; fills
   res[0 .. n). Returns 0 or prints why not and returns 1. */
static int run(const ibcc_job_desc *jobs, uint32_t n, result *res)
{
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_jobs *js = NULL;
    ibcc_fabric_error e;
    ibcc_fabric_flow *flows;
    uint32_t nf = 0, j;
    ibcc_time t = 0;
    memset(&d, 0, sizeof d);
    if (ibcc_topo_fattree(&topo, 4, 2, NULL) != IBCC_OK) return 1;
    (void)ibcc_topo_apply(&topo, &d);
    if (ibcc_jobs_flows(jobs, n, NULL, 0, &nf, &e) != IBCC_ERR_CAPACITY
        && nf != 0) {
        fprintf(stderr, "jobs: %s\n", e.reason);
        return 1;
    }
    flows = (ibcc_fabric_flow *)calloc(nf ? nf : 1u, sizeof *flows);
    if (!flows || ibcc_jobs_flows(jobs, n, flows, nf, &nf, &e) != IBCC_OK) {
        fprintf(stderr, "jobs: %s\n", flows ? e.reason : "no memory");
        return 1;
    }
    d.flows = flows;
    d.flow_count = nf;
    d.error = &e;
    if (ibcc_fabric_create(&f, &d) != IBCC_OK
        || ibcc_jobs_create(&js, f, jobs, n, 0, &e) != IBCC_OK) {
        fprintf(stderr, "fabric: %s\n", e.reason);
        return 1;
    }
    while (!ibcc_jobs_done(js) && t < IBCC_S(10)) {
        t += IBCC_US(100);
        if (ibcc_fabric_run_until(f, t) != IBCC_OK) break;
    }
    for (j = 0; j < n; j++) {
        (void)ibcc_jobs_stats(js, j, &res[j].st);
        (void)ibcc_jobs_msg_quantile(js, j, 0.5, &res[j].p50);
        (void)ibcc_jobs_msg_quantile(js, j, 0.99, &res[j].p99);
    }
    j = (uint32_t)ibcc_jobs_done(js);
    ibcc_jobs_destroy(js);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
    free(flows);
    if (!j) fprintf(stderr, "not done after 10 s of simulated time\n");
    return j ? 0 : 1;
}

static void row(const char *name, const char *hosts, const result *r,
                const result *ideal)
{
    printf("%-10s %-10s %8llu %13.1f %9.1f %8.2f %10.1f %10.1f\n", name,
           hosts, (unsigned long long)r->st.messages,
           (double)r->st.completion / 1e6,
           (double)ideal->st.completion / 1e6,
           (double)r->st.completion / (double)ideal->st.completion,
           (double)r->p50 / 1e6, (double)r->p99 / 1e6);
}

static int trace_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *text;
    long len;
    ibcc_trace t;
    ibcc_fabric_error e;
    ibcc_job_desc j;
    uint32_t hosts[16], i;
    result r;
    if (!fp || fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0
        || fseek(fp, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    text = (char *)malloc((size_t)len + 1u);
    if (!text || fread(text, 1, (size_t)len, fp) != (size_t)len) return 1;
    fclose(fp);
    memset(&t, 0, sizeof t);                     /* count, then read */
    if (ibcc_trace_parse(&t, text, (size_t)len, path, &e) == IBCC_ERR_CAPACITY) {
        t.msgs = (ibcc_trace_msg *)malloc((t.count + 1u) * sizeof *t.msgs);
        t.deps = (uint32_t *)malloc((t.ndeps + 1u) * sizeof *t.deps);
        t.msg_cap = t.count + 1u;
        t.dep_cap = t.ndeps + 1u;
        if (!t.msgs || !t.deps) return 1;
    }
    if (ibcc_trace_parse(&t, text, (size_t)len, path, &e) != IBCC_OK) {
        fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
        return 1;
    }
    if (t.ranks > 16u) {
        fprintf(stderr, "%s: %u ranks, the fat tree has 16 hosts\n", path,
                t.ranks);
        return 1;
    }
    for (i = 0; i < 16u; i++) hosts[i] = i;
    memset(&j, 0, sizeof j);
    j.trace = &t;
    j.hosts = hosts;
    if (run(&j, 1, &r)) return 1;
    printf("%s: %u messages on %u ranks, completion %.3f us, message "
           "p50 %.3f us, p99 %.3f us\n", path, t.count, t.ranks,
           (double)r.st.completion / 1e6, (double)r.p50 / 1e6,
           (double)r.p99 / 1e6);
    free(text);
    free(t.msgs);
    free(t.deps);
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t vh[8], ah[7], i;
    ibcc_job_desc j[2];
    result alone[2], both[2];
    if (argc == 2) return trace_file(argv[1]);
    memset(j, 0, sizeof j);
    for (i = 0; i < 8u; i++) vh[i] = i;
    for (i = 0; i < 6u; i++) ah[i] = 8u + i;
    ah[6] = 5;
    j[0].coll.kind = IBCC_COLL_ALLREDUCE_RING;
    j[0].coll.ranks = 8;
    j[0].coll.bytes = 256u * 1024u;
    j[0].hosts = vh;
    j[1].coll.kind = IBCC_COLL_INCAST;
    j[1].coll.ranks = 7;
    j[1].coll.root = 6;                          /* rank 6 is host 5 */
    j[1].coll.bytes = 400u * 2068u;
    j[1].hosts = ah;
    j[1].cls = 1;
    if (run(&j[0], 1, &alone[0]) || run(&j[1], 1, &alone[1])
        || run(j, 2, both))
        return 1;
    printf("%-10s %-10s %8s %13s %9s %8s %10s %10s\n", "job", "hosts",
           "messages", "completion_us", "ideal_us", "slowdown", "msg_p50_us",
           "msg_p99_us");
    row("victim", "0-7", &both[0], &alone[0]);
    row("aggressor", "8-13 > 5", &both[1], &alone[1]);
    return 0;
}
