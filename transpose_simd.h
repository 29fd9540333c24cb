/* transpose_simd.h - the x86 kernel sets of transpose.h: SSE2, AVX2 and AVX-512 micro-kernels,
   their skinny-shape strip kernels, and the CPUID probe. Part of the implementation:
   transpose.h includes it inside its TPOSE_IMPLEMENTATION region where TPOSEI_HAVE_SSE2 says
   the compiler can target x86. Do not include it yourself.

   Kernels above SSE2 carry __attribute__((target(...))); the build never needs -mavx2, and
   no instruction above SSE2 runs before CPUID and XGETBV said the CPU and the OS support it.
   Nothing here walks a matrix: transpose.h's walks call these kernels through the kernel-set
   tables at the end (>>sets), with the tune table's parameters.

   TILES (one micro-kernel per element size; the walks handle edges)
   | element | sse2        | avx2               | avx512        |
   |---------|-------------|--------------------|---------------|
   | 1 byte  | u8_16x16    | u8_32x32           | u8_64x64      |
   | 2 bytes | u16_8x8     | u16_16x16          | u16_32x32     |
   | 4 bytes | u32_4x4     | u32_8x8            | u32_16x16     |
   | 8 bytes | u64_2x2     | u64_4x4            | u64_8x8       |
   | 16      | u128_2x2    | u128_2x2           | u128_4x4      |

   Every network tile is one shape: a vector of L 128-bit lanes holds L source rows
   n = 16/esize apart (n elements of each), log2(n) stages of unpack lo/hi transpose every
   lane's n x n block at once, and each result vector is then one whole destination row of
   L * n elements. The streaming sets add line tiles (64 bytes a side: each destination row
   one whole line, stored non-temporally), their joins for rows off lines, and corners.

   SECTIONS: >>cpu >>kernels-sse2 >>kernels-avx2 >>kernels-avx512 >>sets
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

#define TPOSEI_SSE2_FN __attribute__((target("sse2")))
#define TPOSEI_AVX2_FN __attribute__((target("avx2")))
#define TPOSEI_AVX512_FN __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#define TPOSEI_VBMI_FN __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))
#define TPOSEI_SSE2_INLINE static inline __attribute__((always_inline, target("sse2")))
#define TPOSEI_AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))
#define TPOSEI_AVX512_INLINE \
    static inline __attribute__((always_inline, target("avx2,avx512f,avx512bw,avx512vl")))
#define TPOSEI_VBMI_INLINE                                                                  \
    static inline                                                                           \
        __attribute__((always_inline, target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))
/* Kernels called through the sets' tables: out of line, one copy each. */
#define TPOSEI_SSE2_KERNEL static __attribute__((noinline, target("sse2")))
#define TPOSEI_AVX2_KERNEL static __attribute__((noinline, target("avx2")))
#define TPOSEI_AVX512_KERNEL \
    static __attribute__((noinline, target("avx2,avx512f,avx512bw,avx512vl")))
#define TPOSEI_VBMI_KERNEL \
    static __attribute__((noinline, target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))

/* ======================================================================================== */
// >>cpu
/* ======================================================================================== */

/* CPUID leaf `leaf`, subleaf `sub`, if the CPU has it; 0 otherwise. */
static int tposei_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    const unsigned top = __get_cpuid_max(leaf & 0x80000000u, NULL);
    if (top < leaf) return 0;
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    return 1;
}

/* XCR0, the vector state the OS saves; only called once CPUID reported OSXSAVE. */
static uint64_t tposei_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The ISA bits from CPUID leaves 1 and 7 and XCR0 (Intel SDM vol. 1, 13.3 and 15.2: YMM
   needs XCR0 bits 1-2, ZMM and opmasks bits 5-7 too). */
static unsigned tposei_probe_isa(void)
{
    unsigned l1[4], l7[4] = {0, 0, 0, 0}, isa = 0;
    uint64_t xcr0 = 0;
    if (!tposei_cpuid(1, 0, l1)) return 0;
    tposei_cpuid(7, 0, l7);
    if (l1[3] & (1u << 26)) isa |= TPOSEI_ISA_SSE2;
    if ((l1[2] & (1u << 27)) && (l1[2] & (1u << 28))) xcr0 = tposei_xgetbv0(); /* OSXSAVE, AVX */
    if ((xcr0 & 0x6) == 0x6 && (l7[1] & (1u << 5))) isa |= TPOSEI_ISA_AVX2;
    if ((isa & TPOSEI_ISA_AVX2) && (xcr0 & 0xE6) == 0xE6 && (l7[1] & (1u << 16)) &&
        (l7[1] & (1u << 30)) && (l7[1] & (1u << 31)))
        isa |= TPOSEI_ISA_AVX512;
    if ((isa & TPOSEI_ISA_AVX512) && (l7[2] & (1u << 1))) isa |= TPOSEI_ISA_VBMI;
    return isa;
}

/* Data and unified caches from the deterministic cache leaf (4 on Intel, 8000001Dh on AMD):
   ways x partitions x line x sets bytes per level. */
static void tposei_probe_caches(tposei_cpu *c, unsigned leaf)
{
    unsigned r[4], i;
    for (i = 0; i < 8 && tposei_cpuid(leaf, i, r) && (r[0] & 0x1F) != 0; i++) {
        const unsigned type = r[0] & 0x1F, level = (r[0] >> 5) & 7;
        const size_t bytes = (size_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3FF) + 1) *
                             ((r[1] & 0xFFF) + 1) * ((size_t)r[2] + 1);
        if (type == 2) continue; /* instructions */
        if (level == 1) {
            c->l1d = bytes;
            c->l1_span = (size_t)((r[1] & 0xFFF) + 1) * ((size_t)r[2] + 1); /* line x sets */
        }
        if (level == 2) c->l2 = bytes;
        if (level == 3) c->l3 = bytes;
    }
}

/* AMD's older leaf 80000006h, for guests that hide 8000001Dh (no TOPOEXT): L2 from ECX, in
   KiB. Its L3 field (EDX) is not taken: a hypervisor fills it with the whole socket's (508
   MiB on a 2-vCPU Zen 5 guest), which would keep AUTO from streaming. */
static void tposei_probe_l2_legacy(tposei_cpu *c)
{
    unsigned r[4];
    if (!c->l2 && tposei_cpuid(0x80000006u, 0, r)) c->l2 = (size_t)(r[2] >> 16) << 10;
}

/* Second-level TLB entries for 4 KiB pages: AMD's 80000006h EBX, Intel's leaf 18h
   (deterministic address translation: ways x sets of the unified level-2 TLB). */
static size_t tposei_probe_tlb(unsigned vendor)
{
    unsigned r[4], i;
    if (vendor == TPOSEI_VENDOR_AMD)
        return tposei_cpuid(0x80000006u, 0, r) ? (r[1] >> 16) & 0xFFF : 0;
    for (i = 0; i < 8 && tposei_cpuid(0x18, i, r); i++)
        if ((r[3] & 0x1F) == 3 && ((r[3] >> 5) & 7) == 2 && (r[1] & 1))
            return (size_t)(r[1] >> 16) * r[2];
    return 0;
}

static void tposei_arch_probe(tposei_cpu *c)
{
    unsigned r[4], base;
    if (!tposei_cpuid(0, 0, r)) return;
    if (r[1] == 0x756E6547u && r[3] == 0x49656E69u && r[2] == 0x6C65746Eu)
        c->vendor = TPOSEI_VENDOR_INTEL; /* GenuineIntel */
    if (r[1] == 0x68747541u && r[3] == 0x69746E65u && r[2] == 0x444D4163u)
        c->vendor = TPOSEI_VENDOR_AMD; /* AuthenticAMD */
    c->isa = tposei_probe_isa();
    if (!tposei_cpuid(1, 0, r)) return;
    base = (r[0] >> 8) & 0xF;
    c->family = base == 0xF ? base + ((r[0] >> 20) & 0xFF) : base;
    c->model = ((r[0] >> 4) & 0xF) | ((r[0] >> 12) & 0xF0);
    tposei_probe_caches(c, c->vendor == TPOSEI_VENDOR_AMD ? 0x8000001Du : 4);
    if (c->vendor == TPOSEI_VENDOR_AMD) tposei_probe_l2_legacy(c);
    c->tlb2 = tposei_probe_tlb(c->vendor);
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
TPOSEI_SSE2_INLINE __m128i tposei_sse2_lo(__m128i a, __m128i b, size_t esize)
{
    switch (esize) {
    case 1: return _mm_unpacklo_epi8(a, b);
    case 2: return _mm_unpacklo_epi16(a, b);
    case 4: return _mm_unpacklo_epi32(a, b);
    default: return _mm_unpacklo_epi64(a, b);
    }
}

/* The high halves: a(n/2) b(n/2) a(n/2+1) b(n/2+1) ... */
TPOSEI_SSE2_INLINE __m128i tposei_sse2_hi(__m128i a, __m128i b, size_t esize)
{
    switch (esize) {
    case 1: return _mm_unpackhi_epi8(a, b);
    case 2: return _mm_unpackhi_epi16(a, b);
    case 4: return _mm_unpackhi_epi32(a, b);
    default: return _mm_unpackhi_epi64(a, b);
    }
}

/* The perfect-shuffle network on n = 16/esize rows: each stage interleaves row i with row
   i + n/2 into rows 2i and 2i+1; log2(n) stages rotate the row and column bits of every
   index into each other, so row j ends up holding column j. */
TPOSEI_SSE2_INLINE void tposei_sse2_net(__m128i *x, size_t esize)
{
    const size_t n = 16 / esize, h = n / 2;
    size_t s, i;
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
TPOSEI_SSE2_INLINE void tposei_sse2_tile(unsigned char *dst, size_t dst_stride,
                                         const unsigned char *src, size_t src_stride,
                                         size_t esize)
{
    const size_t n = 16 / esize;
    size_t k;
    __m128i x[16];
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) x[k] = _mm_loadu_si128((const __m128i *)(const void *)(src + k * src_stride));
    tposei_sse2_net(x, esize);
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) _mm_storeu_si128((__m128i *)(void *)(dst + k * dst_stride), x[k]);
}

#define TPOSEI_TILE_KERNEL(name, attr, body, esize)                                         \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride)                                                        \
    {                                                                                        \
        body(dst, dst_stride, src, src_stride, esize);                                       \
    }

TPOSEI_TILE_KERNEL(tposei_u8_16x16_sse2, TPOSEI_SSE2_KERNEL, tposei_sse2_tile, 1)
TPOSEI_TILE_KERNEL(tposei_u16_8x8_sse2, TPOSEI_SSE2_KERNEL, tposei_sse2_tile, 2)
TPOSEI_TILE_KERNEL(tposei_u32_4x4_sse2, TPOSEI_SSE2_KERNEL, tposei_sse2_tile, 4)
TPOSEI_TILE_KERNEL(tposei_u64_2x2_sse2, TPOSEI_SSE2_KERNEL, tposei_sse2_tile, 8)

/* 2 x 2 elements of 16 bytes: four moves, no network. */
TPOSEI_SSE2_KERNEL void tposei_u128_2x2_sse2(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride)
{
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src);
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + 16));
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + src_stride));
    const __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + src_stride + 16));
    _mm_storeu_si128((__m128i *)(void *)dst, a);
    _mm_storeu_si128((__m128i *)(void *)(dst + 16), c);
    _mm_storeu_si128((__m128i *)(void *)(dst + dst_stride), b);
    _mm_storeu_si128((__m128i *)(void *)(dst + dst_stride + 16), d);
}

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
    const __m128i l = _mm_loadu_si128((const __m128i *)(const void *)lo);
    const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)hi);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(l), h, 1);
}

