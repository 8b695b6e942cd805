/* ibccsim's scenario files, version 2 (examples/ibccsim/scn.c): sections,
   traffic blocks, comments, lists and their cross product, overrides,
   paths against the file's folder, file reading refusals, [sm] from a
   real opensm.conf (OpenSM 3.3.23's `opensm -c` template, unchanged, and
   the example cluster's, CC on) with the file's own keys winning,
   [fabric] from ibnetdiscover, ibdiagnet folders and files, host lists;
   every error with its file:line. */
#define _XOPEN_SOURCE 700
#ifndef IBCC_TEST_LINKED
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include "../examples/ibccsim/scn.c"

static char here[512];          /* the repository root, "" = cwd */

static void root_init(void)
{
    const char *f = __FILE__, *slash = strrchr(f, '/');
    if (slash) snprintf(here, sizeof here, "%.*s/..", (int)(slash - f), f);
    else snprintf(here, sizeof here, "..");
}

static int parse(scn *s, const char *text, char *msg)
{
    return scn_parse(s, text, strlen(text), "dir/a.ini", msg, SCN_MSG);
}
static void bad(const char *text, const char *want)
{
    scn s;
    char msg[SCN_MSG];
    msg[0] = 0;
    if (!parse(&s, text, msg) || !strstr(msg, want))
        T_FAIL_("text \"%s\": got \"%s\", want \"%s\"", text, msg, want);
}

static void test_sections(void)
{
    scn s;
    char msg[SCN_MSG];
    const char *t =
        "# a study\n"
        "[fabric]\n"
        "topology = fattree   # k-ary n-tree\n"
        "k = 4 ; also a comment\n"
        "[traffic incast]\n"
        "pattern = incast\n"
        "src = 0-3\n"
        "[traffic bg]\n"
        "pattern = uniform\n"
        "load = 0.3\n"
        "[sm]\n"
        "cc_sw_cong_setting_threshold = {4, 8 ,15}\n"
        "[run]\n"
        "time = 2\n"
        "seed = {1,2}\n"
        "[output]\n"
        "directory = res#ults\n";
    T_EQ(parse(&s, t, msg), 0);
    T_EQ(s.v1, 0);
    T_EQU(s.n, 10);
    T_STREQ(scn_get(&s, "fabric", NULL, "topology"), "fattree");
    T_STREQ(scn_get(&s, "fabric", "", "k"), "4");
    T_STREQ(scn_get(&s, "traffic", "incast", "src"), "0-3");
    T_STREQ(scn_get(&s, "traffic", "bg", "load"), "0.3");
    T_CHECK(scn_get(&s, "traffic", "bg", "src") == NULL);
    T_STREQ(scn_get(&s, "output", NULL, "directory"), "res#ults");
    T_EQU(scn_find(&s, "traffic", "bg", "load")->line, 10);
    T_EQU(scn_find(&s, "sm", NULL, "cc_sw_cong_setting_threshold")->nitems, 3);
    T_STREQ(scn_get(&s, "sm", NULL, "cc_sw_cong_setting_threshold"), "4");
    T_STREQ(s.dir, "dir");
    scn_free(&s);
}

static void test_errors(void)
{
    bad("[nets]\n", "a.ini:1: unknown section [nets]");
    bad("[traffic]\n", "a.ini:1: [traffic NAME] needs a name");
    bad("[run x]\n", "a.ini:1: only [traffic NAME]");
    bad("[traffic a b]\n", "a.ini:1: a traffic name is");
    bad("[run\n", "a.ini:1: a section line");
    bad("[run]\ntime = 1\ntime = 2\n", "a.ini:3: time given twice in this section (also on line 2)");
    bad("[traffic a]\npattern=x\n[traffic a]\n", "a.ini:3: a second [traffic a] (its keys start on line 2)");
    bad("time = 1\n[run]\n", "a.ini:2: keys before the first [section] (line 1)");
    bad("[run]\ntime 1\n", "a.ini:2: expected key = value");
    bad("[run]\n = 1\n", "a.ini:2: a key before '='");
    bad("[run]\nti me = 1\n", "a.ini:2: a key is letters");
    bad("[run]\ntime =\n", "a.ini:2: time has no value");
    bad("[run]\ntime = {1, , 2}\n", "a.ini:2: an empty item in the list of time");
    bad("[run]\ntime = {1, {2}}\n", "a.ini:2: a list inside a list");
    bad("[run]\ntime = {1, 2\n", "a.ini:2: a list is {a, b, ...} on one line");
    {
        char t[1024];
        int i, u = snprintf(t, sizeof t, "[run]\nseed = {");
        for (i = 0; i < 65; i++) u += snprintf(t + u, sizeof t - (size_t)u, "%s%d", i ? "," : "", i);
        snprintf(t + u, sizeof t - (size_t)u, "}\n");
        bad(t, "a.ini:2: the list of seed has more than 64 items (refused, not cut)");
        t[u - 3] = '}';     /* 64 items: accepted */
    }
    {
        scn s;
        char msg[SCN_MSG];
        T_CHECK(scn_parse(&s, "[run]\0x", 7, "n.ini", msg, sizeof msg) != 0);
        T_CHECK(strstr(msg, "n.ini: a NUL byte") != NULL);
    }
}

