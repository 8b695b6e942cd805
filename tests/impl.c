/* The implementation of ibcc.h as one object: make test compiles it once
   per flavour (plain, sanitizers) and links every unit test against it,
   except the tests that reach into the fabric's private functions
   (TESTS_SELF in the Makefile), which compile it themselves. */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
