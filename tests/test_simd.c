/* test_simd.c - the x86 SIMD kernels of one ISA (argument: sse2, avx2, avx512 or vbmi; exit
   77 when this CPU or build lacks it): every micro-kernel against its scalar twin one to one,
   then the paths small shapes do not reach: skinny shapes (VBMI), destinations on cache lines
   with whole-line strides (the direct non-temporal mode), and large blocked shapes, each
   byte-exact against the reference with guard bytes around and between the rows. */
#define TPOSEI_TESTING /* the tile table and tposei_emulate */
#define TPOSE_IMPLEMENTATION
#include "transpose.h"
#include "tpose_test.h"

#if TPOSEI_HAVE_SSE2

/* A buffer whose byte `TT_PAD` is 64-byte aligned; `off` shifts the data from there. */
typedef struct arena {
    unsigned char *raw, *base;
    size_t bytes;
} arena;

static void arena_make(arena *a, size_t bytes)
{
    a->raw = (unsigned char *)tt_alloc(bytes + 2 * TT_PAD + 64);
    a->base = a->raw + (64 - (uintptr_t)a->raw % 64) % 64;
    a->bytes = bytes + 2 * TT_PAD;
}

/* One micro-kernel and its scalar twin (the edge routine on one tile of its shape) on
   random tiles with random strides and offsets (offsets and strides kept whole lines for the
   non-temporal kernels). */
static void check_twins(unsigned feature)
{
    size_t i;
    for (i = 0; i < sizeof tposei_tile_table / sizeof *tposei_tile_table; i++) {
        const tposei_tile_entry *t = &tposei_tile_table[i];
        int round;
        if (t->isa != feature) continue;
        for (round = 0; round < 200; round++) {
            const size_t row = t->tile * t->esize, align = t->nt ? 64 : 1;
            const size_t ss = row + tt_rand_below(100), soff = tt_rand_below(64);
            const size_t ds = (row + tt_rand_below(100) + align - 1) / align * align;
            const size_t doff = t->nt ? 0 : tt_rand_below(64), dbytes = ds * t->tile + 64;
            unsigned char *src = (unsigned char *)tt_alloc(ss * t->tile + 64);
            arena want, got;
            arena_make(&want, dbytes);
            arena_make(&got, dbytes);
            tt_fill_random(src, ss * t->tile + 64);
            memset(want.base, TT_GUARD, want.bytes);
            memset(got.base, TT_GUARD, got.bytes);
            tposei_rect(want.base + TT_PAD + doff, ds, src + soff, ss, t->tile, t->tile,
                        t->esize);
            t->kernel(got.base + TT_PAD + doff, ds, src + soff, ss);
            tposei_stream_fence();
            TT_CHECK(memcmp(want.base, got.base, want.bytes) == 0,
                     "%s vs its twin: strides %zu/%zu offsets %zu/%zu", t->name, ss, ds, soff,
                     doff);
            free(src);
            free(want.raw);
            free(got.raw);
        }
    }
}

/* When set, check_shape runs this kernel set directly (with direct_walk) instead of
   tpose_matrix_with: the 1-byte AVX-512 set without VBMI, which dispatch never picks on a
   CPU with it. */
static const tposei_kset *direct_set = NULL;
static int direct_walk;
static const char *direct_name = "";

/* One shape through one kernel, destination at `doff` from a cache line. */
static void check_shape(tpose_kernel k, size_t rows, size_t cols, size_t esize, size_t src_ld,
                        size_t dst_ld, size_t soff, size_t doff)
{
    const size_t sbytes = ((rows - 1) * src_ld + cols) * esize + soff;
    const size_t dbytes = ((cols - 1) * dst_ld + rows) * esize + doff;
    unsigned char *src = (unsigned char *)tt_alloc(sbytes);
    arena want, got;
    tpose_status st;
    arena_make(&want, dbytes);
    arena_make(&got, dbytes);
    tt_fill_random(src, sbytes);
    memset(want.base, TT_GUARD, want.bytes);
    memset(got.base, TT_GUARD, got.bytes);
    tt_reference(want.base + TT_PAD + doff, dst_ld, src + soff, src_ld, rows, cols, esize);
    if (direct_set && esize == 1) {
        tposei_job job;
        job.dst = got.base + TT_PAD + doff;
        job.src = src + soff;
        job.dst_stride = dst_ld;
        job.src_stride = src_ld;
        job.rows = rows;
        job.cols = cols;
        job.esize = 1;
        tposei_run_set(&job, direct_set, direct_walk);
        st = TPOSE_OK;
    } else {
        st = tpose_matrix_with(k, got.base + TT_PAD + doff, dst_ld, src + soff, src_ld, rows,
                               cols, esize);
    }
    TT_CHECK(st == TPOSE_OK, "%s returned %d", tpose_kernel_name(k), (int)st);
    TT_CHECK(memcmp(want.base, got.base, want.bytes) == 0,
             "%s%s %zux%zu esize %zu ld %zu/%zu offsets %zu/%zu", tpose_kernel_name(k),
             direct_name, rows, cols, esize, src_ld, dst_ld, soff, doff);
    free(src);
    free(want.raw);
    free(got.raw);
}

