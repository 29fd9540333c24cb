/* basic.c - transpose a small float matrix and print it before and after. The
   implementation is linked in (transpose.c: `#define TPOSE_IMPLEMENTATION` before
   `#include "transpose.h"` in one file of the program). */
#include "transpose.h"

#include <stdio.h>

static void print_matrix(const char *title, const float *m, size_t rows, size_t cols, size_t ld)
{
    size_t r, c;
    printf("%s (%zu x %zu):\n", title, rows, cols);
    for (r = 0; r < rows; r++) {
        for (c = 0; c < cols; c++) printf(" %5.1f", (double)m[r * ld + c]);
        printf("\n");
    }
}

int main(void)
{
    enum { ROWS = 3, COLS = 5 };
    float a[ROWS * COLS], t[COLS * ROWS];
    size_t i;
    tpose_status st;
    for (i = 0; i < ROWS * COLS; i++) a[i] = (float)i;
    print_matrix("a", a, ROWS, COLS, COLS);
    /* t (COLS x ROWS, leading dimension ROWS) = transpose of a (ROWS x COLS, ld COLS) */
    st = tpose_matrix(t, ROWS, a, COLS, ROWS, COLS, sizeof(float));
    if (st != TPOSE_OK) {
        fprintf(stderr, "tpose_matrix: %s\n", tpose_status_str(st));
        return 1;
    }
    print_matrix("transpose of a", t, COLS, ROWS, ROWS);
    return 0;
}
