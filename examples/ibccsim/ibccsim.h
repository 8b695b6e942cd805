/* ibccsim's shared part: the includes, the options and results of the
   experiments that another file runs too (demo runs twoswitch, the sweeps
   their experiment), option tables (opt.c), value parsing and messages,
   file reading and writing, sweeps in worker processes (common.c). */
#ifndef IBCCSIM_H
#define IBCCSIM_H
#define _POSIX_C_SOURCE 200809L  /* fork, wait, mkdtemp, sysconf */
#include "ibcc.h"
#include "opt.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>

#define ms_time(ms) ((ibcc_time)((ms) * 1e9 + 0.5))

#define SC_MAX_KEYS 128

#define SW_MAX 64

typedef struct ts_opts {
    unsigned local, remote, buffer;
    unsigned window;            /* 0 = none */
    int marking;                /* ibcc_marker_engine */
    int classify;               /* ibcc_classify */
    unsigned out_threshold;
    int arbiter;                /* ibcc_arb_policy */
    unsigned bypass;
    int law;                    /* 0 none, else ibcc_law_kind */
    int discrete, fixed_rates;
    unsigned fanout;            /* desc.input_fanout */
    int trig_arrival;           /* 1: marker.defer = 0 (--trigger-at arrival) */
    int dynamic;                /* 0 none, 1 half, 2 all contributors ON-OFF */
    double on_ms;               /* mean ON = mean OFF period */
    int persistent;
    double time_ms, victim_from, victim_to, measure_from, measure_to;
    unsigned victim_sl, vls;    /* the victim's SL; data VLs per port */
    unsigned long long seed;
    const char *series, *summary;
    int quiet;
} ts_opts;

typedef struct ts_result {
    double root_util, isl_util, victim_share_isl;
    double local_share_root, remote_share_root, remote_local_ratio;
    double victim_gbps, jain_contributors;
    double static_share_root, dynamic_share_root;
    double jain_local, jain_remote;  /* within each class */
    double marked_fraction[3];
    double mean_latency_us[3];
    uint64_t delivered[3];      /* packets of each class in the window */
    uint64_t root_in_triggers;  /* the root switch's input-buffer
                                   triggers, whole run */
    uint64_t root_marked[3];    /* packets it marked, by class, whole run */
    ibcc_fabric_counters counters;
    int conserved;
    double wall_s;
} ts_result;

#define GR_HOSTS 7u

#define GR_FLOWS 5u

typedef struct gr_opts {
    unsigned scenario, buffer;
    int cc;
    double step_ms, time_ms, measure_ms, bin_ms;
    unsigned threshold, marking_rate, packet_size, ccti_timer, ccti_increase;
    unsigned ccti_limit;
    unsigned msg_bytes;         /* payload bytes per message */
    unsigned ack_every;         /* coalesced ACKs: 1 = every packet */
    int sw;                     /* ibcc_switch_kind: VCT or CIOQ */
    const char *cct;            /* quadratic | linear | FILE */
    int arbiter;                /* ibcc_arb_policy: input organisation */
    int mark_random;            /* 1: Marking_Rate drawn at random */
    unsigned long long seed;
    const char *flows;          /* which of the scenario's flows run */
    const char *job[16];        /* --job SPEC, in order (jobspec.c) */
    unsigned njob;
    const char *job_csv;
    const char *series, *summary;
    int quiet;
} gr_opts;

typedef struct gr_result {
    unsigned nflows;
    double gbps[GR_FLOWS], jain, mean_gbps, sd_gbps, isl_util;
    double marked_fraction;
    unsigned long long becn, delivered;
    /* each flow in the measured window: BECNs its source received, its
       data packets delivered, of them with FECN */
    unsigned long long w_becn[GR_FLOWS], w_pkts[GR_FLOWS], w_marked[GR_FLOWS];
    int conserved;
    struct jb_set *jobs;        /* --job's jobs and results, or NULL */
} gr_result;

enum { MV_NONE, MV_RP, MV_PI, MV_MVCM, MV_WINDOW };
#define MV_MAXN 6               /* --n at most */

typedef struct mv_opts {
    unsigned k, n, payload, hot_sources, hot_packets, variable;
    unsigned long long hot_after, seed;
    double load, load_h, bin_us, time_us;
    int cmm, nowarm, nocap, validated, quiet, time_set, hot_set, vct, tree;
    int mbonly, load_host, formula;
    unsigned speedup, window, link_bytes;
    const char *series, *summary;
} mv_opts;