static const size_t simd_esizes[] = {1, 2, 4, 8, 16};

/* Skinny: every short side 1..17 (bytes 1..33) in both orientations, dense and not, odd
   long sides and two of whole chunks (the loops that read or store past a step must stop
   before the end): 8, and 27, which Intel's four parts of two-chunk steps
   (TPOSEI_SKINNY_PARTS) take as 24 and leave 3 to the one-chunk loop. */
static void check_skinny(tpose_kernel k)
{
    size_t e, s, v;
    for (e = 0; e < 4; e++)
        for (s = 1; s <= (e == 0 ? 33u : 17u); s++)
            for (v = 0; v < 6; v++) {
                const size_t esize = simd_esizes[e];
                const size_t n = v >= 4 ? (v == 4 ? 8 : 27) * 64 / esize
                                        : 4 * 64 / esize + 1 + 67 * v;
                const size_t pad = v == 3, off = v == 2 ? 5 * esize : 0;
                check_shape(k, n, s, esize, s + pad, n, off, off);     /* tall */
                check_shape(k, s, n, esize, n, s + pad, off, 3 + off); /* wide */
            }
    /* tall destinations off lines by every byte offset, streamed through the joins: a short
       side in the shuffle networks (7 bytes, 3 elements), in both rows16 groups (20 bytes),
       and of 13 elements (AVX-512: the narrow path, from TPOSEI_SKINNY_TALL_MAX + 1) */
    for (e = 0; e < 4; e++)
        for (v = 1; v < 64; v++) {
            const size_t esize = simd_esizes[e], n = 4 * 64 / esize + 67;
            check_shape(k, n, e == 0 ? 7 : 3, esize, e == 0 ? 7 : 3, n, 0, v);
            check_shape(k, n, 13, esize, 13, n, 0, v);
            if (e == 0) check_shape(k, n, 20, 1, 20, n, 0, v);
        }
    /* wide bytes of 9-31 rows past several of the rows16 stream buffer's blocks */
    for (s = 9; s <= 31; s++) check_shape(k, s, 1067, 1, 1067, s, 0, 3);
}

/* AVX2's vector sides (tposei_vside_run: short sides of 16 or 32 bytes, bytes of 8), tall
   and wide, with the destination at every offset from a cache line (tall: joined rows; wide:
   the L1 buffer's runs) and a long side past several of the buffer's blocks. */
static void check_vside(tpose_kernel k)
{
    static const size_t sides[][2] = {{8, 1}, {16, 1}, {32, 1}, {8, 2}, {16, 2}, {4, 4},
                                      {8, 4}, {2, 8}, {4, 8}, {2, 16}};
    size_t i, off;
    for (i = 0; i < sizeof sides / sizeof sides[0]; i++)
        for (off = 0; off < 64; off += sides[i][1] == 1 ? 1 : 3) {
            const size_t s = sides[i][0], esize = sides[i][1], n = 4099 / esize;
            check_shape(k, n, s, esize, s, n, off % 7, off);  /* tall */
            check_shape(k, s, n, esize, n, s, off % 5, off);  /* wide */
        }
}

/* Source rows of 64..256 bytes with destination rows off lines: Zen 3's whole-width joined
   walk of bytes (tposei_u8_join_whole: one tile row a band, carries kept from band to band),
   past one and several bands, the last band whole or partial, the last tile column whole or
   overlapping, destination strides and offsets off lines; the same shapes one column past
   and on a source stride that crowds L1 take the joined blocks. Every element size. */
