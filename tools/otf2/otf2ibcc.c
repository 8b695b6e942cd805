/* otf2ibcc: converts the MPI point-to-point messages of an OTF2 trace
   (written by Score-P, or any tool on the OTF2 library) into an ibcc
   trace (docs/jobs.md, "Importing OTF2"). Optional: it needs the OTF2
   library (Debian: libopen-trace-format2-dev); `make otf2` builds it as
   build/otf2ibcc when pkg-config finds otf2.

       build/otf2ibcc TRACE.otf2 [OUT.trace]      (OUT: default stdout)

   What it keeps. Ranks are the members of the MPI group of type
   COMM_LOCATIONS (rank i = its i-th location). Every MpiSend/MpiIsend
   becomes a message (source rank, destination rank through the
   communicator's group, its length); every MpiRecv/MpiIrecv (the
   completion of a receive) is matched to the oldest unmatched send of the
   same source, destination, communicator and tag (MPI's non-overtaking
   order). A send waits for the messages its rank received since its
   previous send (none received: what its previous send waited for), and
   its `at` is the time from the last of those receives to the send (the
   rank's computation between them); a send that waits for nothing is
   released at its time since the first event of the trace. Collective
   operations (MpiCollectiveEnd) and messages of length 0 are counted and
   left out (a line of the summary on stderr says how many). The output
   is read back with ibcc_trace_parse before the program says it is done.
   Exit status: 0 done, 1 usage or OTF2 error, 2 the trace is not
   convertible (no MPI locations group, a receive without its send). */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <otf2/otf2.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct msg_ {
    uint32_t src, dst;
    uint64_t bytes;
    uint64_t t;                 /* send time (ticks) */
    uint32_t dep_first, ndeps;  /* into deps */
    uint64_t at_ticks;
} msg_;

typedef struct pend_ {          /* an unmatched send */
    uint32_t src, dst, comm, tag;
    uint32_t msg;
    uint32_t next;              /* free / chain */
} pend_;

typedef struct rank_ {
    uint32_t *recv, nrecv, cap; /* messages received since the last send */
    uint64_t recv_t;            /* time of the last of them */
    uint32_t last_send;         /* its previous send, or UINT32_MAX */
} rank_;

typedef struct conv_ {
    uint64_t res, first_t;
    int have_first;
    uint64_t *locs;             /* rank -> location */
    uint32_t nranks;
    struct { uint64_t id; uint64_t *m; uint32_t n; int type; } *grp;
    uint32_t ngrp;
    struct { uint64_t id, grp; } *comm;
    uint32_t ncomm;
    msg_ *m;
    uint32_t nm, mcap;
    uint32_t *deps;
    uint64_t nd, dcap;
    pend_ *p;
    uint32_t np, pcap;
    rank_ *rk;
    uint64_t coll, zero, unmatched;
} conv_;

static void *grow(void *p, uint64_t *cap, size_t elem, uint64_t need)
{
    uint64_t c = *cap ? *cap : 64u;
    void *q;
    if (need <= *cap) return p;
    while (c < need) c *= 2u;
    q = realloc(p, (size_t)(c * elem));
    if (!q) { fprintf(stderr, "otf2ibcc: out of memory\n"); exit(1); }
    *cap = c;
    return q;
}

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off,
                                  uint64_t len, uint64_t rt)
{
    conv_ *c = (conv_ *)u;
    (void)off; (void)len; (void)rt;
    c->res = res;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *u, OTF2_GroupRef self,
                                  OTF2_StringRef name, OTF2_GroupType type,
                                  OTF2_Paradigm par, OTF2_GroupFlag fl,
                                  uint32_t n, const uint64_t *mem)
{
    conv_ *c = (conv_ *)u;
    uint64_t cap = c->ngrp;
    (void)name; (void)fl;
    if (par != OTF2_PARADIGM_MPI) return OTF2_CALLBACK_SUCCESS;
    c->grp = grow(c->grp, &cap, sizeof *c->grp, c->ngrp + 1u);
    c->grp[c->ngrp].id = self;
    c->grp[c->ngrp].type = type;
    c->grp[c->ngrp].n = n;
    c->grp[c->ngrp].m = (uint64_t *)malloc((n ? n : 1u) * sizeof(uint64_t));
    if (!c->grp[c->ngrp].m) exit(1);
    memcpy(c->grp[c->ngrp].m, mem, n * sizeof(uint64_t));
    c->ngrp++;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
        c->locs = c->grp[c->ngrp - 1u].m;
        c->nranks = n;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *u, OTF2_CommRef self,
                                 OTF2_StringRef name, OTF2_GroupRef g,
                                 OTF2_CommRef parent, OTF2_CommFlag fl)
{
    conv_ *c = (conv_ *)u;
    uint64_t cap = c->ncomm;
    (void)name; (void)parent; (void)fl;
    c->comm = grow(c->comm, &cap, sizeof *c->comm, c->ncomm + 1u);
    c->comm[c->ncomm].id = self;
    c->comm[c->ncomm].grp = g;
    c->ncomm++;
    return OTF2_CALLBACK_SUCCESS;
}