typedef struct mv_res {
    double lat_cold, lat_base, thr_cold, hot_util;
    double marked_cold, marked_hot, validated_hot, accepted, lat_all, validated_cold;
    double t_hs, t_he;
    double lat_cold_peak, lat_hot, lat_hot_peak, lat_end, lat_hs_all;
    double hot_util_min, load_host, rtt_min, omega, omega_hi;
    double hot_util_run, hot_util_min_run;  /* hot spot's start to end */
    double hot_osc_after;       /* mean |change| of the hot link's bins
                                   after the hot spot */
    unsigned long long hot_delivered, hot_generated;
    ibcc_mvcm_stats mv;         /* what MVCM's actions did (--cmm mvcm) */
    /* the hot spot's first moments: the most hot packets in the network
       at once; cycles from the hot spot's start to the first marked hot
       packet's delivery and to the last hot source's first one (-1:
       none); marks set by the switches of stage s (1 = the hosts'),
       [1] on hot, [0] on cold packets, while the hot spot lasts */
    unsigned long long hot_net_max;
    double first_mark, all_marked;
    unsigned long long marks[2][MV_MAXN + 1];
    unsigned dw_max, hsd, ccti_increase;
    unsigned long long n_cold, n_base, n_hot, n_hs, n_end, n_all, n_cold_total;
    unsigned long long delivered;
    int conserved, hot_started;
} mv_res;

#define WH_RATE 80000000u

typedef struct wh_opts {
    int torus;                  /* 0 twohost, 1 torus */
    int pair;                   /* torus: one high pair + uniform low */
    int route_switch;           /* torus: one route per destination switch */
    double load, high_frac;
    unsigned seg, adaptive, slack, size, msg;
    int switch_prio;
    unsigned stop_mark, go_mark;        /* 0: the fabric's defaults */
    double time_ms, warmup_ms, prop_ns, fwd_ns;
    unsigned long long seed;
    const char *series, *summary;
    int quiet;
} wh_opts;

typedef struct wh_res {
    double offered[2], accepted[2];      /* [0] low, [1] high */
    double delay_mean[2], delay_p99[2];  /* us */
    double kdelay_mean[2], kdelay_p99[2];  /* us, [K]'s metric */
    unsigned long long msgs[2];
    unsigned senders[2];
    double link_util_max;               /* busiest link after the warm-up */
    double path_frac[33];               /* host pairs whose route crosses k
                                           switches, k = 1..32 */
    double path_mean;
    double route_load_max;              /* busiest switch output: its share
                                           of uniform traffic, in units of
                                           the per-host load */
    unsigned path_max;
    ibcc_fabric_counters counters;
    int conserved;
} wh_res;


/* ---- messages and values (common.c) ---- */
extern const char *g_file;
extern const char *g_key[SC_MAX_KEYS];
extern unsigned g_line[SC_MAX_KEYS], g_nkeys;
void where(const char *flag);
int bad(const char *flag, const char *val, const char *why);
int law_parse(const char *v, int *kind);
const char *law_list(char *buf, size_t len, const char *head, const char *sep);
const char *flag_value(int argc, char **argv, int i);
int parse_uint(const char *s, unsigned long long lo, unsigned long long hi,
               unsigned long long *out);
int parse_double(const char *s, double lo, double hi, double *out);
/* ---- files ---- */
int close_out(FILE *fp, const char *path);
ibcc_result fabric_create(const char *who, ibcc_fabric **f, ibcc_fabric_desc *d);
char *fc_read(const char *cmd, const char *flag, const char *path, size_t *len);
int fc_error(const ibcc_ibfabric_error *e);
void fc_dup_names(const char *cmd, const ibcc_ibfabric *f);
uint32_t gr_load_cct(const char *cmd, const char *what, ibcc_time mpt,
                     uint16_t *cct, uint32_t cap);
