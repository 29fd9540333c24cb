/* fuzz_impl.c - the implementation the harnesses share, compiled once with their sanitizers
   and coverage (one object: compiling the SIMD kernels under ASan takes minutes). */
#define TPOSE_IMPLEMENTATION
#include "../../transpose_inplace.h"
#include "../../transpose_tensor.h"
