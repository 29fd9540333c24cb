/* test_link_b.c - the TPOSE_STATIC half of the linkage test (see test_link_a.c). */
#define TPOSE_STATIC
#include "transpose.h"
#include "transpose.h"

int link_b_transpose(void *dst, const void *src, size_t n);
tpose_kernel link_b_auto(void);

int link_b_transpose(void *dst, const void *src, size_t n)
{
    return (int)tpose_matrix(dst, n, src, n, n, n, 1);
}

tpose_kernel link_b_auto(void) { return tpose_kernel_auto(64, 64, 1); }