/* ---- the topology builders (builder.c) ---- */
enum { TB_FATTREE, TB_NFLY, TB_MESH, TB_TORUS, TB_DRAGONFLY };
typedef struct tb_spec {
    int builder;                /* TB_* */
    int routing;                /* IBCC_TOPO_*; -1: the builder's default
                                   (dragonfly minimal, others updown) */
    unsigned k, n, x, y, hps, root, a, p, h, groups, lmc, vls;
    int lmc_given, vls_given;
} tb_spec;
typedef struct tb_err {         /* a refusal: the flag it concerns and why */
    const char *flag;
    char flagbuf[16], why[320];
    uint32_t flow;              /* tb_flows: the flow refused */
    int nomem;
} tb_err;
/* Builds s into t: 0, or 2 (e says why; t is empty). */
int tb_build(const tb_spec *s, ibcc_topo *t, tb_err *e);
/* Flows fl[from..to) of t's fabric: their LIDs when t has LMC (dlid_rr:
   round robin from the source's index, else a hash of seed and flow),
   then their SLs as the paths' (dateline or Valiant bits above the
   traffic's SL). 0, or 2 (e says why, e->flow which). */
int tb_flows(const ibcc_topo *t, ibcc_fabric_flow *fl, uint32_t from, uint32_t to,
             int dlid_rr, uint64_t seed, tb_err *e);
/* ---- params.csv ---- */
void params_path(const char *summary, char *buf, size_t len);
int params_write(const char *summary, const opt_cmd *c, const void *o,
                 const ibcc_swcc *sw, const ibcc_cacc_config *ca);
void params_iba(ibcc_swcc *sw, ibcc_cacc_config *ca, unsigned threshold,
                unsigned packet_size, unsigned marking_rate,
                uint32_t victim_mask, unsigned timer, unsigned increase);
/* ---- progress (common.c) ---- */
extern int g_quiet;             /* --quiet: no progress either */
typedef struct prog {
    const char *who;
    ibcc_time t0, end;
    double w0, shown;
    uint64_t e0;
    int on, tty, decile, dirty;
} prog;
void prog_start(prog *p, const char *who, const ibcc_fabric *f, ibcc_time end);
ibcc_result prog_run(prog *p, ibcc_fabric *f, ibcc_time until);
void prog_end(prog *p);
/* ---- sweeps ---- */
int run_points(const char *what, unsigned total, unsigned jobs,
               int (*point)(unsigned idx, void *ctx), void *ctx);
int sw_mkdtemp(char *dir, size_t len, const char *what);
void sw_rmtemp(const char *dir);
FILE *sw_open_out(const char *what, const char *out);
int sw_fail(const char *dir, FILE *fo, const char *out);
int sw_list(const char *s, unsigned lo, unsigned hi, unsigned *v, unsigned *n);
double sw_metric(const char *path, const char *name);
int sw_point_cmd(FILE *fo, const char *self, const opt_cmd *c, const void *o,
                 const char *const *force, const char *tail);
extern const char *g_self;      /* argv[0], for the commands --list prints */
void sw_put(FILE *fo, const char *fmt, double x);

/* ---- the experiments' parts that others use ---- */
extern const opt_cmd ts_cmd;
void ts_defaults(ts_opts *o);
int ts_run(const ts_opts *o, ts_result *res);
extern const opt_cmd gr_cmd;
void gr_defaults(gr_opts *o);
int gr_run(const gr_opts *o, gr_result *res);
int gr_write_summary(const char *path, const gr_opts *o, const gr_result *r);
extern const opt_cmd mv_cmd;
void mv_defaults(mv_opts *o);
int mv_run(const mv_opts *o, mv_res *res);
int mv_write_summary(const char *path, const mv_opts *o, const mv_res *r);
void wh_defaults(wh_opts *o);
extern const opt_cmd wh_cmd;
int wh_check(wh_opts *o);
int wh_run(const wh_opts *o, wh_res *r);
int wh_write_summary(const char *path, const wh_opts *o, const wh_res *r);

/* ---- the subcommands (main.c) ---- */
typedef struct sub {
    const char *name;
    const char *brief;          /* its lines in `ibccsim --help` */
    int (*run)(int argc, char **argv);
    const opt_cmd *opts;        /* its option table, NULL for none */
    int in_files;               /* a scenario file may name it */
} sub;
extern const sub subs[];
extern const unsigned nsubs;
const sub *sub_find(const char *name);
extern const opt_cmd rc_cmd, lt_cmd, gs_cmd, ms_cmd, whs_cmd, fc_cmd, cu_cmd,
    demo_cmd;
