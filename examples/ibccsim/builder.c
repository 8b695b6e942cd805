#include "ibccsim.h"
/* ---- the topology builders, one way for every experiment ---------------
   custom --topology, fabric-check --topology and a scenario file's [fabric]
   section all build through tb_build (which builder, which routing, how
   many VLs and LIDs) and give their flows LIDs and path SLs through
   tb_flows, so the three accept the same fabrics and refuse the same
   ones with the same words. */

static int tb_refuse(tb_err *e, const char *flag, const char *fmt, ...)
{
    va_list ap;
    e->flag = flag;
    va_start(ap, fmt);
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
    return 2;
}

static const char *const tb_routings[] = {"updown", "dor", "minimal", "valiant"};

int tb_build(const tb_spec *s, ibcc_topo *t, tb_err *e)
{
    int grid = s->builder == TB_MESH || s->builder == TB_TORUS;
    int dfly = s->builder == TB_DRAGONFLY;
    uint32_t routing = s->routing >= 0 ? (uint32_t)s->routing
                       : dfly ? IBCC_TOPO_MINIMAL : IBCC_TOPO_UPDOWN;
    uint32_t vls, g;
    ibcc_result r;
    memset(e, 0, sizeof *e);
    if (routing > IBCC_TOPO_VALIANT)
        return tb_refuse(e, "--routing", "routing %u: updown, dor, minimal "
                         "or valiant", routing);
    if (grid && routing != IBCC_TOPO_UPDOWN && routing != IBCC_TOPO_DOR)
        return tb_refuse(e, "--routing", "routing = %s: a mesh or torus "
                         "takes updown or dor", tb_routings[routing]);
    if (dfly && routing != IBCC_TOPO_MINIMAL && routing != IBCC_TOPO_VALIANT)
        return tb_refuse(e, "--routing", "routing = %s: a dragonfly takes "
                         "minimal or valiant", tb_routings[routing]);
    if (!grid && !dfly && routing != IBCC_TOPO_UPDOWN)
        return tb_refuse(e, "--routing", "routing = %s: a fat tree or "
                         "n-fly takes updown", tb_routings[routing]);
    if (s->lmc_given && !dfly)
        return tb_refuse(e, "--lmc", "--lmc applies to topology = dragonfly");
    if (dfly && s->vls_given && s->vls != 1 && s->vls != 2 && s->vls != 4
        && s->vls != 8)
        return tb_refuse(e, "--vls", "--vls %u: a dragonfly runs 1, 2, 4 "
                         "or 8 VLs (SL s on VL 2s and 2s + 1)", s->vls);
    switch (s->builder) {
    case TB_FATTREE: r = ibcc_topo_fattree(t, s->k, s->n, NULL); break;
    case TB_NFLY: r = ibcc_topo_nfly(t, s->k, s->n, NULL); break;
    case TB_MESH: case TB_TORUS:
        r = routing == IBCC_TOPO_DOR
            ? ibcc_topo_mesh_dor(t, s->x, s->y, s->hps, s->builder == TB_TORUS, NULL)
            : ibcc_topo_mesh(t, s->x, s->y, s->hps, s->builder == TB_TORUS,
                             s->root, NULL);
        break;
    case TB_DRAGONFLY:
        vls = s->vls_given ? s->vls : routing == IBCC_TOPO_VALIANT ? 4u : 2u;
        g = s->groups ? s->groups : s->a * s->h + 1u;
        r = s->lmc_given
            ? ibcc_topo_dragonfly_lmc(t, s->a, s->p, s->h, g, routing, vls, s->lmc, NULL)
            : ibcc_topo_dragonfly(t, s->a, s->p, s->h, g, routing, vls, NULL);
        break;
    default:
        return tb_refuse(e, "--topology", "topology: not a builder");
    }
    if (r != IBCC_OK) {
        /* the reason names the argument ("root 16: a switch 0..15"),
           which is the flag of the same name */
        size_t n = strcspn(t->error.reason, " :");
        e->nomem = r == IBCC_ERR_NOMEM;
        if (n == 0 || n > 8 || e->nomem)
            return tb_refuse(e, "--topology", "the topology cannot be built: %s",
                             t->error.reason);
        snprintf(e->flagbuf, sizeof e->flagbuf, "--%.*s", (int)n, t->error.reason);
        e->flag = e->flagbuf;
        snprintf(e->why, sizeof e->why, "--%s", t->error.reason);
        return 2;
    }
    if (grid && s->vls_given && s->vls < t->vls) {
        uint32_t need = t->vls;
        ibcc_topo_free(t);
        return tb_refuse(e, "--vls", "--vls %u: dimension order on this torus "
                         "needs %u VLs (one per dateline class)", s->vls, need);
    }
    return 0;
}

int tb_flows(const ibcc_topo *t, ibcc_fabric_flow *fl, uint32_t from, uint32_t to,
             int dlid_rr, uint64_t seed, tb_err *e)
{
    uint32_t k;
    memset(e, 0, sizeof *e);
    if (t->lmc) {               /* each flow's LID (its QP's DLID) */
        uint32_t nl = 1u << t->lmc, *turn = NULL;
        if (dlid_rr && !(turn = (uint32_t *)calloc(t->node_count, sizeof *turn))) {
            e->nomem = 1;
            return tb_refuse(e, "--dlid", "out of memory");
        }
        for (k = from; k < to; k++) {
            ibcc_fabric_flow *x = &fl[k];
            if (dlid_rr) {
                x->dlid = (x->src + turn[x->src]++) % nl;
            } else {            /* splitmix64 of (seed, flow): its own
                                   stream, the other draws unchanged */
                uint64_t z = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(k + 1u);
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
                x->dlid = (uint32_t)((z ^ (z >> 31)) % nl);
            }
        }
        free(turn);
    }
    if (t->sl_bits)             /* the path's SL: its dateline or Valiant bits */
        for (k = from; k < to; k++) {
            ibcc_fabric_flow *x = &fl[k];
            uint32_t sl = ibcc_topo_path_sl_lid(t, x->src, x->dst, x->dlid, x->sl);
            if (sl == IBCC_FABRIC_NONE) {
                e->flow = k;
                return tb_refuse(e, "--sl", "SL %u: %s takes SL bits 0..%u for "
                                 "its paths, leaving SLs 0..%u for traffic", x->sl,
                                 t->routing == IBCC_TOPO_VALIANT ? "valiant routing"
                                 : "dimension order on this torus", t->sl_bits - 1u,
                                 (16u >> t->sl_bits) - 1u);
            }
            x->sl = sl;
        }
    return 0;
}
