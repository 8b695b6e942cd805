// embed_cpp.cc - ibcc inside a foreign C++ event loop.
//
// A simulator author's view: the event loop, the packets, the queues and
// the clock are all the simulator's own (here std::priority_queue and
// std::deque); ibcc supplies only the mechanisms, as pure state stepped
// from the simulator's callbacks:
//   - the switch output runs an IBA FECN marker (ibcc_marker, engine IBA),
//   - the destination applies the IBA echo rule (ibcc_dest: FECN -> BECN),
//   - each source paces its flow with the IBA CCT/CCTI agent (ibcc_cct).
//
// Model: four sources, each on its own switch input (a credit-limited
// input buffer of 8 packets), all sending 2068-byte packets to one output
// link of the same rate (1 GB/s): the output is oversubscribed 4:1.
// Replies take a fixed 1 us to come back. Run with and without the agent:
//   build/embed_cpp
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace {

struct Event {
    ibcc_time t;
    unsigned long long seq;              // FIFO among same-time events
    std::function<void()> run;
    bool operator<(const Event &o) const  // priority_queue is a max-heap
    {
        return t != o.t ? t > o.t : seq > o.seq;
    }
};

class Sim {
public:
    void at(ibcc_time t, std::function<void()> f) { q_.push(Event{t, seq_++, f}); }
    ibcc_time now() const { return now_; }
    void run_until(ibcc_time end)
    {
        while (!q_.empty() && q_.top().t <= end) {
            Event e = q_.top();
            q_.pop();
            now_ = e.t;
            e.run();
        }
        now_ = end;
    }
private:
    std::priority_queue<Event> q_;
    unsigned long long seq_ = 0;
    ibcc_time now_ = 0;
};

const unsigned kSources = 4, kOut = kSources, kBuf = 8;
const uint32_t kPkt = 2068;
const ibcc_time kReply = IBCC_US(1);

struct Packet { unsigned src; unsigned hdr; };

struct Result { double gbps[kSources]; double marked; double queue; unsigned ccti[kSources]; };

void fail(const char *what, ibcc_result r)
{
    std::fprintf(stderr, "embed_cpp: %s: %s\n", what, ibcc_result_str(r));
    std::exit(1);
}

Result run(bool with_cc, ibcc_time end)
{
    Sim sim;
    ibcc_time wire = 0;
    ibcc_result r = ibcc_wire_time(kPkt, IBCC_GBYTES(1), &wire);
    if (r != IBCC_OK) fail("wire time", r);

    // Switch-side marker: IBA engine on the output's queued data.
    ibcc_marker_desc md = ibcc_marker_desc();
    md.engine = IBCC_MARKER_IBA;
    md.ports = kSources + 1;
    md.in_capacity = kBuf;
    md.out_capacity = kBuf * kSources;
    md.iba_threshold = 10;                  // level = 32 * (16 - 10) / 16 = 12 packets
    md.iba_marking_rate = 4;                // mark one eligible packet in five
    // (IBCC_MARKER_IBA marks only while the output has credits: the root test.)
    size_t need = 0;
    if ((r = ibcc_marker_size(&md, &need)) != IBCC_OK) fail("marker size", r);
    std::vector<uint64_t> mmem(need / 8 + 1);
    ibcc_marker marker;
    if ((r = ibcc_marker_init(&marker, &md, mmem.data(), mmem.size() * 8)) != IBCC_OK)
        fail("marker", r);

    // Destination echo rule and the source agent ([G] defaults: quadratic
    // CCT, CCTI_Increase 1, CCTI_Timer 150 x 1.024 us, CCTI_Limit 127).
    ibcc_dest dest;
    ibcc_dest_desc dd = ibcc_dest_desc();
    dd.scheme = IBCC_DEST_IBA;
    if ((r = ibcc_dest_init(&dest, &dd)) != IBCC_OK) fail("dest", r);
    ibcc_cct_desc cd = ibcc_cct_desc();
    cd.flows = kSources;
    cd.port_rate = IBCC_GBYTES(1);
    cd.max_pkt_bytes = kPkt;
    if ((r = ibcc_cct_size(&cd, &need)) != IBCC_OK) fail("cct size", r);
    std::vector<uint64_t> cmem(need / 8 + 1);
    ibcc_cct cct;
    if ((r = ibcc_cct_init(&cct, &cd, cmem.data(), cmem.size() * 8)) != IBCC_OK)
        fail("cct", r);

    std::deque<Packet> outq;                 // FIFO order of arrival
    double queue_area = 0;                   // integral of outq.size() dt
    ibcc_time queue_t = 0;
    auto queue_mark = [&]() {
        queue_area += (double)outq.size() * (double)(sim.now() - queue_t);
        queue_t = sim.now();
    };
    unsigned credits[kSources];
    ibcc_time next_ok[kSources] = {0, 0, 0, 0};
    bool link_busy = false, pending[kSources] = {false, false, false, false};
    uint64_t delivered[kSources] = {0, 0, 0, 0}, marked = 0, total = 0;
    for (unsigned s = 0; s < kSources; s++) credits[s] = kBuf;

    std::function<void(unsigned)> try_send;
    std::function<void()> serve;

    serve = [&]() {                          // output link: one packet at a time
        if (link_busy || outq.empty()) return;
        queue_mark();
        Packet p = outq.front();
        outq.pop_front();
        link_busy = true;
        p.hdr |= ibcc_marker_depart(&marker, p.src, kOut, kPkt, p.hdr, 1);
        sim.at(sim.now() + wire, [&, p]() {
            link_busy = false;
            credits[p.src]++;                // input buffer slot frees
            delivered[p.src]++;
            total++;
            if (p.hdr & IBCC_FECN) marked++;
            unsigned ack = ibcc_dest_ack(&dest, p.hdr);
            sim.at(sim.now() + kReply, [&, ack, p]() {
                if (with_cc && (ibcc_dest_marks(&dest, ack) & IBCC_BECN))
                    ibcc_cct_on_becn(&cct, p.src, sim.now());
            });
            try_send(p.src);
            serve();
        });
    };

    try_send = [&](unsigned s) {             // greedy source s
        if (pending[s] || credits[s] == 0) return;
        ibcc_time t = sim.now() < next_ok[s] ? next_ok[s] : sim.now();
        pending[s] = true;
        sim.at(t, [&, s]() {
            pending[s] = false;
            if (credits[s] == 0) return;
            credits[s]--;
            // start-to-start interval from CCT[CCTI] (0 delay at CCTI 0)
            next_ok[s] = sim.now() + (with_cc ? ibcc_cct_interval(&cct, s, sim.now(), wire) : wire);
            Packet p = {s, 0};
            p.hdr |= ibcc_marker_arrive(&marker, s, kOut, kPkt);
            sim.at(sim.now() + wire, [&, p]() {  // tail arrives (store-and-forward)
                queue_mark();
                outq.push_back(p);
                serve();
            });
            try_send(s);
        });
    };

    for (unsigned s = 0; s < kSources; s++) try_send(s);
    sim.run_until(end);

    Result res;
    for (unsigned s = 0; s < kSources; s++) {
        res.gbps[s] = (double)delivered[s] * kPkt * 8.0 / ((double)end / 1e3);
        res.ccti[s] = ibcc_cct_ccti(&cct, s, end);
    }
    res.marked = total ? (double)marked / (double)total : 0.0;
    queue_mark();
    res.queue = queue_area / (double)end;
    return res;
}

} // namespace

int main()
{
    const ibcc_time end = IBCC_MS(20);
    for (int cc = 0; cc < 2; cc++) {
        Result r = run(cc != 0, end);
        std::printf("%-8s", cc ? "CC on" : "CC off");
        for (unsigned s = 0; s < kSources; s++) std::printf("  src%u %.2f Gb/s", s, r.gbps[s]);
        std::printf("  mean queue %.1f pkts  marked %.1f%%  CCTI", r.queue, 100.0 * r.marked);
        for (unsigned s = 0; s < kSources; s++) std::printf(" %u", r.ccti[s]);
        std::printf("\n");
    }
    return 0;
}