static void check_join_whole(tpose_kernel k)
{
    static const size_t cols_of[] = {64, 65, 127, 128, 129, 200, 255, 256, 257};
    static const size_t rows_of[] = {64, 128, 191, 5 * 64 + 37};
    size_t e, c, r, v;
    for (e = 0; e < 5; e++)
        for (c = 0; c < sizeof cols_of / sizeof cols_of[0]; c++)
            for (r = 0; r < sizeof rows_of / sizeof rows_of[0]; r++)
                for (v = 0; v < 3; v++) { /* v: source stride dense, spread, crowding L1 */
                    const size_t esize = simd_esizes[e], rows = rows_of[r] + 3 * v;
                    const size_t cols = cols_of[c] / esize + 2 * (esize > 1);
                    const size_t src_ld = v == 2 ? 4096 / esize : cols + v;
                    const size_t doff = (1 + 20 * v) * esize % 64;
                    check_shape(k, rows, cols, esize, src_ld, rows + v + 1, v, doff);
                }
}

/* Destinations on cache lines with strides of whole lines (direct non-temporal tiles; bytes
   and 2-byte elements on Zen 3 end in a tile column overlapping the one before, the widths
   here being no whole number of tiles), and the same shapes one byte off (the buffered
   mode), crossing every band and block edge. */
static void check_large(tpose_kernel k)
{
    static const size_t dims[][2] = {{1100, 300}, {300, 1100}, {1031, 1027}};
    size_t e, d, m;
    for (e = 0; e < 5; e++)
        for (d = 0; d < 3; d++)
            for (m = 0; m < 2; m++) {
                const size_t esize = simd_esizes[e], line = 64 / (esize < 64 ? esize : 64);
                const size_t rows = dims[d][0] / esize + 17, cols = dims[d][1] / esize + 33;
                const size_t dst_ld = (rows + line - 1) / line * line + line * (d == 2);
                check_shape(k, rows, cols, esize, cols + 3 * d, dst_ld, d, m * esize);
            }
    /* past two direct-mode bands and blocks: 8 lines by 512 rows, and Zen 5's 8- and 16-byte
       blocks of 32 lines by 64 rows */
    for (e = 0; e < 10; e++) {
        const size_t esize = simd_esizes[e % 5], line = 64 / (esize < 64 ? esize : 64);
        const size_t rows = 2 * (e < 5 ? 8 : 32) * line + 7, cols = 2 * (e < 5 ? 512 : 64) + 45;
        const size_t dst_ld = (rows + line - 1) / line * line;
        const size_t dst_ld512 = (rows * esize + 511) / 512 * 512 / esize; /* walked down */
        const size_t dst_ld1k = (rows * esize + 1023) / 1024 * 1024 / esize; /* Zen 5 f64 down */
        for (m = 0; m < 2; m++) check_shape(k, rows, cols, esize, cols + 1, dst_ld + m, 3, 0);
        check_shape(k, rows, cols, esize, cols + 1, dst_ld512, 3, 0);
        check_shape(k, rows, cols, esize, cols + 1, dst_ld1k, 3, 0);
        /* bytes' direct blocks across on Zen 5: a tile wide on shorter source strides (above),
           256 rows on longer ones */
        if (esize == 1 && e < 5) check_shape(k, rows, cols, esize, 10304, dst_ld, 3, 0);
        if (esize <= 2 && e < 5) {
            /* Zen 3's blocks of bytes and 2-byte elements, a tile tall and 4096 elements
               wide: past one across, direct (source stride 4096 + 144 elements) and aliasing
               (8192); then on a destination stride of 512-byte multiples, where the 2-byte
               ones walk down (the aliasing ones two tiles at a time, 64-row bands) */
            check_shape(k, rows, 4096 + 77, esize, 4096 + 77 + 67, dst_ld, 0, 0);
            check_shape(k, rows, 4096 + 77, esize, 8192, dst_ld, 0, 0);
            check_shape(k, rows, 4096 + 77, esize, 4096 + 77 + 67, dst_ld512, 0, 0);
            check_shape(k, rows, 4096 + 77, esize, 8192, dst_ld512, 0, 0);
        }
        /* dense destinations off lines: row seams, across bands and blocks, and the last
           tile column overlapping the one before */
        check_shape(k, rows, cols, esize, cols + 1, rows, 0, 5 * esize);
        check_shape(k, cols, rows, esize, rows, cols, 0, 3 * esize);
    }
    /* 4 KiB source strides: destination rows on lines take the aliasing geometry (2x8-line
       blocks; walked down on a 1 KiB destination stride), one element off the direct blocks
       joined by the rows-once tiles; then 3 KiB */
    for (e = 0; e < 5; e++) {
        const size_t esize = simd_esizes[e], line = 64 / (esize < 64 ? esize : 64);
        const size_t ld = 4096 / esize, rows = 700 / esize + 17, cols = ld - 5;
        const size_t dst_ld = (rows + line - 1) / line * line;
        for (m = 0; m < 2; m++) check_shape(k, rows, cols, esize, ld, dst_ld + m, 0, 0);
        check_shape(k, rows, cols, esize, ld, 1024 / esize, 0, 0);
        /* 3 KiB: bytes' tiles in 4 L1 sets, rows of 1 KiB (the quarter tile walked across) */
        check_shape(k, rows, 3072 / esize - 5, esize, 3072 / esize, 1024 / esize, 0, 0);
        /* 32 KiB: the aliasing blocks only where they are walked down */
        check_shape(k, 300 / esize + 7, 700 / esize + 45, esize, 32768 / esize, 1024 / esize,
                    0, 0);
        /* a line past 32 KiB, not aliasing, rows 2 KiB apart: direct blocks walked down on
           Zen 5 (past the narrow path's short sides) */
        check_shape(k, 300 / esize + 64, 700 / esize + 45, esize, 32832 / esize, 2048 / esize,
                    0, 0);
        /* 1 KiB: bytes' aliasing blocks on Zen 5 span whole source rows
           (TPOSEI_ALIAS_WHOLE_ROW_ZEN5), past two bands walked across (128 rows) and down (256
           rows on a 1.5 KiB destination stride), the last tile column partial */
        const size_t rows1k = 2 * 256 + 69, cols1k = 1024 / esize - 5;
        check_shape(k, rows1k, cols1k, esize, 1024 / esize, (rows1k + line - 1) / line * line,
                    0, 0);
        check_shape(k, rows1k, cols1k, esize, 1024 / esize,
                    (rows1k * esize + 1023) / 512 * 512 / esize, 0, 0);
    }
    check_join_whole(k);
}

