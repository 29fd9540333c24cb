/* transpose.h - matrix transposition at memory speed, header-only C99: the API and its
   argument checks, the portable kernels, and the framework every kernel set runs in.

   Do this:
       #define TPOSE_IMPLEMENTATION
       #include "transpose.h"
   in exactly ONE C or C++ file of your program to create the implementation. Every other file
   just includes "transpose.h" for the declarations. Or build the two-line transpose.c that
   ships beside this header.

   Embedding / copy-paste use: `#define TPOSE_STATIC` before the include makes every function
   `static` in that translation unit and pulls in the implementation there. This header alone
   is a complete library with the portable kernels; where transpose_simd.h (x86) or
   transpose_neon.h (AArch64) sits beside it (and the compiler has __has_include) that SIMD
   kernel set joins automatically. The first
   include in a translation unit fixes the mode; a later include that asks for the other one
   is an #error.

   CONFIGURATION (define before the include; the same in every file of one program)

   | macro                   | default        | meaning                                          |
   |-------------------------|----------------|--------------------------------------------------|
   | TPOSE_IMPLEMENTATION    | undefined      | emit the definitions in this translation unit    |
   | TPOSE_STATIC            | undefined      | everything static + implementation in this TU    |
   | TPOSE_API               | extern/static  | storage class of public functions (DLL export)   |
   | TPOSE_NO_SIMD           | undefined      | portable kernels only (no SIMD header)           |
   | TPOSE_NO_STDLIB         | undefined      | no libc call at all: no memcpy, no malloc        |
   | TPOSE_MALLOC / FREE     | malloc / free  | allocator for tpose_inplace(work == NULL); both  |
   |                         |                | or neither; absent under TPOSE_NO_STDLIB         |
   | TPOSE_ASSERT(x)         | nothing        | internal precondition checks (e.g. assert)       |
   | TPOSE_PREFETCH_DIST     | 1              | blocks ahead that the `prefetch` kernel fetches  |

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

   KERNELS (portable ones run everywhere; docs/kernels.md has the details)

   | kernel        | element sizes | what it does                                          |
   |---------------|---------------|-------------------------------------------------------|
   | naive         | any           | element loop over the whole matrix; the test oracle   |
   | blocked       | any           | cache blocks whose rows span whole 64-byte lines      |
   | prefetch      | any           | blocked + software prefetch of the next block         |
   | swar          | any (tiles    | 8x8 u8, 4x4 u16 or 2x2 u32 tiles in uint64_t registers|
   |               | for 1, 2, 4)  | inside prefetched blocks; as prefetch for other sizes |
   | sse2          | 1, 2, 4, 8, 16| 16-byte unpack networks                               |
   | avx2          | 1, 2, 4, 8, 16| 32-byte unpack networks; skinny shapes by shuffles    |
   | avx2-stream   | 1, 2, 4, 8, 16| 64-byte line tiles, whole lines non-temporal          |
   | avx512        | 1, 2, 4, 8, 16| 64-byte networks, four rows per vector; VBMI skinny   |
   | avx512-stream | 1, 2, 4, 8, 16| avx512 with whole lines non-temporal                  |
   | neon          | 1, 2, 4, 8, 16| AArch64: 16-byte trn1/trn2 networks, 32-byte tiles     |

   HOW IT IS BUILT (BLIS's split of kernels, framework and per-CPU context)
       Micro-kernels move one tile (or one chunk of a skinny side) and are the only code with
       intrinsics; each ISA's kernels form kernel sets, one per element size, in their own
       header (transpose_simd.h for x86, transpose_neon.h for AArch64). The walks here traverse the matrix and call a set's
       kernels through its table; every tuning parameter is in one table (tposei_tune), filled
       once from what CPUID reports. transpose_inplace.h reaches this implementation through
       one small interface, tposei_kit.

   SECTIONS (grep for the marker)
       >>config >>portability >>cpu >>kernels-scalar >>sets >>tune >>walks >>table >>api
       transpose_simd.h: >>cpu >>kernels-sse2 >>kernels-avx2 >>kernels-avx512 >>sets
       transpose_neon.h: >>cpu >>kernels >>sets

   License: MIT, at the end of this file.
*/
#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "transpose.h needs C99 or later (or C++): compile with -std=c99"
#endif

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
     TPOSE_ERR_UNSUPPORTED when this build, CPU or element size lacks the kernel (for an
     empty matrix too). */
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

/* Share `task` of `ntasks` of tpose_matrix, for threads the caller runs (libxsmm's tid and
   nthreads): validates as tpose_matrix, then writes only that share. Shares are disjoint,
   together the whole result, balanced in bytes and cut on the destination's cache lines
   where the shape allows; each runs the kernel tpose_matrix picks for the whole matrix.
   Returns: as tpose_matrix, plus TPOSE_ERR_ARG when ntasks is 0 or task >= ntasks.
   Thread safety: the shares may run at once, in any order, on any threads. */
TPOSE_API tpose_status tpose_matrix_task(void *dst, size_t dst_ld, const void *src,
                                         size_t src_ld, size_t rows, size_t cols, size_t esize,
                                         size_t task, size_t ntasks);

/* The threads tpose_matrix, tpose_permute, the plans' apply and the in-place transposes run
   on where the user builds with OpenMP (_OPENMP defined, TPOSE_NO_OPENMP not) and the work
   is large enough to gain: n, or all of OpenMP's for 0. The default is 1.
   Returns: TPOSE_OK; TPOSE_ERR_UNSUPPORTED for n > 1 without OpenMP (nothing changes).
   Thread safety: a process-wide setting (per translation unit under TPOSE_STATIC); set it
   before other threads transpose. */
TPOSE_API tpose_status tpose_set_threads(size_t n);

/* The threads of that setting: n as set, OpenMP's maximum for 0, 1 without OpenMP. */
TPOSE_API size_t tpose_get_threads(void);

#ifdef __cplusplus
}
#endif

#endif /* TPOSE_TRANSPOSE_H */

/* Stop now, if you are only interested in the API. */

/* ======================================================================================== */
/* What the library's other headers share with this one's implementation (emitted wherever
   any of them is implemented): portability, small helpers, the job, and tposei_kit. */
/* ======================================================================================== */
#if (defined(TPOSE_IMPLEMENTATION) || defined(TPOSE_STATIC) ||                              \
     defined(TPOSE_INPLACE_IMPLEMENTATION) || defined(TPOSE_TENSOR_IMPLEMENTATION)) &&       \
    !defined(TPOSEI_SHARED_DONE)
#define TPOSEI_SHARED_DONE

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

/* A word passed through an empty asm: the optimiser cannot see the loop it sits in as a
   byte copy and turn it into a call to memcpy, which TPOSE_NO_STDLIB promises never
   happens (Clang's loop-idiom pass does that to plain word loops). */
#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_OPAQUE(w) __asm__("" : "+r"(w))
#else
#define TPOSEI_OPAQUE(w) ((void)0)
#endif

/* Read prefetch with no temporal locality (x86 PREFETCHNTA): the block is read once, then
   written elsewhere, so it should not displace the destination lines. Never faults. */
#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_PREFETCH(p) __builtin_prefetch((const void *)(p), 0, 0)
#define TPOSEI_PREFETCH_T0(p) __builtin_prefetch((const void *)(p), 0, 3)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#define TPOSEI_PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_NTA)
#define TPOSEI_PREFETCH_T0(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define TPOSEI_PREFETCH(p) ((void)(p))
#define TPOSEI_PREFETCH_T0(p) ((void)(p))
#endif

/* Read prefetch into L2 (PREFETCHT1): a panel is read one panel later, too late for L1.
   Overridable, so a test can record the panel cursor's addresses (tests/test_panel.c). */
#ifndef TPOSEI_PREFETCH_L2
#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_PREFETCH_L2(p) __builtin_prefetch((const void *)(p), 0, 2)
#else
#define TPOSEI_PREFETCH_L2(p) TPOSEI_PREFETCH(p)
#endif
#endif

#define TPOSEI_CACHE_LINE 64

/* Threads through OpenMP where the user's build has it (-fopenmp) and does not refuse it. */
#if defined(_OPENMP) && !defined(TPOSE_NO_OPENMP)
#include <omp.h>
#define TPOSEI_OPENMP 1
#else
#define TPOSEI_OPENMP 0
#endif

/* SIMD availability, decided here and nowhere else: 1 when this compiler can build the
   kernels of that ISA for this target (whether the CPU runs them is asked at run time).
   x86 (64- and 32-bit) with GCC or Clang: SSE2, AVX2 and AVX-512 are compiled with
   __attribute__((target)) and dispatched through CPUID, when transpose_simd.h is at hand.
   Not under TPOSE_NO_STDLIB with Clang at -O0: there each 64-byte vector passed to an
   AVX-512 intrinsic is copied by a call to memcpy (its -O0 instruction selector copies at
   most 32 bytes inline), which no source change avoids; the portable kernels need none. */
#if defined(__has_include)
#if __has_include("transpose_simd.h")
#define TPOSEI_SIMD_FILE 1
#endif
#if __has_include("transpose_neon.h")
#define TPOSEI_NEON_FILE 1
#endif
#else
#define TPOSEI_SIMD_FILE 1 /* no way to ask: the files are expected beside this one */
#define TPOSEI_NEON_FILE 1
#endif
#if !defined(TPOSE_NO_SIMD) && defined(TPOSEI_SIMD_FILE) &&                                 \
    (defined(__x86_64__) || defined(__i386__)) &&                                          \
    ((defined(__clang__) && __clang_major__ >= 6) || (!defined(__clang__) && __GNUC__ >= 7)) &&\
    !(defined(TPOSE_NO_STDLIB) && defined(__clang__) && !defined(__OPTIMIZE__))
#define TPOSEI_HAVE_SSE2 1
#define TPOSEI_HAVE_AVX2 1
#define TPOSEI_HAVE_AVX512 1
#else
#define TPOSEI_HAVE_SSE2 0
#define TPOSEI_HAVE_AVX2 0
#define TPOSEI_HAVE_AVX512 0
#endif
/* AArch64 with GCC or Clang, little-endian (the kernels' lane order is tested there only):
   Advanced SIMD is always present, so no target attribute and no run-time probe. */
#if !defined(TPOSE_NO_SIMD) && defined(TPOSEI_NEON_FILE) && defined(__aarch64__) &&         \
    defined(__ARM_NEON) && !defined(__AARCH64EB__) &&                                      \
    ((defined(__clang__) && __clang_major__ >= 6) || (!defined(__clang__) && __GNUC__ >= 7))
#define TPOSEI_HAVE_NEON 1
#else
#define TPOSEI_HAVE_NEON 0
#endif

/* Full unrolling of the kernels' fixed-trip loops (at most 32 iterations, constant after
   inlining), so their row arrays live in registers; GCC 8+ and Clang both read this pragma.
   nvcc's front end does not know it, so host code compiled by nvcc goes without the hint. */
#if defined(__CUDACC__)
#define TPOSEI_UNROLL
#else
#define TPOSEI_UNROLL _Pragma("GCC unroll 32")
#endif

#ifndef TPOSE_PREFETCH_DIST
#define TPOSE_PREFETCH_DIST 1 /* blocks ahead that the prefetching kernels fetch */
#endif

/* A byte loop the optimiser cannot turn back into a libc memcpy call (volatile source),
   for the odd bytes of an element under TPOSE_NO_STDLIB without GCC builtins. */
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

/* n bytes by fixed-size moves: 8-byte words (each through TPOSEI_OPAQUE), then 4, 2, 1. For
   elements of sizes the specialised moves do not cover (3, 12, 24...). */
static inline void tposei_copy_words(unsigned char *dst, const unsigned char *src, size_t n)
{
    for (; n >= 8; n -= 8, dst += 8, src += 8) {
        uint64_t w;
        TPOSEI_MEMCPY(&w, src, 8);
        TPOSEI_OPAQUE(w);
        TPOSEI_MEMCPY(dst, &w, 8);
    }
    if (n & 4) {
        TPOSEI_MEMCPY(dst, src, 4);
        dst += 4;
        src += 4;
    }
    if (n & 2) {
        TPOSEI_MEMCPY(dst, src, 2);
        dst += 2;
        src += 2;
    }
    if (n & 1) *dst = *src;
}

/* Moves one element. Callers with a constant esize fold the switch into one load and one
   store for 1, 2, 4, 8 and 16 bytes. */
TPOSEI_FORCE_INLINE void tposei_move(unsigned char *TPOSE_RESTRICT dst,
                                     const unsigned char *TPOSE_RESTRICT src, size_t esize)
{
    switch (esize) {
    case 1: *dst = *src; return;
    case 2: TPOSEI_MEMCPY(dst, src, 2); return;
    case 4: TPOSEI_MEMCPY(dst, src, 4); return;
    case 8: TPOSEI_MEMCPY(dst, src, 8); return;
    case 16: TPOSEI_MEMCPY(dst, src, 16); return;
    default: tposei_copy_words(dst, src, esize); return;
    }
}

/* Bytes from the first to one past the last element of a rows x cols matrix with leading
   dimension ld: ((rows - 1) * ld + cols) * esize. 0 on overflow. */
static inline int tposei_extent(size_t rows, size_t cols, size_t ld, size_t esize, size_t *bytes)
{
    size_t elems;
    if (!tposei_mul(rows - 1, ld, &elems) || elems > (size_t)-1 - cols) return 0;
    if (!tposei_mul(elems + cols, esize, bytes)) return 0;
    return 1;
}

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

/* ---- shares for threads ----------------------------------------------------------------- */