TPOSEI_AVX2_INLINE __m256i tposei_avx2_load(const unsigned char *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

TPOSEI_AVX2_INLINE void tposei_avx2_store(unsigned char *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

/* tposei_sse2_net in both 128-bit lanes at once. */
TPOSEI_AVX2_INLINE void tposei_avx2_net(__m256i *x, size_t esize)
{
    const size_t n = 16 / esize, h = n / 2;
    size_t s, i;
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
    const size_t n = 16 / esize;
    size_t g, k;
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
        for (k = 0; k < n; k++) tposei_avx2_store(d + k * dst_stride, x[k]);
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
TPOSEI_AVX2_INLINE void tposei_avx2_level(__m256i *x, size_t lvl)
{
    const size_t g = (size_t)1 << lvl;
    const __m256i swap = tposei_avx2_load(tposei_avx2_swap[lvl]);
    const __m256i odd = tposei_avx2_load(tposei_avx2_odd[lvl]);
    size_t i;
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

#if defined(TPOSEI_TESTING)
/* 32 x 32 bytes: four shuffle/blend levels, then the 16 x 16 level as a lane permute. Kept
   and tested (the tile table), but no set takes it: the unpack network moved 2.5x the bytes
   per second over a tile in L1 (bench/MEASURED.md, "the article's byte network"). */
TPOSEI_AVX2_KERNEL void tposei_u8_32x32_avx2_article(unsigned char *dst, size_t dst_stride,
                                                     const unsigned char *src, size_t src_stride)
{
    __m256i x[32];
    size_t i, lvl;
    TPOSEI_UNROLL
    for (i = 0; i < 32; i++) x[i] = tposei_avx2_load(src + i * src_stride);
    TPOSEI_UNROLL
    for (lvl = 0; lvl < 4; lvl++) tposei_avx2_level(x, lvl);
    TPOSEI_UNROLL
    for (i = 0; i < 16; i++) {
        const __m256i a = x[i], b = x[i + 16];
        x[i] = _mm256_permute2x128_si256(a, b, 0x20);      /* a.lo | b.lo */
        x[i + 16] = _mm256_permute2x128_si256(a, b, 0x31); /* a.hi | b.hi */
    }
    TPOSEI_UNROLL
    for (i = 0; i < 32; i++) tposei_avx2_store(dst + i * dst_stride, x[i]);
}
#endif

/* The 32-byte tiles by the unpack network: two column halves, rows k and n + k a vector. */
TPOSEI_TILE_KERNEL(tposei_u8_32x32_avx2, TPOSEI_AVX2_KERNEL, tposei_avx2_tile, 1)
TPOSEI_TILE_KERNEL(tposei_u16_16x16_avx2, TPOSEI_AVX2_KERNEL, tposei_avx2_tile, 2)
TPOSEI_TILE_KERNEL(tposei_u32_8x8_avx2, TPOSEI_AVX2_KERNEL, tposei_avx2_tile, 4)
TPOSEI_TILE_KERNEL(tposei_u64_4x4_avx2, TPOSEI_AVX2_KERNEL, tposei_avx2_tile, 8)
TPOSEI_TILE_KERNEL(tposei_u128_2x2_avx2, TPOSEI_AVX2_KERNEL, tposei_avx2_tile, 16)

/* A 32-byte tile inside a larger kernel: the byte network, by far the largest, as a call
   (one per 1 KiB moved), the others inline. */
TPOSEI_AVX2_INLINE void tposei_avx2_quad(unsigned char *dst, size_t dst_stride,
                                         const unsigned char *src, size_t src_stride,
                                         size_t esize)
{
    if (esize == 1)
        tposei_u8_32x32_avx2(dst, dst_stride, src, src_stride);
    else
        tposei_avx2_tile(dst, dst_stride, src, src_stride, esize);
}

/* Line tiles, 64 bytes of elements a side (n = 64/esize): each destination row of the tile
   is one whole cache line, leaving as two 32-byte non-temporal stores back to back that fill
   one write-combining buffer, so it drains as a full line with no read for ownership.
   Elements of 2 bytes and more go by four groups of 16/esize destination rows (16 bytes of
   every source row each): the 32-byte network on the tile's first 32/esize source rows
   gives the first half of each of the group's lines, parked in L1; the same network on the
   last 32/esize rows gives the second halves, and each line leaves from its parked half and
   a register (bench/MEASURED.md, "AVX2 line tiles"). */
TPOSEI_AVX2_INLINE void tposei_avx2_stream_line(unsigned char *d, __m256i lo, __m256i hi)
{
    _mm256_stream_si256((__m256i *)(void *)d, lo);
    _mm256_stream_si256((__m256i *)(void *)(d + 32), hi);
}

TPOSEI_AVX2_INLINE void tposei_avx2_line_groups(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride,
                                                size_t esize)
{
    const size_t n = 16 / esize, q = 2 * n; /* a group's rows; a half's */
    size_t g, k;
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
    size_t i;
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

/* The byte line tile reads each source line once, whole, and streams lines four at a time.
   First pass: each group of eight rows, each 32-byte half, through tposei_u8_8rows_avx2
   into a 4 KiB L1 block (park[R][v]: rows 8R..8R+7, columns 2v, 2v + 1 of each lane).
   Second pass: for each v, the column pieces of rows 16p..16p+15 pair up by one 64-bit
   unpack (lo: column 2v, hi: 2v + 1, each lane) and the 128-bit lanes of p = 0, 1 and
   p = 2, 3 make the two halves of four lines. */
/* Step u (0-15) of the first pass: bytes 32h.. of rows 8R..8R+7, R = u / 2, h = u % 2. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_park_step(__m256i park[8][16], const unsigned char *src,
                                                 size_t src_stride, size_t u)
{
    __m256i a[8];
    const size_t R = u / 2, h = u % 2;
    size_t i;
    TPOSEI_UNROLL
    for (i = 0; i < 8; i++) a[i] = tposei_avx2_load(src + (8 * R + i) * src_stride + 32 * h);
    tposei_u8_8rows_avx2(a, park[R] + 8 * h);
}

TPOSEI_AVX2_INLINE void tposei_u8_64x64_avx2_park(__m256i park[8][16],
                                                  const unsigned char *src, size_t src_stride)
{
    size_t u;
    for (u = 0; u < 16; u++) tposei_u8_avx2_park_step(park, src, src_stride, u);
}

/* The second pass for one v: lines c, c + 1, c + 16, c + 17 (c = 32 (v / 8) + 2 (v % 8)) as
   halves line[0..7], two a line. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_park_lines(__m256i park[8][16], size_t v,
                                                  __m256i *line)
{
    __m256i lo[4], hi[4];
    size_t p;
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
TPOSEI_FORCE_INLINE size_t tposei_u8_avx2_park_row(size_t v, size_t k)
{
    return 32 * (v / 8) + 2 * (v % 8) + (k & 1) + 16 * (k >> 1);
}

/* Step v of the second pass of `tiles` (1 or 2) parked tiles down a tile column: four
   destination rows, each row's lines (one a tile) back to back. */
TPOSEI_AVX2_INLINE void tposei_u8_avx2_stream_step(unsigned char *dst, size_t dst_stride,
                                                   __m256i park[2][8][16], size_t v,
                                                   size_t tiles)
{
    __m256i line[2][8];
    size_t k, t;
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
                                                size_t tiles)
{
    __m256i park[2][8][16];
    size_t v, t;
    TPOSEI_UNROLL
    for (t = 0; t < tiles; t++)
        tposei_u8_64x64_avx2_park(park[t], src + 64 * t * src_stride, src_stride);
    for (v = 0; v < 16; v++) tposei_u8_avx2_stream_step(dst, dst_stride, park, v, tiles);
}

/* The byte line tile. */
TPOSEI_AVX2_KERNEL void tposei_u8_64x64_avx2_nt(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride)
{
    tposei_u8_avx2_tiles_nt(dst, dst_stride, src, src_stride, 1);
}

/* Two byte line tiles down a tile column (source rows 0-127), for blocks walked down: each
   destination row's two lines leave back to back, where one tile at a time wrote a row's
   next line 64 lines later; destination strides of powers of two drain such pairs better
   (bench/MEASURED.md, "pairs of line tiles"). */
TPOSEI_AVX2_KERNEL void tposei_u8_128x64_avx2_nt(unsigned char *dst, size_t dst_stride,
                                                 const unsigned char *src, size_t src_stride)
{
    tposei_u8_avx2_tiles_nt(dst, dst_stride, src, src_stride, 2);
}

TPOSEI_TILE_KERNEL(tposei_u16_32x32_avx2_nt, TPOSEI_AVX2_KERNEL, tposei_avx2_line_groups, 2)
TPOSEI_TILE_KERNEL(tposei_u32_16x16_avx2_nt, TPOSEI_AVX2_KERNEL, tposei_avx2_line_groups, 4)
TPOSEI_TILE_KERNEL(tposei_u64_8x8_avx2_nt, TPOSEI_AVX2_KERNEL, tposei_avx2_line_groups, 8)
TPOSEI_TILE_KERNEL(tposei_u128_4x4_avx2_nt, TPOSEI_AVX2_KERNEL, tposei_avx2_line_groups, 16)

/* The line tile by quadrants: the four 32-byte tiles into a 64-byte-wide L1 scratch, the
   two of a column half side by side, each scratch row then streamed as one line. */
TPOSEI_AVX2_INLINE void tposei_avx2_quads(unsigned char *dst, size_t dst_stride,
                                          const unsigned char *src, size_t src_stride,
                                          size_t esize)
{
    const size_t q = 32 / esize; /* the quadrant's side */
    __m256i scratch[64];         /* q rows of two halves */
    unsigned char *const at = (unsigned char *)scratch;
    size_t h, c;
    for (h = 0; h < 2; h++) {
        tposei_avx2_quad(at, 64, src + 32 * h, src_stride, esize);
        tposei_avx2_quad(at + 32, 64, src + q * src_stride + 32 * h, src_stride, esize);
        TPOSEI_UNROLL
        for (c = 0; c < q; c++)
            tposei_avx2_stream_line(dst + (q * h + c) * dst_stride, scratch[2 * c],
                                    scratch[2 * c + 1]);
    }
}

/* The first 64 bytes of `rows` source rows, copied to `copy` as rows of 64 bytes. */
TPOSEI_AVX2_INLINE void tposei_avx2_stage(__m256i *copy, const unsigned char *src,
                                          size_t src_stride, size_t rows)
{
    size_t r;
    TPOSEI_UNROLL
    for (r = 0; r < rows; r++, src += src_stride) {
        copy[2 * r] = tposei_avx2_load(src);
        copy[2 * r + 1] = tposei_avx2_load(src + 32);
    }
}

/* Line tiles for source strides that crowd L1 (tposei_spread false): the source lines
   copied into L1 first, each loaded once and whole, where the groups' and quadrants'
   half-line loads, up to 64 rows apart, find their lines evicted by the rows between.
   2-byte elements through the groups, wider ones by quadrants (bench/MEASURED.md, "staged
   line tiles"). */
TPOSEI_AVX2_INLINE void tposei_avx2_staged(unsigned char *dst, size_t dst_stride,
                                           const unsigned char *src, size_t src_stride,
                                           size_t esize)
{
    __m256i copy[128]; /* 64/esize rows of 64 bytes */
    tposei_avx2_stage(copy, src, src_stride, 64 / esize);
    if (esize == 2)
        tposei_avx2_line_groups(dst, dst_stride, (const unsigned char *)copy, 64, esize);
    else
        tposei_avx2_quads(dst, dst_stride, (const unsigned char *)copy, 64, esize);
}
TPOSEI_TILE_KERNEL(tposei_u16_32x32_avx2_nt_staged, TPOSEI_AVX2_KERNEL, tposei_avx2_staged, 2)
TPOSEI_TILE_KERNEL(tposei_u32_16x16_avx2_quads_staged, TPOSEI_AVX2_KERNEL, tposei_avx2_staged, 4)
TPOSEI_TILE_KERNEL(tposei_u64_8x8_avx2_quads_staged, TPOSEI_AVX2_KERNEL, tposei_avx2_staged, 8)
TPOSEI_TILE_KERNEL(tposei_u128_4x4_avx2_quads_staged, TPOSEI_AVX2_KERNEL, tposei_avx2_staged,
                   16)

/* Up to 64 bytes (a tile row): tposei_copy_short takes fewer. */
TPOSEI_FORCE_INLINE void tposei_copy_row64(unsigned char *dst, const unsigned char *src,
                                           size_t n)
{
    if (n == 64)
        TPOSEI_MEMCPY(dst, src, 64);
    else
        tposei_copy_short(dst, src, n);
}

/* A corner of a line tile (rows x cols source elements, each at most 64/esize): staged into
   a zeroed aligned square, transposed there by quadrants, its `cols` destination rows of
   `rows` elements copied out (stored normally; the walk's fence orders them with the
   streamed lines). */
TPOSEI_AVX2_INLINE void tposei_avx2_part(unsigned char *dst, size_t dst_stride,
                                         const unsigned char *src, size_t src_stride,
                                         size_t rows, size_t cols, size_t esize)
{
    __m256i in[128], out[128]; /* 64 rows of 64 bytes */
    unsigned char *const a = (unsigned char *)in, *const b = (unsigned char *)out;
    const size_t q = 32 / esize;
    size_t r;
    for (r = 0; r < 64 / esize; r++) { /* zeros past the corner; no memset call */
        in[2 * r] = in[2 * r + 1] = _mm256_setzero_si256();
        if (r < rows) tposei_copy_row64(a + 64 * r, src + r * src_stride, cols * esize);
    }
    tposei_avx2_quad(b, 64, a, 64, esize);
    tposei_avx2_quad(b + 32, 64, a + 64 * q, 64, esize);
    tposei_avx2_quad(b + 64 * q, 64, a + 32, 64, esize);
    tposei_avx2_quad(b + 64 * q + 32, 64, a + 64 * q + 32, 64, esize);
    for (r = 0; r < cols; r++) tposei_copy_row64(dst + r * dst_stride, b + 64 * r, rows * esize);
}

#define TPOSEI_PART_KERNEL(name, attr, body, esize)                                          \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride, size_t rows, size_t cols)                              \
    {                                                                                        \
        body(dst, dst_stride, src, src_stride, rows, cols, esize);                           \
    }
TPOSEI_PART_KERNEL(tposei_u8_64x64_avx2_part, TPOSEI_AVX2_KERNEL, tposei_avx2_part, 1)
TPOSEI_PART_KERNEL(tposei_u16_32x32_avx2_part, TPOSEI_AVX2_KERNEL, tposei_avx2_part, 2)
TPOSEI_PART_KERNEL(tposei_u32_16x16_avx2_part, TPOSEI_AVX2_KERNEL, tposei_avx2_part, 4)
TPOSEI_PART_KERNEL(tposei_u64_8x8_avx2_part, TPOSEI_AVX2_KERNEL, tposei_avx2_part, 8)
TPOSEI_PART_KERNEL(tposei_u128_4x4_avx2_part, TPOSEI_AVX2_KERNEL, tposei_avx2_part, 16)

/* A line tile for destination rows off cache lines, by carry pairs: each destination row
   keeps 128 bytes of L1, its carry then its chunk. The quadrants transpose the chunks
   straight into the pairs' second halves; the line at P - m is the pair's bytes 64 - m..,
   two unaligned loads and two non-temporal stores at any m, and the chunk then moves to the
   first half as the next tile's carry (bench/MEASURED.md, "carry pairs"). */
/* The second half of a joined tile (TPOSEI_JOIN_HEAD or _BODY): each of `rows` destination
   rows leaves from its carry pair, and the chunk becomes the carry of the next tile. */
TPOSEI_AVX2_INLINE void tposei_avx2_join_rows(unsigned char *dst, size_t dst_stride,
                                              unsigned char *carry, size_t rows, int phase)
{
    size_t r;
    for (r = 0; r < rows; r++) {
        unsigned char *at = dst + r * dst_stride, *p = carry + 128 * r;
        const size_t m = (size_t)((uintptr_t)at & (TPOSEI_CACHE_LINE - 1));
        if (phase == TPOSEI_JOIN_BODY)
            tposei_avx2_stream_line(at - m, tposei_avx2_load(p + 64 - m),
                                    tposei_avx2_load(p + 96 - m));
        else /* the head: up to the end of the line */
            tposei_copy_row64(at, p + 64, 64 - m);
        tposei_avx2_store(p, tposei_avx2_load(p + 64));
        tposei_avx2_store(p + 32, tposei_avx2_load(p + 96));
    }
}

/* A joined line tile: the quadrants into the carry pairs (LEAD: the carries only). */
TPOSEI_AVX2_INLINE void tposei_avx2_join(unsigned char *dst, size_t dst_stride,
                                         const unsigned char *src, size_t src_stride,
                                         unsigned char *carry, int phase, size_t esize)
{
    const size_t q = 32 / esize;
    const size_t into = phase == TPOSEI_JOIN_LEAD ? 0 : 64;
    size_t h;
    for (h = 0; h < 2; h++) {
        unsigned char *pairs = carry + 128 * q * h + into;
        tposei_avx2_quad(pairs, 128, src + 32 * h, src_stride, esize);
        tposei_avx2_quad(pairs + 32, 128, src + q * src_stride + 32 * h, src_stride, esize);
    }
    if (phase != TPOSEI_JOIN_LEAD) tposei_avx2_join_rows(dst, dst_stride, carry, 2 * q, phase);
}

/* The same through an L1 copy of the source lines (strides that crowd L1). */
TPOSEI_AVX2_INLINE void tposei_avx2_join_staged(unsigned char *dst, size_t dst_stride,
                                                const unsigned char *src, size_t src_stride,
                                                unsigned char *carry, int phase, size_t esize)
{
    __m256i copy[128]; /* 64/esize rows of 64 bytes */
    tposei_avx2_stage(copy, src, src_stride, 64 / esize);
    tposei_avx2_join(dst, dst_stride, (const unsigned char *)copy, 64, carry, phase, esize);
}

#define TPOSEI_JOIN_KERNEL(name, attr, body, esize)                                          \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride, unsigned char *carry, int phase)                       \
    {                                                                                        \
        body(dst, dst_stride, src, src_stride, carry, phase, esize);                         \
    }
#define TPOSEI_AVX2_JOINS(shape, esize)                                                      \
    TPOSEI_JOIN_KERNEL(tposei_##shape##_avx2_join, TPOSEI_AVX2_KERNEL, tposei_avx2_join,     \
                       esize)                                                                \
    TPOSEI_JOIN_KERNEL(tposei_##shape##_avx2_join_staged, TPOSEI_AVX2_KERNEL,               \
                       tposei_avx2_join_staged, esize)
TPOSEI_AVX2_JOINS(u8_64x64, 1)
TPOSEI_AVX2_JOINS(u16_32x32, 2)
TPOSEI_AVX2_JOINS(u32_16x16, 4)
TPOSEI_AVX2_JOINS(u64_8x8, 8)
TPOSEI_AVX2_JOINS(u128_4x4, 16)
#undef TPOSEI_AVX2_JOINS

/* The byte line tile joined by the two passes of tposei_u8_64x64_avx2_nt: the parked tile's
   lines go into the carry pairs' chunk halves, then the rows leave as the quadrant join's
   do. Only in the whole-width walk (tune: u8_join_whole): each gained only with the other. */
TPOSEI_AVX2_KERNEL void tposei_u8_64x64_avx2_join_park(unsigned char *dst, size_t dst_stride,
                                                       const unsigned char *src,
                                                       size_t src_stride, unsigned char *carry,
                                                       int phase)
{
    __m256i park[8][16], line[8];
    const size_t into = phase == TPOSEI_JOIN_LEAD ? 0 : 64; /* lead: carries only */
    size_t v, k;
    tposei_u8_64x64_avx2_park(park, src, src_stride);
    for (v = 0; v < 16; v++) {
        tposei_u8_avx2_park_lines(park, v, line);
        TPOSEI_UNROLL
        for (k = 0; k < 4; k++) {
            unsigned char *p = carry + 128 * tposei_u8_avx2_park_row(v, k) + into;
            tposei_avx2_store(p, line[2 * k]);
            tposei_avx2_store(p + 32, line[2 * k + 1]);
        }
    }
    if (phase != TPOSEI_JOIN_LEAD) tposei_avx2_join_rows(dst, dst_stride, carry, 64, phase);
}

/* `tiles` line tiles of 2-16-byte elements down a tile column (tiles x 64/esize source
   rows), for blocks walked down: the 32-byte tiles transpose them into an L1 park of
   64 x tiles bytes a destination row, then each row's lines leave back to back, where one
   tile at a time wrote a row's next line a band of rows later (bench/MEASURED.md, "pairs of
   line tiles"). Matrices one tile column wide take four where the source rows spread. */
TPOSEI_AVX2_INLINE void tposei_avx2_down(unsigned char *dst, size_t dst_stride,
                                         const unsigned char *src, size_t src_stride,
                                         size_t esize, size_t tiles)
{
    const size_t q = 32 / esize, n = 64 / esize; /* a quadrant's side, a tile's */
    const size_t w = 64 * tiles;                 /* a parked row's bytes */
    __m256i park[128];                           /* n rows of `tiles` lines: 4 KiB */
    unsigned char *const at = (unsigned char *)park;
    size_t g, r, t;
    for (g = 0; g < tiles * n; g += q) { /* source rows g.., both halves of a line */
        tposei_avx2_quad(at + g * esize, w, src + g * src_stride, src_stride, esize);
        tposei_avx2_quad(at + w * q + g * esize, w, src + g * src_stride + 32, src_stride,
                         esize);
    }
    for (r = 0; r < n; r++)
        for (t = 0; t < tiles; t++)
            tposei_avx2_stream_line(dst + r * dst_stride + 64 * t, park[r * 2 * tiles + 2 * t],
                                    park[r * 2 * tiles + 2 * t + 1]);
}

#define TPOSEI_AVX2_DOWN_KERNEL(name, esize, tiles)                                          \
    TPOSEI_AVX2_KERNEL void name(unsigned char *dst, size_t dst_stride,                      \
                                 const unsigned char *src, size_t src_stride)                \
    {                                                                                        \
        tposei_avx2_down(dst, dst_stride, src, src_stride, esize, tiles);                    \
    }
TPOSEI_AVX2_DOWN_KERNEL(tposei_u16_64x32_avx2_nt, 2, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u32_32x16_avx2_nt, 4, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u64_16x8_avx2_nt, 8, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u128_8x4_avx2_nt, 16, 2)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u32_64x16_avx2_nt, 4, 4)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u64_32x8_avx2_nt, 8, 4)
TPOSEI_AVX2_DOWN_KERNEL(tposei_u128_16x4_avx2_nt, 16, 4)
#undef TPOSEI_AVX2_DOWN_KERNEL

/* The byte pairs software-pipelined (tune: u8_pipe): while one pair's lines leave (16 steps
   of four destination rows, each row's two lines back to back), the next pair down the band
   is parked one step of each tile's first pass per step, and `tick` lets the walk's panel
   cursor fetch 8 lines, so stores, loads and prefetches run evenly through the pair rather
   than in bursts (bench/MEASURED.md, "pipelined byte pairs"). */
TPOSEI_AVX2_KERNEL void tposei_u8_pipe_avx2_nt(unsigned char *dst, size_t dst_stride,
                                               const unsigned char *next, size_t src_stride,
                                               unsigned char *parks, unsigned set,
                                               void (*tick)(void *ctx), void *ctx)
{
    __m256i(*park)[2][8][16] = (__m256i(*)[2][8][16])(void *)parks; /* [set][tile] */
    const size_t ss = src_stride;
    size_t v, t;
    if (!dst) { /* the first pair: parked only */
        for (t = 0; t < 2; t++) tposei_u8_64x64_avx2_park(park[set][t], next + 64 * t * ss, ss);
        return;
    }
    for (v = 0; v < 16; v++) {
        tick(ctx);
        if (next)
            for (t = 0; t < 2; t++)
                tposei_u8_avx2_park_step(park[set ^ 1][t], next + 64 * t * ss, ss, v);
        tposei_u8_avx2_stream_step(dst, dst_stride, park[set], v, 2);
    }
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

TPOSEI_AVX2_KERNEL void tposei_stream_row_avx2(unsigned char *dst, const unsigned char *buf,
                                               size_t bytes)
{
    size_t body, o;
    const size_t h = tposei_stream_edges(dst, buf, bytes, &body);
    for (o = h; o < h + body; o += 64) /* one whole line, in two halves */
        tposei_avx2_stream_line(dst + o, tposei_avx2_load(buf + o), tposei_avx2_load(buf + o + 32));
}

/* Orders the streamed stores before anything the caller does next: once per call. */
static TPOSEI_SSE2_FN void tposei_stream_fence(void) { _mm_sfence(); }

/* ---- AVX2 strip kernels: skinny shapes -------------------------------------------------- */

/* Skinny matrices: one side S of a few elements, the other long. The long side goes in
   chunks of 64 bytes of the dense side, each through a network that needs no edge code; a
   strip kernel is the loop over the chunks, the scalar edge routine takes the rest. */
#define TPOSEI_SKINNY_MAX 16

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

/* 1 when a skinny job's short side is its columns (a tall matrix). */
TPOSEI_FORCE_INLINE int tposei_skinny_tall(const tposei_job *job)
{
    return job->cols <= TPOSEI_SKINNY_MAX && job->src_stride == job->cols * job->esize;
}

/* 1 when the shuffle networks take this job: 1, 2, 4 or 8-byte elements, a short side of at
   most 16 whose matrix is dense, and a long side of at least 4 chunks. */
TPOSEI_FORCE_INLINE int tposei_skinny_fits(const tposei_job *job)
{
    const size_t esize = job->esize;
    const int tall = tposei_skinny_tall(job);
    const int wide = job->rows <= TPOSEI_SKINNY_MAX && job->dst_stride == job->rows * esize;
    if (esize > 8 || (!tall && !wide)) return 0;
    return (tall ? job->rows : job->cols) >= 256 / esize; /* four chunks of 64 bytes */
}

/* After a strip kernel's whole chunks (the long side's first `full` elements): the fence for
   its non-temporal stores, and the rest through the scalar edge routine. */
static void tposei_skinny_rest(const tposei_job *job, int tall, size_t full, int stream)
{
    const size_t s = tall ? job->cols : job->rows, n = tall ? job->rows : job->cols;
    const size_t ss = job->src_stride, ds = job->dst_stride, esize = job->esize;
    if (stream) tposei_stream_fence();
    if (tall)
        tposei_rect(job->dst + full * esize, ds, job->src + full * ss, ss, n - full, s, esize);
    else
        tposei_rect(job->dst + full * ds, ds, job->src + full * esize, ss, s, n - full, esize);
}

/* The skinny network on AVX2, which has no byte permute across 128-bit lanes: each lane is a
   chunk of its own, S inputs of 16 bytes to S outputs of 16 bytes (w = 16 in
   tposei_skinny_pos), and a vector carries two neighbouring chunks. Output m gathers its
   bytes from every input with one in-lane byte shuffle each, zeroing (index 0x80) the bytes
   another input provides: S^2 shuffles for 32 * S bytes, so it takes short sides of at most
   8 elements and 24 bytes when it streams, and in cache bytes and sides of at most 12 bytes
   (bench/MEASURED.md, "AVX2 skinny network"). */
#define TPOSEI_SKINNY16_MAX 8
typedef struct tposei_skinny16 {
    unsigned char idx[TPOSEI_SKINNY16_MAX][TPOSEI_SKINNY16_MAX][32]; /* [output][input] */
    const struct tposei_avx2_seams *seams; /* tall, for destination rows off lines */
} tposei_skinny16;

/* 1 when a short side of s elements is the AVX2 skinny network's, streaming or in cache. */
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

/* Output m of the chunk pair in `in` (s <= smax vectors; smax a constant in every caller,
   so the loop unrolls and the inputs stay in registers). */
TPOSEI_AVX2_INLINE __m256i tposei_skinny16_out(const tposei_skinny16 *t, size_t s, size_t smax,
                                               const __m256i *in, size_t m)
{
    __m256i acc = _mm256_shuffle_epi8(in[0], tposei_avx2_load(t->idx[m][0]));
    size_t k;
    TPOSEI_UNROLL
    for (k = 1; k < smax; k++)
        if (k < s) acc = _mm256_or_si256(acc, _mm256_shuffle_epi8(in[k], tposei_avx2_load(t->idx[m][k])));
    return acc;
}

/* Sides of 5-8: every output of the chunk pair out of line, in and out through L1, one copy
   instead of one in each loop that runs it. */
TPOSEI_AVX2_KERNEL void tposei_skinny16_outs8(const tposei_skinny16 *t, size_t s,
                                              const __m256i *in, __m256i *out)
{
    size_t m;
    TPOSEI_UNROLL
    for (m = 0; m < 8; m++)
        if (m < s) out[m] = tposei_skinny16_out(t, s, 8, in, m);
}

/* Every output of the chunk pair in `in` into out[0..s-1]. */
TPOSEI_AVX2_INLINE void tposei_skinny16_outs(const tposei_skinny16 *t, size_t s, size_t smax,
                                             const __m256i *in, __m256i *out)
{
    size_t m;
    if (smax > 4) {
        tposei_skinny16_outs8(t, s, in, out);
        return;
    }
    TPOSEI_UNROLL
    for (m = 0; m < smax; m++)
        if (m < s) out[m] = tposei_skinny16_out(t, s, smax, in, m);
}

/* One 16-byte piece: non-temporal when asked and aligned (movntdq needs 16 bytes). */
TPOSEI_AVX2_INLINE void tposei_avx2_put16(unsigned char *d, __m128i v, int stream)
{
    if (stream && ((uintptr_t)d & 15) == 0)
        _mm_stream_si128((__m128i *)(void *)d, v);
    else
        _mm_storeu_si128((__m128i *)(void *)d, v);
}

/* 64 bytes as two halves: non-temporal when asked and they make one whole line (two 32-byte
   non-temporal stores that each complete half of two lines leave both partly written in the
   write-combining buffers). */
TPOSEI_AVX2_INLINE void tposei_avx2_put_line(unsigned char *d, __m256i lo, __m256i hi,
                                             int stream)
{
    if (stream && ((uintptr_t)d & (TPOSEI_CACHE_LINE - 1)) == 0) {
        tposei_avx2_stream_line(d, lo, hi);
    } else {
        tposei_avx2_store(d, lo);
        tposei_avx2_store(d + 32, hi);
    }
}

/* Tall destination rows off lines in the AVX2 strips, joined without a byte permute across
   128-bit lanes: each destination row keeps its last step (the carry), and row k's line at a
   step, the one that begins lag[k] bytes before the step, is bytes p = 64 - lag[k].. of the
   carry's two vectors then the step's two (C0 C1 N0 N1). Its half h starts in 16-byte lane
   u + 2h, u = p / 16, so it is a 32-byte window at byte p % 32 of the vector pair (C0 C1),
   (C1 N0) or (N0 N1): two vpshufb, one on the lanes it starts in and one on the lanes
   after (vperm2i128 makes the pair that straddles), merged. u = 4 (the row on lines) is the
   step itself. Sized for the rows16 strips (bytes with a short side of 9-31). */
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
    const __m256i first = tposei_avx2_load(sm->shuf[k][0]);
    const __m256i next = tposei_avx2_load(sm->shuf[k][1]);
    return _mm256_or_si256(_mm256_shuffle_epi8(odd ? mid : a, first),
                           _mm256_shuffle_epi8(odd ? b : mid, next));
}

/* Row k's step (lo, hi) at d: the first step is stored normally; later ones complete the
   line that begins lag bytes before them, streamed whole. */
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
   (h = 0, 1: chunks 2h and 2h + 1). Tall: the step's source is one dense run of four chunks
   of 16 * S bytes, and output m is 32 bytes of destination row m; wide: input k is 32 bytes
   of source row k, and output m's lanes go to bytes 16m.. of the two chunks' dense
   destination runs. */
TPOSEI_AVX2_INLINE void tposei_skinny16_steps(const tposei_skinny16 *t, const tposei_job *job,
                                              size_t s, size_t smax, int tall, int seams,
                                              int stream)
{
    const size_t esize = job->esize, per = 64 / esize, n = tall ? job->rows : job->cols;
    const size_t ss = job->src_stride, ds = job->dst_stride;
    __m256i in[TPOSEI_SKINNY16_MAX], out[TPOSEI_SKINNY16_MAX], first[TPOSEI_SKINNY16_MAX];
    __m256i carry[TPOSEI_SKINNY16_MAX][2];
    size_t i, h, k, m;
    for (i = 0; i + per <= n; i += per)
        TPOSEI_UNROLL
        for (h = 0; h < 2; h++) {
            const unsigned char *c = job->src + i * ss + 32 * h * s; /* tall: chunk 2h */
            unsigned char *d = job->dst + i * ds + 32 * h * s;      /* wide: chunk 2h */
            TPOSEI_UNROLL
            for (k = 0; k < smax; k++)
                if (k < s)
                    in[k] = tall ? tposei_avx2_pair(c + 16 * k, c + 16 * (s + k))
                                 : tposei_avx2_load(job->src + k * ss + i * esize + 32 * h);
            tposei_skinny16_outs(t, s, smax, in, out);
            TPOSEI_UNROLL
            for (m = 0; m < smax; m++) {
                const __m256i v = out[m];
                if (m >= s) continue;
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
        for (m = 0; m < s; m++)
            tposei_avx2_put_line(job->dst + m * ds + (i - per) * esize, carry[m][0], carry[m][1],
                                 0);
}

/* The AVX2 skinny strip for short sides up to smax: tables, seams, the loop in one of its
   three forms (tall joined, tall, wide: the seams' carries would otherwise hold registers
   the network needs), the rest. */
TPOSEI_AVX2_INLINE void tposei_skinny16_strip(const tposei_job *job, int stream, size_t smax)
{
    tposei_skinny16 t;
    tposei_avx2_seams seams;
    const int tall = tposei_skinny_tall(job);
    const size_t n = tall ? job->rows : job->cols;
    /* short sides up to 4 have a strip each: their side a constant */
    const size_t s = smax <= 4 ? smax : tall ? job->cols : job->rows;
    tposei_skinny16_tables(&t, s, job->esize, tall);
    tposei_avx2_seams_set(&seams, job, s, tall && stream);
    t.seams = &seams;
    if (tall && seams.on)
        tposei_skinny16_steps(&t, job, s, smax, 1, 1, stream);
    else if (tall)
        tposei_skinny16_steps(&t, job, s, smax, 1, 0, stream);
    else
        tposei_skinny16_steps(&t, job, s, smax, 0, 0, stream);
    tposei_skinny_rest(job, tall, n - n % (64 / job->esize), stream);
}

/* One strip per short side up to 4, then one for 5-8 (as the VBMI strips). */
#define TPOSEI_SKINNY16_STRIP(smax)                                                          \
    TPOSEI_AVX2_KERNEL void tposei_skinny16_strip##smax(const tposei_job *job, int stream)   \
    {                                                                                        \
        tposei_skinny16_strip(job, stream, smax);                                            \
    }
TPOSEI_SKINNY16_STRIP(1)
TPOSEI_SKINNY16_STRIP(2)
TPOSEI_SKINNY16_STRIP(3)
TPOSEI_SKINNY16_STRIP(4)
TPOSEI_SKINNY16_STRIP(8)
#undef TPOSEI_SKINNY16_STRIP

static void tposei_skinny16_run(const tposei_job *job, int stream)
{
    static void (*const strip[9])(const tposei_job *, int) = {
        NULL, tposei_skinny16_strip1, tposei_skinny16_strip2, tposei_skinny16_strip3,
        tposei_skinny16_strip4, tposei_skinny16_strip8, tposei_skinny16_strip8,
        tposei_skinny16_strip8, tposei_skinny16_strip8};
    strip[tposei_skinny_tall(job) ? job->cols : job->rows](job, stream);
}

/* Bytes with a short side of 9-31: the 16x16 network of the 32x32 tiles on 16-byte row
   pieces, one group of 16 columns (tall) or rows (wide) for sides up to 16, two above.
   Tall: vector k holds 16 bytes of source rows k and 16 + k of 32 from byte 16g of each (so
   the next row's first bytes come along and are never stored), and after the network vector
   j is 32 bytes of destination row 16g + j; two such tiles make one line per row. Wide:
   vector k of group g is 32 bytes of source row 16g + k (zero past row S), and after the
   network each lane of vector j holds bytes 16g.. of destination row c + j or c + 16 + j,
   stored 16 wide in row order so that what runs past a row's S bytes is overwritten by the
   next row's stores. Both stop one step before the end, so neither the reads nor the
   overlapping stores pass the matrix; the rest goes through the edge routine. */
TPOSEI_AVX2_INLINE void tposei_rows16_tall(const tposei_job *job, size_t s, size_t groups,
                                           int stream)
{
    const size_t n = job->rows, ds = job->dst_stride;
    tposei_avx2_seams seams;
    __m256i x[16], first[16], carry[TPOSEI_SEAMS16_ROWS][2];
    size_t i, g, h, k, j;
    tposei_avx2_seams_set(&seams, job, s, stream);
    for (i = 0; i + 64 < n; i += 64)
        for (g = 0; g < groups; g++) /* one network instance: neither loop unrolled */
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
                    else if (seams.on)
                        tposei_avx2_seam(&seams, 16 * g + j, job->dst + (16 * g + j) * ds + i,
                                         carry[16 * g + j], first[j], x[j], i == 0);
                    else
                        tposei_avx2_put_line(job->dst + (16 * g + j) * ds + i, first[j], x[j],
                                             stream);
                }
            }
    if (seams.on) /* the rows' tails after their last streamed lines */
        for (j = 0; j < s; j++)
            tposei_avx2_put_line(job->dst + j * ds + i - 64, carry[j][0], carry[j][1], 0);
    tposei_skinny_rest(job, 1, i, stream);
}

/* Streaming, the wide loop's overlapping 16-byte stores go to an L1 buffer of whole steps
   instead, and every TPOSEI_ROWS16_BUF bytes the buffer leaves as one run through the row
   streamer (whole lines non-temporal): stored straight to the destination they never
   streamed (bench/MEASURED.md, "rows16 buffer"). */
#define TPOSEI_ROWS16_BUF 4096
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
                x[g][k] = 16 * g + k < s ? tposei_avx2_load(row) : _mm256_setzero_si256();
            }
            tposei_avx2_net(x[g], 1);
        }
        TPOSEI_UNROLL
        for (lane = 0; lane < 2; lane++)
            TPOSEI_UNROLL
            for (j = 0; j < 16; j++)
                TPOSEI_UNROLL
                for (g = 0; g < groups; g++)
                    _mm_storeu_si128((__m128i *)(void *)(d + (16 * lane + j) * s + 16 * g),
                                     lane ? _mm256_extracti128_si256(x[g][j], 1)
                                          : _mm256_castsi256_si128(x[g][j]));
    }
    if (stream) tposei_stream_row_avx2(job->dst + c0 * s, buf, (c - c0) * s);
    tposei_skinny_rest(job, 0, c, stream);
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
    return tposei_rows16_side(side, job->esize) && (tall || wide) &&
           job->rows + job->cols - side >= 256;
}

