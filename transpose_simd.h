/* transpose_simd.h - the x86 SIMD kernels of transpose.h: SSE2, AVX2 and AVX-512 tiles, the
   streaming and skinny-shape drivers, and CPUID/XGETBV detection. Part of the implementation:
   transpose.h includes it inside its TPOSE_IMPLEMENTATION region unless TPOSE_NO_SIMD, and
   only where TPOSEI_HAVE_SSE2 says the compiler can target x86-64. Do not include it yourself.

   Kernels above SSE2 carry __attribute__((target(...))); the build never needs -mavx2, and
   no instruction above SSE2 runs before CPUID and XGETBV said the CPU and the OS support it.

   TILES (one micro-kernel per element size; the driver handles edges)
   | element | sse2        | avx2               | avx512        |
   |---------|-------------|--------------------|---------------|
   | 1 byte  | u8_16x16    | u8_32x32           | u8_64x64      |
   | 2 bytes | u16_8x8     | u16_16x16          | u16_32x32     |
   | 4 bytes | u32_4x4     | u32_8x8            | u32_16x16     |
   | 8 bytes | u64_2x2     | u64_4x4            | u64_8x8       |
   | 16      | 128-bit     | u128_2x2           | u128_4x4      |
   |         | moves       |                    |               |

   The AVX2 stream mode also has line tiles of 64 bytes a side (u8_64x64_avx2_nt: each
   source line read once, through an L1 block; the others by four groups of rows through two
   32-byte networks each); the article's AVX2 byte network is kept beside the unpack one
   (tposei_u8_32x32_avx2_article). Every other tile is one network: a vector of L
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

/* GCC before 13 warns (in C++, and in C under sanitizers) that the masked-off operand the
   AVX-512 unpack and insert intrinsics take from _mm512_undefined_epi32() is (maybe) used
   uninitialized (GCC bug 105593); that operand is never read. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <cpuid.h>
#include <immintrin.h>

/* Full unrolling of the fixed-trip loops below (at most 32 iterations, constant after
   inlining), so the row arrays live in registers; GCC 8+ and Clang both read this pragma.
   nvcc's front end does not know it (a warning, an error under -Werror all-warnings), so
   host code compiled by nvcc goes without the hint. */
#if defined(__CUDACC__)
#define TPOSEI_UNROLL
#else
#define TPOSEI_UNROLL _Pragma("GCC unroll 32")
#endif

#define TPOSEI_AVX2_FN __attribute__((target("avx2")))
#define TPOSEI_AVX512_ATTR __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#define TPOSEI_AVX512_FN TPOSEI_AVX512_ATTR
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
    TPOSEI_CPU_VBMI = 16,   /* AVX-512 VBMI byte permutes, on top of TPOSEI_CPU_AVX512 */
    TPOSEI_CPU_ZEN5 = 32,   /* AMD family 1Ah or later: the stream geometry measured there */
    TPOSEI_CPU_ZEN3 = 64,   /* AMD family 19h, Zen 3 models: the byte blocks measured there */
    TPOSEI_CPU_INTEL = 128  /* GenuineIntel: the tile pairs measured there (TPOSEI_ACROSS_PAIRS) */
};

/* 1 for CPUID leaf 0's vendor string GenuineIntel. */
static int tposei_intel(unsigned b0, unsigned c0, unsigned d0)
{
    return b0 == 0x756E6547u && d0 == 0x49656E69u && c0 == 0x6C65746Eu;
}

/* AMD's family from CPUID leaf 0 (vendor) and leaf 1 (eax): base family 0Fh plus the
   extended family (AMD APM vol. 3, CPUID Fn0000_0001_EAX); 0 for other vendors. */
static unsigned tposei_amd_family(unsigned b0, unsigned c0, unsigned d0, unsigned a1)
{
    const unsigned base = (a1 >> 8) & 0xF;
    if (b0 != 0x68747541u || d0 != 0x69746E65u || c0 != 0x444D4163u) return 0; /* AuthenticAMD */
    return base == 0xF ? base + ((a1 >> 20) & 0xFF) : base;
}

/* 1 for the Zen 3 models of AMD family 19h (extended model 00h-0Fh, 20h-2Fh, 40h-5Fh; the
   others of that family are Zen 4), from CPUID leaf 1 eax: model plus extended model. */
static int tposei_amd_zen3(unsigned family, unsigned a1)
{
    const unsigned model = ((a1 >> 4) & 0xF) | ((a1 >> 12) & 0xF0);
    return family == 0x19 && (model < 0x10 || (model >= 0x20 && model < 0x30) ||
                              (model >= 0x40 && model < 0x60));
}

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
    unsigned a, b, c, d, b0, c0, d0, b7 = 0, c7 = 0, max, family;
    uint64_t xcr0 = 0;
    int f = TPOSEI_CPU_KNOWN;
    if (!__get_cpuid(0, &max, &b0, &c0, &d0) || !__get_cpuid(1, &a, &b, &c, &d)) return f;
    family = tposei_amd_family(b0, c0, d0, a);
    if (family >= 0x1A) f |= TPOSEI_CPU_ZEN5;
    if (tposei_amd_zen3(family, a)) f |= TPOSEI_CPU_ZEN3;
    if (tposei_intel(b0, c0, d0)) f |= TPOSEI_CPU_INTEL;
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
static int tposei_cpu_cache; /* the tests flip TPOSEI_CPU_ZEN5 and _ZEN3 here (geometries) */
static int tposei_cpu_features(void)
{
    int f = __atomic_load_n(&tposei_cpu_cache, __ATOMIC_RELAXED);
    if (f == 0) {
        f = tposei_cpu_detect();
        __atomic_store_n(&tposei_cpu_cache, f, __ATOMIC_RELAXED);
    }
    return f;
}

TPOSEI_FORCE_INLINE int tposei_cpu_has(int feature)
{
    return (tposei_cpu_features() & feature) == feature;
}

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

/* Two 16-byte pieces as one vector, `lo` in the low lane. */
TPOSEI_AVX2_INLINE __m256i tposei_avx2_pair(const unsigned char *lo, const unsigned char *hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
                                   _mm_loadu_si128((const __m128i *)hi), 1);
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
        for (k = 0; k < n; k++) /* row k | n+k */
            x[k] = tposei_avx2_pair(s + k * src_stride, s + (n + k) * src_stride);
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

/* 32 x 32 bytes: four shuffle/blend levels, then the 16 x 16 level as a lane permute. Kept
   and tested (the tile table), but the drivers take the unpack network below: on Zen 4 this
   one moved 20 GB/s over a 64x64 tile in L1 (a loop of tile calls) against 51 for the
   unpack network, whose 160 unpacks and lane
   inserts per tile replace 256 shuffles and byte blends over 32 rows that spill from 16
   registers; through the in-cache driver 0.18-0.23x memcpy against 0.22-0.29x. */
TPOSEI_AVX2_INLINE void tposei_u8_32x32_avx2_article(unsigned char *dst, size_t dst_stride,
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

/* 32 x 32 bytes by the unpack network: two column halves of 16 bytes, rows k and 16 + k in
   one vector, four unpack stages. */
TPOSEI_TILE_KERNEL(tposei_u8_32x32_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 1)
TPOSEI_TILE_KERNEL(tposei_u16_16x16_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 2)
TPOSEI_TILE_KERNEL(tposei_u32_8x8_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 4)
TPOSEI_TILE_KERNEL(tposei_u64_4x4_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 8)
TPOSEI_TILE_KERNEL(tposei_u128_2x2_avx2, TPOSEI_AVX2_INLINE, tposei_avx2_tile, 16)

/* Line tiles for the direct stream mode on AVX2: 64 bytes of elements a side (n = 64/esize),
   so that each destination row of the tile is one whole cache line, leaving as two 32-byte
   non-temporal stores back to back: they fill one write-combining buffer, which drains as
   one full line with no read for ownership. The AVX-512 line tiles store each row from one
   register; AVX2 has 16 of 32 bytes, and the byte quadrant alone takes 32.
   Elements of 2 bytes and more go by four groups of 16/esize destination rows (16 bytes of
   every source row each): the network of the 32-byte tiles on the tile's first 32/esize
   source rows gives the first half of each of the group's lines, parked in L1; the same
   network on the last 32/esize rows gives the second halves, and each line leaves from its
   parked half and a register. The quadrant tile below (four 32-byte tiles into a 64-byte-wide
   L1 scratch, every line's both halves parked) stores twice as much to L1 before streaming.
   On the Zen 4 guest without AVX-512 (AUTO is avx2-stream there), medians of 5-7 interleaved
   runs, quadrants through the L1 copy -> groups read directly: 2112^2 u16 0.80 -> 1.03, f32
   0.98 -> 1.09, 8256^2 f32 0.88 -> 0.92; 2112^2 f64 1.06 -> 1.11 (quadrants read directly
   before); bytes 2112^2 0.72 -> 0.87, 16448^2 0.65 -> 0.72 (bytes now read each line once:
   tposei_u8_64x64_avx2_nt). Streaming the first halves at once instead of parking them
   leaves 16 lines open per group: 2112^2 bytes 0.17, u16 0.87, f32 unchanged, so this CPU
   combines fewer than 16 lines at a time. */
/* One line of destination from two 32-byte halves, streamed back to back. */
TPOSEI_AVX2_INLINE void tposei_avx2_stream_line(unsigned char *d, __m256i lo, __m256i hi)
{
    _mm256_stream_si256((__m256i *)d, lo);
    _mm256_stream_si256((__m256i *)(d + 32), hi);
}

TPOSEI_AVX2_INLINE void tposei_avx2_line_groups(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride,
                                                size_t esize)
{
    const unsigned n = (unsigned)(16 / esize), q = 2 * n; /* a group's rows; a half's */
    unsigned g, k;
    __m256i x[16], first[16];
    for (g = 0; g < 4; g++) {
        const unsigned char *s = src + 16 * g;
        unsigned char *d = dst + g * n * dst_stride;
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) /* rows k | n + k */
            x[k] = tposei_avx2_pair(s + k * src_stride, s + (n + k) * src_stride);
        if (n > 1) tposei_avx2_net(x, esize);
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) first[k] = x[k]; /* line k's first 32 bytes, parked */
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) /* rows q + k | q + n + k */
            x[k] = tposei_avx2_pair(s + (q + k) * src_stride, s + (q + n + k) * src_stride);
        if (n > 1) tposei_avx2_net(x, esize);
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) tposei_avx2_stream_line(d + k * dst_stride, first[k], x[k]);
    }
}

/* Eight source rows of 32 bytes (row i in a[i]) to eight vectors of 8-byte column pieces:
   three in-lane unpack stages, so that vector v holds, in each 16-byte lane, columns 2v and
   2v + 1 of the lane's 16 (eight rows, 8 bytes each). */
TPOSEI_AVX2_INLINE void tposei_u8_8rows_avx2(__m256i *a, __m256i *out)
{
    __m256i b[8];
    unsigned i;
    TPOSEI_UNROLL
    for (i = 0; i < 4; i++) {
        b[i] = _mm256_unpacklo_epi8(a[2 * i], a[2 * i + 1]);     /* rows 2i, 2i+1: cols 0-7 */
        b[4 + i] = _mm256_unpackhi_epi8(a[2 * i], a[2 * i + 1]); /* cols 8-15 */
    }
    TPOSEI_UNROLL
    for (i = 0; i < 8; i += 4) { /* rows 0-3 and 4-7 of cols 0-3, 4-7 (8-11, 12-15) */
        a[i] = _mm256_unpacklo_epi16(b[i], b[i + 1]);
        a[i + 1] = _mm256_unpackhi_epi16(b[i], b[i + 1]);
        a[i + 2] = _mm256_unpacklo_epi16(b[i + 2], b[i + 3]);
        a[i + 3] = _mm256_unpackhi_epi16(b[i + 2], b[i + 3]);
    }
    TPOSEI_UNROLL
    for (i = 0; i < 8; i += 4) { /* rows 0-7 of cols 0-1, 2-3, 4-5, 6-7 (8-9 ... 14-15) */
        out[i / 2 * 2 + 0] = _mm256_unpacklo_epi32(a[i], a[i + 2]);
        out[i / 2 * 2 + 1] = _mm256_unpackhi_epi32(a[i], a[i + 2]);
        out[i / 2 * 2 + 2] = _mm256_unpacklo_epi32(a[i + 1], a[i + 3]);
        out[i / 2 * 2 + 3] = _mm256_unpackhi_epi32(a[i + 1], a[i + 3]);
    }
}

/* The byte line tile reading each source line once, whole, and streaming lines four at a
   time (the AVX-512 rows-once tile's plan in AVX2 vectors). First pass: each group of eight
   rows, each 32-byte half, through tposei_u8_8rows_avx2 into a 4 KiB L1 block (park[R][v]:
   rows 8R..8R+7, columns 2v, 2v+1 of each lane). Second pass: for each v, the column pieces
   of rows 16p..16p+15 pair up by one 64-bit unpack (lo: column 2v, hi: 2v + 1, each lane)
   and the 128-bit lanes of p = 0, 1 and p = 2, 3 make the two halves of four lines. The
   groups tile parks less but reads each line four times, 16 bytes at a time, and leaves 16
   lines per network; by the staged copy where rows crowd L1. On the Zen 4 guest without
   AVX-512, medians of 5 interleaved runs, groups -> this: 16448^2 0.66 -> 0.77, 2112^2 0.89
   -> 0.96, 4096x1024 0.71 -> 0.80, and with no copy on aliasing strides 4096^2 0.56 -> 0.62,
   8192^2 0.46 -> 0.60. The same plan on groups of 16 rows (one 16-row network each, lanes
   paired in the second pass) measured below the groups tile (16448^2 0.64, 2112^2 0.77). A
   fake tile that only copied each source line to its destination line, same walk, reached
   0.96 and 1.34: the tile, not the memory pattern, bounds these shapes. */
/* Step u (0-15) of the first pass: bytes 32h.. of rows 8R..8R+7, R = u / 2, h = u % 2. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_park_step(__m256i park[8][16], const unsigned char *src,
                                                 size_t src_stride, unsigned u)
{
    __m256i a[8];
    const unsigned R = u / 2, h = u % 2;
    unsigned i;
    TPOSEI_UNROLL
    for (i = 0; i < 8; i++)
        a[i] = _mm256_loadu_si256((const __m256i *)(src + (8 * R + i) * src_stride + 32 * h));
    tposei_u8_8rows_avx2(a, park[R] + 8 * h);
}

TPOSEI_AVX2_INLINE void tposei_u8_64x64_avx2_park(__m256i park[8][16],
                                                  const unsigned char *src, size_t src_stride)
{
    unsigned u;
    for (u = 0; u < 16; u++) tposei_u8_avx2_park_step(park, src, src_stride, u);
}

/* The second pass for one v: lines c, c + 1, c + 16, c + 17 (c = 32 (v / 8) + 2 (v % 8)) as
   halves line[0..7], two a line. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_park_lines(__m256i park[8][16], unsigned v,
                                                  __m256i *line)
{
    __m256i lo[4], hi[4];
    unsigned p;
    TPOSEI_UNROLL
    for (p = 0; p < 4; p++) { /* rows 16p..16p+15 of column c (lo), c + 1 (hi) */
        lo[p] = _mm256_unpacklo_epi64(park[2 * p][v], park[2 * p + 1][v]);
        hi[p] = _mm256_unpackhi_epi64(park[2 * p][v], park[2 * p + 1][v]);
    }
    line[0] = _mm256_permute2x128_si256(lo[0], lo[1], 0x20); /* column c: rows 0-31 */
    line[1] = _mm256_permute2x128_si256(lo[2], lo[3], 0x20); /* rows 32-63 */
    line[2] = _mm256_permute2x128_si256(hi[0], hi[1], 0x20); /* column c + 1 */
    line[3] = _mm256_permute2x128_si256(hi[2], hi[3], 0x20);
    line[4] = _mm256_permute2x128_si256(lo[0], lo[1], 0x31); /* column c + 16 */
    line[5] = _mm256_permute2x128_si256(lo[2], lo[3], 0x31);
    line[6] = _mm256_permute2x128_si256(hi[0], hi[1], 0x31); /* column c + 17 */
    line[7] = _mm256_permute2x128_si256(hi[2], hi[3], 0x31);
}

/* The destination row of line k (0-3) of tposei_u8_avx2_park_lines(v). */
TPOSEI_FORCE_INLINE size_t tposei_u8_avx2_park_row(unsigned v, unsigned k)
{
    return 32 * (v / 8) + 2 * (v % 8) + (k & 1) + 16 * (k >> 1);
}

/* Step v of the second pass of `tiles` (1 or 2) parked tiles down a tile column: four
   destination rows, each row's lines (one a tile) back to back. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_stream_step(unsigned char *dst, size_t dst_stride,
                                                   __m256i park[2][8][16], unsigned v,
                                                   unsigned tiles)
{
    __m256i line[2][8];
    unsigned k, t;
    TPOSEI_UNROLL
    for (t = 0; t < tiles; t++) tposei_u8_avx2_park_lines(park[t], v, line[t]);
    TPOSEI_UNROLL
    for (k = 0; k < 4; k++) {
        unsigned char *d = dst + tposei_u8_avx2_park_row(v, k) * dst_stride;
        TPOSEI_UNROLL
        for (t = 0; t < tiles; t++)
            tposei_avx2_stream_line(d + 64 * t, line[t][2 * k], line[t][2 * k + 1]);
    }
}

/* `tiles` (1 or 2) byte line tiles down a tile column: the first pass of each, then the
   second, four lines of each at a time, each destination row's lines back to back. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_tiles_nt(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride,
                                                unsigned tiles)
{
    __m256i park[2][8][16];
    unsigned v, t;
    TPOSEI_UNROLL
    for (t = 0; t < tiles; t++)
        tposei_u8_64x64_avx2_park(park[t], src + 64 * t * src_stride, src_stride);
    for (v = 0; v < 16; v++) tposei_u8_avx2_stream_step(dst, dst_stride, park, v, tiles);
}

/* The byte line tile. */
TPOSEI_AVX2_INLINE void tposei_u8_64x64_avx2_nt(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride)
{
    tposei_u8_avx2_tiles_nt(dst, dst_stride, src, src_stride, 1);
}

/* Two byte line tiles down a tile column (source rows 0-127), for blocks walked down: each
   destination row's two lines leave back to back, where one tile at a time wrote a row's
   next line 64 lines later. Destination strides of powers of two drain such pairs of lines
   better: a store-only test of non-temporal lines on 4 KiB strides moved 0.6-0.7x memcpy's
   bytes per second one line per row in turn, 1.0x two lines, 1.1x four (1.1x at any count
   on strides of 2112 or 16448 bytes). avx2-stream, AUTO, medians of 7 interleaved runs, one
   tile -> two: 4096^2 0.64 -> 0.78, 8192^2 0.60 -> 0.71, 4096x1024 0.86 -> 0.90, 2048^2
   0.90 -> 0.96 (and 0.62 -> 0.74, 0.55 -> 0.69 in a later run of 5). Streaming the first
   tile's lines while parking the second (not pairing lines per row) measured 4096^2 0.67,
   8192^2 0.58 and, for blocks walked across, lost (16448^2 0.71 -> 0.54). The first pass as
   one loop of 16 steps, not eight of two unrolled halves: the unrolled one measured 0.64 and
   0.57 in the pair. */
static __attribute__((noinline)) TPOSEI_AVX2_FN void tposei_u8_128x64_avx2_nt(
    unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride)
{
    tposei_u8_avx2_tiles_nt(dst, dst_stride, src, src_stride, 2);
}

TPOSEI_TILE_KERNEL(tposei_u16_32x32_avx2_nt, TPOSEI_AVX2_INLINE, tposei_avx2_line_groups, 2)
TPOSEI_TILE_KERNEL(tposei_u32_16x16_avx2_nt, TPOSEI_AVX2_INLINE, tposei_avx2_line_groups, 4)
TPOSEI_TILE_KERNEL(tposei_u64_8x8_avx2_nt, TPOSEI_AVX2_INLINE, tposei_avx2_line_groups, 8)
TPOSEI_TILE_KERNEL(tposei_u128_4x4_avx2_nt, TPOSEI_AVX2_INLINE, tposei_avx2_line_groups, 16)

/* The line tile by quadrants: the four 32-byte tiles into a 64-byte-wide L1 scratch, the
   two of a column half side by side, each scratch row then streamed as one line. Only
   through the L1 copy below, for elements of 4 bytes or more on aliasing strides, where it
   measured better than the groups (medians of 9 interleaved runs, groups -> quadrants:
   1536x1024 f32 0.91 -> 1.03, 4096^2 f32 0.62 -> 0.69, 2048x1024 f32 0.77 -> 0.85; 1024^2
   and 2048^2 f64 equal; bytes and u16 the other way, 1024x2048 u16 0.87 -> 0.78). */
#define TPOSEI_AVX2_QUADS_KERNEL(name, quad, esize)                                         \
    TPOSEI_AVX2_INLINE void name(unsigned char *dst, size_t dst_stride,                     \
                                 const unsigned char *src, size_t src_stride)               \
    {                                                                                       \
        const size_t q = 32 / (esize); /* the quadrant's side */                            \
        __m256i scratch[64];           /* q rows of two halves */                           \
        size_t h, c;                                                                        \
        for (h = 0; h < 2; h++) {                                                           \
            quad((unsigned char *)scratch, 64, src + 32 * h, src_stride);                   \
            quad((unsigned char *)scratch + 32, 64, src + q * src_stride + 32 * h,          \
                 src_stride);                                                               \
            TPOSEI_UNROLL                                                                   \
            for (c = 0; c < q; c++) {                                                       \
                unsigned char *d = dst + (q * h + c) * dst_stride;                          \
                _mm256_stream_si256((__m256i *)d, scratch[2 * c]);                          \
                _mm256_stream_si256((__m256i *)(d + 32), scratch[2 * c + 1]);               \
            }                                                                               \
        }                                                                                   \
    }

/* The first 64 bytes of `rows` source rows, copied to `copy` as rows of 64 bytes. */
TPOSEI_AVX2_INLINE void tposei_avx2_stage(__m256i *copy, const unsigned char *src,
                                          size_t src_stride, size_t rows)
{
    size_t r;
    TPOSEI_UNROLL
    for (r = 0; r < rows; r++, src += src_stride) {
        copy[2 * r] = _mm256_loadu_si256((const __m256i *)src);
        copy[2 * r + 1] = _mm256_loadu_si256((const __m256i *)(src + 32));
    }
}

/* The same tile read through a contiguous L1 copy of its source lines, each line loaded once
   and whole. Where the tile rows share few L1 sets (tposei_pf_fits_l1) the quadrants'
   half-line loads, up to 64 rows apart, find their lines evicted by the rows between; the
   copy reads each once. avx2-stream, interleaved runs, medians of 3, quadrants -> copy:
   4096^2 bytes 0.42 -> 0.72, 8192^2 bytes 0.41 -> 0.73, 4096^2 f32 0.82 -> 0.94, 8192^2 f32
   0.68 -> 0.85, 2048^2 u16 0.65 -> 0.94. It gained on other strides too for elements of up
   to 4 bytes (medians of 5: 8256^2 f32 1.03 -> 1.11, 10000x3000 f32 0.93 -> 1.05, 2112^2 f32
   1.20 -> 1.26, 16448^2 bytes 0.75 -> 0.77, 2112^2 bytes and u16 equal) but lost for 8 bytes,
   whose tile is 8 rows (of 4: 5824^2 f64 0.97 -> 0.86, 3000^2 f64 1.45 -> 1.35). Those
   figures are the quadrant tile's on the Zen 4 guest with AVX-512; the groups tile above
   reads directly wherever the rows spread over L1, and through the copy only where they do
   not. */
#define TPOSEI_AVX2_STAGED_KERNEL(name, line, esize)                                        \
    TPOSEI_AVX2_INLINE void name(unsigned char *dst, size_t dst_stride,                     \
                                 const unsigned char *src, size_t src_stride)               \
    {                                                                                       \
        __m256i copy[128]; /* 64/esize rows of 64 bytes */                                  \
        tposei_avx2_stage(copy, src, src_stride, 64 / (esize));                             \
        line(dst, dst_stride, (const unsigned char *)copy, 64);                             \
    }

/* Up to 64 bytes (a tile row): tposei_copy_short takes fewer. */
TPOSEI_FORCE_INLINE void tposei_copy_row64(unsigned char *dst, const unsigned char *src,
                                           size_t n)
{
    if (n == 64)
        TPOSEI_MEMCPY(dst, src, 64);
    else
        tposei_copy_short(dst, src, n);
}

/* A corner of a line tile (rows x cols source elements, each at most 64/esize), for the
   edges of the AVX2 direct stream mode: staged into a zeroed aligned square, transposed
   there by quadrants, its `cols` destination rows of `rows` elements copied out (stored
   normally; the driver's fence orders them with the streamed lines). */
#define TPOSEI_AVX2_PART_KERNEL(name, quad, esize)                                          \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void name(                             \
        unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride, \
        size_t rows, size_t cols)                                                           \
    {                                                                                       \
        __m256i in[128], out[128]; /* 64 rows of 64 bytes */                                \
        unsigned char *const a = (unsigned char *)in, *const b = (unsigned char *)out;      \
        const size_t q = 32 / (esize);                                                      \
        size_t r;                                                                           \
        for (r = 0; r < 64 / (esize); r++) { /* zeros past the corner; no memset call */   \
            in[2 * r] = in[2 * r + 1] = _mm256_setzero_si256();                             \
            if (r < rows) tposei_copy_row64(a + 64 * r, src + r * src_stride,               \
                                            cols * (esize));                                \
        }                                                                                   \
        quad(b, 64, a, 64);                                                                 \
        quad(b + 32, 64, a + 64 * q, 64);                                                   \
        quad(b + 64 * q, 64, a + 32, 64);                                                   \
        quad(b + 64 * q + 32, 64, a + 64 * q + 32, 64);                                     \
        for (r = 0; r < cols; r++)                                                          \
            tposei_copy_row64(dst + r * dst_stride, b + 64 * r, rows * (esize));            \
    }
/* The phases of a joined tile (destination rows off cache lines; tposei_join_row_w):
   TPOSEI_JOIN_LEAD only loads the carry (the chunk above the band, read again),
   TPOSEI_JOIN_HEAD stores the part of a row's first chunk inside the row, normally, and
   TPOSEI_JOIN_BODY streams the line that the carry and the chunk complete. */
enum { TPOSEI_JOIN_LEAD, TPOSEI_JOIN_HEAD, TPOSEI_JOIN_BODY };

/* A line tile for destination rows off cache lines, with the phases of the AVX-512 joins
   (tposei_join_row_w) but carry pairs (TPOSEI_CARRY_PAIRS): each destination row keeps 128
   bytes of L1, its carry then its chunk. The quadrants transpose the chunks straight into
   the pairs' second halves, the line at P - m is the pair's bytes 64 - m.., two unaligned
   loads and two non-temporal stores at any m, and the chunk then moves to the first half as
   the next tile's carry. The carry half was stored a tile earlier, so the unaligned loads
   find it in L1. Carries of 64 bytes copied beside each chunk in a local pair just before
   those loads (which span both, so no store could be forwarded to them), with the source
   lines always copied into L1 first, ran at half the aligned tile's speed (10 against 19
   GB/s, 1000x1500 bytes, avx2-stream) and lost to the buffered mode for large matrices of
   4-16-byte elements. Interleaved runs, medians of 3, ratio to memcpy, those joins (or the
   buffered mode) -> pairs: 1000x1500 1/2/4-byte 0.49 / 0.60 / 0.89 -> 0.77 / 0.93 / 1.06,
   2000^2 1/2-byte 0.58 / 0.88 -> 0.71 / 0.98, 3001x7919 bytes 0.41 -> 0.74; buffered ->
   pairs: 3001x7919 4/8/16-byte 0.74 / 0.60 / 0.56 -> 0.94 / 0.96 / 0.74, 10001x3000 floats
   0.60 -> 1.02, 2001x4000 floats 0.61 -> 1.03. The _staged twin reads the source lines
   through an L1 copy, as the aligned tile's does: needed where the tile rows share few L1
   sets (1000x4096 bytes 0.35 direct, 0.66 staged; 1000x2048 2-byte 0.60, 0.84), a loss
   elsewhere (direct -> staged: 3001x7919 8-byte 1.02 -> 0.90, 5000x1000 16-byte 1.35 ->
   1.21, 3001x7919 2-byte 0.89 -> 0.83; bytes about equal). */
/* The second half of a joined tile (TPOSEI_JOIN_HEAD or _BODY): each of `rows` destination
   rows leaves from its carry pair (the carry, then the chunk the tile put beside it), and the
   chunk becomes the carry of the next tile along the row. */
TPOSEI_AVX2_INLINE void tposei_avx2_join_rows(unsigned char *dst, size_t dst_stride,
                                              unsigned char *carry, size_t rows, int phase)
{
    size_t r;
    for (r = 0; r < rows; r++) {
        unsigned char *at = dst + r * dst_stride, *p = carry + 128 * r;
        const size_t m = (size_t)((uintptr_t)at & (TPOSEI_CACHE_LINE - 1));
        if (phase == TPOSEI_JOIN_BODY) {
            _mm256_stream_si256((__m256i *)(at - m),
                                _mm256_loadu_si256((const __m256i *)(p + 64 - m)));
            _mm256_stream_si256((__m256i *)(at - m + 32),
                                _mm256_loadu_si256((const __m256i *)(p + 96 - m)));
        } else /* the head: up to the end of the line */
            tposei_copy_row64(at, p + 64, 64 - m);
        _mm256_store_si256((__m256i *)p, _mm256_load_si256((const __m256i *)(p + 64)));
        _mm256_store_si256((__m256i *)(p + 32), _mm256_load_si256((const __m256i *)(p + 96)));
    }
}

#define TPOSEI_AVX2_JOIN_KERNEL(name, quad, esize)                                          \
    TPOSEI_AVX2_INLINE void name##_tile(unsigned char *dst, size_t dst_stride,              \
                                        const unsigned char *src, size_t src_stride,        \
                                        unsigned char *carry, int phase)                    \
    {                                                                                       \
        const size_t q = 32 / (esize);                                                      \
        const size_t into = phase == TPOSEI_JOIN_LEAD ? 0 : 64; /* lead: carries only */    \
        size_t h;                                                                           \
        for (h = 0; h < 2; h++) {                                                           \
            unsigned char *pairs = carry + 128 * q * h + into;                              \
            quad(pairs, 128, src + 32 * h, src_stride);                                     \
            quad(pairs + 32, 128, src + q * src_stride + 32 * h, src_stride);               \
        }                                                                                   \
        if (phase != TPOSEI_JOIN_LEAD)                                                      \
            tposei_avx2_join_rows(dst, dst_stride, carry, 2 * q, phase);                    \
    }                                                                                       \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void name(                             \
        unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride, \
        unsigned char *carry, int phase)                                                    \
    {                                                                                       \
        name##_tile(dst, dst_stride, src, src_stride, carry, phase);                        \
    }                                                                                       \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void name##_staged(                    \
        unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride, \
        unsigned char *carry, int phase)                                                    \
    {                                                                                       \
        __m256i copy[128]; /* 64/esize rows of 64 bytes */                                  \
        tposei_avx2_stage(copy, src, src_stride, 64 / (esize));                             \
        name##_tile(dst, dst_stride, (const unsigned char *)copy, 64, carry, phase);        \
    }
/* Each line tile: read directly (_nt), through its L1 copy (_nt_staged), joined, and by
   corners. */
