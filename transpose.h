/* transpose.h - matrix transposition at memory speed, header-only C99.

   Do this:
       #define TPOSE_IMPLEMENTATION
       #include "transpose.h"
   in exactly ONE C or C++ file of your program to create the implementation. Every other file
   just includes "transpose.h" for the declarations. Or build the two-line transpose.c that
   ships beside this header.

   Embedded / copy-paste use: `#define TPOSE_STATIC` before the include makes every function
   `static` in that translation unit and pulls in the implementation there; copy
   transpose_simd.h beside it (the x86 kernels, included from here) or define TPOSE_NO_SIMD,
   and no other file is needed. The first include in a translation unit fixes the mode; a
   later include that asks for the other one is an #error.

   CONFIGURATION (define before the include; the same in every file of one program)

   | macro                   | default        | meaning                                          |
   |-------------------------|----------------|--------------------------------------------------|
   | TPOSE_IMPLEMENTATION    | undefined      | emit the definitions in this translation unit    |
   | TPOSE_STATIC            | undefined      | everything static + implementation in this TU    |
   | TPOSE_API               | extern/static  | storage class of public functions (DLL export)   |
   | TPOSE_NO_SIMD           | undefined      | portable kernels only (no transpose_simd.h)      |
   | TPOSE_NO_STDLIB         | undefined      | no libc call at all: no memcpy, no malloc        |
   | TPOSE_MALLOC / FREE     | malloc / free  | allocator for tpose_inplace(work == NULL); both  |
   |                         |                | or neither; absent under TPOSE_NO_STDLIB         |
   | TPOSE_ASSERT(x)         | nothing        | internal precondition checks (e.g. assert)       |

   API (all sizes size_t; *_ld count elements, *_bytes count bytes; row-major; element (r, c)
   of a matrix with leading dimension ld starts at byte (r * ld + c) * esize)

   tpose_matrix(dst, dst_ld, src, src_ld, rows, cols, esize)
       Writes the cols x rows transpose of the rows x cols matrix src into dst, any element
       size, no alignment needed, with the kernel AUTO picks. Never writes bytes of dst outside
       the transposed block. Overlapping source and destination are TPOSE_ERR_OVERLAP.
   tpose_matrix_with(kernel, ...)
       The same with one named kernel; TPOSE_ERR_UNSUPPORTED when this build, CPU or element
       size lacks it (never a silent fallback). All kernels give bit-identical results.
   tpose_kernel_supported(kernel, esize), tpose_kernel_auto(rows, cols, esize),
   tpose_kernel_name(kernel), tpose_kernel_limit(best)
       What this CPU and build can run, what AUTO would pick, a short name, and a ceiling on
       AUTO's choices (testing, benchmarking, or pinning a portable path).
   tpose_status_str(status)
       A static string for a status code.
   tpose_padded_ld(cols, esize)
       A leading dimension >= cols whose rows are an odd number of 64-byte lines: allocate
       with it (and 64-byte alignment) to avoid the cache aliasing of power-of-two strides.

   KERNELS (portable ones run everywhere)

   | kernel    | element sizes       | what it does                                            |
   |-----------|---------------------|---------------------------------------------------------|
   | naive     | any                 | element loop over the whole matrix; the test oracle     |
   | blocked   | any                 | cache blocks whose rows span whole 64-byte lines        |
   | prefetch  | any                 | blocked + software prefetch of the next source block    |
   | swar      | 1, 2, 4 (any: as    | 8x8 u8, 4x4 u16 or 2x2 u32 tiles in uint64_t registers   |
   |           | prefetch otherwise) | by masked shifts, inside prefetched cache blocks        |
   | sse2      | 1, 2, 4, 8, 16      | 16x16 u8 ... 2x2 u64 unpack networks; 16-byte moves     |
   | avx2      | 1, 2, 4, 8, 16      | 32x32 u8 ... 2x2 u128 unpack networks, two rows per     |
   |           |                     | vector (the article's u8 shuffle/blend network: tests); |
   |           |                     | skinny shapes (a side <= 8) by in-lane byte shuffles    |
   | avx2-     | 1, 2, 4, 8, 16      | rows on lines: 64-byte line tiles of four avx2 tiles,   |
   |  stream   |                     | each row two 32-byte non-temporal stores; otherwise     |
   |           |                     | avx2 tiles into an L1 buffer, whole lines streamed      |
   | avx512    | 1, 2, 4, 8, 16      | 64x64 u8 ... 4x4 u128, four rows per vector; skinny     |
   |           |                     | shapes by VBMI byte permutes (a wide side <= 16, a tall |
   |           |                     | one <= 10; longer ones by 16-byte column quarters, wide |
   |           |                     | bytes of 11-16 rows by avx2's 16x16 network)            |
   | avx512-   | 1, 2, 4, 8, 16      | avx512 with non-temporal stores of whole lines, straight|
   |  stream   |                     | from registers when destination rows are line-aligned   |
   | neon      | -                   | reported unsupported (no kernels yet)                   |

   The x86 kernels live in transpose_simd.h, compiled with __attribute__((target)) (no -m
   flags needed) and dispatched by CPUID/XGETBV once per process. AUTO picks, per element
   size, avx512 (else avx2, sse2) for matrices under 1 MiB, the streaming kernels from there;
   then swar for 1, 2 and 4-byte elements and prefetch (blocked in cache) for others
   (measured, see README.md), never later in the enum than the tpose_kernel_limit() ceiling.

   SECTIONS (grep for the marker)
       >>config >>portability >>cpu >>kernels-scalar >>drivers >>table >>api
       transpose_simd.h: >>cpu >>kernels-sse2 >>kernels-avx2 >>kernels-avx512 >>drivers
       >>table

   License: MIT, at the end of this file.
*/
/* The linkage mode is fixed by the first include in a translation unit; a later include
   that asks for the other one would give half the functions the wrong storage class. */