/* Pieces [lo, hi) of `den` along m elements taken in units of u, the first unit starting at
   `off`, as [*at, *end): units are dealt out evenly (the first units % den pieces one more),
   piece 0 starts at 0 and piece den - 1 ends at m, and the cuts never decrease, so pieces
   are disjoint and together cover m. */
static inline void tposei_cuts(size_t m, size_t u, size_t off, size_t lo, size_t hi, size_t den,
                               size_t *at, size_t *end)
{
    const size_t units = off < m ? (m - off + u - 1) / u : 0;
    const size_t q = units / den, extra = units % den;
    const size_t a = lo * q + (lo < extra ? lo : extra), b = hi * q + (hi < extra ? hi : extra);
    *at = lo == 0 ? 0 : a >= units ? m : off + a * u;
    *end = b >= units ? m : off + b * u;
}

/* Pieces [lo, hi) of `den` of a job: source columns (whole destination rows) when the matrix
   is at least as wide as tall, else source rows, whose destination columns are then cut on
   the destination's cache lines. Units of a line's worth of elements keep every tile whole
   (down to 8 elements across source columns where pieces would otherwise differ by more
   than a sixteenth), and the long side is the one cut, so a piece keeps the shape class of
   its matrix. Returns 0 for an empty piece. */
static inline int tposei_job_piece(tposei_job *sub, const tposei_job *job, size_t lo, size_t hi,
                                   size_t den)
{
    const size_t e = job->esize, by_cols = job->cols >= job->rows;
    const size_t m = by_cols ? job->cols : job->rows;
    const size_t head = (size_t)(0u - (uintptr_t)job->dst) % TPOSEI_CACHE_LINE;
    const size_t off = by_cols || head % e ? 0 : head / e;
    const size_t low = e & (0 - e); /* gcd(e, 64) is the lower of this and 64 */
    size_t u = low < TPOSEI_CACHE_LINE ? TPOSEI_CACHE_LINE / low : 1, a, b;
    /* whole destination rows: finer units cost a partial tile column, not shared lines */
    while (by_cols && u > 8 && m / u / 16 < den) u /= 2;
    tposei_cuts(m, u, off, lo, hi, den, &a, &b);
    sub->dst_stride = job->dst_stride;
    sub->src_stride = job->src_stride;
    sub->esize = e;
    sub->rows = by_cols ? job->rows : b - a;
    sub->cols = by_cols ? b - a : job->cols;
    sub->dst = job->dst + (by_cols ? a * job->dst_stride : a * e);
    sub->src = job->src + (by_cols ? a * e : a * job->src_stride);
    return a < b;
}

/* Rows [i, n) between n AoS rows of eight 8-byte elements at `aos` (row stride `as`) and
   eight SoA rows rows[0..7], one element at a time: AoS -> SoA, or back with `wide`. The
   scalar form of the n x 8 kernel (its tail, and the in-place slot path without SIMD). */
static inline void tposei_rows8_scalar(unsigned char *aos, size_t as, unsigned char *const *rows,
                                       size_t i, size_t n, int wide)
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

/* tposei_kit: what transpose_inplace.h (and later headers) use of this implementation, each
   member NULL where this CPU, build or tpose_kernel_limit() rules it out. */
/* Transposes one square tile; strides in bytes, no alignment assumed. */
typedef void (*tposei_tile_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride);
/* k x k tiles at x and y (rows st bytes apart) swapped, each transposed; x == y transposes
   one tile in place. */
typedef void (*tposei_swap_fn)(unsigned char *x, unsigned char *y, size_t st);
/* n rows of eight 8-byte elements at aos (rows `as` bytes apart) to the eight rows rows[k]
   of n elements, or back with `wide`; whole lines non-temporal, fenced. */
typedef void (*tposei_rows8_fn)(unsigned char *aos, size_t as, unsigned char *const *rows,
                                size_t n, int wide);
/* `tiles` 8x8 tiles of 8-byte elements, tile i from src + i * sstep to dst + i * dstep. */
typedef void (*tposei_strip8_fn)(unsigned char *dst, size_t ds, const unsigned char *src,
                                 size_t ss, size_t tiles, size_t dstep, size_t sstep);
/* The in-place rotations' gathers, 8-byte elements: for each of `rows` rows d = row0 +
   r * step, element jb + k (k < 8) of the row becomes the one fo[jb + k] bytes below it
   (`down`: above it). */
typedef void (*tposei_gather8_fn)(unsigned char *row0, ptrdiff_t step, size_t rows,
                                  const size_t *fo, size_t jb, int down);
/* AUTO's kernel for rows x cols when `bytes` of destination decide streaming, and a
   validated job run through a kernel so chosen: a batch of small matrices that together
   outgrow the caches streams each one. */
typedef tpose_kernel (*tposei_pick_fn)(size_t rows, size_t cols, size_t esize, size_t bytes);
typedef void (*tposei_run_fn)(tpose_kernel kernel, const tposei_job *job);

typedef struct tposei_kit {
    tposei_swap_fn swap;      /* register tile pairs for this element size */
    size_t swap_edge;         /* their k */
    tposei_rows8_fn rows8;    /* n x 8 doubles (AVX-512) */
    tposei_strip8_fn strip8;  /* 8x8 doubles in a row (AVX-512) */
    tposei_gather8_fn gather8; /* the rotations' gathers (AVX-512) */
    tposei_pick_fn pick;
    tposei_run_fn run;
    /* bytes copied with whole destination lines non-temporal (the edges plain) and the fence
       that orders them, of the widest streaming set allowed; NULL where none is */
    void (*stream_row)(unsigned char *dst, const unsigned char *src, size_t bytes);
    void (*fence)(void);
    /* one tile_edge x tile_edge tile through 32-byte vectors, plain stores (src and dst rows
       their strides apart); NULL where AVX2 is not allowed */
    tposei_tile_fn tile;
    size_t tile_edge;
    /* the same elements' tile of half that edge (SSE2), for slices the full tile would
       cover much twice over; NULL where there is none */
    tposei_tile_fn tile_half;
    /* one line_edge x line_edge tile (64 bytes a side) storing whole destination lines
       non-temporally (destination rows on cache lines; the kit's fence orders them), of the
       widest streaming set allowed; NULL where none is */
    tposei_tile_fn line_nt;
    size_t line_edge;
    /* the threads a transpose moving `bytes` runs on (tpose_set_threads, tune thread_share;
       1 inside a parallel region and without OpenMP) */
    size_t (*team)(size_t bytes);
} tposei_kit;

/* The kit for elements of `esize` bytes under the current kernel limit. Internal: its
   linkage follows TPOSE_API so the in-place implementation may sit in another file. */
#ifdef __cplusplus
extern "C" {
#endif
TPOSE_API tposei_kit tposei_kit_get(size_t esize);
#ifdef __cplusplus
}
#endif

#endif /* the shared part */

#if (defined(TPOSE_IMPLEMENTATION) || defined(TPOSE_STATIC)) && !defined(TPOSEI_IMPL_DONE)
#define TPOSEI_IMPL_DONE

/* ======================================================================================== */
// >>cpu
/* ======================================================================================== */

/* What the processor reports, as far as the tune table cares. The ISA header fills it
   (tposei_arch_probe); zeros mean unknown, and the table then takes its defaults. */
enum {
    TPOSEI_ISA_SSE2 = 1,
    TPOSEI_ISA_AVX2 = 2,   /* AVX2 and the OS saves YMM state */
    TPOSEI_ISA_AVX512 = 4, /* F, BW, VL and the OS saves ZMM and opmask state */
    TPOSEI_ISA_VBMI = 8,   /* AVX-512 VBMI byte permutes */
    TPOSEI_ISA_NEON = 16   /* AArch64 Advanced SIMD */
};
enum { TPOSEI_VENDOR_OTHER, TPOSEI_VENDOR_INTEL, TPOSEI_VENDOR_AMD };

typedef struct tposei_cpu {
    unsigned isa;           /* TPOSEI_ISA_* */
    unsigned vendor;        /* TPOSEI_VENDOR_* */
    unsigned family, model; /* display family and model (extended fields included) */
    size_t l1d, l2, l3;     /* data cache bytes per core (l3: the whole cache) */
    size_t l1_span;         /* bytes of one L1 data way (line x sets): addresses this far
                               apart share a set */
    size_t tlb2;            /* second-level TLB entries for 4 KiB pages */
} tposei_cpu;

/* AUTO's ceiling (tpose_kernel_limit); TPOSE_KERNEL_AUTO means none. */
static tpose_kernel tposei_kernel_ceiling = TPOSE_KERNEL_AUTO;

/* tpose_set_threads's setting: 0 means all of OpenMP's. */
static size_t tposei_threads = 1;

/* ======================================================================================== */
// >>kernels-scalar
/* ======================================================================================== */

/* A rows x cols source block transposed to dst: the scalar edge routine. */
typedef void (*tposei_rect_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride, size_t rows, size_t cols);

/* Scalar transpose of a rows x cols source block, reading source rows in order. */
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

/* The edge routine per element size: the micro-kernel of the scalar paths, specialised so
   that each element is one load and one store. */
#define TPOSEI_RECT(e)                                                                      \
    static void tposei_rect_e##e(unsigned char *dst, size_t ds, const unsigned char *src,   \
                                 size_t ss, size_t rows, size_t cols)                       \
    {                                                                                       \
        tposei_any_block(dst, ds, src, ss, rows, cols, e);                                  \
    }
TPOSEI_RECT(1)
TPOSEI_RECT(2)
TPOSEI_RECT(4)
TPOSEI_RECT(8)
TPOSEI_RECT(16)
#undef TPOSEI_RECT

/* Any other size: each element by tposei_copy_words. */
static void tposei_rect_any(unsigned char *dst, size_t ds, const unsigned char *src, size_t ss,
                            size_t rows, size_t cols, size_t esize)
{
    tposei_any_block(dst, ds, src, ss, rows, cols, esize);
}