static void test_v1(void)
{
    scn s;
    char msg[SCN_MSG];
    T_EQ(parse(&s, "experiment = gran\ncc = on\n", msg), 0);
    T_EQ(s.v1, 1);
    T_STREQ(scn_get(&s, "", NULL, "cc"), "on");
    T_EQ(scn_override(&s, "cc=off", msg, sizeof msg), 0);
    T_STREQ(scn_get(&s, "", NULL, "cc"), "off");
    T_EQ(scn_override(&s, "summary=x.csv", msg, sizeof msg), 0);
    T_STREQ(scn_get(&s, "", NULL, "summary"), "x.csv");
    scn_free(&s);
}

static void test_overrides_and_points(void)
{
    scn s;
    char msg[SCN_MSG], args[512];
    unsigned long i, n;
    T_EQ(parse(&s, "[sm]\nthreshold = {4, 8, 15}\n[run]\ntime = 2\nseed = 1\n"
               "[traffic a]\nload = 0.5\n[traffic b]\nload = 0.2\n", msg), 0);
    T_EQU(scn_points(&s, msg, sizeof msg), 3);
    T_EQ(scn_override(&s, "run.seed={1, 2}", msg, sizeof msg), 0);
    T_EQU(scn_points(&s, msg, sizeof msg), 6);
    T_EQ(scn_override(&s, "time=5", msg, sizeof msg), 0);   /* one section has it */
    T_STREQ(scn_get(&s, "run", NULL, "time"), "5");
    T_EQ(scn_override(&s, "traffic.b.load=0.4", msg, sizeof msg), 0);
    T_STREQ(scn_get(&s, "traffic", "b", "load"), "0.4");
    T_EQ(scn_override(&s, "traffic.b.start=1", msg, sizeof msg), 0);
    T_STREQ(scn_get(&s, "traffic", "b", "start"), "1");
    T_EQ(scn_override(&s, "output.directory=r2", msg, sizeof msg), 0);
    T_STREQ(scn_get(&s, "output", NULL, "directory"), "r2");
    T_CHECK(scn_override(&s, "load=0.1", msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "load is in several sections: write section.load") != NULL);
    T_CHECK(scn_override(&s, "warmup=1", msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "warmup is not in dir/a.ini: write section.warmup=value") != NULL);
    T_CHECK(scn_override(&s, "traffic.c.load=1", msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "no [traffic c]") != NULL);
    T_CHECK(scn_override(&s, "traffic.load=1", msg, sizeof msg) != 0);
    T_CHECK(scn_override(&s, "run.x=1\nk=2", msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "a value is one line") != NULL);
    T_CHECK(scn_override(&s, "run.a b=1", msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "a key is letters") != NULL);
    T_CHECK(scn_find(&s, "run", NULL, "x") == NULL);
    T_CHECK(scn_override(&s, "novalue", msg, sizeof msg) != 0);
    T_CHECK(scn_override(&s, "run.time={1,}", msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "override \"run.time={1,}\": an empty item") != NULL);
    /* the first list varies slowest */
    n = scn_points(&s, msg, sizeof msg);
    for (i = 0; i < n; i++) {
        scn_select(&s, i);
        T_STREQ(scn_get(&s, "sm", NULL, "threshold"), i < 2 ? "4" : i < 4 ? "8" : "15");
        T_STREQ(scn_get(&s, "run", NULL, "seed"), i % 2 ? "2" : "1");
    }
    scn_select(&s, 3);
    T_EQ(scn_point_args(&s, args, sizeof args), 0);
    T_STREQ(args, "sm.threshold=8 run.seed=2");
    T_STREQ(scn_find(&s, "run", NULL, "seed")->value, "1, 2");
    {   /* the point as a file: each block once, lists at their items */
        FILE *fp = tmpfile();
        static char back[4096];
        size_t bl;
        scn t;
        T_CHECK(fp != NULL);
        if (fp) {
            T_EQ(scn_write_point(&s, fp, msg, sizeof msg), 0);
            rewind(fp);
            bl = fread(back, 1, sizeof back - 1, fp);
            fclose(fp);
            back[bl] = 0;
            T_CHECK(strstr(back, "[traffic b]\nload = 0.4\nstart = 1\n") != NULL);
            T_CHECK(strstr(back, "[output]\ndirectory = .\n") != NULL);
            T_EQ(scn_parse(&t, back, bl, "b.ini", msg, sizeof msg), 0);
            T_STREQ(scn_get(&t, "sm", NULL, "threshold"), "8");
            T_STREQ(scn_get(&t, "run", NULL, "seed"), "2");
            T_STREQ(scn_get(&t, "traffic", "b", "start"), "1");
            scn_free(&t);
        }
    }
    T_EQ(scn_point_args(&s, args, 8), 1);
    T_EQ(scn_override(&s, "traffic.a.load={0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1}", msg, sizeof msg), 0);
    scn_select(&s, 59);
    T_EQ(scn_point_args(&s, args, sizeof args), 0);
    T_STREQ(args, "sm.threshold=15 run.seed=2 traffic.a.load=1");
    {
        T_EQ(scn_override(&s, "run.x0={1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
                          "22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40}", msg, sizeof msg), 0);
        T_EQ(scn_override(&s, "run.x1={1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
                          "22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40}", msg, sizeof msg), 0);
        T_EQU(scn_points(&s, msg, sizeof msg), 96000);  /* 60 x 40 x 40 */
        T_EQ(scn_override(&s, "run.x2={1,2}", msg, sizeof msg), 0);
        T_EQU(scn_points(&s, msg, sizeof msg), 0);      /* 192 000: refused */
        T_CHECK(strstr(msg, "more than 100000 points") != NULL);
    }
    scn_free(&s);
}