#define TPOSEI_AVX2_LINE_KERNELS(shape, quad, esize)                                        \
    TPOSEI_AVX2_JOIN_KERNEL(tposei_##shape##_avx2_join, quad, esize)                        \
    TPOSEI_AVX2_PART_KERNEL(tposei_##shape##_avx2_part, quad, esize)
TPOSEI_AVX2_LINE_KERNELS(u8_64x64, tposei_u8_32x32_avx2, 1)
TPOSEI_AVX2_LINE_KERNELS(u16_32x32, tposei_u16_16x16_avx2, 2)
TPOSEI_AVX2_LINE_KERNELS(u32_16x16, tposei_u32_8x8_avx2, 4)
TPOSEI_AVX2_LINE_KERNELS(u64_8x8, tposei_u64_4x4_avx2, 8)
TPOSEI_AVX2_LINE_KERNELS(u128_4x4, tposei_u128_2x2_avx2, 16)
/* The byte line tile joined by the two passes of tposei_u8_64x64_avx2_nt: the parked tile's
   lines go into the carry pairs' chunk halves, then the rows leave as the quadrant join's do.
   Only in the whole-width walk (tposei_u8_join_whole): each gained only with the other. */
static __attribute__((noinline)) TPOSEI_AVX2_FN void tposei_u8_64x64_avx2_join_park(
    unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride,
    unsigned char *carry, int phase)
{
    __m256i park[8][16], line[8];
    const size_t into = phase == TPOSEI_JOIN_LEAD ? 0 : 64; /* lead: carries only */
    unsigned v, k;
    tposei_u8_64x64_avx2_park(park, src, src_stride);
    for (v = 0; v < 16; v++) {
        tposei_u8_avx2_park_lines(park, v, line);
        TPOSEI_UNROLL
        for (k = 0; k < 4; k++) {
            unsigned char *p = carry + 128 * tposei_u8_avx2_park_row(v, k) + into;
            _mm256_store_si256((__m256i *)p, line[2 * k]);
            _mm256_store_si256((__m256i *)(p + 32), line[2 * k + 1]);
        }
    }
    if (phase != TPOSEI_JOIN_LEAD) tposei_avx2_join_rows(dst, dst_stride, carry, 64, phase);
}
/* The tiles for source strides that crowd L1 (tposei_pf_fits_l1 false): the groups tile
   through its copy for 2-byte elements, the quadrants through theirs from 4 bytes (bytes read
   each line once anyway). */
#define TPOSEI_AVX2_QUADS_STAGED(shape, quad, esize)                                        \
    TPOSEI_AVX2_QUADS_KERNEL(tposei_##shape##_avx2_quads, quad, esize)                      \
    TPOSEI_AVX2_STAGED_KERNEL(tposei_##shape##_avx2_quads_staged,                           \
                              tposei_##shape##_avx2_quads, esize)
TPOSEI_AVX2_STAGED_KERNEL(tposei_u16_32x32_avx2_nt_staged, tposei_u16_32x32_avx2_nt, 2)
TPOSEI_AVX2_QUADS_STAGED(u32_16x16, tposei_u32_8x8_avx2, 4)
TPOSEI_AVX2_QUADS_STAGED(u64_8x8, tposei_u64_4x4_avx2, 8)
TPOSEI_AVX2_QUADS_STAGED(u128_4x4, tposei_u128_2x2_avx2, 16)
/* Two line tiles of 2-16-byte elements down a tile column (2 x 64/esize source rows), for
   blocks walked down, as the byte pair tposei_u8_128x64_avx2_nt: the 32-byte tiles transpose
   both into an L1 park of 128 bytes a destination row, then each row's two lines leave back
   to back, where one tile at a time wrote a row's next line a band of rows later. On the
   Zen 3 guest (AVX2 only, 4 KiB pages) a store-only loop moved non-temporal lines 0.27-0.42x
   the sequential rate one line per destination row in turn, 0.50-0.65x two lines back to
   back. avx2-stream, AUTO, median quotients of interleaved rounds against one tile at a
   time (two runs, 3 and 5 rounds; two copies of the old build: x0.95-1.15): 1024x2048 u16
   x1.20 / x1.21, 1536x1024 f32 x1.28 / x1.08, 8192^2 f32 x1.20 / x1.11, 4096^2 f32 x1.25 /
   x1.01, 2048^2 f64 x1.08 / x1.34, 2048x4096 u16 x1.00 / x1.18, 2048^2 u16 x0.96 / x1.10,
   1024^2 f64 x1.15 / x0.96; 4096x1024 f64 x0.99, 1024x2048 16-byte x1.27, 4096x1024 x1.17,
   2048^2 x1.00 (one run). Those shapes' source rows crowd L1 (the aliasing geometry's
   blocks): the direct blocks walked down lost with pairs (5 rounds: 2112^2 f64 x0.72,
   2048x2112 u16 x0.92, 1024x2112 16-byte x0.87, 2048x2112 f32 x1.08, 4096x2112 f64 x1.04)
   and keep one tile at a time (tposei_avx2s_e2...; bytes' pairs were measured on Zen 4).
   Four tiles (4 lines a row), measured alike, lost on floats (8192^2 x0.91 / x0.79).
   Walking the direct blocks down on every stride to take these pairs lost too (2112^2 u16
   x0.81, f32 x0.85, 8256^2 f32 x0.86, 10000x3000 f32 x0.83).
   Matrices one tile column wide (n..2n-1 columns) take the pairs on any source stride, and
   4-16-byte elements four tiles (`tiles` 4, four lines a row back to back) where the source
   rows spread over L1: their rows' lines, written one at a time, fall on few offsets within
   4 KiB where the stride is a multiple of 1-2 KiB, and Zen 3 drains such lines slowly
   (4000000x8 f64, the tile alone in a loop: 0.64-0.69x memcpy at a 32000000-byte stride,
   0.86-1.04x at 32000064; 2 MiB pages alike). Median quotients of 3-5 interleaved rounds,
   one tile -> two: 4000000x8 f64 x1.36 (0.59 -> 0.80), 2000000x4 16-byte x1.38, 8000000x16
   f32 x1.71-1.82 (0.37 -> 0.64-0.71), 4000000x16 f32 x1.24; two -> four (5 rounds; two
   copies of the two: x0.96-1.05): 4000000x8 f64 x1.20 / x1.15 (0.78 -> 0.91), 4194304x8
   x1.27 / x1.21, 8000000x16 f32 x1.31 / x1.38 (0.65 -> 0.86-0.96), 2000000x4 16-byte
   x1.25. Four lost on 2-byte elements (4000000x32 x0.88: 128 lines a step), eight tiles on
   all but the power-of-two stride (f64 x1.14 / x1.46, 8000000x16 f32 x1.06, 2-byte x0.75).
   Lagging the rows' lines against each other instead, 4000000x8 f64 by column pairs (8 x 2
   elements to one line of each of two rows, each row pair a chunk of 8 source rows behind
   the one before, so a step's 8 lines fall on 8 offsets), measured x0.87 against the pairs
   (x0.67 without the lag; two lines a row and the lag lost in a loop test). */
#define TPOSEI_AVX2_DOWN_KERNEL(name, quad, esize, tiles)                                   \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void name(                             \
        unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride) \
    {                                                                                       \
        const size_t q = 32 / (esize), n = 64 / (esize); /* a quadrant's side, a tile's */  \
        const size_t w = 64 * (tiles);                   /* a parked row's bytes */         \
        __m256i park[64 / (esize)][2 * (tiles)];         /* destination row r's lines */    \
        unsigned char *const at = (unsigned char *)park;                                    \
        size_t g, r, t;                                                                     \
        for (g = 0; g < (tiles) * n; g += q) { /* source rows g.., both halves of a line */ \
            quad(at + g * (esize), w, src + g * src_stride, src_stride);                    \
            quad(at + w * q + g * (esize), w, src + g * src_stride + 32, src_stride);       \
        }                                                                                   \
        for (r = 0; r < n; r++)                                                             \
            TPOSEI_UNROLL                                                                   \
            for (t = 0; t < (tiles); t++)                                                   \
                tposei_avx2_stream_line(dst + r * dst_stride + 64 * t, park[r][2 * t],      \
                                        park[r][2 * t + 1]);                                \
    }
TPOSEI_AVX2_DOWN_KERNEL(tposei_u16_64x32_avx2_nt, tposei_u16_16x16_avx2, 2, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u32_32x16_avx2_nt, tposei_u32_8x8_avx2, 4, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u64_16x8_avx2_nt, tposei_u64_4x4_avx2, 8, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u128_8x4_avx2_nt, tposei_u128_2x2_avx2, 16, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u32_64x16_avx2_nt, tposei_u32_8x8_avx2, 4, 4)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u64_32x8_avx2_nt, tposei_u64_4x4_avx2, 8, 4)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u128_16x4_avx2_nt, tposei_u128_2x2_avx2, 16, 4)
#undef TPOSEI_AVX2_DOWN_KERNEL
#undef TPOSEI_AVX2_QUADS_STAGED
#undef TPOSEI_AVX2_QUADS_KERNEL
#undef TPOSEI_AVX2_STAGED_KERNEL
#undef TPOSEI_AVX2_PART_KERNEL
#undef TPOSEI_AVX2_JOIN_KERNEL
#undef TPOSEI_AVX2_LINE_KERNELS

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

/* 16 bytes at each of p0..p3 as lanes 0..3 of one vector. */
TPOSEI_AVX512_INLINE __m512i tposei_avx512_gather4p(const unsigned char *p0,
                                                    const unsigned char *p1,
                                                    const unsigned char *p2,
                                                    const unsigned char *p3)
{
    const __m128i r0 = _mm_loadu_si128((const __m128i *)p0);
    const __m128i r1 = _mm_loadu_si128((const __m128i *)p1);
    const __m128i r2 = _mm_loadu_si128((const __m128i *)p2);
    const __m128i r3 = _mm_loadu_si128((const __m128i *)p3);
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(r0), r1, 1); /* r0|r1 */
    const __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(r2), r3, 1); /* r2|r3 */
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);                  /* r0..r3 */
}

/* Source rows k, n+k, 2n+k, 3n+k (16 bytes each) as lanes 0..3 of one vector. */
TPOSEI_AVX512_INLINE __m512i tposei_avx512_gather4(const unsigned char *s, size_t stride)
{
    return tposei_avx512_gather4p(s, s + stride, s + 2 * stride, s + 3 * stride);
}

/* Column quarter (16 bytes wide) of a 4n x 4n tile at `src`, n = 16/esize: vector k holds
   source rows k, n+k, 2n+k, 3n+k in its lanes; after the network x[j] is destination row j
   of the quarter (64 bytes). */
TPOSEI_AVX512_INLINE void tposei_avx512_quarter(__m512i *x, const unsigned char *src,
                                                size_t src_stride, size_t esize)
{
    const unsigned n = (unsigned)(16 / esize);
    unsigned k;
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) x[k] = tposei_avx512_gather4(src + k * src_stride, n * src_stride);
    if (n > 1) tposei_avx512_net(x, esize);
}

/* `tiles` (1 or 2) 4n x 4n tiles down a column, n = 16/esize, as four column quarters of n
   elements: vector k holds source rows k, n+k, 2n+k, 3n+k in its lanes; after the network
   vector j is one whole destination row (64 bytes) of the quarter, and each destination row
   gets its line from every tile back to back (TPOSEI_ACROSS_PAIRS). With `nt` those rows are
   stored non-temporally and must start on a cache line. */
TPOSEI_AVX512_INLINE void tposei_avx512_tiles(unsigned char *dst, size_t dst_stride,
                                              const unsigned char *src, size_t src_stride,
                                              size_t esize, int nt, size_t tiles)
{
    const size_t n = 16 / esize;
    size_t g, k, t;
    __m512i x[2][16];
    TPOSEI_UNROLL
    for (g = 0; g < 4; g++) {
        unsigned char *d = dst + g * n * dst_stride;
        TPOSEI_UNROLL
        for (t = 0; t < tiles; t++)
            tposei_avx512_quarter(x[t], src + 4 * n * t * src_stride + g * 16, src_stride, esize);
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) {
            TPOSEI_UNROLL
            for (t = 0; t < tiles; t++) {
                void *line = d + k * dst_stride + t * TPOSEI_CACHE_LINE;
                if (nt)
                    _mm512_stream_si512((__m512i *)line, x[t][k]); /* whole line */
                else
                    _mm512_storeu_si512(line, x[t][k]);
            }
        }
    }
}

/* The streaming tile stays a call (not inlined into the walk): inlined, the same code ran
   at 0.59x memcpy instead of 0.77x at N = 16448 bytes with 2 MiB pages on the reference
   machine (equal with 4 KiB pages), for a cost of one call per 4 KiB tile. */
#define TPOSEI_AVX512_NT_FN static __attribute__((noinline)) TPOSEI_AVX512_ATTR
#define TPOSEI_AVX512_KERNELS(name, esize)                                                  \
    TPOSEI_AVX512_INLINE void name(unsigned char *dst, size_t dst_stride,                   \
                                   const unsigned char *src, size_t src_stride)             \
    {                                                                                       \
        tposei_avx512_tiles(dst, dst_stride, src, src_stride, esize, 0, 1);                 \
    }                                                                                       \
    TPOSEI_AVX512_NT_FN void name##_nt(unsigned char *dst, size_t dst_stride,              \
                                        const unsigned char *src, size_t src_stride)        \
    {                                                                                       \
        tposei_avx512_tiles(dst, dst_stride, src, src_stride, esize, 1, 1);                 \
    }
TPOSEI_AVX512_KERNELS(tposei_u8_64x64_avx512, 1)
TPOSEI_AVX512_KERNELS(tposei_u32_16x16_avx512, 4)
TPOSEI_AVX512_KERNELS(tposei_u64_8x8_avx512, 8)
TPOSEI_AVX512_KERNELS(tposei_u128_4x4_avx512, 16)
#undef TPOSEI_AVX512_KERNELS

/* TPOSEI_ACROSS_PAIRS: on Intel (TPOSEI_CPU_INTEL) the AVX-512 stream kernels of 2-16-byte
   elements take their tiles two at a time down a column, so each destination row gets two
   lines back to back, and blocks walked across go two tile rows at a time. On the Xeon guest
   (Emerald Rapids, family 6 model CFh, L2 2 MiB, 4 KiB pages) non-temporal lines stored one
   per row drain at half speed once more than 8-16 rows take turns: a store-only loop over an
   8256^2 float matrix ran at 2.02-2.15x memcpy's byte rate with 2-8 rows in turn, 1.57x with
   16, 1.26x with 32-64 and 1.07x with 512 (the direct blocks' pattern), and at 1.97-2.20x
   with 16-512 rows in turn two or more lines each (aligned to 128 bytes or not). A copy-only
   model of the direct walk (16-row tiles of lines, 512-row blocks) moved 0.74 of memcpy with
   single tiles and 0.83-0.96 with pairs; walked down it lost (0.61). Loads were not the
   bound: tile-order loads with linear stores ran at 0.86-0.89, linear loads with the tiles'
   stores at 0.54-0.66. avx512-stream, AUTO, median quotients of 3 interleaved rounds against
   single tiles: 8256^2 f32 x1.18 (0.57 -> 0.66), 5824^2 f64 x1.05-1.12, 2112^2 f32 x1.22,
   u16 x1.15-1.23, u128 x1.17, 4096^2 f32 x1.11, 1536x1024 f32 x1.09; blocks walked down
   (destination strides of 512-byte multiples, TPOSEI_DOWN_ALIGN) take the pairs too and
   measured mixed: 1024x2048 u16 x0.90-0.92, 2048^2 f32 x0.93, 4096^2 u16 x0.95, 1024^2 f64
   x0.97; unchanged: 10000x3000 f32, 3001x7919 f32, 8192^2 f32. Byte pairs through the same
   network lost (16448^2 x0.93, 2112^2 x0.94) and bytes keep single tiles; avx2-stream's own
   pairs of bytes and 2-byte elements walk across with them here too (measured x0.91-1.06,
   within the noise). The AMD CPUs keep single tiles: not measured there with pairs. */
#define TPOSEI_ACROSS_PAIRS 2
/* TPOSEI_INTEL_BLOCKS: with the pairs, Intel's direct blocks of 2-16-byte elements take Zen
   5's shapes (tposei_zen5_blocks: 256 destination rows; 8 and 16 bytes 32 lines by 64 rows).
   avx512-stream, AUTO, median quotients of 3 interleaved rounds against 512-row blocks of 8
   lines, both with pairs: 8256^2 f32 x1.15 (0.62 -> 0.71), 5824^2 f64 x1.24 (0.65 -> 0.80),
   10000x3000 f32 x1.08, 3001x7919 f32 x1.12, 8256^2 u16 x1.06, 2112^2 f32 x1.05, u16 x1.03;
   2112^2 f64 x0.95, 1024^2 f64 x1.00, 1536x1024 f32 x0.93 (0.86-1.22).
   Floats' blocks walked across are twice as tall there, 256 source rows (16 lines of each
   destination row a visit, 8 above): medians of 3 interleaved rounds, 128 -> 256 rows:
   8256^2 f32 0.64 -> 0.72-0.75 (x1.12), 10000x3000 0.65 -> 0.72-0.74 (x1.12), 2112^2 x1.03,
   1536x1024 x1.05; 512 rows 0.72 / 0.74, 256 rows by 128 destination rows 0.80 / 0.63,
   by 512 0.64 / 0.71. Walked down they lost (4096^2 x0.88) and keep 128; 2-byte elements
   already have 256 (512: x0.96-1.01). */
#define TPOSEI_INTEL_BAND_U32 256
/* Two tiles down a column, each destination row's two lines back to back (TPOSEI_ACROSS_PAIRS). */
#define TPOSEI_AVX512_PAIR_KERNEL(name, esize)                                              \
    TPOSEI_AVX512_NT_FN void name(unsigned char *dst, size_t dst_stride,                    \
                                  const unsigned char *src, size_t src_stride)              \
    {                                                                                       \
        tposei_avx512_tiles(dst, dst_stride, src, src_stride, esize, 1, 2);                 \
    }
TPOSEI_AVX512_PAIR_KERNEL(tposei_u16_64x32_avx512_nt, 2)
TPOSEI_AVX512_PAIR_KERNEL(tposei_u32_32x16_avx512_nt, 4)
TPOSEI_AVX512_PAIR_KERNEL(tposei_u64_16x8_avx512_nt, 8)
TPOSEI_AVX512_PAIR_KERNEL(tposei_u128_8x4_avx512_nt, 16)
#undef TPOSEI_AVX512_PAIR_KERNEL

/* Tall n x 8 matrices of 8-byte elements (AoS of 8 doubles to SoA), and back: eight 64-byte
   rows become eight columns through three levels of 64-bit unpacks and 128-bit lane shuffles
   (24 shuffles); r[k] holds row k on entry and column k on return (the transpose of 8x8 is
   its own inverse, so one network serves both directions). The VBMI byte permutes of the
   general skinny path need 32 two-source permutes for the same chunk and measured 0.61x
   memcpy at 4000000x8 where this network gives 0.79x. */
TPOSEI_AVX512_INLINE void tposei_u64_8x8_regs(__m512i r[8])
{
    /* (lanes 0,2 of a | lanes 0,2 of b) and (lanes 1,3 | lanes 1,3): 128-bit lane picks */
    enum { EVEN = 0x88, ODD = 0xdd };
    static const unsigned char order[8] = {0, 4, 2, 6, 1, 5, 3, 7}; /* row of output k */
    __m512i t[8], u[8];
    unsigned k;
    TPOSEI_UNROLL
    for (k = 0; k < 8; k += 2) { /* columns 0 2 4 6, and 1 3 5 7, of rows k and k+1 */
        t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]);
        t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]);
    }
    TPOSEI_UNROLL
    for (k = 0; k < 4; k++) { /* u[2j], u[2j+1]: columns (j', j'+4) and (j'+2, j'+6) of 4 rows */
        const unsigned a = k < 2 ? 0 : 4, c = k & 1; /* rows a..a+3, even or odd columns */
        u[2 * k] = _mm512_shuffle_i64x2(t[a + c], t[a + 2 + c], EVEN);
        u[2 * k + 1] = _mm512_shuffle_i64x2(t[a + c], t[a + 2 + c], ODD);
    }
    TPOSEI_UNROLL
    for (k = 0; k < 8; k++) { /* rows 0-3 from u[j], rows 4-7 from u[j+4] */
        const __m512i lo = u[k / 2], hi = u[k / 2 + 4];
        r[order[k]] = k % 2 ? _mm512_shuffle_i64x2(lo, hi, ODD)
                            : _mm512_shuffle_i64x2(lo, hi, EVEN);
    }
}

/* Destination rows off cache lines (direct stream mode). A tile's 64-byte row chunk at P,
   m = P mod 64 bytes past a line boundary, completes the line at P - m together with the
   last m bytes of the chunk before it in the same row (`carry`, 64 bytes per row), so each
   line leaves as one non-temporal store; the chunk then becomes the carry. Two-source
   permutes join the pair: words (AVX-512BW) where every m is even, bytes (VBMI) otherwise.
   Phases (TPOSEI_JOIN_LEAD ..., with the AVX2 line tiles). */

/* 0 1 2 ... 63 as bytes and as words; plus 64 - m (bytes) or 32 - m/2 (words), the index
   selects bytes 64-m.. of the carry, then the chunk from its start (64-127 take the second
   source). Built by one add rather than loaded at seq + 64 - m: that load straddles two
   lines, and in the skinny loop cost 0.85-0.9 of the speed (285714x7 floats 1.14 against
   1.23-1.24, 1333333x6 bytes 1.32 against 1.40-1.46, medians of 5). */
#define TPOSEI_SEQ8(i) i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7
#define TPOSEI_SEQ64                                                                        \
    TPOSEI_SEQ8(0), TPOSEI_SEQ8(8), TPOSEI_SEQ8(16), TPOSEI_SEQ8(24), TPOSEI_SEQ8(32),       \
        TPOSEI_SEQ8(40), TPOSEI_SEQ8(48), TPOSEI_SEQ8(56)
static const unsigned char tposei_join_seq8[64] = {TPOSEI_SEQ64};
static const uint16_t tposei_join_seq16[64] = {TPOSEI_SEQ64};
#undef TPOSEI_SEQ64
#undef TPOSEI_SEQ8

TPOSEI_AVX512_INLINE __m512i tposei_join_w(__m512i carry, __m512i chunk, size_t m)
{
    const __m512i seq = _mm512_loadu_si512((const void *)tposei_join_seq16);
    const __m512i idx = _mm512_add_epi16(seq, _mm512_set1_epi16((short)(32 - m / 2)));
    return _mm512_permutex2var_epi16(carry, idx, chunk); /* carry[64-m..63] chunk[0..63-m] */
}

TPOSEI_VBMI_INLINE __m512i tposei_join_b(__m512i carry, __m512i chunk, size_t m)
{
    const __m512i seq = _mm512_loadu_si512((const void *)tposei_join_seq8);
    const __m512i idx = _mm512_add_epi8(seq, _mm512_set1_epi8((char)(64 - m)));
    return _mm512_permutex2var_epi8(carry, idx, chunk); /* carry[64-m..63] chunk[0..63-m] */
}

/* Row k's carry in an aligned buffer of 64 bytes per row. */
TPOSEI_FORCE_INLINE __m512i *tposei_carry(unsigned char *carry, size_t k)
{
    return (__m512i *)(void *)(carry + 64 * k);
}

/* One output row chunk at `at`, by phase (above); `carry` is that row's 64 bytes: in an
   aligned buffer for the tiles (tposei_carry), in registers where a loop keeps few rows
   (the skinny and n x 8 paths: a buffer there measured 0.92-0.95 of the speed, 1333333x6
   bytes 1.30 against 1.38, 285714x7 floats 1.23 against 1.32, medians of 5). The word and
   byte forms differ only in the join. */
#define TPOSEI_JOIN_ROW(name, attr, join)                                                   \
    attr void name(unsigned char *at, __m512i chunk, __m512i *carry, int phase)             \
    {                                                                                       \
        const size_t m = (size_t)((uintptr_t)at & (TPOSEI_CACHE_LINE - 1));                 \
        if (phase == TPOSEI_JOIN_BODY)                                                      \
            _mm512_stream_si512((__m512i *)(at - m), join(*carry, chunk, m));               \
        else if (phase == TPOSEI_JOIN_HEAD) /* bytes 0..63-m: up to the end of the line */  \
            _mm512_mask_storeu_epi8(at, ~(uint64_t)0 >> m, chunk);                          \
        *carry = chunk;                                                                     \
    }
TPOSEI_JOIN_ROW(tposei_join_row_w, TPOSEI_AVX512_INLINE, tposei_join_w)
TPOSEI_JOIN_ROW(tposei_join_row_b, TPOSEI_VBMI_INLINE, tposei_join_b)
#undef TPOSEI_JOIN_ROW

/* A tile as tposei_avx512_tiles (one), each destination row k through `row` with carry row k. */
typedef void (*tposei_join_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride, unsigned char *carry, int phase);
#define TPOSEI_JOIN_KERNEL(name, attr, esize, row)                                          \
    static __attribute__((noinline)) attr void name(unsigned char *dst, size_t dst_stride,  \
                                                   const unsigned char *src,               \
                                                   size_t src_stride, unsigned char *carry, \
                                                   int phase)                              \
    {                                                                                      \
        const unsigned n = 16 / (esize);                                                   \
        unsigned g, k;                                                                     \
        __m512i x[16];                                                                     \
        TPOSEI_UNROLL                                                                      \
        for (g = 0; g < 4; g++) {                                                          \
            tposei_avx512_quarter(x, src + g * 16, src_stride, esize);                     \
            TPOSEI_UNROLL                                                                  \
            for (k = 0; k < n; k++)                                                        \
                row(dst + (g * n + k) * dst_stride, x[k], tposei_carry(carry, g * n + k),    \
                    phase);                                                                \
        }                                                                                  \
    }
#define TPOSEI_JOIN_KERNELS(name, esize)                                                    \
    TPOSEI_JOIN_KERNEL(name##_join_w, TPOSEI_AVX512_ATTR, esize, tposei_join_row_w)         \
    TPOSEI_JOIN_KERNEL(name##_join_b, TPOSEI_VBMI_FN, esize, tposei_join_row_b)
/* 1- and 2-byte tiles have rows-once kernels (below); the quarter network still joins
   bytes where the CPU lacks VBMI, and 2-byte rows at odd offsets; and it joins bytes (with
   VBMI) and 2-byte rows whose source stride spreads a tile over the L1 sets
   (tposei_vbmis_e1, tposei_avx512s_e2). */
TPOSEI_JOIN_KERNEL(tposei_u8_64x64_avx512_join_w, TPOSEI_AVX512_ATTR, 1, tposei_join_row_w)
TPOSEI_JOIN_KERNEL(tposei_u8_64x64_avx512_join_b, TPOSEI_VBMI_FN, 1, tposei_join_row_b)
TPOSEI_JOIN_KERNEL(tposei_u16_32x32_avx512_join_w, TPOSEI_AVX512_ATTR, 2, tposei_join_row_w)
TPOSEI_JOIN_KERNEL(tposei_u16_32x32_avx512_join_b, TPOSEI_VBMI_FN, 2, tposei_join_row_b)
TPOSEI_JOIN_KERNELS(tposei_u32_16x16_avx512, 4)
TPOSEI_JOIN_KERNELS(tposei_u64_8x8_avx512, 8)
TPOSEI_JOIN_KERNELS(tposei_u128_4x4_avx512, 16)
#undef TPOSEI_JOIN_KERNELS
#undef TPOSEI_JOIN_KERNEL

/* 64x64 bytes with each source line read once, whole (VBMI). The quarter network above
   reads each source line four times, 16 bytes at a time; when the source stride is a
   multiple of 4 KiB the tile's 64 lines share one L1 set and are evicted between quarters
   (Zen 4: 128x4096 bytes in L2 ran at 9.4 GB/s against 32 GB/s at stride 4160). Here rows
   8R..8R+7 become 8x8-byte blocks through the 64-bit 8x8 network, each block is transposed
   by one byte permute and parked in a 4 KiB L1 buffer, and a second 64-bit network per
   block column assembles whole destination rows: 2 x 8 networks of 24 shuffles and 64
   permutes per tile, each row loaded once and each destination row stored once. */
enum { TPOSEI_ROWS_PLAIN, TPOSEI_ROWS_NT, TPOSEI_ROWS_JOIN };

/* Stores destination row `d` of a rows-once tile as `store` says: joined with its carry
   (`join_row`), one non-temporal line, or a plain store. */
#define TPOSEI_ROWS_STORE(store, d, v, join_row, carry, phase)                              \
    do {                                                                                    \
        if ((store) == TPOSEI_ROWS_JOIN)                                                    \
            join_row((d), (v), tposei_carry((carry), 0), (phase));                          \
        else if ((store) == TPOSEI_ROWS_NT)                                                 \
            _mm512_stream_si512((__m512i *)(d), (v)); /* a whole line */                    \
        else                                                                                \
            _mm512_storeu_si512((void *)(d), (v));                                          \
    } while (0)

/* The three entry points of a rows-once tile: in-cache, non-temporal, joined. */
#define TPOSEI_ROWS_KERNELS(name, attr, rows_fn)                                            \
    static attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,  \
                          size_t src_stride)                                                \
    {                                                                                       \
        rows_fn(dst, dst_stride, src, src_stride, TPOSEI_ROWS_PLAIN, NULL, 0);              \
    }                                                                                       \
    static __attribute__((noinline)) attr void name##_nt(                                   \
        unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride) \
    {                                                                                       \
        rows_fn(dst, dst_stride, src, src_stride, TPOSEI_ROWS_NT, NULL, 0);                 \
    }                                                                                       \
    static __attribute__((noinline)) attr void name##_join(                                 \
        unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride, \
        unsigned char *carry, int phase)                                                    \
    {                                                                                       \
        rows_fn(dst, dst_stride, src, src_stride, TPOSEI_ROWS_JOIN, carry, phase);          \
    }

/* Byte p of an 8x8-byte block comes from byte (p % 8) * 8 + p / 8: the block transposed. */
static const unsigned char tposei_u8_8x8_perm[64] = {
#define TPOSEI_COL8(j) j, j + 8, j + 16, j + 24, j + 32, j + 40, j + 48, j + 56
    TPOSEI_COL8(0), TPOSEI_COL8(1), TPOSEI_COL8(2), TPOSEI_COL8(3),
    TPOSEI_COL8(4), TPOSEI_COL8(5), TPOSEI_COL8(6), TPOSEI_COL8(7)};
#undef TPOSEI_COL8

/* The 64 output rows of a 64x64 tile into mid: block (R, C) of the source, transposed, at
   mid + 64 * (8C + R): destination rows 8C..8C+7, bytes 8R..8R+7 of each. */
TPOSEI_VBMI_INLINE void tposei_u8_64x64_park(unsigned char *mid, const unsigned char *src,
                                             size_t src_stride)
{
    const __m512i perm = _mm512_loadu_si512((const void *)tposei_u8_8x8_perm);
    __m512i r[8];
    unsigned R, k;
    for (R = 0; R < 8; R++) {
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++) /* row 8R+k as eight 8-byte elements */
            r[k] = _mm512_loadu_si512((const void *)(src + (8 * R + k) * src_stride));
        tposei_u64_8x8_regs(r); /* r[C]: bytes 8C.. of rows 8R..8R+7, one block */
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            _mm512_store_si512((void *)(mid + 64 * (8 * k + R)),
                               _mm512_permutexvar_epi8(perm, r[k]));
    }
}

/* The second pass for block column C of a parked tile: r[k] becomes destination row 8C+k,
   all 64 bytes. */
TPOSEI_AVX512_INLINE void tposei_u8_64x64_unpark(__m512i r[8], const unsigned char *mid,
                                                 unsigned C)
{
    unsigned k;
    TPOSEI_UNROLL
    for (k = 0; k < 8; k++) r[k] = _mm512_load_si512((const void *)(mid + 64 * (8 * C + k)));
    tposei_u64_8x8_regs(r);
}

TPOSEI_VBMI_INLINE void tposei_u8_64x64_rows(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride,
                                             int store, unsigned char *carry, int phase)
{
    __attribute__((aligned(64))) unsigned char mid[64 * 64];
    __m512i r[8];
    unsigned C, k;
    tposei_u8_64x64_park(mid, src, src_stride);
    for (C = 0; C < 8; C++) {
        tposei_u8_64x64_unpark(r, mid, C); /* r[k]: destination row 8C+k */
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++) {
            TPOSEI_ROWS_STORE(store, dst + (8 * C + k) * dst_stride, r[k], tposei_join_row_b,
                              carry + 64 * (8 * C + k), phase);
        }
    }
}

TPOSEI_ROWS_KERNELS(tposei_u8_64x64_vbmi, TPOSEI_VBMI_FN, tposei_u8_64x64_rows)

/* Four rows-once byte tiles down a tile column (source rows 0-255), for blocks walked down
   on Zen 5: all four parked first (16 KiB of L1), then each block column's eight
   destination rows of every tile, so the destination's stores cycle through 8 rows, four
   lines each, instead of 64 rows one line each. On the Zen 5 guest non-temporal lines at a
   4 KiB stride drain at about half speed once more than 32 rows take turns: a store-only
   loop moved 35-39 GB/s with 32 rows in turn, 14 with 64 and 8 with 128, one line each
   (64 rows: 24 GB/s two lines back to back, 31 four, 36 eight), against 35 for any of
   those at a stride of 4160 bytes. avx512-stream, AUTO, median quotients of 5 interleaved
   rounds against one tile at a time: 4096x1024 x1.24, 4096^2 x1.17, 8192^2 x1.26 (0.51 ->
   0.63, 0.48 -> 0.57, 0.45 -> 0.57 of memcpy); eight tiles, or four through a 16 KiB copy of
   whole destination rows, measured no better, and two tiles (the AVX2 pair) x0.89-0.96. */
#define TPOSEI_VBMI_DOWN_TILES 4
static __attribute__((noinline)) TPOSEI_VBMI_FN void tposei_u8_256x64_vbmi_nt(
    unsigned char *dst, size_t dst_stride, const unsigned char *src, size_t src_stride)
{
    __attribute__((aligned(64))) unsigned char mid[TPOSEI_VBMI_DOWN_TILES][64 * 64];
    __m512i r[8];
    unsigned t, C, k;
    for (t = 0; t < TPOSEI_VBMI_DOWN_TILES; t++)
        tposei_u8_64x64_park(mid[t], src + 64 * t * src_stride, src_stride);
    for (C = 0; C < 8; C++)
        for (t = 0; t < TPOSEI_VBMI_DOWN_TILES; t++) {
            tposei_u8_64x64_unpark(r, mid[t], C);
            TPOSEI_UNROLL
            for (k = 0; k < 8; k++)
                _mm512_stream_si512((__m512i *)(dst + (8 * C + k) * dst_stride + 64 * t), r[k]);
        }
}

/* 32x32 2-byte elements the same way, with AVX-512BW alone: rows 8R..8R+7 through the
   64-bit network give 8x4-element blocks, one word permute turns each into 4 destination
   rows of 8 elements (16 bytes), parked at mid + 64 * (4C + R); a 4x4 transpose of 128-bit
   lanes then assembles whole destination rows. */
static const uint16_t tposei_u16_8x4_perm[32] = { /* word p from word (p % 8) * 4 + p / 8 */
#define TPOSEI_COL4(j) j, j + 4, j + 8, j + 12, j + 16, j + 20, j + 24, j + 28
    TPOSEI_COL4(0), TPOSEI_COL4(1), TPOSEI_COL4(2), TPOSEI_COL4(3)};
#undef TPOSEI_COL4

TPOSEI_AVX512_INLINE void tposei_u16_32x32_park(unsigned char *mid, const unsigned char *src,
                                                size_t src_stride)
{
    const __m512i perm = _mm512_loadu_si512((const void *)tposei_u16_8x4_perm);
    __m512i r[8];
    unsigned R, k;
    for (R = 0; R < 4; R++) {
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            r[k] = _mm512_loadu_si512((const void *)(src + (8 * R + k) * src_stride));
        tposei_u64_8x8_regs(r); /* r[C]: elements 4C..4C+3 of rows 8R..8R+7 */
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            _mm512_store_si512((void *)(mid + 64 * (4 * k + R)),
                               _mm512_permutexvar_epi16(perm, r[k]));
    }
}

/* Destination rows 4C..4C+3 of the parked tile: lane j of part R is row 4C+j, chunk R. */
TPOSEI_AVX512_INLINE void tposei_u16_32x32_assemble(__m512i *out, const unsigned char *mid,
                                                    unsigned C)
{
    const unsigned char *p = mid + 64 * 4 * C;
    const __m512i r0 = _mm512_load_si512((const void *)p);
    const __m512i r1 = _mm512_load_si512((const void *)(p + 64));
    const __m512i r2 = _mm512_load_si512((const void *)(p + 128));
    const __m512i r3 = _mm512_load_si512((const void *)(p + 192));
    const __m512i t0 = _mm512_shuffle_i64x2(r0, r1, 0x44); /* r0.0 r0.1 r1.0 r1.1 */
    const __m512i t1 = _mm512_shuffle_i64x2(r0, r1, 0xee); /* r0.2 r0.3 r1.2 r1.3 */
    const __m512i t2 = _mm512_shuffle_i64x2(r2, r3, 0x44); /* r2.0 r2.1 r3.0 r3.1 */
    const __m512i t3 = _mm512_shuffle_i64x2(r2, r3, 0xee); /* r2.2 r2.3 r3.2 r3.3 */
    out[0] = _mm512_shuffle_i64x2(t0, t2, 0x88);           /* r0.0 r1.0 r2.0 r3.0 */
    out[1] = _mm512_shuffle_i64x2(t0, t2, 0xdd);           /* r0.1 r1.1 r2.1 r3.1 */
    out[2] = _mm512_shuffle_i64x2(t1, t3, 0x88);
    out[3] = _mm512_shuffle_i64x2(t1, t3, 0xdd);
}

TPOSEI_AVX512_INLINE void tposei_u16_32x32_rows(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride,
                                                int store, unsigned char *carry, int phase)
{
    __attribute__((aligned(64))) unsigned char mid[32 * 64];
    __m512i r[4];
    unsigned C, k;
    tposei_u16_32x32_park(mid, src, src_stride);
    for (C = 0; C < 8; C++) {
        tposei_u16_32x32_assemble(r, mid, C);
        TPOSEI_UNROLL
        for (k = 0; k < 4; k++) {
            TPOSEI_ROWS_STORE(store, dst + (4 * C + k) * dst_stride, r[k], tposei_join_row_w,
                              carry + 64 * (4 * C + k), phase);
        }
    }
}