/* The edge routine for `esize` bytes, as a call that takes the size as an argument. */
static void tposei_rect(unsigned char *dst, size_t ds, const unsigned char *src, size_t ss,
                        size_t rows, size_t cols, size_t esize)
{
    switch (esize) {
    case 1: tposei_rect_e1(dst, ds, src, ss, rows, cols); return;
    case 2: tposei_rect_e2(dst, ds, src, ss, rows, cols); return;
    case 4: tposei_rect_e4(dst, ds, src, ss, rows, cols); return;
    case 8: tposei_rect_e8(dst, ds, src, ss, rows, cols); return;
    case 16: tposei_rect_e16(dst, ds, src, ss, rows, cols); return;
    default: tposei_rect_any(dst, ds, src, ss, rows, cols, esize); return;
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

static void tposei_u8_8x8_swar(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride)
{
    tposei_swar_tile(dst, dst_stride, src, src_stride, 8);
}

static void tposei_u16_4x4_swar(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                                size_t src_stride)
{
    tposei_swar_tile(dst, dst_stride, src, src_stride, 4);
}

static void tposei_u32_2x2_swar(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                                size_t src_stride)
{
    tposei_swar_tile(dst, dst_stride, src, src_stride, 2);
}

/* ======================================================================================== */
// >>sets
/* ======================================================================================== */

/* The roles a kernel set fills. A micro-kernel handles whole tiles; the walks handle edges. */

/* A corner of a tile: `rows` x `cols` source elements, each at most the tile's side. */
typedef void (*tposei_part_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride, size_t rows, size_t cols);
/* A line tile for destination rows off cache lines: each destination row joined with its
   carry (the row's previous chunk) so lines leave whole; `phase` is TPOSEI_JOIN_*. */
typedef void (*tposei_join_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                               size_t src_stride, unsigned char *carry, int phase);
/* A buffered row leaves: its whole lines non-temporal, its partial ends stored normally. */
typedef void (*tposei_row_fn)(unsigned char *dst, const unsigned char *buf, size_t bytes);
/* A pipelined pair of line tiles (see the pipe kernel in transpose_simd.h): streams the pair
   parked in set `set` of `parks` to dst while parking the pair at `next` in the other set,
   calling `tick(ctx)` once per step of its 16 so the walk's prefetch keeps pace. dst NULL:
   park only; next NULL: stream only. */
typedef void (*tposei_pipe_fn)(unsigned char *dst, size_t dst_stride, const unsigned char *next,
                               size_t src_stride, unsigned char *parks, unsigned set,
                               void (*tick)(void *ctx), void *ctx);
/* The seams of a dense destination joined in the last band (AVX-512): tile column `col`'s
   rows from the last whole line of each to the first of the next. */
typedef void (*tposei_seam_fn)(const tposei_job *job, size_t col, size_t tile,
                               tposei_part_fn part, const unsigned char *carry);
/* The first destination row's first chunk, the one head no seam writes. */
typedef void (*tposei_head_fn)(unsigned char *dst, const unsigned char *carry);
/* A skinny family: runs the job through one of the ISA's strip kernels and returns 1, or
   returns 0 when none fits. */
typedef int (*tposei_strips_fn)(const tposei_job *job, int stream);

/* Phases of a joined tile: LEAD only loads the carry (the chunk above the band, read
   again), HEAD stores the part of a row's first chunk inside the row, normally, and BODY
   streams the line that the carry and the chunk complete. */
enum { TPOSEI_JOIN_LEAD, TPOSEI_JOIN_HEAD, TPOSEI_JOIN_BODY };
/* How joined tiles keep their carries: 64 bytes per destination row, the same where a dense
   destination's seams are written by `seam`, or 128 (the carry, then the chunk beside it),
   pairs kept from band to band by the whole-width walk. */
enum { TPOSEI_CARRY_LINES, TPOSEI_CARRY_SEAMS, TPOSEI_CARRY_PAIRS, TPOSEI_CARRY_WHOLE };
/* When a set's tile pairs (`pair`) may run: always, with the tune table's across_pairs, as
   the four-tile column of down4, or beside its 2-byte runs, u16_run (see tposei_tune). */
enum { TPOSEI_PAIR_ALWAYS, TPOSEI_PAIR_ACROSS, TPOSEI_PAIR_DOWN4, TPOSEI_PAIR_RUNS };

/* One kernel set: one ISA's micro-kernels for one element size. The walks read nothing
   else of an ISA. Pairs of members [0] / [1] are for source rows that spread over L1 /
   crowd it (tposei_spread). */
typedef struct tposei_kset {
    unsigned isa;           /* TPOSEI_ISA_* the CPU needs for this set */
    unsigned join_b_isa;    /* what join_b needs beyond `isa` */
    size_t esize;
    size_t tile;            /* edge of `tile_fn` in elements */
    tposei_tile_fn tile_fn; /* plain stores: the in-cache walk and the L1 buffer */
    tposei_part_fn part;    /* the in-cache walk's corners; NULL: the scalar edge routine */
    /* streaming straight from registers: line tiles, 64 bytes a side */
    size_t line;                  /* their edge in elements; 0: no line tiles */
    tposei_tile_fn nt[2];         /* whole destination lines, non-temporal */
    tposei_join_fn join_w[2];     /* rows off lines at even offsets */
    tposei_join_fn join_b[2];     /* at any offset */
    tposei_join_fn join_whole;    /* the whole-width walk's joins (tune: u8_join_whole) */
    tposei_part_fn line_part;     /* corners of the line tiles */
    tposei_tile_fn pair[2];       /* pair_tiles tiles down a column, blocks walked down */
    size_t pair_tiles;
    tposei_tile_fn column;        /* matrices one tile column wide: column_tiles at once */
    size_t column_tiles;
    tposei_pipe_fn pipe;          /* pipelined pairs (tune: u8_pipe) */
    tposei_seam_fn seam;          /* with TPOSEI_CARRY_SEAMS */
    tposei_head_fn seam_head;
    tposei_row_fn stream_row;     /* buffered rows */
    void (*fence)(void);          /* orders the non-temporal stores; once per call */
    tposei_strips_fn strips;      /* the ISA's skinny family, tried first; NULL: none */
    unsigned pair_when;           /* TPOSEI_PAIR_* */
    int carries;                  /* TPOSEI_CARRY_* of the joins */
    int quarter;                  /* "spread" by the VBMI bytes' rule (tune: quarter_sets) */
    int small_buffered;           /* a side under `line`: the L1 buffer with tile_fn */
    int dense;                    /* dense short destination rows off lines: the dense walk */
} tposei_kset;

/* One tpose_kernel: its kernel sets (a NULL-terminated list, the first whose esize matches
   and whose ISA the CPU has wins) and how the walks run them. */
enum { TPOSEI_WALK_NAIVE, TPOSEI_WALK_BLOCKS, TPOSEI_WALK_PREFETCH, TPOSEI_WALK_TILES,
       TPOSEI_WALK_STREAM };
typedef struct tposei_family {
    int walk; /* TPOSEI_WALK_* */
    const tposei_kset *const *sets;
    /* 1 when AUTO should leave this shape to the portable kernels (only edges would run) */
    int (*declines)(size_t rows, size_t cols, size_t esize);
} tposei_family;

/* ======================================================================================== */
// >>tune
/* ======================================================================================== */

/* Every tuning parameter, filled once at dispatch (tposei_tune_fill): derived from the
   tposei_cpu facts where a size causes it, then the rows of tposei_tune_rows for the CPUs
   where a measurement showed the derived or default value wrong. docs/tuning.md explains
   each; bench/MEASURED.md has the measurements. Sizes in bytes unless named otherwise. */
typedef struct tposei_tune {
    /* dispatch */
    size_t stream_from;     /* destination bytes from which AUTO streams: L3 / 8, >= L2 */
    size_t portable_cache;  /* matrices up to this take `blocked` over `prefetch`: L2 / 4 */
    /* the direct stream blocks: band lines of destination by rows destination rows */
    size_t direct_lines;    /* 8 */
    size_t direct_rows;     /* 2-16-byte elements: L2 / 2048 (256 KiB of source a block) */
    size_t direct_rows_u8;  /* bytes: the same */
    size_t wide_lines, wide_rows; /* 8- and 16-byte elements' blocks instead (0: none) */
    size_t u8_rows, u8_below;     /* bytes' blocks walked across, source strides below */
    size_t u32_band;        /* floats' bands walked across, source rows (0: direct_lines) */
    size_t alias_wide_max;  /* aliasing 2x8 blocks for source strides below this */
    int alias_u8_only;      /* only bytes take the aliasing blocks */
    size_t alias_whole_row; /* aliasing byte blocks as wide as source rows up to this */
    size_t down_align;      /* destination strides walked down: multiples of this */
    int down_any;           /* walk down whatever the source stride (8 bytes: down_align_e8) */
    size_t down_align_e8;
    size_t group_rows;      /* aliasing blocks in column groups this many rows wide: TLB / 3 */
    size_t group_stride;    /* ... where destination rows are this far apart: a page */
    size_t pf_ahead;        /* the tile cursor's distance */
    size_t pf_lead_u8;      /* bytes' panel cursor runs this far ahead: half a block */
    size_t seq_ahead;       /* skinny paths' sequential prefetch */
    size_t join_short_max;  /* joined blocks of matrices up to this are join_rows wide */
    size_t join_rows;
    size_t quarter_sets;    /* VBMI bytes: quarter tiles where a tile's rows span this many sets */
    size_t short_rows;      /* bytes on 4 L1 sets with rows up to this: quarter tiles across */
    size_t plain_rows_u8;   /* bytes with destination rows up to this (of down_align): cache */
    int down4;              /* VBMI bytes walked down four rows-once tiles at a time */
    size_t down4_align;     /* ... on destination strides of this multiple */
    size_t u8_run, u16_run; /* bytes / 2-byte blocks of one tile row by this many bytes;
                               with u16_run, AVX2's crowded 2-byte tiles go down in pairs */
    size_t tile_ahead;      /* 4-16-byte direct blocks across fetched by the tile cursor */
    int pf_pages;           /* bytes' panel bursts end on 4 KiB pages */
    int u8_pipe;            /* bytes walked down by pipelined pairs */
    int u8_join_whole;      /* bytes off lines with short rows: the whole-width walk */
    int overlap_narrow;     /* 1-2-byte blocks end in an overlapping tile column */
    int across_pairs;       /* 2-16-byte stream tiles two at a time */
    size_t skinny_parts;    /* tall skinny streams taken in this many parts (1: one) */
    int rows8_wide_pairs;   /* 8 x n doubles two chunks at a time */
    size_t dense_row_max;   /* AVX2 dense walk: destination rows up to this */
    size_t thread_share;    /* OpenMP: each thread moves at least this many bytes */
    size_t alias_span;      /* destination rows a multiple of this apart share one L1 set:
                               AUTO streams them, the in-cache walk goes down at half of it */
} tposei_tune;

/* The CPUs the rows below name. */
enum { TPOSEI_CLASS_ANY, TPOSEI_CLASS_ZEN3, TPOSEI_CLASS_ZEN5, TPOSEI_CLASS_INTEL };

/* CPUID identity -> class: (vendor, family, first model, last model). */
static const struct {
    unsigned char vendor, cls;
    unsigned short family, model_lo, model_hi;
} tposei_cpu_classes[] = {
    {TPOSEI_VENDOR_AMD, TPOSEI_CLASS_ZEN3, 0x19, 0x00, 0x0F},
    {TPOSEI_VENDOR_AMD, TPOSEI_CLASS_ZEN3, 0x19, 0x20, 0x2F},
    {TPOSEI_VENDOR_AMD, TPOSEI_CLASS_ZEN3, 0x19, 0x40, 0x5F},
    {TPOSEI_VENDOR_AMD, TPOSEI_CLASS_ZEN5, 0x1A, 0x00, 0xFF},
    {TPOSEI_VENDOR_INTEL, TPOSEI_CLASS_INTEL, 0x06, 0x00, 0xFF},
};

#define TPOSEI_T(field) sizeof(((tposei_tune *)0)->field), offsetof(tposei_tune, field)
/* One row: a class, a field (its size and offset) and its value; the reason is the
   measurement in MEASURED.md. Packed into 8 bytes: the table is read once. */
typedef struct tposei_tune_row {
    unsigned char cls, size;
    unsigned short offset;
    uint32_t value;
} tposei_tune_row;
static const tposei_tune_row tposei_tune_rows[] = {
    /* Zen 3 (MEASURED.md, "Zen 3 guest") */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(u8_run), 4096},     /* bytes: 4 KiB source runs read at 0.85-0.99 */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(u16_run), 8192},    /* 2-byte: 8 KiB runs x1.2-1.5, pairs */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(tile_ahead), 4096}, /* floats: panels read at 0.39-0.56 there */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(pf_pages), 1},      /* bytes: page-ended bursts x1.2-1.6 */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(u8_pipe), 1},       /* bytes walked down: pipelined x1.2-1.5 */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(u8_join_whole), 1}, /* bytes off lines: whole width x1.0-1.3 */
    {TPOSEI_CLASS_ZEN3, TPOSEI_T(overlap_narrow), 1}, /* 1-2 bytes: overlapping column x1.4-2.3 */
    /* Zen 5 (MEASURED.md, "Zen 5 guest") */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(direct_rows), 256},    /* half-width blocks x1.2-1.5 */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(direct_rows_u8), 256}, /* the same for bytes */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(wide_lines), 32},      /* doubles: 32 lines x 64 rows, x1.57 */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(wide_rows), 64},
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(u8_rows), 64},         /* bytes on short strides: x1.13 */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(u8_below), 10240},
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(alias_u8_only), 1},    /* others stream better direct */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(alias_whole_row), 1024}, /* whole-row byte blocks x1.05-1.2 */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(down_any), 1},         /* down on any stride: 0.35 -> 0.8 */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(down_align_e8), 1024}, /* doubles across on odd 512s */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(short_rows), 0},       /* quarter tiles lose there */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(plain_rows_u8), 1024}, /* 512/1024-byte rows: plain stores */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(down4), 1},            /* four rows-once tiles down x1.2 */
    {TPOSEI_CLASS_ZEN5, TPOSEI_T(rows8_wide_pairs), 0}, /* 8 x n: one chunk at a time x1.1 */
    /* Intel (MEASURED.md, "Xeon guest") */
    {TPOSEI_CLASS_INTEL, TPOSEI_T(across_pairs), 1},  /* two lines a row: x1.05-1.2 */
    {TPOSEI_CLASS_INTEL, TPOSEI_T(direct_rows), 256}, /* Zen 5's shapes for 2-16 bytes x1.1-1.2 */
    {TPOSEI_CLASS_INTEL, TPOSEI_T(wide_lines), 32},
    {TPOSEI_CLASS_INTEL, TPOSEI_T(wide_rows), 64},
    {TPOSEI_CLASS_INTEL, TPOSEI_T(u32_band), 256},    /* floats across: 256 rows x1.12 */
    {TPOSEI_CLASS_INTEL, TPOSEI_T(skinny_parts), 4},  /* four source streams x1.15-1.2 */
};
#undef TPOSEI_T

/* The largest power of two <= x (x >= 1). */
static size_t tposei_pow2_floor(size_t x)
{
    size_t p = 1;
    while (p <= x / 2) p *= 2;
    return p;
}

static size_t tposei_clamp(size_t x, size_t lo, size_t hi) { return x < lo ? lo : x > hi ? hi : x; }

/* The class of a CPU (tposei_cpu_classes), TPOSEI_CLASS_ANY when none names it. */
static unsigned tposei_cpu_class(const tposei_cpu *c)
{
    size_t i;
    for (i = 0; i < sizeof tposei_cpu_classes / sizeof *tposei_cpu_classes; i++)
        if (tposei_cpu_classes[i].vendor == c->vendor &&
            tposei_cpu_classes[i].family == c->family && c->model >= tposei_cpu_classes[i].model_lo &&
            c->model <= tposei_cpu_classes[i].model_hi)
            return tposei_cpu_classes[i].cls;
    return c->vendor == TPOSEI_VENDOR_AMD && c->family > 0x1A ? TPOSEI_CLASS_ZEN5 : TPOSEI_CLASS_ANY;
}

/* The values that follow from the caches and TLB (defaults where CPUID said nothing). */
static void tposei_tune_derive(tposei_tune *t, const tposei_cpu *c)
{
    const size_t l2 = c->l2 ? c->l2 : (size_t)1 << 20;
    const size_t tlb = c->tlb2 ? c->tlb2 : 3072;
    /* Stream once source and destination together pass a quarter of the last-level cache:
       below that, data a program just touched stay there and plain stores run faster; above
       it, streaming won warm too, and cold data favour it at every size (MEASURED.md,
       "Where streaming pays"). */
    t->stream_from = c->l3 / 8 > l2 ? c->l3 / 8 : l2;
    t->portable_cache = l2 / 4;
    t->direct_lines = 8;
    t->direct_rows = t->direct_rows_u8 = tposei_clamp(tposei_pow2_floor(l2 / 2048), 128, 1024);
    t->wide_lines = t->wide_rows = t->u8_rows = t->u8_below = t->u32_band = 0;
    t->alias_wide_max = 32768;
    t->alias_u8_only = 0;
    t->alias_whole_row = 0;
    t->down_align = 512;
    t->down_any = 0;
    t->down_align_e8 = 512;
    t->group_rows = tposei_clamp(tposei_pow2_floor(tlb / 3), 256, 4096);
    t->group_stride = 4096;
    t->pf_ahead = 12288;
    t->pf_lead_u8 = t->direct_rows_u8 * t->direct_lines * TPOSEI_CACHE_LINE / 2;
    t->seq_ahead = 2048;
    t->join_short_max = (size_t)16 << 20;
    t->join_rows = 128;
    t->quarter_sets = 8;
    t->short_rows = 1024;
    t->plain_rows_u8 = 0;
    t->down4 = 0;
    t->down4_align = 1024;
    t->u8_run = t->u16_run = t->tile_ahead = 0;
    t->pf_pages = t->u8_pipe = t->u8_join_whole = t->overlap_narrow = 0;
    t->across_pairs = 0;
    t->skinny_parts = 1;
    t->rows8_wide_pairs = 1;
    t->dense_row_max = 192;
    /* a team's start costs a few microseconds: a thread's share of 128 KiB pays for it
       (1.2-1.5x on 2 threads, warm; MEASURED.md, "Threads") */
    t->thread_share = 131072;
    /* Plain stores to rows in one L1 set wait on each other's fills, warm or cold: such
       destinations ran at 0.06-0.2 of memcpy in L2 and L3 against 0.3-0.65 streamed, and
       rows half that far apart (two sets) at twice the speed walked down instead of across
       (MEASURED.md, "Destination rows in one L1 set"). A VIPT L1 spans a 4 KiB page. */
    t->alias_span = c->l1_span >= 1024 ? c->l1_span : 4096;
}