/* The wide loops for one group and for two (its vectors in registers), the tall one for
   either. */
TPOSEI_AVX2_KERNEL void tposei_rows16_wide1(const tposei_job *job, size_t s, int stream)
{
    tposei_rows16_wide(job, s, 1, stream);
}
TPOSEI_AVX2_KERNEL void tposei_rows16_wide2(const tposei_job *job, size_t s, int stream)
{
    tposei_rows16_wide(job, s, 2, stream);
}
TPOSEI_AVX2_KERNEL void tposei_rows16_tall_run(const tposei_job *job, size_t s, int stream)
{
    tposei_rows16_tall(job, s, s > 16 ? 2 : 1, stream);
}

static void tposei_rows16_run(const tposei_job *job, int stream)
{
    const int tall = job->cols <= TPOSEI_ROWS16_MAX;
    const size_t s = tall ? job->cols : job->rows;
    if (tall)
        tposei_rows16_tall_run(job, s, stream);
    else
        (s > 16 ? tposei_rows16_wide2 : tposei_rows16_wide1)(job, s, stream);
}

/* Short sides of one 16- or 32-byte vector (w = 16 or 32 bytes of elements; 8 x n floats,
   n x 8 floats, n x 16 2-byte elements), and of 8 bytes as 2-byte pairs: the network of the
   32-byte tiles on whole rows of the short side, where the shuffle network spends S
   shuffles per output vector. Tall: a step is 64/e dense source rows ("network rows" of w
   bytes), by groups of 16 bytes as in the line tiles, and leaves one whole line in each of
   the S destination rows. Wide: a step is 32 bytes of every source row, whose network
   output is 32 * S contiguous destination bytes, leaving as whole lines. Bytes of 8 go
   through the 2-byte network, two source rows of 8 bytes making one network row of 2-byte
   pairs: tall, an in-lane byte shuffle interleaves the two rows before the network; wide,
   the inverse after it splits each pair row into the two destination rows. */
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
    const size_t n = 16 / esize;
    const __m256i mix = tposei_avx2_load(tposei_pairs_in);
    size_t k;
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) {
        x[k] = tposei_avx2_pair(s + k * w, s + (n + k) * w); /* rows k | n + k */
        if (pairs) x[k] = _mm256_shuffle_epi8(x[k], mix);  /* two 8-byte rows interleaved */
    }
    if (n > 1) tposei_avx2_net(x, esize);
}

/* Tall: each step one line of each destination row, joined with its carry where the rows are
   off lines (tposei_avx2_seam). */