TPOSEI_ROWS_KERNELS(tposei_u16_32x32_bw, TPOSEI_AVX512_ATTR, tposei_u16_32x32_rows)
#undef TPOSEI_ROWS_KERNELS

/* A corner of a tile: `rows` x `cols` source elements, each at most the tile's side (every
   AVX-512 tile row is 64 bytes). */
typedef void (*tposei_part_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride, size_t rows, size_t cols);

/* Bytes 0..n-1 of a 64-byte vector, n <= 64. */
TPOSEI_FORCE_INLINE uint64_t tposei_mask64(size_t n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* The strips whole tiles leave at a matrix's right and bottom, through the whole-tile
   kernel: the corner is staged into an aligned L1 square by masked loads (zeros past it),
   transposed there, and its `cols` destination rows of `rows` elements leave by masked
   stores. The scalar edge routine moved one element at a time: for 1-byte matrices whose
   side is not a multiple of 64 the strips took about as long as the rest (1448^2 bytes
   0.58x memcpy, 0.80x with the strips left out). */
#define TPOSEI_PART_KERNEL(name, attr, kernel, esize)                                       \
    static __attribute__((noinline)) attr void name(unsigned char *dst, size_t dst_stride,  \
                                                   const unsigned char *src,               \
                                                   size_t src_stride, size_t rows,         \
                                                   size_t cols)                            \
    {                                                                                      \
        __attribute__((aligned(64))) unsigned char in[64 * 64], out[64 * 64];              \
        const size_t n = 64 / (esize);                                                     \
        const uint64_t load = tposei_mask64(cols * (esize));                               \
        const uint64_t store = tposei_mask64(rows * (esize));                              \
        size_t r;                                                                          \
        if (rows == n && cols == n) { /* a whole tile (tposei_seam_tiles) */           \
            kernel(dst, dst_stride, src, src_stride);                                  \
            return;                                                                    \
        }                                                                              \
        for (r = 0; r < n; r++)                                                            \
            _mm512_store_si512((void *)(in + 64 * r),                                      \
                               _mm512_maskz_loadu_epi8(r < rows ? load : 0,                \
                                                       src + r * src_stride));             \
        kernel(out, 64, in, 64);                                                           \
        for (r = 0; r < cols; r++)                                                         \
            _mm512_mask_storeu_epi8(dst + r * dst_stride, store,                           \
                                    _mm512_load_si512((const void *)(out + 64 * r)));      \
    }
TPOSEI_PART_KERNEL(tposei_u8_64x64_avx512_part, TPOSEI_AVX512_ATTR, tposei_u8_64x64_avx512, 1)
TPOSEI_PART_KERNEL(tposei_u8_64x64_vbmi_part, TPOSEI_VBMI_FN, tposei_u8_64x64_vbmi, 1)
TPOSEI_PART_KERNEL(tposei_u16_32x32_bw_part, TPOSEI_AVX512_ATTR, tposei_u16_32x32_bw, 2)
TPOSEI_PART_KERNEL(tposei_u32_16x16_avx512_part, TPOSEI_AVX512_ATTR, tposei_u32_16x16_avx512, 4)
TPOSEI_PART_KERNEL(tposei_u64_8x8_avx512_part, TPOSEI_AVX512_ATTR, tposei_u64_8x8_avx512, 8)
TPOSEI_PART_KERNEL(tposei_u128_4x4_avx512_part, TPOSEI_AVX512_ATTR, tposei_u128_4x4_avx512,
                   16)
#undef TPOSEI_PART_KERNEL

/* Seams of a dense destination (each row starting where the one before ends) in the direct
   stream mode with rows off cache lines. The line where row c ends also holds the start of
   row c+1; stored at two times, from the last band and from the first, each part was a
   partial store that read the line for ownership (and, with the bottom strip's and the last
   chunk's, three of them: 1448^2 bytes 0.62x memcpy, 0.83x with all three left out).
   Instead the first band only loads its carries, and the last band writes from the last
   whole line of each row to the first whole line of the next as one or two full lines.
   Bytes of row c, laid out in `s` from position full - 64 on: K (its carry, positions
   full - 64.. where `full` bytes of the row are whole tiles), L (its last 64 bytes, at
   tail = row bytes - full), then N (row c+1's first 64 bytes). */
TPOSEI_AVX512_INLINE void tposei_seam_row(unsigned char *row, size_t full, size_t tail,
                                          const unsigned char *K, const unsigned char *L,
                                          const unsigned char *N)
{
    __attribute__((aligned(64))) unsigned char s[192];
    const size_t m = (size_t)((uintptr_t)(row + full) & (TPOSEI_CACHE_LINE - 1));
    unsigned char *line = row + full - m; /* the first line not yet written */
    _mm512_store_si512((void *)s, _mm512_load_si512((const void *)K));
    _mm512_storeu_si512((void *)(s + tail), _mm512_load_si512((const void *)L));
    if (N) { /* up to the next row's first line boundary past its start */
        const size_t m2 = (size_t)((uintptr_t)(row + full + tail) & (TPOSEI_CACHE_LINE - 1));
        _mm512_storeu_si512((void *)(s + 64 + tail), _mm512_load_si512((const void *)N));
        _mm512_stream_si512((__m512i *)line, _mm512_loadu_si512((const void *)(s + 64 - m)));
        if (m + tail > m2)
            _mm512_stream_si512((__m512i *)(line + 64),
                                _mm512_loadu_si512((const void *)(s + 128 - m)));
    } else { /* the matrix's last row: m + tail bytes, up to two partial lines */
        const size_t n = m + tail;
        _mm512_mask_storeu_epi8(line, tposei_mask64(n),
                                _mm512_loadu_si512((const void *)(s + 64 - m)));
        if (n > 64)
            _mm512_mask_storeu_epi8(line + 64, tposei_mask64(n - 64),
                                    _mm512_loadu_si512((const void *)(s + 128 - m)));
    }
}

/* The seams of destination rows col..col+tile-1 (a tile column of the last band): L from
   the tile of the last `tile` source rows, N from the first tile row one column on; K from
   the carries. `part` transposes both into L1. */
static __attribute__((noinline)) TPOSEI_AVX512_ATTR void
tposei_seam_tiles(const tposei_job *job, size_t col, size_t esize, size_t tile,
                  tposei_part_fn part, const unsigned char *carry)
{
    __attribute__((aligned(64))) unsigned char last[64 * 64], next[64 * 64];
    const size_t ds = job->dst_stride, full = job->rows / tile * tile;
    const size_t tail = (job->rows - full) * esize;
    const size_t more = tposei_min(tile, job->cols - col - 1); /* rows with a next row */
    size_t k;
    if (tail)
        part(last, 64, job->src + (job->rows - tile) * job->src_stride + col * esize,
             job->src_stride, tile, tile);
    if (more) part(next, 64, job->src + (col + 1) * esize, job->src_stride, tile, more);
    for (k = 0; k < tile; k++)
        tposei_seam_row(job->dst + (col + k) * ds, full * esize, tail, carry + 64 * k,
                        tail ? last + 64 * k : carry + 64 * k, k < more ? next + 64 * k : NULL);
}

/* The destination's first row starts in the middle of a line: its first chunk (carry 0)
   up to the line's end, the one head no seam writes. */
static TPOSEI_AVX512_ATTR void tposei_seam_first(unsigned char *dst, const unsigned char *carry)
{
    const size_t m = (size_t)((uintptr_t)dst & (TPOSEI_CACHE_LINE - 1));
    _mm512_mask_storeu_epi8(dst, ~(uint64_t)0 >> m, _mm512_load_si512((const void *)carry));
}

/* Skinny matrices (one side S <= 16 elements, the other long, the long side's matrix
   dense): 64-byte chunks of the dense side are S vectors, and each output vector gathers
   its 64 bytes from all S of them with VBMI two-source byte permutes, one per input pair,
   merged under a byte mask. The index and mask tables are built once per call. */
#define TPOSEI_SKINNY_MAX 16
/* The network's cost grows as S^2 (S/2 permutes per output vector). Tall sides of more
   than 10 elements do better through the narrow path's quarters, and wide sides of whole
   lines through the tile drivers (tposei_skinny_net_side). */
#define TPOSEI_SKINNY_TALL_MAX 10

typedef struct tposei_skinny {
    unsigned char idx[TPOSEI_SKINNY_MAX][TPOSEI_SKINNY_MAX / 2][64]; /* [output][pair] */
    uint64_t mask[TPOSEI_SKINNY_MAX][TPOSEI_SKINNY_MAX / 2];       /* bytes from that pair */
    unsigned char perm8[64]; /* short side 8: the byte permute inside each vector */
    size_t s;  /* short side */
    int joins; /* tall, streaming, destination rows off lines (tposei_rows_store) */
} tposei_skinny;

/* Byte q of output vector m comes from byte `pos` of the S input vectors of w bytes laid
   end to end: tall: the source is (w/esize) rows x S dense, output m is destination row m
   (source column m); wide: the inputs are S source rows of w bytes, output m is bytes wm..
   of the dense destination chunk. */
TPOSEI_FORCE_INLINE size_t tposei_skinny_pos(size_t s, size_t esize, int tall, size_t w,
                                             size_t m, size_t q)
{
    const size_t d = (w * m + q) / esize; /* wide: element of the destination chunk */
    if (tall) return (q / esize * s + m) * esize + q % esize;
    return (d % s) * w + (d / s) * esize + (w * m + q) % esize;
}

/* A short side of 8 elements moves 8-byte groups: each input and each output vector is eight
   of them, and output m's group k comes from input k's group m (tall) or holds input k's
   bytes (wide). So the chunk is the 8x8 transpose of 64-bit elements (tposei_u64_8x8_regs,
   24 shuffles) with one single-source byte permute per vector, the same for all eight:
   before it when tall, to gather in each input the bytes of group m for output m; after it
   when wide, to put output m's bytes of input k in their order. Medians of 3-5 interleaved
   runs, AUTO, the general network's 32 two-source permutes (and 28 ORs) -> this: 4000000x8
   bytes 0.82 -> 1.05x memcpy, 8x4000000 0.88 -> 1.03, 4000000x8 2-byte 0.88 -> 1.05,
   8x4000000 0.82 -> 1.00, 4000000x8 floats 0.99 -> 1.11, 8x4000000 0.87 -> 1.01. Folding
   the permute into the network's first (tall) or last (wide) level as two-source permutes
   measured x0.92-1.01 of this. */
static void tposei_skinny8_table(tposei_skinny *t, size_t esize, int tall)
{
    size_t m, q;
    for (m = 0; m < 8; m++)
        for (q = 0; q < 64; q++) {
            /* output m's byte q is byte pos % 64 of input pos / 64 */
            const size_t pos = tposei_skinny_pos(8, esize, tall, 64, m, q);
            if (tall) /* pos / 64 == q / 8: gather it into that input's group m */
                t->perm8[8 * m + q % 8] = (unsigned char)(pos % 64);
            else /* it lies in group m, which the network moves to output m's group pos / 64 */
                t->perm8[q] = (unsigned char)(pos / 64 * 8 + pos % 8);
        }
}

TPOSEI_VBMI_INLINE void tposei_skinny8_chunk(const tposei_skinny *t, int tall, const __m512i *in,
                                             __m512i *out)
{
    const __m512i perm = _mm512_loadu_si512((const void *)t->perm8);
    unsigned k;
    TPOSEI_UNROLL
    for (k = 0; k < 8; k++) out[k] = tall ? _mm512_permutexvar_epi8(perm, in[k]) : in[k];
    tposei_u64_8x8_regs(out);
    if (!tall)
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++) out[k] = _mm512_permutexvar_epi8(perm, out[k]);
}

/* Every output and input pair: vpermt2b indices (0-63 first input, 64-127 second) and the
   mask of the bytes that pair provides. */
static void tposei_skinny_tables(tposei_skinny *t, size_t s, size_t esize, int tall)
{
    size_t m, p, q;
    t->s = s;
    if (s == 8) {
        tposei_skinny8_table(t, esize, tall);
        return;
    }
    for (m = 0; m < s; m++)
        for (p = 0; p < (s + 1) / 2; p++) {
            uint64_t mask = 0;
            for (q = 0; q < 64; q++) {
                const size_t pos = tposei_skinny_pos(s, esize, tall, 64, m, q);
                t->idx[m][p][q] = (unsigned char)(pos % 128);
                if (pos / 128 == p) mask |= (uint64_t)1 << q;
            }
            t->mask[m][p] = mask;
        }
}

/* One chunk: S input vectors in, S output vectors out; s is a constant in every caller. */
TPOSEI_VBMI_INLINE void tposei_skinny_chunk(const tposei_skinny *t, size_t s, const __m512i *in,
                                            __m512i *out)
{
    size_t m, p;
    TPOSEI_UNROLL
    for (m = 0; m < s; m++) {
        __m512i acc = _mm512_setzero_si512();
        TPOSEI_UNROLL
        for (p = 0; p < (s + 1) / 2; p++) {
            const __m512i idx = _mm512_loadu_si512((const void *)t->idx[m][p]);
            const __m512i hi = in[2 * p + 1 < s ? 2 * p + 1 : 2 * p];
            /* bytes of output m that live in inputs 2p, 2p+1, gathered; zero elsewhere */
            const __m512i v = _mm512_maskz_permutex2var_epi8(t->mask[m][p], in[2 * p], idx, hi);
            acc = _mm512_or_si512(acc, v);
        }
        out[m] = acc;
    }
}

/* The skinny network on AVX2, which has no byte permute across 128-bit lanes: each lane
   is a chunk of its own, S inputs of 16 bytes to S outputs of 16 bytes (w = 16 in
   tposei_skinny_pos), and a vector carries two neighbouring chunks. Output m gathers its
   bytes from every input with one in-lane byte shuffle each, zeroing (index 0x80) the
   bytes another input provides, S^2 shuffles for 32 * S bytes. The same index serves both
   lanes. The shuffles grow as S^2 per S, so the network takes short sides of at most 8
   elements and 24 bytes when it streams, and in cache, where the SWAR kernel comes closer,
   bytes and sides of at most 12 bytes (tposei_skinny16_side, tposei_try_skinny16). Beyond,
   it lost to SWAR (one run each: 12 bytes 0.37 against 0.46, 16 bytes 0.18-0.31 against
   0.42-0.53, 7 floats tall 0.51 against 0.60); bytes of 9-31 take tposei_rows16_run. */
#define TPOSEI_SKINNY16_MAX 8
typedef struct tposei_skinny16 {
    unsigned char idx[TPOSEI_SKINNY16_MAX][TPOSEI_SKINNY16_MAX][32]; /* [output][input] */
    const struct tposei_avx2_seams *seams; /* tall, for destination rows off lines */
} tposei_skinny16;

/* 1 when a short side of s elements is the AVX2 skinny path's, streaming or in cache. */
TPOSEI_FORCE_INLINE int tposei_skinny16_side(size_t s, size_t esize, int stream)
{
    if (esize > 8 || s > TPOSEI_SKINNY16_MAX) return 0;
    return stream ? s * esize <= 24 : esize == 1 || s * esize <= 12;
}

static void tposei_skinny16_tables(tposei_skinny16 *t, size_t s, size_t esize, int tall)
{
    size_t m, k, q;
    for (m = 0; m < s; m++)
        for (k = 0; k < s; k++)
            for (q = 0; q < 16; q++) {
                const size_t pos = tposei_skinny_pos(s, esize, tall, 16, m, q);
                const unsigned char i = pos / 16 == k ? (unsigned char)(pos % 16) : 0x80;
                t->idx[m][k][q] = t->idx[m][k][q + 16] = i;
            }
}

/* Output m of the chunk pair in `in` (S vectors); s is a constant in every caller. */
TPOSEI_AVX2_INLINE __m256i tposei_skinny16_out(const tposei_skinny16 *t, size_t s,
                                               const __m256i *in, size_t m)
{
    __m256i acc = _mm256_shuffle_epi8(in[0], _mm256_loadu_si256((const __m256i *)t->idx[m][0]));
    size_t k;
    TPOSEI_UNROLL
    for (k = 1; k < s; k++)
        acc = _mm256_or_si256(
            acc, _mm256_shuffle_epi8(in[k], _mm256_loadu_si256((const __m256i *)t->idx[m][k])));
    return acc;
}

/* ======================================================================================== */
// >>drivers
/* ======================================================================================== */

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

/* A copy far larger than the caches, one line per non-temporal store in address order (the
   row streamer), one fence. For the in-place slot moves (4000000x8 doubles, 36 copies of
   4 MiB) this measured 0.96-1.01x memcpy of the whole matrix on the Zen 4 guest where 256
   bytes from each of four 4 KiB pages in turn (glibc's large-copy pattern, which the
   earlier Xeon guest preferred) gave 0.85-0.92, and 1 KiB runs of sixteen loads, then
   sixteen stores 0.90-0.96 (three interleaved runs of `tpose-bench-inplace -r 4000000 -c 8
   -e 8`). memcpy itself would read each destination line first: 4 MiB sits under glibc's
   non-temporal threshold. Inline only so that translation units without the in-place
   header do not warn it unused. */
static inline TPOSEI_AVX512_ATTR void tposei_stream_copy_avx512(unsigned char *dst,
                                                               const unsigned char *src,
                                                               size_t bytes)
{
    tposei_stream_row_avx512(dst, src, bytes);
    tposei_stream_fence();
}

typedef void (*tposei_row_fn)(unsigned char *dst, const unsigned char *buf, size_t bytes);
/* A pipelined pair kernel (tposei_u8_pipe_avx2_nt): streams the pair of tiles parked in set
   `set` of `parks` to dst while parking the next pair from `next` into the other set, and
   moves the prefetch cursor on through it. */
struct tposei_geom;
struct tposei_pf;
typedef void (*tposei_pipe_fn)(const tposei_job *job, const struct tposei_geom *g,
                               struct tposei_pf *pf, unsigned char *dst, size_t dst_stride,
                               const unsigned char *next, unsigned char *parks, unsigned set);

/* Read prefetch into L2 (PREFETCHT1): a panel is read one panel later, too late for L1.
   Overridable, so a test can record the panel cursor's addresses (tests/test_panel.c). */
#ifndef TPOSEI_PREFETCH_L2
#define TPOSEI_PREFETCH_L2(p) __builtin_prefetch((const void *)(p), 0, 2)
#endif

/* Software prefetch of a sequential read stream (the skinny network's dense side, or each
   row of its short side) into L1, TPOSEI_SEQ_AHEAD bytes past `p`. On the Zen 5 guest the
   hardware prefetchers left those streams short beside the non-temporal stores (AVX-512
   skinny network, AUTO, medians of 3-5 interleaved runs, none -> 2 KiB ahead: 1000000x3
   bytes 0.78 -> 1.01, 3x1000000 0.77 -> 1.01, 4000000x8 0.61 -> 0.80, floats 1000000x3 0.78
   -> 0.95, 4000000x8 0.67 -> 0.98, doubles 3x1000000 0.81 -> 1.05; 1, 4 and 8 KiB ahead
   measured within noise of 2). The n x 8 doubles network (tposei_rows8_chunks), which reads
   16 lines a step, measured no better with it (8x4000000 0.92 -> 0.88) and has none. The
   address is formed as an integer: it may lie past the end of the source, which a prefetch
   never faults on but pointer arithmetic may not reach. */
/* An empty asm on a loaded vector, so the optimiser keeps the load a load: Clang's
   loop-idiom pass turned the specialised tall loop's loads of 9 or 10 whole lines, spilled
   to the stack, into a call to memcpy, which TPOSE_NO_STDLIB promises never happens
   (tests/check_symbols.py). */
#define TPOSEI_VEC_OPAQUE(v) __asm__("" : "+v"(v))
#ifndef TPOSEI_SEQ_AHEAD
#define TPOSEI_SEQ_AHEAD 2048
#endif
TPOSEI_FORCE_INLINE void tposei_prefetch_ahead(const unsigned char *p)
{
    __builtin_prefetch((const void *)((uintptr_t)p + TPOSEI_SEQ_AHEAD), 0, 3);
}

/* Geometry of a SIMD run: bands of `band` source rows (whole destination lines), blocks of
   `bcols` source columns (one stream-buffer fill), panels of `pcols` source columns: the
   unit of prefetch. */
typedef struct tposei_geom {
    size_t band, bcols, pcols;
    size_t lead; /* buffered mode, misaligned destination rows: source rows taken again */
    size_t carry_row; /* joins: bytes of carry per destination row, 64 or 128 (carry pairs) */
    size_t pf_first;  /* bytes of source the panel cursor fetches ahead at most; 0: a panel */
    int panels;  /* 1: prefetch by panels whatever the stride (else by tiles where they fit) */
    tposei_part_fn part; /* the right and bottom strips by tile corners; NULL: scalar */
    tposei_tile_fn pair; /* blocks walked down: pair_tiles tiles down a column at once, or NULL */
    size_t pair_tiles;
    int across; /* blocks walked across: tile rows two at a time through `pair` (Intel) */
    tposei_pipe_fn pipe; /* blocks walked down a pair tall: the pairs pipelined, or NULL */
    int overlap, seams;  /* direct mode: tposei_join_block, tposei_simd_block (rows on lines) */
    int persist; /* joins: the carries stay from band to band (tposei_u8_join_whole) */
    int down; /* direct and aliasing modes: tiles walked down the block (TPOSEI_DOWN_ALIGN) */
    size_t gcols; /* 0, or the blocks walked in column groups this wide (TPOSEI_GROUP_ROWS) */
    size_t tile_ahead; /* bytes of source the tile cursor runs ahead; 0: TPOSEI_PF_AHEAD */
    int pf_pages; /* the panel cursor's bursts end on 4 KiB pages (TPOSEI_PF_PAGE_ZEN3) */
} tposei_geom;

/* Block shapes, in cache lines of destination run (band) and source run (bcols), measured
   on the reference machines (bench/MEASURED.md): in-cache runs want small blocks; runs
   from memory want long runs on both sides, so each DRAM page opened serves several lines
   (0.37x memcpy with one-line blocks, 0.60x with 16 lines of destination by 4 of source at
   N = 16448 bytes, tile cursor, Sapphire Rapids).
   The direct stream mode's blocks are 8 lines of destination tall and 512 destination rows
   wide whatever the element size: 256 KiB of source in runs of 512 x esize bytes, fetched
   into L2 one block ahead by the panel cursor, whose row-by-row walk is a few long streams
   the hardware follows. On Zen 4 (1 MiB L2) that walk beat the tile cursor's 64 rows at a
   time everywhere; ratio to memcpy, tile cursor with the best 16-line block per element
   size -> panels of 8 x 512:
     16448^2 u8 0.47-0.60 -> 0.73-0.97     2112^2 u8  0.73-0.75 -> 1.05-1.13
     2112^2 u16 0.65-0.70 -> 1.08-1.15     11664^2 u16 0.50-0.51 -> 0.61-0.63
     8256^2 f32 0.96-1.02 -> 1.10-1.13     3001x7919 f32 1.00-1.03 -> 0.91-1.07
     2112^2 f32 1.11-1.15 -> 1.23-1.30     5824^2 f64 0.94-0.96 -> 1.00-1.01
   (2112^2 u8/u16 also 1.3-1.7 with 64-128-row panels, but 16448^2 u8 and 11664^2 u16 lose
   there; 4-, 16-line bands and 256- or 1024-row blocks were no better overall). The
   buffered stream mode keeps its buffer (bcols rows of band bytes) at 32 KiB, inside L1,
   and its tile cursor: panels one line wide measured 0.31-0.36 against 0.45-0.61.
   Aliasing source strides (tposei_pf_fits_l1 false) below 32 KiB
   stream better through short, wide blocks, 2 lines of destination by 8 of source: the
   lines of a block sit in the few L2 sets the stride reaches, and a tall block evicts its
   own rows before their next line is read. Measured ratio to memcpy, 16x4 -> 2x8:
   1024x2048 u16 0.86 -> 1.08, 4096^2 u8 0.64 -> 0.91, 4096^2 f32 0.94 -> 1.12, 8192^2 u8
   0.64 -> 0.73, 2048^2 f64 1.01 -> 1.27, 4096x8192 u16 0.79 -> 0.95, 2048x1024 u16
   0.98 -> 1.07, 8192x4096 f32 0.95 -> 1.06, 16384^2 u8 0.40 either way; but at 32 KiB
   (8192^2 f32) 0.59 -> 0.42, so longer strides take the direct blocks (which measure about
   the same as 2x8 on Zen 4 power-of-two shapes) unless the blocks are walked down
   (TPOSEI_DOWN_ALIGN): 2x8 blocks walked down against direct blocks walked across, medians
   of 4: 8192^2 f32 0.71 -> 0.76, 4096x8192 f32 0.83 -> 0.92, 2048x16384 f32 0.82 -> 0.94,
   1024x16384 f64 1.02 -> 1.08, 8192x4096 f64 0.88 -> 0.93. */
#define TPOSEI_ALIAS_WIDE_MAX 32768
/* Destination strides that are multiples of TPOSEI_DOWN_ALIGN bytes put every line a tile stores
   at one offset modulo 512, and a block walked across (tile rows outer) stores one such column
   of lines into each of its 512 destination rows before the next column. Zen 4 drains that run
   of non-temporal stores slowly: a store-only loop of the pattern moved 1.31-1.48x memcpy's
   bytes per second at strides 1024, 1536, 2560, 3072 and 4096 against 2.16-2.32x at 1152 and
   1280, and 1.96-2.49x at the same strides walked down the block (a tile column's band of tiles
   before the next column). The rows-once byte tile alone, source in L2, destination stride 1024:
   15.1 GB/s across, 20.4 down, 25.6 at stride 1088. So blocks on such strides walk down each
   column of tiles, where the source stride is below TPOSEI_ALIAS_WIDE_MAX or the blocks are the
   aliasing geometry's 2x8; the direct blocks' panels on longer strides share few L2 sets and
   must be read in the order the panel cursor fetched them (8192^2 f32 0.73 -> 0.58 walked down;
   Zen 5 measured otherwise and has its own rule, tposei_zen5_down, and Zen 3's 2-byte runs walk
   down on every such stride, TPOSEI_U16_RUN_ZEN3). avx512-stream, interleaved runs, across ->
   down, medians of 5: 1024^2 u16 0.98 -> 1.37, f32 0.88 -> 0.99, f64 1.07 -> 1.22; 1536x1024 f32
   0.96 -> 1.12; 2048^2 u8 0.90 -> 0.99, u16 1.01 -> 1.06, f32 0.87 -> 0.96; 4096^2 f32 0.84 ->
   0.92; 1024x1500 u8 0.72 -> 0.83, 1024x2048 u16 1.09 -> 1.22; of 3: 4096x8192 u16 0.99 -> 1.12,
   16384x4096 u8 0.80 -> 0.87; unchanged: 4096^2 and 8192^2 u8, 4096x1024 u8, 5824^2 f64. */
#define TPOSEI_DOWN_ALIGN 512
/* The aliasing geometry's blocks are 2 lines of destination by 8 of source, so a band of
   them writes 128 bytes into each of the matrix's destination rows before the next band
   comes back to them. On destination strides of a 4 KiB page or more each row is its own
   page, and past the TLB's reach (Zen 4: 3072 second-level entries) every 128 bytes stored
   then cost a page walk, two-dimensional in a guest. The blocks are therefore walked in
   column groups of TPOSEI_GROUP_ROWS destination rows, every band of a group before the
   next group: the group's rows stay in the TLB, and each source row is read a group at a
   time (4 KiB of floats). avx2-stream on the Zen 4 guest, median quotients against the
   whole-width walk over interleaved rounds (bench/interleave.py), three runs of 7-9 rounds:
   8192^2 floats x1.02 / x1.09 / x1.05-1.10, 2048x8192 floats x1.08 / x1.10 / x1.20-1.23,
   8192^2 bytes x1.04 / x1.20 / x1.00-1.10, 4096^2 bytes x1.03 / x1.10 and floats x1.04 /
   x1.00 (two runs), 4096x8192 2-byte x1.10 (one); two copies of one build spread
   x0.88-1.11 in the same rounds, so each figure alone is within the noise, their direction
   is not.
   Groups of 512 or 2048 rows measured no better than 1024 (of 7: 8192^2 floats x0.98 /
   x1.12, 2048x8192 floats x1.14 / x0.97, 4096^2 bytes x0.85 / x0.90). The direct blocks keep
   the whole-width walk: walked down (a group of one block) they lost (bench/MEASURED.md),
   and groups of 2048 / 4096 rows, of 7, gave 8256^2 floats x1.06 / x1.03, 16448^2 bytes
   x0.77 / x0.94, 5824^2 doubles x0.99 / x0.94, 3001x7919 floats x1.08 / x1.06. Both macros
   can be set lower for tests. */
#ifndef TPOSEI_GROUP_ROWS
#define TPOSEI_GROUP_ROWS 1024
#endif
#ifndef TPOSEI_GROUP_STRIDE
#define TPOSEI_GROUP_STRIDE 4096 /* destination strides from which rows take a page each */
#endif
/* With 4 KiB pages each direct block's destination rows are as many TLB misses, one per 512
   bytes stored: what separates 8256^2 f32 or 5824^2 f64 from memcpy on the Zen 4 guest
   (0.76 -> 1.05 and 0.94 on 2 MiB pages). Walking blocks down the matrix, taller bands and
   early prefetches of the next block's destination rows all measured lower
   (bench/MEASURED.md). */
#define TPOSEI_DIRECT_ROWS 512
/* On Zen 5 (TPOSEI_CPU_ZEN5) the direct blocks are half as wide, 256 destination rows (128
   KiB of source), and only bytes take the aliasing geometry's 2x8-line blocks: the other
   element sizes stream better through the direct blocks there, walked down on strides of a
   multiple of TPOSEI_DOWN_ALIGN. avx512-stream, medians of 3 interleaved runs, Zen 4's
   geometry -> this one: 1024x2048 u16 0.59 -> 0.91, 1536x1024 f32 0.65 -> 0.88, 1024^2 f64
   0.63 -> 0.93, 4096^2 f32 0.57 -> 0.81, 8192^2 f32 0.56 -> 0.81, 2048^2 f32 0.61 -> 0.84,
   2112^2 u8 0.74 -> 0.81, u16 0.81 -> 0.90, f32 0.78 -> 0.87, f64 0.80 -> 0.87, 16448^2 u8
   0.60 -> 0.67, 8256^2 f32 0.71 -> 0.85, 5824^2 f64 0.64 -> 0.74, 10000x3000 f32 0.64 ->
   0.69. Bytes on aliasing strides kept the 2x8 blocks (2048^2 u8 0.58 -> 0.50 without them,
   4096x1024 0.58 -> 0.54, 4096^2 0.54 / 0.53); 128-row blocks were no better overall
   (2112^2 f64 0.73, 1536x1024 f32 0.98, 8192^2 f32 0.77). */
#define TPOSEI_DIRECT_ROWS_ZEN5 256
/* Doubles on Zen 5 take taller, narrower direct blocks still: 32 lines of destination (256
   source rows) by 64 destination rows, so each destination row receives 2 KiB per visit
   (512 bytes above) and each source row gives 512 bytes (2 KiB above), 128 KiB a block.
   avx512-stream, medians of 5 interleaved rounds against 8 lines by 256 rows (two copies
   of that build: x0.96-1.04): 5824^2 0.70 -> 1.08 (x1.57), 4096^2 0.84 -> 1.03, 10000x3000
   0.78 -> 0.87, 3000x10000 0.79 -> 0.85, 2112^2 0.78 -> 0.83, 1024^2 0.85 -> 0.94. 16 lines
   by 64 rows and 32 by 32 measured within a few per cent of it. The other element sizes
   did not gain alike: bytes 16 lines by 128 or 256 rows, 16448^2 x1.00-1.01, 32 by 128 x0.87;
   floats 16 by 64-128 rows x0.90-1.21 over the shapes, in the noise (bench/MEASURED.md).
   16-byte elements take the same 32 lines by 64 rows (128 source rows, 1 KiB from each,
   128 KiB a block), still walked down on every multiple of TPOSEI_DOWN_ALIGN (doubles'
   rule in tposei_zen5_down measured x0.80-1.11 for them). AUTO, medians of 5 interleaved
   rounds, 8 lines by 256 rows -> these (two copies of that build: x0.88-1.14): 2112^2 0.75
   -> 0.83, 3008^2 0.72 -> 0.86, 1088x2080 0.71 -> 0.82, 1056x2080 0.75 -> 0.82, 2048^2
   0.80 -> 0.88, 2112x1056 0.76 -> 0.83, 4096x1024 0.80 -> 0.86, 1024x4096 0.79 -> 0.86,
   1024^2 0.90 -> 0.91. */
#define TPOSEI_DIRECT_LINES_ZEN5_WIDE 32
#define TPOSEI_DIRECT_ROWS_ZEN5_WIDE 64
/* Bytes' direct blocks walked across on Zen 5 are one tile wide, 8 lines (512 source rows) by
   64 destination rows, 32 KiB a block and a panel, where the source stride is below
   TPOSEI_DIRECT_U8_STRIDE_ZEN5: each source row gives one line a visit, the next one fetched
   a panel ahead. AUTO, medians of 5 interleaved rounds, 256 rows -> 64 (two copies of the
   old build: x0.96-1.04): 2112^2 0.82 -> 0.90 (x1.13), 3008^2 0.80 -> 0.91, 4160^2 0.81 ->
   0.89, 1088^2 0.78 -> 0.92, 2112x1088 0.80 -> 1.03, 16448x1088 0.70 -> 0.81; 8256^2 x0.97,
   12352x4160 x1.01 (x1.13 in 3 other rounds, as 2112x8256). Longer source strides lose or
   gain nothing (1088x10304 x0.97, 1088x12352 x0.96, 2112x12352 x0.96, 1088x24640 x0.82,
   16448^2 x0.94-0.97) and keep 256 rows. 128 rows measured between the two (x0.98-1.09),
   bands of 2 or 4 lines lower (16448^2 x0.66-0.92), and the cursor 2, 4 or 8 panels ahead
   no better than one (2112^2 x1.06-1.20 against x1.19). Measured only: no counters here. */
#define TPOSEI_DIRECT_ROWS_ZEN5_U8 64
#define TPOSEI_DIRECT_U8_STRIDE_ZEN5 ((size_t)10 << 10)

/* Bytes in the aliasing geometry on Zen 5 whose source rows are at most
   TPOSEI_ALIAS_WHOLE_ROW_ZEN5 bytes apart take blocks as wide as that (bcols), so each block
   spans whole source rows: its band is one contiguous run of source, which the panel cursor
   then walks start to end, where 8-line blocks read every row in two halves, one block after
   the other. AUTO, medians of 5 interleaved rounds, 8 lines -> whole rows (two copies of the
   old build: x0.97-1.02): 4096x1024 0.63 -> 0.66 (x1.05), 8192x1024 0.63 -> 0.67 (x1.06),
   2048x1024 0.62 -> 0.68 (x1.10), 16384x1024 0.62 -> 0.66, 3072x1024 0.62 -> 0.68, 4096x768
   0.65 -> 0.67; in three other runs of 3-4 rounds x1.04-1.21 on the same shapes. With the
   panel cursor a whole band ahead instead of TPOSEI_PF_LEAD_U8 it gained nothing (x1.02-1.04),
   nor with bands of 512 rows (x0.97-1.06). Longer rows keep 8-line blocks: 2 KiB rows
   measured x0.98 / x1.05 (4096x2048, 2048^2) in one run of 3. */