int cmd_twoswitch(int argc, char **argv);
int cmd_recovery(int argc, char **argv);
int cmd_law_table(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_gran(int argc, char **argv);
int cmd_gran_sweep(int argc, char **argv, const char *self);
int cmd_mvcm(int argc, char **argv);
int cmd_mvcm_sweep(int argc, char **argv);
int cmd_wormhole(int argc, char **argv);
int cmd_wormhole_sweep(int argc, char **argv);
int cmd_fabric_check(int argc, char **argv);
int cmd_custom(int argc, char **argv);
int cmd_run(int argc, char **argv);
void run_error(const char *cmd, const ibcc_fabric *f, ibcc_result r);
int run_is_v2(const char *path);
int cmd_run_v2(const char *path, int argc, char **argv);
/* ---- jobs (jobspec.c): collectives and traces as a workload ---- */
#define JB_MAX 16
typedef struct jb_opts {
    int pattern;                /* ibcc_coll_kind, 0 trace, -1 not given */
    const char *trace, *hosts, *dims;
    unsigned ranks, root, iterations, sl;
    int place, periodic;        /* ibcc_place_policy; no|yes */
    unsigned long long bytes;
    double start_us;
} jb_opts;
typedef struct jb_res {
    ibcc_job_stats st;
    ibcc_time q[4];             /* message completion p50, p90, p99, max */
    int done;
} jb_res;
typedef struct jb_job {
    char name[32];
    jb_opts o;
    uint32_t *list, nlist;      /* the host list (indexes) */
    uint32_t *hosts, ranks;     /* rank r on host index hosts[r] */
    uint32_t *nodes;            /* ... and its node */
    ibcc_trace tr;
    uint64_t messages;
    uint32_t first, nflows;     /* its flows in the fabric desc */
    jb_res run, ideal;
} jb_job;
typedef struct jb_set {
    const char *who;            /* "ibccsim custom", "ibccsim run" */
    const char *file;           /* the scenario file, or NULL */
    jb_job job[JB_MAX];
    ibcc_job_desc desc[JB_MAX];
    unsigned n;
    uint32_t first;
    ibcc_jobs *js;
    char *words[JB_MAX];
    unsigned nwords;
} jb_set;
extern const opt_cmd jb_cmd;
void jb_defaults(jb_opts *o);
/* A job from its settings (a [job NAME] section). 0 or 2 (said). */
int jb_add(jb_set *s, const char *name, const jb_opts *o);
/* A job from "NAME key=value ..." (custom --job). 0 or 2 (said). */
int jb_spec(jb_set *s, const char *spec);
/* Host lists, placement, traces: the descs; a start at or after time_ms
   (0: no run time) is refused. 0 or 2 (said). */
int jb_resolve(jb_set *s, uint32_t nh, const uint32_t *nodes,
               const ibcc_ibfabric *ib, unsigned long long seed, double time_ms);
/* Classes: a collective job j takes class first + j (the classes below
   are the traffic's, `what`); a trace's messages keep their SLs, which
   must be >= first. 0 or 2. */
int jb_classes(jb_set *s, unsigned first, const char *what);
/* Appends the jobs' flows (from template tmpl: agent, window, rate)
   to *flows (realloc'ed, *nf of them). 0 or 2. */
int jb_flows(jb_set *s, const ibcc_fabric_flow *tmpl, ibcc_fabric_flow **flows,
             uint32_t *nf);
/* After ibcc_fabric_create, before running. 0 or 2. */
int jb_attach(jb_set *s, ibcc_fabric *f);
/* After the run: each job's results (and detaches). */
void jb_collect(jb_set *s);
/* Each job alone on the idle fabric of desc base (its flows from
   flows), for at most limit: job_ideal_us. 0 or 2. */
int jb_ideal(jb_set *s, const ibcc_fabric_desc *base,
             const ibcc_fabric_flow *flows, ibcc_time limit);
void jb_print(const jb_set *s, FILE *fp);
int jb_csv(const jb_set *s, const char *path);
int jb_all_done(const jb_set *s);
/* The jobs' rows of a summary.csv (job_NAME_*). */
void jb_summary(const jb_set *s, FILE *fp);
/* An OT_FUNC flag --job SPEC (repeatable; '|' separates jobs in one
   value): v given, appends to spec[*n]; v NULL, prints them back. */
int jb_specs_fn(const char *v, const char **spec, unsigned *n, char *buf, size_t len);
void jb_free(jb_set *s);
#endif