#if defined(TPOSEI_MODE_STATIC)
#if defined(TPOSE_STATIC) ? !TPOSEI_MODE_STATIC : TPOSEI_MODE_STATIC
#error "transpose.h: included both with and without TPOSE_STATIC in one file; pick one"
#endif
#elif defined(TPOSE_STATIC)
#define TPOSEI_MODE_STATIC 1
#else
#define TPOSEI_MODE_STATIC 0
#endif

#ifndef TPOSE_TRANSPOSE_H
#define TPOSE_TRANSPOSE_H

/* ======================================================================================== */
// >>config
/* ======================================================================================== */

#include <stddef.h>
#include <stdint.h>

#ifndef TPOSE_API
#if TPOSEI_MODE_STATIC && (defined(__GNUC__) || defined(__clang__))
#define TPOSE_API static __attribute__((unused))
#elif TPOSEI_MODE_STATIC
#define TPOSE_API static
#else
#define TPOSE_API extern
#endif
#endif

#ifndef TPOSE_RESTRICT
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER))
#define TPOSE_RESTRICT __restrict
#elif defined(__cplusplus)
#define TPOSE_RESTRICT
#else
#define TPOSE_RESTRICT restrict
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every public function returns one of these; TPOSE_OK is 0, errors are negative. */
typedef enum tpose_status {
    TPOSE_OK = 0,
    TPOSE_ERR_NULL = -1,       /* a pointer is NULL while the matrix is not empty */
    TPOSE_ERR_LD = -2,         /* a leading dimension is smaller than the row it holds */
    TPOSE_ERR_OVERFLOW = -3,   /* an extent in bytes does not fit in size_t */
    TPOSE_ERR_OVERLAP = -4,    /* source and destination bytes overlap (out-of-place) */
    TPOSE_ERR_WORKSPACE = -5,  /* workspace given but smaller than required */
    TPOSE_ERR_ESIZE = -6,      /* element size is 0 */
    TPOSE_ERR_UNSUPPORTED = -7, /* the requested kernel is not available here */
    TPOSE_ERR_ARG = -8         /* any other invalid argument */
} tpose_status;

/* Kernel ids, from the reference up; AUTO's choices and tpose_kernel_limit() follow this
   order. */
typedef enum tpose_kernel {
    TPOSE_KERNEL_AUTO,          /* best available, chosen once via CPUID */
    TPOSE_KERNEL_NAIVE,         /* element loop, the reference */
    TPOSE_KERNEL_BLOCKED,       /* cache tiles */
    TPOSE_KERNEL_PREFETCH,      /* cache tiles + software prefetch of the next tile */
    TPOSE_KERNEL_SWAR,          /* 8x8 bytes (4x4 u16, 2x2 u32) in uint64_t registers */
    TPOSE_KERNEL_SSE2,
    TPOSE_KERNEL_AVX2,          /* 32x32 bytes and the 16/32/64-bit equivalents */
    TPOSE_KERNEL_AVX2_STREAM,   /* AVX2 64-byte line tiles, whole lines non-temporal */
    TPOSE_KERNEL_AVX512,
    TPOSE_KERNEL_AVX512_STREAM,
    TPOSE_KERNEL_NEON,
    TPOSE_KERNEL_COUNT
} tpose_kernel;

/* A short static description of `s`, never NULL ("ok", "leading dimension too small"...). */
TPOSE_API const char *tpose_status_str(tpose_status s);

/* Out-of-place transpose: dst (cols x rows, leading dimension dst_ld) = transpose of src
   (rows x cols, leading dimension src_ld).
   Parameters: dst_ld >= rows and src_ld >= cols, in elements; esize, bytes per element (any
     value >= 1). Pointers need no alignment. Bytes of dst outside the cols x rows block are
     never written.
   Returns: TPOSE_OK; TPOSE_ERR_ESIZE, _NULL, _LD, _OVERFLOW or _OVERLAP (then nothing was
     written). A matrix with zero rows or columns is a no-op and its pointers may be NULL.
   Thread safety: reentrant; concurrent calls on disjoint destinations are safe. */
TPOSE_API tpose_status tpose_matrix(void *dst, size_t dst_ld, const void *src, size_t src_ld,
                                    size_t rows, size_t cols, size_t esize);

/* tpose_matrix with a chosen kernel. TPOSE_KERNEL_AUTO behaves as tpose_matrix.
   Returns: as tpose_matrix, plus TPOSE_ERR_ARG for an id outside the enum and
     TPOSE_ERR_UNSUPPORTED when this build, CPU or element size lacks the kernel. */
TPOSE_API tpose_status tpose_matrix_with(tpose_kernel kernel, void *dst, size_t dst_ld,
                                         const void *src, size_t src_ld, size_t rows,
                                         size_t cols, size_t esize);

/* 1 when `kernel` runs on this CPU and build for elements of `esize` bytes, else 0.
   TPOSE_KERNEL_AUTO is supported for every esize >= 1. */
TPOSE_API int tpose_kernel_supported(tpose_kernel kernel, size_t esize);

/* The kernel tpose_matrix uses for this shape and element size under the current limit
   (never TPOSE_KERNEL_AUTO; TPOSE_KERNEL_NAIVE for esize 0). */
TPOSE_API tpose_kernel tpose_kernel_auto(size_t rows, size_t cols, size_t esize);

/* A short static name ("naive", "avx2-stream"); "unknown" for ids outside the enum. */
TPOSE_API const char *tpose_kernel_name(tpose_kernel kernel);

/* A leading dimension for a matrix of `cols` elements of `esize` bytes per row that avoids
   cache aliasing (reference 004, "Dealing with cache aliasing"): the smallest ld >= cols
   whose rows are an odd number of 64-byte lines, so consecutive rows fall into different
   cache sets at every level. Pair it with 64-byte aligned allocations. When esize is a
   multiple of 128 no such ld exists: it returns cols rounded up to whole lines. Returns 0
   for cols or esize 0, or when the result would overflow size_t (in bytes).
   Thread safety: pure. */