/* n x 8 and 8 x n of 8-byte elements (the AVX-512 n x 8 driver, both ways): long sides that
   end after a pair, after a single chunk and in the scalar tail, dense and padded, the AoS
   side on lines and off them. */
static void check_tall8(tpose_kernel k)
{
    static const size_t longs[] = {2048 + 16 + 8 + 5, 2 * 2048 - 1, 3 * 2048 + 24, 2048};
    size_t l, v;
    for (l = 0; l < sizeof longs / sizeof longs[0]; l++)
        for (v = 0; v < 3; v++) {
            const size_t n = longs[l], dst_ld = v == 2 ? n + 3 : n;
            check_shape(k, n, 8, 8, 8 + (v == 1), dst_ld, 8 * v, v == 0 ? 0 : 8);
            check_shape(k, 8, n, 8, dst_ld, 8 + (v == 1), v == 0 ? 0 : 8, 8 * v); /* wide */
        }
    /* tall destinations off lines by an odd byte (plain stores), by 2 and by 36 (joins) */
    for (l = 0; l < sizeof longs / sizeof longs[0]; l++)
        for (v = 0; v < 3; v++) check_shape(k, longs[l], 8, 8, 8, longs[l], 0, v ? 34 * v - 32 : 1);
}

/* Matrices one line tile column wide (n..2n-1 columns, n = 64 / esize) on destination
   strides of a multiple of 512 bytes (walked down): tiles four at a time (AVX2, 4-16-byte
   elements) or two (AVX2's others), then the single tiles left, then the bottom strip, and
   the right strip past n columns. */
static void check_one_column(tpose_kernel k)
{
    size_t e, c;
    for (e = 0; e < 5; e++) {
        const size_t esize = simd_esizes[e], n = 64 / esize, rows = 11 * n + 5;
        const size_t dst_ld = (rows * esize + 511) / 512 * 512 / esize;
        for (c = n; c < 2 * n; c += n / 2 + 1) check_shape(k, rows, c, esize, c, dst_ld, 0, 0);
    }
}

/* Narrow short sides, every one of 17..63 elements both ways (the AVX-512 narrow path):
   long sides just past 4 chunks, ending on a chunk (tall: the last chunk left to the edge
   routine), mid-chunk and 2 past 4 chunks; tall destinations on lines (non-temporal), off
   them by an element, by one byte (byte joins) and by 2 bytes; wide destinations dense on
   and off lines (packed lines) and with gaps between rows (row by row); sources padded. */
