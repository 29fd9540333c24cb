/* nostdlib_inplace_impl.c - transpose_inplace.h built with TPOSE_NO_STDLIB into its own
   object: check_symbols.py proves it references no libc symbol, test_inplace_nostdlib.c
   that it still transposes right (with a caller workspace and with none at all). */
#define TPOSE_NO_STDLIB
#define TPOSE_IMPLEMENTATION
#include "transpose_inplace.h"
