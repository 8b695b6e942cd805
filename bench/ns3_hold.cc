// The hold model of bench/hold.h on ns-3's event schedulers, for a
// scheduler-versus-scheduler comparison with bench/bench_loop.c (ibcc).
// Built and run by bench/ns3.sh when ns-3's development files are
// installed (Debian: apt-get install libns3-dev).
//
// ns3_<sched>_hold_N<N>  (ns/event): drives a MapScheduler, HeapScheduler
//   or CalendarScheduler object directly. One event = RemoveNext() of the
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
// Same delay table, N values, warm-up, timed event counts and repetitions
// as the ibcc side (bench/hold.h); rows are appended to the CSV in argv[1].
#include "bench.h"
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include "hold.h"

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

template <class S>
static double sched_once(unsigned long n)
{
    ns3::Ptr<S> s = ns3::CreateObject<S>();
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

template <class F>
static void measure(const char *label, unsigned long n, F once)
{
    double v[16];
    int r, reps = hold_reps(n);
    char name[96];
    for (r = 0; r < reps; r++) v[r] = once(n);
    std::snprintf(name, sizeof name, "ns3_%s_hold_N%lu", label, n);
    bench_row(name, bench_median(v, reps), "ns/event");
    std::fflush(stdout);
}

int main(int argc, char **argv)
{
    int k;
    bench_open(argc, argv);
    hold_delays(delay_tab);
    ns3::Time::SetResolution(ns3::Time::PS);
    std::printf("ns-3 %s: hold model, same workload as loop_hold\n", NS3_VERSION_TEXT);
    for (k = 0; k < HOLD_NCOUNT; k++) {
        unsigned long n = hold_n[k];
        measure("map", n, sched_once<ns3::MapScheduler>);
        measure("heap", n, sched_once<ns3::HeapScheduler>);
        measure("calendar", n, sched_once<ns3::CalendarScheduler>);
        measure("sim_map", n, sim_once);
    }
    bench_close();
    return 0;
}