static uint32_t rank_of_loc(const conv_ *c, uint64_t loc)
{
    uint32_t i;
    for (i = 0; i < c->nranks; i++)
        if (c->locs[i] == loc) return i;
    return UINT32_MAX;
}

/* World rank of rank r of communicator comm. */
static uint32_t world_rank(const conv_ *c, uint32_t comm, uint32_t r)
{
    uint32_t i, k;
    for (i = 0; i < c->ncomm; i++) {
        if (c->comm[i].id != comm) continue;
        for (k = 0; k < c->ngrp; k++)
            if (c->grp[k].id == c->comm[i].grp) {
                if (c->grp[k].type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
                    return r < c->grp[k].n ? r : UINT32_MAX;
                if (r < c->grp[k].n) return (uint32_t)c->grp[k].m[r];
                return UINT32_MAX;
            }
    }
    return UINT32_MAX;
}

static void first_time(conv_ *c, uint64_t t)
{
    if (!c->have_first || t < c->first_t) c->first_t = t;
    c->have_first = 1;
}

static OTF2_CallbackCode on_send_(conv_ *c, uint64_t loc, uint64_t t,
                                  uint32_t recv, uint32_t comm, uint32_t tag,
                                  uint64_t len)
{
    uint32_t s = rank_of_loc(c, loc), d = world_rank(c, comm, recv);
    uint64_t cap;
    msg_ *m;
    rank_ *r;
    first_time(c, t);
    if (s == UINT32_MAX || d == UINT32_MAX) {
        c->unmatched++;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (len == 0 || s == d) {
        c->zero++;
        return OTF2_CALLBACK_SUCCESS;
    }
    r = &c->rk[s];
    cap = c->mcap;
    c->m = grow(c->m, &cap, sizeof *c->m, (uint64_t)c->nm + 1u);
    c->mcap = (uint32_t)cap;
    m = &c->m[c->nm];
    m->src = s;
    m->dst = d;
    m->bytes = len;
    m->t = t;
    if (r->nrecv) {                 /* what it received since its last send */
        c->deps = grow(c->deps, &c->dcap, sizeof *c->deps, c->nd + r->nrecv);
        memcpy(c->deps + c->nd, r->recv, r->nrecv * sizeof *r->recv);
        m->dep_first = (uint32_t)c->nd;
        m->ndeps = r->nrecv;
        c->nd += r->nrecv;
        m->at_ticks = t - r->recv_t;
        r->nrecv = 0;
    } else if (r->last_send != UINT32_MAX && c->m[r->last_send].ndeps) {
        const msg_ *p = &c->m[r->last_send];  /* what its last send waited for */
        m->dep_first = p->dep_first;
        m->ndeps = p->ndeps;
        m->at_ticks = p->at_ticks + (t - p->t);
    } else {
        m->dep_first = 0;
        m->ndeps = 0;
        m->at_ticks = t;                      /* made relative at the end */
    }
    r->last_send = c->nm;
    {   /* remember it for its receive */
        uint64_t pc = c->pcap;
        c->p = grow(c->p, &pc, sizeof *c->p, (uint64_t)c->np + 1u);
        c->pcap = (uint32_t)pc;
        c->p[c->np].src = s;
        c->p[c->np].dst = d;
        c->p[c->np].comm = comm;
        c->p[c->np].tag = tag;
        c->p[c->np].msg = c->nm;
        c->np++;
    }
    c->nm++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_recv_(conv_ *c, uint64_t loc, uint64_t t,
                                  uint32_t sender, uint32_t comm,
                                  uint32_t tag, uint64_t len)
{
    uint32_t d = rank_of_loc(c, loc), s = world_rank(c, comm, sender), i;
    rank_ *r;
    first_time(c, t);
    if (d == UINT32_MAX || s == UINT32_MAX || len == 0 || s == d)
        return OTF2_CALLBACK_SUCCESS;
    for (i = 0; i < c->np; i++)     /* the oldest matching send */
        if (c->p[i].src == s && c->p[i].dst == d && c->p[i].comm == comm
            && c->p[i].tag == tag)
            break;
    if (i == c->np) {
        fprintf(stderr, "otf2ibcc: a receive on rank %u from rank %u (tag "
                "%u) has no send before it\n", d, s, tag);
        exit(2);
    }
    r = &c->rk[d];
    if (r->nrecv == r->cap) {
        r->cap = r->cap ? 2u * r->cap : 8u;
        r->recv = (uint32_t *)realloc(r->recv, r->cap * sizeof *r->recv);
        if (!r->recv) exit(1);
    }
    r->recv[r->nrecv++] = c->p[i].msg;
    r->recv_t = t;
    memmove(c->p + i, c->p + i + 1u, (c->np - i - 1u) * sizeof *c->p);
    c->np--;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                 void *u, OTF2_AttributeList *a,
                                 uint32_t recv, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
    (void)a;
    return on_send_((conv_ *)u, loc, t, recv, comm, tag, len);
}
static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                  void *u, OTF2_AttributeList *a,
                                  uint32_t recv, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    (void)a; (void)req;
    return on_send_((conv_ *)u, loc, t, recv, comm, tag, len);
}
static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                 void *u, OTF2_AttributeList *a,
                                 uint32_t snd, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
    (void)a;
    return on_recv_((conv_ *)u, loc, t, snd, comm, tag, len);
}
static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                  void *u, OTF2_AttributeList *a,
                                  uint32_t snd, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    (void)a; (void)req;
    return on_recv_((conv_ *)u, loc, t, snd, comm, tag, len);
}
static OTF2_CallbackCode on_coll(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                 void *u, OTF2_AttributeList *a,
                                 OTF2_CollectiveOp op, OTF2_CommRef comm,
                                 uint32_t root, uint64_t sent, uint64_t got)
{
    conv_ *c = (conv_ *)u;
    (void)loc; (void)a; (void)op; (void)comm; (void)root; (void)sent;
    (void)got;
    first_time(c, t);
    c->coll++;
    return OTF2_CALLBACK_SUCCESS;
}

