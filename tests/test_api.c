/* test_api.c - every status code of the out-of-place API, each checked to leave the
   destination untouched; empty matrices; names and strings; the kernel limit. */
#include "transpose.h" /* the implementation is linked in (transpose.c) */
#include "tpose_test.h"

#define BUF 4096
static unsigned char arena[BUF], snapshot[BUF];

/* Runs one call that must fail with `want` and must not change a byte of the arena. */
static void expect_status(tpose_status want, tpose_kernel kernel, void *dst, size_t dst_ld,
                          const void *src, size_t src_ld, size_t rows, size_t cols,
                          size_t esize, const char *what)
{
    tpose_status got;
    memcpy(snapshot, arena, BUF);
    got = tpose_matrix_with(kernel, dst, dst_ld, src, src_ld, rows, cols, esize);
    TT_CHECK(got == want, "%s: got %d (%s), want %d", what, (int)got, tpose_status_str(got),
             (int)want);
    TT_CHECK(memcmp(snapshot, arena, BUF) == 0, "%s: memory changed", what);
    if (kernel == TPOSE_KERNEL_AUTO) {
        got = tpose_matrix(dst, dst_ld, src, src_ld, rows, cols, esize);
        TT_CHECK(got == want, "%s (tpose_matrix): got %d", what, (int)got);
        TT_CHECK(memcmp(snapshot, arena, BUF) == 0, "%s (tpose_matrix): memory changed", what);
    }
}

static void bad_arguments(void)
{
    unsigned char *src = arena, *dst = arena + 2048;
    const size_t huge = (size_t)-1;
    expect_status(TPOSE_ERR_ESIZE, TPOSE_KERNEL_AUTO, dst, 4, src, 4, 4, 4, 0, "esize 0");
    expect_status(TPOSE_ERR_ESIZE, TPOSE_KERNEL_AUTO, NULL, 0, NULL, 0, 0, 0, 0, "esize 0, empty");
    expect_status(TPOSE_ERR_NULL, TPOSE_KERNEL_AUTO, NULL, 4, src, 4, 4, 4, 1, "NULL dst");
    expect_status(TPOSE_ERR_NULL, TPOSE_KERNEL_AUTO, dst, 4, NULL, 4, 4, 4, 1, "NULL src");
    expect_status(TPOSE_ERR_LD, TPOSE_KERNEL_AUTO, dst, 4, src, 3, 4, 4, 1, "src_ld < cols");
    expect_status(TPOSE_ERR_LD, TPOSE_KERNEL_AUTO, dst, 3, src, 4, 4, 4, 1, "dst_ld < rows");
    expect_status(TPOSE_ERR_LD, TPOSE_KERNEL_NAIVE, dst, 5, src, 6, 5, 7, 2, "ld, naive");
    expect_status(TPOSE_ERR_OVERFLOW, TPOSE_KERNEL_AUTO, dst, huge, src, huge, huge, huge, 1,
                  "rows * cols overflows");
    expect_status(TPOSE_ERR_OVERFLOW, TPOSE_KERNEL_AUTO, dst, huge / 4, src, huge / 4, huge / 4,
                  2, 8, "extent * esize overflows");
    expect_status(TPOSE_ERR_OVERFLOW, TPOSE_KERNEL_AUTO, dst, 2, src, huge, 2, 2, 1,
                  "src_ld * rows overflows");
    expect_status(TPOSE_ERR_OVERFLOW, TPOSE_KERNEL_AUTO, dst, huge / 2, src, 2, 2, 2, 4,
                  "dst_ld * esize overflows");
    expect_status(TPOSE_ERR_OVERFLOW, TPOSE_KERNEL_AUTO, dst, 1, src, 1, 1, 1, huge - 8,
                  "extent fits size_t but runs past the address space");
    expect_status(TPOSE_ERR_ARG, (tpose_kernel)TPOSE_KERNEL_COUNT, dst, 4, src, 4, 4, 4, 1,
                  "kernel id past the enum");
#ifndef __cplusplus /* in C++ a value outside the enum's range is undefined behaviour */
    expect_status(TPOSE_ERR_ARG, (tpose_kernel)-1, dst, 4, src, 4, 4, 4, 1, "negative kernel");
#endif
}