/* Derived values, then the rows of this CPU's class. */
static void tposei_tune_fill(tposei_tune *t, const tposei_cpu *c, unsigned cls)
{
    size_t i;
    tposei_tune_derive(t, c);
    for (i = 0; i < sizeof tposei_tune_rows / sizeof *tposei_tune_rows; i++) {
        const tposei_tune_row *r = &tposei_tune_rows[i];
        unsigned char *field = (unsigned char *)t + r->offset;
        if (r->cls != cls) continue;
        if (r->size == sizeof(int)) {
            const int v = (int)r->value;
            TPOSEI_MEMCPY(field, &v, sizeof v);
        } else {
            const size_t v = r->value;
            TPOSEI_MEMCPY(field, &v, sizeof v);
        }
    }
}

/* The probe of the ISA header (transpose_simd.h), or the portable one at the end of >>walks. */
static void tposei_arch_probe(tposei_cpu *c);

/* The CPU's facts and the tune table, filled on first use. */
typedef struct tposei_context {
    tposei_cpu cpu;
    tposei_tune tune;
} tposei_context;

static tposei_context tposei_context_store;
static int tposei_context_state; /* 0: empty, 1: being filled, 2: ready */

static void tposei_context_fill(tposei_context *x, int cls)
{
    tposei_cpu *c = &x->cpu; /* filled in place: a struct copy may be a call to memcpy */
    c->isa = c->vendor = c->family = c->model = 0;
    c->l1d = c->l2 = c->l3 = c->l1_span = c->tlb2 = 0;
    tposei_arch_probe(c);
    tposei_tune_fill(&x->tune, c, cls < 0 ? tposei_cpu_class(c) : (unsigned)cls);
}

/* Thread safety: the first caller fills the store while later ones wait the microseconds
   it takes; afterwards it is only read. */
static const tposei_context *tposei_context_get(void)
{
#if defined(__GNUC__) || defined(__clang__)
    int s = __atomic_load_n(&tposei_context_state, __ATOMIC_ACQUIRE);
    if (s == 2) return &tposei_context_store;
    if (s == 0 && __atomic_compare_exchange_n(&tposei_context_state, &s, 1, 0, __ATOMIC_ACQUIRE,
                                              __ATOMIC_ACQUIRE)) {
        tposei_context_fill(&tposei_context_store, -1);
        __atomic_store_n(&tposei_context_state, 2, __ATOMIC_RELEASE);
    }
    while (__atomic_load_n(&tposei_context_state, __ATOMIC_ACQUIRE) != 2) {
    }
#else
    if (tposei_context_state != 2) {
        tposei_context_fill(&tposei_context_store, -1);
        tposei_context_state = 2;
    }
#endif
    return &tposei_context_store;
}

TPOSEI_FORCE_INLINE const tposei_tune *tposei_tune_get(void) { return &tposei_context_get()->tune; }

TPOSEI_FORCE_INLINE int tposei_cpu_has(unsigned isa)
{
    return (tposei_context_get()->cpu.isa & isa) == isa;
}

/* ======================================================================================== */
// >>walks
/* ======================================================================================== */

/* ---- blocks: the portable kernels ------------------------------------------------------ */

/* Edge of a square cache block in elements: rows of whole 64-byte lines, one line for 1 and
   2-byte elements and two for wider ones, so a block pair and the next pair's prefetched
   lines stay inside L1 (bench/MEASURED.md, "the portable kernels"). */
static size_t tposei_block_edge(size_t esize)
{
    switch (esize) {
    case 1: return 64;
    case 2:
    case 4: return 32;
    case 8: return 16;
    case 16: return 8;
    default: return 16;
    }
}

/* The block TPOSE_PREFETCH_DIST blocks ahead in the walk's order (along the band, then the
   next band): source origin, rows and bytes per row, and the same for the destination block
   it will write; rows == 0 when there is none. */
typedef struct tposei_next_block {
    const unsigned char *src;
    const unsigned char *dst;
    size_t rows, row_bytes;         /* source side */
    size_t dst_rows, dst_row_bytes; /* destination side */
} tposei_next_block;

static tposei_next_block tposei_find_next(const tposei_job *job, size_t rb, size_t cb,
                                          size_t block)
{
    tposei_next_block next;
    const size_t esize = job->esize, per_band = (job->cols + block - 1) / block;
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
static void tposei_prefetch_lines(const unsigned char *origin, size_t stride, size_t count,
                                  size_t row_bytes, size_t first, size_t last)
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
static void tposei_prefetch_rows(const tposei_next_block *next, const tposei_job *job,
                                 size_t first, size_t last)
{
    tposei_prefetch_lines(next->src, job->src_stride, next->rows, next->row_bytes, first, last);
    tposei_prefetch_lines(next->dst, job->dst_stride, next->dst_rows, next->dst_row_bytes, first,
                          last);
}

/* One br x bc block at source (rb, cb): whole tile x tile tiles through `kernel` (tile 1: the
   edge routine, a row at a time), the right and bottom strips through the edge routine. With
   `next`, the next block's rows are prefetched one tile band at a time, spread over the work
   as in the article's BlocksPrf. */
static void tposei_blocks_one(const tposei_job *job, size_t rb, size_t cb, size_t br, size_t bc,
                              size_t tile, tposei_tile_fn kernel, const tposei_next_block *next)
{
    const size_t ss = job->src_stride, ds = job->dst_stride, esize = job->esize;
    const unsigned char *src = job->src + rb * ss + cb * esize;
    unsigned char *dst = job->dst + cb * ds + rb * esize;
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    size_t r, c;
    for (r = 0; r < full_r; r += tile) {
        if (next) tposei_prefetch_rows(next, job, r, r + tile);
        if (tile == 1) {
            tposei_rect(dst + r * esize, ds, src + r * ss, ss, 1, bc, esize);
            continue;
        }
        for (c = 0; c < full_c; c += tile)
            kernel(dst + c * ds + r * esize, ds, src + r * ss + c * esize, ss);
    }
    if (next) tposei_prefetch_rows(next, job, full_r, (size_t)-1); /* the rest */
    tposei_rect(dst + full_c * ds, ds, src + full_c * esize, ss, full_r, bc - full_c, esize);
    tposei_rect(dst + full_r * esize, ds, src + full_r * ss, ss, br - full_r, bc, esize);
}

/* The portable walk: square blocks, row band by row band, each through `tile` x `tile`
   tiles of `kernel` (1: scalar), the next block prefetched with `prefetch`. A side shorter
   than a block leaves few enough streams for the hardware prefetcher, and software
   prefetches of a narrow block only repeat the same lines, so those go without. */
static void tposei_walk_blocks(const tposei_job *job, size_t tile, tposei_tile_fn kernel,
                               int prefetch)
{
    const size_t block = tposei_block_edge(job->esize);
    size_t rb, cb;
    prefetch = prefetch && job->rows > block && job->cols > block;
    for (rb = 0; rb < job->rows; rb += block) {
        const size_t br = tposei_min(block, job->rows - rb);
        for (cb = 0; cb < job->cols; cb += block) {
            const size_t bc = tposei_min(block, job->cols - cb);
            if (prefetch) {
                const tposei_next_block next = tposei_find_next(job, rb, cb, block);
                tposei_blocks_one(job, rb, cb, br, bc, tile, kernel, &next);
            } else {
                tposei_blocks_one(job, rb, cb, br, bc, tile, kernel, NULL);
            }
        }
    }
}

/* The reference: destination row i is source column i, one element at a time. */
static void tposei_walk_naive(const tposei_job *job)
{
    size_t i;
    for (i = 0; i < job->cols; i++)
        tposei_rect(job->dst + i * job->dst_stride, job->dst_stride, job->src + i * job->esize,
                    job->src_stride, job->rows, 1, job->esize);
}

/* ---- geometry of the SIMD walks -------------------------------------------------------- */

/* The plan of one SIMD walk: bands of `band` source rows (whole destination lines), blocks
   of `bcols` source columns (also the panel cursor's unit of prefetch), and the kernels it
   calls. */
typedef struct tposei_geom {
    size_t esize, tile;
    size_t band, bcols;
    size_t lead;       /* buffered mode, misaligned destination rows: source rows taken again */
    size_t carry_row;  /* joins: bytes of carry per destination row, 64 or 128 (carry pairs) */
    size_t pf_first;   /* bytes of source the panel cursor fetches ahead at most; 0: a panel */
    int panels;        /* 1: prefetch by panels whatever the stride (else by tiles where they fit) */
    size_t pair_tiles; /* `pair`: tiles down a column at once */
    int across;        /* blocks walked across: tile rows two at a time through `pair` */
    int overlap;       /* a last tile column overlapping the one before, for the right strip */
    int seams;         /* joins: a dense destination's seams by `seam` */
    int persist;       /* joins: the carries stay from band to band (one block spans the width) */
    int down;          /* tiles walked down each block */
    size_t gcols;      /* 0, or the blocks walked in column groups this wide */
    size_t tile_ahead; /* bytes of source the tile cursor runs ahead */
    int tile_asked;    /* the tile cursor chosen by the geometry (tune: tile_ahead) */
    int pf_pages;      /* the panel cursor's bursts end on 4 KiB pages */
    tposei_tile_fn kernel;
    tposei_part_fn part; /* strips by tile corners; NULL: the edge routine */
    tposei_tile_fn pair; /* blocks walked down (or across, with `across`): pair_tiles at once */
    tposei_pipe_fn pipe; /* blocks walked down a pair tall: the pairs pipelined */
    tposei_join_fn join;
    tposei_row_fn stream;
    tposei_seam_fn seam;
    tposei_head_fn seam_head;
} tposei_geom;

/* Bytes of the L1 block buffer of the buffered and dense walks, and of the joins' carries. */
#define TPOSEI_STREAM_BUF 32768
enum { TPOSEI_GEOM_DIRECT, TPOSEI_GEOM_ALIAS, TPOSEI_GEOM_BUFFER };

/* Block shapes in cache lines of destination (band) and source (bcols): runs from memory
   want long runs on both sides, so each DRAM page opened serves several lines
   (bench/MEASURED.md, "block shapes"). The aliasing geometry's blocks are 2 lines by 8:
   the lines of a block sit in the few L2 sets the stride reaches. Geometries are filled
   through a pointer, never returned or assigned whole: compilers copy a struct this size
   with a call to memcpy (GCC for ARM at -O0 and -Os, Clang at -O0). Out of line: three
   walks start here, once per call. */
TPOSEI_NOINLINE void tposei_geom_of(tposei_geom *g, size_t esize, size_t tile, int mode,
                                    tposei_tile_fn kernel, const tposei_tune *t)
{
    const size_t line = TPOSEI_CACHE_LINE / esize ? TPOSEI_CACHE_LINE / esize : 1;
    const size_t unit = line > tile ? line : tile;
    g->esize = esize;
    g->tile = tile;
    g->band = mode == TPOSEI_GEOM_DIRECT  ? t->direct_lines * unit
              : mode == TPOSEI_GEOM_ALIAS  ? 2 * unit
                                           : 8 * unit;
    g->bcols = mode == TPOSEI_GEOM_DIRECT  ? (esize == 1 ? t->direct_rows_u8 : t->direct_rows)
               : mode == TPOSEI_GEOM_ALIAS ? 8 * unit
                                           : unit;
    g->lead = 0;
    g->carry_row = TPOSEI_CACHE_LINE;
    g->pf_first = 0;
    g->panels = mode == TPOSEI_GEOM_DIRECT;
    g->pair_tiles = 0;
    g->across = g->overlap = g->seams = g->persist = g->down = g->pf_pages = 0;
    g->gcols = 0;
    g->tile_ahead = t->pf_ahead;
    g->tile_asked = 0;
    g->kernel = kernel;
    g->part = NULL;
    g->pair = NULL;
    g->pipe = NULL;
    g->join = NULL;
    g->stream = NULL;
    g->seam = NULL;
    g->seam_head = NULL;
}

/* ---- prefetch cursors ------------------------------------------------------------------ */

/* Lines of a 4 KiB page. */
#define TPOSEI_PAGE_LINES (4096 / TPOSEI_CACHE_LINE)

/* The panel cursor, for aliasing strides and the direct walk: walks the panel after the one
   being transposed row by row, line by line, so the hardware sees a few long runs instead of
   one line from each of many rows, and the panel waits in L2 (reference 004's next-block
   prefetch, one panel ahead). */
typedef struct tposei_pf_panel {
    size_t gb;          /* first column of the column group (tposei_geom.gcols) */
    size_t rb, cb;      /* source origin of the panel being prefetched */
    size_t rows, bytes; /* its extent */
    size_t r, o;        /* next row, byte offset in that row */
    size_t debt;        /* prefetches issued past the tiles' count, to finish a page */
} tposei_pf_panel;

/* The end of the column group that starts at source column `gb`. */
static size_t tposei_group_end(const tposei_job *job, const tposei_geom *g, size_t gb)
{
    return g->gcols ? tposei_min(job->cols, gb + g->gcols) : job->cols;
}

static void tposei_panel_at(tposei_pf_panel *pp, const tposei_job *job, const tposei_geom *g,
                            size_t rb, size_t cb)
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
    pp->bytes = tposei_min(g->bcols, ge - cb) * g->esize;
    pp->r = 0;
    pp->o = 0;
}

