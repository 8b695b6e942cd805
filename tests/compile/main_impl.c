/* Two-translation-unit link test: this file holds the implementation and
   main(); use.c only declares. Also built with IBCC_STATIC, where both
   files carry a private copy of the implementation. */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>
#include <string.h>
int ibcc_compile_probe(void);
int main(void)
{
    if (ibcc_compile_probe() < 1) return 1;
    if (strcmp(ibcc_version(), IBCC_VERSION_STRING) != 0) return 2;
    return 0;
}