TPOSEI_AVX2_INLINE void tposei_vside_tall(const tposei_job *job, tposei_vside v, int stream,
                                          size_t w)
{
    const size_t n = 16 / v.esize, q = 2 * n, ds = job->dst_stride;
    const size_t total = job->rows / (v.pairs ? 2 : 1); /* network rows */
    tposei_avx2_seams sm;
    __m256i x[2][16], carry[TPOSEI_SEAMS16_ROWS][2];
    const __m256i *first = x[0];
    size_t i = 0, g, h, k;
    tposei_avx2_seams_set(&sm, job, job->cols, stream);
    for (; i + 2 * q <= total; i += 2 * q)
        for (g = 0; g < w / 16; g++) {
            const unsigned char *s = job->src + i * w + 16 * g;
            TPOSEI_UNROLL
            for (h = 0; h < 2; h++) /* rows 0..q-1, then q..2q-1 */
                tposei_vside_group(x[h], s + h * q * w, w, v.esize, v.pairs);
            TPOSEI_UNROLL
            for (k = 0; k < n; k++) {
                unsigned char *d = job->dst + (g * n + k) * ds + i * v.esize;
                if (sm.on)
                    tposei_avx2_seam(&sm, g * n + k, d, carry[g * n + k], first[k], x[1][k],
                                     i == 0);
                else
                    tposei_avx2_put_line(d, first[k], x[1][k], stream);
            }
        }
    if (sm.on && i > 0) /* the rows' tails after their last streamed lines */
        for (k = 0; k < job->cols; k++)
            tposei_avx2_put_line(job->dst + k * ds + (i - 2 * q) * v.esize, carry[k][0],
                                 carry[k][1], 0);
    tposei_skinny_rest(job, 1, i * (v.pairs ? 2 : 1), stream);
}

/* Wide: 32 bytes of each of the S source rows per step, as network columns c..c+2n-1 (for
   pairs, 2-byte columns: destination rows two at a time). 16-byte network rows: vector j
   holds destination rows c + j (low lane) and c + n + j, and lanes of four vectors make a
   line. 32-byte ones: two groups of 16 bytes, vector j of group h destination row c + hn + j,
   two vectors a line. Whole lines go straight out where the destination starts on a line,
   else through an L1 buffer of whole steps streamed as one run. */
TPOSEI_AVX2_INLINE void tposei_vside_wide(const tposei_job *job, tposei_vside v, int stream)
{
    const size_t n = 16 / v.esize, w = v.width, ss = job->src_stride;
    const size_t cols = v.pairs ? job->cols / 2 : job->cols; /* network columns */
    const size_t rows = w / v.esize, block = TPOSEI_ROWS16_BUF / (2 * n * w); /* steps */
    const int buffered = stream && ((uintptr_t)job->dst & (TPOSEI_CACHE_LINE - 1));
    const __m256i mix = tposei_avx2_load(tposei_pairs_out);
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
            for (k = 0; k < rows; k++) x[k] = tposei_avx2_load(s + k * ss);
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
            for (h = 0; h < 2; h++) {
                tposei_vside_group(x, s + 16 * h, ss, v.esize, 0);
                TPOSEI_UNROLL
                for (j = 0; j < n; j += 2)
                    tposei_avx2_put_line(d + (h * n + j) * 32, x[j], x[j + 1], stream);
            }
    }
    if (buffered) tposei_stream_row_avx2(job->dst + c0 * w, buf, (c - c0) * w);
    tposei_skinny_rest(job, 0, c * (v.pairs ? 2 : 1), stream);
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
TPOSEI_FORCE_INLINE int tposei_vside_fits(const tposei_job *job)
{
    const int tall = job->cols < job->rows;
    const size_t s = tall ? job->cols : job->rows, esize = job->esize;
    const size_t dense = tall ? job->src_stride : job->dst_stride;
    return dense == s * esize && tposei_vside_of(s, esize, tall).width &&
           (tall ? job->rows : job->cols) >= 256;
}

/* The loops as one function per network element size (its unpacks constants, the pairs
   run-time); the tall loop also per width, which cost n x 8 floats and bytes a tenth of their
   speed on AVX2 at run time (bench/MEASURED.md, "the vector-side width"). Bytes and 16-byte
   elements have no wide geometry. */
#define TPOSEI_VSIDE_FN(e, wide)                                                             \
    TPOSEI_AVX2_KERNEL void tposei_vside_e##e(const tposei_job *job, tposei_vside v,         \
                                              int tall, int stream)                          \
    {                                                                                        \
        v.esize = e;                                                                         \
        if (wide && !tall)                                                                   \
            tposei_vside_wide(job, v, stream);                                               \
        else if (e == 1 || e == 16) /* one copy: the largest network, or rare */             \
            tposei_vside_tall(job, v, stream, v.width);                                      \
        else if (v.width == 16)                                                              \
            tposei_vside_tall(job, v, stream, 16);                                           \
        else                                                                                 \
            tposei_vside_tall(job, v, stream, 32);                                           \
    }
TPOSEI_VSIDE_FN(1, 0)
TPOSEI_VSIDE_FN(2, 1)
TPOSEI_VSIDE_FN(4, 1)
TPOSEI_VSIDE_FN(8, 1)
TPOSEI_VSIDE_FN(16, 0)
#undef TPOSEI_VSIDE_FN

static void tposei_vside_run(const tposei_job *job, int stream)
{
    const int tall = job->cols < job->rows;
    const tposei_vside v = tposei_vside_of(tall ? job->cols : job->rows, job->esize, tall);
    switch (v.esize) {
    case 1: tposei_vside_e1(job, v, tall, stream); return;
    case 2: tposei_vside_e2(job, v, tall, stream); return;
    case 4: tposei_vside_e4(job, v, tall, stream); return;
    case 8: tposei_vside_e8(job, v, tall, stream); return;
    default: tposei_vside_e16(job, v, tall, stream); return;
    }
}

/* The AVX2 skinny family: sides of one vector (vside), bytes with a short side of 9-31
   (rows16), short sides of tposei_skinny16_side (the shuffle network); where none fits such
   a side, shorter than any AVX2 tile, the SWAR kernel rather than the tiles' scalar edges.
   1 when one took the job. */
static int tposei_avx2_strips(const tposei_job *job, int stream)
{
    const size_t side = tposei_min(job->rows, job->cols), esize = job->esize;
    const int rows16 = tposei_rows16_side(side, esize);
    const int skinny = tposei_skinny16_side(side, esize, stream);
    if (tposei_vside_fits(job)) {
        tposei_vside_run(job, stream);
        return 1;
    }
    if (job->rows < job->cols && esize > 1 && !skinny &&
        tposei_vside_of(side, esize, 0).width) { /* padded: see tposei_avx2_declines */
        tposei_run_swar(job);
        return 1;
    }
    if (!rows16 && !skinny) return 0;
    if (rows16 && tposei_rows16_fits(job))
        tposei_rows16_run(job, stream);
    else if (!rows16 && tposei_skinny_fits(job))
        tposei_skinny16_run(job, stream);
    else
        tposei_run_swar(job);
    return 1;
}

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

TPOSEI_AVX512_INLINE __m512i tposei_avx512_load(const unsigned char *p)
{
    return _mm512_loadu_si512((const void *)p);
}

TPOSEI_AVX512_INLINE void tposei_avx512_stream(unsigned char *p, __m512i v)
{
    _mm512_stream_si512((__m512i *)(void *)p, v); /* one whole line */
}

/* tposei_sse2_net in all four 128-bit lanes at once. */
TPOSEI_AVX512_INLINE void tposei_avx512_net(__m512i *x, size_t esize)
{
    const size_t n = 16 / esize, h = n / 2;
    size_t s, i;
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
    const __m256i lo = tposei_avx2_pair(p0, p1); /* r0|r1 */
    const __m256i hi = tposei_avx2_pair(p2, p3); /* r2|r3 */
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1); /* r0..r3 */
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
    const size_t n = 16 / esize;
    size_t k;
    TPOSEI_UNROLL
    for (k = 0; k < n; k++) x[k] = tposei_avx512_gather4(src + k * src_stride, n * src_stride);
    if (n > 1) tposei_avx512_net(x, esize);
}

/* `tiles` (1 or 2) 4n x 4n tiles down a column, n = 16/esize, as four column quarters of n
   elements; each destination row gets its line from every tile back to back. With `nt`
   those rows are stored non-temporally and must start on a cache line. */
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
                unsigned char *line = d + k * dst_stride + t * TPOSEI_CACHE_LINE;
                if (nt)
                    tposei_avx512_stream(line, x[t][k]);
                else
                    _mm512_storeu_si512((void *)line, x[t][k]);
            }
        }
    }
}

/* The tile and its non-temporal form. */
#define TPOSEI_AVX512_TILES(shape, esize)                                                    \
    TPOSEI_AVX512_KERNEL void tposei_##shape##_avx512(unsigned char *dst, size_t dst_stride, \
                                                      const unsigned char *src,              \
                                                      size_t src_stride)                     \
    {                                                                                        \
        tposei_avx512_tiles(dst, dst_stride, src, src_stride, esize, 0, 1);                  \
    }                                                                                        \
    TPOSEI_AVX512_KERNEL void tposei_##shape##_avx512_nt(unsigned char *dst,                \
                                                         size_t dst_stride,                  \
                                                         const unsigned char *src,           \
                                                         size_t src_stride)                  \
    {                                                                                        \
        tposei_avx512_tiles(dst, dst_stride, src, src_stride, esize, 1, 1);                  \
    }
TPOSEI_AVX512_TILES(u8_64x64, 1)
TPOSEI_AVX512_TILES(u32_16x16, 4)
TPOSEI_AVX512_TILES(u64_8x8, 8)
TPOSEI_AVX512_TILES(u128_4x4, 16)
#undef TPOSEI_AVX512_TILES

/* Two tiles of 2-16-byte elements down a column, each destination row's two lines back to
   back (tune: across_pairs). */
#define TPOSEI_AVX512_PAIR(name, esize)                                                      \
    TPOSEI_AVX512_KERNEL void name(unsigned char *dst, size_t dst_stride,                    \
                                   const unsigned char *src, size_t src_stride)              \
    {                                                                                        \
        tposei_avx512_tiles(dst, dst_stride, src, src_stride, esize, 1, 2);                  \
    }
TPOSEI_AVX512_PAIR(tposei_u16_64x32_avx512_nt, 2)
TPOSEI_AVX512_PAIR(tposei_u32_32x16_avx512_nt, 4)
TPOSEI_AVX512_PAIR(tposei_u64_16x8_avx512_nt, 8)
TPOSEI_AVX512_PAIR(tposei_u128_8x4_avx512_nt, 16)
#undef TPOSEI_AVX512_PAIR

/* Eight 64-byte rows become eight columns of 8-byte elements through three levels of 64-bit
   unpacks and 128-bit lane shuffles (24 shuffles); r[k] holds row k on entry and column k on
   return (the 8x8 transpose is its own inverse, so one network serves both directions). */
TPOSEI_AVX512_INLINE void tposei_u64_8x8_regs(__m512i r[8])
{
    /* (lanes 0,2 of a | lanes 0,2 of b) and (lanes 1,3 | lanes 1,3): 128-bit lane picks */
    enum { EVEN = 0x88, ODD = 0xdd };
    static const unsigned char order[8] = {0, 4, 2, 6, 1, 5, 3, 7}; /* row of output k */
    __m512i t[8], u[8];
    size_t k;
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

/* Destination rows off cache lines: a tile's 64-byte row chunk at P, m = P mod 64 bytes past
   a line boundary, completes the line at P - m together with the last m bytes of the chunk
   before it in the same row (its carry), so each line leaves as one non-temporal store; the
   chunk then becomes the carry. Two-source permutes join the pair: words (AVX-512BW) where
   every m is even, bytes (VBMI) otherwise. The index is 0 1 2 ... 63 plus 64 - m (bytes) or
   32 - m/2 (words), built by one add rather than loaded at seq + 64 - m: that load straddles
   two lines (bench/MEASURED.md, "join index"). */
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

/* One output row chunk at `at`, by phase; `carry` is that row's 64 bytes: in an aligned
   buffer for the tiles, in registers where a loop keeps few rows (the skinny and n x 8
   paths). The word and byte forms differ only in the join. */
#define TPOSEI_JOIN_ROW(name, attr, join)                                                   \
    attr void name(unsigned char *at, __m512i chunk, __m512i *carry, int phase)             \
    {                                                                                       \
        const size_t m = (size_t)((uintptr_t)at & (TPOSEI_CACHE_LINE - 1));                 \
        if (phase == TPOSEI_JOIN_BODY)                                                      \
            tposei_avx512_stream(at - m, join(*carry, chunk, m));                           \
        else if (phase == TPOSEI_JOIN_HEAD) /* bytes 0..63-m: up to the end of the line */  \
            _mm512_mask_storeu_epi8(at, ~(uint64_t)0 >> m, chunk);                          \
        *carry = chunk;                                                                     \
    }
TPOSEI_JOIN_ROW(tposei_join_row_w, TPOSEI_AVX512_INLINE, tposei_join_w)
TPOSEI_JOIN_ROW(tposei_join_row_b, TPOSEI_VBMI_INLINE, tposei_join_b)
#undef TPOSEI_JOIN_ROW

/* A joined tile: tposei_avx512_tiles (one), each destination row k through `row` with
   carry row k. */
#define TPOSEI_AVX512_JOIN(name, attr, esize, row)                                           \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride, unsigned char *carry, int phase)                       \
    {                                                                                        \
        const size_t n = 16 / (esize);                                                     \
        size_t g, k;                                                                       \
        __m512i x[16];                                                                       \
        for (g = 0; g < 4; g++) { /* one network instance: the loop is not unrolled */        \
            tposei_avx512_quarter(x, src + g * 16, src_stride, esize);                       \
            TPOSEI_UNROLL                                                                    \
            for (k = 0; k < n; k++)                                                          \
                row(dst + (g * n + k) * dst_stride, x[k], tposei_carry(carry, g * n + k),    \
                    phase);                                                                  \
        }                                                                                    \
    }
#define TPOSEI_AVX512_JOINS(shape, esize)                                                    \
    TPOSEI_AVX512_JOIN(tposei_##shape##_avx512_join_w, TPOSEI_AVX512_KERNEL, esize,          \
                       tposei_join_row_w)                                                    \
    TPOSEI_AVX512_JOIN(tposei_##shape##_avx512_join_b, TPOSEI_VBMI_KERNEL, esize,            \
                       tposei_join_row_b)
TPOSEI_AVX512_JOINS(u8_64x64, 1)
TPOSEI_AVX512_JOINS(u16_32x32, 2)
TPOSEI_AVX512_JOINS(u32_16x16, 4)
TPOSEI_AVX512_JOINS(u64_8x8, 8)
TPOSEI_AVX512_JOINS(u128_4x4, 16)
#undef TPOSEI_AVX512_JOINS
#undef TPOSEI_AVX512_JOIN

/* Rows-once tiles: 64x64 bytes (VBMI) and 32x32 2-byte elements (AVX-512BW) with each
   source line read once, whole. The quarter network reads each line four times, 16 bytes at
   a time, and when the source stride is a multiple of 4 KiB the tile's rows share one L1 set
   and are evicted between quarters. Here rows 8R..8R+7 become 8x8 blocks through the 64-bit
   8x8 network, each block is transposed by one permute and parked in a 4 KiB L1 buffer, and
   a second pass assembles whole destination rows. */
enum { TPOSEI_ROWS_PLAIN, TPOSEI_ROWS_NT, TPOSEI_ROWS_JOIN };

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
    size_t R, k;
    for (R = 0; R < 8; R++) {
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++) /* row 8R+k as eight 8-byte elements */
            r[k] = tposei_avx512_load(src + (8 * R + k) * src_stride);
        tposei_u64_8x8_regs(r); /* r[C]: bytes 8C.. of rows 8R..8R+7, one block */
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            _mm512_store_si512((void *)(mid + 64 * (8 * k + R)),
                               _mm512_permutexvar_epi8(perm, r[k]));
    }
}

/* The second pass for block column C of a parked tile: r[k] becomes destination row 8C+k. */
TPOSEI_AVX512_INLINE void tposei_u8_64x64_unpark(__m512i r[8], const unsigned char *mid,
                                                 size_t C)
{
    size_t k;
    TPOSEI_UNROLL
    for (k = 0; k < 8; k++) r[k] = _mm512_load_si512((const void *)(mid + 64 * (8 * C + k)));
    tposei_u64_8x8_regs(r);
}

/* Stores destination row `d` of a rows-once tile as `store` says: joined with its carry,
   one non-temporal line, or a plain store. */
#define TPOSEI_ROWS_STORE(store, d, v, join_row, carry, phase)                              \
    do {                                                                                    \
        if ((store) == TPOSEI_ROWS_JOIN)                                                    \
            join_row((d), (v), tposei_carry((carry), 0), (phase));                          \
        else if ((store) == TPOSEI_ROWS_NT)                                                 \
            tposei_avx512_stream((d), (v));                                                 \
        else                                                                                \
            _mm512_storeu_si512((void *)(d), (v));                                          \
    } while (0)

TPOSEI_VBMI_INLINE void tposei_u8_64x64_rows(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride,
                                             int store, unsigned char *carry, int phase)
{
    __attribute__((aligned(64))) unsigned char mid[64 * 64];
    __m512i r[8];
    size_t C, k;
    tposei_u8_64x64_park(mid, src, src_stride);
    for (C = 0; C < 8; C++) {
        tposei_u8_64x64_unpark(r, mid, C); /* r[k]: destination row 8C+k */
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            TPOSEI_ROWS_STORE(store, dst + (8 * C + k) * dst_stride, r[k], tposei_join_row_b,
                              carry + 64 * (8 * C + k), phase);
    }
}

/* Four rows-once byte tiles down a tile column (source rows 0-255), for blocks walked down
   (tune: down4): all four parked first (16 KiB of L1), then each block column's eight
   destination rows of every tile, so the stores cycle through 8 rows, four lines each,
   instead of 64 rows one line each (bench/MEASURED.md, "Zen 5: four tiles down"). */
TPOSEI_VBMI_KERNEL void tposei_u8_256x64_vbmi_nt(unsigned char *dst, size_t dst_stride,
                                                 const unsigned char *src, size_t src_stride)
{
    __attribute__((aligned(64))) unsigned char mid[4][64 * 64];
    __m512i r[8];
    size_t t, C, k;
    for (t = 0; t < 4; t++) tposei_u8_64x64_park(mid[t], src + 64 * t * src_stride, src_stride);
    for (C = 0; C < 8; C++)
        for (t = 0; t < 4; t++) {
            tposei_u8_64x64_unpark(r, mid[t], C);
            TPOSEI_UNROLL
            for (k = 0; k < 8; k++)
                tposei_avx512_stream(dst + (8 * C + k) * dst_stride + 64 * t, r[k]);
        }
}