static void overlapping_buffers(void)
{
    unsigned char *a = arena + 100;
    expect_status(TPOSE_ERR_OVERLAP, TPOSE_KERNEL_AUTO, a, 8, a, 8, 8, 8, 1, "same buffer");
    expect_status(TPOSE_ERR_OVERLAP, TPOSE_KERNEL_AUTO, a + 63, 8, a, 8, 8, 8, 1,
                  "dst starts on the last source byte");
    expect_status(TPOSE_ERR_OVERLAP, TPOSE_KERNEL_AUTO, a, 8, a + 63, 8, 8, 8, 1,
                  "src starts on the last destination byte");
    expect_status(TPOSE_ERR_OVERLAP, TPOSE_KERNEL_BLOCKED, a + 20, 100, a, 100, 3, 3, 4,
                  "dst starts in a gap between source rows");
    expect_status(TPOSE_ERR_OVERLAP, TPOSE_KERNEL_AUTO, a + 8, 3, a, 2, 3, 2, 4,
                  "overlap by one element, esize 4");
}

/* Adjacent but disjoint buffers are fine, in both orders. */
static void touching_buffers(void)
{
    unsigned char *a = arena + 100;
    unsigned char want[64];
    TT_CHECK(tpose_matrix(a + 64, 8, a, 8, 8, 8, 1) == TPOSE_OK, "dst right after src");
    tt_reference(want, 8, a, 8, 8, 8, 1);
    TT_CHECK(memcmp(want, a + 64, 64) == 0, "dst right after src: wrong bytes");
    TT_CHECK(tpose_matrix(a, 8, a + 64, 8, 8, 8, 1) == TPOSE_OK, "dst right before src");
}

/* Unsupported kernels say so and write nothing; every supported one accepts the call. */
static void unsupported_kernels(void)
{
    unsigned char *src = arena, *dst = arena + 2048;
    int k;
    size_t e;
    for (k = 1; k < (int)TPOSE_KERNEL_COUNT; k++)
        for (e = 1; e <= 24; e++) {
            const int ok = tpose_kernel_supported((tpose_kernel)k, e);
            if (ok) continue;
            expect_status(TPOSE_ERR_UNSUPPORTED, (tpose_kernel)k, dst, 5, src, 6, 5, 6, e,
                          tpose_kernel_name((tpose_kernel)k));
        }
    for (k = TPOSE_KERNEL_NAIVE; k <= TPOSE_KERNEL_SWAR; k++)
        for (e = 1; e <= 40; e++)
            TT_CHECK(tpose_kernel_supported((tpose_kernel)k, e), "portable %s, esize %zu",
                     tpose_kernel_name((tpose_kernel)k), e);
    TT_CHECK(!tpose_kernel_supported(TPOSE_KERNEL_NAIVE, 0), "esize 0 supported");
    TT_CHECK(!tpose_kernel_supported(TPOSE_KERNEL_COUNT, 1), "id past the enum supported");
    TT_CHECK(tpose_kernel_supported(TPOSE_KERNEL_AUTO, 7), "auto");
}

/* Zero rows or columns: a no-op that accepts NULL pointers and any leading dimension, with
   every kernel this CPU runs; a kernel it lacks is refused all the same. */
static void empty_matrices(void)
{
    int k;
    memcpy(snapshot, arena, BUF);
    for (k = 0; k < (int)TPOSE_KERNEL_COUNT; k++) {
        const tpose_kernel kernel = (tpose_kernel)k;
        const tpose_status want4 =
            tpose_kernel_supported(kernel, 4) ? TPOSE_OK : TPOSE_ERR_UNSUPPORTED;
        const tpose_status want1 =
            tpose_kernel_supported(kernel, 1) ? TPOSE_OK : TPOSE_ERR_UNSUPPORTED;
        TT_CHECK(tpose_matrix_with(kernel, NULL, 0, NULL, 0, 0, 5, 4) == want4, "0 rows, %s",
                 tpose_kernel_name(kernel));
        TT_CHECK(tpose_matrix_with(kernel, arena, 0, arena, 0, 5, 0, 1) == want1, "0 cols, %s",
                 tpose_kernel_name(kernel));
    }
    TT_CHECK(memcmp(snapshot, arena, BUF) == 0, "empty matrices wrote memory");
}

