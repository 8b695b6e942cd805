/* Mixed-language link test: this C++ translation unit uses ibcc through
   the header only, while the implementation and main() are compiled as C
   (tests/compile/main_impl.c). It links only if every declaration in the
   header has C linkage under C++ (the extern "C" block). */
#include "ibcc.h"
extern "C" int ibcc_compile_probe(void);
extern "C" int ibcc_compile_probe(void)
{
    ibcc_loop_desc d;
    size_t n = 0;
    ibcc_rng r;
    ibcc_time t = 0;
    d.capacity = 4;
    ibcc_rng_seed(&r, 1);
    if (ibcc_wire_time(2068, IBCC_GBITS(100), &t) != IBCC_OK || t != 165440u)
        return 0;
    return static_cast<int>(ibcc_loop_size(&d, &n) == IBCC_OK && n > 0)
         + static_cast<int>(ibcc_rng_below(&r, 2) < 2)
         + (ibcc_result_str(IBCC_OK)[0] == 'o');
}