/* 32x32 2-byte elements the same way with AVX-512BW: rows 8R..8R+7 through the 64-bit
   network give 8x4-element blocks, one word permute turns each into 4 destination rows of 8
   elements, parked at mid + 64 * (4C + R); a 4x4 transpose of 128-bit lanes then assembles
   whole destination rows. */
static const uint16_t tposei_u16_8x4_perm[32] = { /* word p from word (p % 8) * 4 + p / 8 */
#define TPOSEI_COL4(j) j, j + 4, j + 8, j + 12, j + 16, j + 20, j + 24, j + 28
    TPOSEI_COL4(0), TPOSEI_COL4(1), TPOSEI_COL4(2), TPOSEI_COL4(3)};
#undef TPOSEI_COL4

TPOSEI_AVX512_INLINE void tposei_u16_32x32_park(unsigned char *mid, const unsigned char *src,
                                                size_t src_stride)
{
    const __m512i perm = _mm512_loadu_si512((const void *)tposei_u16_8x4_perm);
    __m512i r[8];
    size_t R, k;
    for (R = 0; R < 4; R++) {
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++) r[k] = tposei_avx512_load(src + (8 * R + k) * src_stride);
        tposei_u64_8x8_regs(r); /* r[C]: elements 4C..4C+3 of rows 8R..8R+7 */
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            _mm512_store_si512((void *)(mid + 64 * (4 * k + R)),
                               _mm512_permutexvar_epi16(perm, r[k]));
    }
}

/* Destination rows 4C..4C+3 of the parked tile: lane j of part R is row 4C+j, chunk R. */
TPOSEI_AVX512_INLINE void tposei_u16_32x32_assemble(__m512i *out, const unsigned char *mid,
                                                    size_t C)
{
    const unsigned char *p = mid + 256 * C;
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
    size_t C, k;
    tposei_u16_32x32_park(mid, src, src_stride);
    for (C = 0; C < 8; C++) {
        tposei_u16_32x32_assemble(r, mid, C);
        TPOSEI_UNROLL
        for (k = 0; k < 4; k++)
            TPOSEI_ROWS_STORE(store, dst + (4 * C + k) * dst_stride, r[k], tposei_join_row_w,
                              carry + 64 * (4 * C + k), phase);
    }
}

/* The three entry points of a rows-once tile: in cache, non-temporal, joined. */
#define TPOSEI_ROWS_KERNELS(name, attr, rows_fn)                                            \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride)                                                        \
    {                                                                                        \
        rows_fn(dst, dst_stride, src, src_stride, TPOSEI_ROWS_PLAIN, NULL, 0);               \
    }                                                                                        \
    attr void name##_nt(unsigned char *dst, size_t dst_stride, const unsigned char *src,     \
                        size_t src_stride)                                                   \
    {                                                                                        \
        rows_fn(dst, dst_stride, src, src_stride, TPOSEI_ROWS_NT, NULL, 0);                  \
    }                                                                                        \
    attr void name##_join(unsigned char *dst, size_t dst_stride, const unsigned char *src,   \
                          size_t src_stride, unsigned char *carry, int phase)                \
    {                                                                                        \
        rows_fn(dst, dst_stride, src, src_stride, TPOSEI_ROWS_JOIN, carry, phase);           \
    }
TPOSEI_ROWS_KERNELS(tposei_u8_64x64_vbmi, TPOSEI_VBMI_KERNEL, tposei_u8_64x64_rows)
TPOSEI_ROWS_KERNELS(tposei_u16_32x32_bw, TPOSEI_AVX512_KERNEL, tposei_u16_32x32_rows)
#undef TPOSEI_ROWS_KERNELS

/* Bytes 0..n-1 of a 64-byte vector, n <= 64. */
TPOSEI_FORCE_INLINE uint64_t tposei_mask64(size_t n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* The strips whole tiles leave at a matrix's right and bottom, through the whole-tile
   kernel: the corner is staged into an aligned L1 square by masked loads (zeros past it),
   transposed there, and its `cols` destination rows of `rows` elements leave by masked
   stores; the scalar edge routine took about as long as the rest for bytes
   (bench/MEASURED.md, "corner tiles"). */
TPOSEI_AVX512_INLINE void tposei_avx512_part(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride,
                                             size_t rows, size_t cols, size_t esize,
                                             tposei_tile_fn kernel)
{
    __attribute__((aligned(64))) unsigned char in[64 * 64], out[64 * 64];
    const size_t n = 64 / esize;
    const uint64_t load = tposei_mask64(cols * esize), store = tposei_mask64(rows * esize);
    size_t r;
    if (rows == n && cols == n) { /* a whole tile (the seams) */
        kernel(dst, dst_stride, src, src_stride);
        return;
    }
    for (r = 0; r < n; r++)
        _mm512_store_si512((void *)(in + 64 * r),
                           _mm512_maskz_loadu_epi8(r < rows ? load : 0, src + r * src_stride));
    kernel(out, 64, in, 64);
    for (r = 0; r < cols; r++)
        _mm512_mask_storeu_epi8(dst + r * dst_stride, store,
                                _mm512_load_si512((const void *)(out + 64 * r)));
}

#define TPOSEI_AVX512_PART(name, attr, kernel, esize)                                        \
    attr void name(unsigned char *dst, size_t dst_stride, const unsigned char *src,          \
                   size_t src_stride, size_t rows, size_t cols)                              \
    {                                                                                        \
        tposei_avx512_part(dst, dst_stride, src, src_stride, rows, cols, esize, kernel);     \
    }
TPOSEI_AVX512_PART(tposei_u8_64x64_avx512_part, TPOSEI_AVX512_KERNEL, tposei_u8_64x64_avx512, 1)
TPOSEI_AVX512_PART(tposei_u8_64x64_vbmi_part, TPOSEI_AVX512_KERNEL, tposei_u8_64x64_vbmi, 1)
TPOSEI_AVX512_PART(tposei_u16_32x32_bw_part, TPOSEI_AVX512_KERNEL, tposei_u16_32x32_bw, 2)
TPOSEI_AVX512_PART(tposei_u32_16x16_avx512_part, TPOSEI_AVX512_KERNEL, tposei_u32_16x16_avx512,
                   4)
TPOSEI_AVX512_PART(tposei_u64_8x8_avx512_part, TPOSEI_AVX512_KERNEL, tposei_u64_8x8_avx512, 8)
TPOSEI_AVX512_PART(tposei_u128_4x4_avx512_part, TPOSEI_AVX512_KERNEL, tposei_u128_4x4_avx512,
                   16)
#undef TPOSEI_AVX512_PART

/* Seams of a dense destination (each row starting where the one before ends) joined: the
   line where row c ends also holds the start of row c+1, and stored at two times each part
   would be a partial store that reads the line for ownership. So the first band only loads
   its carries, and the last band writes from the last whole line of each row to the first
   whole line of the next as one or two full lines. Bytes of row c, laid out in `s` from
   position full - 64 on: K (its carry), L (its last 64 bytes, at tail = row bytes - full),
   then N (row c+1's first 64 bytes). */
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
        tposei_avx512_stream(line, tposei_avx512_load(s + 64 - m));
        if (m + tail > m2) tposei_avx512_stream(line + 64, tposei_avx512_load(s + 128 - m));
    } else { /* the matrix's last row: m + tail bytes, up to two partial lines */
        const size_t n = m + tail;
        _mm512_mask_storeu_epi8(line, tposei_mask64(n), tposei_avx512_load(s + 64 - m));
        if (n > 64)
            _mm512_mask_storeu_epi8(line + 64, tposei_mask64(n - 64),
                                    tposei_avx512_load(s + 128 - m));
    }
}

/* The seams of destination rows col..col+tile-1 (a tile column of the last band): L from
   the tile of the last `tile` source rows, N from the first tile row one column on; K from
   the carries. `part` transposes both into L1. */
TPOSEI_AVX512_KERNEL void tposei_seam_tiles(const tposei_job *job, size_t col, size_t tile,
                                            tposei_part_fn part, const unsigned char *carry)
{
    __attribute__((aligned(64))) unsigned char last[64 * 64], next[64 * 64];
    const size_t ds = job->dst_stride, esize = job->esize, full = job->rows / tile * tile;
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
TPOSEI_AVX512_KERNEL void tposei_seam_head(unsigned char *dst, const unsigned char *carry)
{
    const size_t m = (size_t)((uintptr_t)dst & (TPOSEI_CACHE_LINE - 1));
    _mm512_mask_storeu_epi8(dst, ~(uint64_t)0 >> m, _mm512_load_si512((const void *)carry));
}

TPOSEI_AVX512_KERNEL void tposei_stream_row_avx512(unsigned char *dst, const unsigned char *buf,
                                                   size_t bytes)
{
    size_t body, o;
    const size_t h = tposei_stream_edges(dst, buf, bytes, &body);
    for (o = h; o < h + body; o += 64) tposei_avx512_stream(dst + o, tposei_avx512_load(buf + o));
}

/* ---- AVX-512 strip kernels: skinny shapes --------------------------------------------- */

/* The VBMI network: 64-byte chunks of the dense side are S vectors, and each output vector
   gathers its 64 bytes from all S of them with two-source byte permutes, one per input pair,
   merged under a byte mask; the index and mask tables are built once per call. Its cost
   grows as S^2, so tall sides of more than TPOSEI_SKINNY_TALL_MAX go to the narrow path's
   quarters and wide sides of whole lines to the tiles (tposei_skinny_net_side). */
#define TPOSEI_SKINNY_TALL_MAX 10

typedef struct tposei_skinny {
    unsigned char idx[TPOSEI_SKINNY_MAX][TPOSEI_SKINNY_MAX / 2][64]; /* [output][pair] */
    uint64_t mask[TPOSEI_SKINNY_MAX][TPOSEI_SKINNY_MAX / 2];       /* bytes from that pair */
    unsigned char perm8[64]; /* short side 8: the byte permute inside each vector */
    size_t s;                /* short side */
    size_t ahead;            /* tune: seq_ahead */
    int joins;               /* tall, streaming, destination rows off lines */
} tposei_skinny;

/* A short side of 8 elements moves 8-byte groups: output m's group k comes from input k's
   group m (tall) or holds input k's bytes (wide). So the chunk is the 8x8 transpose of 64-bit
   elements (tposei_u64_8x8_regs) with one single-source byte permute per vector, the same for
   all eight: before it when tall, after it when wide (bench/MEASURED.md, "skinny sides of
   8"). */
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
    size_t k;
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

/* One chunk: S inputs in, S outputs out, s <= smax (a constant in every caller, so the loops
   unroll and the vectors stay in registers). */
TPOSEI_VBMI_INLINE void tposei_skinny_chunk(const tposei_skinny *t, size_t s, size_t smax,
                                            const __m512i *in, __m512i *out)
{
    size_t m, p;
    TPOSEI_UNROLL
    for (m = 0; m < smax; m++) {
        __m512i acc = _mm512_setzero_si512();
        if (m >= s) continue;
        TPOSEI_UNROLL
        for (p = 0; p < (smax + 1) / 2; p++) {
            if (2 * p < s) {
                const __m512i idx = _mm512_loadu_si512((const void *)t->idx[m][p]);
                const __m512i hi = in[2 * p + 1 < s ? 2 * p + 1 : 2 * p];
                /* bytes of output m that live in inputs 2p, 2p+1, gathered; zero elsewhere */
                acc = _mm512_or_si512(
                    acc, _mm512_maskz_permutex2var_epi8(t->mask[m][p], in[2 * p], idx, hi));
            }
        }
        out[m] = acc;
    }
}

/* Sides of 5-7 and 9-16: the network out of line, in and out through L1, one copy per
   bucket instead of one in each loop that runs it (bench/MEASURED.md, "skinny buckets"). */
#define TPOSEI_SKINNY_CHUNK_FN(smax)                                                         \
    TPOSEI_VBMI_KERNEL void tposei_skinny_chunk##smax(const tposei_skinny *t, size_t s,      \
                                                      const __m512i *in, __m512i *out)       \
    {                                                                                        \
        tposei_skinny_chunk(t, s, smax, in, out);                                            \
    }
TPOSEI_SKINNY_CHUNK_FN(7)
TPOSEI_SKINNY_CHUNK_FN(16)
#undef TPOSEI_SKINNY_CHUNK_FN

/* An empty asm on a loaded vector, so the optimiser keeps the load a load: Clang's
   loop-idiom pass turned the tall loop's loads of whole lines, spilled to the stack, into a
   call to memcpy, which TPOSE_NO_STDLIB promises never happens. */
#define TPOSEI_VEC_OPAQUE(v) __asm__("" : "+v"(v))

/* The chunk at element i of the long side: its S input vectors loaded (the dense side
   prefetched t->ahead bytes on: beside the non-temporal stores the hardware prefetchers left
   those streams short, bench/MEASURED.md "SEQ_AHEAD") and through the network. The address is
   formed as an integer: it may lie past the end of the source, which a prefetch never faults
   on but pointer arithmetic may not reach. */
TPOSEI_VBMI_INLINE void tposei_skinny_load(const tposei_skinny *t, const tposei_job *job,
                                           int tall, size_t i, size_t k, __m512i *in)
{
    const unsigned char *p = tall ? job->src + i * job->src_stride + 64 * k
                                   : job->src + k * job->src_stride + i * job->esize;
    __builtin_prefetch((const void *)((uintptr_t)p + t->ahead), 0, 3);
    in[k] = tposei_avx512_load(p);
    TPOSEI_VEC_OPAQUE(in[k]);
}

TPOSEI_VBMI_INLINE void tposei_skinny_step(const tposei_skinny *t, const tposei_job *job,
                                           size_t s, size_t smax, int tall, size_t i,
                                           __m512i *out)
{
    __m512i in[TPOSEI_SKINNY_MAX];
    size_t k;
    if (smax == 7 || smax > 8) /* far buckets: their networks run out of line, in L1 */
        for (k = 0; k < s; k++) tposei_skinny_load(t, job, tall, i, k, in);
    else
        TPOSEI_UNROLL
        for (k = 0; k < smax; k++)
            if (k < s) tposei_skinny_load(t, job, tall, i, k, in);
    if (smax == 8)
        tposei_skinny8_chunk(t, tall, in, out);
    else if (smax == 7)
        tposei_skinny_chunk7(t, s, in, out);
    else if (smax == 16)
        tposei_skinny_chunk16(t, s, in, out);
    else
        tposei_skinny_chunk(t, s, smax, in, out);
}

/* Chunks i.. and i + 64 / esize.. of a tall job on lines: both through the network, then
   each destination row's two lines, non-temporal. */
TPOSEI_VBMI_INLINE void tposei_skinny_tall_pair(const tposei_skinny *t, const tposei_job *job,
                                                size_t s, size_t smax, size_t i)
{
    const size_t ds = job->dst_stride, esize = job->esize;
    __m512i out[2][TPOSEI_SKINNY_MAX];
    size_t k;
    tposei_skinny_step(t, job, s, smax, 1, i, out[0]);
    tposei_skinny_step(t, job, s, smax, 1, i + 64 / esize, out[1]);
    TPOSEI_UNROLL
    for (k = 0; k < smax; k++) {
        unsigned char *d = job->dst + k * ds + i * esize;
        if (k >= s) continue;
        tposei_avx512_stream(d, out[0][k]);
        tposei_avx512_stream(d + 64, out[1][k]);
    }
}

/* The long side's first parts * part elements as `parts` parts in turn, two chunks of each
   at a time (tune: skinny_parts; four sequential source streams where one left the memory
   idle, bench/MEASURED.md "SKINNY_PARTS"); returns that count, where the one-chunk loop goes
   on. */
TPOSEI_VBMI_INLINE size_t tposei_skinny_tall_parts(const tposei_skinny *t,
                                                   const tposei_job *job, size_t s, size_t smax,
                                                   size_t parts)
{
    const size_t per = 64 / job->esize, step = 2 * per; /* two chunks */
    const size_t part = job->rows / step / parts * step;
    size_t i, p;
    for (i = 0; i < part; i += step)
        for (p = 0; p < parts; p++) tposei_skinny_tall_pair(t, job, s, smax, i + p * part);
    return parts * part;
}

/* After a row's joined chunks, ending at `end`: the last chunk's bytes past its last line
   (the carry's last m bytes). */
TPOSEI_AVX512_INLINE void tposei_join_tail(unsigned char *end, __m512i carry)
{
    const size_t m = (size_t)((uintptr_t)end & (TPOSEI_CACHE_LINE - 1));
    _mm512_mask_storeu_epi8(end - 64, ~(~(uint64_t)0 >> m), carry);
}

/* Output k of the chunk at element i: joined, a whole line non-temporal, or plain. */
TPOSEI_VBMI_INLINE void tposei_skinny_put(const tposei_job *job, int tall, int stream, int joins,
                                          size_t i, size_t k, const __m512i *out,
                                          __m512i *carry)
{
    unsigned char *d = tall ? job->dst + k * job->dst_stride + i * job->esize
                            : job->dst + i * job->dst_stride + 64 * k;
    if (joins)
        tposei_join_row_b(d, out[k], &carry[k], i ? TPOSEI_JOIN_BODY : TPOSEI_JOIN_HEAD);
    else if (stream && ((uintptr_t)d & (TPOSEI_CACHE_LINE - 1)) == 0)
        tposei_avx512_stream(d, out[k]); /* a whole line */
    else
        _mm512_storeu_si512((void *)d, out[k]);
}

/* The skinny loop: whole chunks through the permute network. Tall: source rows i.. are one
   dense run, destination rows are long; wide: the mirror image. With `stream`, the stores
   that cover a whole line are non-temporal, and tall destination rows off lines are joined
   with their carries (t->joins, in registers). It starts at element `from` of the long side
   (the first elements taken by tposei_skinny_tall_parts). */