static void names_and_strings(void)
{
    int s, k;
#ifdef __cplusplus /* stay inside the enums' value ranges, as C++ requires */
    const int low = -8, first_kernel = 0;
#else
    const int low = -10, first_kernel = -1;
#endif
    for (s = low; s <= 2; s++) {
        const char *str = tpose_status_str((tpose_status)s);
        TT_CHECK(str != NULL && str[0] != '\0', "status %d", s);
    }
    TT_CHECK(strcmp(tpose_status_str(TPOSE_OK), "ok") == 0, "ok string");
    for (k = first_kernel; k <= (int)TPOSE_KERNEL_COUNT; k++)
        TT_CHECK(tpose_kernel_name((tpose_kernel)k) != NULL, "kernel %d name", k);
    TT_CHECK(strcmp(tpose_kernel_name(TPOSE_KERNEL_AVX2_STREAM), "avx2-stream") == 0, "name");
    TT_CHECK(strcmp(tpose_kernel_name(TPOSE_KERNEL_COUNT), "unknown") == 0, "unknown name");
}

static void kernel_limit(void)
{
    tpose_kernel_limit(TPOSE_KERNEL_NAIVE);
    TT_CHECK(tpose_kernel_auto(100, 100, 1) == TPOSE_KERNEL_NAIVE, "limit naive");
    tpose_kernel_limit(TPOSE_KERNEL_BLOCKED);
    TT_CHECK(tpose_kernel_auto(100, 100, 4) == TPOSE_KERNEL_BLOCKED, "limit blocked");
    tpose_kernel_limit(TPOSE_KERNEL_PREFETCH);
    TT_CHECK(tpose_kernel_auto(1000, 1000, 3) == TPOSE_KERNEL_PREFETCH, "limit prefetch");
    TT_CHECK(tpose_kernel_auto(100, 100, 8) == TPOSE_KERNEL_BLOCKED, "in cache, wide");
    tpose_kernel_limit((tpose_kernel)(TPOSE_KERNEL_COUNT + 1)); /* ignored */
    TT_CHECK(tpose_kernel_auto(1000, 1000, 3) == TPOSE_KERNEL_PREFETCH, "bad limit ignored");
    tpose_kernel_limit(TPOSE_KERNEL_SSE2);
    if (tpose_kernel_auto(3000, 3000, 2) == TPOSE_KERNEL_SSE2) { /* x86: SSE2 tiles, 16 bytes */
        TT_CHECK(tpose_kernel_auto(1000000, 8, 2) == TPOSE_KERNEL_SSE2, "8 columns fill a tile");
        TT_CHECK(tpose_kernel_auto(1000000, 7, 2) == TPOSE_KERNEL_SWAR, "7 columns: edges only");
        TT_CHECK(tpose_kernel_auto(7, 1000000, 2) == TPOSE_KERNEL_SWAR, "7 rows: edges only");
        TT_CHECK(tpose_kernel_auto(3, 1000000, 16) == TPOSE_KERNEL_SSE2, "16-byte tiles: 1x1");
    }
    tpose_kernel_limit(TPOSE_KERNEL_AVX2_STREAM);
    if (tpose_kernel_auto(3000, 3000, 4) == TPOSE_KERNEL_AVX2_STREAM) {
        /* destination rows 4 KiB apart share one L1 set: streamed at any size */
        TT_CHECK(tpose_kernel_auto(1024, 16, 4) == TPOSE_KERNEL_AVX2_STREAM, "rows in one set");
        TT_CHECK(tpose_kernel_auto(1000, 16, 4) == TPOSE_KERNEL_AVX2, "64 KB in cache");
        TT_CHECK(tpose_kernel_auto(1024, 1, 4) != TPOSE_KERNEL_AVX2_STREAM, "one row");
    }
    if (tpose_kernel_auto(3000, 3000, 1) == TPOSE_KERNEL_AVX2_STREAM) { /* 32-byte tiles */
        /* short sides of up to 8 elements and 24 bytes: the skinny network (12 in cache);
           9-31 bytes: the 16x16 byte network */
        TT_CHECK(tpose_kernel_auto(1000000, 3, 4) == TPOSE_KERNEL_AVX2_STREAM, "3 floats");
        TT_CHECK(tpose_kernel_auto(3, 1000000, 8) == TPOSE_KERNEL_AVX2_STREAM, "3 doubles");
        TT_CHECK(tpose_kernel_auto(1000000, 8, 1) == TPOSE_KERNEL_AVX2_STREAM, "8 bytes");
        TT_CHECK(tpose_kernel_auto(1000000, 9, 1) == TPOSE_KERNEL_AVX2_STREAM, "9 bytes");
        TT_CHECK(tpose_kernel_auto(16, 1000000, 1) == TPOSE_KERNEL_AVX2_STREAM, "16 bytes");
        TT_CHECK(tpose_kernel_auto(31, 1000000, 1) == TPOSE_KERNEL_AVX2_STREAM, "31 bytes");
        TT_CHECK(tpose_kernel_auto(1000000, 9, 2) == TPOSE_KERNEL_SWAR, "9 2-byte elements");
        TT_CHECK(tpose_kernel_auto(1000000, 7, 4) == TPOSE_KERNEL_SWAR, "7 floats");
        TT_CHECK(tpose_kernel_auto(10000, 8, 1) == TPOSE_KERNEL_AVX2, "8 bytes in cache");
        TT_CHECK(tpose_kernel_auto(3, 20000, 4) == TPOSE_KERNEL_AVX2, "3 floats in cache");
        TT_CHECK(tpose_kernel_auto(5, 20000, 4) == TPOSE_KERNEL_SWAR, "5 floats in cache");
        TT_CHECK(tpose_kernel_auto(4000000, 8, 8) == TPOSE_KERNEL_AVX2_STREAM, "8 doubles");
        /* destination rows under a line: the portable kernels, but for rows of one vector
           (the vector-side path) */
        TT_CHECK(tpose_kernel_auto(12, 2000000, 4) == TPOSE_KERNEL_SWAR, "12 floats, short rows");
        TT_CHECK(tpose_kernel_auto(5, 4000000, 8) == TPOSE_KERNEL_PREFETCH, "5 doubles");
        TT_CHECK(tpose_kernel_auto(8, 4000000, 4) == TPOSE_KERNEL_AVX2_STREAM, "8 floats");
        TT_CHECK(tpose_kernel_auto(4, 4000000, 8) == TPOSE_KERNEL_AVX2_STREAM, "4 doubles");
        TT_CHECK(tpose_kernel_auto(16, 4000000, 2) == TPOSE_KERNEL_AVX2_STREAM, "16 2-byte");
        TT_CHECK(tpose_kernel_auto(4, 20000, 4) == TPOSE_KERNEL_AVX2, "4 floats in cache");
        TT_CHECK(tpose_kernel_auto(16, 4000000, 4) == TPOSE_KERNEL_AVX2_STREAM, "64-byte rows");
        TT_CHECK(tpose_kernel_auto(4000000, 8, 4) == TPOSE_KERNEL_AVX2_STREAM, "8 floats wide");
        TT_CHECK(tpose_kernel_auto(32, 4000000, 1) == TPOSE_KERNEL_AVX2_STREAM, "32 bytes");
    }
    tpose_kernel_limit(TPOSE_KERNEL_AUTO);
    TT_CHECK(tpose_kernel_auto(100, 100, 1) >= TPOSE_KERNEL_SWAR, "limit lifted");
    if (tpose_kernel_auto(10000, 10000, 1) == TPOSE_KERNEL_AVX512_STREAM) {
        /* the threshold follows the caches (at least L2, an eighth of L3): the fewest rows
           of 1 KiB that stream, then the same bytes in other shapes on either side of it */
        size_t lo = 1, hi = 100000, bytes;
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (tpose_kernel_auto(mid, 1024, 1) == TPOSE_KERNEL_AVX512_STREAM) hi = mid;
            else lo = mid + 1;
        }
        bytes = lo * 1024;
        TT_CHECK(bytes >= 256 * 1024 && bytes < 100000 * 1024, "a threshold from the caches");
        TT_CHECK(tpose_kernel_auto(lo - 1, 1024, 1) == TPOSE_KERNEL_AVX512, "under it");
        TT_CHECK(tpose_kernel_auto(lo, 128, 8) == TPOSE_KERNEL_AVX512_STREAM, "f64 at it");
        TT_CHECK(tpose_kernel_auto(lo - 1, 128, 8) == TPOSE_KERNEL_AVX512, "f64 under it");
        /* narrow short sides (17..63 bytes of rows) take the narrow path, not the edges */
        TT_CHECK(tpose_kernel_auto(bytes / 33 + 1, 33, 1) == TPOSE_KERNEL_AVX512_STREAM,
                 "33 bytes");
        TT_CHECK(tpose_kernel_auto(63, bytes / 63 + 1, 1) == TPOSE_KERNEL_AVX512_STREAM,
                 "63 rows");
        TT_CHECK(tpose_kernel_auto(20000, 17, 1) == TPOSE_KERNEL_AVX512, "17 bytes in cache");
        TT_CHECK(tpose_kernel_auto(20, 4 * 64, 1) == TPOSE_KERNEL_SWAR, "long side too short");
    }
    TT_CHECK(tpose_kernel_auto(100, 100, 0) == TPOSE_KERNEL_NAIVE, "esize 0");
}

