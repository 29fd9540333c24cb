/* main.c - the consumer project's program: both implementations in this one file, as the
   README's "Include it" says, through the include directory the dependency carries. */
#define TPOSE_IMPLEMENTATION
#include "transpose_inplace.h"

#include <stdint.h>
#include <stdio.h>

int main(void)
{
    uint32_t a[7 * 11], t[11 * 7];
    size_t r, c;
    int bad = 0;
    for (r = 0; r < 7 * 11; r++) a[r] = (uint32_t)r;
    bad |= tpose_matrix(t, 7, a, 11, 7, 11, sizeof a[0]) != TPOSE_OK;
    bad |= tpose_inplace(a, 7, 11, sizeof a[0], NULL, 0) != TPOSE_OK;
    for (r = 0; r < 7; r++)
        for (c = 0; c < 11; c++) bad |= t[c * 7 + r] != r * 11 + c || a[c * 7 + r] != r * 11 + c;
    printf("tpose consumer: %s (AUTO for 7x11 floats: %s)\n", bad ? "FAIL" : "ok",
           tpose_kernel_name(tpose_kernel_auto(7, 11, 4)));
    return bad;
}
