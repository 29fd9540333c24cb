/* transpose_neon.h - the AArch64 kernel set of transpose.h: Advanced SIMD (NEON) tiles for
   1, 2, 4, 8 and 16-byte elements and the in-place tile pairs. Part of the implementation:
   transpose.h includes it inside its TPOSE_IMPLEMENTATION region where TPOSEI_HAVE_NEON says
   the compiler targets little-endian AArch64. Do not include it yourself.

   Advanced SIMD is part of every AArch64 CPU, so nothing is probed at run time; the caches
   are not readable from user space there, and the tune table takes its defaults. Nothing
   here walks a matrix: the in-cache walk of transpose.h runs these tiles through the kernel
   set at the end (>>sets).

   TILES (32 bytes a side, as AVX2's, so the walks and AUTO's rules carry over)
   | element | tile  | blocks of 16 bytes a side | network a block        |
   |---------|-------|---------------------------|------------------------|
   | 1 byte  | 32x32 | 2 x 2 of 16x16            | trn1/trn2 at 8, 16, 32, 64 bits |
   | 2 bytes | 16x16 | 2 x 2 of 8x8              | at 16, 32, 64 bits     |
   | 4 bytes | 8x8   | 2 x 2 of 4x4              | at 32, 64 bits         |
   | 8 bytes | 4x4   | 2 x 2 of 2x2              | at 64 bits             |
   | 16      | 2x2   | 2 x 2 of 1x1              | none: moves            |

   A block is n = 16 / esize source rows of one 128-bit vector each; stage s pairs rows i and
   i + 2^s and exchanges their odd and even elements of 2^s * esize bytes (trn1/trn2), and
   after log2(n) stages vector j holds column j. Block (r, c) of the tile lands as block
   (c, r) of the destination.

   SECTIONS: >>cpu >>kernels >>sets
*/
#ifndef TPOSE_TRANSPOSE_NEON_H
#define TPOSE_TRANSPOSE_NEON_H

#if !defined(TPOSEI_IMPL_DONE) || !TPOSEI_HAVE_NEON
#error "transpose_neon.h is part of transpose.h's implementation; include transpose.h"
#endif

#include <arm_neon.h>

#define TPOSEI_NEON_INLINE static inline __attribute__((always_inline))
/* Kernels called through the set's table: out of line, one copy each. */
#define TPOSEI_NEON_KERNEL static __attribute__((noinline))

/* ======================================================================================== */
// >>cpu
/* ======================================================================================== */

/* Advanced SIMD is mandatory on AArch64; CTR_EL0 and friends give line sizes but not cache
   sizes, so the cache fields stay 0 (unknown) and the tune table's defaults stand. */
static void tposei_arch_probe(tposei_cpu *c) { c->isa = TPOSEI_ISA_NEON; }

/* ======================================================================================== */
// >>kernels
/* ======================================================================================== */

/* trn1/trn2 of a and b at `bits`-bit elements: a keeps the even elements of both, b the odd
   ones. `bits` is a constant after inlining, so the switch folds to two instructions. */
TPOSEI_NEON_INLINE void tposei_neon_trn(uint8x16_t *a, uint8x16_t *b, unsigned bits)
{
    uint8x16_t lo, hi;
    switch (bits) {
    case 8:
        lo = vtrn1q_u8(*a, *b);
        hi = vtrn2q_u8(*a, *b);
        break;
    case 16:
        lo = vreinterpretq_u8_u16(vtrn1q_u16(vreinterpretq_u16_u8(*a), vreinterpretq_u16_u8(*b)));
        hi = vreinterpretq_u8_u16(vtrn2q_u16(vreinterpretq_u16_u8(*a), vreinterpretq_u16_u8(*b)));
        break;
    case 32:
        lo = vreinterpretq_u8_u32(vtrn1q_u32(vreinterpretq_u32_u8(*a), vreinterpretq_u32_u8(*b)));
        hi = vreinterpretq_u8_u32(vtrn2q_u32(vreinterpretq_u32_u8(*a), vreinterpretq_u32_u8(*b)));
        break;
    default:
        lo = vreinterpretq_u8_u64(vtrn1q_u64(vreinterpretq_u64_u8(*a), vreinterpretq_u64_u8(*b)));
        hi = vreinterpretq_u8_u64(vtrn2q_u64(vreinterpretq_u64_u8(*a), vreinterpretq_u64_u8(*b)));
        break;
    }
    *a = lo;
    *b = hi;
}

