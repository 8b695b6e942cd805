/* Compile-matrix translation unit: includes ibcc.h (with or without the
   implementation, as the command line says) and touches every layer. */
#include "ibcc.h"
int ibcc_compile_probe(void);
int ibcc_compile_probe(void)
{
    ibcc_loop_desc d;
    size_t n = 0;
    ibcc_rng r;
    d.capacity = 4;
    ibcc_rng_seed(&r, 1);
    return (int)(ibcc_loop_size(&d, &n) == IBCC_OK && n > 0) + (int)(ibcc_rng_next(&r) & 1u)
         + (ibcc_result_str(IBCC_OK)[0] == 'o');
}