/* tpose_padded_ld: the smallest ld >= cols whose rows are an odd number of whole lines. */
static void padded_ld(void)
{
    static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16, 24, 64};
    size_t e, cols;
    for (e = 0; e < sizeof esizes / sizeof *esizes; e++)
        for (cols = 1; cols < 300; cols++) {
            const size_t es = esizes[e], ld = tpose_padded_ld(cols, es);
            size_t smaller;
            TT_CHECK(ld >= cols && ld * es % 64 == 0 && ld * es / 64 % 2 == 1,
                     "padded_ld(%zu, %zu) = %zu", cols, es, ld);
            for (smaller = cols; smaller < ld; smaller++)
                TT_CHECK(smaller * es % 64 != 0 || smaller * es / 64 % 2 == 0,
                         "padded_ld(%zu, %zu) = %zu but %zu fits", cols, es, ld, smaller);
        }
    TT_CHECK(tpose_padded_ld(4000, 1) == 4032, "the article's 4000 -> 4032");
    TT_CHECK(tpose_padded_ld(0, 4) == 0 && tpose_padded_ld(4, 0) == 0, "zero arguments");
    TT_CHECK(tpose_padded_ld((size_t)-1 / 2, 4) == 0, "overflow");
    TT_CHECK(tpose_padded_ld(10, 128) == 10, "esize 128: rows are whole lines already");
}