static void check_narrow(tpose_kernel k)
{
    size_t e, s, v;
    for (e = 0; e < 4; e++)
        for (s = 17; s <= 63; s++)
            for (v = 0; v < 4; v++) {
                const size_t esize = simd_esizes[e], per = 64 / esize;
                const size_t n = v == 0 ? 4 * per + 1
                                 : v == 1 ? 5 * per
                                 : v == 2 ? 6 * per + per / 2 + 3
                                          : 4 * per + 2;
                const size_t on_lines = (n + per - 1) / per * per;
                const size_t tall_ld[] = {on_lines, n, n + 1, n};
                const size_t tall_off[] = {0, esize, 1, 2};
                const size_t wide_off[] = {0, 61, 7, 1};
                check_shape(k, n, s, esize, s + (v == 2), tall_ld[v], v == 2 ? 5 * esize : 0,
                            tall_off[v]);
                check_shape(k, s, n, esize, n + 3 * (v == 2), s + (v == 2), 0, wide_off[v]);
            }
}

/* Dense destinations of short rows, off cache lines (AVX2's dense mode: all rows by an L1
   buffer of columns, each block leaving as one contiguous run): rows of 1..192 bytes
   crossing every tile edge, long sides past two blocks and mid-tile, destination at a line,
   an element and a byte from one, sources padded. Shorter rows and other paths take what
   dispatch gives them, checked the same. */
static void check_dense(tpose_kernel k)
{
    static const size_t rows_of[] = {1,  2,  5,   17,  31,  33,  47,  63,
                                     64, 65, 100, 127, 129, 150, 191, 192};
    size_t e, i, v;
    for (e = 0; e < 5; e++)
        for (i = 0; i < sizeof rows_of / sizeof rows_of[0]; i++)
            for (v = 0; v < 3; v++) {
                const size_t esize = simd_esizes[e], rows = rows_of[i], row = rows * esize;
                const size_t cols = row > 192 ? 0 : 2 * (32768 / row) + 45 + 17 * v;
                const size_t doff = v == 0 ? 0 : v == 1 ? esize : 1;
                if (cols) check_shape(k, rows, cols, esize, cols + 3 * v, rows, v, doff);
            }
}

static int isa_feature(const char *name, tpose_kernel *k)
{
    *k = TPOSE_KERNEL_AVX512_STREAM;
    if (strcmp(name, "sse2") == 0) {
        *k = TPOSE_KERNEL_SSE2;
        return TPOSEI_ISA_SSE2;
    }
    if (strcmp(name, "avx2") == 0) {
        *k = TPOSE_KERNEL_AVX2_STREAM;
        return TPOSEI_ISA_AVX2;
    }
    if (strcmp(name, "avx512") == 0) return TPOSEI_ISA_AVX512;
    if (strcmp(name, "vbmi") == 0) return TPOSEI_ISA_VBMI;
    return -1;
}

/* The second argument: `join-short` takes the joined blocks of large matrices (tune:
   join_short_max 0) on the small shapes, `groups` walks the aliasing blocks in column groups
   one block wide on every destination stride (tune: group_rows, group_stride 64), so the
   shapes cross the groups' edges. Applied after every change of CPU class. */
static const char *tune_mode = "";

static void emulate(int cls)
{
    tposei_tune *t = &tposei_context_store.tune;
    tposei_emulate(cls);
    if (strcmp(tune_mode, "join-short") == 0) t->join_short_max = 0;
    if (strcmp(tune_mode, "groups") == 0) t->group_rows = t->group_stride = 64;
}

/* The tune table of CPU class `cls` on this CPU, or of the plain rules where this CPU is of
   that class: "the other CPU family's geometry". */
static void emulate_other(int cls)
{
    emulate(-1);
    emulate(tposei_cpu_class(&tposei_context_get()->cpu) == (unsigned)cls ? TPOSEI_CLASS_ANY
                                                                          : cls);
}

/* Derived tune values follow the caches: streaming from an eighth of L3 (source and
   destination a quarter), never under L2; L2 alone where CPUID gave no L3. */
static void check_tune_derive(void)
{
    tposei_cpu c;
    tposei_tune t;
    memset(&c, 0, sizeof c);
    c.l2 = (size_t)1 << 20;
    c.l3 = (size_t)32 << 20;
    tposei_tune_derive(&t, &c);
    TT_CHECK(t.stream_from == (size_t)4 << 20, "stream_from: L3 / 8");
    c.l3 = (size_t)4 << 20;
    tposei_tune_derive(&t, &c);
    TT_CHECK(t.stream_from == (size_t)1 << 20, "stream_from: at least L2");
    c.l3 = 0;
    c.l2 = (size_t)512 << 10;
    tposei_tune_derive(&t, &c);
    TT_CHECK(t.stream_from == (size_t)512 << 10, "stream_from: L2 without L3");
    TT_CHECK(t.alias_span == 4096, "alias_span: a page where CPUID gave no L1 way");
    c.l1_span = 8192;
    tposei_tune_derive(&t, &c);
    TT_CHECK(t.alias_span == 8192, "alias_span: the L1 way");
    c.l1_span = 12;
    tposei_tune_derive(&t, &c);
    TT_CHECK(t.alias_span == 4096, "alias_span: a page for a way of under 1 KiB");
}

