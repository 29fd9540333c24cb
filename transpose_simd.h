/* transpose_simd.h - the x86 SIMD kernels of transpose.h: SSE2, AVX2 and AVX-512 tiles, the
   streaming and skinny-shape drivers, and CPUID/XGETBV detection. Part of the implementation:
   transpose.h includes it inside its TPOSE_IMPLEMENTATION region unless TPOSE_NO_SIMD, and
   only where TPOSEI_HAVE_SSE2 says the compiler can target x86-64. Do not include it yourself.

   Kernels above SSE2 carry __attribute__((target(...))); the build never needs -mavx2, and
   no instruction above SSE2 runs before CPUID and XGETBV said the CPU and the OS support it.

   TILES (one micro-kernel per element size; the driver handles edges)
   | element | sse2        | avx2               | avx512        |
   |---------|-------------|--------------------|---------------|
   | 1 byte  | u8_16x16    | u8_32x32 (article) | u8_64x64      |
   | 2 bytes | u16_8x8     | u16_16x16          | u16_32x32     |
   | 4 bytes | u32_4x4     | u32_8x8            | u32_16x16     |
   | 8 bytes | u64_2x2     | u64_4x4            | u64_8x8       |
   | 16      | 128-bit     | u128_2x2           | u128_4x4      |
   |         | moves       |                    |               |

   Apart from the article's AVX2 byte kernel, every tile is one network: a vector of L
   128-bit lanes holds L source rows n = 16/esize apart (n elements of each), log2(n) stages
   of unpack lo/hi transpose every lane's n x n block at once, and each result vector is then
   one whole destination row of L * n elements.

   SECTIONS: >>cpu >>kernels-sse2 >>kernels-avx2 >>kernels-avx512 >>drivers >>table
*/
#ifndef TPOSE_TRANSPOSE_SIMD_H
#define TPOSE_TRANSPOSE_SIMD_H

#if !defined(TPOSEI_IMPL_DONE) || !TPOSEI_HAVE_SSE2
#error "transpose_simd.h is part of transpose.h's implementation; include transpose.h"
#endif

/* GCC before 13 warns, in C++ only, that the masked-off operand the AVX-512 unpack and
   insert intrinsics take from _mm512_undefined_epi32() "may be used uninitialized" (GCC bug
   105593); that operand is never read. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cpuid.h>
#include <immintrin.h>

/* Full unrolling of the fixed-trip loops below (at most 32 iterations, constant after
   inlining), so the row arrays live in registers; GCC 8+ and Clang both read this pragma. */
#define TPOSEI_UNROLL _Pragma("GCC unroll 32")

#define TPOSEI_AVX2_FN __attribute__((target("avx2")))
#define TPOSEI_AVX512_FN __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#define TPOSEI_VBMI_FN __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))
#define TPOSEI_AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))
#define TPOSEI_AVX512_INLINE \
    static inline __attribute__((always_inline, target("avx2,avx512f,avx512bw,avx512vl")))
#define TPOSEI_VBMI_INLINE                                                                  \
    static inline                                                                           \
        __attribute__((always_inline, target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))

/* ======================================================================================== */
// >>cpu
/* ======================================================================================== */

enum {
    TPOSEI_CPU_KNOWN = 1,   /* detection ran (0 in the cache means: not yet) */
    TPOSEI_CPU_SSE2 = 2,
    TPOSEI_CPU_AVX2 = 4,    /* AVX2 and the OS saves YMM state */
    TPOSEI_CPU_AVX512 = 8,  /* F, BW, VL and the OS saves ZMM and opmask state */
    TPOSEI_CPU_VBMI = 16    /* AVX-512 VBMI byte permutes, on top of TPOSEI_CPU_AVX512 */
};

/* XCR0, the vector state the OS saves; only called once CPUID reported OSXSAVE. */
static uint64_t tposei_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* CPUID leaves 1 and 7 plus XCR0 (Intel SDM vol. 1, 13.3 and 15.2: YMM needs XCR0 bits 1-2,
   ZMM and opmasks bits 5-7 too). */
