/* nostdlib_inplace_impl.c - transpose_inplace.h's implementation built with TPOSE_NO_STDLIB
   into its own object (transpose.h's is nostdlib_impl.c): check_symbols.py proves it
   references no libc symbol, test_inplace_nostdlib.c that it still transposes right (with a
   caller workspace and with none at all). */
#define TPOSE_NO_STDLIB
#define TPOSE_INPLACE_IMPLEMENTATION
#include "transpose_inplace.h"