TPOSE_API size_t tpose_padded_ld(size_t cols, size_t esize);

/* AUTO picks nothing later in the enum than `best`; TPOSE_KERNEL_AUTO lifts the limit.
   Thread safety: a process-wide setting (per translation unit under TPOSE_STATIC); set it
   before other threads transpose. */
TPOSE_API void tpose_kernel_limit(tpose_kernel best);

#ifdef __cplusplus
}
#endif

#endif /* TPOSE_TRANSPOSE_H */

/* Stop now, if you are only interested in the API. */

#if (defined(TPOSE_IMPLEMENTATION) || defined(TPOSE_STATIC)) && !defined(TPOSEI_IMPL_DONE)
#define TPOSEI_IMPL_DONE

#if defined(TPOSE_MALLOC) != defined(TPOSE_FREE)
#error "transpose.h: define both TPOSE_MALLOC and TPOSE_FREE, or neither"
#endif

#ifndef TPOSE_ASSERT
#define TPOSE_ASSERT(x) ((void)0)
#endif

#if !defined(TPOSE_NO_STDLIB)
#include <string.h> /* memcpy: element and word moves */
#if !defined(TPOSE_MALLOC)
#include <stdlib.h>
#define TPOSE_MALLOC(bytes) malloc(bytes)
#define TPOSE_FREE(ptr) free(ptr)
#endif
#endif

/* ======================================================================================== */
// >>portability
/* ======================================================================================== */

#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_FORCE_INLINE static inline __attribute__((always_inline))
#define TPOSEI_NOINLINE static __attribute__((noinline))
#elif defined(_MSC_VER)
#define TPOSEI_FORCE_INLINE static __forceinline
#define TPOSEI_NOINLINE static __declspec(noinline)
#else
#define TPOSEI_FORCE_INLINE static inline
#define TPOSEI_NOINLINE static
#endif

/* Fixed-size copies. memcpy with a constant size is one load and one store on every
   compiler worth the name and is the only alignment- and aliasing-safe way to move a word.
   Without libc, GCC and Clang still expand __builtin_memcpy inline for constant sizes. */
#if !defined(TPOSE_NO_STDLIB)
#define TPOSEI_MEMCPY(d, s, n) memcpy((d), (s), (n))
#elif defined(__GNUC__) || defined(__clang__)
#define TPOSEI_MEMCPY(d, s, n) __builtin_memcpy((d), (s), (n))
#else
#define TPOSEI_MEMCPY(d, s, n) tposei_copy_bytes((unsigned char *)(d), \
                                                 (const unsigned char *)(s), (n))
#endif

/* Read prefetch with no temporal locality (x86 PREFETCHNTA): the block is read once, then
   written elsewhere, so it should not displace the destination lines. Never faults. */
#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_PREFETCH(p) __builtin_prefetch((const void *)(p), 0, 0)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#define TPOSEI_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_NTA)
#else
#define TPOSEI_PREFETCH(p) ((void)(p))
#endif

#define TPOSEI_CACHE_LINE 64

/* SIMD availability, decided here and nowhere else: 1 when this compiler can build the
   kernels of that ISA for this target (whether the CPU runs them is asked at run time).
   x86-64 with GCC or Clang: SSE2 is the baseline, AVX2 and AVX-512 are compiled with
   __attribute__((target)) and dispatched through CPUID. NEON has no kernels yet. */
#if !defined(TPOSE_NO_SIMD) && defined(__x86_64__) &&                                      \
    ((defined(__clang__) && __clang_major__ >= 6) || (!defined(__clang__) && __GNUC__ >= 7))
#define TPOSEI_HAVE_SSE2 1
#define TPOSEI_HAVE_AVX2 1
#define TPOSEI_HAVE_AVX512 1
#else
#define TPOSEI_HAVE_SSE2 0
#define TPOSEI_HAVE_AVX2 0
#define TPOSEI_HAVE_AVX512 0
#endif
#if !defined(TPOSE_NO_SIMD) && (defined(__aarch64__) || defined(__ARM_NEON))
#define TPOSEI_HAVE_NEON 1
#else
#define TPOSEI_HAVE_NEON 0
#endif

#ifndef TPOSE_PREFETCH_DIST
#define TPOSE_PREFETCH_DIST 1 /* blocks ahead that the prefetching kernels fetch */
#endif

/* A byte loop the optimiser cannot turn back into a libc memcpy call (volatile source),
   used only for odd element sizes under TPOSE_NO_STDLIB without GCC builtins. */
static inline void tposei_copy_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) dst[i] = ((const volatile unsigned char *)src)[i];
}

TPOSEI_FORCE_INLINE size_t tposei_min(size_t a, size_t b) { return a < b ? a : b; }

/* *out = a * b, or 0 on overflow. */
TPOSEI_FORCE_INLINE int tposei_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > (size_t)-1 / b) return 0;
    *out = a * b;
    return 1;
}

/* 1 on a little-endian host. A constant after optimisation; a run-time test otherwise, so
   the SWAR masks are right on any byte order without a configuration macro. */
TPOSEI_FORCE_INLINE int tposei_host_little(void)
{
    const uint16_t one = 1;
    unsigned char low;
    TPOSEI_MEMCPY(&low, &one, 1);
    return low == 1;
}

/* ======================================================================================== */
// >>cpu
/* ======================================================================================== */

/* The portable kernels need no CPU detection; transpose_simd.h adds CPUID/XGETBV. */

/* AUTO's ceiling (tpose_kernel_limit); TPOSE_KERNEL_AUTO means none. */
static tpose_kernel tposei_kernel_ceiling = TPOSE_KERNEL_AUTO;

/* ======================================================================================== */
// >>kernels-scalar
/* ======================================================================================== */