static void test_paths(void)
{
    scn s;
    char msg[SCN_MSG], out[256];
    T_EQ(scn_parse(&s, "[run]\n", 6, "/x/y/s.ini", msg, sizeof msg), 0);
    T_EQ(scn_path(&s, "f.topo", out, sizeof out), 0);
    T_STREQ(out, "/x/y/f.topo");
    T_EQ(scn_path(&s, "../f.topo", out, sizeof out), 0);
    T_STREQ(out, "/x/y/../f.topo");
    T_EQ(scn_path(&s, "/abs/f", out, sizeof out), 0);
    T_STREQ(out, "/abs/f");
    T_EQ(scn_path(&s, "f", out, 5), 1);
    T_EQ(scn_path(&s, "", out, sizeof out), 1);
    T_EQ(scn_parse(&s, "[run]\n", 6, "s.ini", msg, sizeof msg), 0);
    T_EQ(scn_path(&s, "f.topo", out, sizeof out), 0);
    T_STREQ(out, "f.topo");
    T_EQ(scn_parse(&s, "[run]\n", 6, "/s.ini", msg, sizeof msg), 0);
    T_EQ(scn_path(&s, "f", out, sizeof out), 0);
    T_STREQ(out, "//f");
}

static void test_read_file(void)
{
    char msg[SCN_MSG], path[600];
    size_t n = 0;
    char *t;
    FILE *fp;
    T_CHECK(scn_read_file(here, &n, msg, sizeof msg) == NULL);
    T_CHECK(strstr(msg, "a directory, not a file") != NULL);
    snprintf(path, sizeof path, "%s/no-such-file", here);
    T_CHECK(scn_read_file(path, &n, msg, sizeof msg) == NULL);
    T_CHECK(strstr(msg, "no-such-file: ") != NULL);
    snprintf(path, sizeof path, "/tmp/ibcc-scn-%ld.bin", (long)rand());
    fp = fopen(path, "wb");
    if (fp) {
        size_t i;
        for (i = 0; i < 300000; i++) fputc(i == 299990 ? 0 : 'a', fp);
        fclose(fp);
        T_CHECK(scn_read_file(path, &n, msg, sizeof msg) == NULL);
        T_CHECK(strstr(msg, "a NUL byte") != NULL);
        fp = fopen(path, "wb");
        for (i = 0; i < 300000; i++) fputc('b', fp);      /* no size limit */
        fclose(fp);
        t = scn_read_file(path, &n, msg, sizeof msg);
        T_CHECK(t != NULL);
        T_EQU(n, 300000);
        free(t);
        remove(path);
    }
}

