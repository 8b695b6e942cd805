/* Fuzz harness: ECN marking and INT records (ibcc_ecn, ibcc_int_).

   Input: descriptions (Kmin, Kmax, Pmax; any values) each followed by
   queue lengths to mark, then INT pushes.

   The reference: the description is valid iff Kmin <= Kmax <= 2^40 and
   Pmax <= 10^6 after the defaults (5000, 200000, 10000 for zeros); the
   probability is 0 up to Kmin, Pmax (q - Kmin) / (Kmax - Kmin) ppm
   (floor) up to Kmax, 10^6 above; a mark draws from the stream exactly
   when 0 < p < 1 (one ibcc_rng_below(10^6 (Kmax - Kmin)) compared with
   Pmax (q - Kmin)), else it marks (p = 1) or not (p = 0) with the
   stream untouched. An INT record takes IBCC_INT_MAX_HOPS hops and
   counts the rest as dropped. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    unsigned descs = 0;
    ibcc_rng rng;
    fz_init(&f, data, size);
    ibcc_rng_seed(&rng, fz_u64(&f));
    while (fz_more(&f) && descs++ < 64u) {
        ibcc_ecn_desc d, c;
        ibcc_ecn e;
        ibcc_result want, got;
        uint64_t kmin, kmax;
        uint32_t pmax;
        unsigned k, n, sel = fz_u8(&f);
        memset(&d, 0, sizeof d);
        d.kmin = sel & 1u ? (sel & 2u ? fz_u64(&f) : fz_u32(&f) & 0xfffffu) : 0;
        d.kmax = sel & 4u ? (sel & 8u ? fz_u64(&f) : fz_u32(&f) & 0xfffffu) : 0;
        d.pmax = sel & 16u ? (sel & 32u ? fz_u32(&f) : fz_range(&f, 0, 1000000)) : 0;
        kmin = d.kmin ? d.kmin : 5000u;
        kmax = d.kmax ? d.kmax : 200000u;
        pmax = d.pmax ? d.pmax : 10000u;
        want = (kmax > (UINT64_C(1) << 40) || kmin > kmax || pmax > 1000000u)
               ? IBCC_ERR_RANGE : IBCC_OK;
        c = d;
        got = ibcc_ecn_init(&e, &d);
        FZ_CHECK(got == want, "ecn_init %d, reference %d", (int)got, (int)want);
        FZ_CHECK(ibcc_ecn_defaults(&c) == want, "defaults vs init");
        if (got != IBCC_OK) {
            FZ_CHECK(c.kmin == d.kmin && c.kmax == d.kmax && c.pmax == d.pmax,
                     "a refused desc is left as given");
            continue;
        }
        FZ_CHECK(e.kmin == kmin && e.kmax == kmax && e.pmax == pmax, "effective desc");
        n = fz_range(&f, 1, 32);
        for (k = 0; k < n; k++) {
            uint8_t h = fz_u8(&f);
            uint64_t q = h < 100 ? kmin + fz_u32(&f) % (kmax - kmin + 2u)
                       : h < 200 ? (uint64_t)fz_u32(&f) : fz_u64(&f);
            ibcc_rng ref = rng;
            unsigned m, wm;
            uint32_t ppm, wp;
            if (q <= kmin) { wp = 0; wm = 0; }
            else if (q > kmax) { wp = 1000000u; wm = IBCC_ECN; }
            else {
                uint64_t num = (uint64_t)pmax * (q - kmin), den = 1000000u * (kmax - kmin);
                wp = (uint32_t)(num / (kmax - kmin));
                wm = num >= den ? IBCC_ECN : (ibcc_rng_below(&ref, den) < num ? IBCC_ECN : 0u);
            }
            ppm = ibcc_ecn_prob_ppm(&e, q);
            FZ_CHECK(ppm == wp, "prob %u, reference %u", ppm, wp);
            m = ibcc_ecn_mark(&e, q, &rng);
            FZ_CHECK(m == wm, "mark %u, reference %u at q %llu", m, wm, (unsigned long long)q);
            FZ_CHECK(memcmp(&rng, &ref, sizeof rng) == 0, "draws as the reference");
        }
    }
    {
        ibcc_int_record r;
        unsigned k, n = fz_range(&f, 0, 20);
        ibcc_int_clear(&r);
        for (k = 0; k < n; k++) {
            ibcc_time ts = fz_u64(&f);
            uint64_t q = fz_u64(&f), tx = fz_u64(&f);
            ibcc_rate rt = fz_u64(&f);
            int ok = ibcc_int_push(&r, ts, q, tx, rt);
            FZ_CHECK(ok == (k < IBCC_INT_MAX_HOPS), "push %u", k);
            if (ok) FZ_CHECK(r.hop[k].ts == ts && r.hop[k].qlen == q && r.hop[k].tx_bytes == tx
                             && r.hop[k].rate == rt, "hop %u stamped", k);
        }
        FZ_CHECK(r.nhop == (n < IBCC_INT_MAX_HOPS ? n : IBCC_INT_MAX_HOPS), "nhop");
        FZ_CHECK(r.dropped == (n > IBCC_INT_MAX_HOPS ? n - IBCC_INT_MAX_HOPS : 0u), "dropped");
    }
    return 0;
}