static int tposei_cpu_detect(void)
{
    unsigned a, b, c, d, b7 = 0, c7 = 0, max;
    uint64_t xcr0 = 0;
    int f = TPOSEI_CPU_KNOWN;
    if (!__get_cpuid(0, &max, &b, &c, &d) || !__get_cpuid(1, &a, &b, &c, &d)) return f;
    if (d & (1u << 26)) f |= TPOSEI_CPU_SSE2;
    if ((c & (1u << 27)) && (c & (1u << 28))) xcr0 = tposei_xgetbv0(); /* OSXSAVE and AVX */
    if (max >= 7) __cpuid_count(7, 0, a, b7, c7, d);
    if ((xcr0 & 0x6) == 0x6 && (b7 & (1u << 5))) f |= TPOSEI_CPU_AVX2;
    if ((f & TPOSEI_CPU_AVX2) && (xcr0 & 0xE6) == 0xE6 && (b7 & (1u << 16)) &&
        (b7 & (1u << 30)) && (b7 & (1u << 31)))
        f |= TPOSEI_CPU_AVX512;
    if ((f & TPOSEI_CPU_AVX512) && (c7 & (1u << 1))) f |= TPOSEI_CPU_VBMI;
    return f;
}

/* The feature bits, detected on first use. Thread safety: detection is pure and gives the
   same value in every thread, and the cache is read and written with relaxed atomics, so
   concurrent first calls at worst detect twice and store the same word. */
static int tposei_cpu_features(void)
{
    static int cache;
    int f = __atomic_load_n(&cache, __ATOMIC_RELAXED);
    if (f == 0) {
        f = tposei_cpu_detect();
        __atomic_store_n(&cache, f, __ATOMIC_RELAXED);
    }
    return f;
}

TPOSEI_FORCE_INLINE int tposei_cpu_has(int feature)
{
    return (tposei_cpu_features() & feature) == feature;
}

/* ======================================================================================== */
// >>kernels-sse2
/* ======================================================================================== */

/* Interleaves the low halves of a and b in elements of esize bytes: a0 b0 a1 b1 ... */
TPOSEI_FORCE_INLINE __m128i tposei_sse2_lo(__m128i a, __m128i b, size_t esize)
{
    switch (esize) {
    case 1: return _mm_unpacklo_epi8(a, b);
    case 2: return _mm_unpacklo_epi16(a, b);
    case 4: return _mm_unpacklo_epi32(a, b);
    default: return _mm_unpacklo_epi64(a, b);
    }
}

/* The high halves: a(n/2) b(n/2) a(n/2+1) b(n/2+1) ... */
TPOSEI_FORCE_INLINE __m128i tposei_sse2_hi(__m128i a, __m128i b, size_t esize)
{
    switch (esize) {
    case 1: return _mm_unpackhi_epi8(a, b);
    case 2: return _mm_unpackhi_epi16(a, b);
    case 4: return _mm_unpackhi_epi32(a, b);
    default: return _mm_unpackhi_epi64(a, b);
    }
}

/* The perfect-shuffle network on n = 16/esize rows: each stage interleaves row i with row
   i + n/2 into rows 2i and 2i+1; after log2(n) stages row j holds column j (x[i] element k
   moves to position 2k+... of the shuffle, and log2(n) shuffles rotate the row and column
   bits of every index into each other). */
TPOSEI_FORCE_INLINE void tposei_sse2_net(__m128i *x, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize), h = n / 2;
    unsigned s, i;
    __m128i y[16];
    TPOSEI_UNROLL
    for (s = 1; s < n; s *= 2) {
        TPOSEI_UNROLL
        for (i = 0; i < h; i++) {
            y[2 * i] = tposei_sse2_lo(x[i], x[i + h], esize);     /* x_i[0] x_i+h[0] ... */
            y[2 * i + 1] = tposei_sse2_hi(x[i], x[i + h], esize); /* x_i[n/2] x_i+h[n/2].. */
        }
        TPOSEI_UNROLL
        for (i = 0; i < n; i++) x[i] = y[i];
    }
}

/* One n x n tile, n = 16/esize: n row loads, the network, n row stores. */
TPOSEI_FORCE_INLINE void tposei_sse2_tile(unsigned char *dst, size_t dst_stride,
                                          const unsigned char *src, size_t src_stride,
                                          size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    unsigned k;
    __m128i x[16];
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) x[k] = _mm_loadu_si128((const __m128i *)(src + k * src_stride));
    tposei_sse2_net(x, esize);
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) _mm_storeu_si128((__m128i *)(dst + k * dst_stride), x[k]);
}

#define TPOSEI_TILE_KERNEL(name, attr, body, esize)                                         \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride)                                                        \
    {                                                                                        \
        body(dst, dst_stride, src, src_stride, esize);                                       \
    }