static void test_sm(void)
{
    scn s;
    scn_sm sm;
    char msg[SCN_MSG], ini[1024], file[700];
    unsigned i;
    snprintf(file, sizeof file, "%s/tests/data/x.ini", here);
    /* the unchanged template: CC off, everything 0, other options listed */
    snprintf(ini, sizeof ini, "[sm]\nopensm_conf = opensm-3.3.23.conf\n");
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    memset(&sm, 0x11, sizeof sm);
    msg[0] = 0;
    T_EQ(scn_read_sm(&s, &sm, msg, sizeof msg), 0);
    if (msg[0]) fprintf(stderr, "%s\n", msg);
    T_EQ(sm.cc, 0);
    T_EQ(sm.sw_given, 1);
    T_EQ(sm.ca_given, 1);
    T_EQU(sm.sw.threshold, 0);
    T_EQU(sm.sw.control_map, 0);
    T_EQU(sm.ca.setting.port_control, 0);
    T_EQU(sm.ca.cct_len, 0);
    T_CHECK(strncmp(sm.skipped, "guid, m_key, m_key_lease_period", 31) == 0);
    T_CHECK(strstr(sm.skipped, "routing_engine") != NULL);
    T_CHECK(strstr(sm.skipped, "cc_key, cc_max_outstanding_mads") != NULL);
    /* qos and qos_* are read (qos FALSE here: one VL); the policy file is not */
    T_CHECK(strstr(sm.skipped, "qos_max_vls") == NULL);
    T_CHECK(strstr(sm.skipped, "qos_policy_file") != NULL);
    T_EQ(sm.qos_given, 1);
    T_EQ(sm.qos.qos, 0);
    T_CHECK(strstr(sm.skipped, "cc_sw_cong") == NULL && strstr(sm.skipped, "cc_ca_cong") == NULL);
    T_CHECK(strstr(sm.skipped, "congestion_control") == NULL);
    T_EQU(sm.nskipped, 118);   /* the distinct other option names of the file */
    scn_free(&s);
    /* the example cluster's: CC on, OpenSM's values; the file's keys win */
    snprintf(file, sizeof file, "%s/examples/cluster/x.ini", here);
    snprintf(ini, sizeof ini, "[sm]\nopensm_conf = opensm.conf\n");
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    T_EQ(scn_read_sm(&s, &sm, msg, sizeof msg), 0);
    T_EQ(sm.cc, 1);
    T_EQU(sm.sw.threshold, 15);
    T_EQU(sm.sw.packet_size, 8);
    T_EQU(sm.sw.control_map, 1);
    T_EQU(sm.ca.setting.control_map, 1);
    T_EQU(sm.ca.setting.sl[0].ccti_timer, 150);
    T_EQU(sm.ca.setting.sl[0].ccti_increase, 1);
    T_EQU(sm.ca.cct_len, 128);
    T_EQU(sm.ca.cct[127], 127);
    scn_free(&s);
    snprintf(ini, sizeof ini, "[sm]\nopensm_conf = opensm.conf\ncongestion_control = FALSE\n"
             "cc_sw_cong_setting_threshold = 4\ncc_ca_cong_setting_ccti_timer_sl0 = 300\n"
             "cc_ca_cong_setting_ccti_increase = 2\ncc_ca_cong_setting_ccti_min = 3 7\n");
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    memset(&sm, 0, sizeof sm);
    msg[0] = 0;
    T_EQ(scn_read_sm(&s, &sm, msg, sizeof msg), 0);
    if (msg[0]) fprintf(stderr, "%s\n", msg);
    T_EQ(sm.cc, 0);
    T_EQU(sm.sw.threshold, 4);
    T_EQU(sm.ca.setting.sl[0].ccti_timer, 300);
    for (i = 0; i < 16; i++) T_EQU(sm.ca.setting.sl[i].ccti_increase, 2);
    T_EQU(sm.ca.setting.sl[3].ccti_min, 7);
    T_EQU(sm.ca.setting.sl[2].ccti_min, 0);
    T_EQ(scn_override(&s, "sm.congestion_control=TRUE", msg, sizeof msg), 0);
    T_EQ(scn_read_sm(&s, &sm, msg, sizeof msg), 0);
    T_EQ(sm.cc, 1);
    T_EQ(scn_override(&s, "sm.cc_ca_cong_setting_ccti_timer_sl16=1", msg, sizeof msg), 0);
    T_CHECK(scn_read_sm(&s, &sm, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "override sm.cc_ca_cong_setting_ccti_timer_sl16: cc_ca_cong_setting_ccti_timer_sl16: the SL is 0..15") != NULL);
    scn_free(&s);
    snprintf(ini, sizeof ini, "[sm]\nrouting_engine = ftree\n");
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    T_CHECK(scn_read_sm(&s, &sm, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "x.ini:2: unknown key routing_engine in [sm]") != NULL);
    scn_free(&s);
    snprintf(ini, sizeof ini, "[sm]\ncc_sw_cong_setting_threshold = 16\n");
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    T_CHECK(scn_read_sm(&s, &sm, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "x.ini:2: a value out of range") != NULL);
    scn_free(&s);
    snprintf(ini, sizeof ini, "[sm]\ncongestion_control = maybe\n");
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    T_CHECK(scn_read_sm(&s, &sm, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "x.ini:2: congestion_control takes TRUE or FALSE") != NULL);
    scn_free(&s);
    /* a bad line in the conf: its own file and line */
    {
        char conf[700];
        FILE *fp;
        snprintf(conf, sizeof conf, "/tmp/ibcc-scn-%d.conf", (int)rand());
        fp = fopen(conf, "w");
        if (fp) {
            fputs("# x\nlog_flags 0x83\ncc_sw_cong_setting_threshold 0x1f\n", fp);
            fclose(fp);
            snprintf(ini, sizeof ini, "[sm]\nopensm_conf = %s\n", conf);
            T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
            T_CHECK(scn_read_sm(&s, &sm, msg, sizeof msg) != 0);
            T_CHECK(strstr(msg, ".conf:3: a value out of range") != NULL);
            scn_free(&s);
            remove(conf);
        }
    }
}