#define TPOSEI_ALIAS_WHOLE_ROW_ZEN5 1024

/* The blocks' shape on Zen 5, replacing the one tposei_simd_geom gives: the aliasing
   geometry's (bytes only there; TPOSEI_ALIAS_WHOLE_ROW_ZEN5) and the direct mode's
   (TPOSEI_DIRECT_ROWS_ZEN5, TPOSEI_DIRECT_LINES_ZEN5_WIDE, TPOSEI_DIRECT_ROWS_ZEN5_U8). */
TPOSEI_FORCE_INLINE void tposei_zen5_blocks(tposei_geom *g, const tposei_job *job,
                                            size_t esize, int alias, int joined, int down)
{
    if (alias) {
        if (job->src_stride <= TPOSEI_ALIAS_WHOLE_ROW_ZEN5)
            g->bcols = g->pcols = TPOSEI_ALIAS_WHOLE_ROW_ZEN5;
    } else if ((esize == 8 || esize == 16) && !joined) {
        g->band = TPOSEI_DIRECT_LINES_ZEN5_WIDE * (TPOSEI_CACHE_LINE / esize);
        g->bcols = g->pcols = TPOSEI_DIRECT_ROWS_ZEN5_WIDE;
    } else if (esize == 1 && !joined && !down && job->src_stride < TPOSEI_DIRECT_U8_STRIDE_ZEN5) {
        g->bcols = g->pcols = TPOSEI_DIRECT_ROWS_ZEN5_U8;
    } else {
        g->bcols = g->pcols = TPOSEI_DIRECT_ROWS_ZEN5;
    }
}
/* Which direct blocks on destination strides of a multiple of TPOSEI_DOWN_ALIGN walk down on
   Zen 5, where the rule for other CPUs (source strides below TPOSEI_ALIAS_WIDE_MAX, or
   aliasing ones) left shapes at 0.35-0.9x memcpy: every element size but 8 walks down
   whatever the source stride; doubles (TPOSEI_DIRECT_LINES_ZEN5_WIDE) walk down on multiples
   of 1 KiB and aliasing source strides, and across on odd multiples of 512 bytes. Medians
   of 5 interleaved rounds, AUTO, the old rule -> this one (two copies of one build:
   x0.94-0.98). Longer source strides, now down: floats 2048x8320 0.35 -> 0.82, 4096x8320
   0.40 -> 0.92, 8192x8320 0.40 -> 0.90, 2176x8320 0.63 -> 0.79, 3200x8320 0.64 -> 0.75;
   2-byte 4096x16928 0.40 -> 0.82, 2048x16928 0.35 -> 0.73; bytes 4096x33856 0.36 -> 0.45,
   2560x33856 0.59 -> 0.73; 16-byte 1088x2080 0.40 -> 0.69, 2112^2 0.41 -> 0.68; doubles
   2176x4160 0.69 -> 0.89, 1152x5824 0.69 -> 0.83, 4096x4160 0.82 -> 1.11. Doubles on odd
   multiples of 512 with shorter source strides, now across: 5824x2112 0.76 -> 1.02, 2112^2
   0.80 -> 1.04, 3008^2 0.80 -> 1.01, 1088^2 0.92 -> 1.07, 1600^2 0.84 -> 1.03, 3520^2 0.79
   -> 1.03, 2112x1088 0.87 -> 1.02. Walked across, doubles lose on multiples of 1 KiB
   (2176x1088 x0.77, 3200x2112 x0.73, 2304x2112 x0.73) and on aliasing strides (1024^2 x0.76,
   2048^2 x0.77), and floats on odd multiples of 512 (2176x2112 x0.74, 3200x2112 x0.77,
   1152x2112 x0.80). Measured only; no counters here to say why. */
TPOSEI_FORCE_INLINE int tposei_zen5_down(const tposei_job *job, size_t esize)
{
    return esize != 8 || job->dst_stride % (2 * TPOSEI_DOWN_ALIGN) == 0;
}

/* Joined direct blocks (destination rows off cache lines) of matrices of at most
   TPOSEI_JOIN_SHORT_MAX bytes are 128 destination rows wide instead: their carries (64 bytes
   per row) then take 8 KiB of L1 beside the tile's source lines and parked blocks, not all
   32 KiB of it (the likely reason; no counters here). avx512-stream, medians of 7 runs
   interleaved, 512 -> 128 rows: 1000x1500 bytes 0.79 -> 0.84, 1500x1000 0.82 -> 0.90, 2000^2
   0.83 -> 0.93, 1448^2 0.84 -> 0.85, 1000x1500 u16 0.90 -> 0.97; u32 1.22 -> 1.33 (of 5).
   Larger ones lose with the shorter panels (3001x7919 f32 1.05 -> 0.97, bytes 0.63 ->
   0.60) and keep 512. Those of bytes are also half as tall (4 tiles), though each band
   transposes one more tile row for its carries: 8 -> 4 tiles, medians of 7, rows-once tile
   1000x1500 0.84 -> 0.88, 1500x1000 0.85 -> 0.92, 2000^2 0.96 -> 0.99, 1448^2 0.95 -> 0.99,
   3000x1000 0.90 -> 1.00; quarter tile 0.88 -> 0.92, 0.85 -> 0.92, 1.04 -> 1.01, 0.94 ->
   0.97, 0.89 -> 0.95. 2-byte blocks (8 tiles of 32 rows) measured no better halved (2000x3000
   0.98 -> 0.89, 1000x1500 1.10 -> 1.02). Larger joined blocks of bytes are 128 rows wide
   too (5 runs interleaved, medians: 7919x3001 0.76 -> 0.86, 10000x3000 0.86 -> 0.91, but
   half as tall 0.86 -> 0.82). Joined blocks never take the aliasing geometry's 2x8-line
   blocks: with aliasing strides the direct blocks joined measured better, 512 rows wide
   or 128 (medians of 5, 2x8 -> direct: 3001x7919 bytes 0.57 -> 0.76, 2-byte 0.61 -> 0.82,
   1000x2048 2-byte 0.79 -> 0.95, 1000x4096 bytes 0.69 -> 0.75, 1001x4096 f32 0.67 -> 0.81,
   2001x4096 f64 1.04 -> 1.10). */
#ifndef TPOSEI_JOIN_SHORT_MAX
#define TPOSEI_JOIN_SHORT_MAX ((size_t)16 << 20)
#endif
#define TPOSEI_JOIN_ROWS 128
/* Bytes of the L1 block buffer (bcols x (band + lead) elements; all rows by bcols in the
   dense mode), and of the carries of the direct mode's destination rows when those rows are
   off cache lines (64 bytes each, 128 as carry pairs). */
#define TPOSEI_STREAM_BUF 32768
enum { TPOSEI_GEOM_CACHE, TPOSEI_GEOM_DIRECT, TPOSEI_GEOM_ALIAS, TPOSEI_GEOM_BUFFER };
/* How joined tiles keep their carries: 64 bytes per destination row (its last chunk), the
   same where a dense destination's seams are written by tposei_seam_tiles (AVX-512), or 128
   (the carry, then the chunk beside it: TPOSEI_AVX2_JOIN_KERNEL), pairs kept from band to
   band by the whole-width walk (tposei_u8_join_whole). */
enum { TPOSEI_CARRY_LINES, TPOSEI_CARRY_SEAMS, TPOSEI_CARRY_PAIRS, TPOSEI_CARRY_WHOLE };

TPOSEI_FORCE_INLINE tposei_geom tposei_simd_geom(size_t esize, size_t tile, int mode)
{
    tposei_geom g;
    const size_t line = TPOSEI_CACHE_LINE / esize ? TPOSEI_CACHE_LINE / esize : 1;
    const size_t unit = line > tile ? line : tile;
    g.band = mode == TPOSEI_GEOM_CACHE    ? unit
             : mode == TPOSEI_GEOM_DIRECT ? 8 * unit
             : mode == TPOSEI_GEOM_ALIAS  ? 2 * unit
                                          : 8 * unit;
    g.bcols = mode == TPOSEI_GEOM_DIRECT  ? TPOSEI_DIRECT_ROWS /* a multiple of unit */
              : mode == TPOSEI_GEOM_ALIAS ? 8 * unit
                                          : unit;
    g.pcols = mode == TPOSEI_GEOM_CACHE ? 4 * g.bcols : g.bcols;
    g.lead = 0;
    g.panels = mode == TPOSEI_GEOM_DIRECT;
    g.part = NULL;
    g.pair = NULL;
    g.pair_tiles = 0;
    g.across = 0;
    g.pipe = NULL;
    g.overlap = g.seams = g.down = g.persist = 0;
    g.gcols = 0;
    g.carry_row = TPOSEI_CACHE_LINE;
    g.pf_first = 0;
    g.tile_ahead = 0;
    g.pf_pages = 0;
    return g;
}

/* Lines of a 4 KiB page. */
#define TPOSEI_PAGE_LINES (4096 / TPOSEI_CACHE_LINE)

/* TPOSEI_PF_PAGE_ZEN3 (tposei_geom.pf_pages, bytes on Zen 3): the panel cursor runs each
   burst on to the end of the 4 KiB page it is in and makes the next ones as much shorter, so
   every page of the panel is fetched in one burst rather than split between two tiles'
   bursts. A 64x64-byte tile counts 64 lines, a page: a dense source whose bands start on
   pages was fetched a page a burst already, and every other source (rows padded by a single
   line, rows off lines, a dense band starting mid-page) ran at 0.6-0.75 of it. A copy-only
   model of the walk (scratch: a 2048-row source loaded down 64x64 tiles, the next band swept
   row by row; median of 11 alternated runs, ratio to memcpy) read a dense source at 1.37,
   the same 2048 bytes past a page at 0.99 and rows padded to 2112 bytes at 0.99; page-ended
   bursts took the padded one to 1.22-1.26 and the shifted one to 1.43. Why the page matters
   is not shown (the Zen 3 guest has no hardware counters). In the library, avx2-stream,
   medians of 5 interleaved rounds, quotients against the plain bursts: sources padded
   2048x1984 (`-L 2112`) 0.51 -> 0.78 (x1.40-1.63), 2048x2112 (`-L 2176`) x1.37, dense off
   lines 2048x2000 0.58 -> 0.85 (x1.48), destinations padded by tpose_padded_ld 1000x1500
   x1.21-1.44, 1500x1000 x1.36-1.52, 2000^2 x1.28-1.43, 1448^2 x1.21-1.32; dense sources on
   pages within noise (2112^2, 1024^2, 16448^2, 4096^2, 8192^2: x0.90-1.24). Bursts run on to
   the page's end lost for doubles (eight lines a tile, 2112^2 x0.71-0.79; no more than
   doubled, x0.79-0.93), and 2-byte elements measured x0.89-1.20, noise: bytes only. */

/* The panel cursor, for aliasing strides and the direct mode: walks the panel after the one
   being transposed row by row, line by line, so the hardware sees a few long runs instead of
   one line from each of many rows, and the panel waits in L2 (reference 004's next-block
   prefetch, one panel ahead). At N = 4096 bytes it measured 0.62x memcpy where the tile
   cursor in L2 gave 0.43x. */
typedef struct tposei_pf_panel {
    size_t gb;          /* first column of the column group (tposei_geom.gcols) */
    size_t rb, cb;      /* source origin of the panel being prefetched */
    size_t rows, bytes; /* its extent */
    size_t r, o;        /* next row, byte offset in that row */
    size_t debt;        /* prefetches issued past the tiles' count, to finish a page */
} tposei_pf_panel;

/* The end of the column group that starts at source column `gb`. */
TPOSEI_FORCE_INLINE size_t tposei_group_end(const tposei_job *job, const tposei_geom *g,
                                            size_t gb)
{
    return g->gcols ? tposei_min(job->cols, gb + g->gcols) : job->cols;
}

TPOSEI_FORCE_INLINE void tposei_panel_at(tposei_pf_panel *pp, const tposei_job *job,
                                         const tposei_geom *g, size_t rb, size_t cb,
                                         size_t esize)
{
    size_t ge = tposei_group_end(job, g, pp->gb);
    if (cb >= ge) { /* the group's next band */
        rb += g->band;
        cb = pp->gb;
    }
    if (rb >= job->rows && ge < job->cols) { /* the next group's first band */
        pp->gb = cb = ge;
        ge = tposei_group_end(job, g, ge);
        rb = 0;
    }
    pp->rb = rb;
    pp->cb = cb;
    pp->rows = rb < job->rows ? tposei_min(g->band, job->rows - rb) : 0;
    pp->bytes = tposei_min(g->pcols, ge - cb) * esize;
    pp->r = 0;
    pp->o = 0;
}