TPOSEI_TILE_KERNEL(tposei_u8_16x16_sse2, TPOSEI_FORCE_INLINE, tposei_sse2_tile, 1)
TPOSEI_TILE_KERNEL(tposei_u16_8x8_sse2, TPOSEI_FORCE_INLINE, tposei_sse2_tile, 2)
TPOSEI_TILE_KERNEL(tposei_u32_4x4_sse2, TPOSEI_FORCE_INLINE, tposei_sse2_tile, 4)
TPOSEI_TILE_KERNEL(tposei_u64_2x2_sse2, TPOSEI_FORCE_INLINE, tposei_sse2_tile, 8)

/* ======================================================================================== */
// >>kernels-avx2
/* ======================================================================================== */

TPOSEI_AVX2_INLINE __m256i tposei_avx2_lo(__m256i a, __m256i b, size_t esize)
{
    switch (esize) { /* per 128-bit lane: a0 b0 a1 b1 ... */
    case 1: return _mm256_unpacklo_epi8(a, b);
    case 2: return _mm256_unpacklo_epi16(a, b);
    case 4: return _mm256_unpacklo_epi32(a, b);
    default: return _mm256_unpacklo_epi64(a, b);
    }
}

TPOSEI_AVX2_INLINE __m256i tposei_avx2_hi(__m256i a, __m256i b, size_t esize)
{
    switch (esize) { /* per 128-bit lane: a(n/2) b(n/2) ... */
    case 1: return _mm256_unpackhi_epi8(a, b);
    case 2: return _mm256_unpackhi_epi16(a, b);
    case 4: return _mm256_unpackhi_epi32(a, b);
    default: return _mm256_unpackhi_epi64(a, b);
    }
}

/* tposei_sse2_net in both 128-bit lanes at once. */
TPOSEI_AVX2_INLINE void tposei_avx2_net(__m256i *x, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize), h = n / 2;
    unsigned s, i;
    __m256i y[16];
    TPOSEI_UNROLL
    for (s = 1; s < n; s *= 2) {
        TPOSEI_UNROLL
        for (i = 0; i < h; i++) {
            y[2 * i] = tposei_avx2_lo(x[i], x[i + h], esize);     /* lane-wise x_i[0] x_i+h[0] */
            y[2 * i + 1] = tposei_avx2_hi(x[i], x[i + h], esize); /* lane-wise x_i[n/2] ... */
        }
        TPOSEI_UNROLL
        for (i = 0; i < n; i++) x[i] = y[i];
    }
}

/* A 2n x 2n tile, n = 16/esize, as two column halves of n elements: vector k holds source
   row k (low lane) and row n + k (high lane); after the network vector j is destination
   row j of the half, all 2n elements of it. */
TPOSEI_AVX2_INLINE void tposei_avx2_tile(unsigned char *dst, size_t dst_stride,
                                         const unsigned char *src, size_t src_stride,
                                         size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    unsigned g, k;
    __m256i x[16];
    TPOSEI_UNROLL
    for (g = 0; g < 2; g++) {
        const unsigned char *s = src + g * 16;
        unsigned char *d = dst + g * n * dst_stride;
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) {
            const __m128i lo = _mm_loadu_si128((const __m128i *)(s + k * src_stride));
            const __m128i hi = _mm_loadu_si128((const __m128i *)(s + (n + k) * src_stride));
            x[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1); /* row k | n+k */
        }
        if (n > 1) tposei_avx2_net(x, esize);
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) _mm256_storeu_si256((__m256i *)(d + k * dst_stride), x[k]);
    }
}

/* The article's byte network (reference 004, "256-bit SIMD"): 32 rows in 32 registers; at
   level g (1, 2, 4, 8 bytes) rows i and i + g with i & g == 0 trade their off-diagonal g x g
   blocks: a shuffle swaps neighbouring g-byte groups, a blend picks per group. Byte
   masks: swap[g][b] = (b mod 16) xor g, odd[g][b] = 0x80 where b & g. */
#define TPOSEI_X4(b, g) (((b) & 15) ^ (g)), (((b) + 1) & 15) ^ (g), (((b) + 2) & 15) ^ (g), \
                        (((b) + 3) & 15) ^ (g)
#define TPOSEI_X32(g) {TPOSEI_X4(0, g), TPOSEI_X4(4, g), TPOSEI_X4(8, g), TPOSEI_X4(12, g), \
                       TPOSEI_X4(16, g), TPOSEI_X4(20, g), TPOSEI_X4(24, g), TPOSEI_X4(28, g)}
#define TPOSEI_O4(b, g) ((b) & (g) ? 0x80 : 0), (((b) + 1) & (g) ? 0x80 : 0), \
                        (((b) + 2) & (g) ? 0x80 : 0), (((b) + 3) & (g) ? 0x80 : 0)