/* The prefetches that cover the panel at the cursor. */
static size_t tposei_panel_lines(const tposei_pf_panel *pp)
{
    return pp->rows * ((pp->bytes + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE);
}

/* Issues `n` prefetches from the panel cursor, moving on to the next panel when one is done.
   A row's run that starts off a cache line spans one line more than its bytes / 64: that
   line is fetched too, outside the count, so the cursor keeps pace with the tiles. With
   g->pf_pages a burst that has used up its count runs on to the end of the 4 KiB page it is
   in, and the next bursts are that much shorter (pp->debt), so each page's lines are fetched
   in one burst. */
TPOSEI_FORCE_INLINE void tposei_panel_step(tposei_pf_panel *pp, const tposei_job *job,
                                           const tposei_geom *g,
                              size_t n)
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
            job->src + (pp->rb + pp->r) * job->src_stride + pp->cb * g->esize;
        size_t o = pp->o; /* in a register through the row's run */
        for (;;) {
            const uintptr_t at = (uintptr_t)(row + o) >> 12;
            if (n > 0) {
                n--;
            } else if (at != page || pp->debt >= cap) {
                pp->o = o;
                return;
            } else {
                pp->debt++;
            }
            page = at;
            TPOSEI_PREFETCH_L2(row + o);
            o += TPOSEI_CACHE_LINE;
            if (o >= pp->bytes) break;
        }
        if (((uintptr_t)(row + pp->bytes - 1) ^ (uintptr_t)(row + o - TPOSEI_CACHE_LINE)) >=
            TPOSEI_CACHE_LINE) /* not in the line fetched last */
            TPOSEI_PREFETCH_L2(row + pp->bytes - 1);
        pp->o = 0;
        if (++pp->r == pp->rows) tposei_panel_at(pp, job, g, pp->rb, pp->cb + g->bcols);
    }
}

/* The tile cursor: the tile `ahead` tiles after the one being transposed, in the walk's own
   order (bands, blocks across a band, tile rows, tiles across), whose lines are fetched into
   L1 as the current tile starts; a fixed distance in bytes (g->tile_ahead), so small tiles
   look as far ahead as large ones. Only whole tiles are fetched: edge strips are left to the
   hardware. */
typedef struct tposei_pf {
    size_t rb, cb; /* origin of the block holding the tile */
    size_t r, c;   /* the tile inside its block */
    size_t br, bc; /* whole-tile extent of that block */
    int by_tile;   /* 0: the panel cursor runs instead */
    tposei_pf_panel panel;
} tposei_pf;

/* How many of the L1's 64 sets (64-byte lines, the set count of every x86 L1d of 32 or
   48 KiB) the first lines of `rows` source rows fall in. */
static size_t tposei_l1_sets(size_t src_stride, size_t rows)
{
    uint64_t sets = 0;
    size_t r, n = 0;
    for (r = 0; r < rows && r < 64; r++) sets |= (uint64_t)1 << (r * src_stride / 64 % 64);
    for (; sets; sets &= sets - 1) n++;
    return n;
}

/* 1 when the rows of one tile spread over at least half of the L1's sets, so the tiles in
   flight fit in L1 beside the one being read; power-of-two strides put every row of a tile
   in one set, where prefetched rows evict each other. */
static int tposei_pf_fits_l1(size_t src_stride, size_t tile)
{
    const size_t n = tposei_l1_sets(src_stride, tile);
    return n >= 32 || n >= tile / 2;
}

static void tposei_pf_block(tposei_pf *pf, const tposei_job *job, const tposei_geom *g)
{
    const size_t tile = g->tile;
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

static void tposei_pf_advance(tposei_pf *pf, const tposei_job *job, const tposei_geom *g)
{
    if ((pf->c += g->tile) < pf->bc) return;
    pf->c = 0;
    if ((pf->r += g->tile) < pf->br) return;
    pf->cb += g->bcols;
    tposei_pf_block(pf, job, g);
}

/* Fetches the cursor's tile and moves on by one. Tiles narrower than a line share their
   lines: the first tile of each line-wide group fetches the group. */
TPOSEI_FORCE_INLINE void tposei_pf_tile(tposei_pf *pf, const tposei_job *job, const tposei_geom *g)
{
    const size_t tile = g->tile, esize = g->esize;
    const size_t width = tile * esize > TPOSEI_CACHE_LINE ? tile * esize : TPOSEI_CACHE_LINE;
    size_t i, o;
    if (pf->rb >= job->rows) return;
    if (pf->c * esize % width == 0) {
        const unsigned char *p =
            job->src + (pf->rb + pf->r) * job->src_stride + (pf->cb + pf->c) * esize;
        for (i = 0; i < tile; i++, p += job->src_stride)
            for (o = 0; o < width; o += TPOSEI_CACHE_LINE) TPOSEI_PREFETCH_T0(p + o);
    }
    tposei_pf_advance(pf, job, g);
}

/* 1 when the tile cursor fetches this job's tiles rather than the panel cursor: the geometry
   has no panels, and the tiles in flight fit in L1, or the geometry asks for the tile cursor
   (tune: tile_ahead) on a job no taller than a tile, whose few rows cannot outnumber a set's
   ways whatever their stride. */
static int tposei_pf_by_tile(const tposei_job *job, const tposei_geom *g)
{
    if (g->panels) return 0;
    return tposei_pf_fits_l1(job->src_stride, g->tile) || (g->tile_asked && job->rows <= g->tile);
}

/* A cursor `ahead` tiles past the first, those tiles already fetched. */
static void tposei_pf_start(tposei_pf *pf, const tposei_job *job, const tposei_geom *g)
{
    size_t k;
    const size_t ahead = g->tile_ahead / (g->tile * g->tile * g->esize) + 1;
    pf->rb = pf->cb = 0;
    pf->by_tile = tposei_pf_by_tile(job, g);
    if (!pf->by_tile) { /* the first panel at once (up to g->pf_first) */
        size_t lines;
        pf->panel.gb = 0;
        pf->panel.debt = 0;
        tposei_panel_at(&pf->panel, job, g, 0, 0);
        lines = tposei_panel_lines(&pf->panel);
        if (g->pf_first) lines = tposei_min(lines, g->pf_first / TPOSEI_CACHE_LINE);
        tposei_panel_step(&pf->panel, job, g, lines);
        return;
    }
    tposei_pf_block(pf, job, g);
    for (k = 0; k < ahead; k++) tposei_pf_tile(pf, job, g);
}

/* Advances the prefetch cursor by one tile (by its lines, for the panel cursor). */
TPOSEI_FORCE_INLINE void tposei_pf_step(tposei_pf *pf, const tposei_job *job, const tposei_geom *g)
{
    const size_t tile = g->tile;
    const size_t lines = tile * ((tile * g->esize + TPOSEI_CACHE_LINE - 1) / TPOSEI_CACHE_LINE);
    if (pf->by_tile)
        tposei_pf_tile(pf, job, g);
    else
        tposei_panel_step(&pf->panel, job, g, lines);
}

/* ---- the tile walks: in cache, direct streams, joins, the L1 buffer -------------------- */

/* The right and bottom strips of a br x bc block (src: its source origin, out: where its
   first element goes, row stride os) that whole tiles leave, those `strips` names, by tile
   corners (g->part) or the edge routine; the panel cursor moves on by the lines of both. */
enum { TPOSEI_STRIP_RIGHT = 1, TPOSEI_STRIP_BOTTOM = 2 };
static void tposei_walk_edges(const tposei_job *job, const tposei_geom *g, tposei_pf *pf,
                              const unsigned char *src, unsigned char *out, size_t os,
                              size_t br, size_t bc, int strips)
{
    const size_t ss = job->src_stride, tile = g->tile, esize = g->esize;
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
            tposei_rect(out + right * os, os, src + right * esize, ss, full_r, bc - right, esize);
        if (bottom < br)
            tposei_rect(out + bottom * esize, os, src + bottom * ss, ss, br - bottom, bc, esize);
    }
    if (!pf->by_tile)
        tposei_panel_step(&pf->panel, job, g, (br * bc - full_r * full_c) * esize / TPOSEI_CACHE_LINE);
}

/* The pipe's prefetch tick: a pair's 128 lines spread over its 16 steps. */
typedef struct tposei_pipe_ctx {
    const tposei_job *job;
    const tposei_geom *g;
    tposei_pf *pf;
} tposei_pipe_ctx;

static void tposei_pipe_tick(void *ctx)
{
    const tposei_pipe_ctx *p = (const tposei_pipe_ctx *)ctx;
    tposei_panel_step(&p->pf->panel, p->job, p->g, 2 * TPOSEI_CACHE_LINE / 16);
}

/* A band one pair tall walked down through g->pipe: the pairs parked in `scratch`, each
   streamed while the next is parked. */
static void tposei_walk_pipe(const tposei_job *job, const tposei_geom *g, tposei_pf *pf,
                             const unsigned char *src, unsigned char *out, size_t os,
                             size_t cols, unsigned char *scratch)
{
    const size_t tile = g->tile, ss = job->src_stride, esize = g->esize;
    tposei_pipe_ctx ctx;
    unsigned set = 0;
    size_t i;
    ctx.job = job;
    ctx.g = g;
    ctx.pf = pf;
    TPOSE_ASSERT(g->pair_tiles == 2 && tile * esize == TPOSEI_CACHE_LINE && scratch);
    g->pipe(NULL, os, src, ss, scratch, set, tposei_pipe_tick, &ctx);
    for (i = 0; i < cols; i += tile, set ^= 1)
        g->pipe(out + i * os, os, i + tile < cols ? src + (i + tile) * esize : NULL, ss,
                scratch, set, tposei_pipe_tick, &ctx);
}

/* One br x bc block at source (rb, cb), written to `out` (the destination, or the L1
   buffer) with row stride `os`: whole tiles through g->kernel (pairs through g->pair where
   the geometry says), g->overlap's last tile column, the strips; each tile also advances the
   prefetch cursor by as many lines as it reads. */
