/* nostdlib_impl.c - the implementation built with TPOSE_NO_STDLIB into its own object, so
   check_symbols.py can prove that it references no libc symbol at all. */
#define TPOSE_NO_STDLIB
#define TPOSE_IMPLEMENTATION
#include "transpose.h"
