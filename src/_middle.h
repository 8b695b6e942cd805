#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* IBCC_H */

/* ======================================================================
   IMPLEMENTATION
   ====================================================================== */
#if defined(IBCC_IMPLEMENTATION) && !defined(IBCC__IMPLEMENTED)
#define IBCC__IMPLEMENTED

#include <string.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

