/* ibcc ns-3 model: which rank of a distributed (MPI) run simulates which
   node of a k-ary fat tree. SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_PARTITION_H
#define IBCC_NS3_PARTITION_H

#include <cstdint>
#include <string>

namespace ns3
{

/* A k-ary fat tree (k even): k pods, each with k/2 leaf switches (k/2
   hosts each) and k/2 aggregation switches, and (k/2)^2 core switches;
   k^3/4 hosts. Hosts, leaves, aggregation and core switches are numbered
   from 0 in that order of pods (host h is under leaf h / (k/2), leaf e and
   aggregation switch a are in pod e / (k/2) and a / (k/2)).

   Policies (a node's rank is its ns-3 system id; a node must be created
   with it, so the partition comes before the topology):
     pod     whole pods in contiguous blocks of ranks (pod p on rank
             p * ranks / k), core switches in blocks: only the pod-core
             links cross ranks; the natural choice while ranks <= k
     leaf    leaf groups (a leaf switch and its hosts) in contiguous
             blocks, aggregation and core switches in blocks of their own:
             the same as pod while ranks divides k, finer beyond (ranks up
             to k^2/2)
     switch  every switch with its hosts is one unit, dealt round robin
             over the ranks (leaves, then aggregation, then core
             switches): equal switch counts per rank whatever the
             traffic, for a uniformly loaded fabric, at the price of
             cutting nearly every switch-switch link
   Hosts always stay with their leaf switch: a host link never crosses
   ranks. */
class IbccFatTreePartition
{
  public:
    enum Policy
    {
        POD,
        LEAF,
        SWITCH
    };

    /* k even, 2..58 (at most 48778 hosts: LIDs are 16 bits); ranks >= 1. Returns false (and leaves the object
       unusable) with the reason in *why when they do not fit. */
    bool Init(uint32_t k, uint32_t ranks, Policy policy, std::string* why);
    static bool ParsePolicy(const std::string& name, Policy* policy);

    uint32_t Hosts() const { return m_k * m_k * m_k / 4; }
    uint32_t Leaves() const { return m_k * m_k / 2; }
    uint32_t Aggs() const { return m_k * m_k / 2; }
    uint32_t Cores() const { return m_k * m_k / 4; }

    uint32_t Host(uint32_t h) const { return Leaf(h / (m_k / 2)); }
    uint32_t Leaf(uint32_t e) const;
    uint32_t Agg(uint32_t a) const;
    uint32_t Core(uint32_t c) const;

  private:
    uint32_t m_k = 0;
    uint32_t m_ranks = 1;
    Policy m_policy = POD;
};

} // namespace ns3

#endif /* IBCC_NS3_PARTITION_H */
