/* Fuzz harness: dual-priority segmentation (ibcc_segment).

   Input: a sequence of descriptions (fixed length, slack, adaptive flag;
   any values), each followed by messages (size up to 2^64 - 1, priority
   of any int value, hop count).

   The reference: high priority (IBCC_SEGMENT_HIGH) is never cut; low
   priority (any other value) is cut at L = seg_bytes, or with the
   adaptive rule L = slack_bytes * max(hops, 1) computed in 64 bits; a
   message of M bytes gives ceil(M / L) segments, full ones first, then
   the remainder; M = 0 gives none. The host picks a waiting high worm
   before a low one, nothing while busy.

   Checked: init/defaults results and fields; ibcc_segment_len, _count,
   _adaptive_len against the reference; the iterator hands out exactly
   count segments (all of length L but the last, which is 1..L bytes),
   their sum is M, then 0 for ever (walked in full up to 4096 segments,
   else the first ones and the arithmetic); ibcc_segment_pick. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    unsigned descs = 0;
    fz_init(&f, data, size);
    while (fz_more(&f) && descs++ < 100u) {
        ibcc_segment_desc d;
        ibcc_segment s;
        ibcc_result got, want;
        uint32_t seg, slack;
        unsigned k, n;
        memset(&d, 0, sizeof d);
        d.seg_bytes = fz_u8(&f) < 64 ? 0 : (fz_u8(&f) < 200 ? fz_range(&f, 1, 300) : fz_u32(&f));
        d.slack_bytes = fz_u8(&f) < 64 ? 0 : (fz_u8(&f) < 200 ? fz_range(&f, 1, 300) : fz_u32(&f));
        d.adaptive = fz_u8(&f) < 250 ? fz_u8(&f) & 1u : fz_u32(&f);
        if (fz_u8(&f) == 0) {                   /* NULL: every default */
            want = IBCC_OK;
            got = ibcc_segment_init(&s, NULL);
            memset(&d, 0, sizeof d);
        } else {
            ibcc_segment_desc c = d;
            want = d.adaptive > 1 ? IBCC_ERR_RANGE : IBCC_OK;
            got = ibcc_segment_init(&s, &d);
            FZ_CHECK(ibcc_segment_defaults(&c) == want, "defaults vs init");
        }
        FZ_CHECK(got == want, "segment_init %d, reference %d", (int)got, (int)want);
        if (got != IBCC_OK) continue;
        seg = d.seg_bytes ? d.seg_bytes : 100u;
        slack = d.slack_bytes ? d.slack_bytes : 80u;
        FZ_CHECK(s.adaptive == d.adaptive, "effective adaptive flag");
        FZ_CHECK(s.seg_bytes == seg && s.slack_bytes == slack, "effective lengths");
        n = fz_range(&f, 1, 16);
        for (k = 0; k < n; k++) {
            uint8_t h = fz_u8(&f);
            uint64_t m = h < 128 ? fz_u16(&f) : (h < 200 ? fz_u32(&f) : fz_u64(&f));
            int pri = fz_u8(&f) < 240 ? (int)(fz_u8(&f) & 1u) : (int)fz_u32(&f);
            uint32_t hops = fz_u8(&f) < 200 ? fz_range(&f, 0, 8) : fz_u32(&f);
            uint64_t L, cnt, seen = 0, sum = 0, x;
            ibcc_segment_iter it;
            if (pri == IBCC_SEGMENT_HIGH) L = IBCC_SEGMENT_WHOLE;
            else if (s.adaptive) L = (uint64_t)s.slack_bytes * (hops ? hops : 1u);
            else L = s.seg_bytes;
            FZ_CHECK(ibcc_segment_len(&s, pri, hops) == L, "len");
            FZ_CHECK(ibcc_segment_adaptive_len(s.slack_bytes, hops)
                     == (uint64_t)s.slack_bytes * (hops ? hops : 1u), "adaptive_len");
            cnt = m == 0 ? 0 : m / L + (m % L != 0);
            FZ_CHECK(ibcc_segment_count(&s, m, pri, hops) == cnt, "count of %llu at L %llu",
                     (unsigned long long)m, (unsigned long long)L);
            if (pri == IBCC_SEGMENT_HIGH) FZ_CHECK(cnt == (m != 0), "a high-priority message is one worm");
            ibcc_segment_begin(&it, &s, m, pri, hops);
            while (seen < 4096u && (x = ibcc_segment_next(&it)) != 0) {
                seen++;
                sum += x;
                FZ_CHECK(x <= L, "segment of %llu above L %llu", (unsigned long long)x,
                         (unsigned long long)L);
                if (seen < cnt) FZ_CHECK(x == L, "a segment before the last is not full");
                else FZ_CHECK(seen == cnt && x == m - (cnt - 1u) * L, "the last segment");
            }
            if (seen < 4096u) {
                FZ_CHECK(seen == cnt && sum == m, "segments %llu sum %llu, want %llu and %llu",
                         (unsigned long long)seen, (unsigned long long)sum,
                         (unsigned long long)cnt, (unsigned long long)m);
                FZ_CHECK(ibcc_segment_next(&it) == 0 && ibcc_segment_next(&it) == 0, "exhausted");
            } else {
                FZ_CHECK(cnt >= 4096u && it.left == m - sum, "iterator after 4096 segments");
            }
        }
        {
            int busy = fz_u8(&f) & 1, hi = fz_u8(&f) & 1, lo = fz_u8(&f) & 1;
            int w = busy ? IBCC_SEGMENT_PICK_NONE : hi ? IBCC_SEGMENT_HIGH
                  : lo ? IBCC_SEGMENT_LOW : IBCC_SEGMENT_PICK_NONE;
            FZ_CHECK(ibcc_segment_pick(busy, hi, lo) == w, "pick");
        }
    }
    return 0;
}