/* The prefetches that cover the panel at the cursor. */
TPOSEI_FORCE_INLINE size_t tposei_panel_lines(const tposei_pf_panel *pp)
{
    return pp->rows * ((pp->bytes + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE);
}

/* Issues `n` prefetches from the panel cursor, moving on to the next panel when one is done.
   A panel's run of a source row that starts off a cache line spans one line more than its
   bytes / 64: the cursor fetches that last line too, outside the count, so it keeps its pace
   with the tiles (which count their lines as if on lines). Left to the next panel, that line
   was one demand miss per row and panel. avx512-stream on Zen 5, median quotients of 5-7
   interleaved rounds in four runs (two copies of the old build: x0.98-1.02): 3008x7919
   floats (rows of 31676 bytes, the destination on lines) x1.12 / x1.18 / x1.19 / x1.17 (0.73
   -> 0.83), 3001x7919 floats x1.05-1.09, 7919x3001 x1.05-1.11, 2001x4001 x1.14-1.22,
   4001x3001 x1.07-1.10; 10000x3000 (every other row off a line) x0.98-1.02; shapes on lines
   unchanged (8256^2 floats, 2112^2 floats, 5824^2 doubles, 16448^2 bytes: x0.98-1.03).
   With g->pf_pages (TPOSEI_PF_PAGE_ZEN3) a burst that has used up its count runs on to the
   end of the 4 KiB page it is in, and the next bursts are that much shorter (pp->debt), so
   each page's lines are fetched in one burst. */
TPOSEI_FORCE_INLINE void tposei_panel_step(tposei_pf_panel *pp, const tposei_job *job,
                                           const tposei_geom *g, size_t n, size_t esize)
{
    uintptr_t page = 0; /* 4 KiB page of the last prefetch */
    const size_t cap = g->pf_pages ? TPOSEI_PAGE_LINES : 0;
    if (n <= pp->debt) {
        pp->debt -= n;
        return;
    }
    n -= pp->debt;
    pp->debt = 0;
    while (pp->rows > 0) {
        const unsigned char *row =
            job->src + (pp->rb + pp->r) * job->src_stride + pp->cb * esize;
        const uintptr_t at = (uintptr_t)(row + pp->o) >> 12;
        if (n > 0)
            n--;
        else if (at != page || pp->debt >= cap)
            break;
        else
            pp->debt++;
        page = at;
        TPOSEI_PREFETCH_L2(row + pp->o);
        pp->o += TPOSEI_CACHE_LINE;
        if (pp->o < pp->bytes) continue;
        if (((uintptr_t)(row + pp->bytes - 1) ^ (uintptr_t)(row + pp->o - TPOSEI_CACHE_LINE)) >=
            TPOSEI_CACHE_LINE) /* not in the line fetched last */
            TPOSEI_PREFETCH_L2(row + pp->bytes - 1);
        pp->o = 0;
        if (++pp->r == pp->rows) tposei_panel_at(pp, job, g, pp->rb, pp->cb + g->pcols, esize);
    }
}

/* The prefetch cursor: the tile `ahead` tiles after the one being transposed, in the walk's
   own order (bands, blocks across a band, tile rows, tiles across), whose lines are fetched
   into L1 (PREFETCHT0) as the current tile starts; the in-cache and buffered modes use it,
   the direct stream mode prefetches by panels (tposei_simd_geom; on Zen 3 only bytes do,
   TPOSEI_TILE_AHEAD_ZEN3). A fixed distance in
   bytes, so small tiles look as far ahead as large ones; 8-16 KiB measured best on the
   Sapphire Rapids reference machine, when the direct mode still used it: at N = 16448
   bytes 3 tiles of 4 KiB ahead gave 0.70x memcpy, 4 gave 0.67x, 5 gave 0.63x, and this
   whole cursor 0.67x against 0.60x for the panel cursor (16x4-line panels there).
   Only whole tiles are fetched: edge strips are left to the hardware. */
#ifndef TPOSEI_PF_AHEAD
#define TPOSEI_PF_AHEAD 12288
#endif
typedef struct tposei_pf {
    size_t rb, cb; /* origin of the block holding the tile */
    size_t r, c;   /* the tile inside its block */
    size_t br, bc; /* whole-tile extent of that block */
    int by_tile;   /* 0: the tile rows share too few L1 sets, the panel cursor runs instead */
    tposei_pf_panel panel;
} tposei_pf;

/* How many of the L1's 64 sets (64-byte lines, the set count of every x86 L1d of 32 or
   48 KiB) the first lines of `rows` source rows fall in. */
TPOSEI_FORCE_INLINE size_t tposei_l1_sets(size_t src_stride, size_t rows)
{
    uint64_t sets = 0;
    size_t r, n = 0;
    for (r = 0; r < rows && r < 64; r++) sets |= (uint64_t)1 << (r * src_stride / 64 % 64);
    for (; sets; sets &= sets - 1) n++;
    return n;
}

/* 1 when the rows of one tile spread over at least half of the L1's sets, so the tiles in
   flight fit in L1 beside the one being read. Power-of-two strides put every row of a tile
   in one set: fetched into L1 they evict each other (N = 4096 bytes fell from 0.62x to
   0.46x memcpy), so those take the panel cursor. */
TPOSEI_FORCE_INLINE int tposei_pf_fits_l1(size_t src_stride, size_t tile)
{
    const size_t n = tposei_l1_sets(src_stride, tile);
    return n >= 32 || n >= tile / 2;
}

TPOSEI_FORCE_INLINE void tposei_pf_block(tposei_pf *pf, const tposei_job *job,
                                         const tposei_geom *g, size_t tile)
{
    for (;;) {
        if (pf->cb >= job->cols) {
            pf->cb = 0;
            pf->rb += g->band;
        }
        if (pf->rb >= job->rows) return; /* past the end: nothing more to fetch */
        pf->br = tposei_min(g->band, job->rows - pf->rb) / tile * tile;
        pf->bc = tposei_min(g->bcols, job->cols - pf->cb) / tile * tile;
        if (pf->br && pf->bc) break;
        pf->cb += g->bcols; /* no whole tile in this block */
    }
    pf->r = pf->c = 0;
}

TPOSEI_FORCE_INLINE void tposei_pf_advance(tposei_pf *pf, const tposei_job *job,
                                           const tposei_geom *g, size_t tile)
{
    if ((pf->c += tile) < pf->bc) return;
    pf->c = 0;
    if ((pf->r += tile) < pf->br) return;
    pf->cb += g->bcols;
    tposei_pf_block(pf, job, g, tile);
}

/* Fetches the cursor's tile and moves on by one. Tiles narrower than a line share their
   lines: the first tile of each line-wide group fetches the group. */
TPOSEI_FORCE_INLINE void tposei_pf_tile(tposei_pf *pf, const tposei_job *job,
                                        const tposei_geom *g, size_t tile, size_t esize)
{
    const size_t width = tile * esize > TPOSEI_CACHE_LINE ? tile * esize : TPOSEI_CACHE_LINE;
    size_t i, o;
    if (pf->rb >= job->rows) return;
    if (pf->c * esize % width == 0) {
        const unsigned char *p =
            job->src + (pf->rb + pf->r) * job->src_stride + (pf->cb + pf->c) * esize;
        for (i = 0; i < tile; i++, p += job->src_stride)
            for (o = 0; o < width; o += TPOSEI_CACHE_LINE)
                __builtin_prefetch((const void *)(p + o), 0, 3);
    }
    tposei_pf_advance(pf, job, g, tile);
}

/* How far the panel cursor runs ahead of the tiles, in bytes of source (tposei_geom.pf_first):
   it starts that far in and then fetches as many lines as each tile reads. It runs a whole
   panel ahead, except for bytes in the direct and aliasing modes, which go at most
   TPOSEI_PF_LEAD_U8 ahead: half of the direct mode's 256 KiB panels.
   avx2-stream on the Zen 4 guest, 256 -> 128 KiB ahead: best pass of 9 over 2-3 interleaved
   processes, 16448^2 bytes 31.4-34.7 -> 28.9-30.0 ms, 2112^2 bytes 23.3-26.5 -> 21.1-24.0 ms
   per 512 MiB moved; median quotients of 5 interleaved rounds (bench/interleave.py) x1.08 and
   x1.11 (1.00-1.13), where two copies of one build spread x0.98-1.05. A panel and a half
   ahead lost far more (16448^2 bytes 0.65 -> 0.42). The likely cause is prefetched lines
   leaving L2 before the tiles read them, 512 KiB of panels in a 1 MiB L2 of 8 ways whose
   sets 4 KiB pages fill unevenly; no counters here to show it. Other element sizes measured
   a little lower half a panel ahead (x0.94-0.98: 8256^2 and 10000x3000 floats, 3001x7919
   joined), and the aliasing geometry's panels (16-64 KiB) too (4096x1024 bytes 34.4-35.2 ->
   37.8-37.9 ms, 8192^2 floats, 1024x2048 2-byte), so those keep a whole panel. */
#ifndef TPOSEI_PF_LEAD_U8
#define TPOSEI_PF_LEAD_U8 ((size_t)128 << 10)
#endif

/* 1 when the tile cursor fetches this job's tiles rather than the panel cursor: the geometry
   has no panels, and the tiles in flight fit in L1 (tposei_pf_fits_l1) or the geometry asks
   for a distance of its own (Zen 3, TPOSEI_TILE_AHEAD_ZEN3) on a job no taller than a tile,
   whose few rows cannot outnumber a set's ways whatever their stride. 8x4000000 doubles
   (rows 32000000 bytes apart, on two L1 sets) on the Zen 3 guest, avx2-stream, medians of 5
   interleaved rounds: panels 0.89 -> tile cursor 4 KiB ahead 1.16 (x1.30, 1.28-1.47), none
   at all 1.13. Taller jobs keep the panels: 16x2000000 doubles lost with either (x0.90-0.92)
   and 32x1000000 gained nothing (x0.94-1.04). */
TPOSEI_FORCE_INLINE int tposei_pf_by_tile(const tposei_job *job, const tposei_geom *g,
                                          size_t tile)
{
    if (g->panels) return 0;
    return tposei_pf_fits_l1(job->src_stride, tile) || (g->tile_ahead && job->rows <= tile);
}

/* A cursor `ahead` tiles past the first, those tiles already fetched. */
TPOSEI_FORCE_INLINE void tposei_pf_start(tposei_pf *pf, const tposei_job *job,
                                         const tposei_geom *g, size_t tile, size_t esize)
{
    size_t k;
    const size_t lead = g->tile_ahead ? g->tile_ahead : TPOSEI_PF_AHEAD;
    const size_t ahead = lead / (tile * tile * esize) + 1;
    pf->rb = pf->cb = 0;
    pf->by_tile = tposei_pf_by_tile(job, g, tile);
    if (!pf->by_tile) { /* the first panel at once (up to g->pf_first): a matrix of 1-2 MiB
                           is only 4-16 panels, and its first one read on demand cost 1000x1500
                           bytes 0.71 -> 0.78x memcpy (medians of 5) */
        size_t lines;
        pf->panel.gb = 0;
        pf->panel.debt = 0;
        tposei_panel_at(&pf->panel, job, g, 0, 0, esize);
        lines = tposei_panel_lines(&pf->panel);
        if (g->pf_first) lines = tposei_min(lines, g->pf_first / TPOSEI_CACHE_LINE);
        tposei_panel_step(&pf->panel, job, g, lines, esize);
        return;
    }
    tposei_pf_block(pf, job, g, tile);
    for (k = 0; k < ahead; k++) tposei_pf_tile(pf, job, g, tile, esize);
}

/* Advances the prefetch cursor by one tile (by its lines, for the panel cursor). */
TPOSEI_FORCE_INLINE void tposei_pf_step(tposei_pf *pf, const tposei_job *job,
                                        const tposei_geom *g, size_t tile, size_t esize)
{
    const size_t lines = tile * ((tile * esize + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE);
    if (pf->by_tile)
        tposei_pf_tile(pf, job, g, tile, esize);
    else
        tposei_panel_step(&pf->panel, job, g, lines, esize);
}

/* TPOSEI_U8_PIPE_ZEN3: on Zen 3, bytes whose blocks walk down (destination strides of a
   multiple of TPOSEI_DOWN_ALIGN) take their pairs of line tiles software-pipelined, with the
   prefetch spread through them: while one pair's lines leave (16 steps of four destination
   rows, each row's two lines back to back, as tposei_u8_128x64_avx2_nt), the next pair down
   the band is parked (one step of each tile's first pass per step) and the panel cursor
   fetches 8 lines, so the non-temporal stores, the loads and the prefetches each run evenly
   through the pair rather than in bursts. The pair kernel as it was stores a pair's 128 lines
   only after parking both tiles, and the panel cursor fetches a pair's 128 lines at once
   before it: in a model of the walk with the library's network (scratch: 4096x1024 bytes,
   5 alternated rounds, ratio to memcpy) single tiles measured 0.60, the pair 0.46, the
   pipelined pair with the cursor's 128 lines at its start 0.47-0.57 and spread 0.77; the
   same model wanted the cursor a whole 512 KiB panel ahead (4096^2: 0.70 against 0.47 at
   TPOSEI_PF_LEAD_U8's 128 KiB). So these blocks prefetch a whole panel ahead and their
   bursts do not end on pages (TPOSEI_PF_PAGE_ZEN3 would make them bursts again).
   avx2-stream, AUTO, median quotients of 5 interleaved rounds against the blocks walked
   across one tile at a time: 4096x1024 x1.25 (0.56 -> 0.78), 4096^2 x1.20 (0.49 -> 0.59),
   8192^2 x1.20 (0.51 -> 0.60), 2048^2 x1.35, 1024x4096 x1.28, 2048x1024 x1.55, 3072x1024
   x1.14, 16384x4096 x1.09, 1024x2048 x0.97; again with the order of the two reversed,
   x1.25-1.56 on the first six (shapes whose code did not change: x0.88-1.20). With the
   cursor 128 KiB ahead and page-ended bursts the pipeline gained at 4096x1024 (x1.10-1.27)
   and 2048x1024 (x1.22-1.57) but measured x0.86-1.26 on the squares and 1024x4096; the pair as it was, walked down, lost (x0.74-0.88). */
static __attribute__((noinline)) TPOSEI_AVX2_FN void tposei_u8_pipe_avx2_nt(
    const tposei_job *job, const tposei_geom *g, tposei_pf *pf, unsigned char *dst,
    size_t dst_stride, const unsigned char *next, unsigned char *parks, unsigned set)
{
    __m256i(*park)[2][8][16] = (__m256i(*)[2][8][16])(void *)parks; /* [set][tile] */
    const size_t ss = job->src_stride;
    unsigned v, t;
    if (!dst) { /* the first pair: parked only */
        for (t = 0; t < 2; t++) tposei_u8_64x64_avx2_park(park[set][t], next + 64 * t * ss, ss);
        return;
    }
    for (v = 0; v < 16; v++) {
        tposei_panel_step(&pf->panel, job, g, 2 * TPOSEI_CACHE_LINE / 16, 1); /* a pair's */
        if (next)
            for (t = 0; t < 2; t++)
                tposei_u8_avx2_park_step(park[set ^ 1][t], next + 64 * t * ss, ss, v);
        tposei_u8_avx2_stream_step(dst, dst_stride, park[set], v, 2);
    }
}

/* The right and bottom strips of a br x bc block (src: its source origin, out: where its
   first element goes, row stride os) that whole tiles leave, those `strips` names, by tile
   corners (g->part) or through the scalar edge routine; the panel cursor moves on by the
   lines of both. */
enum { TPOSEI_STRIP_RIGHT = 1, TPOSEI_STRIP_BOTTOM = 2 };
TPOSEI_FORCE_INLINE void tposei_simd_edges(const tposei_job *job, const tposei_geom *g,
                                           tposei_pf *pf, const unsigned char *src,
                                           unsigned char *out, size_t os, size_t br, size_t bc,
                                           size_t esize, size_t tile, int strips)
{
    const size_t ss = job->src_stride;
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    const size_t right = strips & TPOSEI_STRIP_RIGHT ? full_c : bc; /* bc: not here */
    const size_t bottom = strips & TPOSEI_STRIP_BOTTOM ? full_r : br;
    size_t r, c;
    if (g->part) {
        for (r = 0; right < bc && r < full_r; r += tile)
            g->part(out + right * os + r * esize, os, src + r * ss + right * esize, ss, tile,
                    bc - right);
        for (c = 0; bottom < br && c < bc; c += tile)
            g->part(out + c * os + bottom * esize, os, src + bottom * ss + c * esize, ss,
                    br - bottom, tposei_min(tile, bc - c));
    } else {
        if (right < bc)
            tposei_any_block(out + right * os, os, src + right * esize, ss, full_r, bc - right,
                             esize);
        if (bottom < br)
            tposei_any_block(out + bottom * esize, os, src + bottom * ss, ss, br - bottom, bc,
                             esize);
    }
    if (!pf->by_tile)
        tposei_panel_step(&pf->panel, job, g,
                          (br * bc - full_r * full_c) * esize / TPOSEI_CACHE_LINE, esize);
}

/* One br x bc block at source (rb, cb), written to `out` (the destination, or the stream
   buffer) with row stride `os`: full tiles through `kernel`, with g->overlap (destination
   only) a last tile column overlapping the one before in place of the right strip, the
   strips through tposei_simd_edges; each tile also advances the prefetch cursor by as many
   lines as it reads. A band one pair tall walked down with g->pipe goes by pipelined pairs,
   parked in `scratch` (the walk's L1 buffer; TPOSEI_U8_PIPE_ZEN3). */
TPOSEI_FORCE_INLINE void tposei_simd_block(const tposei_job *job, const tposei_geom *g,
                                           tposei_pf *pf, size_t rb, size_t cb, size_t br,
                                           size_t bc, size_t esize, size_t tile,
                                           tposei_tile_fn kernel, unsigned char *out,
                                           size_t os, unsigned char *scratch)
{
    const size_t ss = job->src_stride;
    const unsigned char *src = job->src + rb * ss + cb * esize;
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    const size_t inner = g->down ? full_r : full_c;
    size_t outer = g->down ? full_c : full_r;
    size_t i, j;
    TPOSE_ASSERT(!g->down || !pf->by_tile); /* the tile cursor follows tile rows */
    if (g->pipe && g->down && inner == g->pair_tiles * tile && outer > 0) {
        unsigned set = 0;
        TPOSE_ASSERT(g->pair_tiles == 2 && tile * esize == TPOSEI_CACHE_LINE && scratch);
        g->pipe(job, g, pf, NULL, os, src, scratch, set);
        for (i = 0; i < outer; i += tile, set ^= 1)
            g->pipe(job, g, pf, out + i * os, os,
                    i + tile < outer ? src + (i + tile) * esize : NULL, scratch, set);
        outer = 0; /* the tiles are done: only the strips remain */
    }
    TPOSE_ASSERT(!g->across || g->pair_tiles == 2);
    for (i = 0; i < outer; i += tile) {
        const int across = g->across && !pf->by_tile && i + 2 * tile <= outer; /* rows i.. */
        for (j = 0; j < inner; j += tile) {
            const size_t r = g->down ? j : i, c = g->down ? i : j;
            tposei_pf_step(pf, job, g, tile, esize);
            if (across) {
                tposei_pf_step(pf, job, g, tile, esize);
                g->pair(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
            } else if (g->down && g->pair && j + g->pair_tiles * tile <= inner) { /* tiles r.. */
                size_t t;
                for (t = 1; t < g->pair_tiles; t++) tposei_pf_step(pf, job, g, tile, esize);
                g->pair(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
                j += (g->pair_tiles - 1) * tile;
            } else if (tile == 1)
                tposei_move(out + c * os + r * esize, src + r * ss + c * esize, esize);
            else
                kernel(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
        }
        if (across) i += tile;
    }
    /* Rows on lines, bytes and 2-byte elements on Zen 3 (g->overlap): the last tile column
       ends where the block ends, overlapping the one before (its rows written twice, the same
       bytes), instead of a right strip of corner tiles, whose staged copies and plain stores
       (each line read for ownership) cost more than a whole tile streamed again. avx2-stream,
       AUTO, destination on lines, median quotients of 4-5 interleaved rounds: 16001x250 bytes
       0.37 -> 0.81 (x2.18), 8001x200 x1.45, 20001x129 x1.54, 4001x1000 x1.36-1.41, 30001x100
       2-byte x2.05-2.28, 4001x1000 2-byte x1.41; wide sources unchanged (2112x2100 bytes
       x0.96, 8256x8200 x1.09, 2112x2100 2-byte x1.03; two copies of one build x0.97-1.00).
       Floats and doubles lost (100001x40 floats x0.84-0.86, 50001x72 x0.83, 100001x20
       doubles x0.84) and keep the strip. */
    if (g->overlap && full_c < bc) {
        const size_t col = cb + bc - tile;
        for (i = 0; i < full_r; i += tile) {
            tposei_pf_step(pf, job, g, tile, esize);
            kernel(job->dst + col * job->dst_stride + (rb + i) * esize, job->dst_stride,
                   job->src + (rb + i) * ss + col * esize, ss);
        }
    }
    tposei_simd_edges(job, g, pf, src, out, os, br, bc, esize, tile,
                      (g->overlap ? 0 : TPOSEI_STRIP_RIGHT) | TPOSEI_STRIP_BOTTOM);
}


/* Where band runs meet in destination row `drow`: the byte offset of the line boundary at
   or before element r, the row's own ends excepted. Bands that meet there write every line
   of the row whole, each once, the first and last excepted. */
TPOSEI_FORCE_INLINE size_t tposei_run_edge(const unsigned char *drow, size_t r, size_t rows,
                                           size_t esize)
{
    const uintptr_t at = (uintptr_t)drow + r * esize;
    if (r == 0 || r == rows) return r * esize;
    return (size_t)((at & ~(uintptr_t)(TPOSEI_CACHE_LINE - 1)) - (uintptr_t)drow);
}

/* One block of the buffered mode: transposed into the L1 buffer, whose rows leave through
   `stream`. Where destination rows do not start on cache lines (g->lead > 0) the block
   also takes the g->lead source rows above it (one line of destination) and each row
   leaves from the line boundary at or before the band's first element to the one before
   the next band's: every line but a row's first and last is then one non-temporal store,
   where runs cut at element boundaries stored two partial lines each (read for ownership,
   written back, each twice: 3001x7919 floats 0.46x memcpy). The lead rows were read one
   band earlier and are not prefetched again. */
TPOSEI_FORCE_INLINE void tposei_buffer_block(const tposei_job *job, const tposei_geom *g,
                                             tposei_pf *pf, size_t rb, size_t cb, size_t br,
                                             size_t bc, size_t esize, size_t tile,
                                             tposei_tile_fn kernel, tposei_row_fn stream,
                                             unsigned char *buf)
{
    const size_t lead = rb ? g->lead : 0, bs = (g->band + g->lead) * esize;
    const size_t xb = rb - lead; /* first source row in the buffer */
    size_t i;
    if (lead) {
        tposei_pf idle; /* a cursor past the end: the lead rows fetch nothing */
        idle.rb = job->rows;
        idle.by_tile = 1;
        tposei_simd_block(job, g, &idle, xb, cb, lead, bc, esize, tile, kernel, buf, bs, NULL);
    }
    tposei_simd_block(job, g, pf, rb, cb, br, bc, esize, tile, kernel, buf + lead * esize, bs,
                      NULL);
    for (i = 0; i < bc; i++) {
        unsigned char *drow = job->dst + (cb + i) * job->dst_stride;
        const size_t lo = tposei_run_edge(drow, rb, job->rows, esize);
        const size_t hi = tposei_run_edge(drow, rb + br, job->rows, esize);
        stream(drow + lo, buf + i * bs + (lo - xb * esize), hi - lo);
    }
}

/* The source column where tile column t of a direct block starts: whole tiles from the
   block's first column, and with g->overlap a last one that ends where the block ends,
   overlapping the one before it (its rows are written twice, the same bytes), so the right
   strip leaves through the join too. */
TPOSEI_FORCE_INLINE size_t tposei_join_col(size_t cb, size_t bc, size_t tile, size_t t)
{
    return (t + 1) * tile <= bc ? cb + t * tile : cb + bc - tile;
}

/* One tile at source (row, col) through `join`, with the carries of its destination rows. */
TPOSEI_FORCE_INLINE void tposei_join_tile(const tposei_job *job, tposei_join_fn join, size_t row,
                                          size_t col, size_t esize, unsigned char *carry,
                                          int phase)
{
    join(job->dst + col * job->dst_stride + row * esize, job->dst_stride,
         job->src + row * job->src_stride + col * esize, job->src_stride, carry, phase);
}

/* One block of the direct stream mode where destination rows do not start on cache lines:
   the tiles of tposei_simd_block through `join`, which leaves every line of a row but its
   first and last as one non-temporal store. The tile row above the band is transposed again
   to load the carries (an eighth more reading at 8 tile rows a band), unless they persist
   from the band above (g->persist: one block spans the width); tile column t keeps
   its carries from g->carry_row * tile * t on (the overlapping column's rows included). A dense
   destination (g->seams) has its first and last lines written by the last band's seams;
   otherwise the last band stores what its carries still hold, a row's first chunk is stored
   in part, and the bottom strip leaves by tile corners. */
TPOSEI_FORCE_INLINE void tposei_join_block(const tposei_job *job, const tposei_geom *g,
                                           tposei_pf *pf, size_t rb, size_t cb, size_t br,
                                           size_t bc, size_t esize, size_t tile,
                                           tposei_join_fn join, unsigned char *carry)
{
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    const size_t ncol = full_c / tile + (g->overlap && full_c < bc);
    const int head = g->seams ? TPOSEI_JOIN_LEAD : TPOSEI_JOIN_HEAD;
    size_t r, t, k;
    if (rb && !g->persist)
        for (t = 0; t < ncol; t++)
            tposei_join_tile(job, join, rb - tile, tposei_join_col(cb, bc, tile, t), esize,
                             carry + g->carry_row * tile * t, TPOSEI_JOIN_LEAD);
    for (r = 0; r < full_r; r += tile) {
        for (t = 0; t < ncol; t++) {
            tposei_pf_step(pf, job, g, tile, esize);
            tposei_join_tile(job, join, rb + r, tposei_join_col(cb, bc, tile, t), esize,
                             carry + g->carry_row * tile * t,
                             rb + r ? TPOSEI_JOIN_BODY : head);
        }
        if (g->seams && rb + r + cb == 0) tposei_seam_first(job->dst, carry);
    }
    if (rb + br == job->rows && rb + full_r > 0)
        for (t = 0; t < ncol; t++) {
            const size_t col = tposei_join_col(cb, bc, tile, t);
            if (g->seams) {
                tposei_seam_tiles(job, col, esize, tile, g->part,
                                  carry + g->carry_row * tile * t);
                continue;
            }
            for (k = 0; k < tile; k++) { /* the last chunk's bytes past its line */
                unsigned char *end = job->dst + (col + k) * job->dst_stride + (rb + full_r) * esize;
                const size_t m = (size_t)((uintptr_t)end & (TPOSEI_CACHE_LINE - 1));
                tposei_copy_short(end - m, carry + g->carry_row * (tile * t + k) + 64 - m, m);
            }
        }
    tposei_simd_edges(job, g, pf, job->src + rb * job->src_stride + cb * esize,
                      job->dst + cb * job->dst_stride + rb * esize, job->dst_stride, br, bc,
                      esize, tile,
                      (g->overlap ? 0 : TPOSEI_STRIP_RIGHT) | (g->seams ? 0 : TPOSEI_STRIP_BOTTOM));
}

/* Walks the blocks band by band: each block goes to `out` at (rb, cb) (the destination,
   or with `stream` the L1 buffer, whose rows then leave through `stream`). */
TPOSEI_FORCE_INLINE void tposei_simd_walk(const tposei_job *job, const tposei_geom *g,
                                          size_t esize, size_t tile, tposei_tile_fn kernel,
                                          tposei_row_fn stream, tposei_join_fn join,
                                          unsigned char *buf)
{
    size_t rb, cb, gb, ge;
    tposei_pf pf;
    tposei_pf_start(&pf, job, g, tile, esize);
    TPOSE_ASSERT(!g->gcols || (!pf.by_tile && g->gcols % g->bcols == 0));
    for (gb = 0; gb < job->cols; gb = ge) {
        ge = tposei_group_end(job, g, gb);
        for (rb = 0; rb < job->rows; rb += g->band) {
            const size_t br = tposei_min(g->band, job->rows - rb);
            for (cb = gb; cb < ge; cb += g->bcols) {
                const size_t bc = tposei_min(g->bcols, ge - cb);
                if (join)
                    tposei_join_block(job, g, &pf, rb, cb, br, bc, esize, tile, join, buf);
                else if (stream)
                    tposei_buffer_block(job, g, &pf, rb, cb, br, bc, esize, tile, kernel, stream,
                                        buf);
                else
                    tposei_simd_block(job, g, &pf, rb, cb, br, bc, esize, tile, kernel,
                                      job->dst + cb * job->dst_stride + rb * esize,
                                      job->dst_stride, buf);
            }
        }
    }
}

/* Bytes on lines at most TPOSEI_SHORT_ROWS long whose source stride puts a tile's 64 rows
   in 4 L1 sets (odd multiples of 1 KiB) stream best through the quarter tile walked across
   the block, though the quarter tile loses with such strides elsewhere (TPOSEI_QUARTER_SETS)
   and walking down wins on other strides of 512-byte multiples (TPOSEI_DOWN_ALIGN): measured
   only, no counters here to say why. avx512-stream, medians of 5, rows-once walked down ->
   quarter across: 1024^2 0.80 -> 0.99, 1024x3072 0.84 -> 1.01, 1024x5120 0.81 -> 1.00,
   1024x7168 0.82 -> 0.99, 512x3072 0.80 -> 1.05, 512x5120 0.77 -> 1.02; the quarter tile
   walked down 0.78 at 1024^2, and rows-once 0.75-0.83 either way. Longer rows lose
   (2048x1024 1.01 -> 0.90, 4096x1024 1.03 -> 0.91, medians of 3), and so do rows off lines
   (joined: 1000x3072 0.86 -> 0.68, 1000x5120 0.71 -> 0.64). All on Zen 4: on Zen 5
   (TPOSEI_CPU_ZEN5) the quarter tile walked across is the slow one, and such shapes take the
   rows-once tile walked down like their neighbours (AUTO, medians of 5 interleaved runs:
   1024^2 0.33 -> 0.51, 512x3072 0.55 -> 0.84, 1024x3072 0.34 -> 0.49; the quarter tile
   walked down 0.44, 0.64, 0.48). */
#define TPOSEI_SHORT_ROWS 1024
TPOSEI_FORCE_INLINE int tposei_u8_short_rows(const tposei_job *job)
{
    return !tposei_cpu_has(TPOSEI_CPU_ZEN5) && job->dst_stride <= TPOSEI_SHORT_ROWS &&
           ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE == 0 &&
           tposei_l1_sets(job->src_stride, 64) == 4;
}

/* On Zen 5, bytes whose destination rows are 512 or 1024 bytes apart stream slowly in any
   of the direct walks (0.44-0.59x memcpy where 768 or 1536 give 0.79-0.80: measured only,
   no counters here), and the in-cache blocks' plain stores move them faster. AUTO against
   avx512 (plain), medians of 3 interleaved runs: 1024^2 0.54 / 0.70, 512x3072 0.59 / 0.71,
   1024x4032 0.44 / 0.63, 1024x2048 0.56 / 0.70, 1024x4000 0.49 / 0.62, 512x16384 0.55 /
   0.62, 1024x8192 0.55 / 0.57, 1024x16384 0.55 / 0.54; not at 2048 (2048x1024 0.58 / 0.54,
   2048^2 0.59 / 0.53, 2048x8192 0.53 / 0.41) nor at 768 or 1536 (0.79-0.82 / 0.71-0.75).
   So the stream kernels take the in-cache walk there (rows on lines; others not measured). */
#define TPOSEI_PLAIN_ROWS_ZEN5 1024
TPOSEI_FORCE_INLINE int tposei_u8_plain_rows(const tposei_job *job, size_t esize)
{
    return esize == 1 && tposei_cpu_has(TPOSEI_CPU_ZEN5) &&
           job->dst_stride <= TPOSEI_PLAIN_ROWS_ZEN5 && job->dst_stride % TPOSEI_DOWN_ALIGN == 0;
}

/* Bytes on Zen 3 (TPOSEI_CPU_ZEN3) whose destination rows are on lines, direct or aliasing,
   take blocks of one tile row (64 source rows) by TPOSEI_U8_RUN_ZEN3 bytes, walked across, so
   the panel cursor reads each source row in runs of 4 KiB instead of 512 bytes. On the Zen 3
   guest (EPYC family 19h model 01h, 2 vCPUs, 512 KiB L2) a read-only loop over 256 MiB at a
   16448-byte stride, prefetching the next block row by row, read runs of 4 KiB at 0.85-0.99x
   the sequential rate and runs of 512 B-2 KiB at 0.53-0.63x, whatever the rows per block.
   avx2-stream, median quotients of 3 interleaved rounds against the 8x512 direct and 2x8
   aliasing blocks: 2112^2 x1.77-2.25 (0.5 -> 0.8-1.25), 16448^2 x1.30-1.54 (0.26 -> 0.37),
   8256^2 x1.31-1.65, 4096x1024 x1.19, 4096^2 x1.49, 8192^2 x1.13. Runs of 2 or 8 KiB or
   whole rows measured between. Two tiles down a column (the pair kernel, a destination row's
   two lines back to back), the cursor up to a whole 0.5-1 MiB panel ahead, lost (16448^2
   x0.75-0.96), and four down read 0.13-0.22x memcpy in a copy-only model. What still bounds
   16448^2 is the loads and their lack of overlap with the stores: in a copy-only model of
   this walk the tiles' loads alone take 1.39x memcpy's time, the stores 1.19x (0.76x on 2 MiB
   pages), the whole walk about their sum (2.38x; 2.08x on 2 MiB pages, where the library
   gains nothing: bench/MEASURED.md). Floats and doubles keep the tile cursor
   (TPOSEI_TILE_AHEAD_ZEN3), 2-byte elements take runs of their own (TPOSEI_U16_RUN_ZEN3). */
#define TPOSEI_U8_RUN_ZEN3 4096
/* 2-byte elements on Zen 3 whose destination rows are on lines (direct or aliasing, not
   joined) take blocks of one tile row (32 source rows) by TPOSEI_U16_RUN_ZEN3 bytes, walked
   across, with the panel cursor a whole 256 KiB panel ahead: bytes' plan, in runs twice as
   long. On destination strides of a multiple of TPOSEI_DOWN_ALIGN every such block is
   walked down, so where the source rows crowd L1 the pair kernel takes two tiles down a
   column (a band of 64 rows, each destination row's two lines back to back) through the
   same runs; elsewhere the band stays one tile. Median quotients of 7 interleaved rounds
   against the 2x8 aliasing blocks and the direct blocks walked down (two copies of the old
   build: x0.93-1.02): 2048^2 x1.12, 1024^2 x1.29, 2048x1024 x1.28, 1536x2112 x1.19,
   4096x1088 x1.18, but 1024x2048 x0.98 (x1.14, x1.08, x1.16, x0.97 in four other runs of
   4-5 rounds); four tiles down in runs of 4 or 2 KiB measured lower (1024^2 x1.16 / x1.08 where
   two gave x1.44, 2048^2 x1.14 / x0.92).
   The blocks walked across, against the direct blocks (8 lines by 512 rows, tile cursor 4 KiB
   ahead) and the aliasing 2x8 they replaced, avx2-stream, AUTO, median quotients of 4-5
   interleaved rounds: 2112^2 x1.22 / x1.25 (0.77 -> 0.95, 0.72 -> 0.91), 3008^2 x1.20 / x1.52,
   2112x1088 x1.54 / x1.54, 1088x2112 x1.51, 4160^2 x1.16, 4160x2112 x1.38, 6016x4160 x1.06,
   8256^2 x1.04 / x0.99, 11648^2 x1.05, 16448x8224 x0.94, 1088^2 x1.07, 200000x96 x1.53,
   96x200000 x1.22; aliasing source strides 1056x2048 x1.35, 2080x4096 x1.11. Runs of 4 KiB lost
   on 8256^2 (x0.84), 16 KiB measured about the same as 8 (x1.15-1.46 over the shapes), two tile
   rows tall no better (2112^2 x1.21, 3008^2 x1.03), and the cursor 128 KiB ahead lost on the
   large ones (8256^2 x0.85, 11648^2 x0.87). Floats and doubles lost with it (8256^2 floats
   x0.59, 10000x3000 x0.48, 5824^2 doubles x0.97) and keep the tile cursor. Measured only, no
   counters here. */
#define TPOSEI_U16_RUN_ZEN3 8192

/* On Zen 3 the direct blocks of 4-16-byte elements, walked across, are fetched by the tile
   cursor TPOSEI_TILE_AHEAD_ZEN3 bytes ahead, not by the panel cursor a whole 256 KiB panel
   ahead (the rule Zen 4 measured best, TPOSEI_DIRECT_ROWS). On the Zen 3 guest (512 KiB L2)
   a traffic model of the 8256^2 float walk (each tile's 16 source lines loaded, 16
   destination lines stored non-temporally, no shuffle; scratch, not committed) read the
   source alone at 1.02x memcpy (the ratio of their times) with no software prefetch and at
   0.39-0.56x with the panel cursor 4-256 KiB ahead; loads and stores together 0.64x
   without it, 0.31x with it.
   avx2-stream, AUTO, medians of 3 interleaved rounds, panels -> tile cursor 2 / 4 / 8 KiB
   ahead: 8256^2 floats 0.48 -> 0.86 / 0.81 / 0.74, 10000x3000 floats 0.84 -> 1.06 / 1.21 /
   1.13, 2112^2 floats 0.80 -> 1.27 / 1.36 / 1.10; unchanged: 5824^2 and 2112^2 doubles, 2112^2
   2-byte (in runs since, TPOSEI_U16_RUN_ZEN3), 1536x1024 floats, 1024^2 doubles (x0.96-1.07).
   Bytes lost with it (2112^2 x0.64 at 4 KiB, x0.67 at 8 KiB) and keep the panels; so do
   joined blocks (3001x7919 floats x1.20 but 7919x3001 x0.99 and 2-byte x1.02: not taken) and
   blocks walked down. */
#define TPOSEI_TILE_AHEAD_ZEN3 4096

/* Bytes on Zen 3 whose destination rows are off cache lines, with source rows that spread
   over L1 and hold at most TPOSEI_STREAM_BUF / 128 bytes (the carry pairs of every
   destination row fit the L1 buffer), take the whole-width walk: bands of one tile row, each
   one block across the matrix, whose carries persist to the next band (no tile row above a
   band transposed again for them, source rows read whole), through the two-pass join tile
   (tposei_u8_64x64_avx2_join_park). Each needs the other: in scratch builds on the Zen 3
   guest (1000x1500-like shapes, carries in a 512 KiB buffer) the whole-width walk with the
   quadrant join tile measured x0.82-1.00, the two-pass tile in the joined blocks x0.99-1.10,
   both together x1.06-1.52 (log, 2026-11-29). Here, avx2-stream, AUTO, median quotients of 5
   interleaved rounds, joined blocks -> this: 16001x250 x1.07, 8001x200 x1.09, 20001x129
   x1.06, 12001x192 x1.34 (0.76 -> 0.99), 40001x250 x1.04; of 7: 30001x100 x1.00, 50001x70
   x1.02, 20001x128 x1.09, 40001x90 x1.05 (two copies of one build x0.79-1.10 per round
   here). Wider source rows keep the joined blocks: their carries would not fit 32 KiB. */
TPOSEI_FORCE_INLINE int tposei_u8_join_whole(const tposei_job *job)
{
    const size_t tile = TPOSEI_CACHE_LINE, rows = (job->cols + tile - 1) / tile * tile;
    return tposei_cpu_has(TPOSEI_CPU_ZEN3) && rows * 2 * TPOSEI_CACHE_LINE <= TPOSEI_STREAM_BUF;
}

/* Joined blocks' width: TPOSEI_JOIN_ROWS for matrices of at most TPOSEI_JOIN_SHORT_MAX bytes
   and for bytes (which are half as tall too when short), and never more destination rows than
   the carries of g->carry_row bytes each leave room for in the L1 buffer. The whole-width
   walk (`whole`, tposei_u8_join_whole) takes bands of one tile row, each one block across
   the matrix, whose carries persist to the next band. */
TPOSEI_FORCE_INLINE void tposei_join_blocks(tposei_geom *g, const tposei_job *job, size_t esize,
                                            size_t tile, int whole)
{
    const int short_job = job->rows * job->cols * esize <= TPOSEI_JOIN_SHORT_MAX;
    if (whole) {
        g->band = tile;
        g->bcols = g->pcols = (job->cols + tile - 1) / tile * tile;
        g->persist = 1;
    } else {
        if (short_job || esize == 1) g->bcols = g->pcols = TPOSEI_JOIN_ROWS;
        if (short_job && esize == 1) g->band /= 2;
    }
    if (g->bcols * g->carry_row > TPOSEI_STREAM_BUF)
        g->bcols = g->pcols = TPOSEI_STREAM_BUF / g->carry_row;
    TPOSE_ASSERT(g->bcols * g->carry_row <= TPOSEI_STREAM_BUF); /* the carries */
    TPOSE_ASSERT(!g->persist || g->bcols >= job->cols);
}

/* The geometry of the walks whose tiles store straight to memory (tposei_simd_drive's
   `kernel_nt`): rows on lines, or off lines where `joined`. It picks the direct blocks or
   the aliasing geometry's 2x8 (TPOSEI_ALIAS_WIDE_MAX), their shape on this CPU
   (tposei_zen5_blocks; on Zen 3 bytes' TPOSEI_U8_RUN_ZEN3, walked down only through `pipe`,
   TPOSEI_U8_PIPE_ZEN3, and 2-byte elements' TPOSEI_U16_RUN_ZEN3), the cursor (panels, or
   tiles for 4-16-byte elements on Zen 3: TPOSEI_TILE_AHEAD_ZEN3), tiles walked down each
   block on some strides (TPOSEI_DOWN_ALIGN, tposei_zen5_down), `pair_tiles` of them at once
   through `pair_nt` where given, column groups
   (TPOSEI_GROUP_ROWS) and the joins' carries (`carries`, TPOSEI_JOIN_ROWS; joined blocks
   overlap the corners `part` stores). */
TPOSEI_FORCE_INLINE tposei_geom tposei_nt_geom(const tposei_job *job, size_t esize, size_t tile,
                                              int joined, tposei_tile_fn pair_nt,
                                              size_t pair_tiles, tposei_pipe_fn pipe,
                                              tposei_part_fn part, int carries)
{
    const int aliasing = !joined && !tposei_pf_fits_l1(job->src_stride, tile);
    const int short_stride = job->src_stride < TPOSEI_ALIAS_WIDE_MAX;
    const int zen5 = tposei_cpu_has(TPOSEI_CPU_ZEN5); /* see TPOSEI_DIRECT_ROWS_ZEN5 */
    const int zen3 = tposei_cpu_has(TPOSEI_CPU_ZEN3);
    const int zen3_u8 = esize == 1 && !joined && zen3;
    const int zen3_u16 = esize == 2 && !joined && zen3;
    const int zen3_pipe = zen3_u8 && pipe && pair_nt && pair_tiles == 2; /* TPOSEI_U8_PIPE_ZEN3 */
    /* per CPU, the source strides whose blocks walk down on TPOSEI_DOWN_ALIGN destination
       strides (Zen 3's 2-byte runs: all of them) */
    const int down_stride = zen5 ? tposei_zen5_down(job, esize) : short_stride || zen3_u16;
    const int down = !joined && (!zen3_u8 || zen3_pipe) &&
                     job->dst_stride % TPOSEI_DOWN_ALIGN == 0 && (down_stride || aliasing) &&
                     !(esize == 1 && tposei_u8_short_rows(job));
    const int alias = aliasing && (short_stride || down) && (esize == 1 || !zen5);
    tposei_geom g = tposei_simd_geom(esize, tile, alias ? TPOSEI_GEOM_ALIAS : TPOSEI_GEOM_DIRECT);
    if (zen5) tposei_zen5_blocks(&g, job, esize, alias, joined, down);
    else if (esize >= 2 && !alias && tposei_cpu_has(TPOSEI_CPU_INTEL)) { /* TPOSEI_INTEL_BLOCKS */
        tposei_zen5_blocks(&g, job, esize, 0, joined, down);
        if (esize == 4 && !joined && !down) g.band = TPOSEI_INTEL_BAND_U32;
    }
    if (zen3_u8 || zen3_u16) { /* TPOSEI_U8_RUN_ZEN3, TPOSEI_U16_RUN_ZEN3 */
        g.band = tile;
        g.bcols = g.pcols = (zen3_u8 ? TPOSEI_U8_RUN_ZEN3 : TPOSEI_U16_RUN_ZEN3) / esize;
    }
    if (esize == 1) g.pf_first = TPOSEI_PF_LEAD_U8; /* see TPOSEI_PF_LEAD_U8 */
    if (zen3 && esize > 2 && !alias && !joined && !down) { /* TPOSEI_TILE_AHEAD_ZEN3 */
        g.panels = 0;
        g.tile_ahead = TPOSEI_TILE_AHEAD_ZEN3;
    }
    g.carry_row = carries >= TPOSEI_CARRY_PAIRS ? 2 * TPOSEI_CACHE_LINE : TPOSEI_CACHE_LINE;
    if (joined) tposei_join_blocks(&g, job, esize, tile, carries == TPOSEI_CARRY_WHOLE);
    g.part = part;
    g.pair = pair_nt;
    g.pair_tiles = pair_tiles;
    g.down = down;
    if (down && zen3_pipe) { /* TPOSEI_U8_PIPE_ZEN3: a whole panel ahead */
        g.pipe = pipe;
        g.pf_first = 0;
    }
    if (down && pair_nt && g.band < pair_tiles * tile) g.band = pair_tiles * tile;
    g.across = !down && !joined && pair_nt && pair_tiles == TPOSEI_ACROSS_PAIRS &&
               tposei_cpu_has(TPOSEI_CPU_INTEL);
    if (alias && job->dst_stride >= TPOSEI_GROUP_STRIDE && job->cols > TPOSEI_GROUP_ROWS)
        g.gcols = TPOSEI_GROUP_ROWS / g.bcols ? TPOSEI_GROUP_ROWS / g.bcols * g.bcols : g.bcols;
    g.overlap = (joined || (esize <= 2 && zen3)) && part && job->cols >= tile;
    g.pf_pages = zen3 && esize == 1 && !g.pipe; /* TPOSEI_PF_PAGE_ZEN3 */
    g.seams = carries == TPOSEI_CARRY_SEAMS && joined && g.overlap && job->rows >= tile &&
              job->dst_stride == job->rows * esize;
    return g;
}

/* The buffered walk's geometry: destination rows off lines take one line of them again,
   inside the same buffer. */
TPOSEI_FORCE_INLINE tposei_geom tposei_buffer_geom(size_t esize, size_t tile, int aligned,
                                                  tposei_part_fn part)
{
    tposei_geom g = tposei_simd_geom(esize, tile, TPOSEI_GEOM_BUFFER);
    g.part = part;
    if (!aligned) {
        g.lead = TPOSEI_CACHE_LINE / esize;
        g.band -= g.lead;
    }
    TPOSE_ASSERT((g.band + g.lead) * g.bcols * esize <= TPOSEI_STREAM_BUF);
    return g;
}

/* The SIMD driver. Without `stream`: blocks sized for the caches, stored in place. With it:
   when `kernel_nt` exists and every destination row starts on a cache line, tiles store
   their whole lines non-temporally straight from registers (blocks walked down through
   `pair_nt`, `pair_tiles` tiles at once, where given, and on Zen 3 bytes' pairs pipelined
   through `pipe`, TPOSEI_U8_PIPE_ZEN3), and where rows are off lines
   through `join_w` (rows at even offsets) or `join_b` (any offset; NULL where this CPU
   cannot run it); otherwise each block is transposed into an aligned L1 buffer whose rows
   leave through `stream` (aligned middle streamed, edges stored). `carries`: how the joins
   keep them (TPOSEI_CARRY_LINES, _SEAMS, _PAIRS). One fence per call. */
TPOSEI_FORCE_INLINE void tposei_simd_drive(const tposei_job *job, size_t esize, size_t tile,
                                           tposei_tile_fn kernel, tposei_tile_fn kernel_nt,
                                           tposei_tile_fn pair_nt, size_t pair_tiles,
                                           tposei_pipe_fn pipe, tposei_join_fn join_w,
                                           tposei_join_fn join_b,
                                           tposei_part_fn part, tposei_row_fn stream,
                                           int carries)
{
    unsigned char raw[TPOSEI_STREAM_BUF + TPOSEI_CACHE_LINE];
    unsigned char *buf = raw + (-(uintptr_t)raw & (TPOSEI_CACHE_LINE - 1));
    const int aligned = ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE == 0;
    const int even = ((uintptr_t)job->dst | job->dst_stride) % 2 == 0;
    const tposei_join_fn join = aligned || !join_w ? NULL : even ? join_w : join_b;
    tposei_geom g;
    if (!stream || (aligned && tposei_u8_plain_rows(job, esize))) { /* TPOSEI_PLAIN_ROWS_ZEN5 */
        g = tposei_simd_geom(esize, tile, TPOSEI_GEOM_CACHE);
        g.part = part;
        tposei_simd_walk(job, &g, esize, tile, kernel, NULL, NULL, NULL);
        return;
    }
    if (kernel_nt && (aligned || join)) {
        g = tposei_nt_geom(job, esize, tile, join != NULL, pair_nt, pair_tiles, pipe, part,
                           carries);
        tposei_simd_walk(job, &g, esize, tile, kernel_nt, NULL, join, buf);
    } else {
        g = tposei_buffer_geom(esize, tile, aligned, part);
        tposei_simd_walk(job, &g, esize, tile, kernel, stream, NULL, buf);
    }
    tposei_stream_fence();
}

/* How the 64-byte chunks of a tall job's destination rows (every dst_stride bytes from dst)
   leave: plain stores without `stream`; one non-temporal line each where every row is on
   lines; else joined with each row's carry (TPOSEI_JOIN_*: tposei_join_row_w where every
   offset is even, tposei_join_row_b with VBMI), or plain at odd offsets without VBMI. */
TPOSEI_FORCE_INLINE int tposei_rows_store(const tposei_job *job, int stream, int vbmi)
{
    const uintptr_t at = (uintptr_t)job->dst | job->dst_stride;
    if (!stream) return TPOSEI_ROWS_PLAIN;
    if (at % TPOSEI_CACHE_LINE == 0) return TPOSEI_ROWS_NT;
    return at % 2 == 0 || vbmi ? TPOSEI_ROWS_JOIN : TPOSEI_ROWS_PLAIN;
}

/* After a row's joined chunks, ending at `end`: the last chunk's bytes past its last line
   (the carry's last m bytes). */
TPOSEI_AVX512_INLINE void tposei_join_tail(unsigned char *end, __m512i carry)
{
    const size_t m = (size_t)((uintptr_t)end & (TPOSEI_CACHE_LINE - 1));
    _mm512_mask_storeu_epi8(end - 64, ~(~(uint64_t)0 >> m), carry);
}

/* 1 when a skinny job's short side is its columns (a tall matrix). */
TPOSEI_FORCE_INLINE int tposei_skinny_tall(const tposei_job *job, size_t esize)
{
    return job->cols <= TPOSEI_SKINNY_MAX && job->src_stride == job->cols * esize;
}

/* 1 when the skinny path takes this job: 1, 2, 4 or 8-byte elements, a short side of at
   most 16 whose matrix is dense, and a long side of at least 4 chunks. */
TPOSEI_FORCE_INLINE int tposei_skinny_fits(const tposei_job *job, size_t esize)
{
    const int tall = tposei_skinny_tall(job, esize);
    const int wide = job->rows <= TPOSEI_SKINNY_MAX && job->dst_stride == job->rows * esize;
    if (esize > 8 || (!tall && !wide)) return 0;
    return (tall ? job->rows : job->cols) >= 4 * 64 / esize;
}

/* TPOSEI_SKINNY_PARTS: on Intel a tall skinny job streaming to destination rows on lines
   takes its long side in four parts in turn, two chunks of each at a time, each destination
   row's two lines back to back: four sequential source streams and 128-byte runs of each
   row. One sequential stream (what the loop below reads) left this Xeon's memory idle: a
   copy through non-temporal stores in one stream measured 0.67-0.87x memcpy, in four parts
   1.05-1.09 (glibc's memcpy copies four pages at a time), and the 8-row store pattern with
   two lines a row 0.90-0.94 in one stream, 1.05-1.06 in four (medians of 7, 128 MiB). The
   network, AUTO, medians of 5 interleaved runs on the Emerald Rapids guest, one chunk at a
   time -> this: 4000000x8 floats 0.86 -> 1.08x memcpy (x1.21), bytes 1.38 -> 1.63 (x1.22),
   1000000x3 floats 1.45 -> 1.72 (x1.15); with four chunks at a time 0.94 / 1.53 / 1.72,
   eight parts of two chunks 1.04 / 1.68 / 1.79, sixteen 0.87 / 1.44 / 1.50. */
#define TPOSEI_SKINNY_PARTS 4

/* The chunk at element i of the long side: its S input vectors loaded (the dense side
   prefetched ahead) and through the network into out[0..s-1]. */
TPOSEI_VBMI_INLINE void tposei_skinny_step(const tposei_skinny *t, const tposei_job *job,
                                           size_t s, size_t esize, int tall, size_t i,
                                           __m512i *out)
{
    const size_t ss = job->src_stride;
    __m512i in[TPOSEI_SKINNY_MAX];
    size_t k;
    TPOSEI_UNROLL
    for (k = 0; k < s; k++) {
        const unsigned char *p =
            tall ? job->src + i * ss + 64 * k : job->src + k * ss + i * esize;
        tposei_prefetch_ahead(p);
        in[k] = _mm512_loadu_si512((const void *)p);
        TPOSEI_VEC_OPAQUE(in[k]);
    }
    if (s == 8)
        tposei_skinny8_chunk(t, tall, in, out);
    else
        tposei_skinny_chunk(t, s, in, out);
}

/* Chunks i.. and i + 64 / esize.. of a tall job on lines: both through the network, then
   each destination row's two lines, non-temporal. */
TPOSEI_VBMI_INLINE void tposei_skinny_tall_pair(const tposei_skinny *t, const tposei_job *job,
                                                size_t s, size_t esize, size_t i)
{
    const size_t ds = job->dst_stride;
    __m512i out[2][TPOSEI_SKINNY_MAX];
    size_t k;
    tposei_skinny_step(t, job, s, esize, 1, i, out[0]);
    tposei_skinny_step(t, job, s, esize, 1, i + 64 / esize, out[1]);
    TPOSEI_UNROLL
    for (k = 0; k < s; k++) {
        unsigned char *d = job->dst + k * ds + i * esize;
        _mm512_stream_si512((__m512i *)d, out[0][k]);
        _mm512_stream_si512((__m512i *)(d + 64), out[1][k]);
    }
}

/* The long side's first parts * part elements as TPOSEI_SKINNY_PARTS parts in turn; returns
   that count, where the one-chunk loop goes on. */
TPOSEI_VBMI_INLINE size_t tposei_skinny_tall_parts(const tposei_skinny *t,
                                                   const tposei_job *job, size_t s,
                                                   size_t esize)
{
    const size_t per = 64 / esize, step = 2 * per; /* two chunks */
    const size_t part = job->rows / step / TPOSEI_SKINNY_PARTS * step;
    size_t i, p;
    for (i = 0; i < part; i += step)
        for (p = 0; p < TPOSEI_SKINNY_PARTS; p++)
            tposei_skinny_tall_pair(t, job, s, esize, i + p * part);
    return TPOSEI_SKINNY_PARTS * part;
}

/* The skinny loop for a constant short side s: whole chunks through the permute network.
   Tall: source rows i.. are one dense run, destination rows are long; wide: the mirror
   image. With `stream`, the stores that cover a whole line are non-temporal, and tall
   destination rows off lines are joined with their carries (t->joins, in registers), where
   they were stored normally across two lines: medians of 5 interleaved runs, AUTO, 1333333x6
   bytes 1.00 -> 1.42x memcpy, 888888x9 0.79 -> 0.99, 285714x7 floats 0.76 -> 1.29,
   111111x13 floats 0.58 -> 0.78 (on lines, 1333312x6: 1.62 / 1.55). It starts at chunk
   `from` of the long side (the first elements taken by tposei_skinny_tall_parts). */
TPOSEI_VBMI_INLINE void tposei_skinny_loop(const tposei_skinny *t, const tposei_job *job,
                                           size_t s, size_t esize, int tall, int stream,
                                           size_t from)
{
    const size_t per = 64 / esize, n = tall ? job->rows : job->cols; /* per chunk, in all */
    const size_t ds = job->dst_stride;
    __m512i out[TPOSEI_SKINNY_MAX], carry[TPOSEI_SKINNY_MAX];
    const int joins = t->joins;
    size_t i, k;
    for (i = from; i + per <= n; i += per) {
        tposei_skinny_step(t, job, s, esize, tall, i, out);
        TPOSEI_UNROLL
        for (k = 0; k < s; k++) {
            unsigned char *d = tall ? job->dst + k * ds + i * esize : job->dst + i * ds + 64 * k;
            if (joins)
                tposei_join_row_b(d, out[k], &carry[k], i ? TPOSEI_JOIN_BODY : TPOSEI_JOIN_HEAD);
            else if (stream && ((uintptr_t)d & (TPOSEI_CACHE_LINE - 1)) == 0)
                _mm512_stream_si512((__m512i *)d, out[k]); /* a whole line */
            else
                _mm512_storeu_si512((void *)d, out[k]);
        }
    }
    if (joins)
        TPOSEI_UNROLL
        for (k = 0; k < s; k++) /* the last chunk's bytes past its line */
            tposei_join_tail(job->dst + k * ds + i * esize, carry[k]);
}

/* A skinny job's whole chunks as one function per short side s, a constant in each (X(fn,
   attributes, s) for s = 1..8 or 1..16), each with its own tables, so that the stores
   cannot alias them and they stay in registers. Inlined into one driver, all sixteen took
   clang's back end 144 of the 430 s that an -O2 ASan build of the implementation needed. */
#define TPOSEI_SKINNY_SIDES8(X, fn, attr)                                                   \
    X(fn, attr, 1) X(fn, attr, 2) X(fn, attr, 3) X(fn, attr, 4) X(fn, attr, 5)             \
    X(fn, attr, 6) X(fn, attr, 7) X(fn, attr, 8)
#define TPOSEI_SKINNY_SIDES16(X, fn, attr)                                                  \
    TPOSEI_SKINNY_SIDES8(X, fn, attr) X(fn, attr, 9) X(fn, attr, 10) X(fn, attr, 11)        \
    X(fn, attr, 12) X(fn, attr, 13) X(fn, attr, 14) X(fn, attr, 15) X(fn, attr, 16)
#define TPOSEI_SKINNY_SIDE_FN(fn, attr, n)                                                  \
    static __attribute__((noinline)) attr void fn##_##n(const tposei_job *job, size_t esize, \
                                                        int stream)                         \
    {                                                                                       \
        fn(job, n, esize, stream);                                                          \
    }
#define TPOSEI_SKINNY_CASE(fn, attr, n)                                                     \
    case n: fn##_##n(job, esize, stream); break;

/* The VBMI skinny loop with its tables, for one short side. */
TPOSEI_VBMI_INLINE void tposei_skinny_side_job(const tposei_job *job, size_t s, size_t esize,
                                               int stream)
{
    tposei_skinny t;
    const int tall = tposei_skinny_tall(job, esize);
    tposei_skinny_tables(&t, s, esize, tall);
    t.joins = tall && tposei_rows_store(job, stream, 1) == TPOSEI_ROWS_JOIN;
    /* the loop specialised for its common case, streaming tall rows on lines: with the
       choices left to run time it measured 0.90 against 1.01 at 1000000x3 bytes */
    if (tall && stream && !t.joins) /* on lines (tposei_rows_store) */
        tposei_skinny_loop(&t, job, s, esize, 1, 1,
                           tposei_cpu_has(TPOSEI_CPU_INTEL)
                               ? tposei_skinny_tall_parts(&t, job, s, esize)
                               : 0);
    else if (tall)
        tposei_skinny_loop(&t, job, s, esize, 1, stream, 0);
    else
        tposei_skinny_loop(&t, job, s, esize, 0, stream, 0);
}
TPOSEI_SKINNY_SIDES16(TPOSEI_SKINNY_SIDE_FN, tposei_skinny_side_job, TPOSEI_VBMI_FN)

/* After the skinny loop's whole chunks (the long side's first `full` elements): the fence
   for its non-temporal stores, and the rest through the scalar edge routine. */
static void tposei_skinny_rest(const tposei_job *job, size_t esize, int tall, size_t full,
                               int stream)
{
    const size_t s = tall ? job->cols : job->rows, n = tall ? job->rows : job->cols;
    const size_t ss = job->src_stride, ds = job->dst_stride;
    if (stream) tposei_stream_fence();
    if (tall)
        tposei_any_block(job->dst + full * esize, ds, job->src + full * ss, ss, n - full, s,
                         esize);
    else
        tposei_any_block(job->dst + full * ds, ds, job->src + full * esize, ss, s, n - full,
                         esize);
}

/* The skinny driver: tables, the loop specialised for the short side, the rest of the long
   side through the scalar edge routine. */
static TPOSEI_VBMI_FN void tposei_skinny_run(const tposei_job *job, size_t esize, int stream)
{
    const int tall = tposei_skinny_tall(job, esize);
    const size_t s = tall ? job->cols : job->rows, n = tall ? job->rows : job->cols;
    switch (s) {
        TPOSEI_SKINNY_SIDES16(TPOSEI_SKINNY_CASE, tposei_skinny_side_job, )
    default: break;
    }
    tposei_skinny_rest(job, esize, tall, n - n % (64 / esize), stream);
}

/* One 16-byte piece: non-temporal when asked and aligned (movntdq needs 16 bytes). */
TPOSEI_AVX2_INLINE void tposei_avx2_put16(unsigned char *d, __m128i v, int stream)
{
    if (stream && ((uintptr_t)d & 15) == 0)
        _mm_stream_si128((__m128i *)d, v);
    else
        _mm_storeu_si128((__m128i *)d, v);
}

/* 64 bytes as two halves: non-temporal when asked and they make one whole line (two
   32-byte non-temporal stores that each complete half of two lines leave both partly
   written in the write-combining buffers: 500000x16 bytes 0.34 against 0.63 stored
   normally). */
TPOSEI_AVX2_INLINE void tposei_avx2_put_line(unsigned char *d, __m256i lo, __m256i hi,
                                             int stream)
{
    if (stream && ((uintptr_t)d & (TPOSEI_CACHE_LINE - 1)) == 0) {
        _mm256_stream_si256((__m256i *)d, lo);
        _mm256_stream_si256((__m256i *)(d + 32), hi);
    } else {
        _mm256_storeu_si256((__m256i *)d, lo);
        _mm256_storeu_si256((__m256i *)(d + 32), hi);
    }
}

/* The AVX-512 joins (tposei_join_row_b) for AVX2's tall skinny loops, without a byte
   permute across 128-bit lanes: each destination row keeps its last step (the carry), and
   row k's line at a step, the one that begins lag[k] bytes before the step, is bytes
   p = 64 - lag[k].. of the carry's two vectors then the step's two (C0 C1 N0 N1). Its
   half h starts in 16-byte lane u + 2h, u = p / 16, so it is a 32-byte window at byte
   p % 32 of the vector pair (C0 C1), (C1 N0) or (N0 N1): two vpshufb, one on the lanes it
   starts in and one on the lanes after (vperm2i128 makes the pair that straddles), merged.
   u = 4 (the row on lines) is the step itself. Sized for the rows16 path's rows (bytes
   with a short side of 9-31, below). Before, such rows were stored normally across two
   lines; AUTO limited to avx2-stream, medians of 5 interleaved runs:
   1333333x6 bytes 0.74 -> 1.07x memcpy, 1000001x3 1.05 -> 1.37, 333333x3 floats 1.13 ->
   1.56, 888888x9 bytes 0.66 -> 1.10, 470589x17 0.56 -> 0.79, 258065x31 0.53 -> 0.86 (on
   lines, 1333312x6: 1.49 / 1.47). */
#define TPOSEI_ROWS16_MIN 9
#define TPOSEI_ROWS16_MAX 31
#define TPOSEI_SEAMS16_ROWS 32 /* two groups of 16 rows */
typedef struct tposei_avx2_seams {
    unsigned char shuf[TPOSEI_SEAMS16_ROWS][2][32]; /* row k's vpshufb indices, both lanes */
    size_t lag[TPOSEI_SEAMS16_ROWS];                /* row k's start past a line */
    unsigned char lane[TPOSEI_SEAMS16_ROWS];        /* u: the line's first 16-byte lane, 0-4 */
    int on;                                         /* streaming, destination off lines */
} tposei_avx2_seams;

static void tposei_avx2_seams_set(tposei_avx2_seams *sm, const tposei_job *job, size_t s,
                                  int stream)
{
    size_t k, q;
    sm->on = stream && (((uintptr_t)job->dst | job->dst_stride) & (TPOSEI_CACHE_LINE - 1));
    for (k = 0; sm->on && k < s; k++) {
        const size_t lag = (uintptr_t)(job->dst + k * job->dst_stride) & (TPOSEI_CACHE_LINE - 1);
        const size_t r = (64 - lag) % 16;
        sm->lag[k] = lag;
        sm->lane[k] = (unsigned char)((64 - lag) / 16);
        for (q = 0; q < 32; q++) {
            const size_t b = q % 16 + r; /* in the first lane below 16, else in the next */
            sm->shuf[k][0][q] = b < 16 ? (unsigned char)b : 0x80;
            sm->shuf[k][1][q] = b < 16 ? 0x80 : (unsigned char)(b - 16);
        }
    }
}

/* 32 bytes of the pair (a, b) from byte 16 * odd + r, r the shift in sm's indices. */
TPOSEI_AVX2_INLINE __m256i tposei_avx2_window(const tposei_avx2_seams *sm, size_t k, __m256i a,
                                              __m256i b, int odd)
{
    const __m256i mid = _mm256_permute2x128_si256(a, b, 0x21); /* a's high lane, b's low */
    const __m256i first = _mm256_loadu_si256((const __m256i *)sm->shuf[k][0]);
    const __m256i next = _mm256_loadu_si256((const __m256i *)sm->shuf[k][1]);
    return _mm256_or_si256(_mm256_shuffle_epi8(odd ? mid : a, first),
                           _mm256_shuffle_epi8(odd ? b : mid, next));
}

/* Row k's step (lo, hi) at d (tposei_avx2_seams): the first step is stored normally; later
   ones complete the line that begins lag bytes before them, streamed whole. The overlap of
   the head and tail stores with streamed lines rewrites the same bytes. */
TPOSEI_AVX2_INLINE void tposei_avx2_seam(const tposei_avx2_seams *sm, size_t k, unsigned char *d,
                                         __m256i *carry, __m256i lo, __m256i hi, int head)
{
    const int u = sm->lane[k];
    if (head)
        tposei_avx2_put_line(d, lo, hi, 0);
    else if (u == 4)
        tposei_avx2_put_line(d, lo, hi, 1);
    else if (u < 2)
        tposei_avx2_put_line(d - sm->lag[k], tposei_avx2_window(sm, k, carry[0], carry[1], u),
                             tposei_avx2_window(sm, k, carry[1], lo, u), 1);
    else
        tposei_avx2_put_line(d - sm->lag[k], tposei_avx2_window(sm, k, carry[1], lo, u - 2),
                             tposei_avx2_window(sm, k, lo, hi, u - 2), 1);
    carry[0] = lo;
    carry[1] = hi;
}

/* The AVX2 skinny loop: 64 bytes of the long side per step, as two vectors of chunk pairs
   (h = 0, 1: chunks 2h and 2h + 1). Tall: the step's source is one dense run of four
   chunks of 16 * S bytes, and output m is 32 bytes of destination row m; wide: input k is
   32 bytes of source row k, and output m's lanes go to bytes 16m.. of the two chunks'
   dense destination runs. */
TPOSEI_AVX2_INLINE void tposei_skinny16_steps(const tposei_skinny16 *t, const tposei_job *job,
                                              size_t s, size_t esize, int tall, int seams,
                                              int stream)
{
    const size_t per = 64 / esize, n = tall ? job->rows : job->cols; /* per step, in all */
    const size_t ss = job->src_stride, ds = job->dst_stride;
    __m256i in[TPOSEI_SKINNY16_MAX], first[TPOSEI_SKINNY16_MAX], carry[TPOSEI_SKINNY16_MAX][2];
    size_t i, h, k, m;
    for (i = 0; i + per <= n; i += per)
        TPOSEI_UNROLL
        for (h = 0; h < 2; h++) {
            const unsigned char *c = job->src + i * ss + 32 * h * s; /* tall: chunk 2h */
            unsigned char *d = job->dst + i * ds + 32 * h * s;      /* wide: chunk 2h */
            TPOSEI_UNROLL
            for (k = 0; k < s; k++)
                in[k] = tall ? tposei_avx2_pair(c + 16 * k, c + 16 * (s + k))
                             : _mm256_loadu_si256(
                                   (const __m256i *)(job->src + k * ss + i * esize + 32 * h));
            TPOSEI_UNROLL
            for (m = 0; m < s; m++) {
                const __m256i v = tposei_skinny16_out(t, s, in, m);
                if (tall && h == 0) {
                    first[m] = v; /* row m's line leaves whole, with the second half */
                } else if (seams) {
                    tposei_avx2_seam(t->seams, m, job->dst + m * ds + i * esize, carry[m],
                                     first[m], v, i == 0);
                } else if (tall) {
                    tposei_avx2_put_line(job->dst + m * ds + i * esize, first[m], v, stream);
                } else {
                    tposei_avx2_put16(d + 16 * m, _mm256_castsi256_si128(v), stream);
                    tposei_avx2_put16(d + 16 * (s + m), _mm256_extracti128_si256(v, 1), stream);
                }
            }
        }
    if (seams) /* the rows' tails after their last streamed lines */
        TPOSEI_UNROLL
        for (m = 0; m < s; m++)
            tposei_avx2_put_line(job->dst + m * ds + (i - per) * esize, carry[m][0], carry[m][1],
                                 0);
}

/* The loop in two builds, with and without the seams (their carries would otherwise hold
   registers the network needs: 1333312x6 bytes 1.01 against 1.48). */
TPOSEI_AVX2_INLINE void tposei_skinny16_loop(const tposei_skinny16 *t, const tposei_job *job,
                                             size_t s, size_t esize, int tall, int stream)
{
    if (tall && t->seams->on)
        tposei_skinny16_steps(t, job, s, esize, 1, 1, stream);
    else
        tposei_skinny16_steps(t, job, s, esize, tall, 0, stream);
}

/* The AVX2 loop with its tables and seams, for one short side. */
TPOSEI_AVX2_INLINE void tposei_skinny16_side_job(const tposei_job *job, size_t s, size_t esize,
                                                 int stream)
{
    tposei_skinny16 t;
    tposei_avx2_seams seams;
    const int tall = tposei_skinny_tall(job, esize);
    tposei_skinny16_tables(&t, s, esize, tall);
    tposei_avx2_seams_set(&seams, job, s, tall && stream);
    t.seams = &seams;
    tposei_skinny16_loop(&t, job, s, esize, tall, stream);
}
TPOSEI_SKINNY_SIDES8(TPOSEI_SKINNY_SIDE_FN, tposei_skinny16_side_job, TPOSEI_AVX2_FN)

/* The AVX2 skinny driver (tposei_skinny_run's twin). */
static TPOSEI_AVX2_FN void tposei_skinny16_run(const tposei_job *job, size_t esize, int stream)
{
    const int tall = tposei_skinny_tall(job, esize);
    const size_t s = tall ? job->cols : job->rows, n = tall ? job->rows : job->cols;
    switch (s) {
        TPOSEI_SKINNY_SIDES8(TPOSEI_SKINNY_CASE, tposei_skinny16_side_job, )
    default: break;
    }
    tposei_skinny_rest(job, esize, tall, n - n % (64 / esize), stream);
}

/* Bytes with a short side of 9-31 (tposei_skinny16_side's network grows as S^2 there):
   the 16x16 network of the 32x32 tiles (tposei_avx2_net) on 16-byte row pieces, one group
   of 16 columns (tall) or rows (wide) for sides up to 16, two above. Tall: vector k holds
   16 bytes of source rows k and 16 + k of 32 from byte 16g of each (so the next row's first
   bytes come along and are never stored), and after the network vector j is 32 bytes of
   destination row 16g + j; two such tiles make one line per row. Wide: vector k of group g
   is 32 bytes of source row 16g + k (zero past row S), and after the network each lane of
   vector j holds bytes 16g.. of destination row c + j or c + 16 + j, stored 16 wide in row
   order so that what runs past a row's S bytes is overwritten by the next row's stores.
   Both stop one step before the end, so neither the reads nor the overlapping stores pass
   the matrix; the rest goes through the scalar edge routine. */
TPOSEI_AVX2_INLINE void tposei_rows16_tall(const tposei_job *job, size_t s, size_t groups,
                                           const tposei_avx2_seams *seams, int stream)
{
    const size_t n = job->rows, ds = job->dst_stride;
    const int joined = seams->on; /* read at run time: separate builds, as in
                                     tposei_skinny16_loop, ran 0.64 against 0.80 (470589x17) */
    __m256i x[16], first[16], carry[TPOSEI_SEAMS16_ROWS][2];
    size_t i, g, h, k, j;
    for (i = 0; i + 64 < n; i += 64)
        TPOSEI_UNROLL
        for (g = 0; g < groups; g++)
            TPOSEI_UNROLL
            for (h = 0; h < 2; h++) {
                const unsigned char *src = job->src + (i + 32 * h) * s + 16 * g;
                TPOSEI_UNROLL
                for (k = 0; k < 16; k++)
                    x[k] = tposei_avx2_pair(src + k * s, src + (16 + k) * s);
                tposei_avx2_net(x, 1);
                TPOSEI_UNROLL
                for (j = 0; j < 16; j++) {
                    if (16 * g + j >= s) break;
                    if (h == 0)
                        first[j] = x[j];
                    else if (joined)
                        tposei_avx2_seam(seams, 16 * g + j, job->dst + (16 * g + j) * ds + i,
                                         carry[16 * g + j], first[j], x[j], i == 0);
                    else
                        tposei_avx2_put_line(job->dst + (16 * g + j) * ds + i, first[j], x[j],
                                             stream);
                }
            }
    if (joined) /* the rows' tails after their last streamed lines */
        for (j = 0; j < s; j++)
            tposei_avx2_put_line(job->dst + j * ds + i - 64, carry[j][0], carry[j][1], 0);
    tposei_skinny_rest(job, 1, 1, i, stream);
}

/* Streaming, the wide loop's overlapping 16-byte stores go to an L1 buffer of whole steps
   instead, and every TPOSEI_ROWS16_BUF bytes the buffer leaves as one run through the row
   streamer (whole lines non-temporal): stored straight to the destination they never
   streamed. AUTO limited to avx2-stream, medians of 5 interleaved runs, before -> after:
   9x888888 0.68 -> 0.95, 12x666666 0.90 -> 1.20, 16x500000 0.83 -> 1.65, 17x470588 0.69 ->
   0.88, 24x333333 0.69 -> 0.93, 31x258064 0.59 -> 1.01. Buffers of 2048, 4096, 8192 and
   16384 bytes measured within the noise of each other but for 16x500000 (1.76, 1.65, 1.30,
   1.10). */
#ifndef TPOSEI_ROWS16_BUF
#define TPOSEI_ROWS16_BUF 4096
#endif
TPOSEI_AVX2_INLINE void tposei_rows16_wide(const tposei_job *job, size_t s, size_t groups,
                                           int stream)
{
    const size_t n = job->cols, ss = job->src_stride, block = TPOSEI_ROWS16_BUF / (32 * s);
    __attribute__((aligned(64))) unsigned char buf[TPOSEI_ROWS16_BUF + 32];
    __m256i x[2][16];
    size_t c, c0 = 0, g, k, j, lane;
    for (c = 0; c + 32 < n; c += 32) {
        unsigned char *d = stream ? buf + (c - c0) * s : job->dst + c * s;
        if (stream && c - c0 == 32 * block) { /* the buffered steps leave as one run */
            tposei_stream_row_avx2(job->dst + c0 * s, buf, (c - c0) * s);
            c0 = c;
            d = buf;
        }
        TPOSEI_UNROLL
        for (g = 0; g < groups; g++) {
            TPOSEI_UNROLL
            for (k = 0; k < 16; k++) {
                const unsigned char *row = job->src + (16 * g + k) * ss + c;
                x[g][k] = 16 * g + k < s ? _mm256_loadu_si256((const __m256i *)row)
                                         : _mm256_setzero_si256();
            }
            tposei_avx2_net(x[g], 1);
        }
        TPOSEI_UNROLL
        for (lane = 0; lane < 2; lane++)
            TPOSEI_UNROLL
            for (j = 0; j < 16; j++)
                TPOSEI_UNROLL
                for (g = 0; g < groups; g++)
                    _mm_storeu_si128((__m128i *)(d + (16 * lane + j) * s + 16 * g),
                                     lane ? _mm256_extracti128_si256(x[g][j], 1)
                                          : _mm256_castsi256_si128(x[g][j]));
    }
    if (stream) tposei_stream_row_avx2(job->dst + c0 * s, buf, (c - c0) * s);
    tposei_skinny_rest(job, 1, 0, c, stream);
}

/* 1 when a short side of s elements is tposei_rows16_run's. */
TPOSEI_FORCE_INLINE int tposei_rows16_side(size_t s, size_t esize)
{
    return esize == 1 && s >= TPOSEI_ROWS16_MIN && s <= TPOSEI_ROWS16_MAX;
}

/* 1 when tposei_rows16_run takes this byte job: a short side of 9-31 whose matrix is dense,
   and a long side of at least 4 steps. */
TPOSEI_FORCE_INLINE int tposei_rows16_fits(const tposei_job *job)
{
    const size_t side = tposei_min(job->rows, job->cols);
    const int tall = job->cols == side && job->src_stride == side;
    const int wide = job->rows == side && job->dst_stride == side;
    return tposei_rows16_side(side, 1) && (tall || wide) &&
           job->rows + job->cols - side >= 4 * 64;
}

/* The loops for one group and for two, each a function of its own (inlined into one driver
   they made it the largest function clang's back end met in an -O2 ASan build); the tall
   ones with their seams, so that the stores cannot alias them. */
#define TPOSEI_ROWS16_TALL_FN(groups)                                                        \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void tposei_rows16_tall##groups(         \
        const tposei_job *job, size_t s, int stream)                                         \
    {                                                                                        \
        tposei_avx2_seams seams;                                                             \
        tposei_avx2_seams_set(&seams, job, s, stream);                                       \
        tposei_rows16_tall(job, s, groups, &seams, stream);                                  \
    }
#define TPOSEI_ROWS16_WIDE_FN(groups)                                                        \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void tposei_rows16_wide##groups(         \
        const tposei_job *job, size_t s, int stream)                                         \
    {                                                                                        \
        tposei_rows16_wide(job, s, groups, stream);                                          \
    }
TPOSEI_ROWS16_TALL_FN(1)
TPOSEI_ROWS16_TALL_FN(2)
TPOSEI_ROWS16_WIDE_FN(1)
TPOSEI_ROWS16_WIDE_FN(2)
#undef TPOSEI_ROWS16_TALL_FN
#undef TPOSEI_ROWS16_WIDE_FN

static TPOSEI_AVX2_FN void tposei_rows16_run(const tposei_job *job, int stream)
{
    const int tall = job->cols <= TPOSEI_ROWS16_MAX;
    const size_t s = tall ? job->cols : job->rows;
    if (tall)
        (s > 16 ? tposei_rows16_tall2 : tposei_rows16_tall1)(job, s, stream);
    else
        (s > 16 ? tposei_rows16_wide2 : tposei_rows16_wide1)(job, s, stream);
}

/* Short sides of one 16- or 32-byte vector (w = 16 or 32 bytes of elements; 8 x n floats,
   n x 8 floats, n x 16 2-byte elements), and of 8 bytes as 2-byte pairs: the network of the
   32-byte tiles (tposei_avx2_net) on whole rows of the short side, where the shuffle network
   (tposei_skinny16_out) spends S shuffles per output vector and the tiles have only their
   edge code. Tall: a step is 64/e dense source rows ("network rows" of w bytes), by groups of
   16 bytes as in the line tiles (tposei_avx2_line_groups), and leaves one whole line in each
   of the S destination rows. Wide: a step is 32 bytes of every source row, whose network
   output is 32 * S contiguous destination bytes, leaving as whole lines. Bytes of 8 go through
   the 2-byte network, two source rows of 8 bytes making one network row of 2-byte pairs:
   tall, an in-lane byte shuffle interleaves the two rows (b0 of row 0, b0 of row 1, b1 ...)
   before the network; wide, the inverse after it splits each pair row into the two
   destination rows. */
static const unsigned char tposei_pairs_in[32] = {0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13,
                                                  6, 14, 7, 15, 0, 8, 1, 9, 2, 10, 3, 11,
                                                  4, 12, 5, 13, 6, 14, 7, 15};
static const unsigned char tposei_pairs_out[32] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7,
                                                   9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14,
                                                   1, 3, 5, 7, 9, 11, 13, 15};

/* The geometry of a vector-side job: network elements of `esize` bytes (2 for byte pairs),
   network rows of `width` bytes (16 or 32), and the byte shuffle of pairs. */
typedef struct tposei_vside {
    size_t esize, width;
    int pairs;
} tposei_vside;

/* n network rows k, n + k of 16 bytes from `s` (rows `w` bytes apart), pair-shuffled, through
   the network: vector j is then 32 bytes of destination row j of the group. */
TPOSEI_AVX2_INLINE void tposei_vside_group(__m256i *x, const unsigned char *s, size_t w,
                                           size_t esize, int pairs)
{
    const unsigned n = (unsigned)(16 / esize);
    const __m256i mix = _mm256_loadu_si256((const __m256i *)tposei_pairs_in);
    unsigned k;
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) {
        x[k] = tposei_avx2_pair(s + k * w, s + (n + k) * w); /* rows k | n + k */
        if (pairs) x[k] = _mm256_shuffle_epi8(x[k], mix);  /* two 8-byte rows interleaved */
    }
    if (n > 1) tposei_avx2_net(x, esize);
}