int main(int argc, char **argv)
{
    tpose_kernel k;
    const int feature = argc > 1 ? isa_feature(argv[1], &k) : -1;
    if (feature < 0) {
        fprintf(stderr, "usage: test_simd sse2|avx2|avx512|vbmi [join-short|groups]\n");
        return 2;
    }
    if (argc > 2) tune_mode = argv[2];
    if (feature == TPOSEI_ISA_SSE2 && argc == 2) check_tune_derive();
    emulate(-1);
    if (!tposei_cpu_has((unsigned)feature)) {
        printf("test_simd %s: not on this CPU, skipped\n", argv[1]);
        return TT_SKIP;
    }
    if (feature == TPOSEI_ISA_VBMI) {
        check_skinny(TPOSE_KERNEL_AVX512);
        check_skinny(TPOSE_KERNEL_AVX512_STREAM);
        check_skinny(TPOSE_KERNEL_AUTO);
        /* Intel's parts of the tall streaming loop (tune: skinny_parts), or the one stream
           where this is Intel */
        emulate_other(TPOSEI_CLASS_INTEL);
        check_skinny(TPOSE_KERNEL_AVX512_STREAM);
        emulate(-1);
    } else {
        check_twins((unsigned)feature);
        check_large(k);
        if (k != TPOSE_KERNEL_SSE2) check_dense(k);
        if (k != TPOSE_KERNEL_SSE2) check_one_column(k);
        if (feature == TPOSEI_ISA_AVX2) { /* the skinny path without VBMI */
            check_skinny(k);
            check_skinny((tpose_kernel)(k - 1));
            check_vside(k);
            check_vside((tpose_kernel)(k - 1));
        }
        if (feature == TPOSEI_ISA_AVX512) {
            check_tall8(k);
            check_tall8((tpose_kernel)(k - 1));
            check_narrow(k);
            check_narrow((tpose_kernel)(k - 1));
            check_narrow(TPOSE_KERNEL_AUTO);
        }
        if (k != TPOSE_KERNEL_SSE2) check_large((tpose_kernel)(k - 1)); /* the in-cache mode */
    }
    if (feature == TPOSEI_ISA_AVX512 || feature == TPOSEI_ISA_AVX2) {
        /* the stream geometry of the other CPU family (Zen 5's tune rows) */
        emulate_other(TPOSEI_CLASS_ZEN5);
        check_large(k);
        check_dense(k);
        if (feature == TPOSEI_ISA_AVX512) check_tall8(k); /* the n x 8 chunk pairs */
        /* Zen 3's byte blocks (tune: u8_run), or the others' where this is Zen 3 */
        emulate_other(TPOSEI_CLASS_ZEN3);
        check_large(k);
        check_dense(k);
        emulate(-1);
    }
    if (feature == TPOSEI_ISA_AVX512) {
        /* Intel's tile pairs walked across (tune: across_pairs), or the others' single tiles
           where this is Intel */
        emulate_other(TPOSEI_CLASS_INTEL);
        check_large(k);
        check_dense(k);
        check_tall8(k); /* and the n x 8 parts (tposei_rows8_parts) */
        emulate(-1);
    }
    if (feature == TPOSEI_ISA_AVX512) { /* the byte tiles a CPU without VBMI runs */
        direct_set = &tposei_avx512_sets[1];
        direct_name = " (no VBMI)";
        direct_walk = TPOSEI_WALK_STREAM;
        check_large(TPOSE_KERNEL_AVX512_STREAM);
        direct_walk = TPOSEI_WALK_TILES;
        check_large(TPOSE_KERNEL_AVX512);
        direct_set = NULL;
    }
    return tt_finish(argv[1]);
}

#else
int main(void)
{
    (void)tposei_emulate; /* the tune hook: nothing to emulate without SIMD kernels */
    printf("test_simd: no x86 SIMD in this build, skipped\n");
    return TT_SKIP;
}
#endif
