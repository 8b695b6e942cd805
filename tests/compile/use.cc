/* Compile-matrix translation unit: includes ibcc.h (with or without the
   implementation, as the command line says) and touches every layer. It
   also expands the public macros (units, CCT entries), which a C++ user
   compiles in their own files, so the matrix's C++ warnings (old-style
   casts among them) see them. */
#include "ibcc.h"
int ibcc_compile_probe(void);
int ibcc_compile_probe(void)
{
    ibcc_loop_desc d;
    size_t n = 0;
    ibcc_rng r;
    ibcc_time t = IBCC_PS(1) + IBCC_NS(1) + IBCC_US(1) + IBCC_MS(1) + IBCC_S(1);
    ibcc_rate b = IBCC_GBYTES(1) + IBCC_MBYTES(1) + IBCC_GBITS(1);
    uint16_t e = IBCC_CCT_ENTRY(2, 100);
    d.capacity = 4;
    ibcc_rng_seed(&r, 1);
    return static_cast<int>(ibcc_loop_size(&d, &n) == IBCC_OK && n > 0)
         + static_cast<int>(ibcc_rng_next(&r) & 1u)
         + (ibcc_result_str(IBCC_OK)[0] == 'o')
         + static_cast<int>(IBCC_CCT_SHIFT(e) + IBCC_CCT_MULT(e) + (t > b));
}