/* Tall: each step one line of each destination row, joined with its carry where the rows are
   off lines (tposei_avx2_seam). */
TPOSEI_AVX2_INLINE void tposei_vside_tall(const tposei_job *job, tposei_vside v,
                                          const tposei_avx2_seams *sm, int stream)
{
    const size_t n = 16 / v.esize, q = 2 * n, w = v.width, ds = job->dst_stride;
    const size_t total = job->rows / (v.pairs ? 2 : 1); /* network rows */
    __m256i x[16], first[16], carry[TPOSEI_SEAMS16_ROWS][2];
    size_t i = 0, g, k;
    for (; i + 2 * q <= total; i += 2 * q)
        TPOSEI_UNROLL
        for (g = 0; g < w / 16; g++) {
            const unsigned char *s = job->src + i * w + 16 * g;
            tposei_vside_group(first, s, w, v.esize, v.pairs);         /* rows 0..q-1 */
            tposei_vside_group(x, s + q * w, w, v.esize, v.pairs);     /* rows q..2q-1 */
            TPOSEI_UNROLL
            for (k = 0; k < n; k++) {
                unsigned char *d = job->dst + (g * n + k) * ds + i * v.esize;
                if (sm->on)
                    tposei_avx2_seam(sm, g * n + k, d, carry[g * n + k], first[k], x[k], i == 0);
                else
                    tposei_avx2_put_line(d, first[k], x[k], stream);
            }
        }
    if (sm->on && i > 0) /* the rows' tails after their last streamed lines */
        for (k = 0; k < job->cols; k++)
            tposei_avx2_put_line(job->dst + k * ds + (i - 2 * q) * v.esize, carry[k][0],
                                 carry[k][1], 0);
    tposei_skinny_rest(job, job->esize, 1, i * (v.pairs ? 2 : 1), stream);
}

/* Wide: 32 bytes of each of the S source rows per step, as network columns c..c+2n-1 (for
   pairs, 2-byte columns: destination rows two at a time). 16-byte network rows: vector j
   holds destination rows c + j (low lane) and c + n + j, and lanes of four vectors make a
   line. 32-byte ones: two groups of 16 bytes, vector j of group h destination row c + hn + j,
   two vectors a line. Whole lines go straight out where the destination starts on a line,
   else through an L1 buffer of whole steps streamed as one run (tposei_rows16_wide). */
TPOSEI_AVX2_INLINE void tposei_vside_wide(const tposei_job *job, tposei_vside v, int stream)
{
    const size_t n = 16 / v.esize, w = v.width, ss = job->src_stride;
    const size_t cols = v.pairs ? job->cols / 2 : job->cols; /* network columns */
    const size_t rows = w / v.esize, block = TPOSEI_ROWS16_BUF / (2 * n * w); /* steps */
    const int buffered = stream && ((uintptr_t)job->dst & (TPOSEI_CACHE_LINE - 1));
    const __m256i mix = _mm256_loadu_si256((const __m256i *)tposei_pairs_out);
    __attribute__((aligned(64))) unsigned char buf[TPOSEI_ROWS16_BUF];
    __m256i x[16];
    size_t c = 0, c0 = 0, h, j, k;
    for (; c + 2 * n <= cols; c += 2 * n) {
        const unsigned char *s = job->src + c * v.esize;
        unsigned char *d = buffered ? buf + (c - c0) * w : job->dst + c * w;
        if (buffered && c - c0 == 2 * n * block) { /* the buffered steps leave as one run */
            tposei_stream_row_avx2(job->dst + c0 * w, buf, (c - c0) * w);
            c0 = c;
            d = buf;
        }
        if (w == 16) {
            TPOSEI_UNROLL
            for (k = 0; k < rows; k++) x[k] = _mm256_loadu_si256((const __m256i *)(s + k * ss));
            tposei_avx2_net(x, v.esize);
            TPOSEI_UNROLL
            for (j = 0; j < n; j += 4) {
                if (v.pairs)
                    for (k = 0; k < 4; k++) x[j + k] = _mm256_shuffle_epi8(x[j + k], mix);
                /* rows c + j.. (low lanes) and c + n + j.. (high lanes), four a line */
                tposei_avx2_put_line(d + j * 16, _mm256_permute2x128_si256(x[j], x[j + 1], 0x20),
                                     _mm256_permute2x128_si256(x[j + 2], x[j + 3], 0x20),
                                     stream);
                tposei_avx2_put_line(d + (n + j) * 16,
                                     _mm256_permute2x128_si256(x[j], x[j + 1], 0x31),
                                     _mm256_permute2x128_si256(x[j + 2], x[j + 3], 0x31),
                                     stream);
            }
        } else
            TPOSEI_UNROLL
            for (h = 0; h < 2; h++) {
                tposei_vside_group(x, s + 16 * h, ss, v.esize, 0);
                TPOSEI_UNROLL
                for (j = 0; j < n; j += 2)
                    tposei_avx2_put_line(d + (h * n + j) * 32, x[j], x[j + 1], stream);
            }
    }
    if (buffered) tposei_stream_row_avx2(job->dst + c0 * w, buf, (c - c0) * w);
    tposei_skinny_rest(job, job->esize, 0, c * (v.pairs ? 2 : 1), stream);
}

/* The vector-side geometry of a side of s elements, tall or wide; width 0 where none. Tall
   takes 16- and 32-byte rows and bytes of 8; wide the same where a line holds whole vectors
   of four rows (16 bytes: 2-byte and 4-byte elements) or two (32 bytes: 2- to 8-byte). */
TPOSEI_FORCE_INLINE tposei_vside tposei_vside_of(size_t s, size_t esize, int tall)
{
    tposei_vside v;
    v.pairs = esize == 1 && s == 8;
    v.esize = v.pairs ? 2 : esize;
    v.width = v.pairs ? 16 : s * esize;
    if (v.width != 16 && v.width != 32) v.width = 0;
    if (!tall && !v.pairs && (v.esize > (v.width == 16 ? 4 : 8) || v.esize == 1)) v.width = 0;
    return v;
}

/* 1 when the vector-side path takes this job: a dense side of its geometry and a long side of
   at least 4 steps (256 elements). */
TPOSEI_FORCE_INLINE int tposei_vside_fits(const tposei_job *job, size_t esize)
{
    const int tall = job->cols < job->rows;
    const size_t s = tall ? job->cols : job->rows;
    const size_t dense = tall ? job->src_stride : job->dst_stride;
    return dense == s * esize && tposei_vside_of(s, esize, tall).width &&
           (tall ? job->rows : job->cols) >= 256;
}

/* The loops as one function per geometry, its sizes constants (with them left to run time,
   every unpack went through a switch on the element size: 4000000x4 floats 0.39 against
   1.13 for the shuffle network). */
#define TPOSEI_VSIDE_FN(e, w, p)                                                             \
    static __attribute__((noinline)) TPOSEI_AVX2_FN void tposei_vside_##e##_##w##_##p(      \
        const tposei_job *job, int tall, int stream)                                         \
    {                                                                                        \
        tposei_vside v;                                                                      \
        v.esize = e;                                                                         \
        v.width = w;                                                                         \
        v.pairs = p;                                                                         \
        if (tall) {                                                                          \
            tposei_avx2_seams seams;                                                         \
            tposei_avx2_seams_set(&seams, job, job->cols, stream);                           \
            tposei_vside_tall(job, v, &seams, stream);                                       \
        } else                                                                               \
            tposei_vside_wide(job, v, stream);                                               \
    }
#define TPOSEI_VSIDE_LIST(X)                                                                 \
    X(2, 16, 1) X(1, 16, 0) X(2, 16, 0) X(4, 16, 0) X(8, 16, 0) X(16, 16, 0) X(1, 32, 0)    \
    X(2, 32, 0) X(4, 32, 0) X(8, 32, 0) X(16, 32, 0)
TPOSEI_VSIDE_LIST(TPOSEI_VSIDE_FN)
#define TPOSEI_VSIDE_CASE(e, w, p)                                                           \
    if (v.esize == e && v.width == w && v.pairs == p) {                                      \
        tposei_vside_##e##_##w##_##p(job, tall, stream);                                     \
        return;                                                                              \
    }

static void tposei_vside_run(const tposei_job *job, size_t esize, int stream)
{
    const int tall = job->cols < job->rows;
    const tposei_vside v = tposei_vside_of(tall ? job->cols : job->rows, esize, tall);
    TPOSEI_VSIDE_LIST(TPOSEI_VSIDE_CASE)
}
#undef TPOSEI_VSIDE_FN
#undef TPOSEI_VSIDE_CASE
#undef TPOSEI_VSIDE_LIST

/* The AVX2 skinny paths: bytes with a short side of 9-31 through tposei_rows16_run, short
   sides of tposei_skinny16_side through the shuffle network; 1 when one took the job. Where
   the network does not fit (a padded matrix, a long side of under 4 chunks) such a side,
   shorter than any AVX2 tile, goes to the SWAR kernel rather than the tiles' scalar edges.
   AUTO limited to avx2-stream, medians of 5 interleaved runs, SWAR -> here: 1000000x3 bytes
   0.21 -> 1.62, 8x4000000 0.50 -> 1.31, 888888x9 0.34 -> 0.63, 800000x10 0.38 -> 1.14,
   12x666666 0.47 -> 0.92, 16x500000 0.65 -> 0.98, 470588x17 0.43 -> 0.77, 24x333333 0.33 ->
   0.61, 31x258064 0.34 -> 0.56, 1000000x4 2-byte 0.59 -> 1.48,
   3x1000000 floats 0.87 -> 1.58, 3x1000000 doubles 0.97 -> 1.58. */
