#include "ibccsim.h"
/* ---- law-table ------------------------------------------------------------ */
/* ---- law-table: a law compiled to TABLE form ----------------------------- */
typedef struct lt_opts {
    int law, rates, emit, is_static;
    double rmin, m;
    unsigned long long div, size;
    const char *name;
} lt_opts;

#define OPT_T lt_opts
static const opt lt_opt[] = {
    OPT_LAW("law", law, NULL, NULL, "kind (required)"),
    {"rmin", OT_DOUBLE, OPT_F(rmin), 1.0 / 65536.0, 1.0, NULL, "X", NULL, NULL,
     "Rmin / Rmax, below 1 (decimal or C hex\nfloat; the IPD set needs >= 1/256)",
     "1/256", NULL, OPT_HI_OPEN, NULL, NULL, NULL},
    OPT_U64("rmin-div", div, 2, 65536, "D", NULL, NULL, "Rmin = Rmax / D, instead of --rmin"),
    {"m", OT_DOUBLE, OPT_F(m), 1.0, 65536.0, NULL, "M", NULL, NULL,
     "decrease factor; AIMD, FIMD", "2", NULL, OPT_LO_OPEN, NULL, NULL, NULL},
    OPT_CHOICE("rates", rates, "ipd|geometric", "ipd", "the table's rate set"),
    {"size", OT_U64, OPT_F(size), 2, 65536, NULL, "N", NULL, NULL,
     "entries of a geometric set", "256", NULL, 0, NULL, NULL, NULL},
    OPT_SWITCH("emit-c", emit, 1, "print the C file instead of the CSV"),
    OPT_TEXT("name", name, "NAME", "ibcc_rom_law",
             "prefix of the emitted C names (a C identifier,\nat most 64 characters)"),
    OPT_SWITCH("static", is_static, 1, "emitted objects are static (for #including the\n"
               "file into the one C file that uses it)"),
};
#undef OPT_T

const opt_cmd lt_cmd = {
    "law-table", "--law LAW [flags]",
    "Compiles a rate law in TABLE form (docs/law.md) and prints its entries:\n"
    "a CSV (index,rate_frac,next_on_mark,next_on_unmark,inc,gap_q16) or, with\n"
    "--emit-c, a C99 file for firmware: the entries as a const array, the\n"
    "description and an ibcc_law_rom to pass to ibcc_law_init_rom, which\n"
    "checks them and steps exactly as ibcc_law_init would have compiled them.\n"
    "The flags are the fields of ibcc_law_desc:\n",
    lt_opt, OPT_N(lt_opt), NULL, NULL, 0
};

static int cid_ok(const char *s)
{
    size_t i;
    if (!s || !*s || (s[0] >= '0' && s[0] <= '9') || strlen(s) > 64) return 0;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')
              || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')) return 0;
    return 1;
}

