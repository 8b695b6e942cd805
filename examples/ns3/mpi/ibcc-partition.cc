/* ibcc ns-3 model: IbccFatTreePartition. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-partition.h"

namespace ns3
{

bool
IbccFatTreePartition::Init(uint32_t k, uint32_t ranks, Policy policy, std::string* why)
{
    m_k = 0;
    if (k < 2 || k > 58 || k % 2)
    {
        *why = "k must be even, 2 to 58 (k^3/4 hosts, each with a 16-bit LID)";
        return false;
    }
    if (ranks == 0)
    {
        *why = "no ranks";
        return false;
    }
    uint32_t units = policy == POD ? k : policy == LEAF ? k * k / 2 : k * k / 2 + k * k / 2 + k * k / 4;
    if (ranks > units)
    {
        *why = "more ranks than partition units (" + std::to_string(units) +
               (policy == POD ? " pods" : policy == LEAF ? " leaf groups" : " switches") + ")";
        return false;
    }
    m_k = k;
    m_ranks = ranks;
    m_policy = policy;
    return true;
}

bool
IbccFatTreePartition::ParsePolicy(const std::string& name, Policy* policy)
{
    if (name == "pod")
    {
        *policy = POD;
    }
    else if (name == "leaf")
    {
        *policy = LEAF;
    }
    else if (name == "switch")
    {
        *policy = SWITCH;
    }
    else
    {
        return false;
    }
    return true;
}

// blocks: unit i of n goes to rank i * ranks / n (contiguous, sizes differ
// by at most one)
static uint32_t
Block(uint32_t i, uint32_t n, uint32_t ranks)
{
    return static_cast<uint32_t>(uint64_t(i) * ranks / n);
}

uint32_t
IbccFatTreePartition::Leaf(uint32_t e) const
{
    switch (m_policy)
    {
    case POD:
        return Block(e / (m_k / 2), m_k, m_ranks);
    case LEAF:
        return Block(e, Leaves(), m_ranks);
    default:
        return e % m_ranks;
    }
}

uint32_t
IbccFatTreePartition::Agg(uint32_t a) const
{
    switch (m_policy)
    {
    case POD:
        return Block(a / (m_k / 2), m_k, m_ranks);
    case LEAF:
        return Block(a, Aggs(), m_ranks);
    default:
        return (Leaves() + a) % m_ranks;
    }
}

uint32_t
IbccFatTreePartition::Core(uint32_t c) const
{
    if (m_policy == SWITCH)
    {
        return (Leaves() + Aggs() + c) % m_ranks;
    }
    return Block(c, Cores(), m_ranks);
}

} // namespace ns3