/* A lone source row (or destination row) may have any leading dimension, SIZE_MAX too:
   every kernel copies it, and under UBSan no walk may form a pointer that wraps from it
   (found by tests/fuzz/fuzz_matrix). */
static void lone_rows_huge_ld(void)
{
    static const size_t esizes[] = {1, 2, 4, 8, 16};
    unsigned char src[16 * 40], dst[16 * 40];
    size_t e, k, n;
    for (e = 0; e < 5; e++)
        for (k = 0; k < TPOSE_KERNEL_COUNT; k++) {
            const size_t es = esizes[e], huge = (size_t)-1 / es;
            if (!tpose_kernel_supported((tpose_kernel)k, es)) continue;
            for (n = 1; n <= 40; n += 13) {
                tt_fill_random(src, sizeof src);
                memset(dst, 0, sizeof dst);
                TT_CHECK(tpose_matrix_with((tpose_kernel)k, dst, 1, src, huge, 1, n, es) == TPOSE_OK &&
                             memcmp(dst, src, n * es) == 0,
                         "%s: 1 x %zu of %zu bytes, source ld SIZE_MAX / esize",
                         tpose_kernel_name((tpose_kernel)k), n, es);
                memset(dst, 0, sizeof dst);
                TT_CHECK(tpose_matrix_with((tpose_kernel)k, dst, huge, src, 1, n, 1, es) == TPOSE_OK &&
                             memcmp(dst, src, n * es) == 0,
                         "%s: %zu x 1 of %zu bytes, destination ld SIZE_MAX / esize",
                         tpose_kernel_name((tpose_kernel)k), n, es);
            }
        }
}

int main(void)
{
#ifdef TT_OPENMP_TEAMS /* the OpenMP build: every large case on a team */
    tpose_set_threads(0);
#endif
    padded_ld();
    tt_fill_random(arena, BUF);
    bad_arguments();
    overlapping_buffers();
    touching_buffers();
    unsupported_kernels();
    empty_matrices();
    names_and_strings();
    kernel_limit();
    lone_rows_huge_ld();
    return tt_finish("test_api");
}