/* The n = 16 / esize rows of one block in v become its n columns. */
TPOSEI_NEON_INLINE void tposei_neon_block(uint8x16_t *v, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    unsigned d, i;
    TPOSEI_UNROLL
    for (d = 1; d < n; d *= 2)
        TPOSEI_UNROLL
        for (i = 0; i < n; i++)
            if (!(i & d)) tposei_neon_trn(&v[i], &v[i + d], (unsigned)(8 * esize * d));
}

/* A 16-byte row at *p, *p then advanced by `step`: one post-indexed LD1 or ST1. GCC 12
   computes every row's address with an add of its own (a third of a byte block's
   instructions); the memory operands tell the compiler which bytes the asm reads or
   writes. */
TPOSEI_NEON_INLINE uint8x16_t tposei_neon_load_step(const unsigned char **p, size_t step)
{
    uint8x16_t v;
    __asm__("ld1 {%0.16b}, [%1], %3"
            : "=w"(v), "+r"(*p)
            : "m"(*(const unsigned char(*)[16]) * p), "r"(step));
    return v;
}

TPOSEI_NEON_INLINE void tposei_neon_store_step(unsigned char **p, size_t step, uint8x16_t v)
{
    __asm__("st1 {%2.16b}, [%0], %3"
            : "+r"(*p), "=m"(*(unsigned char(*)[16]) * p)
            : "w"(v), "r"(step));
}

/* 1 and 2-byte elements: one block (16x16 or 8x8), its rows loaded, transposed, stored.
   Out of line: the four blocks of a tile inlined together are scheduled into one another
   and spill vectors. */
TPOSEI_NEON_INLINE void tposei_neon_block_move(unsigned char *dst, size_t ds,
                                               const unsigned char *src, size_t ss, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    uint8x16_t v[16];
    unsigned i;
    TPOSEI_UNROLL
    for (i = 0; i < n; i++) v[i] = tposei_neon_load_step(&src, ss);
    tposei_neon_block(v, esize);
    TPOSEI_UNROLL
    for (i = 0; i < n; i++) tposei_neon_store_step(&dst, ds, v[i]);
}

TPOSEI_NEON_KERNEL void tposei_u8_16x16_neon(unsigned char *dst, size_t ds,
                                             const unsigned char *src, size_t ss)
{
    tposei_neon_block_move(dst, ds, src, ss, 1);
}

TPOSEI_NEON_KERNEL void tposei_u16_8x8_neon(unsigned char *dst, size_t ds,
                                            const unsigned char *src, size_t ss)
{
    tposei_neon_block_move(dst, ds, src, ss, 2);
}

/* Wider elements: the whole tile in registers (at most 16 vectors), each row's two halves
   one load pair and each destination row's one store pair; block (r, c) lands as block
   (c, r). */
TPOSEI_NEON_INLINE void tposei_neon_wide_tile(unsigned char *dst, size_t ds,
                                              const unsigned char *src, size_t ss, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    uint8x16_t left[8], right[8];
    unsigned i;
    TPOSEI_UNROLL
    for (i = 0; i < 2 * n; i++, src += ss) {
        left[i] = vld1q_u8(src);
        right[i] = vld1q_u8(src + 16);
    }
    tposei_neon_block(left, esize);
    tposei_neon_block(left + n, esize);
    tposei_neon_block(right, esize);
    tposei_neon_block(right + n, esize);
    TPOSEI_UNROLL
    for (i = 0; i < 2 * n; i++, dst += ds) {
        const uint8x16_t *col = i < n ? left : right; /* source column block = row block here */
        vst1q_u8(dst, col[i % n]);
        vst1q_u8(dst + 16, col[n + i % n]);
    }
}

