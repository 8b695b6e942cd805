/* The library, compiled once for every fuzz harness (the harnesses include
   only its declarations). */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