static int tposei_try_skinny16(const tposei_job *job, size_t esize, int stream)
{
    const size_t side = tposei_min(job->rows, job->cols);
    const int rows16 = tposei_rows16_side(side, esize);
    const int skinny = tposei_skinny16_side(side, esize, stream);
    if (tposei_vside_fits(job, esize)) {
        tposei_vside_run(job, esize, stream);
        return 1;
    }
    if (job->rows < job->cols && esize > 1 && !skinny &&
        tposei_vside_of(side, esize, 0).width) { /* padded: see tposei_simd_edges_only */
        tposei_swar_body(job, esize);
        return 1;
    }
    if (!rows16 && !skinny) return 0;
    if (rows16 && tposei_rows16_fits(job))
        tposei_rows16_run(job, stream);
    else if (!rows16 && tposei_skinny_fits(job, esize))
        tposei_skinny16_run(job, esize, stream);
    else
        tposei_swar_body(job, esize);
    return 1;
}
#undef TPOSEI_SKINNY_CASE
#undef TPOSEI_SKINNY_SIDE_FN
#undef TPOSEI_SKINNY_SIDES8
#undef TPOSEI_SKINNY_SIDES16

/* One output line: non-temporal when asked and the line is whole. */
TPOSEI_AVX512_INLINE void tposei_tall8_store(unsigned char *d, __m512i v, int stream)
{
    if (stream && ((uintptr_t)d & (TPOSEI_CACHE_LINE - 1)) == 0)
        _mm512_stream_si512((__m512i *)d, v);
    else
        _mm512_storeu_si512((void *)d, v);
}

/* `pairs` (1 or 2) chunks of eight AoS rows from `aos` (row stride `as`): tall (wide = 0)
   to one line of each of the eight SoA rows rows[k] + o per chunk; wide, the mirror image.
   Two chunks store two neighbouring lines per SoA row, row by row: at 4000000x8, 128-byte
   runs per row measured 1.46-1.55x memcpy where single chunks' 64-byte runs gave 1.39-1.45x
   (Zen 4 guest, four interleaved runs; 0.82x against 0.72-0.77x on the earlier Xeon). */
TPOSEI_AVX512_INLINE void tposei_rows8_chunks(unsigned char *aos, size_t as,
                                              unsigned char *const *rows, size_t o,
                                              unsigned pairs, int wide, int stream,
                                              __m512i *carry)
{
    __m512i v[2][8];
    unsigned k, h;
    for (h = 0; h < pairs; h++) {
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            v[h][k] = _mm512_loadu_si512(wide ? (const void *)(rows[k] + o + 64 * h)
                                              : (const void *)(aos + (8 * h + k) * as));
        tposei_u64_8x8_regs(v[h]);
    }
    TPOSEI_UNROLL
    for (k = 0; k < 8; k++)
        for (h = 0; h < pairs; h++)
            if (carry) /* tall, rows off lines: joined (tposei_rows8_run) */
                tposei_join_row_w(rows[k] + o + 64 * h, v[h][k], &carry[k],
                                  o + h ? TPOSEI_JOIN_BODY : TPOSEI_JOIN_HEAD);
            else
                tposei_tall8_store(wide ? aos + (8 * h + k) * as : rows[k] + o + 64 * h,
                                   v[h][k], stream);
}

/* Eight source rows (stride ss) to one line of each destination row (stride ds). */
TPOSEI_AVX512_INLINE void tposei_tall8_chunk(unsigned char *dst, size_t ds,
                                             const unsigned char *src, size_t ss, int stream)
{
    unsigned char *rows[8];
    unsigned k;
    for (k = 0; k < 8; k++) rows[k] = dst + k * ds;
    tposei_rows8_chunks((unsigned char *)src, ss, rows, 0, 1, 0, stream, NULL); /* only read */
}

/* The chunk as tile kernels, for the twin tests. */
TPOSEI_AVX512_INLINE void tposei_u64_tall8_avx512(unsigned char *dst, size_t dst_stride,
                                                  const unsigned char *src, size_t src_stride)
{
    tposei_tall8_chunk(dst, dst_stride, src, src_stride, 0);
}
TPOSEI_AVX512_INLINE void tposei_u64_tall8_avx512_nt(unsigned char *dst, size_t dst_stride,
                                                     const unsigned char *src, size_t src_stride)
{
    tposei_tall8_chunk(dst, dst_stride, src, src_stride, 1);
}

/* `tiles` 8x8 tiles of 8-byte elements in a row, the i-th from src + i * sstep to
   dst + i * dstep, stored normally (the in-place skinny blocks, transpose_inplace.h; inline
   only so that translation units without the in-place header do not warn it unused). */
static inline TPOSEI_AVX512_ATTR void tposei_u64_8x8_strip(unsigned char *dst, size_t ds,
                                                  const unsigned char *src, size_t ss,
                                                  size_t tiles, size_t dstep, size_t sstep)
{
    size_t i;
    for (i = 0; i < tiles; i++) tposei_tall8_chunk(dst + i * dstep, ds, src + i * sstep, ss, 0);
}

/* Tall, streaming to SoA rows on lines (TPOSEI_ROWS_NT), on Intel: the first elements as
   TPOSEI_SKINNY_PARTS parts in turn, two chunks of each at a time (the VBMI network's
   reason): 4000000x8 doubles 0.90 -> 0.99x memcpy, 1000000x8 1.48 -> 1.52 (medians of 5
   interleaved runs, Emerald Rapids guest). Wide, eight source rows in parts measured x0.96
   at 8x4000000 and x0.97 at 8x1000000, and stay one stream. Returns the count taken. */
TPOSEI_AVX512_INLINE size_t tposei_rows8_parts(unsigned char *aos, size_t as,
                                               unsigned char *const *rows, size_t n)
{
    const size_t part = n / 16 / TPOSEI_SKINNY_PARTS * 16;
    size_t i, p;
    for (i = 0; i < part; i += 16)
        for (p = 0; p < TPOSEI_SKINNY_PARTS; p++)
            tposei_rows8_chunks(aos + (i + p * part) * as, as, rows, (i + p * part) * 8, 2, 0,
                                1, NULL); /* whole lines, non-temporal */
    return TPOSEI_SKINNY_PARTS * part;
}

/* The n x 8 driver between n AoS rows of eight 8-byte elements at `aos` (row stride `as`)
   and eight SoA rows rows[0..7] of n elements, either way: pairs of chunks in order (one
   sequential AoS stream, 128-byte runs of each SoA row), then a chunk, then element by
   element. On the Zen 4 guest these figures come from (4000000x8 doubles, ratio to memcpy,
   four interleaved runs) one stream measured 1.50-1.59 where page runs taken in turn, which
   the earlier Xeon guest preferred (0.96-0.98 there against 0.82 for one stream), gave
   0.92-1.02 with eight runs of 16 KiB, 0.71-1.01 with two and 1.00-1.11 with four.
   Wide on Zen 5 the chunks go one at a time: two lines of each SoA row in turn measured
   below one (8x4000000 doubles, medians of 7 interleaved rounds, 1.02 -> 1.12x memcpy, x1.10
   where two copies of the old build gave x1.00; x1.06-1.08 in another run). */
TPOSEI_AVX512_INLINE size_t tposei_rows8_loop(unsigned char *aos, size_t as,
                                              unsigned char *const *rows, size_t from,
                                              size_t n, int wide, int stream, __m512i *carry)
{
    size_t i = from; /* the elements before it went through tposei_rows8_parts */
    if (!wide || !tposei_cpu_has(TPOSEI_CPU_ZEN5))
        for (; i + 16 <= n; i += 16)
            tposei_rows8_chunks(aos + i * as, as, rows, i * 8, 2, wide, stream, carry);
    for (; i + 8 <= n; i += 8)
        tposei_rows8_chunks(aos + i * as, as, rows, i * 8, 1, wide, stream, carry);
    return i;
}

/* Tall SoA rows off cache lines (TPOSEI_ROWS_JOIN, tposei_rows_store) leave joined with a
   carry per row (tposei_join_row_w; their offsets are even), where they were stored normally
   across two lines: 1000001x8 doubles 0.90 -> 1.38x memcpy (medians of 5 interleaved runs;
   1.16-1.53 over the five; on lines, 1000000x8, 1.45 / 1.53 in another set). `store` says how tall
   rows leave (tposei_rows_store; wide ones pass TPOSEI_ROWS_PLAIN): TPOSEI_ROWS_JOIN joined;
   TPOSEI_ROWS_NT on lines, on Intel first in parts (tposei_rows8_parts); otherwise each line
   non-temporal where `stream` and the line is whole (tposei_tall8_store). */
static TPOSEI_AVX512_FN void tposei_rows8_run(unsigned char *aos, size_t as,
                                              unsigned char *const *rows, size_t n, int wide,
                                              int stream, int store)
{
    __m512i carry[8];
    size_t i;
    unsigned k;
    TPOSE_ASSERT(!wide || store == TPOSEI_ROWS_PLAIN);
    if (store == TPOSEI_ROWS_JOIN) {
        i = tposei_rows8_loop(aos, as, rows, 0, n, 0, 1, carry);
        if (i) { /* gcc -O0 rejects the unroll hint on a loop whose test is not k < 8 alone */
            TPOSEI_UNROLL
            for (k = 0; k < 8; k++) tposei_join_tail(rows[k] + i * 8, carry[k]);
        }
    } else {
        const int parts = store == TPOSEI_ROWS_NT && tposei_cpu_has(TPOSEI_CPU_INTEL);
        i = tposei_rows8_loop(aos, as, rows, parts ? tposei_rows8_parts(aos, as, rows, n) : 0,
                              n, wide, stream, NULL);
    }
    if (stream) tposei_stream_fence();
    tposei_rows8_scalar(aos, as, rows, i, n, wide);
}

/* The n x 8 job either way: tall (n rows of 8), destination rows every dst_stride bytes;
   wide (8 rows of n), source rows every src_stride bytes. Only the source is read. */
static void tposei_rows8_job(const tposei_job *job, int wide, int stream)
{
    unsigned char *rows[8];
    unsigned k;
    for (k = 0; k < 8; k++)
        rows[k] = wide ? (unsigned char *)job->src + k * job->src_stride
                       : job->dst + k * job->dst_stride;
    if (wide)
        tposei_rows8_run(job->dst, job->dst_stride, rows, job->cols, 1, stream,
                         TPOSEI_ROWS_PLAIN);
    else
        tposei_rows8_run((unsigned char *)job->src, job->src_stride, rows, job->rows, 0,
                         stream, tposei_rows_store(job, stream, 0));
}

/* Short sides of TPOSEI_SKINNY_MAX + 1 (tall: TPOSEI_SKINNY_TALL_MAX + 1) .. TPOSEI_NARROW_MAX
   elements whose rows are not whole lines (the narrow path): the long side's chunks of 64
   bytes, each transposed by as many 16-byte column quarters (tposei_avx512_quarter) as the
   short side needs. The tile drivers left such a side to their corner kernels (a whole side
   shorter than a tile) or joined its last strip by a whole tile overlapping the one before;
   the skinny permutes grow as S^2.
   Tall (n x S source): per 64/esize source rows, quarter g gives destination rows
   g*16/esize.., one 64-byte chunk each: a whole line, or joined with the row's carry where
   rows are off lines. Wide (S x n source): per 64/esize source columns, the S source rows
   in tiles of 64/esize rows (and the last rows in blocks of 16/esize, each 16 bytes of the
   destination rows) give 64/esize destination rows of S elements, packed in an L1 buffer;
   a dense destination then takes them as S whole lines, one store each.
   The source is prefetched into L2 a fixed number of chunks ahead, a few lines before each
   quarter: issued all at once per chunk they measured half as fast (25000x60 floats 0.63
   against 1.38x memcpy) and no prefetch 0.75 against 0.95 (31250x48 floats). */
#define TPOSEI_NARROW_MAX 63
#ifndef TPOSEI_NARROW_AHEAD /* tall chunks; 4, 8, 16: 1.13, 1.38, 1.37 at 25000x60 floats */
#define TPOSEI_NARROW_AHEAD 8
#endif
#ifndef TPOSEI_NARROW_WIDE_AHEAD /* wide chunks; 4, 8, 16: 1.09, 1.05, 1.10 at 60x25000 */
#define TPOSEI_NARROW_WIDE_AHEAD 4
#endif

/* 1 when a side of `side` elements is narrow and the other has at least 4 chunks of 64
   bytes and one element more (a tall chunk's last quarter may read up to 15 bytes past its
   rows: into the next row, which must exist). Sides of whole lines are left to the tile
   drivers, which have no strip there and measured as fast or faster (medians of 3, tile
   driver / narrow: 93750x32 2-byte 1.23 / 1.05, 24x31250 doubles 1.47 / 1.20, 48x31250
   floats 1.38 / 1.25, 31250x48 floats 1.30 / 1.31). */
TPOSEI_FORCE_INLINE int tposei_narrow_side(size_t side, size_t other, size_t esize, int tall)
{
    return side > (tall ? TPOSEI_SKINNY_TALL_MAX : TPOSEI_SKINNY_MAX) &&
           side <= TPOSEI_NARROW_MAX &&
           side * esize % TPOSEI_CACHE_LINE != 0 && other > 4 * 64 / esize;
}

/* 1 when the narrow path takes a rows x cols job of esize-byte elements (tall first). */
static int tposei_narrow_fits(size_t rows, size_t cols, size_t esize)
{
    if (esize != 1 && esize != 2 && esize != 4 && esize != 8) return 0;
    return tposei_narrow_side(cols, rows, esize, 1) || tposei_narrow_side(rows, cols, esize, 0);
}

/* Calls `call`, an expression in the constant `e`, with e = esize (1, 2, 4 or 8), so that
   each element size gets its own unrolled copy. */
#define TPOSEI_NARROW_SIZES(esize, call)                                                    \
    switch (esize) {                                                                        \
    case 1: { const size_t e = 1; call; } break;                                           \
    case 2: { const size_t e = 2; call; } break;                                           \
    case 4: { const size_t e = 4; call; } break;                                           \
    default: { const size_t e = 8; call; } break;                                          \
    }

/* Prefetches the `bytes` from p on into L2: the lines at p, p + 64, ... and the last. */
TPOSEI_FORCE_INLINE void tposei_prefetch_span(const unsigned char *p, size_t bytes)
{
    size_t o;
    for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_PREFETCH_L2(p + o);
    TPOSEI_PREFETCH_L2(p + bytes - 1);
}

/* Share g of q of the prefetch of a tall chunk: `per` rows of `span` bytes from src on.
   Rows closer than two lines are taken as one span of lines: row by row, rows of 17 bytes
   cost two prefetches each for about a third of a line (352941x17 bytes 0.78 -> 1.02x
   memcpy with the pruned quarter below, 176470x17 2-byte 0.91 -> 1.12). */
TPOSEI_FORCE_INLINE void tposei_narrow_tall_prefetch(const unsigned char *src, size_t ss,
                                                     size_t span, size_t per, size_t g,
                                                     size_t q)
{
    size_t r;
    if (ss < 2 * TPOSEI_CACHE_LINE) {
        const size_t bytes = (per - 1) * ss + span;
        const size_t lines = (bytes + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE;
        for (r = g * lines / q; r < (g + 1) * lines / q; r++)
            TPOSEI_PREFETCH_L2(src + r * TPOSEI_CACHE_LINE);
        return;
    }
    for (r = g * per / q; r < (g + 1) * per / q; r++) tposei_prefetch_span(src + r * ss, span);
}

/* Tall chunks 0..chunks-1: source rows 64c/esize.. to bytes 64c.. of destination rows
   0..S-1, stored as `store` says (TPOSEI_ROWS_*); with joins, carry + 64d is row d's. Each
   quarter g first prefetches its share of the rows of the chunk TPOSEI_NARROW_AHEAD on.
   name##_q stores rows k < live of a quarter's first `kmax`, a constant, so that the
   compiler leaves out the network's other rows: a last quarter of at most n/4 rows takes
   kmax = n/4 (20 columns of bytes 1.17 -> 1.30x memcpy, 17 columns 0.90 -> 1.00). */
#define TPOSEI_NARROW_TALL(name, attr, join_row)                                            \
    attr void name##_q(unsigned char *d, size_t ds, const unsigned char *src, size_t ss,   \
                       size_t esize, size_t kmax, size_t live, int store,                  \
                       unsigned char *carry, int phase)                                    \
    {                                                                                      \
        size_t k;                                                                          \
        __m512i x[16];                                                                     \
        tposei_avx512_quarter(x, src, ss, esize);                                          \
        TPOSEI_UNROLL                                                                      \
        for (k = 0; k < kmax; k++)                                                         \
            if (k < live)                                                                  \
                TPOSEI_ROWS_STORE(store, d + k * ds, x[k], join_row, carry + 64 * k,       \
                                  phase);                                                  \
    }                                                                                      \
    attr void name(const tposei_job *job, size_t esize, size_t chunks, int store,          \
                   unsigned char *carry)                                                   \
    {                                                                                      \
        const size_t n = 16 / esize, per = 64 / esize, s = job->cols, q = (s + n - 1) / n; \
        const size_t ss = job->src_stride, ds = job->dst_stride, live = s - (q - 1) * n;  \
        size_t c, g;                                                                       \
        for (c = 0; c < chunks; c++) {                                                     \
            const unsigned char *src = job->src + c * per * ss;                            \
            const int ahead = c + TPOSEI_NARROW_AHEAD < chunks;                            \
            const int phase = c ? TPOSEI_JOIN_BODY : TPOSEI_JOIN_HEAD;                     \
            for (g = 0; g < q; g++) {                                                      \
                unsigned char *d = job->dst + g * n * ds + 64 * c;                         \
                unsigned char *cg = carry + 64 * g * n;                                    \
                if (ahead)                                                                 \
                    tposei_narrow_tall_prefetch(src + TPOSEI_NARROW_AHEAD * per * ss, ss,  \
                                                s * esize, per, g, q);                     \
                if (g + 1 == q && n >= 4 && live <= n / 4)                                 \
                    name##_q(d, ds, src + 16 * g, ss, esize, n / 4, live, store, cg,       \
                             phase);                                                       \
                else                                                                       \
                    name##_q(d, ds, src + 16 * g, ss, esize, n, g + 1 < q ? n : live,      \
                             store, cg, phase);                                            \
            }                                                                              \
        }                                                                                  \
    }
TPOSEI_NARROW_TALL(tposei_narrow_tall_w, TPOSEI_AVX512_INLINE, tposei_join_row_w)
TPOSEI_NARROW_TALL(tposei_narrow_tall_b, TPOSEI_VBMI_INLINE, tposei_join_row_b)
#undef TPOSEI_NARROW_TALL
#undef TPOSEI_ROWS_STORE

static TPOSEI_AVX512_FN void tposei_narrow_tall_run_w(const tposei_job *job, size_t esize,
                                                       size_t chunks, int store,
                                                       unsigned char *carry)
{
    TPOSEI_NARROW_SIZES(esize, tposei_narrow_tall_w(job, e, chunks, store, carry))
}
static TPOSEI_VBMI_FN void tposei_narrow_tall_run_b(const tposei_job *job, size_t esize,
                                                     size_t chunks, unsigned char *carry)
{
    TPOSEI_NARROW_SIZES(esize,
                        tposei_narrow_tall_b(job, e, chunks, TPOSEI_ROWS_JOIN, carry))
}

/* The tall job: whole chunks, the carries' last bytes, then the rows left (at most one
   chunk's) through the scalar edge routine. Rows off lines join where every offset is even
   or the CPU has VBMI; without `stream`, or at odd offsets without VBMI, plain stores. */
static TPOSEI_AVX512_FN void tposei_narrow_tall(const tposei_job *job, size_t esize, int stream)
{
    __attribute__((aligned(64))) unsigned char carry[64 * TPOSEI_NARROW_MAX];
    const size_t per = 64 / esize, s = job->cols, ds = job->dst_stride;
    const size_t chunks = (job->rows - 1) / per, done = chunks * per;
    const int store = tposei_rows_store(job, stream, tposei_cpu_has(TPOSEI_CPU_VBMI));
    size_t d;
    if (store == TPOSEI_ROWS_JOIN && ((uintptr_t)job->dst | ds) % 2)
        tposei_narrow_tall_run_b(job, esize, chunks, carry);
    else
        tposei_narrow_tall_run_w(job, esize, chunks, store, carry);
    if (store == TPOSEI_ROWS_JOIN)
        for (d = 0; d < s; d++)
            tposei_join_tail(job->dst + d * ds + done * esize, *tposei_carry(carry, d));
    if (stream) tposei_stream_fence();
    tposei_any_block(job->dst + done * esize, ds, job->src + done * job->src_stride,
                     job->src_stride, job->rows - done, s, esize);
}

/* Column quarter `src` of a tile of `rows` <= 64/esize source rows, as tposei_avx512_quarter;
   rows past the last repeat it (their bytes land past the destination rows' ends). */
TPOSEI_AVX512_INLINE void tposei_narrow_quarter(__m512i *x, const unsigned char *src,
                                                size_t src_stride, size_t esize, size_t rows)
{
    const size_t n = 16 / esize;
    size_t k, l;
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) {
        const unsigned char *p[4];
        TPOSEI_UNROLL
        for (l = 0; l < 4; l++) p[l] = src + tposei_min(k + n * l, rows - 1) * src_stride;
        x[k] = tposei_avx512_gather4p(p[0], p[1], p[2], p[3]);
    }
    if (n > 1) tposei_avx512_net(x, esize);
}

/* Lane l of x (16 bytes) to d + l * step, each of its first `keep` bytes (16: all). */
TPOSEI_AVX512_INLINE void tposei_store_lanes(unsigned char *d, size_t step, __m512i x,
                                             unsigned keep)
{
    const __m128i l0 = _mm512_castsi512_si128(x), l1 = _mm512_extracti32x4_epi32(x, 1);
    const __m128i l2 = _mm512_extracti32x4_epi32(x, 2), l3 = _mm512_extracti32x4_epi32(x, 3);
    if (keep < 16) {
        const __mmask16 m = (__mmask16)((1u << keep) - 1);
        _mm_mask_storeu_epi8(d, m, l0);
        _mm_mask_storeu_epi8(d + step, m, l1);
        _mm_mask_storeu_epi8(d + 2 * step, m, l2);
        _mm_mask_storeu_epi8(d + 3 * step, m, l3);
        return;
    }
    _mm_storeu_si128((__m128i *)d, l0);
    _mm_storeu_si128((__m128i *)(d + step), l1);
    _mm_storeu_si128((__m128i *)(d + 2 * step), l2);
    _mm_storeu_si128((__m128i *)(d + 3 * step), l3);
}

/* A wide chunk's source columns (64 bytes at src, S rows) and where its rows go. `steps`
   (0: none) spreads the prefetch of the chunk TPOSEI_NARROW_WIDE_AHEAD on over the chunk. */
typedef struct {
    const unsigned char *src;
    size_t src_stride, rows, w; /* w = S * esize, the bytes of a destination row */
    unsigned char *out;
    size_t os;
    int exact;
    size_t steps;
} tposei_wide_chunk;

/* Step `step` of the chunk's prefetch: its share of the rows. */
TPOSEI_FORCE_INLINE void tposei_wide_prefetch(const tposei_wide_chunk *ch, size_t step)
{
    size_t r;
    if (!ch->steps) return;
    for (r = step * ch->rows / ch->steps; r < (step + 1) * ch->rows / ch->steps; r++)
        TPOSEI_PREFETCH_L2(ch->src + r * ch->src_stride + 64 * TPOSEI_NARROW_WIDE_AHEAD);
}

/* Block b of a wide chunk: source rows b*n.. (n = 16/esize; rows past S repeat the last),
   n whole 64-byte loads; after the network lane l of vector k holds bytes 16b.. of
   destination row l*n + k. One prefetch step. */
TPOSEI_AVX512_INLINE void tposei_narrow_block(const tposei_wide_chunk *ch, size_t esize,
                                              size_t b, size_t step)
{
    const size_t n = 16 / esize;
    const unsigned keep = ch->exact ? (unsigned)tposei_min(16, ch->w - 16 * b) : 16;
    size_t k;
    __m512i x[16];
    tposei_wide_prefetch(ch, step);
    TPOSEI_UNROLL
    for (k = 0; k < n; k++)
        x[k] = _mm512_loadu_si512(
            (const void *)(ch->src + tposei_min(b * n + k, ch->rows - 1) * ch->src_stride));
    if (n > 1) tposei_avx512_net(x, esize);
    TPOSEI_UNROLL
    for (k = 0; k < n; k++)
        tposei_store_lanes(ch->out + k * ch->os + 16 * b, n * ch->os, x[k], keep);
}

/* Tile t of a wide chunk: source rows t*per.. (per = 64/esize) by four column quarters; x[k]
   of quarter g is bytes 64t.. of destination row g*n + k. Four prefetch steps. */
TPOSEI_AVX512_INLINE void tposei_narrow_tile(const tposei_wide_chunk *ch, size_t esize,
                                             size_t t, size_t step)
{
    const size_t n = 16 / esize, per = 64 / esize;
    const unsigned keep = ch->exact ? (unsigned)tposei_min(64, ch->w - 64 * t) : 64;
    size_t g, k;
    __m512i x[16];
    for (g = 0; g < 4; g++) {
        tposei_wide_prefetch(ch, step + g);
        tposei_narrow_quarter(x, ch->src + t * per * ch->src_stride + 16 * g, ch->src_stride,
                              esize, tposei_min(per, ch->rows - t * per));
        TPOSEI_UNROLL
        for (k = 0; k < n; k++) {
            unsigned char *d = ch->out + (g * n + k) * ch->os + 64 * t;
            if (keep < 64)
                _mm512_mask_storeu_epi8(d, tposei_mask64(keep), x[k]);
            else
                _mm512_storeu_si512((void *)d, x[k]);
        }
    }
}

/* 1 when a wide row's last bytes, `rest` 16-byte blocks after `tiles` tiles of 64, go as
   blocks (else as one more tile). Measured (x memcpy, medians of 5 from memory, blocks /
   tile): with no tile, 17 bytes 0.91 / 0.54, 48 bytes 1.28 / 0.95, 20 2-byte 1.15 / 1.04;
   one block after tiles, 33 2-byte 1.05 / 0.64, 17 floats 1.21 / 0.64; but 2 or 3 after
   tiles 0.92-0.94 / 1.07 (48 2-byte), 1.07 / 1.18 (24 floats), 1.15 / 1.21 (20 doubles),
   and 4 blocks (60 bytes) 32 / 41 GB/s in cache. */
TPOSEI_FORCE_INLINE int tposei_narrow_split(size_t tiles, size_t rest)
{
    return rest == 1 || (tiles == 0 && rest < 4);
}

/* Wide chunk c: source columns 64c/esize.. of the S rows to the 64/esize destination rows of
   S elements (w bytes) they make, row j at out + j * os. The rows go in tiles of 64/esize
   (four 16-byte blocks of each destination row); the w % 64 bytes left take their own
   16-byte blocks where tposei_narrow_split says, else one more tile (rows past S repeat
   the last), so that few rows (17 bytes, 20 floats) are not worked through as 64. The unit
   holding the rows' last bytes goes first: packed (os = w), whole vectors are stored and
   the bytes each writes past its row are written again by the next row's later units;
   `exact` stores in part instead. */
TPOSEI_AVX512_INLINE void tposei_narrow_wide_chunk(const tposei_job *job, size_t esize,
                                                   size_t c, unsigned char *out, size_t os,
                                                   int exact, int ahead)
{
    const size_t s = job->rows, w = s * esize, tiles = w / 64, rest = (w % 64 + 15) / 16;
    const int split = tposei_narrow_split(tiles, rest);
    const size_t units = tiles + (split ? rest : rest != 0);
    const size_t steps = 4 * tiles + (split ? rest : 4 * (rest != 0));
    tposei_wide_chunk ch;
    size_t i, u, step = 0;
    ch.src = job->src + 64 * c;
    ch.src_stride = job->src_stride;
    ch.rows = s;
    ch.w = w;
    ch.out = out;
    ch.os = os;
    ch.exact = exact;
    ch.steps = ahead ? steps : 0;
    for (i = 0; i < units; i++) {
        u = (i + units - 1) % units; /* the last unit first */
        if (u < tiles || !split) {
            tposei_narrow_tile(&ch, esize, u, step);
            step += 4;
        } else
            tposei_narrow_block(&ch, esize, 4 * tiles + u - tiles, step++);
    }
}

/* The wide job. Streamed to a dense destination, each chunk is packed at buf + m (m: the
   destination's offset in its line) after the m bytes the chunk before it left, the
   buffer's S lines leave whole (the first chunk's first line from m on), and its last m
   bytes move to the front. Otherwise each chunk's rows are stored straight to the
   destination (in cache the packing lost: 60x1500 doubles 20-25 against 32-36 GB/s
   through the tile driver). The columns left (at most one chunk's) go through the scalar
   edge routine. */
TPOSEI_AVX512_INLINE void tposei_narrow_wide_esize(const tposei_job *job, size_t esize,
                                                   int stream)
{
    __attribute__((aligned(64))) unsigned char buf[64 * (TPOSEI_NARROW_MAX + 2)];
    const size_t per = 64 / esize, s = job->rows, ds = job->dst_stride;
    const size_t chunks = job->cols / per, done = chunks * per;
    const int packed = stream && ds == s * esize;
    const size_t m = packed ? (size_t)((uintptr_t)job->dst & (TPOSEI_CACHE_LINE - 1)) : 0;
    size_t c, l;
    for (c = 0; c < chunks; c++) {
        const int ahead = c + TPOSEI_NARROW_WIDE_AHEAD < chunks;
        unsigned char *line;
        if (!packed) {
            tposei_narrow_wide_chunk(job, esize, c, job->dst + c * per * ds, ds, 1, ahead);
            continue;
        }
        tposei_narrow_wide_chunk(job, esize, c, buf + m, s * esize, 0, ahead);
        line = job->dst + 64 * s * c - m; /* the first line this chunk completes */
        for (l = 0; l < s; l++)
            if (c == 0 && l == 0 && m) /* the destination starts in this line */
                _mm512_mask_storeu_epi8(job->dst, ~(uint64_t)0 >> m,
                                        _mm512_loadu_si512((const void *)(buf + m)));
            else
                _mm512_stream_si512((__m512i *)(line + 64 * l),
                                    _mm512_load_si512((const void *)(buf + 64 * l)));
        _mm512_store_si512((void *)buf, _mm512_load_si512((const void *)(buf + 64 * s)));
    }
    if (packed) {
        tposei_copy_short(job->dst + done * ds - m, buf, m);
        tposei_stream_fence();
    }
    tposei_any_block(job->dst + done * ds, ds, job->src + done * esize, job->src_stride, s,
                     job->cols - done, esize);
}

/* The wide job as one function per element size: inlined into one, its eight copies of the
   chunk routine made it the largest function clang's back end met in an -O2 ASan build
   (35 of 276 s). */
#define TPOSEI_NARROW_WIDE_FN(e)                                                            \
    static __attribute__((noinline)) TPOSEI_AVX512_FN void tposei_narrow_wide_e##e(          \
        const tposei_job *job, int stream)                                                  \
    {                                                                                       \
        tposei_narrow_wide_esize(job, e, stream);                                           \
    }
TPOSEI_NARROW_WIDE_FN(1)
TPOSEI_NARROW_WIDE_FN(2)
TPOSEI_NARROW_WIDE_FN(4)
TPOSEI_NARROW_WIDE_FN(8)
#undef TPOSEI_NARROW_WIDE_FN

static void tposei_narrow_wide(const tposei_job *job, size_t esize, int stream)
{
    if (esize == 1)
        tposei_narrow_wide_e1(job, stream);
    else if (esize == 2)
        tposei_narrow_wide_e2(job, stream);
    else if (esize == 4)
        tposei_narrow_wide_e4(job, stream);
    else
        tposei_narrow_wide_e8(job, stream);
}
#undef TPOSEI_NARROW_SIZES

/* The narrow path where it fits (AVX-512); 1 when it ran. */
static int tposei_try_narrow(const tposei_job *job, size_t esize, int stream)
{
    if (!tposei_narrow_fits(job->rows, job->cols, esize)) return 0;
    if (tposei_narrow_side(job->cols, job->rows, esize, 1))
        tposei_narrow_tall(job, esize, stream);
    else
        tposei_narrow_wide(job, esize, stream);
    return 1;
}

/* ======================================================================================== */
// >>table
/* ======================================================================================== */

/* 1 when the VBMI network should take this skinny job (tposei_skinny_fits): a short side
   not of whole lines, and if tall, of at most TPOSEI_SKINNY_TALL_MAX elements or too short a
   long side for the narrow path. The other sides go to the narrow path (tall) or, sides of
   whole lines, to the tile drivers. Medians of 3 interleaved runs, AUTO, network -> new:
   tall 1000000x11 bytes 0.57 -> 0.72x memcpy, 1000000x16 0.39 -> 0.82, 500000x11 2-byte
   0.82 -> 0.98, 250000x11 floats 0.60 -> 0.85, 250000x16 floats 0.44 -> 0.87, 125000x13
   doubles 0.56 -> 0.83, 125000x16 0.43 -> 0.79 (x10: bytes 0.66 / 0.68, floats 0.90 /
   0.86); wide 16x250000 floats 0.45 -> 0.68, 16x125000 doubles 0.47 -> 0.78. Wide sides off
   lines stay (narrow: 12x250000 floats 0.57 -> 0.47, 13x125000 doubles 0.53 -> 0.44). */
TPOSEI_FORCE_INLINE int tposei_skinny_net_side(const tposei_job *job, size_t esize)
{
    const int tall = tposei_skinny_tall(job, esize);
    const size_t s = tall ? job->cols : job->rows;
    if (s * esize % TPOSEI_CACHE_LINE == 0) return 0;
    return !tall || s <= TPOSEI_SKINNY_TALL_MAX || !tposei_narrow_side(s, job->rows, esize, 1);
}

/* 1 when AVX2's 16x16 byte network on 16-byte row pieces (tposei_rows16_run) should take
   this AVX-512 job: wide bytes of 11-16 rows, where the VBMI network spends 6-8 permutes per
   output vector. Medians of 3 interleaved runs, avx512-stream's network / avx2-stream's:
   12x1333333 0.52 / 0.83x memcpy, 13x1230769 0.44 / 0.72, 16x1000000 0.57 / 0.79; not at
   9 (0.70 / 0.71) or 10 rows (0.60 / 0.52), nor tall (1600000x10 0.64 / 0.69, 1777777x9
   0.64 / 0.59) or at 17-24 rows against the narrow path (24x666666 0.50 / 0.41). */
TPOSEI_FORCE_INLINE int tposei_avx512_rows16(const tposei_job *job, size_t esize)
{
    return esize == 1 && job->rows >= 11 && job->rows <= TPOSEI_SKINNY_MAX &&
           tposei_rows16_fits(job); /* wide: rows16_fits wants the long side >= 256 */
}

