/* test_neon.c - the AArch64 NEON kernels (exit 77 where this build has none): every tile
   kernel against the scalar edge routine one to one, with random strides, misaligned rows
   and guard bytes around and between the destination rows; the in-place tile pairs against
   a plain swap; the skinny strips through the set; and AUTO picking NEON for every shape
   its tiles or strips cover. (Every kernel through
   the walks, at every element size and shape, is test_kernels' and test_inplace's job.) */
#define TPOSEI_TESTING /* the NEON tile table */
#define TPOSE_IMPLEMENTATION
#include "transpose.h"
#include "tpose_test.h"

#if TPOSEI_HAVE_NEON

/* One kernel and its twin on a tile with random strides and offsets 0..63. */
static void check_tile(const tposei_neon_entry *t)
{
    const size_t row = t->tile * t->esize;
    const size_t ss = row + tt_rand_below(100), ds = row + tt_rand_below(100);
    const size_t soff = tt_rand_below(64), doff = tt_rand_below(64);
    const size_t sbytes = ss * t->tile + 64, dbytes = ds * t->tile + 64 + 2 * TT_PAD;
    unsigned char *src = (unsigned char *)tt_alloc(sbytes);
    unsigned char *want = (unsigned char *)tt_alloc(dbytes), *got = (unsigned char *)tt_alloc(dbytes);
    tt_fill_random(src, sbytes);
    memset(want, TT_GUARD, dbytes);
    memset(got, TT_GUARD, dbytes);
    tposei_rect(want + TT_PAD + doff, ds, src + soff, ss, t->tile, t->tile, t->esize);
    t->kernel(got + TT_PAD + doff, ds, src + soff, ss);
    TT_CHECK(memcmp(want, got, dbytes) == 0, "%s vs its twin: strides %zu/%zu offsets %zu/%zu",
             t->name, ss, ds, soff, doff);
    free(src);
    free(want);
    free(got);
}

/* The kit's tile pairs for 4 and 8-byte elements: X = (0, j) and Y = (j, 0) blocks of a
   square matrix swapped transposed (j == 0: the diagonal block in place), against the
   same done element by element. */
static void check_swap(size_t esize)
{
    const tposei_kit kit = tposei_kit_get(esize);
    const size_t k = kit.swap_edge, n = 3 * k, st = n * esize + tt_rand_below(40);
    const size_t bytes = st * n + 64, off = tt_rand_below(64), j = k * tt_rand_below(3);
    unsigned char *base = (unsigned char *)tt_alloc(bytes), *want = (unsigned char *)tt_alloc(bytes);
    unsigned char *a = base + off, *w = want + off;
    size_t r, c;
    TT_CHECK(kit.swap != NULL && k == 4, "no NEON tile pair for %zu-byte elements", esize);
    if (kit.swap == NULL) goto done;
    tt_fill_random(base, bytes);
    memcpy(want, base, bytes);
    for (r = 0; r < k; r++)
        for (c = 0; c < k; c++) {
            memcpy(w + r * st + (j + c) * esize, a + (j + c) * st + r * esize, esize);
            memcpy(w + (j + c) * st + r * esize, a + r * st + (j + c) * esize, esize);
        }
    kit.swap(a + j * esize, a + j * st, st);
    TT_CHECK(memcmp(want, base, bytes) == 0, "%zu-byte tile pair at column %zu, stride %zu", esize,
             j, st);
done:
    free(base);
    free(want);
}

/* A skinny matrix, S = 2..4 columns (tall) or rows (wide) on the dense side, the other
   side's stride random, through the NEON set against the scalar routine, guards around. */