/* A 32-byte tile: block (r, c) of the source lands as block (c, r). */
TPOSEI_NEON_INLINE void tposei_neon_tile(unsigned char *dst, size_t ds, const unsigned char *src,
                                         size_t ss, size_t esize)
{
    const size_t n = 16 / esize;
    const tposei_tile_fn block = esize == 1 ? tposei_u8_16x16_neon : tposei_u16_8x8_neon;
    if (esize > 2) {
        tposei_neon_wide_tile(dst, ds, src, ss, esize);
        return;
    }
    block(dst, ds, src, ss);
    block(dst + 16, ds, src + n * ss, ss);
    block(dst + n * ds, ds, src + 16, ss);
    block(dst + n * ds + 16, ds, src + n * ss + 16, ss);
}

#define TPOSEI_NEON_TILE_FN(name, esize)                                                    \
    TPOSEI_NEON_KERNEL void tposei_##name##_neon(unsigned char *dst, size_t ds,              \
                                                 const unsigned char *src, size_t ss)        \
    {                                                                                       \
        tposei_neon_tile(dst, ds, src, ss, esize);                                          \
    }
TPOSEI_NEON_TILE_FN(u8_32x32, 1)
TPOSEI_NEON_TILE_FN(u16_16x16, 2)
TPOSEI_NEON_TILE_FN(u32_8x8, 4)
TPOSEI_NEON_TILE_FN(u64_4x4, 8)
TPOSEI_NEON_TILE_FN(u128_2x2, 16)
#undef TPOSEI_NEON_TILE_FN

/* In-place tile pairs: the 4x4 blocks at x and y (4 floats or 4 doubles a side: one or two
   vectors a row) both loaded, both transposed, X^T stored over Y and Y^T over X; with x == y
   the block is transposed in place. Each element is loaded once and stored once. */
TPOSEI_NEON_INLINE void tposei_neon_swap(unsigned char *x, unsigned char *y, size_t st,
                                         size_t esize)
{
    /* vector 4h + r: row r, bytes 16h..; a block of n rows starts at every multiple of n */
    const unsigned n = (unsigned)(16 / esize), halves = (unsigned)(esize / 4); /* 1 or 2 */
    unsigned char *xr = x, *yr = y;
    uint8x16_t a[8], b[8];
    unsigned r;
    TPOSEI_UNROLL
    for (r = 0; r < 4; r++, xr += st, yr += st) {
        a[r] = vld1q_u8(xr);
        b[r] = vld1q_u8(yr);
        if (halves == 2) {
            a[4 + r] = vld1q_u8(xr + 16);
            b[4 + r] = vld1q_u8(yr + 16);
        }
    }
    TPOSEI_UNROLL
    for (r = 0; r < 4 * halves; r += n) {
        tposei_neon_block(&a[r], esize);
        tposei_neon_block(&b[r], esize);
    }
    /* row r, half h of X^T is column r % n of X's block (h, r / n) */
    TPOSEI_UNROLL
    for (r = 0; r < 4; r++, x += st, y += st) {
        const unsigned k = 4 * (r / n) + r % n;
        vst1q_u8(y, a[k]);
        vst1q_u8(x, b[k]);
        if (halves == 2) {
            vst1q_u8(y + 16, a[k + n]);
            vst1q_u8(x + 16, b[k + n]);
        }
    }
}

TPOSEI_NEON_KERNEL void tposei_u32_4x4_swap_neon(unsigned char *x, unsigned char *y, size_t st)
{
    tposei_neon_swap(x, y, st, 4);
}

TPOSEI_NEON_KERNEL void tposei_u64_4x4_swap_neon(unsigned char *x, unsigned char *y, size_t st)
{
    tposei_neon_swap(x, y, st, 8);
}

/* ---- skinny shapes: 2 to 4 columns or rows through the structure loads and stores ---- */

/* A tall dense source (rows x S, S = 2..4) is S interleaved columns: one LD2/LD3/LD4 of
   16 / esize rows de-interleaves them into S vectors, column m's next 16 bytes. A wide one
   (S rows, dense destination) is the same backwards: a vector from each row, one ST2..ST4.
   `chunks` runs of 16 bytes of each column (tall) or row (wide); the unused stride is 0. */
typedef void (*tposei_strip_fn)(unsigned char *dst, size_t ds, const unsigned char *src,
                                size_t ss, size_t chunks);