static void load(const char *ini, const char *dirfile, int want_ok, const char *want)
{
    scn s;
    ibcc_ibfabric ib;
    char msg[SCN_MSG], file[700], what[256];
    int r;
    snprintf(file, sizeof file, "%s/%s", here, dirfile);
    msg[0] = 0;
    T_EQ(scn_parse(&s, ini, strlen(ini), file, msg, sizeof msg), 0);
    r = scn_load_ibfabric(&s, &ib, what, msg, sizeof msg);
    if ((r == 0) != want_ok || (want && !strstr(want_ok ? what : msg, want)))
        T_FAIL_("%s: got %d \"%s\" / \"%s\", want \"%s\"", ini, r, msg, r ? "" : what, want ? want : "");
    if (r == 0) {
        T_EQU(ib.host_count, 8);
        T_EQU(ib.switch_count, 6);
        ibcc_ibfabric_free(&ib);
    }
    scn_free(&s);
}

static void test_fabric(void)
{
    scn s;
    char msg[SCN_MSG];
    T_EQ(parse(&s, "[fabric]\ntopology = fattree\n", msg), 0);
    T_EQ(scn_is_ibfabric(&s), 0);
    scn_free(&s);
    load("[fabric]\nibdiagnet = ibdiagnet\n", "examples/fabrics/s.ini", 1,
         "ibdiagnet/ibdiagnet2.lst + ");
    load("[fabric]\nibdiagnet = ibdiagnet/ibdiagnet2.db_csv\nfdbs = ibdiagnet/ibdiagnet2.fdbs\n",
         "examples/fabrics/s.ini", 1, "ibdiagnet2.db_csv + ");
    load("[fabric]\ndb_csv = fabrics/ibdiagnet/ibdiagnet2.db_csv\n", "examples/s.ini", 1,
         "(up/down routes)");
    load("[fabric]\nlst = ../fabrics/ibdiagnet/ibdiagnet2.lst\nfdbs = ../fabrics/ibdiagnet/ibdiagnet2.fdbs\n",
         "examples/cluster/s.ini", 1, "+");
    load("[fabric]\nibnetdiscover = fattree.topo\nlfts = fattree.lfts\n", "examples/fabrics/s.ini", 1,
         "fattree.topo + ");
    load("[fabric]\nibnetdiscover = fattree.topo\nlfts = fattree-loop.lfts\n", "examples/fabrics/s.ini", 0,
         "fattree-loop.lfts:15: the route to LID 17");
    load("[fabric]\nibnetdiscover = fattree.topo\nlst = x\n", "examples/fabrics/s.ini", 0,
         "names more than one of");
    load("[fabric]\nibnetdiscover = fattree.topo\nfdbs = x\n", "examples/fabrics/s.ini", 0,
         "fdbs goes with ibdiagnet, lst or db_csv");
    load("[fabric]\nibdiagnet = .\n", "examples/fabrics/s.ini", 0,
         "neither ibdiagnet2.lst nor ibdiagnet2.db_csv");
    load("[fabric]\nibdiagnet = fattree.topo\n", "examples/fabrics/s.ini", 0,
         "a folder, or a .lst or .db_csv file");
    load("[fabric]\nibnetdiscover = missing.topo\n", "examples/fabrics/s.ini", 0,
         "missing.topo: ");
    load("[fabric]\nibnetdiscover = ibdiagnet\n", "examples/fabrics/s.ini", 0,
         "a directory, not a file");
}