/* Ticks to picoseconds at the trace's timer resolution. */
static uint64_t ps_of(const conv_ *c, uint64_t ticks)
{
    long double x = (long double)ticks * 1e12L / (long double)c->res;
    return x > 1.0e18L ? UINT64_C(1000000000000000000) : (uint64_t)(x + 0.5L);
}

static int die_otf2(const char *what, OTF2_ErrorCode e)
{
    fprintf(stderr, "otf2ibcc: %s: %s\n", what, OTF2_Error_GetName(e));
    return 1;
}

int main(int argc, char **argv)
{
    conv_ c;
    OTF2_Reader *rd;
    OTF2_GlobalDefReader *gd;
    OTF2_GlobalDefReaderCallbacks *gdc;
    OTF2_GlobalEvtReader *ge;
    OTF2_GlobalEvtReaderCallbacks *gec;
    OTF2_ErrorCode e;
    uint64_t n, i;
    FILE *out = stdout;
    char *text;
    size_t tlen = 0;
    uint64_t written = 0;
    FILE *mem;
    if (argc < 2 || argc > 3 || argv[1][0] == '-') {
        fprintf(stderr, "usage: otf2ibcc TRACE.otf2 [OUT.trace]\n");
        return 1;
    }
    memset(&c, 0, sizeof c);
    rd = OTF2_Reader_Open(argv[1]);
    if (!rd) { fprintf(stderr, "otf2ibcc: cannot open %s\n", argv[1]); return 1; }
    if ((e = OTF2_Reader_SetSerialCollectiveCallbacks(rd)) != OTF2_SUCCESS)
        return die_otf2("collective callbacks", e);
    gd = OTF2_Reader_GetGlobalDefReader(rd);
    gdc = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gdc, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gdc, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(gdc, on_comm);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, gdc, &c);
    OTF2_GlobalDefReaderCallbacks_Delete(gdc);
    if ((e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &n)) != OTF2_SUCCESS)
        return die_otf2("definitions", e);
    if (!c.locs || c.nranks < 2u || c.res == 0) {
        fprintf(stderr, "otf2ibcc: %s has no MPI group of locations with "
                "two ranks or more, or no clock\n", argv[1]);
        return 2;
    }
    c.rk = (rank_ *)calloc(c.nranks, sizeof *c.rk);
    if (!c.rk) return 1;
    for (i = 0; i < c.nranks; i++) {
        c.rk[i].last_send = UINT32_MAX;
        OTF2_Reader_SelectLocation(rd, c.locs[i]);
    }
    if ((e = OTF2_Reader_OpenEvtFiles(rd)) != OTF2_SUCCESS)
        return die_otf2("event files", e);
    for (i = 0; i < c.nranks; i++)
        (void)OTF2_Reader_GetEvtReader(rd, c.locs[i]);
    ge = OTF2_Reader_GetGlobalEvtReader(rd);
    gec = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(gec, on_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(gec, on_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(gec, on_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(gec, on_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(gec, on_coll);
    OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ge, gec, &c);
    OTF2_GlobalEvtReaderCallbacks_Delete(gec);
    if ((e = OTF2_Reader_ReadAllGlobalEvents(rd, ge, &n)) != OTF2_SUCCESS)
        return die_otf2("events", e);
    OTF2_Reader_CloseGlobalEvtReader(rd, ge);
    OTF2_Reader_CloseEvtFiles(rd);
    OTF2_Reader_Close(rd);

    /* the text, into memory first to read it back */
    mem = open_memstream(&text, &tlen);
    if (!mem) return 1;
    fprintf(mem, "# ibcc trace from %s by otf2ibcc: %u messages on %u "
            "ranks\n", argv[1], c.nm, c.nranks);
    fprintf(mem, "ibcc-trace 1\nranks %u\n", c.nranks);
    for (i = 0; i < c.nm; i++) {
        const msg_ *m = &c.m[i];
        uint64_t at = m->ndeps ? ps_of(&c, m->at_ticks)
                               : ps_of(&c, m->t - c.first_t);
        uint32_t k;
        fprintf(mem, "%" PRIu64 " %u %u %" PRIu64, i, m->src, m->dst,
                m->bytes);
        if (at) fprintf(mem, " at=%" PRIu64 "ps", at);
        for (k = 0; k < m->ndeps; k++)
            fprintf(mem, "%s%u", k ? "," : " after=",
                    c.deps[m->dep_first + k]);
        written += m->ndeps;
        fputc('\n', mem);
    }
    fclose(mem);
    {   /* read it back */
        ibcc_trace t;
        ibcc_fabric_error err;
        memset(&t, 0, sizeof t);
        t.msgs = (ibcc_trace_msg *)malloc((c.nm + 1u) * sizeof *t.msgs);
        t.deps = (uint32_t *)malloc((size_t)(written + 1u) * 4u);
        t.msg_cap = c.nm + 1u;
        t.dep_cap = (uint32_t)written + 1u;
        if (ibcc_trace_parse(&t, text, tlen, "(output)", &err) != IBCC_OK) {
            fprintf(stderr, "otf2ibcc: the output does not read back: "
                    "line %u: %s\n", err.line, err.reason);
            return 2;
        }
        free(t.msgs);
        free(t.deps);
    }
    if (argc == 3 && !(out = fopen(argv[2], "w"))) {
        fprintf(stderr, "otf2ibcc: cannot write %s\n", argv[2]);
        return 1;
    }
    fwrite(text, 1, tlen, out);
    if (out != stdout) fclose(out);
    fprintf(stderr, "otf2ibcc: %u ranks, %u messages, %" PRIu64
            " dependencies; left out: %" PRIu64 " collective operations, %"
            PRIu64 " empty or self messages, %" PRIu64 " outside the MPI "
            "ranks; %u sends never received\n", c.nranks, c.nm, written,
            c.coll, c.zero, c.unmatched, c.np);
    free(text);
    return 0;
}
