/* kmodel: an independent byte-stepped model of [K]'s wormhole network
 * (Kwan et al., dual-priority segmentation), written from [K]'s text and
 * the parameter table of docs/scenario_wormhole.md only, without ibcc.h.
 * It is a second opinion on ibcc's WORMHOLE switch kind: where both agree
 * and [K] differs, the difference lies in what [K] leaves unstated.
 * tools/kmodel/run.sh runs it; docs/scenario_wormhole.md ("A second
 * model") says what it showed.
 *
 * One step is one byte time (12.5 ns at 80 MB/s). Every link carries one
 * byte per step and delays it by `wire` steps (25 m); each switch input
 * has a slack buffer of `slack` bytes that sends STOP upstream when it
 * holds `stop` bytes or more and GO when it has drained to `go` or less;
 * the sender obeys the signal `wire` + 1 steps after the step that set
 * it. A switch output serves one worm at a time; when it frees, it goes
 * round robin to the next input whose first buffered worm has its head
 * there and wants this output. Hosts always accept what arrives. Routes
 * are up/down from switch `root` (-u: how ties between equally short
 * legal routes are broken). A host sends one worm at a time, high
 * priority first (non-preemptive); within a priority -o sets the order
 * of its queued messages. The defaults of the choices [K] leaves open
 * are ibcc's (the first draft differed in several; `run.sh agree` shows
 * the two models agree byte for byte with ibcc's).
 *
 * Output: one CSV line per run (see usage()). Delays are [K]'s (section
 * 2: the first segment entering the network to the head of the last
 * segment arriving) and the full one (generation to last byte). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSW 64
#define NPORT 8 /* ports 0..3: hosts, 4..7: +x -x +y -y */
#define NH 4
#define MAXH (MAXSW * NH)
#define POOL (1 << 20) /* worms and messages alive at once (ring) */
#define MAXHOP 16

typedef struct { int msg, len, hop, nhop, last, rx; int8_t port[MAXHOP]; } Worm;
typedef struct {
  int src, dst, prio, len, left, seg;
  double gen; long long first, lasthead, done;
  int next; /* host queue link */
  long long seq; /* arrival order */
  int used, measured;
} Msg;
/* a link: data ring (byte codes) and stop ring, both `wire` long */
typedef struct { int *data; char *ctl; char stop_seen; } Link;
/* a buffered run of bytes of one worm in a slack buffer */
typedef struct { int worm, n, head, tail; } Run;
typedef struct {
  Run q[64]; int qh, qn; /* FIFO of runs */
  int occ, stop, out;    /* bytes held, STOP state, output held or -1 */
} Inbuf;

static int S, nsw, nh, wire = 10, slack = 80, stopm = -1, gom = -1, root;
static int seg = 250, adaptive, order_rr = 2, hdr, hdrhop, rmode = 3, fwd;
static double load = 0.2, hfrac = 0.3, meanlen = 1000;
static long long T, warm;
static int nbr[MAXSW][NPORT], nport[MAXSW]; /* neighbour switch per port */
static int nbrport[MAXSW][NPORT];           /* its input port */
static int route[MAXSW][MAXSW][MAXHOP], rlen[MAXSW][MAXSW];
static int isup[MAXSW][NPORT], dst2[MAXSW][MAXSW][2]; /* up/down: link up? hops to d */
static int8_t hop3[MAXSW][MAXH]; /* -R x3: next port per switch and destination host */
/* links: uplink of host h = h; downlink to host h = nh + h;
 * switch s output port p (p >= NH) = 2 nh + s NPORT + p */
static Link *lk;
static Inbuf in[MAXSW][NPORT];
static int outheld[MAXSW][NPORT], rrptr[MAXSW][NPORT];
static Worm *wm; static Msg *ms;
static int wnext, mnext;
static int hq[MAXH][2], hqt[MAXH][2]; /* per host, per priority: queue head/tail */
static int hcur[MAXH], hsent[MAXH];
static long long hlast[MAXH]; /* -o ptr: last message served */  /* current worm and bytes sent */
static double nextarr[MAXH];
static uint64_t rs[MAXH + 1];
static int pattern; /* 0 uniform; 1 two hosts (H0 high whole, H1 low) to H2 */
/* -T FILE: the messages of a trace instead (lines: byte-time src dst prio
   bytes), each reported when done (a check by hand on small cases) */