#define TPOSEI_NEON_STRIPS(s, bits, lanes)                                                   \
    TPOSEI_NEON_KERNEL void tposei_tall##s##_u##bits##_neon(                                 \
        unsigned char *dst, size_t ds, const unsigned char *src, size_t ss, size_t chunks)   \
    {                                                                                       \
        unsigned m;                                                                         \
        (void)ss;                                                                           \
        for (; chunks; chunks--, src += 16 * (s), dst += 16) {                               \
            const uint##bits##x##lanes##x##s##_t v =                                        \
                vld##s##q_u##bits((const uint##bits##_t *)(const void *)src);               \
            TPOSEI_UNROLL                                                                   \
            for (m = 0; m < (s); m++)                                                        \
                vst1q_u##bits((uint##bits##_t *)(void *)(dst + m * ds), v.val[m]);           \
        }                                                                                   \
    }                                                                                       \
    TPOSEI_NEON_KERNEL void tposei_wide##s##_u##bits##_neon(                                 \
        unsigned char *dst, size_t ds, const unsigned char *src, size_t ss, size_t chunks)   \
    {                                                                                       \
        uint##bits##x##lanes##x##s##_t v;                                                   \
        unsigned m;                                                                         \
        (void)ds;                                                                           \
        for (; chunks; chunks--, src += 16, dst += 16 * (s)) {                               \
            TPOSEI_UNROLL                                                                   \
            for (m = 0; m < (s); m++)                                                        \
                v.val[m] = vld1q_u##bits((const uint##bits##_t *)(const void *)(src + m * ss)); \
            vst##s##q_u##bits((uint##bits##_t *)(void *)dst, v);                            \
        }                                                                                   \
    }
#define TPOSEI_NEON_STRIPS_ALL(s)                                                            \
    TPOSEI_NEON_STRIPS(s, 8, 16) TPOSEI_NEON_STRIPS(s, 16, 8) TPOSEI_NEON_STRIPS(s, 32, 4)   \
    TPOSEI_NEON_STRIPS(s, 64, 2)
TPOSEI_NEON_STRIPS_ALL(2)
TPOSEI_NEON_STRIPS_ALL(3)
TPOSEI_NEON_STRIPS_ALL(4)
#undef TPOSEI_NEON_STRIPS_ALL
#undef TPOSEI_NEON_STRIPS