/* One transposition job, validated: byte strides, no overlap, rows and cols >= 1. */
typedef struct tposei_job {
    unsigned char *dst;
    const unsigned char *src;
    size_t dst_stride; /* bytes between destination rows */
    size_t src_stride; /* bytes between source rows */
    size_t rows;       /* source rows = destination columns */
    size_t cols;       /* source columns = destination rows */
    size_t esize;      /* bytes per element */
} tposei_job;

/* Transposes exactly one square tile; strides in bytes, no alignment assumed. */
typedef void (*tposei_tile_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride);

/* Moves one element. Every caller is instantiated with a constant esize, so the switch
   folds into a single load and store for 1, 2, 4, 8 and 16 bytes. */
TPOSEI_FORCE_INLINE void tposei_move(unsigned char *TPOSE_RESTRICT dst,
                                     const unsigned char *TPOSE_RESTRICT src, size_t esize)
{
    switch (esize) {
    case 1: *dst = *src; return;
    case 2: TPOSEI_MEMCPY(dst, src, 2); return;
    case 4: TPOSEI_MEMCPY(dst, src, 4); return;
    case 8: TPOSEI_MEMCPY(dst, src, 8); return;
    case 16: TPOSEI_MEMCPY(dst, src, 16); return;
    default: tposei_copy_bytes(dst, src, esize); return;
    }
}

/* Rows [i, n) between n AoS rows of eight 8-byte elements at `aos` (row stride `as`) and
   eight SoA rows rows[0..7], one element at a time: AoS -> SoA, or back with `wide`. The
   scalar form of the n x 8 driver (its tail, and the in-place slot path without SIMD). */
TPOSEI_FORCE_INLINE void tposei_rows8_scalar(unsigned char *aos, size_t as,
                                             unsigned char *const *rows, size_t i, size_t n,
                                             int wide)
{
    size_t k;
    for (; i < n; i++)
        for (k = 0; k < 8; k++) {
            unsigned char *x = aos + i * as + 8 * k, *y = rows[k] + 8 * i;
            if (wide)
                tposei_move(x, y, 8);
            else
                tposei_move(y, x, 8);
        }
}

/* The reference: destination row i is source column i, one element at a time. */
TPOSEI_FORCE_INLINE void tposei_any_naive(const tposei_job *job, size_t esize)
{
    size_t i, j;
    for (i = 0; i < job->cols; i++) {
        unsigned char *d = job->dst + i * job->dst_stride;
        const unsigned char *s = job->src + i * esize;
        for (j = 0; j < job->rows; j++) tposei_move(d + j * esize, s + j * job->src_stride, esize);
    }
}

/* Scalar transpose of a rows x cols source block: the BLOCKED kernel's body and every
   tile kernel's edge routine. Reads source rows in order; the block is small enough that
   the strided destination writes stay in L1. */
TPOSEI_FORCE_INLINE void tposei_any_block(unsigned char *dst, size_t dst_stride,
                                          const unsigned char *src, size_t src_stride,
                                          size_t rows, size_t cols, size_t esize)
{
    size_t r, c;
    for (r = 0; r < rows; r++) {
        const unsigned char *s = src + r * src_stride;
        unsigned char *d = dst + r * esize;
        for (c = 0; c < cols; c++) tposei_move(d + c * dst_stride, s + c * esize, esize);
    }
}

/* SWAR: a tile of n rows, each one 64-bit word of n elements of 64/n bits, is transposed by
   log2(n) levels of 2x2 block swaps (reference 004, "64-bit SIMD"): at level k, rows i and
   i+k (i & k == 0) exchange their off-diagonal sub-blocks of k elements (s = k * 64/n bits).
   Column j of a word sits at bits [j*w, (j+1)*w) on a little-endian host and mirrored on a
   big-endian one, so there the masks are complemented and the shifts change direction. */
TPOSEI_FORCE_INLINE void tposei_swar_swap(uint64_t *lo, uint64_t *hi, unsigned s, int little)
{
    const uint64_t low_halves = ~(uint64_t)0 / (((uint64_t)1 << s) + 1); /* s ones, s zeros.. */
    const uint64_t keep = little ? low_halves : ~low_halves; /* columns j with j & k == 0 */
    const uint64_t a = *lo, b = *hi;
    const uint64_t b_right = little ? b << s : b >> s; /* b's column j now at column j + k */
    const uint64_t a_left = little ? a >> s : a << s;  /* a's column j now at column j - k */
    *lo = (a & keep) | (b_right & ~keep);
    *hi = (b & ~keep) | (a_left & keep);
}

/* One level: rows i and i + k swap sub-blocks for every i with i & k == 0. */
TPOSEI_FORCE_INLINE void tposei_swar_level(uint64_t *w, unsigned n, unsigned k, int little)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (!(i & k)) tposei_swar_swap(&w[i], &w[i + k], k * (64 / n), little);
}

/* The levels are spelled out so every shift count and mask is a compile-time constant. */
TPOSEI_FORCE_INLINE void tposei_swar_network(uint64_t *w, unsigned n, int little)
{
    tposei_swar_level(w, n, 1, little);
    if (n > 2) tposei_swar_level(w, n, 2, little);
    if (n > 4) tposei_swar_level(w, n, 4, little);
}

TPOSEI_FORCE_INLINE uint64_t tposei_load64(const unsigned char *p)
{
    uint64_t w;
    TPOSEI_MEMCPY(&w, p, 8);
    return w;
}

TPOSEI_FORCE_INLINE void tposei_store64(unsigned char *p, uint64_t w) { TPOSEI_MEMCPY(p, &w, 8); }

TPOSEI_FORCE_INLINE void tposei_swar_tile(unsigned char *dst, size_t dst_stride,
                                          const unsigned char *src, size_t src_stride,
                                          unsigned n)
{
    uint64_t w[8];
    unsigned i;
    for (i = 0; i < n; i++) w[i] = tposei_load64(src + i * src_stride);
    tposei_swar_network(w, n, tposei_host_little());
    for (i = 0; i < n; i++) tposei_store64(dst + i * dst_stride, w[i]);
}