TPOSEI_VBMI_INLINE void tposei_skinny_loop(const tposei_skinny *t, const tposei_job *job,
                                           size_t s, size_t smax, int tall, int stream,
                                           size_t from)
{
    const size_t esize = job->esize, per = 64 / esize, n = tall ? job->rows : job->cols;
    const size_t ds = job->dst_stride;
    __m512i out[TPOSEI_SKINNY_MAX], carry[TPOSEI_SKINNY_MAX];
    const int joins = t->joins;
    size_t i, k;
    for (i = from; i + per <= n; i += per) {
        tposei_skinny_step(t, job, s, smax, tall, i, out);
        if (smax == 7 || smax > 8)
            for (k = 0; k < s; k++)
                tposei_skinny_put(job, tall, stream, joins, i, k, out, carry);
        else
            TPOSEI_UNROLL
            for (k = 0; k < smax; k++)
                if (k < s) tposei_skinny_put(job, tall, stream, joins, i, k, out, carry);
    }
    if (joins) /* the last chunk's bytes past its line */
        for (k = 0; k < s; k++) tposei_join_tail(job->dst + k * ds + i * esize, carry[k]);
}

/* The VBMI skinny strip for short sides up to smax: tables, then the loop specialised for
   its common case (streaming tall rows on lines, after the parts) and the general ones. */
TPOSEI_VBMI_INLINE void tposei_skinny_strip(const tposei_job *job, int stream, size_t smax)
{
    const tposei_tune *tune = tposei_tune_get();
    tposei_skinny t;
    const int tall = tposei_skinny_tall(job);
    const size_t n = tall ? job->rows : job->cols;
    /* short sides up to 4 have a strip each: their side a constant */
    const size_t s = smax <= 4 ? smax : tall ? job->cols : job->rows;
    const int on_lines = ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE == 0;
    tposei_skinny_tables(&t, s, job->esize, tall);
    t.ahead = tune->seq_ahead;
    t.joins = tall && stream && !on_lines;
    if (tall && stream && on_lines)
        tposei_skinny_loop(&t, job, s, smax, 1, 1,
                           tune->skinny_parts > 1
                               ? tposei_skinny_tall_parts(&t, job, s, smax, tune->skinny_parts)
                               : 0);
    else if (tall)
        tposei_skinny_loop(&t, job, s, smax, 1, stream, 0);
    else
        tposei_skinny_loop(&t, job, s, smax, 0, stream, 0);
    tposei_skinny_rest(job, tall, n - n % (64 / job->esize), stream);
}

/* One strip per short side up to 4 (a bucket with guarded lanes ran up to 1.5x the
   instructions there: bench/MEASURED.md, "skinny buckets"), then buckets 5-7, 8 (the 64-bit
   network) and 9-16. */
#define TPOSEI_SKINNY_STRIP(smax)                                                            \
    TPOSEI_VBMI_KERNEL void tposei_skinny_strip##smax(const tposei_job *job, int stream)     \
    {                                                                                        \
        tposei_skinny_strip(job, stream, smax);                                              \
    }
TPOSEI_SKINNY_STRIP(1)
TPOSEI_SKINNY_STRIP(2)
TPOSEI_SKINNY_STRIP(3)
TPOSEI_SKINNY_STRIP(4)
TPOSEI_SKINNY_STRIP(7)
TPOSEI_SKINNY_STRIP(8)
TPOSEI_SKINNY_STRIP(16)
#undef TPOSEI_SKINNY_STRIP

static void tposei_skinny_run(const tposei_job *job, int stream)
{
    static void (*const strip[17])(const tposei_job *, int) = {
        NULL,                  tposei_skinny_strip1,  tposei_skinny_strip2,
        tposei_skinny_strip3,  tposei_skinny_strip4,  tposei_skinny_strip7,
        tposei_skinny_strip7,  tposei_skinny_strip7,  tposei_skinny_strip8,
        tposei_skinny_strip16, tposei_skinny_strip16, tposei_skinny_strip16,
        tposei_skinny_strip16, tposei_skinny_strip16, tposei_skinny_strip16,
        tposei_skinny_strip16, tposei_skinny_strip16};
    strip[tposei_skinny_tall(job) ? job->cols : job->rows](job, stream);
}

/* One output line: non-temporal when asked and the line is whole. */
TPOSEI_AVX512_INLINE void tposei_tall8_store(unsigned char *d, __m512i v, int stream)
{
    if (stream && ((uintptr_t)d & (TPOSEI_CACHE_LINE - 1)) == 0)
        tposei_avx512_stream(d, v);
    else
        _mm512_storeu_si512((void *)d, v);
}

/* `pairs` (1 or 2) chunks of eight AoS rows from `aos` (row stride `as`): tall (wide = 0)
   to one line of each of the eight SoA rows rows[k] + o per chunk; wide, the mirror image.
   Two chunks store two neighbouring lines per SoA row, row by row (128-byte runs). */
TPOSEI_AVX512_INLINE void tposei_rows8_chunks(unsigned char *aos, size_t as,
                                              unsigned char *const *rows, size_t o,
                                              size_t pairs, int wide, int stream,
                                              __m512i *carry)
{
    __m512i v[2][8];
    size_t k, h;
    for (h = 0; h < pairs; h++) {
        TPOSEI_UNROLL
        for (k = 0; k < 8; k++)
            v[h][k] = tposei_avx512_load(wide ? rows[k] + o + 64 * h : aos + (8 * h + k) * as);
        tposei_u64_8x8_regs(v[h]);
    }
    TPOSEI_UNROLL
    for (k = 0; k < 8; k++)
        for (h = 0; h < pairs; h++)
            if (carry) /* tall, rows off lines: joined */
                tposei_join_row_w(rows[k] + o + 64 * h, v[h][k], &carry[k],
                                  o + h ? TPOSEI_JOIN_BODY : TPOSEI_JOIN_HEAD);
            else
                tposei_tall8_store(wide ? aos + (8 * h + k) * as : rows[k] + o + 64 * h,
                                   v[h][k], stream);
}

/* Eight source rows (stride ss) to one line of each destination row (stride ds); only the
   source is read. */
TPOSEI_AVX512_INLINE void tposei_tall8_chunk(unsigned char *dst, size_t ds,
                                             const unsigned char *src, size_t ss, int stream)
{
    unsigned char *rows[8];
    size_t k;
    for (k = 0; k < 8; k++) rows[k] = dst + k * ds;
    /* the AoS side is only read in the tall direction */
    tposei_rows8_chunks((unsigned char *)(uintptr_t)src, ss, rows, 0, 1, 0, stream, NULL);
}

#if defined(TPOSEI_TESTING)
/* The chunk as tile kernels, for the twin tests. */
TPOSEI_AVX512_KERNEL void tposei_u64_tall8_avx512(unsigned char *dst, size_t dst_stride,
                                                  const unsigned char *src, size_t src_stride)
{
    tposei_tall8_chunk(dst, dst_stride, src, src_stride, 0);
}
TPOSEI_AVX512_KERNEL void tposei_u64_tall8_avx512_nt(unsigned char *dst, size_t dst_stride,
                                                     const unsigned char *src, size_t src_stride)
{
    tposei_tall8_chunk(dst, dst_stride, src, src_stride, 1);
}
#endif

/* `tiles` 8x8 tiles of 8-byte elements in a row, the i-th from src + i * sstep to
   dst + i * dstep, stored normally (the kit's strip8, for the in-place skinny blocks). */
TPOSEI_AVX512_KERNEL void tposei_u64_8x8_strip(unsigned char *dst, size_t ds,
                                               const unsigned char *src, size_t ss, size_t tiles,
                                               size_t dstep, size_t sstep)
{
    size_t i;
    for (i = 0; i < tiles; i++) tposei_tall8_chunk(dst + i * dstep, ds, src + i * sstep, ss, 0);
}

/* Tall, streaming to SoA rows on lines: the first elements as `parts` parts in turn, two
   chunks of each at a time (tune: skinny_parts). Returns the count taken. */
TPOSEI_AVX512_INLINE size_t tposei_rows8_parts(unsigned char *aos, size_t as,
                                               unsigned char *const *rows, size_t n,
                                               size_t parts)
{
    const size_t part = n / 16 / parts * 16;
    size_t i, p;
    for (i = 0; i < part; i += 16)
        for (p = 0; p < parts; p++)
            tposei_rows8_chunks(aos + (i + p * part) * as, as, rows, (i + p * part) * 8, 2, 0,
                                1, NULL); /* whole lines, non-temporal */
    return parts * part;
}

/* The n x 8 loop either way: pairs of chunks in order (one sequential AoS stream, 128-byte
   runs of each SoA row; wide one chunk at a time where tune rows8_wide_pairs is 0), then a
   chunk, and returns where the element loop goes on. */
TPOSEI_AVX512_INLINE size_t tposei_rows8_loop(unsigned char *aos, size_t as,
                                              unsigned char *const *rows, size_t from,
                                              size_t n, int wide, int stream, __m512i *carry,
                                              int pairs)
{
    size_t i = from; /* the elements before it went through tposei_rows8_parts */
    if (!wide || pairs)
        for (; i + 16 <= n; i += 16)
            tposei_rows8_chunks(aos + i * as, as, rows, i * 8, 2, wide, stream, carry);
    for (; i + 8 <= n; i += 8)
        tposei_rows8_chunks(aos + i * as, as, rows, i * 8, 1, wide, stream, carry);
    return i;
}

/* n x 8 doubles (AoS of 8 doubles to SoA, and back): eight 64-byte rows become eight columns
   through tposei_u64_8x8_regs. `store` says how tall rows leave: TPOSEI_ROWS_JOIN joined
   with a carry per row (their offsets are even), TPOSEI_ROWS_NT on lines (first in parts,
   tune: skinny_parts), otherwise each line non-temporal where `stream` and whole. */
TPOSEI_AVX512_KERNEL void tposei_rows8_run(unsigned char *aos, size_t as,
                                           unsigned char *const *rows, size_t n, int wide,
                                           int stream, int store)
{
    const tposei_tune *t = tposei_tune_get();
    __m512i carry[8];
    size_t i;
    size_t k;
    TPOSE_ASSERT(!wide || store == TPOSEI_ROWS_PLAIN);
    if (store == TPOSEI_ROWS_JOIN) {
        i = tposei_rows8_loop(aos, as, rows, 0, n, 0, 1, carry, 1);
        if (i)
            for (k = 0; k < 8; k++) tposei_join_tail(rows[k] + i * 8, carry[k]);
    } else {
        const int parts = store == TPOSEI_ROWS_NT && t->skinny_parts > 1;
        i = tposei_rows8_loop(aos, as, rows,
                              parts ? tposei_rows8_parts(aos, as, rows, n, t->skinny_parts) : 0,
                              n, wide, stream, NULL, t->rows8_wide_pairs);
    }
    if (stream) tposei_stream_fence();
    tposei_rows8_scalar(aos, as, rows, i, n, wide);
}

/* How a tall job's destination rows leave: plain stores without `stream`; one non-temporal
   line each where every row is on lines; else joined with each row's carry (word joins where
   every offset is even, byte joins with VBMI), or plain at odd offsets without VBMI. */
static int tposei_rows_store(const tposei_job *job, int stream, int vbmi)
{
    const uintptr_t at = (uintptr_t)job->dst | job->dst_stride;
    if (!stream) return TPOSEI_ROWS_PLAIN;
    if (at % TPOSEI_CACHE_LINE == 0) return TPOSEI_ROWS_NT;
    return at % 2 == 0 || vbmi ? TPOSEI_ROWS_JOIN : TPOSEI_ROWS_PLAIN;
}

/* The n x 8 job either way: tall (n rows of 8), destination rows every dst_stride bytes;
   wide (8 rows of n), source rows every src_stride bytes. */
static void tposei_rows8_job(const tposei_job *job, int wide, int stream)
{
    unsigned char *rows[8];
    unsigned char *src = (unsigned char *)(uintptr_t)job->src; /* only read */
    size_t k;
    for (k = 0; k < 8; k++)
        rows[k] = wide ? src + k * job->src_stride : job->dst + k * job->dst_stride;
    if (wide)
        tposei_rows8_run(job->dst, job->dst_stride, rows, job->cols, 1, stream,
                         TPOSEI_ROWS_PLAIN);
    else
        tposei_rows8_run(src, job->src_stride, rows, job->rows, 0, stream,
                         tposei_rows_store(job, stream, 0));
}

/* Short sides of TPOSEI_SKINNY_MAX + 1 (tall: TPOSEI_SKINNY_TALL_MAX + 1) .. TPOSEI_NARROW_MAX
   elements whose rows are not whole lines (the narrow path): the long side's chunks of 64
   bytes, each transposed by as many 16-byte column quarters as the short side needs.
   Tall (n x S source): per 64/esize source rows, quarter g gives destination rows
   g*16/esize.., one 64-byte chunk each: a whole line, or joined with the row's carry where
   rows are off lines. Wide (S x n source): per 64/esize source columns, the S source rows
   in tiles of 64/esize rows (and the last rows in blocks of 16/esize, each 16 bytes of the
   destination rows) give 64/esize destination rows of S elements, packed in an L1 buffer;
   a dense destination then takes them as S whole lines, one store each. The source is
   prefetched into L2 a fixed number of chunks ahead, a few lines before each quarter
   (bench/MEASURED.md, "the narrow path"). */
#define TPOSEI_NARROW_MAX 63
#define TPOSEI_NARROW_AHEAD 8      /* tall chunks */
#define TPOSEI_NARROW_WIDE_AHEAD 4 /* wide chunks */

/* 1 when a side of `side` elements is narrow and the other has at least 4 chunks of 64
   bytes and one element more (a tall chunk's last quarter may read up to 15 bytes past its
   rows: into the next row, which must exist). Sides of whole lines are left to the tiles. */
TPOSEI_FORCE_INLINE int tposei_narrow_side(size_t side, size_t other, size_t esize, int tall)
{
    return side > (tall ? TPOSEI_SKINNY_TALL_MAX : TPOSEI_SKINNY_MAX) &&
           side <= TPOSEI_NARROW_MAX && side * esize % TPOSEI_CACHE_LINE != 0 &&
           other > 256 / esize;
}

/* 1 when the narrow path takes a rows x cols job of esize-byte elements (tall first). */
static int tposei_narrow_fits(size_t rows, size_t cols, size_t esize)
{
    if (esize != 1 && esize != 2 && esize != 4 && esize != 8) return 0;
    return tposei_narrow_side(cols, rows, esize, 1) || tposei_narrow_side(rows, cols, esize, 0);
}

/* Prefetches the `bytes` from p on into L2: the lines at p, p + 64, ... and the last. */
TPOSEI_FORCE_INLINE void tposei_prefetch_span(const unsigned char *p, size_t bytes)
{
    size_t o;
    for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_PREFETCH_L2(p + o);
    TPOSEI_PREFETCH_L2(p + bytes - 1);
}

/* Share g of q of the prefetch of a tall chunk: `per` rows of `span` bytes from src on.
   Rows closer than two lines are taken as one span of lines. */
TPOSEI_FORCE_INLINE void tposei_narrow_tall_prefetch(const unsigned char *src, size_t ss,
                                                     size_t span, size_t per, size_t g,
                                                     size_t q)
{
    size_t r;
    if (ss < (size_t)2 * TPOSEI_CACHE_LINE) {
        const size_t bytes = (per - 1) * ss + span;
        const size_t lines = (bytes + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE;
        for (r = g * lines / q; r < (g + 1) * lines / q; r++)
            TPOSEI_PREFETCH_L2(src + r * TPOSEI_CACHE_LINE);
        return;
    }
    for (r = g * per / q; r < (g + 1) * per / q; r++) tposei_prefetch_span(src + r * ss, span);
}

/* A row joined by bytes (VBMI) from the narrow path's AVX-512 code: a call, so that the
   rest of that code never runs an instruction a CPU without VBMI lacks. */
TPOSEI_VBMI_KERNEL void tposei_narrow_join_b(unsigned char *d, const __m512i *v,
                                             unsigned char *carry, int phase)
{
    tposei_join_row_b(d, *v, tposei_carry(carry, 0), phase);
}

/* Stores destination row `d` of a quarter as `store` says (TPOSEI_ROWS_*), joining by
   words or, with `bytes`, by bytes (VBMI). */
TPOSEI_AVX512_INLINE void tposei_narrow_store(unsigned char *d, __m512i v, int store, int bytes,
                                              unsigned char *carry, int phase)
{
    if (store == TPOSEI_ROWS_JOIN && bytes)
        tposei_narrow_join_b(d, &v, carry, phase);
    else if (store == TPOSEI_ROWS_JOIN)
        tposei_join_row_w(d, v, tposei_carry(carry, 0), phase);
    else if (store == TPOSEI_ROWS_NT)
        tposei_avx512_stream(d, v);
    else
        _mm512_storeu_si512((void *)d, v);
}

/* Rows k < live of a quarter's first `kmax` (a constant, so the compiler leaves out the
   network's other rows: a last quarter of at most n/4 rows takes kmax = n/4). */
TPOSEI_AVX512_INLINE void tposei_narrow_quarter_rows(unsigned char *d, size_t ds,
                                                   const unsigned char *src, size_t ss,
                                                   size_t esize, size_t kmax, size_t live,
                                                   int store, int bytes, unsigned char *carry,
                                                   int phase)
{
    size_t k;
    __m512i x[16];
    tposei_avx512_quarter(x, src, ss, esize);
    TPOSEI_UNROLL
    for (k = 0; k < kmax; k++)
        if (k < live) tposei_narrow_store(d + k * ds, x[k], store, bytes, carry + 64 * k, phase);
}

/* Tall chunks 0..chunks-1: source rows 64c/esize.. to bytes 64c.. of destination rows
   0..S-1; with joins, carry + 64d is row d's. Each quarter g first prefetches its share of
   the rows of the chunk TPOSEI_NARROW_AHEAD on. */
TPOSEI_AVX512_INLINE void tposei_narrow_tall_chunks(const tposei_job *job, size_t esize,
                                                  size_t chunks, int store, int bytes,
                                                  unsigned char *carry)
{
    const size_t n = 16 / esize, per = 64 / esize, s = job->cols, q = (s + n - 1) / n;
    const size_t ss = job->src_stride, ds = job->dst_stride, live = s - (q - 1) * n;
    size_t c, g;
    for (c = 0; c < chunks; c++) {
        const unsigned char *src = job->src + c * per * ss;
        const int ahead = c + TPOSEI_NARROW_AHEAD < chunks;
        const int phase = c ? TPOSEI_JOIN_BODY : TPOSEI_JOIN_HEAD;
        for (g = 0; g < q; g++) {
            unsigned char *d = job->dst + g * n * ds + 64 * c;
            unsigned char *cg = carry + 64 * g * n;
            if (ahead)
                tposei_narrow_tall_prefetch(src + TPOSEI_NARROW_AHEAD * per * ss, ss, s * esize,
                                            per, g, q);
            if (g + 1 == q && n >= 4 && live <= n / 4)
                tposei_narrow_quarter_rows(d, ds, src + 16 * g, ss, esize, n / 4, live, store,
                                           bytes, cg, phase);
            else
                tposei_narrow_quarter_rows(d, ds, src + 16 * g, ss, esize, n,
                                           g + 1 < q ? n : live, store, bytes, cg, phase);
        }
    }
}

/* The tall chunks as one function per element size (the network's unpacks constants). */
#define TPOSEI_NARROW_TALL_FN(e)                                                             \
    TPOSEI_AVX512_KERNEL void tposei_narrow_tall_e##e(const tposei_job *job, size_t chunks,    \
                                                    int store, int bytes,                    \
                                                    unsigned char *carry)                    \
    {                                                                                        \
        tposei_narrow_tall_chunks(job, e, chunks, store, bytes, carry);                      \
    }
