/* ibcc ns-3 model: the one translation unit that compiles ibcc's
   implementation. Every other file of the module only includes the
   declarations. SPDX-License-Identifier: MIT (see ibcc.h) */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
