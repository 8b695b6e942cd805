/* Laws loaded from tables compiled ahead of time (ibcc_law_init_rom)
   against the same laws compiled at init (ibcc_law_init), step for step.
   tests/firmware.sh generates the ROM files with
       ibccsim law-table ... --emit-c --static --name NAME > NAME.c
   and builds this program with -I on that directory (hosted, natively
   and under qemu-user on the cross targets):
     rom_lipd    LIPD, IPD rate set, Rmin = Rmax/256 (the default law)
     rom_lipd100 LIPD, IPD rate set, Rmin = Rmax/100
     rom_fimd    FIMD, geometric rate set of 64 entries
     rom_aimd    AIMD with m = 1.5, geometric set of 300, Rmin = 1/1000 */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>
#include "rom_lipd.c"
#include "rom_lipd100.c"
#include "rom_fimd.c"
#include "rom_aimd.c"

static const ibcc_law_rom *const roms[] = {
    &rom_lipd_rom, &rom_lipd100_rom, &rom_fimd_rom, &rom_aimd_rom
};
#define NROMS (sizeof roms / sizeof roms[0])

/* the same entries, field by field (the rate by its bits) */
static int same_entries(const ibcc_law *a, const ibcc_law *b)
{
    uint32_t i, bad = 0;
    if (a->n != b->n) return 0;
    for (i = 0; i < a->n; i++) {
        const ibcc_law_rom_entry *x = a->table + i, *y = b->table + i;
        uint64_t bx, by;
        memcpy(&bx, &x->rate, 8);
        memcpy(&by, &y->rate, 8);
        if (bx != by || x->inc != y->inc || x->gapq != y->gapq
            || x->mark != y->mark || x->up != y->up) bad++;
    }
    return bad == 0;
}

/* A ROM law and the law compiled at init from its description take the
   same random ACK stream (3 % marked, every fourth ACK sized) and agree
   on every state, gap, rate, IPD and byte rate after every ACK. */
static void test_rom_equals_init(void)
{
    size_t k;
    for (k = 0; k < NROMS; k++) {
        const ibcc_law_rom *rom = roms[k];
        ibcc_law a, b;
        ibcc_law_state sa, sb;
        ibcc_rng r;
        size_t len = t_size_law(rom->desc);
        void *mem = malloc(len);
        uint32_t check;
        long i, bad = 0;
        T_CHECK(mem != NULL);
        if (!mem) return;
        T_EQ(ibcc_law_init_rom(&a, rom), IBCC_OK);
        T_EQ(ibcc_law_init(&b, rom->desc, mem, len), IBCC_OK);
        T_EQU(ibcc_law_table_size(&a), rom->n);
        T_CHECK(same_entries(&a, &b));
        T_EQ(ibcc_law_rom_check(rom->desc, b.table, b.n, &check), IBCC_OK);
        T_EQU(check, rom->check);
        ibcc_rng_seed(&r, 1000u + k);
        for (i = 0; i < 300000; i++) {
            int marked = ibcc_rng_below(&r, 100) < 3;
            if (i % 4 == 3) {
                uint32_t w = (uint32_t)ibcc_rng_below(&r, 4u << 16);
                ibcc_law_on_ack_sized(&a, marked, w);
                ibcc_law_on_ack_sized(&b, marked, w);
            } else {
                ibcc_law_on_ack(&a, marked);
                ibcc_law_on_ack(&b, marked);
            }
            ibcc_law_get_state(&a, &sa);
            ibcc_law_get_state(&b, &sb);
            if (sa.index != sb.index || sa.acc != sb.acc) bad++;
            if (ibcc_law_gap(&a, 2048000) != ibcc_law_gap(&b, 2048000)) bad++;
            if (ibcc_law_gap(&a, UINT64_C(1) << 40) != ibcc_law_gap(&b, UINT64_C(1) << 40))
                bad++;
            if (ibcc_law_rate(&a) != ibcc_law_rate(&b)) bad++;
            if (ibcc_law_ipd(&a) != ibcc_law_ipd(&b)) bad++;
            if (ibcc_law_rate_bytes(&a, IBCC_GBYTES(25)) != ibcc_law_rate_bytes(&b, IBCC_GBYTES(25)))
                bad++;
            if (ibcc_law_at_max(&a) != ibcc_law_at_max(&b)) bad++;
        }
        T_EQ(bad, 0);
        free(mem);
    }
}