int cmd_law_table(int argc, char **argv)
{
    ibcc_law_desc ld;
    ibcc_law law;
    ibcc_law_rom rom;
    ibcc_law_entry e;
    ibcc_result r;
    unsigned long long div, size;
    double rmin, m;
    int kind, emit, is_static, geometric, have_rmin, rc;
    const char *name, *st;
    char kind_c[80];
    uint32_t k;
    void *mem;
    size_t ls;
    lt_opts o;
    memset(&o, 0, sizeof o);
    opt_defaults(&lt_cmd, &o);
    if ((rc = opt_parse(&lt_cmd, argc, argv, &o)) != 0) return rc == 1 ? 0 : 2;
    if (!cid_ok(o.name))
        return bad("--name", o.name, "a C identifier of at most 64 characters");
    div = o.div; size = o.size; rmin = o.rmin; m = o.m; kind = o.law;
    emit = o.emit; is_static = o.is_static; geometric = o.rates;
    have_rmin = opt_given("rmin"); name = o.name;
    if (!kind) {
        fprintf(stderr, "ibccsim law-table: --law is required\n");
        return 2;
    }
    if (have_rmin && div) {
        fprintf(stderr, "ibccsim law-table: give --rmin or --rmin-div, not both\n");
        return 2;
    }
    if (size && !geometric) {
        fprintf(stderr, "ibccsim law-table: --size applies to --rates geometric"
                " (the IPD set has one entry per IPD rate >= Rmin)\n");
        return 2;
    }
    memset(&ld, 0, sizeof ld);
    ld.kind = (ibcc_law_kind)kind;
    ld.form = IBCC_LAW_TABLE;
    ld.rmin = div ? 1.0 / (double)div : rmin;
    ld.m = m;
    ld.rates = geometric ? IBCC_LAW_RATES_GEOMETRIC : IBCC_LAW_RATES_IPD;
    ld.table_size = (uint32_t)size;
    r = ibcc_law_defaults(&ld);
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim law-table: law: %s (the IPD set needs Rmin >= 1/256)\n",
                ibcc_result_str(r));
        return 2;
    }
    if (ibcc_law_size(&ld, &ls) != IBCC_OK) ls = 0;
    mem = malloc(ls ? ls : 8);
    if (!mem || ibcc_law_init(&law, &ld, mem, ls) != IBCC_OK
        || ibcc_law_to_rom(&law, &rom) != IBCC_OK) {
        fprintf(stderr, "ibccsim law-table: cannot compile the law\n");
        free(mem);
        return 1;
    }
    if (!emit) {
        printf("index,rate_frac,next_on_mark,next_on_unmark,inc,gap_q16\n");
        for (k = 0; k < rom.n; k++) {
            ibcc_law_table_entry(&law, k, &e);
            printf("%lu,%.17g,%lu,%lu,%lu,%lu\n", (unsigned long)k, e.rate,
                   (unsigned long)e.next_on_mark, (unsigned long)e.next_on_unmark,
                   (unsigned long)e.inc, (unsigned long)e.gap_q16);
        }
        free(mem);
        return 0;
    }
    st = is_static ? "static " : "";
    /* the kind's enumerator: IBCC_LAW_ and its name in upper case */
    snprintf(kind_c, sizeof kind_c, "IBCC_LAW_%s", ibcc_law_kind_name(ld.kind));
    for (k = 9; kind_c[k]; k++)
        if (kind_c[k] >= 'a' && kind_c[k] <= 'z') kind_c[k] = (char)(kind_c[k] - 'a' + 'A');
    printf("/* Generated by: ibccsim law-table --law %s --rmin %a --m %a",
           ibcc_law_kind_name(ld.kind), ld.rmin, ld.m);
    if (geometric)
        printf(" --rates geometric --size %lu", (unsigned long)ld.table_size);
    printf(" --emit-c --name %s%s\n", name, is_static ? " --static" : "");
    printf("   (ibcc %s). A rate law in TABLE form compiled ahead of time:\n"
           "   %s law, Rmin/Rmax = %.17g, m = %.17g, %s rate set, %lu entries.\n"
           "   Load it with\n"
           "       ibcc_law law;\n"
           "       ibcc_result r = ibcc_law_init_rom(&law, &%s_rom);\n"
           "   which validates the description, every entry and the check word\n"
           "   (IBCC_ERR_MISMATCH if anything differs); the law then steps\n"
           "   exactly as ibcc_law_init would compile it. C99 (designated\n"
            "   initializers, hexadecimal floating constants: exact values).\n",
            ibcc_version(), ibcc_law_kind_name(ld.kind), ld.rmin, ld.m,
           geometric ? "geometric" : "IPD", (unsigned long)ld.table_size, name);
    if (is_static)
        printf("   Build: #include this file, after ibcc.h, in the one C file that\n"
               "   loads the law; it follows that file's profile. */\n");
    else
        printf("   Build: a translation unit of its own; it takes only types from\n"
               "   ibcc.h and, unless IBCC_FIRMWARE or ibcc.h came first, selects the\n"
               "   firmware profile, so it compiles freestanding as it is, e.g.\n"
               "       cc -std=c99 -Os -ffreestanding -I<ibcc.h's folder> -c %s.c\n"
               "   (-DIBCC_FIRMWARE is fine too); the firmware then declares\n"
               "       extern const ibcc_law_rom %s_rom;  */\n", name, name);
    printf("#if !defined(IBCC_H) && !defined(IBCC_FIRMWARE)\n"
           "#define IBCC_FIRMWARE\n"
           "#endif\n"
           "#include \"ibcc.h\"\n\n");
    if (!is_static)
        printf("extern const ibcc_law_desc %s_desc;\n"
               "extern const ibcc_law_rom %s_rom;\n\n", name, name);
    printf("%sconst ibcc_law_desc %s_desc = {\n"
           "    .kind = %s,\n"
           "    .form = IBCC_LAW_TABLE,\n"
           "    .rmin = %a, /* %.17g */\n"
           "    .m = %a, /* %.17g */\n"
           "    .rates = %s,\n"
           "    .table_size = %luu\n"
           "};\n\n", st, name, kind_c, ld.rmin, ld.rmin, ld.m, ld.m,
           geometric ? "IBCC_LAW_RATES_GEOMETRIC" : "IBCC_LAW_RATES_IPD",
           (unsigned long)ld.table_size);
    printf("/* {rate, inc (Q1.31), gap (Q16.16), next_on_mark, next_on_unmark} */\n"
           "static const ibcc_law_rom_entry %s_table[%lu] = {\n",
           name, (unsigned long)rom.n);
    for (k = 0; k < rom.n; k++) {
        const ibcc_law_rom_entry *t = rom.table + k;
        printf("    {%a, %luu, %luu, %u, %u}%s /* %lu */\n", t->rate,
               (unsigned long)t->inc, (unsigned long)t->gapq, (unsigned)t->mark,
               (unsigned)t->up, k + 1 < rom.n ? "," : "", (unsigned long)k);
    }
    printf("};\n\n%sconst ibcc_law_rom %s_rom = {\n"
           "    &%s_desc, %s_table, %luu, 0x%08lxu\n"
           "};\n", st, name, name, name, (unsigned long)rom.n,
           (unsigned long)rom.check);
    free(mem);
    return 0;
}

