/* test_kernels.c - every kernel this build and CPU support, for element sizes 1, 2, 3, 4, 8,
   12 and 16, against a byte-by-byte reference: exhaustive small shapes crossing every tile
   and block edge, leading dimensions wider than the row, source and destination misaligned
   by every offset 0..63, random large shapes, and AUTO under every kernel limit. Each
   destination sits between guard bytes, and the gaps between its rows are guards too. */
#include "transpose.h" /* the implementation is linked in (transpose.c) */
#include "tpose_test.h"

static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16};
#define N_ESIZES (sizeof esizes / sizeof *esizes)

/* A source and two destination arenas, grown on demand and reused. */
static unsigned char *src_buf, *want_buf, *got_buf;
static size_t src_cap, want_cap, got_cap;

static unsigned char *grow(unsigned char *p, size_t *cap, size_t need)
{
    if (need <= *cap) return p;
    free(p);
    *cap = need * 2;
    return (unsigned char *)tt_alloc(*cap);
}

typedef struct shape {
    size_t rows, cols, src_ld, dst_ld, esize, src_off, dst_off;
} shape;

static size_t span_bytes(size_t rows, size_t cols, size_t ld, size_t esize)
{
    return ((rows - 1) * ld + cols) * esize;
}

/* Prepares the source (random bytes) and the expected destination for `s`; returns the
   size of the destination region including both guard pads. */
static size_t prepare(const shape *s)
{
    const size_t src_bytes = s->src_off + span_bytes(s->rows, s->cols, s->src_ld, s->esize);
    const size_t region = TT_PAD + s->dst_off + span_bytes(s->cols, s->rows, s->dst_ld, s->esize) +
                          TT_PAD;
    src_buf = grow(src_buf, &src_cap, src_bytes);
    want_buf = grow(want_buf, &want_cap, region);
    got_buf = grow(got_buf, &got_cap, region);
    tt_fill_random(src_buf, src_bytes);
    memset(want_buf, TT_GUARD, region);
    tt_reference(want_buf + TT_PAD + s->dst_off, s->dst_ld, src_buf + s->src_off, s->src_ld,
                 s->rows, s->cols, s->esize);
    return region;
}

/* Runs `kernel` on the prepared shape and compares the whole destination region. */
static void check_kernel(tpose_kernel kernel, const shape *s, size_t region)
{
    tpose_status st;
    size_t at;
    memset(got_buf, TT_GUARD, region);
    st = tpose_matrix_with(kernel, got_buf + TT_PAD + s->dst_off, s->dst_ld, src_buf + s->src_off,
                           s->src_ld, s->rows, s->cols, s->esize);
    TT_CHECK(st == TPOSE_OK, "%s returned %d", tpose_kernel_name(kernel), (int)st);
    at = tt_first_diff(want_buf, got_buf, region);
    TT_CHECK(at == (size_t)-1,
             "%s rows %zu cols %zu esize %zu src_ld %zu dst_ld %zu offsets %zu/%zu: "
             "byte %zu of the region (%s)",
             tpose_kernel_name(kernel), s->rows, s->cols, s->esize, s->src_ld, s->dst_ld,
             s->src_off, s->dst_off, at,
             at < TT_PAD + s->dst_off ? "guard before" : "inside or after");
}

/* Every kernel supported for the shape's element size, plus AUTO. */
static void check_all_kernels(const shape *s)
{
    const size_t region = prepare(s);
    int k;
    for (k = 0; k < (int)TPOSE_KERNEL_COUNT; k++)
        if (tpose_kernel_supported((tpose_kernel)k, s->esize))
            check_kernel((tpose_kernel)k, s, region);
}

/* Sizes 1..34 cover every tile edge (8x8, 32x32...) exhaustively; the rest straddle the
   block edges of 16, 32, 64 and 128 elements. */
static const size_t edge_sizes[] = {47, 48, 49, 63, 64, 65, 66, 95, 97, 127, 128, 129, 130};

static size_t dim_at(size_t i)
{
    return i < 34 ? i + 1 : edge_sizes[i - 34];
}
#define N_DIMS (34 + sizeof edge_sizes / sizeof *edge_sizes)

static void exhaustive_shapes(void)
{
    size_t e, i, j;
    for (e = 0; e < N_ESIZES; e++)
        for (i = 0; i < N_DIMS; i++)
            for (j = 0; j < N_DIMS; j++) {
                shape s = {0, 0, 0, 0, 0, 0, 0};
                s.rows = dim_at(i);
                s.cols = dim_at(j);
                s.src_ld = s.cols;
                s.dst_ld = s.rows;
                s.esize = esizes[e];
                check_all_kernels(&s);
            }
}

/* Leading dimensions wider than the row: the gaps must keep their guard bytes. */
static void wide_leading_dims(void)
{
    static const size_t extra[] = {1, 3, 17, 64, 65};
    static const size_t dims[][2] = {{1, 1}, {9, 70}, {70, 9}, {33, 65}, {129, 40}, {64, 64}};
    size_t e, x, y, d;
    for (e = 0; e < N_ESIZES; e++)
        for (d = 0; d < sizeof dims / sizeof *dims; d++)
            for (x = 0; x < 5; x++)
                for (y = 0; y < 5; y++) {
                    shape s = {0, 0, 0, 0, 0, 0, 0};
                    s.rows = dims[d][0];
                    s.cols = dims[d][1];
                    s.src_ld = s.cols + extra[x];
                    s.dst_ld = s.rows + extra[y];
                    s.esize = esizes[e];
                    check_all_kernels(&s);
                }
}