/* [wide 0 / tall 1][S - 2][log2 esize] */
#define TPOSEI_NEON_STRIP_ROW(dir, s)                                                        \
    {tposei_##dir##s##_u8_neon, tposei_##dir##s##_u16_neon, tposei_##dir##s##_u32_neon,      \
     tposei_##dir##s##_u64_neon}
static const tposei_strip_fn tposei_neon_strip_fns[2][3][4] = {
    {TPOSEI_NEON_STRIP_ROW(wide, 2), TPOSEI_NEON_STRIP_ROW(wide, 3), TPOSEI_NEON_STRIP_ROW(wide, 4)},
    {TPOSEI_NEON_STRIP_ROW(tall, 2), TPOSEI_NEON_STRIP_ROW(tall, 3), TPOSEI_NEON_STRIP_ROW(tall, 4)}};
#undef TPOSEI_NEON_STRIP_ROW

/* 1 when a short side of `side` elements with `along` on the other goes through the strips
   (given the dense side): 1 to 8-byte elements, 2 to 4 of them, at least one chunk. */
static int tposei_neon_strip_side(size_t side, size_t along, size_t esize)
{
    return esize <= 8 && side >= 2 && side <= 4 && along >= 16 / esize;
}

/* The set's skinny family: the strips where a short side of 2-4 is dense, the rest of the
   long side by the scalar edge routine; other shapes whose short side holds no tile go to
   SWAR, which beats the tile walk's edges there. */
static int tposei_neon_strips(const tposei_job *job, int stream)
{
    const size_t esize = job->esize, ss = job->src_stride, ds = job->dst_stride;
    const int tall = tposei_neon_strip_side(job->cols, job->rows, esize) && ss == job->cols * esize;
    const int wide = tposei_neon_strip_side(job->rows, job->cols, esize) && ds == job->rows * esize;
    const size_t s = tall ? job->cols : job->rows, n = tall ? job->rows : job->cols;
    const size_t full = n / (16 / esize) * (16 / esize);
    (void)stream;
    if (!tall && !wide) {
        if ((job->rows < job->cols ? job->rows : job->cols) >= 32 / esize) return 0;
        tposei_run_swar(job);
        return 1;
    }
    tposei_neon_strip_fns[tall][s - 2][esize == 1 ? 0 : esize == 2 ? 1 : esize == 4 ? 2 : 3](
        job->dst, ds, job->src, ss, full / (16 / esize));
    if (tall)
        tposei_rect(job->dst + full * esize, ds, job->src + full * ss, ss, n - full, s, esize);
    else
        tposei_rect(job->dst + full * ds, ds, job->src + full * esize, ss, s, n - full, esize);
    return 1;
}

/* ======================================================================================== */
// >>sets
/* ======================================================================================== */

/* AUTO leaves a shape to the portable kernels when a side is shorter than a tile (the walk
   would run only its scalar edges) and no strip takes it. */
static int tposei_neon_declines(size_t rows, size_t cols, size_t esize)
{
    const size_t tile = esize <= 16 ? 32 / esize : 1;
    if (tposei_neon_strip_side(cols, rows, esize) || tposei_neon_strip_side(rows, cols, esize))
        return 0;
    return (rows < cols ? rows : cols) < tile;
}

/* The in-cache walk alone: plain stores, no streaming set (nothing here measured `stnp`). */
#define TPOSEI_NEON_SET(e, n, fn)                                                            \
    {TPOSEI_ISA_NEON, 0, e, n, fn, NULL, 0, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, NULL,    \
     NULL, {NULL, NULL}, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, tposei_neon_strips,       \
     TPOSEI_PAIR_ALWAYS, TPOSEI_CARRY_LINES, 0, 0, 0}
static const tposei_kset tposei_neon_sets[] = {
    TPOSEI_NEON_SET(1, 32, tposei_u8_32x32_neon), TPOSEI_NEON_SET(2, 16, tposei_u16_16x16_neon),
    TPOSEI_NEON_SET(4, 8, tposei_u32_8x8_neon), TPOSEI_NEON_SET(8, 4, tposei_u64_4x4_neon),
    TPOSEI_NEON_SET(16, 2, tposei_u128_2x2_neon)};
#undef TPOSEI_NEON_SET

static const tposei_kset *const tposei_neon_list[] = {
    &tposei_neon_sets[0], &tposei_neon_sets[1], &tposei_neon_sets[2], &tposei_neon_sets[3],
    &tposei_neon_sets[4], NULL};

static const tposei_family tposei_neon_family = {TPOSEI_WALK_TILES, tposei_neon_list,
                                                 tposei_neon_declines};

static const tposei_family *tposei_arch_family(tpose_kernel k)
{
    return k == TPOSE_KERNEL_NEON ? &tposei_neon_family : NULL;
}

/* The NEON members of the kit: the in-place tile pairs for 4 and 8-byte elements, where
   tpose_kernel_limit() allows NEON. */
static void tposei_arch_kit(tposei_kit *kit, size_t esize, int (*allowed)(tpose_kernel k))
{
    if (!allowed(TPOSE_KERNEL_NEON) || (esize != 4 && esize != 8)) return;
    kit->swap = esize == 4 ? tposei_u32_4x4_swap_neon : tposei_u64_4x4_swap_neon;
    kit->swap_edge = 4;
}

#if defined(TPOSEI_TESTING)
/* Every NEON kernel beside the shape of its scalar twin, for tests that compare them one to
   one (tests/test_neon.c). */
typedef struct tposei_neon_entry {
    const char *name;
    size_t esize, tile;
    tposei_tile_fn kernel;
} tposei_neon_entry;

static const tposei_neon_entry tposei_neon_table[] = {
    {"u8_16x16_neon", 1, 16, tposei_u8_16x16_neon},
    {"u16_8x8_neon", 2, 8, tposei_u16_8x8_neon},
    {"u8_32x32_neon", 1, 32, tposei_u8_32x32_neon},
    {"u16_16x16_neon", 2, 16, tposei_u16_16x16_neon},
    {"u32_8x8_neon", 4, 8, tposei_u32_8x8_neon},
    {"u64_4x4_neon", 8, 4, tposei_u64_4x4_neon},
    {"u128_2x2_neon", 16, 2, tposei_u128_2x2_neon},
};
#endif

#endif /* TPOSE_TRANSPOSE_NEON_H */