#define TPOSEI_O32(g) {TPOSEI_O4(0, g), TPOSEI_O4(4, g), TPOSEI_O4(8, g), TPOSEI_O4(12, g), \
                       TPOSEI_O4(16, g), TPOSEI_O4(20, g), TPOSEI_O4(24, g), TPOSEI_O4(28, g)}
static const unsigned char tposei_avx2_swap[4][32] = {TPOSEI_X32(1), TPOSEI_X32(2),
                                                      TPOSEI_X32(4), TPOSEI_X32(8)};
static const unsigned char tposei_avx2_odd[4][32] = {TPOSEI_O32(1), TPOSEI_O32(2),
                                                     TPOSEI_O32(4), TPOSEI_O32(8)};
#undef TPOSEI_X4
#undef TPOSEI_X32
#undef TPOSEI_O4
#undef TPOSEI_O32

/* One in-lane level over all 16 row pairs (i, i + g). */
TPOSEI_AVX2_INLINE void tposei_avx2_level(__m256i *x, unsigned lvl)
{
    const unsigned g = 1u << lvl;
    const __m256i swap = _mm256_loadu_si256((const __m256i *)tposei_avx2_swap[lvl]);
    const __m256i odd = _mm256_loadu_si256((const __m256i *)tposei_avx2_odd[lvl]);
    unsigned i;
    TPOSEI_UNROLL
    for (i = 0; i < 32; i++) {
        if (i & g) continue;
        {
            const __m256i a = x[i], b = x[i + g];
            const __m256i sa = _mm256_shuffle_epi8(a, swap); /* a's groups 2k <-> 2k+1 */
            const __m256i sb = _mm256_shuffle_epi8(b, swap); /* b's groups 2k <-> 2k+1 */
            x[i] = _mm256_blendv_epi8(a, sb, odd);     /* a0 b0 a2 b2 ... (groups of g) */
            x[i + g] = _mm256_blendv_epi8(sa, b, odd); /* a1 b1 a3 b3 ... */
        }
    }
}

/* 32 x 32 bytes: four shuffle/blend levels, then the 16 x 16 level as a lane permute. */
TPOSEI_AVX2_INLINE void tposei_u8_32x32_avx2(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride)
{
    __m256i x[32];
    unsigned i, lvl;
    TPOSEI_UNROLL
    for (i = 0; i < 32; i++) x[i] = _mm256_loadu_si256((const __m256i *)(src + i * src_stride));
    TPOSEI_UNROLL
    for (lvl = 0; lvl < 4; lvl++) tposei_avx2_level(x, lvl);
    TPOSEI_UNROLL
    for (i = 0; i < 16; i++) {
        const __m256i a = x[i], b = x[i + 16];
        x[i] = _mm256_permute2x128_si256(a, b, 0x20);      /* a.lo | b.lo */
        x[i + 16] = _mm256_permute2x128_si256(a, b, 0x31); /* a.hi | b.hi */
    }
    TPOSEI_UNROLL
    for (i = 0; i < 32; i++) _mm256_storeu_si256((__m256i *)(dst + i * dst_stride), x[i]);
}

TPOSEI_TILE_KERNEL(tposei_u16_16x16_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 2)
TPOSEI_TILE_KERNEL(tposei_u32_8x8_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 4)
TPOSEI_TILE_KERNEL(tposei_u64_4x4_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 8)
TPOSEI_TILE_KERNEL(tposei_u128_2x2_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 16)

/* ======================================================================================== */
// >>kernels-avx512
/* ======================================================================================== */

TPOSEI_AVX512_INLINE __m512i tposei_avx512_lo(__m512i a, __m512i b, size_t esize)
{
    switch (esize) { /* per 128-bit lane: a0 b0 a1 b1 ... */
    case 1: return _mm512_unpacklo_epi8(a, b);
    case 2: return _mm512_unpacklo_epi16(a, b);
    case 4: return _mm512_unpacklo_epi32(a, b);
    default: return _mm512_unpacklo_epi64(a, b);
    }
}

TPOSEI_AVX512_INLINE __m512i tposei_avx512_hi(__m512i a, __m512i b, size_t esize)
{
    switch (esize) { /* per 128-bit lane: a(n/2) b(n/2) ... */
    case 1: return _mm512_unpackhi_epi8(a, b);
    case 2: return _mm512_unpackhi_epi16(a, b);
    case 4: return _mm512_unpackhi_epi32(a, b);
    default: return _mm512_unpackhi_epi64(a, b);
    }
}