/* Destination rows 512 bytes to 6 KiB apart, which fall in few L1 sets: the in-cache walk
   goes down columns of blocks there and AUTO streams. */
static void crowded_rows(void)
{
    static const size_t strides[] = {512, 1024, 2048, 4096, 6144};
    static const size_t cols[] = {67, 130};
    size_t e, i, c, less;
    for (e = 0; e < N_ESIZES; e++)
        for (i = 0; i < sizeof strides / sizeof *strides; i++)
            for (c = 0; c < 2; c++)
                for (less = 0; less < 2; less++) {
                    shape s = {0, 0, 0, 0, 0, 0, 0};
                    if (strides[i] % esizes[e]) continue;
                    s.esize = esizes[e];
                    s.dst_ld = strides[i] / s.esize;
                    s.rows = s.dst_ld - 5 * less;
                    s.cols = cols[c];
                    s.src_ld = s.cols + 3 * less;
                    s.dst_off = 7 * less;
                    check_all_kernels(&s);
                }
}

/* Source and destination misaligned by every offset 0..63, alone and together. */
static void misalignment(void)
{
    static const size_t dims[][2] = {{37, 29}, {70, 67}, {130, 9}, {64, 128}};
    size_t e, d, off, mode;
    for (e = 0; e < N_ESIZES; e++)
        for (d = 0; d < sizeof dims / sizeof *dims; d++)
            for (off = 0; off < 64; off++)
                for (mode = 0; mode < 3; mode++) {
                    shape s = {0, 0, 0, 0, 0, 0, 0};
                    s.rows = dims[d][0];
                    s.cols = dims[d][1];
                    s.src_ld = s.cols + (mode == 2);
                    s.dst_ld = s.rows;
                    s.esize = esizes[e];
                    s.src_off = mode == 1 ? 0 : off;
                    s.dst_off = mode == 0 ? 0 : mode == 1 ? off : 63 - off;
                    check_all_kernels(&s);
                }
}

/* Random shapes up to 2000 on a side (4 MiB per matrix at most), random ld and offsets. */
static void random_large(void)
{
    int n;
    for (n = 0; n < 40; n++) {
        shape s = {0, 0, 0, 0, 0, 0, 0};
        s.esize = esizes[tt_rand_below(N_ESIZES)];
        s.rows = 1 + tt_rand_below(2000);
        s.cols = 1 + tt_rand_below((4u << 20) / (s.rows * s.esize) + 1);
        if (s.cols > 2000) s.cols = 1 + tt_rand_below(2000);
        s.src_ld = s.cols + (tt_rand_below(2) ? tt_rand_below(100) : 0);
        s.dst_ld = s.rows + (tt_rand_below(2) ? tt_rand_below(100) : 0);
        s.src_off = tt_rand_below(64);
        s.dst_off = tt_rand_below(64);
        check_all_kernels(&s);
    }
}

/* AUTO under every ceiling: it must pick a supported kernel no later than the ceiling,
   and the pick must be right. */
static void auto_under_limits(void)
{
    int limit;
    size_t e;
    for (limit = 0; limit < (int)TPOSE_KERNEL_COUNT; limit++) {
        tpose_kernel_limit((tpose_kernel)limit);
        for (e = 0; e < N_ESIZES; e++) {
            shape s = {0, 0, 0, 0, 0, 0, 0};
            const tpose_kernel pick = tpose_kernel_auto(300, 211, esizes[e]);
            TT_CHECK(pick != TPOSE_KERNEL_AUTO && tpose_kernel_supported(pick, esizes[e]),
                     "limit %d picked %d", limit, (int)pick);
            TT_CHECK(limit == TPOSE_KERNEL_AUTO || (int)pick <= limit || pick == TPOSE_KERNEL_NAIVE,
                     "limit %d picked %d", limit, (int)pick);
            s.rows = 300;
            s.cols = 211;
            s.src_ld = 213;
            s.dst_ld = 300;
            s.esize = esizes[e];
            s.src_off = 5;
            s.dst_off = 11;
            check_kernel(TPOSE_KERNEL_AUTO, &s, prepare(&s));
        }
    }
    tpose_kernel_limit(TPOSE_KERNEL_AUTO);
}

int main(void)
{
    int k;
    for (k = 0; k < (int)TPOSE_KERNEL_COUNT; k++)
        printf("kernel %-14s %s\n", tpose_kernel_name((tpose_kernel)k),
               tpose_kernel_supported((tpose_kernel)k, 1) ? "tested" : "not supported here");
    exhaustive_shapes();
    wide_leading_dims();
    crowded_rows();
    misalignment();
    random_large();
    auto_under_limits();
    free(src_buf);
    free(want_buf);
    free(got_buf);
    return tt_finish("test_kernels");
}