static struct { long long t; int src, dst, prio, len; } tr[4096];
static int ntr, itr;
static double sk[2], sd[2], sn[2], sbytes[2]; /* statistics */
static long long outstanding;
static int verbose;
static int commit = 1; /* -I: a host takes its next worm while STOP is in force
  (non-preemptive from then on); -I -I: and the worm counts as entering the
  network then, not at its first byte */

static double urand(int i) {
  uint64_t x = rs[i];
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27; rs[i] = x;
  return ((x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}
static int linkid_out(int s, int p) {
  return p < NH ? nh + s * NH + p : 2 * nh + s * NPORT + p;
}

/* up/down: BFS levels from root; s->n is up when n is nearer the root
 * (or as near with a lower id). dist[s][ph]: hops to d, ph 1 = gone down. */
/* -R -R: spread the routes. Each pair in turn takes, among its shortest
 * legal routes, one whose busiest link (the load of the other pairs
 * counted) is least, ties to the least sum; a few passes. */
static double ldl[MAXSW][NPORT];
static double pairw(int a, int b) { return (a == b ? NH - 1 : NH) * NH; }
static void addroute(int a, int b, double sg) {
  int c = a, k;
  for (k = 0; k < rlen[a][b]; k++) { ldl[c][route[a][b][k]] += sg * pairw(a, b); c = nbr[c][route[a][b][k]]; }
}
static double bmax, bsum; static int bpath[MAXHOP], cpath[MAXHOP];
static void walk(int c, int ph, int k, int d, double mx, double sm, int a) {
  int p;
  if (c == d) {
    if (mx < bmax - 1e-9 || (mx < bmax + 1e-9 && sm < bsum - 1e-9)) {
      bmax = mx; bsum = sm; memcpy(bpath, cpath, sizeof cpath);
    }
    return;
  }
  for (p = NH; p < nport[c]; p++) {
    int n = nbr[c][p], up = isup[c][p];
    double l = ldl[c][p] + pairw(a, d);
    if (ph && up) continue;
    if ((up ? dst2[d][n][0] : dst2[d][n][1]) + 1 != dst2[d][c][ph]) continue;
    cpath[k] = p;
    walk(n, ph || !up, k + 1, d, l > mx ? l : mx, sm + l * l, a);
  }
}
static void balance(void) {
  int a, b, it;
  for (a = 0; a < nsw; a++) for (b = 0; b < nsw; b++) addroute(a, b, 1);
  for (it = 0; it < 20; it++)
    for (a = 0; a < nsw; a++)
      for (b = 0; b < nsw; b++) {
        addroute(a, b, -1);
        bmax = bsum = 1e300;
        walk(a, 0, 0, b, 0, 0, a);
        memcpy(route[a][b], bpath, sizeof bpath);
        addroute(a, b, 1);
      }
}

static void routes(void) {
  int lvl[MAXSW], qq[MAXSW], a, b, s, p, d;
  for (s = 0; s < nsw; s++) lvl[s] = -1;
  lvl[root] = 0; qq[0] = root; a = 0; b = 1;
  while (a < b) {
    s = qq[a++];
    for (p = NH; p < nport[s]; p++)
      if (lvl[nbr[s][p]] < 0) { lvl[nbr[s][p]] = lvl[s] + 1; qq[b++] = nbr[s][p]; }
  }
#define UP(s, n) (lvl[n] < lvl[s] || (lvl[n] == lvl[s] && (n) < (s)))
  for (s = 0; s < nsw; s++)
    for (p = NH; p < nport[s]; p++) isup[s][p] = UP(s, nbr[s][p]);
  for (d = 0; d < nsw; d++) {
    int (*dist)[2] = dst2[d], ch = 1;
    for (s = 0; s < nsw; s++) dist[s][0] = dist[s][1] = 1 << 20;
    dist[d][0] = dist[d][1] = 0;
    while (ch) {
      ch = 0;
      for (s = 0; s < nsw; s++)
        for (p = NH; p < nport[s]; p++) {
          int n = nbr[s][p], up = UP(s, n);
          int v1 = up ? 1 << 20 : dist[n][1] + 1;
          int v0 = up ? dist[n][0] + 1 : dist[n][1] + 1;
          if (s != d && v1 < dist[s][1]) { dist[s][1] = v1; ch = 1; }
          if (s != d && v0 < dist[s][0]) { dist[s][0] = v0; ch = 1; }
        }
    }
    for (s = 0; s < nsw; s++) {
      int c = s, ph = 0, k = 0;
      uint64_t pr = 0x9e3779b97f4a7c15ULL * (uint64_t)(s * 131 + d + 7);
      while (c != d) {
        int cand[NPORT], nc = 0, pick;
        for (p = NH; p < nport[c]; p++) {
          int n = nbr[c][p], up = UP(c, n);
          if (ph && up) continue;
          if ((up ? dist[n][0] : dist[n][1]) + 1 == dist[c][ph]) cand[nc++] = p;
        }
        if (!nc) { fprintf(stderr, "kmodel: no route %d->%d\n", s, d); exit(2); }
        pr ^= pr >> 29; pr *= 0xbf58476d1ce4e5b9ULL; pr ^= pr >> 32;
        pick = rmode == 1 ? cand[pr % (uint64_t)nc] : cand[0];
        route[s][d][k++] = pick;
        if (!UP(c, nbr[c][pick])) ph = 1;
        c = nbr[c][pick];
      }
      rlen[s][d] = k;
    }
  }
  if (rmode == 3) { /* per destination host h: a switch that reaches h's
    switch going down only takes a shortest down-only path, any other
    climbs toward the fewest hops of a legal route; among c equal next
    hops (port order) the (h mod c)-th */
    int dd[MAXSW], ds[MAXSW], ord[MAXSW], h, j;
    for (j = 0; j < nsw; j++) ord[j] = j;
    for (a = 0; a < nsw; a++) /* sort by (level, id) */
      for (j = a + 1; j < nsw; j++)
        if (lvl[ord[j]] < lvl[ord[a]] || (lvl[ord[j]] == lvl[ord[a]] && ord[j] < ord[a])) {
          int x = ord[a]; ord[a] = ord[j]; ord[j] = x;
        }
    for (d = 0; d < nsw; d++) {
      for (s = 0; s < nsw; s++) dd[s] = -1;
      dd[d] = 0; qq[0] = d; a = 0; b = 1;
      while (a < b) { /* up from the leaf: the switches above reach it going down */
        s = qq[a++];
        for (p = NH; p < nport[s]; p++)
          if (UP(s, nbr[s][p]) && dd[nbr[s][p]] < 0) { dd[nbr[s][p]] = dd[s] + 1; qq[b++] = nbr[s][p]; }
      }
      for (j = 0; j < nsw; j++) {
        int m = 1 << 20;
        s = ord[j];
        if (dd[s] >= 0) { ds[s] = dd[s]; continue; }
        for (p = NH; p < nport[s]; p++)
          if (UP(s, nbr[s][p]) && ds[nbr[s][p]] + 1 < m) m = ds[nbr[s][p]] + 1;
        ds[s] = m;
      }
      for (h = d * NH; h < d * NH + NH; h++)
        for (s = 0; s < nsw; s++) {
          int cand[NPORT], nc = 0;
          if (s == d) { hop3[s][h] = (int8_t)(h % NH); continue; }
          for (p = NH; p < nport[s]; p++) {
            int n = nbr[s][p];
            if (dd[s] >= 0 ? !UP(s, n) && dd[n] == dd[s] - 1 : UP(s, n) && ds[n] == ds[s] - 1)
              cand[nc++] = p;
          }
          hop3[s][h] = (int8_t)cand[h % nc];
        }
    }
  }
#undef UP
  if (rmode == 2) balance();
}

static void topology(void) {
  int x, y, s, p;
  nsw = S * S; nh = nsw * NH;
  if (pattern == 1) { nsw = 1; nh = NH; }
  for (s = 0; s < nsw; s++) {
    nport[s] = nsw > 1 ? NPORT : NH;
    x = s % S; y = s / S;
    nbr[s][4] = y * S + (x + 1) % S; nbr[s][5] = y * S + (x + S - 1) % S;
    nbr[s][6] = ((y + 1) % S) * S + x; nbr[s][7] = ((y + S - 1) % S) * S + x;
  }
  for (s = 0; s < nsw; s++)
    for (p = NH; p < nport[s]; p++) nbrport[s][p] = p ^ 1; /* +x arrives on -x */
  routes();
}

/* worm bytes: code 0 idle, else 2 (worm + 1) + tail */
static int newworm(int m, int len) {
  int w = wnext, src = ms[m].src, dst = ms[m].dst, a = src / NH, b = dst / NH, k;
  Worm *W = &wm[w % POOL];
  wnext++;
  if (W->msg >= 0) { fprintf(stderr, "kmodel: worm pool full\n"); exit(2); }
  W->msg = m; W->hop = 0; W->nhop = rlen[a][b] + 1; W->rx = 0;
  W->last = ms[m].left == 0;
  if (rmode == 3) {
    int c = a;
    for (k = 0; c != b; k++) { W->port[k] = hop3[c][dst]; c = nbr[c][hop3[c][dst]]; }
    if (k != rlen[a][b]) { fprintf(stderr, "kmodel: route length\n"); exit(2); }
  } else
    for (k = 0; k < rlen[a][b]; k++) W->port[k] = (int8_t)route[a][b][k];
  W->port[k] = (int8_t)(dst % NH);
  W->len = len + hdr + hdrhop * W->nhop;
  return w % POOL;
}

static void enqueue(int h, int m, int pr) {
  ms[m].next = -1;
  if (hq[h][pr] < 0) hq[h][pr] = m; else ms[hqt[h][pr]].next = m;
  hqt[h][pr] = m;
}

static void newmsg(int h, long long t, int d, int pr, int len) {
  int m = mnext % POOL;
  Msg *M = &ms[m];
  if (M->used) { fprintf(stderr, "kmodel: message pool full\n"); exit(2); }
  mnext++;
  memset(M, 0, sizeof *M);
  M->seq = mnext; M->used = 1; M->src = h; M->dst = d; M->prio = pr; M->gen = (double)t;
  M->len = M->left = len; M->first = M->lasthead = M->done = -1;
  M->measured = ntr || (t >= warm && t < T);
  outstanding += M->measured;
  if (pr) M->seg = M->len;
  else if (adaptive) M->seg = slack * (rlen[h / NH][d / NH] + 1);
  else M->seg = seg;
  enqueue(h, m, pr);
}

static void arrive(int h, long long t) {
  int d, pr, len;
  if (pattern == 1) {
    d = 2; pr = h == 0;
  } else {
    d = (int)(urand(h) * (nh - 1)); if (d >= h) d++;
    pr = urand(h) < hfrac;
  }
  len = (int)ceil(-meanlen * log(1 - urand(h))); if (len < 1) len = 1;
  newmsg(h, t, d, pr, len);
}

/* the next worm a host sends, or -1: the first message of the highest
 * priority queued; with -o rr a low message that has segments left goes
 * to the back of its queue after each segment */
static int pickworm(int h) {
  int pr, m, len;
  for (pr = 1; pr >= 0; pr--) {
    if (hq[h][pr] < 0) continue;
    m = hq[h][pr];
    if (order_rr == 2) { /* -o ptr: the next queued message of this
      priority after the last one served (of either), in arrival order,
      cyclic */
      int c, best = -1, low = -1;
      for (c = hq[h][pr]; c >= 0; c = ms[c].next) {
        if (low < 0 || ms[c].seq < ms[low].seq) low = c;
        if (ms[c].seq > hlast[h] && (best < 0 || ms[c].seq < ms[best].seq)) best = c;
      }
      m = best >= 0 ? best : low;
      hlast[h] = ms[m].seq;
    }
    len = ms[m].left < ms[m].seg ? ms[m].left : ms[m].seg;
    ms[m].left -= len;
    if (order_rr == 2) {
      if (ms[m].left == 0) { /* unlink m */
        int *pp = &hq[h][pr], prev = -1;
        while (*pp != m) { prev = *pp; pp = &ms[*pp].next; }
        *pp = ms[m].next;
        if (hqt[h][pr] == m) hqt[h][pr] = prev;
      }
    } else if (ms[m].left == 0 || (order_rr && ms[m].next >= 0)) {
      hq[h][pr] = ms[m].next;
      if (hq[h][pr] < 0) hqt[h][pr] = -1;
      if (ms[m].left > 0) enqueue(h, m, pr);
    }
    return newworm(m, len);
  }
  return -1;
}


/* a byte reaches its destination host; the worms of a message take
 * one route and arrive in order */
static void deliver(int code, long long t) {
  int w = code / 2 - 1, tail = code & 1, m = wm[w].msg;
  Msg *M = &ms[m];
  if (wm[w].rx++ == 0 && wm[w].last) M->lasthead = t;
  if (t >= warm && t < T) sbytes[M->prio] += 1;
  if (tail) {
    int last = wm[w].last;
    wm[w].msg = -1;
    if (last) {
      M->done = t;
      if (ntr) printf("msg %d->%d prio %d len %d: gen %.0f first %lld lasthead %lld done %lld\n",
                      M->src, M->dst, M->prio, M->len, M->gen, M->first, M->lasthead, t + 1);
      if (M->measured) {
        sk[M->prio] += (double)(M->lasthead - M->first);
        sd[M->prio] += (double)(t + 1) - M->gen;
        sn[M->prio] += 1; outstanding--;
      }
      M->used = 0;
    }
  }
}

/* One byte (code c: worm * 2 + 2, plus 1 on its last byte) into input
   buffer B: it joins the buffer's last run of that worm, or starts one. */
static void take_byte(Inbuf *B, int c, long long t) {
  Run *R = B->qn ? &B->q[(B->qh + B->qn - 1) % 64] : NULL;
  if (!R || R->worm != c / 2 - 1 || R->tail) {
    if (B->qn == 64) { fprintf(stderr, "kmodel: run queue full\n"); exit(2); }
    R = &B->q[(B->qh + B->qn++) % 64]; R->worm = c / 2 - 1; R->n = 0;
    R->head = (int)t; R->tail = 0;
  }
  R->n++; R->tail = c & 1; B->occ++;
  if (B->occ > slack) { fprintf(stderr, "kmodel: slack overflow\n"); exit(2); }
}

static void step(long long t) {
  int s, p, h, i, r = (int)(t % wire), rc = (int)(t % (wire + 1));
  /* 1. arrivals at the far end of every link; stop signals reach senders */
  for (h = 0; h < nh; h++) {
    Link *L = &lk[h];
    int c = L->data[r];
    L->stop_seen = L->ctl[rc];
    if (c) take_byte(&in[h / NH][h % NH], c, t); /* into the switch's host port */
    L->data[r] = 0;
  }
  for (h = 0; h < nh; h++) {
    Link *L = &lk[nh + h];
    int c = L->data[r];
    if (c) deliver(c, t);
    L->data[r] = 0;
  }
  for (s = 0; s < nsw; s++)
    for (p = NH; p < nport[s]; p++) {
      Link *L = &lk[linkid_out(s, p)];
      int c = L->data[r], n = nbr[s][p];
      L->stop_seen = L->ctl[rc];
      if (c) take_byte(&in[n][nbrport[s][p]], c, t);
      L->data[r] = 0;
    }
  /* 2. free outputs go round robin to inputs whose first worm's head waits */
  for (s = 0; s < nsw; s++)
    for (p = 0; p < nport[s]; p++) {
      if (outheld[s][p] >= 0) continue;
      for (i = 1; i <= nport[s]; i++) {
        int j = (rrptr[s][p] + i) % nport[s];
        Inbuf *B = &in[s][j];
        Worm *W;
        if (B->out >= 0 || !B->qn || B->q[B->qh].head < 0) continue;
        if (t < (long long)B->q[B->qh].head + fwd) continue;
        W = &wm[B->q[B->qh].worm];
        if (W->port[W->hop] != p) continue;
        B->out = p; outheld[s][p] = j; rrptr[s][p] = j;
        B->q[B->qh].head = -1; W->hop++;
        break;
      }
    }
  /* 3. every held output forwards one byte unless stopped */
  for (s = 0; s < nsw; s++)
    for (p = 0; p < nport[s]; p++) {
      int j = outheld[s][p], lid = linkid_out(s, p), c;
      Inbuf *B;
      Run *R;
      if (j < 0) continue;
      if (p >= NH && lk[lid].stop_seen) continue;
      B = &in[s][j]; R = &B->q[B->qh];
      if (!B->qn || R->n == 0) continue;
      R->n--; B->occ--;
      c = 2 * (R->worm + 1) + (R->n == 0 && R->tail);
      lk[lid].data[r] = c;
      if (c & 1) { /* tail left: free the output, drop the run */
        outheld[s][p] = -1; B->out = -1; B->qh = (B->qh + 1) % 64; B->qn--;
      }
    }
  /* 4. hosts: new messages, then one byte each unless stopped */
  for (h = 0; h < nh; h++) {
    while (ntr && h == 0 && itr < ntr && tr[itr].t <= t) {
      newmsg(tr[itr].src, t, tr[itr].dst, tr[itr].prio, tr[itr].len);
      itr++;
    }
    while (!ntr && nextarr[h] <= (double)t) {
      if (pattern != 1 || h < 2) arrive(h, t);
      nextarr[h] += -meanlen / load * log(1 - urand(h));
    }
    if (lk[h].stop_seen && !commit) continue;
    if (hcur[h] < 0) {
      hcur[h] = pickworm(h); hsent[h] = 0;
      if (hcur[h] < 0) continue;
      if (commit > 1 && ms[wm[hcur[h]].msg].first < 0) ms[wm[hcur[h]].msg].first = t;
    }
    if (lk[h].stop_seen) continue;
    {
      Worm *W = &wm[hcur[h]];
      Msg *M = &ms[W->msg];
      if (hsent[h] == 0 && M->first < 0) M->first = t;
      hsent[h]++;
      lk[h].data[r] = 2 * (hcur[h] + 1) + (hsent[h] == W->len);
      if (hsent[h] == W->len) hcur[h] = -1;
    }
  }
  /* 5. slack buffers set STOP/GO for their senders */
  for (s = 0; s < nsw; s++)
    for (p = 0; p < nport[s]; p++) {
      Inbuf *B = &in[s][p];
      int lid = p < NH ? s * NH + p : linkid_out(nbr[s][p], nbrport[s][p]);
      if (B->occ >= stopm) B->stop = 1;
      else if (B->occ <= gom) B->stop = 0;
      lk[lid].ctl[rc] = (char)B->stop;
    }
}

static void usage(void) {
  fprintf(stderr,
    "usage: kmodel [options]   (a 3x3 torus, 4 hosts per switch, load 0.2, 30%% high)\n"
    "  -n N       torus side (1..8) [3]           -2   two hosts to one (one switch)\n"
    "  -l X       offered load per host [0.2]     -p X high-priority share [0.3]\n"
    "  -s L       low-priority segment bytes; 0 whole, -1 adaptive B x h [250]\n"
    "  -b B       slack buffer bytes [80]         -w D link delay, byte times [10]\n"
    "  -S n, -G n STOP and GO marks [B - 2D, 2D]  -f n routing delay, byte times [0]\n"
    "  -u host|pair|random|balanced  up/down tie-breaks [host]: equal next hops\n"
    "             by destination host mod their count (ibcc's builder), the first\n"
    "             in port order per switch pair, random per pair, or balanced\n"
    "  -r S       up/down root switch [0]\n"
    "  -o ptr|rr|fifo  host order within a priority [ptr]: the next queued\n"
    "             message after the last served (ibcc's round robin over flows),\n"
    "             rotate after each segment, or a message's segments back to back\n"
    "  -k 0|1     a host takes its next worm under STOP [1, as ibcc]\n"
    "  -I         and the worm enters the network then (ibcc before the fix)\n"
    "  -H n, -h n extra bytes per worm, and per switch crossed [0, 0]\n"
    "  -t ms, -W ms  run and warm-up [50, 5]      -x N seed [0]\n"
    "  -T FILE    a trace instead (lines: byte-time src dst prio bytes)\n"
    "  -v         route statistics on stderr\n"
    "prints: size,load,seg,slack,kd_high_us,kd_low_us,d_high_us,d_low_us,"
    "acc_high,acc_low,n_high,n_low\n"
    "(kd: [K]'s delay, first segment leaving its host to the head of the last\n"
    "one arriving; d: generation to last byte; acc: delivered per host, links)\n");
  exit(1);
}

int main(int argc, char **argv) {
  int i, h, s, p, seed = 0;
  double tms = 50, wms = 5;
  long long t;
  S = 3;
  for (i = 1; i < argc; i++) {
    char *a = argv[i];
    if (a[0] != '-' || !a[1] || a[2]) usage();
    if (a[1] == '2') { pattern = 1; continue; }
    if (a[1] == 'v') { verbose = 1; continue; }
    if (a[1] == 'I') { commit = 2; continue; }
    if (i + 1 >= argc) usage();
    switch (a[1]) {
    case 'n': S = atoi(argv[++i]); break;
    case 'l': load = atof(argv[++i]); break;
    case 's': seg = atoi(argv[++i]); break;
    case 'b': slack = atoi(argv[++i]); break;
    case 'S': stopm = atoi(argv[++i]); break;
    case 'G': gom = atoi(argv[++i]); break;
    case 'w': wire = atoi(argv[++i]); break;
    case 'r': root = atoi(argv[++i]); break;
    case 'o': i++;
      if (!strcmp(argv[i], "fifo")) order_rr = 0;
      else if (!strcmp(argv[i], "rr")) order_rr = 1;
      else if (!strcmp(argv[i], "ptr")) order_rr = 2;
      else usage();
      break;
    case 'u': i++;
      if (!strcmp(argv[i], "pair")) rmode = 0;
      else if (!strcmp(argv[i], "random")) rmode = 1;
      else if (!strcmp(argv[i], "balanced")) rmode = 2;
      else if (!strcmp(argv[i], "host")) rmode = 3;
      else usage();
      break;
    case 'k': commit = atoi(argv[++i]) != 0; break;
    case 'H': hdr = atoi(argv[++i]); break;
    case 'h': hdrhop = atoi(argv[++i]); break;
    case 'f': fwd = atoi(argv[++i]); break;
    case 'p': hfrac = atof(argv[++i]); break;
    case 't': tms = atof(argv[++i]); break;
    case 'W': wms = atof(argv[++i]); break;
    case 'x': seed = atoi(argv[++i]); break;
    case 'T': {
      FILE *fp = fopen(argv[++i], "r");
      if (!fp) usage();
      while (ntr < 4096 && fscanf(fp, "%lld %d %d %d %d", &tr[ntr].t, &tr[ntr].src,
                                 &tr[ntr].dst, &tr[ntr].prio, &tr[ntr].len) == 5) ntr++;
      fclose(fp);
      break;
    }
    default: usage();
    }
  }
  if (S < 1 || S > 8 || load <= 0 || load > 1 || slack < 2 * wire + 1 || wire < 1
      || seg < -1 || hfrac < 0 || hfrac > 1 || fwd < 0 || hdr < 0 || hdrhop < 0) usage();
  if (seg == 0) seg = 1 << 30;
  if (seg < 0) adaptive = 1;
  if (stopm < 0) stopm = slack - 2 * wire; /* fills the buffer exactly */
  if (gom < 0) gom = 2 * wire;             /* drains it exactly */
  topology();
  if (root >= nsw) usage();
  if (verbose) { /* route lengths and the busiest link under uniform traffic */
    int a, b, k, hist[MAXHOP + 1] = {0};
    static double ld[MAXSW][NPORT];
    double mx = 0, pairs = 0, sum = 0;
    for (a = 0; a < nsw; a++)
      for (i = 0; i < nh; i++) { /* from switch a's hosts to host i */
        int c = a, w = a == i / NH ? NH - 1 : NH;
        b = i / NH;
        hist[rlen[a][b] + 1] += w; pairs += w; sum += w * (rlen[a][b] + 1);
        for (k = 0; k < rlen[a][b]; k++) {
          int q = rmode == 3 ? hop3[c][i] : route[a][b][k];
          ld[c][q] += (double)w / (nh - 1);
          c = nbr[c][q];
        }
      }
    for (a = 0; a < nsw; a++)
      for (k = NH; k < nport[a]; k++) if (ld[a][k] > mx) mx = ld[a][k];
    fprintf(stderr, "switches crossed: mean %.3f;", sum / pairs);
    for (k = 1; k <= MAXHOP; k++) if (hist[k]) fprintf(stderr, " %d:%.4f", k, hist[k] / pairs);
    fprintf(stderr, "; busiest switch link carries %.4f x the per-host load\n", mx);
  }
  T = (long long)(tms * 1e6 / 12.5); warm = (long long)(wms * 1e6 / 12.5);
  if (warm >= T) usage();
  lk = calloc((size_t)(2 * nh + nsw * NPORT), sizeof *lk);
  for (i = 0; i < 2 * nh + nsw * NPORT; i++) {
    lk[i].data = calloc((size_t)wire, sizeof(int));
    lk[i].ctl = calloc((size_t)wire + 1, 1);
  }
  wm = malloc(POOL * sizeof *wm); ms = calloc(POOL, sizeof *ms);
  for (i = 0; i < POOL; i++) wm[i].msg = -1;
  for (s = 0; s < nsw; s++)
    for (p = 0; p < NPORT; p++) { in[s][p].out = -1; outheld[s][p] = -1; rrptr[s][p] = 0; }
  for (h = 0; h <= nh; h++) rs[h] = 0x243f6a8885a308d3ULL ^ ((uint64_t)(seed + 1) << 32) ^ (uint64_t)(h + 1) * 0x9e3779b97f4a7c15ULL;
  for (h = 0; h < nh; h++) {
    urand(h); urand(h);
    hq[h][0] = hq[h][1] = -1; hcur[h] = -1;
    nextarr[h] = -meanlen / load * log(1 - urand(h));
  }
  if (ntr) { load = 1e-9; T = 1; warm = 0; for (h = 0; h < nh; h++) nextarr[h] = 1e300; }
  for (t = 0; t < T || (outstanding > 0 && t < 3 * T) || (ntr && (itr < ntr || outstanding > 0)); t++) step(t);
  {
    double us = 12.5e-3, win = (double)(T - warm);
    char sg[16];
    if (adaptive) strcpy(sg, "adaptive");
    else if (seg >= 1 << 30) strcpy(sg, "whole");
    else sprintf(sg, "%d", seg);
    printf("%d,%g,%s,%d,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.0f,%.0f\n", S, load,
           sg, slack,
           sn[1] ? sk[1] / sn[1] * us : 0, sn[0] ? sk[0] / sn[0] * us : 0,
           sn[1] ? sd[1] / sn[1] * us : 0, sn[0] ? sd[0] / sn[0] * us : 0,
           sbytes[1] / win / (pattern ? 1 : nh), sbytes[0] / win / (pattern ? 1 : nh),
           sn[1], sn[0]);
  }
  return 0;
}