static void tposei_walk_block(const tposei_job *job, const tposei_geom *g, tposei_pf *pf,
                              size_t rb, size_t cb, size_t br, size_t bc, unsigned char *out,
                              size_t os, unsigned char *scratch)
{
    const size_t ss = job->src_stride, tile = g->tile, esize = g->esize;
    const unsigned char *src = job->src + rb * ss + cb * esize;
    const size_t full_r = br - br % tile, full_c = bc - bc % tile;
    const size_t inner = g->down ? full_r : full_c;
    size_t outer = g->down ? full_c : full_r;
    size_t i, j, t;
    TPOSE_ASSERT(!g->down || !pf->by_tile); /* the tile cursor follows tile rows */
    if (g->pipe && g->down && inner == g->pair_tiles * tile && outer > 0) {
        tposei_walk_pipe(job, g, pf, src, out, os, outer, scratch);
        outer = 0; /* the tiles are done: only the strips remain */
    }
    for (i = 0; i < outer; i += tile) {
        const int across = g->across && !pf->by_tile && i + 2 * tile <= outer; /* rows i.. */
        for (j = 0; j < inner; j += tile) {
            const size_t r = g->down ? j : i, c = g->down ? i : j;
            tposei_pf_step(pf, job, g);
            if (across) {
                tposei_pf_step(pf, job, g);
                g->pair(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
            } else if (g->down && g->pair && j + g->pair_tiles * tile <= inner) { /* tiles r.. */
                for (t = 1; t < g->pair_tiles; t++) tposei_pf_step(pf, job, g);
                g->pair(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
                j += (g->pair_tiles - 1) * tile;
            } else {
                g->kernel(out + c * os + r * esize, os, src + r * ss + c * esize, ss);
            }
        }
        if (across) i += tile;
    }
    /* g->overlap: the last tile column ends where the block ends, overlapping the one
       before (the same bytes written twice) instead of a right strip of corner tiles, whose
       plain stores read every line for ownership */
    if (g->overlap && full_c < bc) {
        const size_t col = cb + bc - tile;
        for (i = 0; i < full_r; i += tile) {
            tposei_pf_step(pf, job, g);
            g->kernel(job->dst + col * job->dst_stride + (rb + i) * esize, job->dst_stride,
                      job->src + (rb + i) * ss + col * esize, ss);
        }
    }
    tposei_walk_edges(job, g, pf, src, out, os, br, bc,
                      (g->overlap ? 0 : TPOSEI_STRIP_RIGHT) | TPOSEI_STRIP_BOTTOM);
}

/* Where band runs meet in destination row `drow`: the byte offset of the line boundary at
   or before element r, the row's own ends excepted. */
static size_t tposei_run_edge(const unsigned char *drow, size_t r, size_t rows, size_t esize)
{
    const uintptr_t at = (uintptr_t)drow + r * esize;
    if (r == 0 || r == rows) return r * esize;
    return (size_t)((at & ~(uintptr_t)(TPOSEI_CACHE_LINE - 1)) - (uintptr_t)drow);
}

/* One block of the buffered walk: transposed into the L1 buffer, whose rows leave through
   g->stream. Where destination rows do not start on lines (g->lead > 0) the block also takes
   the g->lead source rows above it, so each row leaves from the line boundary at or before
   the band's first element to the one before the next band's: every line but a row's first
   and last is then one non-temporal store. The lead rows were read one band earlier and are
   not prefetched again. */
static void tposei_buffer_block(const tposei_job *job, const tposei_geom *g, tposei_pf *pf,
                                size_t rb, size_t cb, size_t br, size_t bc, unsigned char *buf)
{
    const size_t esize = g->esize, lead = rb ? g->lead : 0, bs = (g->band + g->lead) * esize;
    const size_t xb = rb - lead; /* first source row in the buffer */
    size_t i;
    if (lead) {
        tposei_pf idle; /* a cursor past the end: the lead rows fetch nothing */
        idle.rb = job->rows;
        idle.by_tile = 1;
        tposei_walk_block(job, g, &idle, xb, cb, lead, bc, buf, bs, NULL);
    }
    tposei_walk_block(job, g, pf, rb, cb, br, bc, buf + lead * esize, bs, NULL);
    for (i = 0; i < bc; i++) {
        unsigned char *drow = job->dst + (cb + i) * job->dst_stride;
        const size_t lo = tposei_run_edge(drow, rb, job->rows, esize);
        const size_t hi = tposei_run_edge(drow, rb + br, job->rows, esize);
        g->stream(drow + lo, buf + i * bs + (lo - xb * esize), hi - lo);
    }
}

/* The source column where tile column t of a joined block starts: whole tiles from the
   block's first column, and with g->overlap a last one that ends where the block ends. */
static size_t tposei_join_col(size_t cb, size_t bc, size_t tile, size_t t)
{
    return (t + 1) * tile <= bc ? cb + t * tile : cb + bc - tile;
}

/* One tile at source (row, col) through g->join, with the carries of its destination rows. */
static void tposei_join_tile(const tposei_job *job, const tposei_geom *g, size_t row, size_t col,
                             unsigned char *carry, int phase)
{
    g->join(job->dst + col * job->dst_stride + row * g->esize, job->dst_stride,
            job->src + row * job->src_stride + col * g->esize, job->src_stride, carry, phase);
}

/* The rows' last bytes past their last streamed line (the carries' tails), for tile
   column `col` of the last band, unless the seams write them. */
static void tposei_join_tails(const tposei_job *job, const tposei_geom *g, size_t col,
                              size_t row_end, const unsigned char *carry)
{
    size_t k;
    if (g->seams) {
        g->seam(job, col, g->tile, g->part, carry);
        return;
    }
    for (k = 0; k < g->tile; k++) {
        unsigned char *end = job->dst + (col + k) * job->dst_stride + row_end * g->esize;
        const size_t m = (size_t)((uintptr_t)end & (TPOSEI_CACHE_LINE - 1));
        tposei_copy_words(end - m, carry + g->carry_row * k + 64 - m, m);
    }
}

/* One block of the direct walk where destination rows do not start on lines: the tiles of
   tposei_walk_block through g->join, which leaves every line of a row but its first and
   last as one non-temporal store. The tile row above the band is transposed again to load
   the carries, unless they persist from the band above (g->persist); tile column t keeps its
   carries from g->carry_row * tile * t on. A dense destination (g->seams) has its first and
   last lines written by the last band's seams; otherwise the last band stores what its
   carries hold, a row's first chunk is stored in part, and the bottom strip leaves by tile
   corners. */
static void tposei_join_block(const tposei_job *job, const tposei_geom *g, tposei_pf *pf,
                              size_t rb, size_t cb, size_t br, size_t bc, unsigned char *carry)
{
    const size_t tile = g->tile, full_r = br - br % tile, full_c = bc - bc % tile;
    const size_t ncol = full_c / tile + (g->overlap && full_c < bc), per = g->carry_row * tile;
    const int head = g->seams ? TPOSEI_JOIN_LEAD : TPOSEI_JOIN_HEAD;
    size_t r, t;
    if (rb && !g->persist)
        for (t = 0; t < ncol; t++)
            tposei_join_tile(job, g, rb - tile, tposei_join_col(cb, bc, tile, t), carry + per * t,
                             TPOSEI_JOIN_LEAD);
    for (r = 0; r < full_r; r += tile) {
        for (t = 0; t < ncol; t++) {
            tposei_pf_step(pf, job, g);
            tposei_join_tile(job, g, rb + r, tposei_join_col(cb, bc, tile, t), carry + per * t,
                             rb + r ? TPOSEI_JOIN_BODY : head);
        }
        if (g->seams && rb + r + cb == 0) g->seam_head(job->dst, carry);
    }
    if (rb + br == job->rows && rb + full_r > 0)
        for (t = 0; t < ncol; t++)
            tposei_join_tails(job, g, tposei_join_col(cb, bc, tile, t), rb + full_r,
                              carry + per * t);
    tposei_walk_edges(job, g, pf, job->src + rb * job->src_stride + cb * g->esize,
                      job->dst + cb * job->dst_stride + rb * g->esize, job->dst_stride, br, bc,
                      (g->overlap ? 0 : TPOSEI_STRIP_RIGHT) | (g->seams ? 0 : TPOSEI_STRIP_BOTTOM));
}

/* Walks the blocks band by band (in column groups where g->gcols): each block through the
   joins, the L1 buffer, or straight to the destination. `buf`: the L1 buffer, carries or
   parks, TPOSEI_STREAM_BUF bytes on a line boundary. */
static void tposei_walk(const tposei_job *job, const tposei_geom *g, unsigned char *buf)
{
    size_t rb, cb, gb, ge;
    tposei_pf pf;
    tposei_pf_start(&pf, job, g);
    TPOSE_ASSERT(!g->gcols || (!pf.by_tile && g->gcols % g->bcols == 0));
    for (gb = 0; gb < job->cols; gb = ge) {
        ge = tposei_group_end(job, g, gb);
        for (rb = 0; rb < job->rows; rb += g->band) {
            const size_t br = tposei_min(g->band, job->rows - rb);
            for (cb = gb; cb < ge; cb += g->bcols) {
                const size_t bc = tposei_min(g->bcols, ge - cb);
                if (g->join)
                    tposei_join_block(job, g, &pf, rb, cb, br, bc, buf);
                else if (g->stream)
                    tposei_buffer_block(job, g, &pf, rb, cb, br, bc, buf);
                else
                    tposei_walk_block(job, g, &pf, rb, cb, br, bc,
                                      job->dst + cb * job->dst_stride + rb * g->esize,
                                      job->dst_stride, buf);
            }
        }
    }
}

/* ---- which walk, and its geometry ------------------------------------------------------ */

/* 1 when a line tile's source rows spread over L1 (else they crowd it): the default rule, or
   for sets with `quarter` the VBMI bytes' (tune: quarter_sets). */
static int tposei_spread(const tposei_job *job, const tposei_kset *k, const tposei_tune *t)
{
    if (k->quarter) return tposei_l1_sets(job->src_stride, 64) >= t->quarter_sets;
    return tposei_pf_fits_l1(job->src_stride, k->line);
}

/* Bytes on lines with destination rows at most tune short_rows apart whose source stride
   puts a tile's 64 rows in 4 L1 sets (odd multiples of 1 KiB): the quarter tile walked
   across (measured only: bench/MEASURED.md, "SHORT_ROWS"). */
static int tposei_short_rows(const tposei_job *job, const tposei_tune *t)
{
    return job->esize == 1 && t->short_rows && job->dst_stride <= t->short_rows &&
           ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE == 0 &&
           tposei_l1_sets(job->src_stride, 64) == 4;
}

/* The direct blocks' shape where the tune table departs from the default: 8- and 16-byte
   elements' tall narrow blocks, bytes' one-tile-wide ones on short source strides, floats'
   taller bands, and aliasing byte blocks as wide as their source rows. */
static void tposei_tuned_blocks(tposei_geom *g, const tposei_job *job, const tposei_tune *t,
                                int alias, int joined, int down)
{
    const size_t e = g->esize;
    if (alias) {
        if (t->alias_whole_row && job->src_stride <= t->alias_whole_row)
            g->bcols = t->alias_whole_row;
        return;
    }
    if ((e == 8 || e == 16) && !joined && t->wide_rows) {
        g->band = t->wide_lines * (TPOSEI_CACHE_LINE / e);
        g->bcols = t->wide_rows;
    } else if (e == 1 && !joined && !down && t->u8_rows && job->src_stride < t->u8_below) {
        g->bcols = t->u8_rows;
    }
    if (e == 4 && !joined && !down && t->u32_band) g->band = t->u32_band;
}

/* Joined blocks' width: tune join_rows for matrices of at most join_short_max bytes and for
   bytes (half as tall when short too), and never more destination rows than the carries leave
   room for in the L1 buffer. The whole-width walk (`whole`) takes bands of one tile row, each
   one block across the matrix, whose carries persist to the next band. */
static void tposei_join_blocks(tposei_geom *g, const tposei_job *job, const tposei_tune *t,
                               int whole)
{
    const size_t tile = g->tile, e = g->esize;
    const int short_job = job->rows * job->cols * e <= t->join_short_max;
    if (whole) {
        g->band = tile;
        g->bcols = (job->cols + tile - 1) / tile * tile;
        g->persist = 1;
    } else {
        if (short_job || e == 1) g->bcols = t->join_rows;
        if (short_job && e == 1) g->band /= 2;
    }
    if (g->bcols * g->carry_row > TPOSEI_STREAM_BUF)
        g->bcols = TPOSEI_STREAM_BUF / g->carry_row;
    TPOSE_ASSERT(!g->persist || g->bcols >= job->cols);
}

/* Which blocks walk down a tile column at a time: destination strides of a multiple of tune
   down_align put every line a tile stores at one offset modulo it, and walked across such a
   column of lines drains slowly (bench/MEASURED.md, "DOWN_ALIGN"). */
static int tposei_walks_down(const tposei_job *job, const tposei_tune *t, int aliasing,
                             int zen3_u8, int pipe)
{
    const size_t e = job->esize, ds = job->dst_stride;
    const int short_stride = job->src_stride < t->alias_wide_max;
    const int by_stride = t->down_any ? e != 8 || ds % t->down_align_e8 == 0
                                      : short_stride || (e == 2 && t->u16_run);
    return (!zen3_u8 || pipe) && ds % t->down_align == 0 && (by_stride || aliasing) &&
           !tposei_short_rows(job, t);
}

/* The geometry of the direct walk (tiles that store straight to memory): rows on lines, or
   off lines through `join`. The direct blocks or the aliasing geometry's 2x8, their shape
   (tposei_tuned_blocks, the runs of tune u8_run / u16_run), the cursor, tiles walked down
   on some strides with `pair` (pair_tiles at once), column groups, and the joins' carries. */
static void tposei_geom_direct(tposei_geom *g, const tposei_job *job, const tposei_kset *k,
                               const tposei_tune *t, tposei_tile_fn nt, tposei_join_fn join,
                               int whole, tposei_tile_fn pair, size_t pair_tiles)
{
    const size_t e = k->esize, tile = k->line, ds = job->dst_stride;
    const int joined = join != NULL;
    const int aliasing = !joined && !tposei_pf_fits_l1(job->src_stride, tile);
    const int zen3_u8 = e == 1 && !joined && t->u8_run;
    const int zen3_u16 = e == 2 && !joined && t->u16_run;
    const int pipe = zen3_u8 && t->u8_pipe && k->pipe && pair && pair_tiles == 2;
    const int down = !joined && tposei_walks_down(job, t, aliasing, zen3_u8, pipe);
    const int alias = aliasing && (job->src_stride < t->alias_wide_max || down) &&
                      (e == 1 || !t->alias_u8_only);
    tposei_geom_of(g, e, tile, alias ? TPOSEI_GEOM_ALIAS : TPOSEI_GEOM_DIRECT, nt, t);
    tposei_tuned_blocks(g, job, t, alias, joined, down);
    if (zen3_u8 || zen3_u16) {
        g->band = tile;
        g->bcols = (zen3_u8 ? t->u8_run : t->u16_run) / e;
    }
    if (e == 1) g->pf_first = t->pf_lead_u8;
    if (t->tile_ahead && e > 2 && !alias && !joined && !down) {
        g->panels = 0;
        g->tile_ahead = t->tile_ahead;
        g->tile_asked = 1;
    }
    g->carry_row =
        whole || k->carries == TPOSEI_CARRY_PAIRS ? 2 * TPOSEI_CACHE_LINE : TPOSEI_CACHE_LINE;
    if (joined) tposei_join_blocks(g, job, t, whole);
    g->part = k->line_part;
    g->pair = pair;
    g->pair_tiles = pair_tiles;
    g->down = down;
    if (down && pipe) {
        g->pipe = k->pipe;
        g->pf_first = 0;
    }
    if (down && pair && g->band < pair_tiles * tile) g->band = pair_tiles * tile;
    g->across = !down && !joined && pair && pair_tiles == 2 && t->across_pairs;
    if (alias && ds >= t->group_stride && job->cols > t->group_rows)
        g->gcols = t->group_rows / g->bcols ? t->group_rows / g->bcols * g->bcols : g->bcols;
    g->overlap = (joined || (e <= 2 && t->overlap_narrow)) && g->part && job->cols >= tile;
    g->pf_pages = t->pf_pages && e == 1 && !g->pipe;
    g->seams = k->carries == TPOSEI_CARRY_SEAMS && joined && g->overlap && job->rows >= tile &&
               ds == job->rows * e;
    g->join = join;
    g->seam = k->seam;
    g->seam_head = k->seam_head;
}

/* The buffered walk's geometry: destination rows off lines take one line of them again,
   inside the same buffer. */
static void tposei_geom_buffer(tposei_geom *g, const tposei_kset *k, size_t tile,
                               tposei_tile_fn kernel, tposei_part_fn part, int aligned,
                               const tposei_tune *t)
{
    tposei_geom_of(g, k->esize, tile, TPOSEI_GEOM_BUFFER, kernel, t);
    g->part = part;
    g->stream = k->stream_row;
    if (!aligned) {
        g->lead = TPOSEI_CACHE_LINE / k->esize;
        g->band -= g->lead;
    }
    TPOSE_ASSERT((g->band + g->lead) * g->bcols * k->esize <= TPOSEI_STREAM_BUF);
}

/* The tile after the one at `at` on a side ending at `end`: with `overlap` (at + tile <=
   end) the last ends where the side ends, overlapping the one before (the same bytes stored
   twice) instead of leaving a strip to a corner routine. */
static size_t tposei_tile_next(size_t at, size_t tile, size_t end, int overlap)
{
    return !overlap || at + tile >= end || at + 2 * tile <= end ? at + tile : end - tile;
}

/* Source rows [r0, r1) by columns [c0, c1) of the in-cache walk's edges: whole tiles, the
   last of each side overlapping; the set's corners (or the scalar routine) only where a side
   of the matrix is shorter than a tile. */
static void tposei_lines_strip(const tposei_job *job, const tposei_kset *k, size_t r0, size_t r1,
                               size_t c0, size_t c1)
{
    const size_t e = k->esize, tile = k->tile, ss = job->src_stride, ds = job->dst_stride;
    const int whole = job->rows >= tile && job->cols >= tile; /* then r1, c1 >= tile */
    size_t r, c;
    for (r = whole ? tposei_min(r0, r1 - tile) : r0; r < r1;
         r = tposei_tile_next(r, tile, r1, whole))
        for (c = whole ? tposei_min(c0, c1 - tile) : c0; c < c1;
             c = tposei_tile_next(c, tile, c1, whole)) {
            unsigned char *d = job->dst + c * ds + r * e;
            const unsigned char *s = job->src + r * ss + c * e;
            const size_t h = tposei_min(tile, r1 - r), w = tposei_min(tile, c1 - c);
            if (whole) k->tile_fn(d, ds, s, ss);
            else if (k->part) k->part(d, ds, s, ss, h, w);
            else tposei_rect(d, ds, s, ss, h, w, e);
        }
}

/* The in-cache walk of plain tiles: line blocks (a cache line of elements a side) across
   each band of source rows, each block's tiles down then across so that every destination
   line is whole before the next tile starts; then the edges. Where the destination rows
   fall in two L1 sets or fewer (tune alias_span), the blocks go down each column of blocks
   instead, so that consecutive blocks write other sets. No software prefetch: the data sit
   in cache, or come as a few row streams the hardware prefetchers follow, and a cursor cost
   these shapes more than it saved (bench/MEASURED.md, "the in-cache walk by lines"). */
TPOSEI_NOINLINE void tposei_walk_lines(const tposei_job *job, const tposei_kset *k)
{
    const size_t e = k->esize, tile = k->tile, ss = job->src_stride, ds = job->dst_stride;
    const size_t line = TPOSEI_CACHE_LINE / e > tile ? TPOSEI_CACHE_LINE / e : tile;
    const size_t full_r = job->rows - job->rows % line, full_c = job->cols - job->cols % line;
    const size_t across_s = tile * e, across_d = tile * ds;
    const int down = ds % (tposei_tune_get()->alias_span / 2) == 0; /* in 1 or 2 sets */
    const size_t outer = down ? full_c : full_r, inner = down ? full_r : full_c;
    const tposei_tile_fn fn = k->tile_fn; /* locals: the calls could change what *k holds */
    unsigned char *const dst = job->dst;
    const unsigned char *const src = job->src;
    size_t i, j, r, c;
    for (i = 0; i < outer; i += line)
        for (j = 0; j < inner; j += line) {
            const size_t rb = down ? j : i, cb = down ? i : j;
            const unsigned char *s = src + rb * ss + cb * e;
            unsigned char *d = dst + cb * ds + rb * e;
            for (c = 0; c < line; c += tile, s += across_s, d += across_d)
                for (r = 0; r < line; r += tile) fn(d + r * e, ds, s + r * ss, ss);
        }
    if (full_c < job->cols) tposei_lines_strip(job, k, 0, full_r, full_c, job->cols);
    if (full_r < job->rows) tposei_lines_strip(job, k, full_r, job->rows, 0, job->cols);
}

/* Dense destinations of short rows off cache lines (dst_stride == rows * esize, at most
   tune dense_row_max bytes, at least a tile): the destination of a block of source columns
   is one contiguous run. Each block, all rows by as many columns as fill the L1 buffer, is
   transposed there with its rows dense too, the last tile row overlapping the one before,
   and leaves as one run: whole lines streamed, its two ends stored normally. */
static int tposei_dense_short(const tposei_job *job, const tposei_kset *k, const tposei_tune *t)
{
    const size_t e = k->esize;
    return k->dense && k->tile > 1 && job->dst_stride == job->rows * e && job->rows >= k->tile &&
           job->rows * e <= t->dense_row_max &&
           ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE != 0;
}

static void tposei_walk_dense(const tposei_job *job, const tposei_kset *k, const tposei_tune *t,
                              unsigned char *buf)
{
    const size_t e = k->esize, tile = k->tile, row = job->rows * e, ss = job->src_stride;
    tposei_geom g;
    tposei_pf pf;
    size_t cb, c, r;
    tposei_geom_of(&g, e, tile, TPOSEI_GEOM_BUFFER, k->tile_fn, t);
    g.band = job->rows;
    g.bcols = TPOSEI_STREAM_BUF / row / tile * tile;
    tposei_pf_start(&pf, job, &g);
    for (cb = 0; cb < job->cols; cb += g.bcols) {
        const size_t bc = tposei_min(g.bcols, job->cols - cb), full = bc - bc % tile;
        const unsigned char *src = job->src + cb * e;
        for (c = 0; c < full; c += tile)
            for (r = 0; r < job->rows; r += tile) {
                const size_t at = r + tile <= job->rows ? r : job->rows - tile;
                tposei_pf_step(&pf, job, &g);
                k->tile_fn(buf + c * row + at * e, row, src + at * ss + c * e, ss);
            }
        if (full < bc) /* the matrix's last columns */
            tposei_rect(buf + full * row, row, src + full * e, ss, job->rows, bc - full, e);
        k->stream_row(job->dst + cb * row, buf, bc * row);
    }
}

/* Bytes whose destination rows are tune plain_rows_u8 (or less, of down_align) apart stream
   slowly in any direct walk there; the in-cache walk's plain stores move them faster. */
static int tposei_plain_rows(const tposei_job *job, const tposei_tune *t)
{
    return job->esize == 1 && t->plain_rows_u8 && job->dst_stride <= t->plain_rows_u8 &&
           job->dst_stride % t->down_align == 0;
}

/* The kernels of the direct walk for this job: the line tile and the join (by how the
   source rows sit in L1, and the destination's offset), and the tile pairs. */
typedef struct tposei_choice {
    tposei_tile_fn nt, pair;
    tposei_join_fn join;
    size_t pair_tiles;
    int whole;
} tposei_choice;

static void tposei_choose(tposei_choice *ch, const tposei_job *job, const tposei_kset *k,
                          const tposei_tune *t, int aligned)
{
    const int spread = tposei_spread(job, k, t);
    const int nt_crowded = !spread && !tposei_short_rows(job, t);
    const int even = ((uintptr_t)job->dst | job->dst_stride) % 2 == 0;
    const int vbmi = tposei_cpu_has(k->join_b_isa);
    const size_t carries = (job->cols + k->line - 1) / k->line * k->line * 2 * TPOSEI_CACHE_LINE;
    ch->nt = k->nt[nt_crowded];
    ch->whole = k->join_whole && spread && t->u8_join_whole && carries <= TPOSEI_STREAM_BUF;
    ch->join = aligned               ? NULL
               : ch->whole           ? k->join_whole
               : !k->join_w[!spread] ? NULL
               : even                ? k->join_w[!spread]
               : vbmi                ? k->join_b[!spread]
                                     : NULL;
    ch->pair_tiles = k->pair_tiles;
    ch->pair = k->pair[!spread];
    /* AVX2's 2-byte pairs won on Zen 3 (beside its runs) and lost x0.55 on Zen 4 walking
       down crowded rows; tested before the one-column case, which was not measured so and
       keeps its pairs */
    if (k->pair_when == TPOSEI_PAIR_RUNS && !t->u16_run) ch->pair = NULL;
    if (k->column && spread && job->cols < 2 * k->line) {
        ch->pair = k->column;
        ch->pair_tiles = k->column_tiles;
    }
    if (k->pair_when == TPOSEI_PAIR_ACROSS && !t->across_pairs) ch->pair = NULL;
    if (k->pair_when == TPOSEI_PAIR_DOWN4 &&
        !(t->down4 && (nt_crowded || job->dst_stride % t->down4_align == 0)))
        ch->pair = NULL;
}

/* The streaming kernels of a set: the dense walk for short dense rows off lines; where the
   sides reach the line tiles, the direct walk (rows on lines, or joined), else the L1
   buffer; one fence per call. Out of line, so its 32 KiB buffer is on the stack only while
   it runs: inlined into tposei_run_set (Clang), every job took it, in-cache tiles too. */
TPOSEI_NOINLINE void tposei_run_stream(const tposei_job *job, const tposei_kset *k,
                                       const tposei_tune *t)
{
    unsigned char raw[TPOSEI_STREAM_BUF + TPOSEI_CACHE_LINE];
    unsigned char *buf = raw + (-(uintptr_t)raw & (TPOSEI_CACHE_LINE - 1));
    const int aligned = ((uintptr_t)job->dst | job->dst_stride) % TPOSEI_CACHE_LINE == 0;
    const int big = k->line && (!k->small_buffered ||
                                (job->rows >= k->line && job->cols >= k->line));
    const size_t tile = big ? k->line : k->tile;
    tposei_part_fn part = big ? k->line_part : NULL;
    tposei_tile_fn kernel = k->tile_fn;
    tposei_geom g;
    if (tposei_dense_short(job, k, t)) {
        tposei_walk_dense(job, k, t, buf);
    } else {
        tposei_choice ch;
        ch.nt = ch.pair = NULL;
        ch.join = NULL;
        ch.pair_tiles = 0;
        ch.whole = 0;
        if (big) {
            tposei_choose(&ch, job, k, t, aligned);
            if (k->line != k->tile) kernel = ch.nt;
        }
        if (aligned && tposei_plain_rows(job, t)) {
            tposei_walk_lines(job, k);
            return;
        }
        if (ch.nt && (aligned || ch.join))
            tposei_geom_direct(&g, job, k, t, ch.nt, ch.join, ch.whole, ch.pair, ch.pair_tiles);
        else
            tposei_geom_buffer(&g, k, tile, kernel, part, aligned, t);
        tposei_walk(job, &g, buf);
    }
    k->fence();
}

/* A kernel set's job: its skinny family first, then the family's walk. */
static void tposei_run_set(const tposei_job *job, const tposei_kset *k, int walk)
{
    const tposei_tune *t = tposei_tune_get();
    switch (walk) {
    case TPOSEI_WALK_NAIVE: tposei_walk_naive(job); return;
    case TPOSEI_WALK_BLOCKS:
    case TPOSEI_WALK_PREFETCH:
        tposei_walk_blocks(job, k ? k->tile : 1, k ? k->tile_fn : NULL,
                           walk == TPOSEI_WALK_PREFETCH);
        return;
    default: break;
    }
    if (k->strips && k->strips(job, walk == TPOSEI_WALK_STREAM)) return;
    if (walk == TPOSEI_WALK_STREAM)
        tposei_run_stream(job, k, t);
    else
        tposei_walk_lines(job, k);
}

/* The set a family runs for `esize` on this CPU: the first of its list that fits. */
TPOSEI_NOINLINE const tposei_kset *tposei_set_for(const tposei_family *f, size_t esize)
{
    const tposei_kset *const *s;
    for (s = f->sets; s && *s; s++)
        if ((*s)->esize == esize && tposei_cpu_has((*s)->isa)) return *s;
    return NULL;
}

/* The portable kernel sets: SWAR tiles for 1, 2 and 4-byte elements (wider ones already move
   a word per element, so SWAR is the prefetching scalar walk there). */
#define TPOSEI_SWAR_SET(e, n, fn)                                                           \
    {0, 0, e, n, fn, NULL, 0, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, NULL, NULL,          \
     {NULL, NULL}, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0}
static const tposei_kset tposei_swar_sets[] = {TPOSEI_SWAR_SET(1, 8, tposei_u8_8x8_swar),
                                               TPOSEI_SWAR_SET(2, 4, tposei_u16_4x4_swar),
                                               TPOSEI_SWAR_SET(4, 2, tposei_u32_2x2_swar)};
#undef TPOSEI_SWAR_SET
static const tposei_kset *const tposei_swar_list[] = {&tposei_swar_sets[0], &tposei_swar_sets[1],
                                                      &tposei_swar_sets[2], NULL};

/* tpose_kernel AUTO .. SWAR, in the enum's order (AUTO is resolved by tposei_auto_choice). */
static const tposei_family tposei_portable[] = {
    {TPOSEI_WALK_NAIVE, NULL, NULL},           {TPOSEI_WALK_NAIVE, NULL, NULL},
    {TPOSEI_WALK_BLOCKS, NULL, NULL},          {TPOSEI_WALK_PREFETCH, NULL, NULL},
    {TPOSEI_WALK_PREFETCH, tposei_swar_list, NULL}};

/* The SWAR kernel on any job (the x86 skinny families' fallback for short sides their
   tiles would leave to the scalar edges). */
static inline void tposei_run_swar(const tposei_job *job)
{
    const tposei_kset *k = tposei_set_for(&tposei_portable[TPOSE_KERNEL_SWAR], job->esize);
    tposei_run_set(job, k, TPOSEI_WALK_PREFETCH);
}

/* ======================================================================================== */
/* The ISA kernel sets: transpose_simd.h on x86, transpose_neon.h on AArch64. Each defines
   tposei_arch_probe, tposei_arch_family and tposei_arch_kit; without one the portable
   versions below stand. */
/* ======================================================================================== */
#if TPOSEI_HAVE_SSE2
#include "transpose_simd.h"
#elif TPOSEI_HAVE_NEON
#include "transpose_neon.h"
#else
static void tposei_arch_probe(tposei_cpu *c) { (void)c; }
static const tposei_family *tposei_arch_family(tpose_kernel k)
{
    (void)k;
    return NULL;
}
static void tposei_arch_kit(tposei_kit *kit, size_t esize, int (*allowed)(tpose_kernel k))
{
    (void)kit;
    (void)esize;
    (void)allowed;
}
#endif

/* ======================================================================================== */
// >>table
/* ======================================================================================== */

static const char *const tposei_kernel_names[TPOSE_KERNEL_COUNT] = {
    "auto", "naive", "blocked", "prefetch", "swar", "sse2", "avx2", "avx2-stream",
    "avx512", "avx512-stream", "neon"};

/* The family behind a kernel id, NULL when this build has none. */
static const tposei_family *tposei_family_of(tpose_kernel k)
{
    if (k <= TPOSE_KERNEL_SWAR) return &tposei_portable[k];
    return tposei_arch_family(k);
}

/* 1 when kernel `k` can run elements of `esize` bytes here: the portable ones always. */
TPOSEI_NOINLINE int tposei_supported(tpose_kernel k, size_t esize)
{
    const tposei_family *f = tposei_family_of(k);
    if (f == NULL) return 0;
    return k <= TPOSE_KERNEL_SWAR || tposei_set_for(f, esize) != NULL;
}

/* Runs a validated job through kernel `k` (supported for its element size). */
static void tposei_run_kernel(tpose_kernel k, const tposei_job *job)
{
    const tposei_family *f = tposei_family_of(k);
    tposei_run_set(job, tposei_set_for(f, job->esize), f->walk);
}

/* 1 when AUTO may pick `k` under the current ceiling and `k` runs `esize` here. */
static int tposei_auto_allowed(tpose_kernel k, size_t esize)
{
    const int allowed = tposei_kernel_ceiling == TPOSE_KERNEL_AUTO || k <= tposei_kernel_ceiling;
    return allowed && tposei_supported(k, esize);
}

/* tposei_auto_allowed for every element size: the kit's rule for its SIMD members. */
static int tposei_kit_allowed(tpose_kernel k)
{
    return tposei_kernel_ceiling == TPOSE_KERNEL_AUTO || k <= tposei_kernel_ceiling;
}

/* The portable kernels' order: SWAR tiles win for 1, 2 and 4 bytes at every size; for wider
   elements prefetching pays only out of cache (tune: portable_cache). */
static tpose_kernel tposei_auto_portable(size_t rows, size_t cols, size_t esize)
{
    static const tpose_kernel narrow[] = {TPOSE_KERNEL_SWAR, TPOSE_KERNEL_PREFETCH,
                                          TPOSE_KERNEL_BLOCKED, TPOSE_KERNEL_NAIVE};
    static const tpose_kernel wide[] = {TPOSE_KERNEL_PREFETCH, TPOSE_KERNEL_BLOCKED,
                                        TPOSE_KERNEL_NAIVE};
    static const tpose_kernel wide_in_cache[] = {TPOSE_KERNEL_BLOCKED, TPOSE_KERNEL_NAIVE};
    const int is_narrow = esize == 1 || esize == 2 || esize == 4;
    const int in_cache = rows <= tposei_tune_get()->portable_cache / esize / cols;
    const tpose_kernel *order = is_narrow ? narrow : in_cache ? wide_in_cache : wide;
    const size_t count = is_narrow  ? sizeof narrow / sizeof *narrow
                         : in_cache ? sizeof wide_in_cache / sizeof *wide_in_cache
                                    : sizeof wide / sizeof *wide;
    size_t i;
    for (i = 0; i < count; i++)
        if (tposei_auto_allowed(order[i], esize)) return order[i];
    return TPOSE_KERNEL_NAIVE;
}

/* AUTO's preference, best first: the widest SIMD kernel, streaming when `bytes` of
   destination (the matrix's, or a whole batch's) reach tune stream_from and in place below;
   then the portable order, which also takes shapes a SIMD family declines (its tiles would
   leave them to their scalar edges). */
static tpose_kernel tposei_auto_choice(size_t rows, size_t cols, size_t esize, size_t bytes)
{
    static const tpose_kernel small[] = {TPOSE_KERNEL_AVX512, TPOSE_KERNEL_AVX2,
                                         TPOSE_KERNEL_SSE2, TPOSE_KERNEL_NEON};
    static const tpose_kernel large[] = {TPOSE_KERNEL_AVX512_STREAM, TPOSE_KERNEL_AVX2_STREAM,
                                         TPOSE_KERNEL_AVX512, TPOSE_KERNEL_AVX2,
                                         TPOSE_KERNEL_SSE2, TPOSE_KERNEL_NEON};
    const tpose_kernel *order;
    size_t i, count;
    if (esize == 0 || rows == 0 || cols == 0) return TPOSE_KERNEL_NAIVE;
    if (bytes >= tposei_tune_get()->stream_from) {
        order = large;
        count = sizeof large / sizeof *large;
    } else {
        order = small;
        count = sizeof small / sizeof *small;
    }
    for (i = 0; i < count; i++)
        if (tposei_auto_allowed(order[i], esize)) break;
    if (i < count) {
        const tposei_family *f = tposei_family_of(order[i]);
        if (!f->declines || !f->declines(rows, cols, esize)) return order[i];
    }
    return tposei_auto_portable(rows, cols, esize);
}

/* The destination bytes of rows x cols, or SIZE_MAX where they overflow (AUTO then streams). */
static size_t tposei_bytes_of(size_t rows, size_t cols, size_t esize)
{
    size_t bytes;
    return tposei_mul(rows, cols, &bytes) && tposei_mul(bytes, esize, &bytes) ? bytes : (size_t)-1;
}

/* The destination bytes AUTO weighs for streaming: SIZE_MAX, whatever the size, where the
   destination's `drows` rows (dst_stride apart, more than one) all fall in one L1 set (tune
   alias_span), as plain stores to them stall. */
TPOSEI_NOINLINE size_t tposei_stream_bytes(size_t bytes, size_t drows, size_t dst_stride)
{
    return drows > 1 && dst_stride % tposei_tune_get()->alias_span == 0 ? (size_t)-1 : bytes;
}

/* The threads for a transpose of `bytes`: the setting, no more than leave each tune
   thread_share bytes, and one inside any parallel region (a team never nests). */
static size_t tposei_team(size_t bytes)
{
#if TPOSEI_OPENMP
    const size_t n = tposei_threads ? tposei_threads : (size_t)omp_get_max_threads();
    const size_t most = bytes / tposei_tune_get()->thread_share;
    if (n < 2 || most < 2 || omp_get_level() > 0) return 1;
    return n < most ? n : most;
#else
    (void)bytes;
    return 1;
#endif
}

/* A validated job through kernel `k`, its pieces on a team of threads where it gains. */
static void tposei_matrix_run(tpose_kernel k, const tposei_job *job)
{
#if TPOSEI_OPENMP
    const size_t n = tposei_team(job->rows * job->cols * job->esize);
    if (n > 1) {
#pragma omp parallel num_threads((int)n)
        {
            tposei_job sub;
            const size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
            if (tposei_job_piece(&sub, job, t, t + 1, nt)) tposei_run_kernel(k, &sub);
        }
        return;
    }
#endif
    tposei_run_kernel(k, job);
}

TPOSE_API tposei_kit tposei_kit_get(size_t esize)
{
    tposei_kit kit;
    kit.swap = NULL;
    kit.swap_edge = 0;
    kit.rows8 = NULL;
    kit.strip8 = NULL;
    kit.gather8 = NULL;
    kit.pick = tposei_auto_choice;
    kit.run = tposei_run_kernel;
    kit.stream_row = NULL;
    kit.fence = NULL;
    kit.tile = NULL;
    kit.tile_edge = 0;
    kit.tile_half = NULL;
    kit.line_nt = NULL;
    kit.line_edge = 0;
    kit.team = tposei_team;
    tposei_arch_kit(&kit, esize, tposei_kit_allowed);
    return kit;
}

#if defined(TPOSEI_TESTING)
/* Tests: the tune table of another CPU class on this CPU (tposei_cpu_classes), or this CPU's
   own again with -1; never under concurrent transposes. */
static void tposei_emulate(int cls)
{
    tposei_context_get();
    tposei_context_fill(&tposei_context_store, cls);
}
#endif

/* ======================================================================================== */
// >>api
/* ======================================================================================== */

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
    /* A lone row's leading dimension addresses nothing and may be anything, but the walks
       still form pointers a row or a tile past the end (masked rows, block ends), which a
       huge one wraps: such a row gets a dense stride instead. */
    job->dst_stride = (cols == 1 ? rows : dst_ld) * esize;
    job->src_stride = (rows == 1 ? cols : src_ld) * esize;
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
    return tposei_kernel_names[kernel];
}

TPOSE_API int tpose_kernel_supported(tpose_kernel kernel, size_t esize)
{
    if (esize == 0 || (unsigned)kernel >= (unsigned)TPOSE_KERNEL_COUNT) return 0;
    return kernel == TPOSE_KERNEL_AUTO || tposei_supported(kernel, esize);
}

TPOSE_API tpose_kernel tpose_kernel_auto(size_t rows, size_t cols, size_t esize)
{
    /* dense; where rows * esize wraps, so do the bytes, and AUTO streams either way */
    const size_t bytes = tposei_stream_bytes(tposei_bytes_of(rows, cols, esize), cols, rows * esize);
    return tposei_auto_choice(rows, cols, esize, bytes);
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

/* tpose_matrix_with's share `task` of `ntasks`; the whole of it, threaded where that
   gains, for ntasks 1. */
static tpose_status tposei_matrix_call(tpose_kernel kernel, void *dst, size_t dst_ld,
                                       const void *src, size_t src_ld, size_t rows, size_t cols,
                                       size_t esize, size_t task, size_t ntasks)
{
    tposei_job job, sub;
    int empty;
    tpose_status st;
    if ((unsigned)kernel >= (unsigned)TPOSE_KERNEL_COUNT || task >= ntasks) return TPOSE_ERR_ARG;
    st = tposei_validate(&job, &empty, dst, dst_ld, src, src_ld, rows, cols, esize);
    if (st != TPOSE_OK) return st;
    /* a kernel this CPU lacks is refused even for an empty matrix: no call passes by chance */
    if (empty)
        return kernel == TPOSE_KERNEL_AUTO || tposei_supported(kernel, esize)
                   ? TPOSE_OK
                   : TPOSE_ERR_UNSUPPORTED;
    if (kernel == TPOSE_KERNEL_AUTO)
        kernel = tposei_auto_choice(rows, cols, esize,
                                    tposei_stream_bytes(rows * cols * esize, cols, job.dst_stride));
    if (!tposei_supported(kernel, esize)) return TPOSE_ERR_UNSUPPORTED;
    if (ntasks == 1)
        tposei_matrix_run(kernel, &job);
    else if (tposei_job_piece(&sub, &job, task, task + 1, ntasks))
        tposei_run_kernel(kernel, &sub);
    return TPOSE_OK;
}

TPOSE_API tpose_status tpose_matrix_with(tpose_kernel kernel, void *dst, size_t dst_ld,
                                         const void *src, size_t src_ld, size_t rows,
                                         size_t cols, size_t esize)
{
    return tposei_matrix_call(kernel, dst, dst_ld, src, src_ld, rows, cols, esize, 0, 1);
}

TPOSE_API tpose_status tpose_matrix(void *dst, size_t dst_ld, const void *src, size_t src_ld,
                                    size_t rows, size_t cols, size_t esize)
{
    return tposei_matrix_call(TPOSE_KERNEL_AUTO, dst, dst_ld, src, src_ld, rows, cols, esize, 0,
                              1);
}

TPOSE_API tpose_status tpose_matrix_task(void *dst, size_t dst_ld, const void *src,
                                         size_t src_ld, size_t rows, size_t cols, size_t esize,
                                         size_t task, size_t ntasks)
{
    return tposei_matrix_call(TPOSE_KERNEL_AUTO, dst, dst_ld, src, src_ld, rows, cols, esize,
                              task, ntasks);
}

TPOSE_API tpose_status tpose_set_threads(size_t n)
{
    if (n > 1 && !TPOSEI_OPENMP) return TPOSE_ERR_UNSUPPORTED;
    tposei_threads = n;
    return TPOSE_OK;
}

TPOSE_API size_t tpose_get_threads(void)
{
#if TPOSEI_OPENMP
    if (tposei_threads == 0) return (size_t)omp_get_max_threads();
#endif
    return tposei_threads ? tposei_threads : 1;
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