TPOSEI_FORCE_INLINE void tposei_u8_8x8_swar(unsigned char *dst, size_t dst_stride,
                                            const unsigned char *src, size_t src_stride)
{
    tposei_swar_tile(dst, dst_stride, src, src_stride, 8);
}

TPOSEI_FORCE_INLINE void tposei_u16_4x4_swar(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride)
{
    tposei_swar_tile(dst, dst_stride, src, src_stride, 4);
}

TPOSEI_FORCE_INLINE void tposei_u32_2x2_swar(unsigned char *dst, size_t dst_stride,
                                             const unsigned char *src, size_t src_stride)
{
    tposei_swar_tile(dst, dst_stride, src, src_stride, 2);
}

/* ======================================================================================== */
// >>drivers
/* ======================================================================================== */

/* Edge of a square cache block in elements. Block rows are whole 64-byte lines: one line
   for 1 and 2-byte elements (64x64 bytes, 32x32 u16: 4 KiB and 2 KiB per side) and two for
   4, 8 and 16 bytes (32x32 u32, 16x16 u64, 8x8 of 16 bytes: 4, 2 and 1 KiB), so a block
   pair plus the next pair's prefetched lines stays inside L1. Measured with tpose-bench at
   N = 2112 and 8256: one-line rows for 4+ byte elements lose 15-45% to the per-block
   overhead, two-line rows for bytes lose 2x (a 32 KiB pair and its prefetch overflow L1). */
TPOSEI_FORCE_INLINE size_t tposei_block_edge(size_t esize)
{
    switch (esize) {
    case 1: return 64;
    case 2: return 32;
    case 4: return 32;
    case 8: return 16;
    case 16: return 8;
    default: return 16;
    }
}

/* The block TPOSE_PREFETCH_DIST blocks ahead in the driver's order (along the band, then
   the next band): its source origin, rows and bytes per row, and the same for the
   destination block it will write; rows == 0 when there is none. */
typedef struct tposei_next_block {
    const unsigned char *src;
    const unsigned char *dst;
    size_t rows, row_bytes;         /* source side */
    size_t dst_rows, dst_row_bytes; /* destination side */
} tposei_next_block;

TPOSEI_FORCE_INLINE tposei_next_block tposei_find_next(const tposei_job *job, size_t rb,
                                                       size_t cb, size_t block, size_t esize)
{
    tposei_next_block next;
    const size_t per_band = (job->cols + block - 1) / block;
    const size_t index = (rb / block) * per_band + cb / block + TPOSE_PREFETCH_DIST;
    const size_t nrb = index / per_band * block, ncb = index % per_band * block;
    next.rows = nrb < job->rows ? tposei_min(block, job->rows - nrb) : 0;
    next.dst_rows = next.rows ? tposei_min(block, job->cols - ncb) : 0;
    next.row_bytes = next.dst_rows * esize;
    next.dst_row_bytes = next.rows * esize;
    next.src = next.rows ? job->src + nrb * job->src_stride + ncb * esize : job->src;
    next.dst = next.rows ? job->dst + ncb * job->dst_stride + nrb * esize : job->dst;
    return next;
}

/* Prefetches rows [first, last) of a block (`count` rows in all): one prefetch per cache
   line a row touches, which for whole-line rows at a line boundary is exactly one. */
