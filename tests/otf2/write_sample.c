/* Writes a small OTF2 archive (4 MPI ranks, nanosecond clock) for
   tests/otf2.sh: a ring of messages, one through a communicator whose
   group reverses the ranks, an empty message, a collective operation and
   two sends never received. Locations are numbered 100 + rank.
       write_sample DIR     -> DIR/sample.otf2 */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l,
                                void *cd, bool final)
{
    (void)u; (void)ft; (void)l; (void)cd; (void)final;
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
    (void)u; (void)ft; (void)l;
    return 0;
}

int main(int argc, char **argv)
{
    OTF2_FlushCallbacks fc;
    OTF2_Archive *a;
    OTF2_EvtWriter *w[4];
    OTF2_GlobalDefWriter *g;
    uint64_t locs[4] = {100, 101, 102, 103}, world[4] = {0, 1, 2, 3};
    uint64_t rev[4] = {3, 2, 1, 0}, nev[4];
    int r;
    if (argc != 2) return 1;
    fc.otf2_pre_flush = pre_flush;
    fc.otf2_post_flush = post_flush;
    a = OTF2_Archive_Open(argv[1], "sample", OTF2_FILEMODE_WRITE, 1024 * 1024,
                          4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                          OTF2_COMPRESSION_NONE);
    if (!a) return 1;
    OTF2_Archive_SetFlushCallbacks(a, &fc, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);
    OTF2_Archive_OpenEvtFiles(a);
    for (r = 0; r < 4; r++) w[r] = OTF2_Archive_GetEvtWriter(a, locs[r]);
    /* comm 0: world; comm 1: ranks reversed (its rank 1 is world 2) */
    OTF2_EvtWriter_MpiSend(w[0], NULL, 10, 1, 0, 5, 1000);
    OTF2_EvtWriter_MpiRecv(w[0], NULL, 2000, 3, 0, 5, 1000);
    OTF2_EvtWriter_MpiSend(w[0], NULL, 2500, 1, 1, 7, 64);
    OTF2_EvtWriter_MpiCollectiveEnd(w[0], NULL, 3000, OTF2_COLLECTIVE_OP_BARRIER,
                                    0, OTF2_UNDEFINED_UINT32, 0, 0);
    OTF2_EvtWriter_MpiRecv(w[1], NULL, 1200, 0, 0, 5, 1000);
    OTF2_EvtWriter_MpiSend(w[1], NULL, 1300, 2, 0, 5, 1000);
    OTF2_EvtWriter_MpiSend(w[1], NULL, 1400, 3, 0, 9, 0);
    OTF2_EvtWriter_MpiRecv(w[2], NULL, 1500, 1, 0, 5, 1000);
    OTF2_EvtWriter_MpiIsend(w[2], NULL, 1600, 3, 0, 5, 1000, 1);
    OTF2_EvtWriter_MpiIrecv(w[2], NULL, 2600, 3, 1, 7, 64, 2);
    OTF2_EvtWriter_MpiSend(w[2], NULL, 2700, 1, 0, 5, 200);
    OTF2_EvtWriter_MpiSend(w[2], NULL, 2800, 0, 0, 5, 300);
    OTF2_EvtWriter_MpiRecv(w[3], NULL, 1450, 1, 0, 9, 0);
    OTF2_EvtWriter_MpiRecv(w[3], NULL, 1700, 2, 0, 5, 1000);
    OTF2_EvtWriter_MpiSend(w[3], NULL, 1750, 0, 0, 5, 1000);
    for (r = 0; r < 4; r++) {
        OTF2_EvtWriter_GetNumberOfEvents(w[r], &nev[r]);
        OTF2_Archive_CloseEvtWriter(a, w[r]);
    }
    OTF2_Archive_CloseEvtFiles(a);
    OTF2_Archive_OpenDefFiles(a);
    for (r = 0; r < 4; r++)
        OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, locs[r]));
    OTF2_Archive_CloseDefFiles(a);
    g = OTF2_Archive_GetGlobalDefWriter(a);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000u, 0, 3000,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteString(g, 0, "");
    OTF2_GlobalDefWriter_WriteString(g, 1, "node");
    OTF2_GlobalDefWriter_WriteString(g, 2, "rank");
    OTF2_GlobalDefWriter_WriteString(g, 3, "thread");
    OTF2_GlobalDefWriter_WriteString(g, 4, "MPI_COMM_WORLD");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (r = 0; r < 4; r++) {
        OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)r, 2,
                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, locs[r], 3,
                OTF2_LOCATION_TYPE_CPU_THREAD, nev[r], (uint32_t)r);
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    4, locs);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    4, world);
    OTF2_GlobalDefWriter_WriteGroup(g, 2, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    4, rev);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 4, 1, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteComm(g, 1, 0, 2, 0, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_Close(a);
    return 0;
}