TPOSEI_NARROW_TALL_FN(1)
TPOSEI_NARROW_TALL_FN(2)
TPOSEI_NARROW_TALL_FN(4)
TPOSEI_NARROW_TALL_FN(8)
#undef TPOSEI_NARROW_TALL_FN

/* The tall job: whole chunks, the carries' last bytes, then the rows left (at most one
   chunk's) through the scalar edge routine. Rows off lines join where every offset is even
   or the CPU has VBMI; without `stream`, or at odd offsets without VBMI, plain stores. The
   byte joins need VBMI: with `store` a join at an odd offset, the CPU has it. */
TPOSEI_AVX512_KERNEL void tposei_narrow_tall(const tposei_job *job, int stream)
{
    __attribute__((aligned(64))) unsigned char carry[64 * TPOSEI_NARROW_MAX];
    const size_t esize = job->esize, per = 64 / esize, s = job->cols, ds = job->dst_stride;
    const size_t chunks = (job->rows - 1) / per, done = chunks * per;
    const int store = tposei_rows_store(job, stream, tposei_cpu_has(TPOSEI_ISA_VBMI));
    const int bytes = store == TPOSEI_ROWS_JOIN && ((uintptr_t)job->dst | ds) % 2;
    size_t d;
    switch (esize) {
    case 1: tposei_narrow_tall_e1(job, chunks, store, bytes, carry); break;
    case 2: tposei_narrow_tall_e2(job, chunks, store, bytes, carry); break;
    case 4: tposei_narrow_tall_e4(job, chunks, store, bytes, carry); break;
    default: tposei_narrow_tall_e8(job, chunks, store, bytes, carry); break;
    }
    if (store == TPOSEI_ROWS_JOIN)
        for (d = 0; d < s; d++)
            tposei_join_tail(job->dst + d * ds + done * esize, *tposei_carry(carry, d));
    if (stream) tposei_stream_fence();
    tposei_rect(job->dst + done * esize, ds, job->src + done * job->src_stride, job->src_stride,
                job->rows - done, s, esize);
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
    const __mmask16 m = (__mmask16)(keep < 16 ? (1u << keep) - 1 : 0xFFFFu);
    _mm_mask_storeu_epi8(d, m, _mm512_castsi512_si128(x));
    _mm_mask_storeu_epi8(d + step, m, _mm512_extracti32x4_epi32(x, 1));
    _mm_mask_storeu_epi8(d + 2 * step, m, _mm512_extracti32x4_epi32(x, 2));
    _mm_mask_storeu_epi8(d + 3 * step, m, _mm512_extracti32x4_epi32(x, 3));
}

/* A wide chunk's source columns (64 bytes at src, S rows) and where its rows go. `steps`
   (0: none) spreads the prefetch of the chunk TPOSEI_NARROW_WIDE_AHEAD on over the chunk. */
typedef struct tposei_wide_chunk {
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
        TPOSEI_PREFETCH_L2(ch->src + r * ch->src_stride + (size_t)64 * TPOSEI_NARROW_WIDE_AHEAD);
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
        x[k] = tposei_avx512_load(ch->src + tposei_min(b * n + k, ch->rows - 1) * ch->src_stride);
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
        for (k = 0; k < n; k++)
            _mm512_mask_storeu_epi8(ch->out + (g * n + k) * ch->os + 64 * t, tposei_mask64(keep),
                                    x[k]);
    }
}

/* 1 when a wide row's last bytes, `rest` 16-byte blocks after `tiles` tiles of 64, go as
   blocks (else as one more tile; bench/MEASURED.md, "the narrow path"). */
TPOSEI_FORCE_INLINE int tposei_narrow_split(size_t tiles, size_t rest)
{
    return rest == 1 || (tiles == 0 && rest < 4);
}

/* Wide chunk c: source columns 64c/esize.. of the S rows to the 64/esize destination rows of
   S elements (w bytes) they make, row j at out + j * os. The rows go in tiles of 64/esize;
   the w % 64 bytes left take their own 16-byte blocks where tposei_narrow_split says, else
   one more tile. The unit holding the rows' last bytes goes first: packed (os = w), whole
   vectors are stored and the bytes each writes past its row are written again by the next
   row's later units; `exact` stores in part instead. */
TPOSEI_AVX512_INLINE void tposei_narrow_wide_chunk(const tposei_job *job, size_t esize,
                                                   size_t c, unsigned char *out, size_t os,
                                                   int exact, int ahead)
{
    const size_t s = job->rows, w = s * esize, tiles = w / 64, rest = (w % 64 + 15) / 16;
    const int split = tposei_narrow_split(tiles, rest);
    const size_t units = tiles + (split ? rest : rest != 0);
    const size_t steps = 4 * tiles + (split ? rest : 4 * (size_t)(rest != 0));
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
   destination. The columns left (at most one chunk's) go through the edge routine. */
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
                _mm512_mask_storeu_epi8(job->dst, ~(uint64_t)0 >> m, tposei_avx512_load(buf + m));
            else
                tposei_avx512_stream(line + 64 * l, _mm512_load_si512((const void *)(buf + 64 * l)));
        _mm512_store_si512((void *)buf, _mm512_load_si512((const void *)(buf + 64 * s)));
    }
    if (packed) {
        tposei_copy_short(job->dst + done * ds - m, buf, m);
        tposei_stream_fence();
    }
    tposei_rect(job->dst + done * ds, ds, job->src + done * esize, job->src_stride, s,
                job->cols - done, esize);
}

#define TPOSEI_NARROW_WIDE_FN(e)                                                             \
    TPOSEI_AVX512_KERNEL void tposei_narrow_wide_e##e(const tposei_job *job, int stream)     \
    {                                                                                        \
        tposei_narrow_wide_esize(job, e, stream);                                            \
    }
TPOSEI_NARROW_WIDE_FN(1)
TPOSEI_NARROW_WIDE_FN(2)
TPOSEI_NARROW_WIDE_FN(4)
TPOSEI_NARROW_WIDE_FN(8)
#undef TPOSEI_NARROW_WIDE_FN

/* The narrow path where it fits; 1 when it ran. */
static int tposei_try_narrow(const tposei_job *job, int stream)
{
    if (!tposei_narrow_fits(job->rows, job->cols, job->esize)) return 0;
    if (tposei_narrow_side(job->cols, job->rows, job->esize, 1)) {
        tposei_narrow_tall(job, stream);
        return 1;
    }
    switch (job->esize) {
    case 1: tposei_narrow_wide_e1(job, stream); break;
    case 2: tposei_narrow_wide_e2(job, stream); break;
    case 4: tposei_narrow_wide_e4(job, stream); break;
    default: tposei_narrow_wide_e8(job, stream); break;
    }
    return 1;
}

/* 1 when the VBMI network should take this skinny job: a short side not of whole lines, and
   if tall, of at most TPOSEI_SKINNY_TALL_MAX elements or too short a long side for the
   narrow path; the other sides go to the narrow path (tall) or the tiles. */
TPOSEI_FORCE_INLINE int tposei_skinny_net_side(const tposei_job *job)
{
    const int tall = tposei_skinny_tall(job);
    const size_t s = tall ? job->cols : job->rows, esize = job->esize;
    if (s * esize % TPOSEI_CACHE_LINE == 0) return 0;
    return !tall || s <= TPOSEI_SKINNY_TALL_MAX || !tposei_narrow_side(s, job->rows, esize, 1);
}

/* 1 when AVX2's 16x16 byte network on 16-byte row pieces (rows16) should take this AVX-512
   job: wide bytes of 11-16 rows, where the VBMI network spends 6-8 permutes per output. */
TPOSEI_FORCE_INLINE int tposei_avx512_rows16(const tposei_job *job)
{
    return job->esize == 1 && job->rows >= 11 && job->rows <= TPOSEI_SKINNY_MAX &&
           tposei_rows16_fits(job); /* wide: rows16_fits wants the long side >= 256 */
}

/* The AVX-512 skinny family: n x 8 and 8 x n of 8-byte elements (the 64-bit network), wide
   bytes of 11-16 rows (rows16), the VBMI network where it fits and the CPU has VBMI, else the
   narrow path, else SWAR for wide jobs of at most 32 bytes of rows (a padded matrix, or no
   VBMI: the tiles have only their edge code for it); 1 when one ran. */
static int tposei_avx512_strips(const tposei_job *job, int stream)
{
    const size_t esize = job->esize;
    if (esize == 8 && (job->cols == 8 || job->rows == 8) && job->rows >= 8 && job->cols >= 8) {
        tposei_rows8_job(job, job->rows == 8, stream);
        return 1;
    }
    if (tposei_avx512_rows16(job)) {
        tposei_rows16_run(job, stream);
        return 1;
    }
    if (tposei_skinny_fits(job) && tposei_cpu_has(TPOSEI_ISA_VBMI) && tposei_skinny_net_side(job)) {
        tposei_skinny_run(job, stream);
        return 1;
    }
    if (tposei_try_narrow(job, stream)) return 1;
    if (job->rows * esize > 32 || job->rows >= job->cols) return 0;
    tposei_run_swar(job);
    return 1;
}

/* ---- kernels of the in-place kit (tposei_kit) ------------------------------------------ */

/* 8 x 8 floats in eight rows: two unpacks, two shuffles and a 128-bit lane exchange. */
TPOSEI_AVX2_INLINE void tposei_u32_8x8_regs(__m256i *r)
{
    __m256 t[8], s[8]; /* r cast where used: a loop of casts alone became a memcpy (Clang -Os) */
    int k;
    for (k = 0; k < 8; k += 2) {
        const __m256 a = _mm256_castsi256_ps(r[k]), b = _mm256_castsi256_ps(r[k + 1]);
        t[k] = _mm256_unpacklo_ps(a, b);     /* a0 b0 a1 b1 | a4 b4 a5 b5 */
        t[k + 1] = _mm256_unpackhi_ps(a, b); /* a2 b2 a3 b3 | a6 b6 a7 b7 */
    }
    for (k = 0; k < 8; k += 4) {
        s[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);         /* a0 b0 c0 d0 | a4 .. d4 */
        s[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);     /* a1 b1 c1 d1 | a5 .. d5 */
        s[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44); /* a2 .. d2 | a6 .. d6 */
        s[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE); /* a3 .. d3 | a7 .. d7 */
    }
    for (k = 0; k < 4; k++) {
        r[k] = _mm256_castps_si256(_mm256_permute2f128_ps(s[k], s[k + 4], 0x20)); /* a_k .. h_k */
        r[k + 4] = _mm256_castps_si256(_mm256_permute2f128_ps(s[k], s[k + 4], 0x31)); /* a_k+4.. */
    }
}

/* 4 x 4 doubles: unpacks pair rows (a0 b0 | a2 b2), a lane exchange finishes. */
TPOSEI_AVX2_INLINE void tposei_u64_4x4_regs(__m256i *r)
{
    const __m256d a = _mm256_castsi256_pd(r[0]), b = _mm256_castsi256_pd(r[1]);
    const __m256d c = _mm256_castsi256_pd(r[2]), d = _mm256_castsi256_pd(r[3]);
    const __m256d t0 = _mm256_unpacklo_pd(a, b);                      /* a0 b0 | a2 b2 */
    const __m256d t1 = _mm256_unpackhi_pd(a, b);                      /* a1 b1 | a3 b3 */
    const __m256d t2 = _mm256_unpacklo_pd(c, d);                      /* c0 d0 | c2 d2 */
    const __m256d t3 = _mm256_unpackhi_pd(c, d);                      /* c1 d1 | c3 d3 */
    r[0] = _mm256_castpd_si256(_mm256_permute2f128_pd(t0, t2, 0x20)); /* a0 b0 c0 d0 */
    r[1] = _mm256_castpd_si256(_mm256_permute2f128_pd(t1, t3, 0x20)); /* a1 b1 c1 d1 */
    r[2] = _mm256_castpd_si256(_mm256_permute2f128_pd(t0, t2, 0x31)); /* a2 b2 c2 d2 */
    r[3] = _mm256_castpd_si256(_mm256_permute2f128_pd(t1, t3, 0x31)); /* a3 b3 c3 d3 */
}

/* Square tile pairs swapped in registers: the k x k blocks at x and y (k = 32 / esize: 8
   floats or 4 doubles) both loaded, both transposed, X^T stored over Y and Y^T over X; with
   x == y the block is transposed in place. Each element is loaded once and stored once. */
TPOSEI_AVX2_INLINE void tposei_swap_avx2(unsigned char *x, unsigned char *y, size_t st,
                                         size_t esize)
{
    const int n = (int)(32 / esize);
    __m256i a[8], b[8];
    int k;
    for (k = 0; k < n; k++) {
        a[k] = tposei_avx2_load(x + k * st);
        b[k] = tposei_avx2_load(y + k * st);
    }
    if (esize == 4) {
        tposei_u32_8x8_regs(a);
        tposei_u32_8x8_regs(b);
    } else {
        tposei_u64_4x4_regs(a);
        tposei_u64_4x4_regs(b);
    }
    for (k = 0; k < n; k++) {
        tposei_avx2_store(y + k * st, a[k]);
        tposei_avx2_store(x + k * st, b[k]);
    }
}

TPOSEI_AVX2_KERNEL void tposei_u32_8x8_swap_avx2(unsigned char *x, unsigned char *y, size_t st)
{
    tposei_swap_avx2(x, y, st, 4);
}

TPOSEI_AVX2_KERNEL void tposei_u64_4x4_swap_avx2(unsigned char *x, unsigned char *y, size_t st)
{
    tposei_swap_avx2(x, y, st, 8);
}

/* n x 8 doubles either way, whole lines non-temporal, fenced (the in-place slot regions). */
static void tposei_kit_rows8(unsigned char *aos, size_t as, unsigned char *const *rows, size_t n,
                             int wide)
{
    tposei_rows8_run(aos, as, rows, n, wide, 1, TPOSEI_ROWS_PLAIN);
}

/* tposei_gather8_fn: one gather a row, its offsets (j * 8 -/+ fine(j) * stride) built once
   in a register (the in-place rotations). */
TPOSEI_AVX512_KERNEL void tposei_gather8_avx512(unsigned char *row0, ptrdiff_t step, size_t rows,
                                                const size_t *fo, size_t jb, int down)
{
    const __m512i at = _mm512_add_epi64(_mm512_setr_epi64(0, 8, 16, 24, 32, 40, 48, 56),
                                        _mm512_set1_epi64((long long)jb * 8));
    const __m512i f = sizeof(size_t) == 8
                          ? _mm512_loadu_si512((const void *)(fo + jb))
                          : _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(fo + jb)));
    const __m512i idx = down ? _mm512_sub_epi64(at, f) : _mm512_add_epi64(at, f);
    size_t r;
    for (r = 0; r < rows; r++) {
        unsigned char *d = row0 + (ptrdiff_t)r * step;
        _mm512_storeu_si512((void *)(d + jb * 8), _mm512_i64gather_epi64(idx, (void *)d, 1));
    }
}

/* ======================================================================================== */
// >>sets
/* ======================================================================================== */

/* AUTO leaves a shape to the portable kernels when this family's tiles would leave it to
   their scalar edges: a side shorter than its tiles (16, 32 or 64 bytes of elements for
   SSE2, AVX2, AVX-512) with no strip kernel for it; and avx2-stream's destination rows under
   a line for elements wider than a byte, whose buffered rows would all be partial lines
   (bench/MEASURED.md, "edges only"). */
static int tposei_x86_declines(size_t bytes, int stream, size_t rows, size_t cols, size_t esize)
{
    const size_t tile = bytes / esize ? bytes / esize : 1, side = rows < cols ? rows : cols;
    const int avx2 = bytes == 32, avx512 = bytes == 64;
    if (avx2 && (tposei_skinny16_side(side, esize, stream) || tposei_rows16_side(side, esize) ||
                 tposei_vside_of(side, esize, cols < rows).width))
        return 0; /* tposei_avx2_strips */
    if (avx2 && stream && esize > 1 && rows < TPOSEI_CACHE_LINE / esize) return 1;
    if (side >= tile) return 0;
    if (avx512 && esize == 8 && cols == 8) return 0; /* the n x 8 network */
    if (avx512 && tposei_narrow_fits(rows, cols, esize)) return 0;
    return !(avx512 && side <= TPOSEI_SKINNY_MAX && esize <= 8 && tposei_cpu_has(TPOSEI_ISA_VBMI));
}