TPOSEI_FORCE_INLINE void tposei_prefetch_lines(const unsigned char *origin, size_t stride,
                                               size_t count, size_t row_bytes, size_t first,
                                               size_t last)
{
    size_t r, i;
    last = tposei_min(last, count);
    for (r = first; r < last; r++) {
        const unsigned char *row = origin + r * stride;
        const size_t skew = (size_t)((uintptr_t)row % TPOSEI_CACHE_LINE);
        const size_t lines = (skew + row_bytes + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE;
        for (i = 0; i < lines; i++)
            TPOSEI_PREFETCH(row + tposei_min(i * TPOSEI_CACHE_LINE, row_bytes - 1));
    }
}

/* Rows [first, last) of the next block's source and of its destination: the destination
   lines are fetched too, so the stores do not each wait for a line fill. */
TPOSEI_FORCE_INLINE void tposei_prefetch_rows(const tposei_next_block *next,
                                              const tposei_job *job, size_t first, size_t last)
{
    tposei_prefetch_lines(next->src, job->src_stride, next->rows, next->row_bytes, first, last);
    tposei_prefetch_lines(next->dst, job->dst_stride, next->dst_rows, next->dst_row_bytes, first,
                          last);
}

/* One br x bc block at source (rb, cb): full tile x tile micro-tiles through `kernel`
   (tile == 1: the scalar element loop), the right and bottom strips through the scalar
   edge routine. With `next`, the next block's rows are prefetched one tile band at a time,
   spread over the work as in the article's BlocksPrf. */
TPOSEI_FORCE_INLINE void tposei_drive_block(const tposei_job *job, size_t rb, size_t cb,
                                            size_t br, size_t bc, size_t esize, size_t tile,
                                            tposei_tile_fn kernel,
                                            const tposei_next_block *next)
{
    const size_t ss = job->src_stride, ds = job->dst_stride;
    const unsigned char *src = job->src + rb * ss + cb * esize;
    unsigned char *dst = job->dst + cb * ds + rb * esize;
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    size_t r, c;
    for (r = 0; r < full_r; r += tile) {
        if (next) tposei_prefetch_rows(next, job, r, r + tile);
        if (tile == 1) {
            tposei_any_block(dst + r * esize, ds, src + r * ss, ss, 1, bc, esize);
            continue;
        }
        for (c = 0; c < full_c; c += tile)
            kernel(dst + c * ds + r * esize, ds, src + r * ss + c * esize, ss);
    }
    if (next) tposei_prefetch_rows(next, job, full_r, (size_t)-1); /* the rest */
    tposei_any_block(dst + full_c * ds, ds, src + full_c * esize, ss, full_r, bc - full_c, esize);
    tposei_any_block(dst + full_r * esize, ds, src + full_r * ss, ss, br - full_r, bc, esize);
}

/* Walks the matrix in square blocks, row band by row band: the source is read in bands of
   `block` rows, the destination written in bands of `block` columns. */
TPOSEI_FORCE_INLINE void tposei_drive_blocks(const tposei_job *job, size_t esize, size_t tile,
                                             tposei_tile_fn kernel, int prefetch)
{
    const size_t block = tposei_block_edge(esize);
    size_t rb, cb;
    /* A side shorter than a block leaves few enough streams for the hardware prefetcher,
       and software prefetches of a narrow block only repeat the same lines (measured:
       1000000x3 u64 at 0.37x memcpy with them, 0.98x without). */
    prefetch = prefetch && job->rows > block && job->cols > block;
    for (rb = 0; rb < job->rows; rb += block) {
        const size_t br = tposei_min(block, job->rows - rb);
        for (cb = 0; cb < job->cols; cb += block) {
            const size_t bc = tposei_min(block, job->cols - cb);
            if (prefetch) {
                const tposei_next_block next = tposei_find_next(job, rb, cb, block, esize);
                tposei_drive_block(job, rb, cb, br, bc, esize, tile, kernel, &next);
            } else {
                tposei_drive_block(job, rb, cb, br, bc, esize, tile, kernel, NULL);
            }
        }
    }
}

TPOSEI_FORCE_INLINE void tposei_naive_body(const tposei_job *job, size_t esize)
{
    tposei_any_naive(job, esize);
}

TPOSEI_FORCE_INLINE void tposei_blocked_body(const tposei_job *job, size_t esize)
{
    tposei_drive_blocks(job, esize, 1, NULL, 0);
}

TPOSEI_FORCE_INLINE void tposei_prefetch_body(const tposei_job *job, size_t esize)
{
    tposei_drive_blocks(job, esize, 1, NULL, 1);
}

/* SWAR tiles exist for 1, 2 and 4-byte elements; wider ones already move a word per
   element, so SWAR is the prefetching scalar kernel there. */
TPOSEI_FORCE_INLINE void tposei_swar_body(const tposei_job *job, size_t esize)
{
    switch (esize) {
    case 1: tposei_drive_blocks(job, 1, 8, tposei_u8_8x8_swar, 1); return;
    case 2: tposei_drive_blocks(job, 2, 4, tposei_u16_4x4_swar, 1); return;
    case 4: tposei_drive_blocks(job, 4, 2, tposei_u32_2x2_swar, 1); return;
    default: tposei_prefetch_body(job, esize); return;
    }
}

/* ======================================================================================== */
// >>table
/* ======================================================================================== */

typedef void (*tposei_run_fn)(const tposei_job *job);

/* Stamps one entry point per element size around a force-inlined body, so each size gets
   its own fully specialised loop; `_any` takes the size from the job. */
#define TPOSEI_STAMP_SIZES(name, body)                                                     \
    static void name##_e1(const tposei_job *job) { body(job, 1); }                           \
    static void name##_e2(const tposei_job *job) { body(job, 2); }                           \
    static void name##_e4(const tposei_job *job) { body(job, 4); }                           \
    static void name##_e8(const tposei_job *job) { body(job, 8); }                           \
    static void name##_e16(const tposei_job *job) { body(job, 16); }                         \
    static void name##_any(const tposei_job *job) { body(job, job->esize); }                 \
    static tposei_run_fn name##_pick(size_t esize)                                           \
    {                                                                                        \
        return tposei_pick_sized(esize, name##_e1, name##_e2, name##_e4, name##_e8,          \
                                 name##_e16, name##_any);                                    \
    }

static tposei_run_fn tposei_pick_sized(size_t esize, tposei_run_fn e1, tposei_run_fn e2,
                                       tposei_run_fn e4, tposei_run_fn e8, tposei_run_fn e16,
                                       tposei_run_fn any)
{
    switch (esize) {
    case 1: return e1;
    case 2: return e2;
    case 4: return e4;
    case 8: return e8;
    case 16: return e16;
    default: return any;
    }
}

TPOSEI_STAMP_SIZES(tposei_naive, tposei_naive_body)
TPOSEI_STAMP_SIZES(tposei_blocked, tposei_blocked_body)
TPOSEI_STAMP_SIZES(tposei_prefetch, tposei_prefetch_body)
TPOSEI_STAMP_SIZES(tposei_swar, tposei_swar_body)
#undef TPOSEI_STAMP_SIZES

/* A kernel this build or CPU lacks. */
static tposei_run_fn tposei_none_pick(size_t esize)
{
    (void)esize;
    return NULL;
}

#if TPOSEI_HAVE_SSE2
#include "transpose_simd.h" /* >>cpu, x86 kernels and drivers, tposei_*_pick */
#else
#define tposei_simd_edges_only(k, rows, cols, esize) 0
#define tposei_sse2_pick tposei_none_pick
#define tposei_avx2_pick tposei_none_pick
#define tposei_avx2_stream_pick tposei_none_pick
#define tposei_avx512_pick tposei_none_pick
#define tposei_avx512_stream_pick tposei_none_pick
#endif

typedef tposei_run_fn (*tposei_pick_fn)(size_t esize);

typedef struct tposei_kernel_entry {
    const char *name;
    tposei_pick_fn pick; /* the entry point for an element size, NULL when unsupported */
} tposei_kernel_entry;

static const tposei_kernel_entry tposei_kernel_table[TPOSE_KERNEL_COUNT] = {
    {"auto", tposei_none_pick}, /* resolved by tposei_auto_pick */
    {"naive", tposei_naive_pick},
    {"blocked", tposei_blocked_pick},
    {"prefetch", tposei_prefetch_pick},
    {"swar", tposei_swar_pick},
    {"sse2", tposei_sse2_pick},
    {"avx2", tposei_avx2_pick},
    {"avx2-stream", tposei_avx2_stream_pick},
    {"avx512", tposei_avx512_pick},
    {"avx512-stream", tposei_avx512_stream_pick},
    {"neon", tposei_none_pick},
};

/* Destination bytes from which AUTO prefers the streaming kernels: the matrix and its source
   no longer stay in this core's L2, so its destination lines would be evicted anyway and
   their reads for ownership are pure cost. Measured on Zen 4 (L2 1 MiB), matrices of 1 MiB
   from memory: streaming 0.69-1.24x memcpy, plain 0.54-0.75x (1024^2 bytes, 512x1024 u16,
   512^2 f32, 256x512 f64); the same matrices hot in cache: plain 30-46 GB/s, streaming
   16-19. Between 512 KiB and 1 MiB streaming still wins from memory and loses hot; this
   threshold keeps the hot case. */
#define TPOSEI_STREAM_FROM ((size_t)1 << 20)

/* 1 when AUTO may pick `k` under the current ceiling and the table has it for `esize`. */
static int tposei_auto_allowed(tpose_kernel k, size_t esize)
{
    const int allowed = tposei_kernel_ceiling == TPOSE_KERNEL_AUTO || k <= tposei_kernel_ceiling;
    return allowed && tposei_kernel_table[k].pick(esize) != NULL;
}

/* The portable kernels' order: SWAR tiles win for 1, 2 and 4 bytes at every size; for wider
   elements prefetching pays only out of cache: in cache (a matrix of at most 256 KiB) plain
   blocks are 20% faster. */
static tpose_kernel tposei_auto_portable(size_t rows, size_t cols, size_t esize)
{
    static const tpose_kernel narrow[] = {TPOSE_KERNEL_SWAR, TPOSE_KERNEL_PREFETCH,
                                          TPOSE_KERNEL_BLOCKED, TPOSE_KERNEL_NAIVE};
    static const tpose_kernel wide[] = {TPOSE_KERNEL_PREFETCH, TPOSE_KERNEL_BLOCKED,
                                        TPOSE_KERNEL_NAIVE};
    static const tpose_kernel wide_in_cache[] = {TPOSE_KERNEL_BLOCKED, TPOSE_KERNEL_NAIVE};
    const int is_narrow = esize == 1 || esize == 2 || esize == 4;
    const int in_cache = rows <= ((size_t)256 << 10) / esize / cols;
    const tpose_kernel *order = is_narrow ? narrow : in_cache ? wide_in_cache : wide;
    const size_t count = is_narrow  ? sizeof narrow / sizeof *narrow
                         : in_cache ? sizeof wide_in_cache / sizeof *wide_in_cache
                                    : sizeof wide / sizeof *wide;
    size_t i;
    for (i = 0; i < count; i++)
        if (tposei_auto_allowed(order[i], esize)) return order[i];
    return TPOSE_KERNEL_NAIVE;
}

/* AUTO's preference, best first, by element size and size class; measured with tpose-bench
   on the reference machine (README.md). The SIMD kernels come first for the element sizes
   they support (1, 2, 4, 8, 16; the table returns NULL for others and on CPUs without them):
   streaming from TPOSEI_STREAM_FROM, in place below; then the portable order, which also
   takes shapes whose short side would leave the SIMD kernel nothing but its scalar edges. */
static tpose_kernel tposei_auto_choice(size_t rows, size_t cols, size_t esize)
{
    static const tpose_kernel small[] = {TPOSE_KERNEL_AVX512, TPOSE_KERNEL_AVX2,
                                         TPOSE_KERNEL_SSE2};
    static const tpose_kernel large[] = {TPOSE_KERNEL_AVX512_STREAM, TPOSE_KERNEL_AVX2_STREAM,
                                         TPOSE_KERNEL_AVX512, TPOSE_KERNEL_AVX2,
                                         TPOSE_KERNEL_SSE2};
    const tpose_kernel *order;
    size_t i, bytes, count;
    if (esize == 0 || rows == 0 || cols == 0) return TPOSE_KERNEL_NAIVE;
    if (!tposei_mul(rows, cols, &bytes) || !tposei_mul(bytes, esize, &bytes) ||
        bytes >= TPOSEI_STREAM_FROM) {
        order = large;
        count = sizeof large / sizeof *large;
    } else {
        order = small;
        count = sizeof small / sizeof *small;
    }
    for (i = 0; i < count; i++)
        if (tposei_auto_allowed(order[i], esize)) break;
    if (i < count && !tposei_simd_edges_only(order[i], rows, cols, esize)) return order[i];
    return tposei_auto_portable(rows, cols, esize);
}

/* The entry point AUTO runs for this shape and element size: for internal callers (the
   in-place routines) that already validated their arguments and built a job. Never NULL. */
static tposei_run_fn tposei_auto_run(size_t rows, size_t cols, size_t esize)
{
    return tposei_kernel_table[tposei_auto_choice(rows, cols, esize)].pick(esize);
}

/* ======================================================================================== */
// >>api
/* ======================================================================================== */

/* Bytes from the first to one past the last element of a rows x cols matrix with leading
   dimension ld: ((rows - 1) * ld + cols) * esize. 0 on overflow. */
static int tposei_extent(size_t rows, size_t cols, size_t ld, size_t esize, size_t *bytes)
{
    size_t elems;
    if (!tposei_mul(rows - 1, ld, &elems) || elems > (size_t)-1 - cols) return 0;
    if (!tposei_mul(elems + cols, esize, bytes)) return 0;
    return 1;
}

/* Every check of tpose_matrix, in a fixed order, before any byte is touched. Fills `job`
   when the call is valid and the matrix not empty; *empty = 1 for an empty one. */
static tpose_status tposei_validate(tposei_job *job, int *empty, void *dst, size_t dst_ld,
                                    const void *src, size_t src_ld, size_t rows, size_t cols,
                                    size_t esize)
{
    size_t src_bytes, dst_bytes, unused;
    uintptr_t s, d;
    *empty = 0;
    if (esize == 0) return TPOSE_ERR_ESIZE;
    if (rows == 0 || cols == 0) {
        *empty = 1;
        return TPOSE_OK;
    }
    if (dst == NULL || src == NULL) return TPOSE_ERR_NULL;
    if (src_ld < cols || dst_ld < rows) return TPOSE_ERR_LD;
    if (!tposei_mul(rows, cols, &unused) || !tposei_mul(unused, esize, &unused) ||
        !tposei_extent(rows, cols, src_ld, esize, &src_bytes) ||
        !tposei_extent(cols, rows, dst_ld, esize, &dst_bytes) ||
        !tposei_mul(src_ld, esize, &unused) || !tposei_mul(dst_ld, esize, &unused))
        return TPOSE_ERR_OVERFLOW;
    s = (uintptr_t)src;
    d = (uintptr_t)dst;
    if (s > UINTPTR_MAX - src_bytes || d > UINTPTR_MAX - dst_bytes) return TPOSE_ERR_OVERFLOW;
    if (s < d + dst_bytes && d < s + src_bytes) return TPOSE_ERR_OVERLAP;
    job->dst = (unsigned char *)dst;
    job->src = (const unsigned char *)src;
    job->dst_stride = dst_ld * esize;
    job->src_stride = src_ld * esize;
    job->rows = rows;
    job->cols = cols;
    job->esize = esize;
    return TPOSE_OK;
}

TPOSE_API const char *tpose_status_str(tpose_status s)
{
    switch (s) {
    case TPOSE_OK: return "ok";
    case TPOSE_ERR_NULL: return "NULL pointer for a non-empty matrix";
    case TPOSE_ERR_LD: return "leading dimension smaller than the row it holds";
    case TPOSE_ERR_OVERFLOW: return "matrix extent in bytes does not fit in size_t";
    case TPOSE_ERR_OVERLAP: return "source and destination overlap";
    case TPOSE_ERR_WORKSPACE: return "workspace smaller than required";
    case TPOSE_ERR_ESIZE: return "element size is 0";
    case TPOSE_ERR_UNSUPPORTED: return "kernel not available on this CPU, build or element size";
    case TPOSE_ERR_ARG: return "invalid argument";
    }
    return "unknown status";
}

TPOSE_API const char *tpose_kernel_name(tpose_kernel kernel)
{
    if ((unsigned)kernel >= (unsigned)TPOSE_KERNEL_COUNT) return "unknown";
    return tposei_kernel_table[kernel].name;
}

TPOSE_API int tpose_kernel_supported(tpose_kernel kernel, size_t esize)
{
    if (esize == 0 || (unsigned)kernel >= (unsigned)TPOSE_KERNEL_COUNT) return 0;
    if (kernel == TPOSE_KERNEL_AUTO) return 1;
    return tposei_kernel_table[kernel].pick(esize) != NULL;
}

TPOSE_API tpose_kernel tpose_kernel_auto(size_t rows, size_t cols, size_t esize)
{
    return tposei_auto_choice(rows, cols, esize);
}

TPOSE_API size_t tpose_padded_ld(size_t cols, size_t esize)
{
    size_t g = TPOSEI_CACHE_LINE, step, ld, bytes;
    while (esize % g) g /= 2; /* gcd(esize, 64): 64 is a power of two */
    step = TPOSEI_CACHE_LINE / g; /* elements per whole-line step of ld */
    if (cols == 0 || esize == 0 || cols > (size_t)-1 - 2 * step) return 0;
    ld = (cols + step - 1) / step * step;
    if (!tposei_mul(ld, esize, &bytes)) return 0;
    if ((bytes / TPOSEI_CACHE_LINE) % 2 == 0 && (esize / g) % 2 == 1) ld += step;
    return tposei_mul(ld, esize, &bytes) ? ld : 0;
}

TPOSE_API void tpose_kernel_limit(tpose_kernel best)
{
    if ((unsigned)best < (unsigned)TPOSE_KERNEL_COUNT) tposei_kernel_ceiling = best;
}

TPOSE_API tpose_status tpose_matrix_with(tpose_kernel kernel, void *dst, size_t dst_ld,
                                         const void *src, size_t src_ld, size_t rows,
                                         size_t cols, size_t esize)
{
    tposei_job job;
    tposei_run_fn run;
    int empty;
    tpose_status st;
    if ((unsigned)kernel >= (unsigned)TPOSE_KERNEL_COUNT) return TPOSE_ERR_ARG;
    st = tposei_validate(&job, &empty, dst, dst_ld, src, src_ld, rows, cols, esize);
    if (st != TPOSE_OK || empty) return st;
    run = kernel == TPOSE_KERNEL_AUTO ? tposei_auto_run(rows, cols, esize)
                                      : tposei_kernel_table[kernel].pick(esize);
    if (run == NULL) return TPOSE_ERR_UNSUPPORTED;
    run(&job);
    return TPOSE_OK;
}

TPOSE_API tpose_status tpose_matrix(void *dst, size_t dst_ld, const void *src, size_t src_ld,
                                    size_t rows, size_t cols, size_t esize)
{
    return tpose_matrix_with(TPOSE_KERNEL_AUTO, dst, dst_ld, src, src_ld, rows, cols, esize);
}

#endif /* TPOSE_IMPLEMENTATION */

/*
MIT License

Copyright (c) 2026 The transpose authors

Permission is hereby granted, free of charge, to any person obtaining a copy of this software
and associated documentation files (the "Software"), to deal in the Software without
restriction, including without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