static void test_hosts(void)
{
    ibcc_ibfabric ib;
    ibcc_ibfabric_error e;
    uint32_t h[16], n = 0;
    char msg[SCN_MSG], path[700];
    size_t len = 0;
    char *t;
    T_EQ(scn_hosts("0, 3-5,7", 8, NULL, h, 16, &n, msg, sizeof msg), 0);
    T_EQU(n, 5);
    T_EQU(h[1], 3);
    T_EQU(h[3], 5);
    T_EQU(h[4], 7);
    T_EQ(scn_hosts("all", 8, NULL, h, 16, &n, msg, sizeof msg), 0);
    T_EQU(n, 8);
    T_CHECK(scn_hosts("8", 8, NULL, h, 16, &n, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "host 8: the hosts are 0..7") != NULL);
    T_CHECK(scn_hosts("5-3", 8, NULL, h, 16, &n, msg, sizeof msg) != 0);
    T_CHECK(scn_hosts("1,1", 8, NULL, h, 16, &n, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "host 1 given twice") != NULL);
    T_CHECK(scn_hosts("1,,2", 8, NULL, h, 16, &n, msg, sizeof msg) != 0);
    T_CHECK(scn_hosts("node01", 8, NULL, h, 16, &n, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "a built fabric's hosts are numbers 0..7") != NULL);
    T_CHECK(scn_hosts("all", 8, NULL, h, 4, &n, msg, sizeof msg) != 0);
    snprintf(path, sizeof path, "%s/examples/fabrics/fattree.topo", here);
    t = scn_read_file(path, &len, msg, sizeof msg);
    T_CHECK(t != NULL);
    if (!t) return;
    T_EQ(ibcc_ibfabric_parse(&ib, t, len, "f", NULL, &e), IBCC_OK);
    free(t);
    T_EQ(scn_hosts("node03 HCA-1, 0x0002c90300001072, 0", 8, &ib, h, 16, &n, msg, sizeof msg), 0);
    T_EQU(n, 3);
    T_EQU(h[0], 2);
    T_EQU(h[1], 7);
    T_EQU(h[2], 0);
    T_CHECK(scn_hosts("node09 HCA-1", 8, &ib, h, 16, &n, msg, sizeof msg) != 0);
    T_CHECK(strstr(msg, "no host \"node09 HCA-1\"") != NULL);
    ibcc_ibfabric_free(&ib);
}

int main(void)
{
    root_init();
    T_RUN(test_sections);
    T_RUN(test_errors);
    T_RUN(test_v1);
    T_RUN(test_overrides_and_points);
    T_RUN(test_paths);
    T_RUN(test_read_file);
    T_RUN(test_sm);
    T_RUN(test_fabric);
    T_RUN(test_hosts);
    return t_summary();
}