/* tposei_sse2_net in all four 128-bit lanes at once. */
TPOSEI_AVX512_INLINE void tposei_avx512_net(__m512i *x, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize), h = n / 2;
    unsigned s, i;
    __m512i y[16];
    TPOSEI_UNROLL
    for (s = 1; s < n; s *= 2) {
        TPOSEI_UNROLL
        for (i = 0; i < h; i++) {
            y[2 * i] = tposei_avx512_lo(x[i], x[i + h], esize);     /* x_i[0] x_i+h[0] ... */
            y[2 * i + 1] = tposei_avx512_hi(x[i], x[i + h], esize); /* x_i[n/2] ... */
        }
        TPOSEI_UNROLL
        for (i = 0; i < n; i++) x[i] = y[i];
    }
}

/* Source rows k, n+k, 2n+k, 3n+k (16 bytes each) as lanes 0..3 of one vector. */
TPOSEI_AVX512_INLINE __m512i tposei_avx512_gather4(const unsigned char *s, size_t stride)
{
    const __m128i r0 = _mm_loadu_si128((const __m128i *)s);
    const __m128i r1 = _mm_loadu_si128((const __m128i *)(s + stride));
    const __m128i r2 = _mm_loadu_si128((const __m128i *)(s + 2 * stride));
    const __m128i r3 = _mm_loadu_si128((const __m128i *)(s + 3 * stride));
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1); /* r0|r1 */
    const __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(r2), r3, 1); /* r2|r3 */
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);                  /* r0..r3 */
}

/* A 4n x 4n tile, n = 16/esize, as four column quarters of n elements: vector k holds
   source rows k, n+k, 2n+k, 3n+k in its lanes; after the network vector j is one whole
   destination row (64 bytes) of the quarter. */
TPOSEI_AVX512_INLINE void tposei_avx512_tile(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride,
                                             size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    unsigned g, k;
    __m512i x[16];
    TPOSEI_UNROLL
    for (g = 0; g < 4; g++) {
        const unsigned char *s = src + g * 16;
        unsigned char *d = dst + g * n * dst_stride;
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) x[k] = tposei_avx512_gather4(s + k * src_stride, n * src_stride);
        if (n > 1) tposei_avx512_net(x, esize);
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) _mm512_storeu_si512((void *)(d + k * dst_stride), x[k]);
    }
}

TPOSEI_TILE_KERNEL(tposei_u8_64x64_avx512, TPOSEI_AVX512_INLINE, tposei_avx512_tile, 1)
TPOSEI_TILE_KERNEL(tposei_u16_32x32_avx512, TPOSEI_AVX512_INLINE, tposei_avx512_tile, 2)
TPOSEI_TILE_KERNEL(tposei_u32_16x16_avx512, TPOSEI_AVX512_INLINE, tposei_avx512_tile, 4)
TPOSEI_TILE_KERNEL(tposei_u64_8x8_avx512, TPOSEI_AVX512_INLINE, tposei_avx512_tile, 8)
TPOSEI_TILE_KERNEL(tposei_u128_4x4_avx512, TPOSEI_AVX512_INLINE, tposei_avx512_tile, 16)

/* ======================================================================================== */
// >>drivers
/* ======================================================================================== */

/* Copies n < 64 bytes with fixed-size moves: no libc call, and no loop a compiler could
   turn back into one (TPOSE_NO_STDLIB). */
TPOSEI_FORCE_INLINE void tposei_copy_short(unsigned char *dst, const unsigned char *src,
                                           size_t n)
{
    size_t o = 0;
    if (n & 32) {
        TPOSEI_MEMCPY(dst, src, 32);
        o = 32;
    }
    if (n & 16) {
        TPOSEI_MEMCPY(dst + o, src + o, 16);
        o += 16;
    }
    if (n & 8) {
        TPOSEI_MEMCPY(dst + o, src + o, 8);
        o += 8;
    }
    if (n & 4) {
        TPOSEI_MEMCPY(dst + o, src + o, 4);
        o += 4;
    }
    tposei_copy_bytes(dst + o, src + o, n & 3);
}

/* Non-temporal copy of one buffered row to the destination: the cache lines the row covers
   whole are streamed (no read for ownership, no cache pollution), the partial lines at both
   ends are stored normally. Returns the offset and length of the streamed middle. */