static void check_strip(void)
{
    static const size_t esizes[] = {1, 2, 4, 8};
    const size_t esize = esizes[tt_rand_below(4)], s = 2 + tt_rand_below(3);
    const size_t n = tt_rand_below(3) ? tt_rand_below(200) + 1 : 16 / esize * tt_rand_below(9) + 1;
    const int tall = (int)tt_rand_below(2);
    const size_t rows = tall ? n : s, cols = tall ? s : n;
    const size_t src_ld = tall ? s : n + tt_rand_below(5), dst_ld = tall ? n + tt_rand_below(5) : s;
    const size_t soff = tt_rand_below(64), doff = tt_rand_below(64);
    const size_t sbytes = (rows * src_ld) * esize + 64, dbytes = cols * dst_ld * esize + 64 + 2 * TT_PAD;
    unsigned char *src = (unsigned char *)tt_alloc(sbytes);
    unsigned char *want = (unsigned char *)tt_alloc(dbytes), *got = (unsigned char *)tt_alloc(dbytes);
    tpose_status st;
    tt_fill_random(src, sbytes);
    memset(want, TT_GUARD, dbytes);
    memset(got, TT_GUARD, dbytes);
    tposei_rect(want + TT_PAD + doff, dst_ld * esize, src + soff, src_ld * esize, rows, cols, esize);
    st = tpose_matrix_with(TPOSE_KERNEL_NEON, got + TT_PAD + doff, dst_ld, src + soff, src_ld, rows,
                           cols, esize);
    TT_CHECK(st == TPOSE_OK && memcmp(want, got, dbytes) == 0,
             "strip %zu x %zu of %zu bytes, lds %zu/%zu, offsets %zu/%zu", rows, cols, esize,
             src_ld, dst_ld, soff, doff);
    free(src);
    free(want);
    free(got);
}

/* AUTO takes NEON wherever a side holds a tile or a strip (2-4 elements of up to 8 bytes
   against at least 16 bytes), and the portable order below that. */
static void check_auto(void)
{
    static const size_t esizes[] = {1, 2, 4, 8, 16};
    size_t e, side;
    for (e = 0; e < 5; e++) {
        const size_t tile = 32 / esizes[e];
        for (side = 1; side <= tile; side++) {
            const int neon = side == tile || (side >= 2 && side <= 4 && esizes[e] <= 8);
            const tpose_kernel tall = tpose_kernel_auto(1000, side, esizes[e]);
            const tpose_kernel wide = tpose_kernel_auto(side, 1000, esizes[e]);
            TT_CHECK((tall == TPOSE_KERNEL_NEON) == neon && (wide == TPOSE_KERNEL_NEON) == neon,
                     "AUTO for 1000 x %zu and its transpose, %zu bytes: %s, %s", side, esizes[e],
                     tpose_kernel_name(tall), tpose_kernel_name(wide));
        }
    }
    TT_CHECK(tpose_kernel_auto(15, 4, 1) != TPOSE_KERNEL_NEON, "AUTO for 15 x 4 bytes: no chunk");
    TT_CHECK(!tpose_kernel_supported(TPOSE_KERNEL_NEON, 3), "NEON claims 3-byte elements");
    tpose_kernel_limit(TPOSE_KERNEL_SWAR);
    TT_CHECK(tpose_kernel_auto(512, 512, 4) == TPOSE_KERNEL_SWAR, "AUTO under a SWAR ceiling");
    TT_CHECK(tposei_kit_get(4).swap == NULL, "the kit's tile pairs under a SWAR ceiling");
    tpose_kernel_limit(TPOSE_KERNEL_AUTO);
}

int main(void)
{
    size_t i;
    int round;
    for (i = 0; i < sizeof tposei_neon_table / sizeof *tposei_neon_table; i++)
        for (round = 0; round < 300; round++) check_tile(&tposei_neon_table[i]);
    for (round = 0; round < 2000; round++) check_strip();
    for (round = 0; round < 300; round++) {
        check_swap(4);
        check_swap(8);
    }
    for (round = TPOSEI_CLASS_ANY; round <= TPOSEI_CLASS_INTEL; round++) {
        tposei_emulate(round); /* no x86 tune row may change NEON's place in AUTO's order */
        check_auto();
    }
    tposei_emulate(-1);
    return tt_finish("test_neon");
}

#else

int main(void)
{
    (void)tposei_emulate; /* TPOSEI_TESTING's, used above */
    printf("test_neon: no NEON kernels in this build, skipped\n");
    return TT_SKIP;
}

#endif