static int tposei_sse2_declines(size_t rows, size_t cols, size_t esize)
{
    return tposei_x86_declines(16, 0, rows, cols, esize);
}
static int tposei_avx2_declines(size_t rows, size_t cols, size_t esize)
{
    return tposei_x86_declines(32, 0, rows, cols, esize);
}
static int tposei_avx2s_declines(size_t rows, size_t cols, size_t esize)
{
    return tposei_x86_declines(32, 1, rows, cols, esize);
}
static int tposei_avx512_declines(size_t rows, size_t cols, size_t esize)
{
    return tposei_x86_declines(64, 1, rows, cols, esize);
}

/* SSE2: the in-cache walk alone. */
#define TPOSEI_SSE2_SET(e, n, fn)                                                            \
    {TPOSEI_ISA_SSE2, 0, e, n, fn, NULL, 0, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, NULL,    \
     NULL, {NULL, NULL}, 0, NULL, 0, NULL, NULL, NULL, NULL, tposei_stream_fence, NULL,         \
     TPOSEI_PAIR_ALWAYS, TPOSEI_CARRY_LINES, 0, 0, 0}
static const tposei_kset tposei_sse2_sets[] = {
    TPOSEI_SSE2_SET(1, 16, tposei_u8_16x16_sse2), TPOSEI_SSE2_SET(2, 8, tposei_u16_8x8_sse2),
    TPOSEI_SSE2_SET(4, 4, tposei_u32_4x4_sse2), TPOSEI_SSE2_SET(8, 2, tposei_u64_2x2_sse2),
    TPOSEI_SSE2_SET(16, 2, tposei_u128_2x2_sse2)};
#undef TPOSEI_SSE2_SET

/* AVX2: 32-byte tiles in cache and in the L1 buffer; line tiles of 64 bytes a side straight
   to memory (read through an L1 copy where the source rows crowd L1), joined through carry
   pairs; pairs of line tiles for blocks walked down, and for one tile column `col` tiles. */
#define TPOSEI_AVX2_SET(e, n, fn, shape, nt, nt_crowded, pair, pair_crowded, col, col_tiles,  \
                        whole, pipe, when)                                                    \
    {TPOSEI_ISA_AVX2, 0, e, n, fn, NULL, 64 / e, {nt, nt_crowded},                            \
     {tposei_##shape##_avx2_join, tposei_##shape##_avx2_join_staged},                         \
     {tposei_##shape##_avx2_join, tposei_##shape##_avx2_join_staged}, whole,                  \
     tposei_##shape##_avx2_part, {pair, pair_crowded}, 2, col, col_tiles, pipe, NULL, NULL,   \
     tposei_stream_row_avx2, tposei_stream_fence, tposei_avx2_strips, when, TPOSEI_CARRY_PAIRS, \
     0, 1, 1}
static const tposei_kset tposei_avx2_sets[] = {
    TPOSEI_AVX2_SET(1, 32, tposei_u8_32x32_avx2, u8_64x64, tposei_u8_64x64_avx2_nt,
                    tposei_u8_64x64_avx2_nt, tposei_u8_128x64_avx2_nt, tposei_u8_128x64_avx2_nt,
                    tposei_u8_128x64_avx2_nt, 2, tposei_u8_64x64_avx2_join_park,
                    tposei_u8_pipe_avx2_nt, TPOSEI_PAIR_ALWAYS),
    TPOSEI_AVX2_SET(2, 16, tposei_u16_16x16_avx2, u16_32x32, tposei_u16_32x32_avx2_nt,
                    tposei_u16_32x32_avx2_nt_staged, NULL, tposei_u16_64x32_avx2_nt,
                    tposei_u16_64x32_avx2_nt, 2, NULL, NULL, TPOSEI_PAIR_RUNS),
    TPOSEI_AVX2_SET(4, 8, tposei_u32_8x8_avx2, u32_16x16, tposei_u32_16x16_avx2_nt,
                    tposei_u32_16x16_avx2_quads_staged, NULL, tposei_u32_32x16_avx2_nt,
                    tposei_u32_64x16_avx2_nt, 4, NULL, NULL, TPOSEI_PAIR_ALWAYS),
    TPOSEI_AVX2_SET(8, 4, tposei_u64_4x4_avx2, u64_8x8, tposei_u64_8x8_avx2_nt,
                    tposei_u64_8x8_avx2_quads_staged, NULL, tposei_u64_16x8_avx2_nt,
                    tposei_u64_32x8_avx2_nt, 4, NULL, NULL, TPOSEI_PAIR_ALWAYS),
    TPOSEI_AVX2_SET(16, 2, tposei_u128_2x2_avx2, u128_4x4, tposei_u128_4x4_avx2_nt,
                    tposei_u128_4x4_avx2_quads_staged, NULL, tposei_u128_8x4_avx2_nt,
                    tposei_u128_16x4_avx2_nt, 4, NULL, NULL, TPOSEI_PAIR_ALWAYS)};
#undef TPOSEI_AVX2_SET

/* AVX-512: 64-byte tiles everywhere, corners by masked tiles, joins by permutes (word joins
   at even offsets, byte joins with VBMI), dense destinations' seams; bytes with VBMI read
   each source line once where the rows crowd L1 (the quarter rule, tune: quarter_sets). */
#define TPOSEI_AVX512_SET(isa, e, fn, part, quarter, nt, nt_crowded, jw, jw_crowded, jb,      \
                          jb_crowded, pair, tiles, when)                                      \
    {isa, TPOSEI_ISA_VBMI, e, 64 / e, fn, part, 64 / e, {nt, nt_crowded}, {jw, jw_crowded},   \
     {jb, jb_crowded}, NULL, part, {pair, pair}, tiles, NULL, 0, NULL, tposei_seam_tiles,      \
     tposei_seam_head, tposei_stream_row_avx512, tposei_stream_fence, tposei_avx512_strips,   \
     when, TPOSEI_CARRY_SEAMS, quarter, 0, 0}
#define TPOSEI_AVX512_PLAIN(e, shape, pair)                                                   \
    TPOSEI_AVX512_SET(TPOSEI_ISA_AVX512, e, tposei_##shape##_avx512,                          \
                      tposei_##shape##_avx512_part, 0, tposei_##shape##_avx512_nt,            \
                      tposei_##shape##_avx512_nt, tposei_##shape##_avx512_join_w,             \
                      tposei_##shape##_avx512_join_w, tposei_##shape##_avx512_join_b,         \
                      tposei_##shape##_avx512_join_b, pair, 2, TPOSEI_PAIR_ACROSS)
static const tposei_kset tposei_avx512_sets[] = {
    TPOSEI_AVX512_SET(TPOSEI_ISA_AVX512 | TPOSEI_ISA_VBMI, 1, tposei_u8_64x64_vbmi,
                      tposei_u8_64x64_vbmi_part, 1, tposei_u8_64x64_avx512_nt,
                      tposei_u8_64x64_vbmi_nt, tposei_u8_64x64_avx512_join_b,
                      tposei_u8_64x64_vbmi_join, tposei_u8_64x64_avx512_join_b,
                      tposei_u8_64x64_vbmi_join, tposei_u8_256x64_vbmi_nt, 4, TPOSEI_PAIR_DOWN4),
    TPOSEI_AVX512_SET(TPOSEI_ISA_AVX512, 1, tposei_u8_64x64_avx512, tposei_u8_64x64_avx512_part,
                      0, tposei_u8_64x64_avx512_nt, tposei_u8_64x64_avx512_nt,
                      tposei_u8_64x64_avx512_join_w, tposei_u8_64x64_avx512_join_w, NULL, NULL,
                      NULL, 0, TPOSEI_PAIR_ALWAYS),
    TPOSEI_AVX512_SET(TPOSEI_ISA_AVX512, 2, tposei_u16_32x32_bw, tposei_u16_32x32_bw_part, 0,
                      tposei_u16_32x32_bw_nt, tposei_u16_32x32_bw_nt,
                      tposei_u16_32x32_avx512_join_w, tposei_u16_32x32_bw_join,
                      tposei_u16_32x32_avx512_join_b, tposei_u16_32x32_avx512_join_b,
                      tposei_u16_64x32_avx512_nt, 2, TPOSEI_PAIR_ACROSS),
    TPOSEI_AVX512_PLAIN(4, u32_16x16, tposei_u32_32x16_avx512_nt),
    TPOSEI_AVX512_PLAIN(8, u64_8x8, tposei_u64_16x8_avx512_nt),
    TPOSEI_AVX512_PLAIN(16, u128_4x4, tposei_u128_8x4_avx512_nt)};
#undef TPOSEI_AVX512_PLAIN
#undef TPOSEI_AVX512_SET

static const tposei_kset *const tposei_sse2_list[] = {
    &tposei_sse2_sets[0], &tposei_sse2_sets[1], &tposei_sse2_sets[2], &tposei_sse2_sets[3],
    &tposei_sse2_sets[4], NULL};
static const tposei_kset *const tposei_avx2_list[] = {
    &tposei_avx2_sets[0], &tposei_avx2_sets[1], &tposei_avx2_sets[2], &tposei_avx2_sets[3],
    &tposei_avx2_sets[4], NULL};
static const tposei_kset *const tposei_avx512_list[] = {
    &tposei_avx512_sets[0], &tposei_avx512_sets[1], &tposei_avx512_sets[2],
    &tposei_avx512_sets[3], &tposei_avx512_sets[4], &tposei_avx512_sets[5], NULL};

/* tpose_kernel SSE2 .. AVX512_STREAM, in the enum's order. */
static const tposei_family tposei_x86_families[] = {
    {TPOSEI_WALK_TILES, tposei_sse2_list, tposei_sse2_declines},
    {TPOSEI_WALK_TILES, tposei_avx2_list, tposei_avx2_declines},
    {TPOSEI_WALK_STREAM, tposei_avx2_list, tposei_avx2s_declines},
    {TPOSEI_WALK_TILES, tposei_avx512_list, tposei_avx512_declines},
    {TPOSEI_WALK_STREAM, tposei_avx512_list, tposei_avx512_declines}};

static const tposei_family *tposei_arch_family(tpose_kernel k)
{
    if (k < TPOSE_KERNEL_SSE2 || k > TPOSE_KERNEL_AVX512_STREAM) return NULL;
    return &tposei_x86_families[k - TPOSE_KERNEL_SSE2];
}

/* The x86 members of the kit: AVX2 tiles, register tile pairs for 4 and 8-byte elements,
   the streaming row copy (AVX-512's, else AVX2's), the AVX-512 n x 8 network, 8x8 strips and
   gathers; each where the CPU has the ISA and tpose_kernel_limit() allows the kernel that
   uses it. */
static void tposei_arch_kit(tposei_kit *kit, size_t esize, int (*allowed)(tpose_kernel k))
{
    const tposei_kset *avx2 = allowed(TPOSE_KERNEL_AVX2)
                                  ? tposei_set_for(tposei_arch_family(TPOSE_KERNEL_AVX2), esize)
                                  : NULL;
    const tposei_kset *lines = NULL; /* the widest streaming set allowed: its line tiles */
    if (avx2 && (esize == 4 || esize == 8)) {
        kit->swap = esize == 4 ? tposei_u32_8x8_swap_avx2 : tposei_u64_4x4_swap_avx2;
        kit->swap_edge = 32 / esize;
    }
    if (avx2) {
        const tposei_kset *half = tposei_set_for(tposei_arch_family(TPOSE_KERNEL_SSE2), esize);
        kit->tile = avx2->tile_fn;
        kit->tile_edge = avx2->tile;
        if (half && 2 * half->tile == avx2->tile) kit->tile_half = half->tile_fn;
    }
    if (tposei_cpu_has(TPOSEI_ISA_AVX2) && allowed(TPOSE_KERNEL_AVX2_STREAM)) {
        kit->stream_row = tposei_stream_row_avx2;
        kit->fence = tposei_stream_fence;
        lines = avx2; /* one set list for both AVX2 families; allowed(AVX2) as well */
    }
    if (tposei_cpu_has(TPOSEI_ISA_AVX512) && allowed(TPOSE_KERNEL_AVX512_STREAM)) {
        kit->rows8 = tposei_kit_rows8;
        kit->stream_row = tposei_stream_row_avx512;
        kit->fence = tposei_stream_fence;
        lines = tposei_set_for(tposei_arch_family(TPOSE_KERNEL_AVX512_STREAM), esize);
    }
    if (tposei_cpu_has(TPOSEI_ISA_AVX512) && allowed(TPOSE_KERNEL_AVX512)) {
        kit->strip8 = tposei_u64_8x8_strip;
        if (esize == 8) kit->gather8 = tposei_gather8_avx512;
    }
    if (lines && lines->line) {
        kit->line_nt = lines->nt[0];
        kit->line_edge = lines->line;
    }
}

#if defined(TPOSEI_TESTING)
/* Every SIMD micro-kernel beside its scalar twin of the same tile shape (the edge routine on
   one tile), for tests that compare them one to one. `nt`: the kernel stores
   non-temporally and needs destination rows on cache lines. */
typedef struct tposei_tile_entry {
    const char *name;
    size_t isa; /* TPOSEI_ISA_* the kernel needs */
    size_t esize, tile;
    int nt;
    tposei_tile_fn kernel;
} tposei_tile_entry;

#define TPOSEI_TILE(name, isa, esize, tile, nt) {#name, isa, esize, tile, nt, tposei_##name}
static const tposei_tile_entry tposei_tile_table[] = {
    TPOSEI_TILE(u8_16x16_sse2, TPOSEI_ISA_SSE2, 1, 16, 0),
    TPOSEI_TILE(u16_8x8_sse2, TPOSEI_ISA_SSE2, 2, 8, 0),
    TPOSEI_TILE(u32_4x4_sse2, TPOSEI_ISA_SSE2, 4, 4, 0),
    TPOSEI_TILE(u64_2x2_sse2, TPOSEI_ISA_SSE2, 8, 2, 0),
    TPOSEI_TILE(u128_2x2_sse2, TPOSEI_ISA_SSE2, 16, 2, 0),
    TPOSEI_TILE(u8_32x32_avx2, TPOSEI_ISA_AVX2, 1, 32, 0),
    TPOSEI_TILE(u8_32x32_avx2_article, TPOSEI_ISA_AVX2, 1, 32, 0),
    TPOSEI_TILE(u16_16x16_avx2, TPOSEI_ISA_AVX2, 2, 16, 0),
    TPOSEI_TILE(u32_8x8_avx2, TPOSEI_ISA_AVX2, 4, 8, 0),
    TPOSEI_TILE(u64_4x4_avx2, TPOSEI_ISA_AVX2, 8, 4, 0),
    TPOSEI_TILE(u128_2x2_avx2, TPOSEI_ISA_AVX2, 16, 2, 0),
    TPOSEI_TILE(u8_64x64_avx2_nt, TPOSEI_ISA_AVX2, 1, 64, 1),
    TPOSEI_TILE(u16_32x32_avx2_nt, TPOSEI_ISA_AVX2, 2, 32, 1),
    TPOSEI_TILE(u16_32x32_avx2_nt_staged, TPOSEI_ISA_AVX2, 2, 32, 1),
    TPOSEI_TILE(u32_16x16_avx2_nt, TPOSEI_ISA_AVX2, 4, 16, 1),
    TPOSEI_TILE(u32_16x16_avx2_quads_staged, TPOSEI_ISA_AVX2, 4, 16, 1),
    TPOSEI_TILE(u64_8x8_avx2_nt, TPOSEI_ISA_AVX2, 8, 8, 1),
    TPOSEI_TILE(u64_8x8_avx2_quads_staged, TPOSEI_ISA_AVX2, 8, 8, 1),
    TPOSEI_TILE(u128_4x4_avx2_nt, TPOSEI_ISA_AVX2, 16, 4, 1),
    TPOSEI_TILE(u128_4x4_avx2_quads_staged, TPOSEI_ISA_AVX2, 16, 4, 1),
    TPOSEI_TILE(u8_64x64_avx512, TPOSEI_ISA_AVX512, 1, 64, 0),
    TPOSEI_TILE(u32_16x16_avx512, TPOSEI_ISA_AVX512, 4, 16, 0),
    TPOSEI_TILE(u64_8x8_avx512, TPOSEI_ISA_AVX512, 8, 8, 0),
    TPOSEI_TILE(u128_4x4_avx512, TPOSEI_ISA_AVX512, 16, 4, 0),
    TPOSEI_TILE(u8_64x64_avx512_nt, TPOSEI_ISA_AVX512, 1, 64, 1),
    TPOSEI_TILE(u32_16x16_avx512_nt, TPOSEI_ISA_AVX512, 4, 16, 1),
    TPOSEI_TILE(u64_8x8_avx512_nt, TPOSEI_ISA_AVX512, 8, 8, 1),
    TPOSEI_TILE(u128_4x4_avx512_nt, TPOSEI_ISA_AVX512, 16, 4, 1),
    TPOSEI_TILE(u8_64x64_vbmi, TPOSEI_ISA_VBMI, 1, 64, 0),
    TPOSEI_TILE(u16_32x32_bw, TPOSEI_ISA_AVX512, 2, 32, 0),
    TPOSEI_TILE(u16_32x32_bw_nt, TPOSEI_ISA_AVX512, 2, 32, 1),
    TPOSEI_TILE(u8_64x64_vbmi_nt, TPOSEI_ISA_VBMI, 1, 64, 1),
    TPOSEI_TILE(u64_tall8_avx512, TPOSEI_ISA_AVX512, 8, 8, 0),
    TPOSEI_TILE(u64_tall8_avx512_nt, TPOSEI_ISA_AVX512, 8, 8, 1),
};
#undef TPOSEI_TILE
#endif

#undef TPOSEI_TILE_KERNEL
#undef TPOSEI_PART_KERNEL
#undef TPOSEI_JOIN_KERNEL

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* TPOSE_TRANSPOSE_SIMD_H */