/* What ibcc_law_init_rom refuses, with nothing written to the law. */
static void test_rom_refused(void)
{
    static ibcc_law_rom_entry t[256];
    ibcc_law l, before;
    ibcc_law_rom rom;
    ibcc_law_desc d;
    uint32_t check;
    memset(&l, 0x5a, sizeof l);
    before = l;
    /* a flipped bit anywhere: the check word */
    memcpy(t, rom_lipd_table, sizeof t);
    t[200].gapq ^= 0x10000u;
    rom = rom_lipd_rom;
    rom.table = t;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    /* the check word recomputed over a broken shape: the shape test */
    T_EQ(ibcc_law_rom_check(rom.desc, t, 256, &rom.check), IBCC_OK);
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);       /* gap */
    memcpy(t, rom_lipd_table, sizeof t);
    t[5].mark = 256;                                             /* index */
    T_EQ(ibcc_law_rom_check(rom.desc, t, 256, &rom.check), IBCC_OK);
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    memcpy(t, rom_lipd_table, sizeof t);
    t[5].up = 6;                                                 /* moves down */
    T_EQ(ibcc_law_rom_check(rom.desc, t, 256, &rom.check), IBCC_OK);
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    memcpy(t, rom_lipd_table, sizeof t);
    t[9].rate = t[8].rate;                                       /* not decreasing */
    T_EQ(ibcc_law_rom_check(rom.desc, t, 256, &rom.check), IBCC_OK);
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    memcpy(t, rom_lipd_table, sizeof t);
    t[0].inc = 1;                                                /* Rmax moves */
    T_EQ(ibcc_law_rom_check(rom.desc, t, 256, &rom.check), IBCC_OK);
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    memcpy(t, rom_lipd_table, sizeof t);
    t[7].inc = 0;                                                /* stuck, but moves */
    T_EQ(ibcc_law_rom_check(rom.desc, t, 256, &rom.check), IBCC_OK);
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    /* the table of another description */
    rom = rom_lipd_rom;
    d = *rom.desc;
    d.kind = IBCC_LAW_AIMD;
    rom.desc = &d;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    /* a count that is not the desc's table size */
    rom = rom_lipd_rom;
    rom.n = 255;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_law_rom_check(rom.desc, rom.table, 255, &check), IBCC_ERR_MISMATCH);
    /* not a table description; a bad description; NULLs */
    rom = rom_lipd_rom;
    d = *rom.desc;
    d.form = IBCC_LAW_DISCRETE;
    d.table_size = 0;
    d.rates = (ibcc_law_rates)0;
    rom.desc = &d;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_UNSUPPORTED);
    d = *rom_lipd_rom.desc;
    d.rmin = 2.0;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_RANGE);
    rom.desc = NULL;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_NULL);
    rom = rom_lipd_rom;
    rom.table = NULL;
    T_EQ(ibcc_law_init_rom(&l, &rom), IBCC_ERR_NULL);
    T_EQ(ibcc_law_init_rom(NULL, &rom_lipd_rom), IBCC_ERR_NULL);
    T_EQ(ibcc_law_init_rom(&l, NULL), IBCC_ERR_NULL);
    T_CHECK(memcmp(&l, &before, sizeof l) == 0);
    /* and the genuine one loads */
    T_EQ(ibcc_law_init_rom(&l, &rom_lipd_rom), IBCC_OK);
    T_EQU(ibcc_law_ipd(&l), 0);
}

/* ibcc_law_to_rom of a compiled law is what --emit-c printed. */
static void test_to_rom(void)
{
    size_t k;
    for (k = 0; k < NROMS; k++) {
        ibcc_law b, c;
        ibcc_law_rom out;
        size_t len = t_size_law(roms[k]->desc);
        void *mem = malloc(len);
        T_CHECK(mem != NULL);
        if (!mem) return;
        T_EQ(ibcc_law_init(&b, roms[k]->desc, mem, len), IBCC_OK);
        T_EQ(ibcc_law_to_rom(&b, &out), IBCC_OK);
        T_EQU(out.check, roms[k]->check);
        T_EQU(out.n, roms[k]->n);
        T_CHECK(out.table == b.table && out.desc == &b.d);
        T_EQ(ibcc_law_init_rom(&c, &out), IBCC_OK);
        free(mem);
    }
}

int main(void)
{
    T_RUN(test_rom_equals_init);
    T_RUN(test_rom_refused);
    T_RUN(test_to_rom);
    return t_summary();
}
