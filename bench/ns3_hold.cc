// The hold model of bench/hold.h on ns-3's event schedulers, for a
// scheduler-versus-scheduler comparison with bench/bench_loop.c (ibcc).
// Built and run by bench/ns3.sh when ns-3's development files are
// installed (Debian: apt-get install libns3-dev).
//
// ns3_<sched>_hold_N<N>  (ns/event): drives a MapScheduler, HeapScheduler,
//   CalendarScheduler or CalendarScheduler with Reverse=true (buckets kept
//   in decreasing time order; "calendar_rev") object directly. One event = RemoveNext() of the
//   earliest event and Insert() of its successor at ts + delay with the
//   next uid (ns-3 breaks time ties by uid, i.e. FIFO, like ibcc). The
//   events carry no EventImpl: the scheduler only stores the pointer.
//   ibcc's figure in addition calls a callback per event, so the
//   comparison slightly favours ns-3.
// ns3_sim_map_hold_N<N>  (ns/event): the same model through the full
//   ns3::Simulator (default MapScheduler, picosecond resolution): each
//   event is a function scheduled with Simulator::Schedule, which allocates
//   an EventImpl. This is what an ns-3 model pays per event; it is not the
//   scheduler-only figure and is labelled separately.
//
// ns3proc_ibcc_hold_N<N>  (ns/event): ibcc's loop on the same workload in
//   this process. Every repetition runs ibcc, then each ns-3 scheduler, in
//   turn (interleaved), so that all of them see the same machine state;
//   ratio_ibcc_over_best_ns3_N<N> = ibcc / the fastest of the four
//   schedulers (medians; below 1: ibcc is faster).
// Same delay table, N values, warm-up, timed event counts and repetitions
// as bench/bench_loop.c (bench/hold.h); rows are appended to the CSV in
// argv[1].
#include "bench.h"
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include "hold.h"

#include <ns3/boolean.h>
#include <ns3/calendar-scheduler.h>
#include <ns3/heap-scheduler.h>
#include <ns3/map-scheduler.h>
#include <ns3/nstime.h>
#include <ns3/object.h>
#include <ns3/simulator.h>

#include <cstring>
#include <string>

#ifndef NS3_VERSION_TEXT
#define NS3_VERSION_TEXT "(version unknown)"
#endif

static ibcc_time delay_tab[HOLD_DELAYS];

// The scheduler objects: ns-3's defaults, and the calendar queue with its
// Reverse attribute set.
template <class S>
static ns3::Ptr<ns3::Scheduler> make_sched()
{
    return ns3::CreateObject<S>();
}
static ns3::Ptr<ns3::Scheduler> make_calendar_rev()
{
    return ns3::CreateObjectWithAttributes<ns3::CalendarScheduler>(
        "Reverse", ns3::BooleanValue(true));
}

static double sched_run(ns3::Ptr<ns3::Scheduler> s, unsigned long n)
{
    unsigned long m = hold_events(n), w = hold_warm(n), i;
    uint64_t next = 0;
    uint32_t uid = 0;
    double t0, t1;
    for (i = 0; i < n; i++) {
        ns3::Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = delay_tab[next++ & (HOLD_DELAYS - 1u)];
        ev.key.m_uid = uid++;
        ev.key.m_context = 0;
        s->Insert(ev);
    }
    for (i = 0; i < w; i++) {
        ns3::Scheduler::Event ev = s->RemoveNext();
        ev.key.m_ts += delay_tab[next++ & (HOLD_DELAYS - 1u)];
        ev.key.m_uid = uid++;
        s->Insert(ev);
    }
    t0 = bench_now_ns();
    for (i = 0; i < m; i++) {
        ns3::Scheduler::Event ev = s->RemoveNext();
        ev.key.m_ts += delay_tab[next++ & (HOLD_DELAYS - 1u)];
        ev.key.m_uid = uid++;
        s->Insert(ev);
    }
    t1 = bench_now_ns();
    BENCH_KEEP(s->PeekNext().key.m_ts);
    while (!s->IsEmpty()) s->RemoveNext();
    return (t1 - t0) / (double)m;
}

