/* test_inplace_nostdlib.c - the TPOSE_NO_STDLIB in-place object (nostdlib_inplace_impl.c):
   every path, with a caller workspace and with work == NULL (which must then take the
   O(1)-memory algorithm, since there is no allocator), against the reference. */
#include "transpose_inplace.h"
#include "tpose_test.h"

static void check(size_t rows, size_t cols, size_t esize, int with_work)
{
    const size_t bytes = rows * cols * esize, need = tpose_inplace_workspace(rows, cols, esize);
    unsigned char *m = (unsigned char *)tt_alloc(bytes), *want = (unsigned char *)tt_alloc(bytes);
    unsigned char *w = with_work ? (unsigned char *)tt_alloc(need) : NULL;
    tt_fill_random(m, bytes);
    tt_reference(want, rows, m, cols, rows, cols, esize);
    TT_CHECK(tpose_inplace(m, rows, cols, esize, w, need) == TPOSE_OK, "status");
    TT_CHECK(memcmp(m, want, bytes) == 0, "%zux%zu esize %zu %s", rows, cols, esize,
             with_work ? "with work" : "no work");
    free(m);
    free(want);
    free(w);
}

int main(void)
{
    static const size_t
        shapes[][2] = {{37, 41},   {41, 37},   {40, 40},   {1000, 3},  {3, 1001},
                       {128, 192}, {192, 128}, {600, 900}, {257, 131}, {131, 257},
                       {500, 8},   {2, 777},   {4099, 5},  {5, 4099}}; /* 4099: a tail of rows */
    static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16};
    size_t s, e;
    int w;
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (e = 0; e < sizeof esizes / sizeof *esizes; e++)
            for (w = 0; w < 2; w++) check(shapes[s][0], shapes[s][1], esizes[e], w);
    return tt_finish("test_inplace_nostdlib");
}