TPOSEI_FORCE_INLINE size_t tposei_stream_edges(unsigned char *dst, const unsigned char *buf,
                                               size_t bytes, size_t *body)
{
    const size_t mis = (size_t)((uintptr_t)dst & (TPOSEI_CACHE_LINE - 1));
    const size_t h = tposei_min(mis ? TPOSEI_CACHE_LINE - mis : 0, bytes);
    *body = (bytes - h) & ~(size_t)(TPOSEI_CACHE_LINE - 1);
    tposei_copy_short(dst, buf, h);
    tposei_copy_short(dst + h + *body, buf + h + *body, bytes - h - *body);
    return h;
}

TPOSEI_AVX2_INLINE void tposei_stream_row_avx2(unsigned char *dst, const unsigned char *buf,
                                               size_t bytes)
{
    size_t body, o;
    const size_t h = tposei_stream_edges(dst, buf, bytes, &body);
    for (o = h; o < h + body; o += 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(buf + o));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(buf + o + 32));
        _mm256_stream_si256((__m256i *)(dst + o), a); /* one whole line, in two halves */
        _mm256_stream_si256((__m256i *)(dst + o + 32), b);
    }
}

TPOSEI_AVX512_INLINE void tposei_stream_row_avx512(unsigned char *dst, const unsigned char *buf,
                                                   size_t bytes)
{
    size_t body, o;
    const size_t h = tposei_stream_edges(dst, buf, bytes, &body);
    for (o = h; o < h + body; o += 64) /* one whole line per store */
        _mm512_stream_si512((__m512i *)(dst + o), _mm512_loadu_si512((const void *)(buf + o)));
}

/* Orders the streamed stores before anything the caller does next: once per call. */
TPOSEI_FORCE_INLINE void tposei_stream_fence(void) { _mm_sfence(); }

typedef void (*tposei_row_fn)(unsigned char *dst, const unsigned char *buf, size_t bytes);

/* Read prefetch into every cache level: the lines are read within a few blocks. */
#define TPOSEI_PREFETCH_T0(p) __builtin_prefetch((const void *)(p), 0, 3)

/* Geometry of a SIMD run: bands of `band` source rows (one destination line or more),
   blocks of `bcols` source columns; the block `ahead` blocks later is prefetched. */
typedef struct tposei_geom {
    size_t band, bcols, ahead;
    size_t nbc; /* blocks per band */
} tposei_geom;

/* How many bytes of the destination a band covers: 64 (one line) measured best for the
   blocks streamed from L1; the source side of a block is as wide. */
TPOSEI_FORCE_INLINE tposei_geom tposei_simd_geom(const tposei_job *job, size_t esize,
                                                 size_t tile)
{
    tposei_geom g;
    const size_t line = TPOSEI_CACHE_LINE / esize ? TPOSEI_CACHE_LINE / esize : 1;
    g.band = line > tile ? line : tile;
    g.bcols = g.band;
    g.ahead = 4;
    g.nbc = (job->cols + g.bcols - 1) / g.bcols;
    return g;
}

/* Prefetches the source rows [first, last) of the block `ahead` blocks after block
   (rbi, cbi) in the driver's order. */
TPOSEI_FORCE_INLINE void tposei_prefetch_ahead(const tposei_job *job, const tposei_geom *g,
                                               size_t rbi, size_t cbi, size_t esize,
                                               size_t first, size_t last)
{
    const size_t target = rbi * g->nbc + cbi + g->ahead;
    const size_t rb = (target / g->nbc) * g->band, cb = (target % g->nbc) * g->bcols;
    size_t r, o, bytes;
    if (rb >= job->rows) return;
    last = tposei_min(last, job->rows - rb);
    bytes = tposei_min(g->bcols, job->cols - cb) * esize;
    for (r = first; r < last; r++) {
        const unsigned char *row = job->src + (rb + r) * job->src_stride + cb * esize;
        for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_PREFETCH_T0(row + o);
        TPOSEI_PREFETCH_T0(row + bytes - 1);
    }
}

/* One br x bc block at source (rb, cb), written to `out` (the destination, or the stream
   buffer) with row stride `os`: full tiles through `kernel`, the right and bottom strips
   through the scalar edge routine; each tile band also prefetches its share of the rows of
   the block `ahead` blocks later. */