/* A wide job of at most 32 bytes of rows that no skinny or narrow path took (a padded
   matrix, or no VBMI) through the SWAR kernel; 1 when it ran: the tiles have only their edge code
   for it. One run each of a call timed against memcpy (min of 7), avx512-stream / swar,
   destination rows padded by one element: 3x100000 doubles 0.05 / 0.41, 2x1000000 0.02 /
   0.17, 5x1000000 floats 0.05 / 0.70, 8x1000000 2-byte 0.11 / 0.44, 3x1000000 bytes 0.06 /
   0.10; not for 40 rows of bytes (0.26 / 0.21) or tall (100000x3 doubles 0.82 / 0.41). */
static int tposei_try_swar_wide(const tposei_job *job, size_t esize)
{
    if (job->rows * esize > 32 || job->rows >= job->cols) return 0;
    tposei_swar_body(job, esize);
    return 1;
}

/* One entry point per ISA, element size and mode; the attribute lets the kernels inline. */
/* The skinny paths: n x 8 and 8 x n of 8-byte elements (AVX-512F), else the VBMI path
   where it fits and the CPU has VBMI, else the narrow path, else SWAR for short wide rows;
   1 when one ran. The 8 x n mirror measured 1.38-1.51 through the n x 8 network against
   1.36-1.45 through VBMI (8x4000000 doubles, four interleaved runs; 8x1000000 1.56-1.62
   against 1.46-1.53), and needs no VBMI. */
static int tposei_try_skinny(const tposei_job *job, size_t esize, int stream)
{
    if (esize == 8 && (job->cols == 8 || job->rows == 8) && job->rows >= 8 && job->cols >= 8) {
        tposei_rows8_job(job, job->rows == 8, stream);
        return 1;
    }
    if (tposei_avx512_rows16(job, esize)) {
        tposei_rows16_run(job, stream);
        return 1;
    }
    if (tposei_skinny_fits(job, esize) && tposei_cpu_has(TPOSEI_CPU_VBMI) &&
        tposei_skinny_net_side(job, esize))
        tposei_skinny_run(job, esize, stream);
    else if (!tposei_try_narrow(job, esize, stream) && !tposei_try_swar_wide(job, esize))
        return 0;
    return 1;
}

/* 1 when SIMD kernel `k` would leave a rows x cols job entirely to its scalar edge code: a
   side shorter than its tiles (16, 32 or 64 bytes of elements for SSE2, AVX2, AVX-512) and
   no skinny path for it (AVX2's, tposei_try_skinny16, is asked first). The portable kernels
   do better there (3x1000000 bytes: 0.03x memcpy through avx2-stream's tiles, 0.29x through
   swar; 3x1000000 floats 0.15x against 0.88x).
   Also when avx2-stream would write destination rows shorter than a cache line (rows *
   esize < 64) and the elements are wider than a byte: such a job is narrower than the line
   tiles, so it takes the buffered mode, whose rows are then all partial lines, stored
   normally (no line is whole to stream). One run each, avx2-stream against the portable kernel
   AUTO takes instead: 8x4000000 floats 0.39 / 1.03 (swar), 16x4000000 2-byte 0.37 / 0.73,
   4x4000000 doubles 0.33 / 0.92 (blocked), 12x2000000 floats 0.39 / 0.94, 2x4000000
   16-byte 0.40 / 1.17 (prefetch); bytes gain nothing (32x4000000 0.34 / 0.26). Sides of one
   vector (tposei_vside_of: 8 x n floats, 16 x n 2-byte, 4 x n doubles) are AVX2's again,
   through its vector-side path, or SWAR from inside it where the matrix is padded. */
static int tposei_simd_edges_only(tpose_kernel k, size_t rows, size_t cols, size_t esize)
{
    const int avx512 = k == TPOSE_KERNEL_AVX512 || k == TPOSE_KERNEL_AVX512_STREAM;
    const size_t bytes = k == TPOSE_KERNEL_SSE2 ? 16 : avx512 ? 64 : 32;
    const size_t tile = bytes / esize ? bytes / esize : 1, side = rows < cols ? rows : cols;
    if ((k == TPOSE_KERNEL_AVX2 || k == TPOSE_KERNEL_AVX2_STREAM) &&
        (tposei_skinny16_side(side, esize, k == TPOSE_KERNEL_AVX2_STREAM) ||
         tposei_rows16_side(side, esize) || tposei_vside_of(side, esize, cols < rows).width))
        return 0; /* tposei_try_skinny16 */
    if (k == TPOSE_KERNEL_AVX2_STREAM && esize > 1 && rows < TPOSEI_CACHE_LINE / esize)
        return 1;
    if (side >= tile) return 0;
    if (avx512 && esize == 8 && cols == 8) return 0; /* the n x 8 network */
    if (avx512 && tposei_narrow_fits(rows, cols, esize)) return 0;
    return !(avx512 && side <= TPOSEI_SKINNY_MAX && esize <= 8 &&
             tposei_cpu_has(TPOSEI_CPU_VBMI));
}

#define TPOSEI_SSE2_RUN(name, esize, tile, kernel)                                          \
    static void name(const tposei_job *job)                                                 \
    {                                                                                       \
        tposei_simd_drive(job, esize, tile, kernel, NULL, NULL, 0, NULL, NULL, NULL, NULL,  \
                          NULL, TPOSEI_CARRY_LINES);                                        \
    }

/* 1 when a streaming row writer is given. A function, not `stream != NULL` in the macro:
   compilers warn (-Waddress) that a named function's address is never NULL. */
TPOSEI_FORCE_INLINE int tposei_row_fn_given(tposei_row_fn f) { return f != NULL; }

/* A VBMI join where this CPU has VBMI, else NULL. */
static tposei_join_fn tposei_vbmi_join(tposei_join_fn f)
{
    return tposei_cpu_has(TPOSEI_CPU_VBMI) ? f : NULL;
}

/* A tile pair on Intel (TPOSEI_ACROSS_PAIRS), else NULL: single tiles, as measured on AMD. */
static tposei_tile_fn tposei_intel_pair(tposei_tile_fn f)
{
    return tposei_cpu_has(TPOSEI_CPU_INTEL) ? f : NULL;
}

/* AVX-512 entry points try the skinny path first; their edges go by tile corners. */
#define TPOSEI_AVX512_RUN(name, esize, tile, kernel, kernel_nt, pair, join_w, join_b,     \
                          stream)                                                          \
    static TPOSEI_AVX512_FN void name(const tposei_job *job)                               \
    {                                                                                      \
        if (!tposei_try_skinny(job, esize, tposei_row_fn_given(stream)))                   \
            tposei_simd_drive(job, esize, tile, kernel, kernel_nt, tposei_intel_pair(pair), \
                              TPOSEI_ACROSS_PAIRS, NULL, join_w, tposei_vbmi_join(join_b), \
                              kernel##_part, stream, TPOSEI_CARRY_SEAMS);                  \
    }

TPOSEI_SSE2_RUN(tposei_sse2_e1, 1, 16, tposei_u8_16x16_sse2)
TPOSEI_SSE2_RUN(tposei_sse2_e2, 2, 8, tposei_u16_8x8_sse2)
TPOSEI_SSE2_RUN(tposei_sse2_e4, 4, 4, tposei_u32_4x4_sse2)
TPOSEI_SSE2_RUN(tposei_sse2_e8, 8, 2, tposei_u64_2x2_sse2)
TPOSEI_SSE2_RUN(tposei_sse2_e16, 16, 1, NULL)

/* AVX2 in cache: the skinny path first (tposei_skinny16_run). */
#define TPOSEI_AVX2_RUN(name, esize, tile, kernel)                                          \
    static TPOSEI_AVX2_FN void name(const tposei_job *job)                                  \
    {                                                                                       \
        if (!tposei_try_skinny16(job, esize, 0))                                            \
            tposei_simd_drive(job, esize, tile, kernel, NULL, NULL, 0, NULL, NULL, NULL,    \
                              NULL, NULL, TPOSEI_CARRY_LINES);                              \
    }
TPOSEI_AVX2_RUN(tposei_avx2_e1, 1, 32, tposei_u8_32x32_avx2)
TPOSEI_AVX2_RUN(tposei_avx2_e2, 2, 16, tposei_u16_16x16_avx2)
TPOSEI_AVX2_RUN(tposei_avx2_e4, 4, 8, tposei_u32_8x8_avx2)
TPOSEI_AVX2_RUN(tposei_avx2_e8, 8, 4, tposei_u64_4x4_avx2)
TPOSEI_AVX2_RUN(tposei_avx2_e16, 16, 2, tposei_u128_2x2_avx2)
#undef TPOSEI_AVX2_RUN

/* Dense destinations of short rows off cache lines (dst_stride == rows * esize, at most
   TPOSEI_DENSE_ROW_MAX bytes, at least a tile; AVX2): the destination of a block of source
   columns is one contiguous run. Each block, all rows of the matrix by as many columns as
   fill an L1 buffer, is transposed there with the buffer's rows dense too, its last tile row
   overlapping the one before (the same bytes written twice) rather than leaving a strip,
   and leaves as that one run: whole lines streamed, its two ends stored normally. The
   buffered and joined modes stored such rows as partial lines, or left their bottom strips
   to the tile corners. avx2-stream, interleaved runs, medians of 5, before -> after:
   60x100000 bytes 0.11 -> 0.46, 100x100000 0.37 -> 0.54, 150x66666 0.31 -> 0.54, 180x55555
   0.36 -> 0.58, 33x90909 2-byte 0.36 -> 0.61, 90x55555 0.41 -> 0.67, 40x62500 floats 0.59
   -> 0.79, 20x50000 doubles 0.60 -> 0.81. On AVX-512 (the same walk through its in-cache
   tiles, 64 rows of bytes) it measured mixed against the joins with seams and was not
   taken: 70-110 rows of bytes 0.05-0.08 better, 150 and 190 rows 0.05 worse, 70x70000
   2-byte 0.62 -> 0.55 (medians of 5). Bound by the tiles, not memory: hot in cache it ran
   at about the speed it ran from memory (15-17 GB/s, 150x66666 bytes). */
#define TPOSEI_DENSE_ROW_MAX 192
TPOSEI_FORCE_INLINE int tposei_dense_short(const tposei_job *job, size_t esize, size_t tile)
{
    return tile > 1 && job->dst_stride == job->rows * esize && job->rows >= tile &&
           job->rows * esize <= TPOSEI_DENSE_ROW_MAX &&
           ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE != 0;
}

TPOSEI_FORCE_INLINE void tposei_dense_run(const tposei_job *job, size_t esize, size_t tile,
                                          tposei_tile_fn kernel, tposei_row_fn stream)
{
    unsigned char raw[TPOSEI_STREAM_BUF + TPOSEI_CACHE_LINE];
    unsigned char *buf = raw + (-(uintptr_t)raw & (TPOSEI_CACHE_LINE - 1));
    const size_t row = job->rows * esize, ss = job->src_stride;
    tposei_geom g = tposei_simd_geom(esize, tile, TPOSEI_GEOM_BUFFER);
    tposei_pf pf;
    size_t cb, c, r;
    g.band = job->rows;
    g.bcols = g.pcols = TPOSEI_STREAM_BUF / row / tile * tile;
    tposei_pf_start(&pf, job, &g, tile, esize);
    for (cb = 0; cb < job->cols; cb += g.bcols) {
        const size_t bc = tposei_min(g.bcols, job->cols - cb), full = bc - bc % tile;
        const unsigned char *src = job->src + cb * esize;
        for (c = 0; c < full; c += tile)
            for (r = 0; r < job->rows; r += tile) {
                const size_t at = r + tile <= job->rows ? r : job->rows - tile;
                tposei_pf_step(&pf, job, &g, tile, esize);
                kernel(buf + c * row + at * esize, row, src + at * ss + c * esize, ss);
            }
        if (full < bc) /* the matrix's last columns */
            tposei_any_block(buf + full * row, row, src + full * esize, ss, job->rows,
                             bc - full, esize);
        stream(job->dst + cb * row, buf, bc * row);
    }
    tposei_stream_fence();
}

/* Streaming on AVX2, where both sides are at least a line tile: destinations whose rows
   start on cache lines take the direct mode through the line tiles (its blocks, panel cursor
   and walk as on AVX-512), and rows off lines the same blocks joined through carry pairs
   (tposei_u8_64x64_avx2_join ...); smaller shapes take the buffered mode through the 32-byte
   tiles. The buffered mode alone measured about 0.5x memcpy on every shape; avx2-stream,
   interleaved runs, medians of 3, buffered (with the article's byte network) -> line tiles:
   2112^2 1/2/4/8-byte 0.55 / 0.77 / 0.64 / 0.59 -> 0.95 / 1.01 / 1.23 / 1.25, 16448^2 bytes
   0.43 -> 0.72, 8256^2 f32 0.51 -> 1.02, 5824^2 f64 0.47 -> 0.95, 4096^2 bytes 0.48 -> 0.73,
   8192^2 f32 0.50 -> 0.83. Rows off lines: TPOSEI_AVX2_JOIN_KERNEL (bytes on Zen 3 with
   short source rows: tposei_u8_join_whole). Both line tiles read
   their source through an L1 copy where the tile rows share few L1 sets, the aligned one
   then by quadrants for elements of 4 bytes or more (tposei_avx2_line_groups). Dense
   destinations of short rows off lines take the dense mode first (tposei_dense_run). Blocks
   walked down take two tiles at a time (`pair`): bytes always, the others where the tile
   rows crowd L1 or the matrix is one tile column wide; one column whose source rows spread
   over L1 takes `column`, `column_tiles` tiles at a time (4-16-byte elements four,
   TPOSEI_AVX2_DOWN_KERNEL; the others their pair); `pipe`, where given, pipelines the pairs
   on Zen 3 (TPOSEI_U8_PIPE_ZEN3). */
#define TPOSEI_AVX2_STREAM_RUN(name, esize, tile, kernel, shape, alias, pair, column,       \
                               column_tiles, pipe)                                          \
    static TPOSEI_AVX2_FN void name(const tposei_job *job)                                  \
    {                                                                                       \
        const size_t n = 64 / (esize);                                                      \
        if (tposei_try_skinny16(job, esize, 1))                                             \
            return;                                                                         \
        if (tposei_dense_short(job, esize, tile))                                           \
            tposei_dense_run(job, esize, tile, kernel, tposei_stream_row_avx2);             \
        else if (job->rows >= n && job->cols >= n) {                                        \
            const int spread = tposei_pf_fits_l1(job->src_stride, n);                       \
            const tposei_tile_fn nt = spread ? tposei_##shape##_avx2_nt : alias;            \
            const int whole = (esize) == 1 && spread && tposei_u8_join_whole(job);          \
            const tposei_join_fn join = whole    ? tposei_u8_64x64_avx2_join_park           \
                                        : spread ? tposei_##shape##_avx2_join               \
                                                 : tposei_##shape##_avx2_join_staged;       \
            const int one_column = spread && job->cols < 2 * n;                             \
            const tposei_tile_fn two = spread && (esize) > 1 ? NULL : pair;                 \
            tposei_simd_drive(job, esize, n, nt, nt, one_column ? column : two,             \
                              one_column ? (column_tiles) : 2, pipe, join, join,            \
                              tposei_##shape##_avx2_part, tposei_stream_row_avx2,           \
                              whole ? TPOSEI_CARRY_WHOLE : TPOSEI_CARRY_PAIRS);             \
        } else                                                                              \
            tposei_simd_drive(job, esize, tile, kernel, NULL, NULL, 0, NULL, NULL, NULL,    \
                              NULL, tposei_stream_row_avx2, TPOSEI_CARRY_LINES);            \
    }
TPOSEI_AVX2_STREAM_RUN(tposei_avx2s_e1, 1, 32, tposei_u8_32x32_avx2, u8_64x64,
                       tposei_u8_64x64_avx2_nt, tposei_u8_128x64_avx2_nt,
                       tposei_u8_128x64_avx2_nt, 2, tposei_u8_pipe_avx2_nt)
TPOSEI_AVX2_STREAM_RUN(tposei_avx2s_e2, 2, 16, tposei_u16_16x16_avx2, u16_32x32,
                       tposei_u16_32x32_avx2_nt_staged, tposei_u16_64x32_avx2_nt,
                       tposei_u16_64x32_avx2_nt, 2, NULL)
TPOSEI_AVX2_STREAM_RUN(tposei_avx2s_e4, 4, 8, tposei_u32_8x8_avx2, u32_16x16,
                       tposei_u32_16x16_avx2_quads_staged, tposei_u32_32x16_avx2_nt,
                       tposei_u32_64x16_avx2_nt, 4, NULL)
TPOSEI_AVX2_STREAM_RUN(tposei_avx2s_e8, 8, 4, tposei_u64_4x4_avx2, u64_8x8,
                       tposei_u64_8x8_avx2_quads_staged, tposei_u64_16x8_avx2_nt,
                       tposei_u64_32x8_avx2_nt, 4, NULL)
TPOSEI_AVX2_STREAM_RUN(tposei_avx2s_e16, 16, 2, tposei_u128_2x2_avx2, u128_4x4,
                       tposei_u128_4x4_avx2_quads_staged, tposei_u128_8x4_avx2_nt,
                       tposei_u128_16x4_avx2_nt, 4, NULL)
#undef TPOSEI_AVX2_STREAM_RUN

TPOSEI_AVX512_RUN(tposei_avx512_e1, 1, 64, tposei_u8_64x64_avx512, NULL, NULL, NULL, NULL, NULL)
TPOSEI_AVX512_RUN(tposei_vbmi_e1, 1, 64, tposei_u8_64x64_vbmi, NULL, NULL, NULL, NULL, NULL)
TPOSEI_AVX512_RUN(tposei_avx512_e2, 2, 32, tposei_u16_32x32_bw, NULL, NULL, NULL, NULL, NULL)
TPOSEI_AVX512_RUN(tposei_avx512_e4, 4, 16, tposei_u32_16x16_avx512, NULL, NULL, NULL, NULL, NULL)
TPOSEI_AVX512_RUN(tposei_avx512_e8, 8, 8, tposei_u64_8x8_avx512, NULL, NULL, NULL, NULL, NULL)
TPOSEI_AVX512_RUN(tposei_avx512_e16, 16, 4, tposei_u128_4x4_avx512, NULL, NULL, NULL, NULL, NULL)

/* Streaming bytes with VBMI. The tiles that store straight to the destination (whole lines,
   or lines joined with their carries where destination rows are off lines) use the quarter
   network unless the source stride crowds a tile's rows into fewer than
   TPOSEI_QUARTER_SETS L1 sets, where only the rows-once tile reads them well: these tiles
   are bound by their stores, and the quarter network stores each destination row once where
   the rows-once tile also parks 64 blocks. avx512-stream, interleaved runs, rows-once ->
   quarter, medians of 7 joined: 1000x1500 0.84 -> 0.88, 2000^2 0.95 -> 1.04, 1500x1000
   0.84 -> 0.85, 3000x1000 0.88 -> 0.89, 1448^2 0.96 -> 0.94; of 5 on lines: 1024x1500 0.70
   -> 0.82, 2112^2 1.20 -> 1.24, 1088x3000 1.14 -> 1.21, 4096x3000 0.82 -> 0.89, 16448^2 0.88
   -> 0.96; the aliasing 1000x2048 joined 0.79 -> 0.43, so that keeps the rows-once tile.
   Eight sets (8 ways each: 64 lines) still hold the tile's 64 rows between its quarters.
   Strides that are odd multiples of 512 or 256 bytes (modulo 4 KiB) fall in 8 or 16 sets;
   medians of 3, rows-once -> quarter: 1024x1536 0.80 -> 0.96, 2048x1536 1.05 -> 1.10,
   1024x1280 0.79 -> 0.92, 2048x1280 1.01 -> 1.11, 2048x512 0.98 -> 1.17, 8192x512 0.98 ->
   1.13, 16384x1536 0.88 -> 0.97; joined 1000x1280 0.76 -> 0.93, 2000x1280 1.00 -> 1.09,
   1000x1536 0.90 -> 0.93; none lower. Four sets (odd multiples of 1 KiB) lost: 2048x1024
   1.01 -> 0.79, 4096x1024 1.03 -> 0.74. */
#define TPOSEI_QUARTER_SETS 8
/* On Zen 5 blocks walked down take four rows-once tiles at a time (TPOSEI_VBMI_DOWN_TILES)
   where the tiles are rows-once anyway, and, whatever the source stride, where destination
   rows are a multiple of TPOSEI_VBMI_DOWN_ALIGN apart: there the quarter tiles' 64 rows of one
   line each drain at half speed, as the rows-once tiles' did. AUTO, medians of 3 interleaved
   rounds, quarter tiles -> four rows-once tiles down (spread source strides): 2048x2112 0.45
   -> 0.70, 4096x2112 0.47 -> 0.70, 8192x2112 0.47 -> 0.68, 3072x2112 0.42 -> 0.68, 6144x2112
   0.42 -> 0.68, 2048x4160 0.46 -> 0.68, 4096x4160 0.45 -> 0.68, 2048x8256 0.41 -> 0.65. On
   odd multiples of 512 the quarter tiles stay ahead (1536x2112 0.94 -> 0.75, 2560x4160 0.86
   -> 0.76, 3584x2112 0.85 -> 0.75). Destination strides of 512 and 1024 bytes take the
   in-cache walk instead (TPOSEI_PLAIN_ROWS_ZEN5). */
#define TPOSEI_VBMI_DOWN_ALIGN 1024
static TPOSEI_AVX512_FN void tposei_vbmis_e1(const tposei_job *job)
{
    const int spread = tposei_l1_sets(job->src_stride, 64) >= TPOSEI_QUARTER_SETS;
    const tposei_tile_fn nt = spread || tposei_u8_short_rows(job) ? tposei_u8_64x64_avx512_nt
                                                                   : tposei_u8_64x64_vbmi_nt;
    const tposei_join_fn join = spread ? tposei_u8_64x64_avx512_join_b : tposei_u8_64x64_vbmi_join;
    const int down_tiles = nt == tposei_u8_64x64_vbmi_nt ||
                           job->dst_stride % TPOSEI_VBMI_DOWN_ALIGN == 0;
    const tposei_tile_fn down = down_tiles && tposei_cpu_has(TPOSEI_CPU_ZEN5)
                                    ? tposei_u8_256x64_vbmi_nt
                                    : NULL;
    if (!tposei_try_skinny(job, 1, 1))
        tposei_simd_drive(job, 1, 64, tposei_u8_64x64_vbmi, nt, down, TPOSEI_VBMI_DOWN_TILES,
                          NULL, join, join, tposei_u8_64x64_vbmi_part, tposei_stream_row_avx512,
                          TPOSEI_CARRY_SEAMS);
}
TPOSEI_AVX512_RUN(tposei_avx512s_e1, 1, 64, tposei_u8_64x64_avx512,
                tposei_u8_64x64_avx512_nt, NULL, tposei_u8_64x64_avx512_join_w,
                NULL /* with VBMI: tposei_vbmis_e1 */, tposei_stream_row_avx512)
/* Streaming 2-byte elements: rows off lines join through the quarter network at odd offsets
   (bytes) and, where the source stride spreads over L1, at even ones, as bytes do with VBMI
   (tposei_vbmis_e1). Even offsets, rows-once -> quarter, medians of 5 interleaved runs:
   1000x1500 1.05 -> 1.15, 1500x1000 1.09 -> 1.22, 2000x3000 1.01 -> 1.18, 1448^2 1.10 ->
   1.25. On lines the quarter network measured no better (1024x1500 1.03 either way, 2112^2
   1.32 -> 1.28). */
static TPOSEI_AVX512_FN void tposei_avx512s_e2(const tposei_job *job)
{
    const tposei_join_fn join_w = tposei_pf_fits_l1(job->src_stride, 32)
                                      ? tposei_u16_32x32_avx512_join_w
                                      : tposei_u16_32x32_bw_join;
    if (!tposei_try_skinny(job, 2, 1))
        tposei_simd_drive(job, 2, 32, tposei_u16_32x32_bw, tposei_u16_32x32_bw_nt,
                          tposei_intel_pair(tposei_u16_64x32_avx512_nt), TPOSEI_ACROSS_PAIRS,
                          NULL, join_w, tposei_vbmi_join(tposei_u16_32x32_avx512_join_b),
                          tposei_u16_32x32_bw_part, tposei_stream_row_avx512,
                          TPOSEI_CARRY_SEAMS);
}
TPOSEI_AVX512_RUN(tposei_avx512s_e4, 4, 16, tposei_u32_16x16_avx512,
                tposei_u32_16x16_avx512_nt, tposei_u32_32x16_avx512_nt,
                tposei_u32_16x16_avx512_join_w,
                tposei_u32_16x16_avx512_join_b, tposei_stream_row_avx512)
TPOSEI_AVX512_RUN(tposei_avx512s_e8, 8, 8, tposei_u64_8x8_avx512,
                tposei_u64_8x8_avx512_nt, tposei_u64_16x8_avx512_nt,
                tposei_u64_8x8_avx512_join_w,
                tposei_u64_8x8_avx512_join_b, tposei_stream_row_avx512)
TPOSEI_AVX512_RUN(tposei_avx512s_e16, 16, 4, tposei_u128_4x4_avx512,
                tposei_u128_4x4_avx512_nt, tposei_u128_8x4_avx512_nt,
                tposei_u128_4x4_avx512_join_w,
                tposei_u128_4x4_avx512_join_b, tposei_stream_row_avx512)
#undef TPOSEI_SSE2_RUN
#undef TPOSEI_AVX512_RUN

/* The entry point for one of the five SIMD element sizes, NULL for the others or when the
   CPU lacks `feature`. */
static tposei_run_fn tposei_simd_pick(size_t esize, int feature, tposei_run_fn e1,
                                      tposei_run_fn e2, tposei_run_fn e4, tposei_run_fn e8,
                                      tposei_run_fn e16)
{
    if (!tposei_cpu_has(feature)) return NULL;
    return tposei_pick_sized(esize, e1, e2, e4, e8, e16, NULL);
}

#define TPOSEI_SIMD_PICK(name, feature, run, e1)                                            \
    static tposei_run_fn name(size_t esize)                                                 \
    {                                                                                       \
        return tposei_simd_pick(esize, feature, e1, run##_e2, run##_e4, run##_e8,           \
                                run##_e16);                                                 \
    }
/* AVX-512 byte tiles: each source line read once where the CPU has VBMI
   (tposei_u8_64x64_rows). */
static void tposei_avx512_u8(const tposei_job *job)
{
    (tposei_cpu_has(TPOSEI_CPU_VBMI) ? tposei_vbmi_e1 : tposei_avx512_e1)(job);
}
static void tposei_avx512_u8_stream(const tposei_job *job)
{
    (tposei_cpu_has(TPOSEI_CPU_VBMI) ? tposei_vbmis_e1 : tposei_avx512s_e1)(job);
}
TPOSEI_SIMD_PICK(tposei_sse2_pick, TPOSEI_CPU_SSE2, tposei_sse2, tposei_sse2_e1)
TPOSEI_SIMD_PICK(tposei_avx2_pick, TPOSEI_CPU_AVX2, tposei_avx2, tposei_avx2_e1)
TPOSEI_SIMD_PICK(tposei_avx2_stream_pick, TPOSEI_CPU_AVX2, tposei_avx2s, tposei_avx2s_e1)
TPOSEI_SIMD_PICK(tposei_avx512_pick, TPOSEI_CPU_AVX512, tposei_avx512, tposei_avx512_u8)
TPOSEI_SIMD_PICK(tposei_avx512_stream_pick, TPOSEI_CPU_AVX512, tposei_avx512s,
                 tposei_avx512_u8_stream)
#undef TPOSEI_SIMD_PICK

/* Every SIMD micro-kernel beside its scalar twin of the same tile shape (the scalar edge
   routine on one tile), for tests that compare them one to one. `nt`: the kernel stores
   non-temporally and needs destination rows on cache lines. */
typedef struct tposei_tile_entry {
    const char *name;
    int feature; /* TPOSEI_CPU_* the kernel needs */
    size_t esize, tile;
    int nt;
    tposei_tile_fn kernel, twin;
} tposei_tile_entry;

#define TPOSEI_TWIN(esize, tile)                                                            \
    static void tposei_twin_e##esize##_##tile(unsigned char *dst, size_t dst_stride,        \
                                              const unsigned char *src, size_t src_stride)  \
    {                                                                                       \
        tposei_any_block(dst, dst_stride, src, src_stride, tile, tile, esize);              \
    }
TPOSEI_TWIN(1, 16) TPOSEI_TWIN(2, 8) TPOSEI_TWIN(4, 4) TPOSEI_TWIN(8, 2)
TPOSEI_TWIN(1, 32) TPOSEI_TWIN(2, 16) TPOSEI_TWIN(4, 8) TPOSEI_TWIN(8, 4) TPOSEI_TWIN(16, 2)
TPOSEI_TWIN(1, 64) TPOSEI_TWIN(2, 32) TPOSEI_TWIN(4, 16) TPOSEI_TWIN(8, 8) TPOSEI_TWIN(16, 4)
#undef TPOSEI_TWIN

#define TPOSEI_TILE(name, feature, esize, tile, nt, kernel)                                 \
    {name, feature, esize, tile, nt, kernel, tposei_twin_e##esize##_##tile}
static const tposei_tile_entry tposei_tile_table[] = {
    TPOSEI_TILE("u8_16x16_sse2", TPOSEI_CPU_SSE2, 1, 16, 0, tposei_u8_16x16_sse2),
    TPOSEI_TILE("u16_8x8_sse2", TPOSEI_CPU_SSE2, 2, 8, 0, tposei_u16_8x8_sse2),
    TPOSEI_TILE("u32_4x4_sse2", TPOSEI_CPU_SSE2, 4, 4, 0, tposei_u32_4x4_sse2),
    TPOSEI_TILE("u64_2x2_sse2", TPOSEI_CPU_SSE2, 8, 2, 0, tposei_u64_2x2_sse2),
    TPOSEI_TILE("u8_32x32_avx2", TPOSEI_CPU_AVX2, 1, 32, 0, tposei_u8_32x32_avx2),
    TPOSEI_TILE("u8_32x32_avx2_article", TPOSEI_CPU_AVX2, 1, 32, 0,
                tposei_u8_32x32_avx2_article),
    TPOSEI_TILE("u16_16x16_avx2", TPOSEI_CPU_AVX2, 2, 16, 0, tposei_u16_16x16_avx2),
    TPOSEI_TILE("u32_8x8_avx2", TPOSEI_CPU_AVX2, 4, 8, 0, tposei_u32_8x8_avx2),
    TPOSEI_TILE("u64_4x4_avx2", TPOSEI_CPU_AVX2, 8, 4, 0, tposei_u64_4x4_avx2),
    TPOSEI_TILE("u128_2x2_avx2", TPOSEI_CPU_AVX2, 16, 2, 0, tposei_u128_2x2_avx2),
    /* the AVX2 line tiles, read directly and for strides that crowd L1 */
    TPOSEI_TILE("u8_64x64_avx2_nt", TPOSEI_CPU_AVX2, 1, 64, 1, tposei_u8_64x64_avx2_nt),
    TPOSEI_TILE("u16_32x32_avx2_nt", TPOSEI_CPU_AVX2, 2, 32, 1, tposei_u16_32x32_avx2_nt),
    TPOSEI_TILE("u16_32x32_avx2_nt_staged", TPOSEI_CPU_AVX2, 2, 32, 1,
                tposei_u16_32x32_avx2_nt_staged),
    TPOSEI_TILE("u32_16x16_avx2_nt", TPOSEI_CPU_AVX2, 4, 16, 1, tposei_u32_16x16_avx2_nt),
    TPOSEI_TILE("u32_16x16_avx2_quads_staged", TPOSEI_CPU_AVX2, 4, 16, 1,
                tposei_u32_16x16_avx2_quads_staged),
    TPOSEI_TILE("u64_8x8_avx2_nt", TPOSEI_CPU_AVX2, 8, 8, 1, tposei_u64_8x8_avx2_nt),
    TPOSEI_TILE("u64_8x8_avx2_quads_staged", TPOSEI_CPU_AVX2, 8, 8, 1,
                tposei_u64_8x8_avx2_quads_staged),
    TPOSEI_TILE("u128_4x4_avx2_nt", TPOSEI_CPU_AVX2, 16, 4, 1, tposei_u128_4x4_avx2_nt),
    TPOSEI_TILE("u128_4x4_avx2_quads_staged", TPOSEI_CPU_AVX2, 16, 4, 1,
                tposei_u128_4x4_avx2_quads_staged),
    TPOSEI_TILE("u8_64x64_avx512", TPOSEI_CPU_AVX512, 1, 64, 0, tposei_u8_64x64_avx512),
    TPOSEI_TILE("u32_16x16_avx512", TPOSEI_CPU_AVX512, 4, 16, 0, tposei_u32_16x16_avx512),
    TPOSEI_TILE("u64_8x8_avx512", TPOSEI_CPU_AVX512, 8, 8, 0, tposei_u64_8x8_avx512),
    TPOSEI_TILE("u128_4x4_avx512", TPOSEI_CPU_AVX512, 16, 4, 0, tposei_u128_4x4_avx512),
    TPOSEI_TILE("u8_64x64_avx512_nt", TPOSEI_CPU_AVX512, 1, 64, 1, tposei_u8_64x64_avx512_nt),
    TPOSEI_TILE("u32_16x16_avx512_nt", TPOSEI_CPU_AVX512, 4, 16, 1,
                tposei_u32_16x16_avx512_nt),
    TPOSEI_TILE("u64_8x8_avx512_nt", TPOSEI_CPU_AVX512, 8, 8, 1, tposei_u64_8x8_avx512_nt),
    TPOSEI_TILE("u128_4x4_avx512_nt", TPOSEI_CPU_AVX512, 16, 4, 1, tposei_u128_4x4_avx512_nt),
    TPOSEI_TILE("u8_64x64_vbmi", TPOSEI_CPU_VBMI, 1, 64, 0, tposei_u8_64x64_vbmi),
    TPOSEI_TILE("u16_32x32_bw", TPOSEI_CPU_AVX512, 2, 32, 0, tposei_u16_32x32_bw),
    TPOSEI_TILE("u16_32x32_bw_nt", TPOSEI_CPU_AVX512, 2, 32, 1, tposei_u16_32x32_bw_nt),
    TPOSEI_TILE("u8_64x64_vbmi_nt", TPOSEI_CPU_VBMI, 1, 64, 1, tposei_u8_64x64_vbmi_nt),
    TPOSEI_TILE("u64_tall8_avx512", TPOSEI_CPU_AVX512, 8, 8, 0, tposei_u64_tall8_avx512),
    TPOSEI_TILE("u64_tall8_avx512_nt", TPOSEI_CPU_AVX512, 8, 8, 1, tposei_u64_tall8_avx512_nt),
};
#undef TPOSEI_TILE

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* TPOSE_TRANSPOSE_SIMD_H */