template <class S>
static double sched_once(unsigned long n)
{
    return sched_run(make_sched<S>(), n);
}
static double calendar_rev_once(unsigned long n)
{
    return sched_run(make_calendar_rev(), n);
}

// ---- ibcc's loop: hold_ibcc of bench/hold.h, as bench/bench_loop.c ---------
static void *ibcc_mem;
static size_t ibcc_len;

static double ibcc_once(unsigned long n)
{
    return hold_ibcc(ibcc_mem, ibcc_len, n, delay_tab);
}

// ---- full simulator ------------------------------------------------------
static unsigned long sim_done, sim_warm, sim_total;
static uint64_t sim_next;
static double sim_t0, sim_t1;

static void sim_hold()
{
    sim_done++;
    if (sim_done == sim_warm) sim_t0 = bench_now_ns();
    if (sim_done == sim_total) {
        sim_t1 = bench_now_ns();
        ns3::Simulator::Stop();
        return;
    }
    ns3::Simulator::Schedule(
        ns3::PicoSeconds(delay_tab[sim_next++ & (HOLD_DELAYS - 1u)]), &sim_hold);
}

static double sim_once(unsigned long n)
{
    unsigned long i, m = hold_events(n);
    sim_done = 0;
    sim_next = 0;
    sim_warm = hold_warm(n);
    sim_total = sim_warm + m;
    for (i = 0; i < n; i++)
        ns3::Simulator::Schedule(
            ns3::PicoSeconds(delay_tab[sim_next++ & (HOLD_DELAYS - 1u)]), &sim_hold);
    ns3::Simulator::Run();
    ns3::Simulator::Destroy();
    return (sim_t1 - sim_t0) / (double)m;
}

int main(int argc, char **argv)
{
    typedef double (*once_fn)(unsigned long);
    static const char *const label[] = {"ibcc", "map", "heap", "calendar",
                                        "calendar_rev", "sim_map"};
    static const once_fn once[] = {ibcc_once, sched_once<ns3::MapScheduler>,
        sched_once<ns3::HeapScheduler>, sched_once<ns3::CalendarScheduler>,
        calendar_rev_once, sim_once};
    const int nk = 6;
    ibcc_loop_desc d;
    int k;
    bench_open(argc, argv);
    hold_delays(delay_tab);
    ns3::Time::SetResolution(ns3::Time::PS);
    d.capacity = (uint32_t)hold_n[HOLD_NCOUNT - 1];
    if (ibcc_loop_size(&d, &ibcc_len) != IBCC_OK) return 1;
    ibcc_mem = std::malloc(ibcc_len);
    if (!ibcc_mem) return 1;
    std::printf("ns-3 %s: hold model, same workload as loop_hold; ibcc and every "
                "scheduler interleaved per repetition\n", NS3_VERSION_TEXT);
    for (k = 0; k < HOLD_NCOUNT; k++) {
        unsigned long n = hold_n[k];
        int reps = hold_reps(n), r, j;
        double v[6][16], med[6], best;
        char name[96];
        for (r = 0; r < reps; r++)
            for (j = 0; j < nk; j++) {
                v[j][r] = once[j](n);
                if (v[j][r] < 0) {
                    std::fprintf(stderr, "ns3_hold: %s failed at N=%lu\n", label[j], n);
                    return 1;
                }
            }
        for (j = 0; j < nk; j++) {
            med[j] = bench_median(v[j], reps);
            if (j == 0) std::snprintf(name, sizeof name, "ns3proc_ibcc_hold_N%lu", n);
            else std::snprintf(name, sizeof name, "ns3_%s_hold_N%lu", label[j], n);
            bench_row(name, med[j], "ns/event");
        }
        best = med[1];
        for (j = 2; j < 5; j++) if (med[j] < best) best = med[j];
        std::snprintf(name, sizeof name, "ratio_ibcc_over_best_ns3_N%lu", n);
        bench_row(name, med[0] / best, "ratio");
        std::fflush(stdout);
    }
    std::free(ibcc_mem);
    bench_close();
    return 0;
}