TPOSEI_FORCE_INLINE void tposei_simd_block(const tposei_job *job, const tposei_geom *g,
                                           size_t rbi, size_t cbi, size_t br, size_t bc,
                                           size_t esize, size_t tile, tposei_tile_fn kernel,
                                           unsigned char *out, size_t os)
{
    const size_t ss = job->src_stride;
    const unsigned char *src = job->src + rbi * g->band * ss + cbi * g->bcols * esize;
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    const size_t share = (g->band + full_r / tile) / (full_r / tile + 1);
    size_t r, c;
    for (r = 0; r < full_r; r += tile) {
        tposei_prefetch_ahead(job, g, rbi, cbi, esize, r / tile * share, r / tile * share + share);
        if (tile == 1) {
            tposei_any_block(out + r * esize, os, src + r * ss, ss, 1, bc, esize);
            continue;
        }
        for (c = 0; c < full_c; c += tile) kernel(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
    }
    tposei_prefetch_ahead(job, g, rbi, cbi, esize, full_r / tile * share, g->band);
    tposei_any_block(out + full_c * os, os, src + full_c * esize, ss, full_r, bc - full_c, esize);
    tposei_any_block(out + full_r * esize, os, src + full_r * ss, ss, br - full_r, bc, esize);
}

#define TPOSEI_STREAM_BUF 16384 /* bytes of the L1 block buffer: band x bcols elements */

/* The SIMD driver: blocks band by band; with `stream`, each block is transposed into an
   aligned L1 buffer and its destination rows leave through `stream` (whole lines
   non-temporal), with one fence at the end. */
TPOSEI_FORCE_INLINE void tposei_simd_drive(const tposei_job *job, size_t esize, size_t tile,
                                           tposei_tile_fn kernel, tposei_row_fn stream)
{
    const tposei_geom g = tposei_simd_geom(job, esize, tile);
    unsigned char raw[TPOSEI_STREAM_BUF + TPOSEI_CACHE_LINE];
    unsigned char *buf = raw + (-(uintptr_t)raw & (TPOSEI_CACHE_LINE - 1));
    const size_t bs = g.band * esize; /* buffer row stride */
    size_t rbi, cbi, i;
    TPOSE_ASSERT(g.band * g.bcols * esize <= TPOSEI_STREAM_BUF);
    for (rbi = 0; rbi * g.band < job->rows; rbi++) {
        const size_t rb = rbi * g.band, br = tposei_min(g.band, job->rows - rb);
        for (cbi = 0; cbi < g.nbc; cbi++) {
            const size_t cb = cbi * g.bcols, bc = tposei_min(g.bcols, job->cols - cb);
            unsigned char *dst = job->dst + cb * job->dst_stride + rb * esize;
            if (!stream) {
                tposei_simd_block(job, &g, rbi, cbi, br, bc, esize, tile, kernel, dst,
                                  job->dst_stride);
                continue;
            }
            tposei_simd_block(job, &g, rbi, cbi, br, bc, esize, tile, kernel, buf, bs);
            for (i = 0; i < bc; i++) stream(dst + i * job->dst_stride, buf + i * bs, br * esize);
        }
    }
    if (stream) tposei_stream_fence();
}

/* ======================================================================================== */
// >>table
/* ======================================================================================== */

/* One entry point per ISA, element size and mode; the attribute lets the kernels inline. */
#define TPOSEI_SIMD_RUN(name, attr, esize, tile, kernel, stream)                            \
    static attr void name(const tposei_job *job)                                           \
    {                                                                                      \
        tposei_simd_drive(job, esize, tile, kernel, stream);                               \
    }

TPOSEI_SIMD_RUN(tposei_sse2_e1, , 1, 16, tposei_u8_16x16_sse2, NULL)
TPOSEI_SIMD_RUN(tposei_sse2_e2, , 2, 8, tposei_u16_8x8_sse2, NULL)
TPOSEI_SIMD_RUN(tposei_sse2_e4, , 4, 4, tposei_u32_4x4_sse2, NULL)
TPOSEI_SIMD_RUN(tposei_sse2_e8, , 8, 2, tposei_u64_2x2_sse2, NULL)
TPOSEI_SIMD_RUN(tposei_sse2_e16, , 16, 1, NULL, NULL)

TPOSEI_SIMD_RUN(tposei_avx2_e1, TPOSEI_AVX2_FN, 1, 32, tposei_u8_32x32_avx2, NULL)
TPOSEI_SIMD_RUN(tposei_avx2_e2, TPOSEI_AVX2_FN, 2, 16, tposei_u16_16x16_avx2, NULL)
TPOSEI_SIMD_RUN(tposei_avx2_e4, TPOSEI_AVX2_FN, 4, 8, tposei_u32_8x8_avx2, NULL)
TPOSEI_SIMD_RUN(tposei_avx2_e8, TPOSEI_AVX2_FN, 8, 4, tposei_u64_4x4_avx2, NULL)
TPOSEI_SIMD_RUN(tposei_avx2_e16, TPOSEI_AVX2_FN, 16, 2, tposei_u128_2x2_avx2, NULL)

TPOSEI_SIMD_RUN(tposei_avx2s_e1, TPOSEI_AVX2_FN, 1, 32, tposei_u8_32x32_avx2,
                tposei_stream_row_avx2)
TPOSEI_SIMD_RUN(tposei_avx2s_e2, TPOSEI_AVX2_FN, 2, 16, tposei_u16_16x16_avx2,
                tposei_stream_row_avx2)
TPOSEI_SIMD_RUN(tposei_avx2s_e4, TPOSEI_AVX2_FN, 4, 8, tposei_u32_8x8_avx2,
                tposei_stream_row_avx2)
TPOSEI_SIMD_RUN(tposei_avx2s_e8, TPOSEI_AVX2_FN, 8, 4, tposei_u64_4x4_avx2,
                tposei_stream_row_avx2)
TPOSEI_SIMD_RUN(tposei_avx2s_e16, TPOSEI_AVX2_FN, 16, 2, tposei_u128_2x2_avx2,
                tposei_stream_row_avx2)

TPOSEI_SIMD_RUN(tposei_avx512_e1, TPOSEI_AVX512_FN, 1, 64, tposei_u8_64x64_avx512, NULL)
TPOSEI_SIMD_RUN(tposei_avx512_e2, TPOSEI_AVX512_FN, 2, 32, tposei_u16_32x32_avx512, NULL)
TPOSEI_SIMD_RUN(tposei_avx512_e4, TPOSEI_AVX512_FN, 4, 16, tposei_u32_16x16_avx512, NULL)
TPOSEI_SIMD_RUN(tposei_avx512_e8, TPOSEI_AVX512_FN, 8, 8, tposei_u64_8x8_avx512, NULL)
TPOSEI_SIMD_RUN(tposei_avx512_e16, TPOSEI_AVX512_FN, 16, 4, tposei_u128_4x4_avx512, NULL)

TPOSEI_SIMD_RUN(tposei_avx512s_e1, TPOSEI_AVX512_FN, 1, 64, tposei_u8_64x64_avx512,
                tposei_stream_row_avx512)
TPOSEI_SIMD_RUN(tposei_avx512s_e2, TPOSEI_AVX512_FN, 2, 32, tposei_u16_32x32_avx512,
                tposei_stream_row_avx512)
TPOSEI_SIMD_RUN(tposei_avx512s_e4, TPOSEI_AVX512_FN, 4, 16, tposei_u32_16x16_avx512,
                tposei_stream_row_avx512)
TPOSEI_SIMD_RUN(tposei_avx512s_e8, TPOSEI_AVX512_FN, 8, 8, tposei_u64_8x8_avx512,
                tposei_stream_row_avx512)
TPOSEI_SIMD_RUN(tposei_avx512s_e16, TPOSEI_AVX512_FN, 16, 4, tposei_u128_4x4_avx512,
                tposei_stream_row_avx512)
#undef TPOSEI_SIMD_RUN

/* The entry point for one of the five SIMD element sizes, NULL for the others or when the
   CPU lacks `feature`. */
static tposei_run_fn tposei_simd_pick(size_t esize, int feature, tposei_run_fn e1,
                                      tposei_run_fn e2, tposei_run_fn e4, tposei_run_fn e8,
                                      tposei_run_fn e16)
{
    if (!tposei_cpu_has(feature)) return NULL;
    return tposei_pick_sized(esize, e1, e2, e4, e8, e16, NULL);
}

#define TPOSEI_SIMD_PICK(name, feature, run)                                                \
    static tposei_run_fn name(size_t esize)                                                 \
    {                                                                                       \
        return tposei_simd_pick(esize, feature, run##_e1, run##_e2, run##_e4, run##_e8,     \
                                run##_e16);                                                 \
    }
TPOSEI_SIMD_PICK(tposei_sse2_pick, TPOSEI_CPU_SSE2, tposei_sse2)
TPOSEI_SIMD_PICK(tposei_avx2_pick, TPOSEI_CPU_AVX2, tposei_avx2)
TPOSEI_SIMD_PICK(tposei_avx2_stream_pick, TPOSEI_CPU_AVX2, tposei_avx2s)
TPOSEI_SIMD_PICK(tposei_avx512_pick, TPOSEI_CPU_AVX512, tposei_avx512)
TPOSEI_SIMD_PICK(tposei_avx512_stream_pick, TPOSEI_CPU_AVX512, tposei_avx512s)
#undef TPOSEI_SIMD_PICK

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* TPOSE_TRANSPOSE_SIMD_H */
