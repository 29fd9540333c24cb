/* test_nostdlib.c - the TPOSE_NO_STDLIB object (nostdlib_impl.c) still transposes right
   with every portable kernel, including the byte-loop element sizes. */
#include "transpose.h"
#include "tpose_test.h"

int main(void)
{
    static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16, 24};
    unsigned char src[67 * 45 * 24], want[67 * 45 * 24], got[67 * 45 * 24];
    size_t e;
    int k;
    tt_fill_random(src, sizeof src);
    for (e = 0; e < sizeof esizes / sizeof *esizes; e++) {
        tt_reference(want, 67, src, 45, 67, 45, esizes[e]);
        for (k = 0; k < (int)TPOSE_KERNEL_COUNT; k++) {
            if (!tpose_kernel_supported((tpose_kernel)k, esizes[e])) continue;
            memset(got, TT_GUARD, sizeof got);
            TT_CHECK(tpose_matrix_with((tpose_kernel)k, got, 67, src, 45, 67, 45, esizes[e]) ==
                         TPOSE_OK, "status");
            TT_CHECK(memcmp(want, got, 67 * 45 * esizes[e]) == 0, "%s esize %zu",
                     tpose_kernel_name((tpose_kernel)k), esizes[e]);
        }
    }
    return tt_finish("test_nostdlib");
}
