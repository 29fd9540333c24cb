/* test_link_a.c - one program, two linkage modes: this file holds the extern
   implementation (TPOSE_IMPLEMENTATION), test_link_b.c a private TPOSE_STATIC copy. Both
   must link together without clashing and keep separate kernel limits. */
#include "transpose.h"
#define TPOSE_IMPLEMENTATION
#include "transpose.h" /* a second include in the same mode is fine */
#include "tpose_test.h"

int link_b_transpose(void *dst, const void *src, size_t n);
tpose_kernel link_b_auto(void);

int main(void)
{
    unsigned char src[33 * 33], a[33 * 33], b[33 * 33];
    tt_fill_random(src, sizeof src);
    TT_CHECK(tpose_matrix(a, 33, src, 33, 33, 33, 1) == TPOSE_OK, "extern copy");
    TT_CHECK(link_b_transpose(b, src, 33) == TPOSE_OK, "static copy");
    TT_CHECK(memcmp(a, b, sizeof a) == 0, "the two copies disagree");
    tpose_kernel_limit(TPOSE_KERNEL_NAIVE);
    TT_CHECK(tpose_kernel_auto(64, 64, 1) == TPOSE_KERNEL_NAIVE, "extern limit");
    TT_CHECK(link_b_auto() != TPOSE_KERNEL_NAIVE, "the static copy shares the extern limit");
    return tt_finish("test_link");
}
