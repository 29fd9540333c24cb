/* kernels.c - list the kernels this CPU and build can run, per element size, and what AUTO
   picks for a few shapes. */
#include "transpose.h" /* the implementation is linked in (transpose.c) */

#include <stdio.h>

int main(void)
{
    static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16};
    static const size_t shapes[][2] = {{64, 64}, {2112, 2112}, {1000000, 3}, {8, 4000000}};
    const size_t n_esizes = sizeof esizes / sizeof *esizes;
    size_t e, s;
    int k;
    printf("%-14s", "kernel");
    for (e = 0; e < n_esizes; e++) printf(" %4zuB", esizes[e]);
    printf("\n");
    for (k = 1; k < (int)TPOSE_KERNEL_COUNT; k++) {
        printf("%-14s", tpose_kernel_name((tpose_kernel)k));
        for (e = 0; e < n_esizes; e++)
            printf(" %5s", tpose_kernel_supported((tpose_kernel)k, esizes[e]) ? "yes" : "-");
        printf("\n");
    }
    printf("\nAUTO picks:\n");
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (e = 0; e < n_esizes; e++)
            if (esizes[e] == 1 || esizes[e] == 4 || esizes[e] == 8)
                printf("  %zu x %zu, %zu-byte elements: %s\n", shapes[s][0], shapes[s][1],
                       esizes[e],
                       tpose_kernel_name(tpose_kernel_auto(shapes[s][0], shapes[s][1], esizes[e])));
    return 0;
}
