/* transpose_inplace.h - in-place matrix transposition, header-only C99.

   Do this:
       #define TPOSE_IMPLEMENTATION
       #include "transpose_inplace.h"
   in exactly ONE C or C++ file of your program (it includes transpose.h and emits both
   implementations there); every other file just includes "transpose_inplace.h". A program
   whose transpose.c already holds transpose.h's implementation adds a file with
       #define TPOSE_INPLACE_IMPLEMENTATION
       #include "transpose_inplace.h"
   instead (the two-line transpose_inplace.c), which emits only this header's. `#define
   TPOSE_STATIC` before the include makes every function static in that translation unit,
   as for transpose.h.

   CONFIGURATION: the macros of transpose.h (TPOSE_STATIC, TPOSE_API, TPOSE_NO_SIMD,
   TPOSE_NO_STDLIB, TPOSE_MALLOC / TPOSE_FREE, TPOSE_ASSERT), and:

   | macro                        | default       | effect here                                |
   |------------------------------|---------------|--------------------------------------------|
   | TPOSE_INPLACE_IMPLEMENTATION | undefined     | this header's implementation alone         |
   | TPOSE_INPLACE_STACK_BYTES    | 16384         | stack bytes for the tile and carry buffers |
   |                              |               | (at least 1024; a quarter for carries)     |
   | TPOSE_NO_STDLIB              | undefined     | no memcpy/memmove/memset/malloc; work ==   |
   |                              |               | NULL then takes the O(1)-memory path       |
   | TPOSE_MALLOC / FREE          | malloc / free | the only allocation: work == NULL          |

   API (sizes size_t; row-major; esize = bytes per element, any value >= 1)

   tpose_inplace_workspace(rows, cols, esize)
       Exact bytes of workspace tpose_inplace wants for this shape: O(max(rows, cols))
       elements plus small tile buffers (with OpenMP, the buffers once per thread of the
       team it would use); 0 for square and single-row/column shapes.
   tpose_inplace(a, rows, cols, esize, work, work_bytes)
       Dense rows x cols at `a` becomes its dense cols x rows transpose. work == NULL: the
       library allocates the workspace (TPOSE_MALLOC) and, when that fails or under
       TPOSE_NO_STDLIB, runs an O(1)-memory cycle-following algorithm instead.
   tpose_inplace_square(a, n, ld, esize)
       n x n block with leading dimension ld >= n, in place, no workspace.
   tpose_plan_bytes(rows, cols), tpose_plan_init(plan, plan_bytes, rows, cols),
   tpose_plan_apply(plan, a, esize)
       The permutation cycles of one shape recorded once in caller memory, then applied to
       any number of matrices of that shape, each element moved once.

   ALGORITHMS (chosen by shape; docs/inplace.md has the measurements)

   | shape                               | algorithm                                          |
   |-------------------------------------|----------------------------------------------------|
   | rows == cols                        | tile pairs (i,j) <-> (j,i) swapped in AVX2         |
   |                                     | registers (4, 8 bytes), element by element (8, 16  |
   |                                     | without AVX2), else through an L1 buffer with AUTO |
   | min(rows, cols) <= 32 (skinny)      | T x short blocks transposed in cache, then the     |
   |                                     | chunk grid transposed by cycle following           |
   | gcd(rows, cols) * esize >= 64       | gcd x gcd tiles transposed in place, then chunks   |
   |                                     | of gcd elements permuted by cycle following        |
   | otherwise                           | Catanzaro-Keller-Garland C2R (tall) / R2C (wide):  |
   |                                     | row shuffles (strided when coprime), rotations on  |
   |                                     | 1 KiB column groups: fine part in 8x8 tiles, coarse|
   |                                     | part fused into the sub-row permutation            |
   | no workspace                        | cycle following with a leader test, whole chunks   |
   |                                     | (cache lines or more) where the shape allows       |

   THREADS (built with OpenMP and tpose_set_threads > 1, transpose.h): square tile pairs in
   equal byte shares of the walk; skinny blocks and gcd tiles dealt out, then every thread
   walks all the chunk cycles moving its cache lines of each chunk; each slot step cut by
   rows or lines; C2R / R2C's table and row shuffles by rows, its rotations by column
   groups, a barrier between passes. On one thread: the moves of a skinny tail (each
   overlaps the next), chunk cycles of chunks under two cache lines, huge square elements,
   and the O(1)-memory path (the fallback when allocation fails).

   SECTIONS (grep for the marker)
       >>config >>portability >>kernels-scalar >>drivers >>api
   (no >>cpu or >>table: CPU detection and the tile kernels are transpose.h's; the square
   path takes its register tile pairs from tposei_kit, which honours tpose_kernel_limit)

   License: MIT, at the end of transpose.h.
*/
#include "transpose.h"

#ifndef TPOSE_INPLACE_H
#define TPOSE_INPLACE_H

/* ======================================================================================== */
// >>config
/* ======================================================================================== */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of workspace tpose_inplace uses for this shape (exact: it never uses more). With
   OpenMP, for the team tpose_inplace would form for it now (tpose_set_threads, the size,
   one thread inside a parallel region): its scratch buffers and bitmaps come once per thread.
   Returns 0 when none is needed (square, one row or column, empty, esize 0) and SIZE_MAX
   when the shape cannot exist in memory. Thread safety: pure but for reading the setting. */
TPOSE_API size_t tpose_inplace_workspace(size_t rows, size_t cols, size_t esize);

/* In-place transpose: the dense rows x cols matrix at `a` (leading dimension cols) becomes
   its dense cols x rows transpose (leading dimension rows).
   Parameters: esize, bytes per element (any value >= 1); work, a buffer of work_bytes bytes
     (any alignment) or NULL to let the library allocate it.
   Returns: TPOSE_OK; TPOSE_ERR_ESIZE, _NULL, _OVERFLOW, or _WORKSPACE when work is given
     and work_bytes is below one thread's workspace (tpose_inplace_workspace's value with
     tpose_set_threads(1)). On error nothing is written; the call never fails half-way.
     Empty matrices are a no-op (a may be NULL).
   Threads: with OpenMP, a team of tpose_set_threads's size where the matrix is large enough
     (never inside a parallel region). A caller's workspace below tpose_inplace_workspace
     but holding one thread's runs on as many threads as it holds buffers for; work == NULL
     allocates for the whole team, and where that fails the O(1)-memory path runs on one.
   Thread safety: reentrant; concurrent calls on disjoint matrices and workspaces are safe. */
TPOSE_API tpose_status tpose_inplace(void *a, size_t rows, size_t cols, size_t esize, void *work,
                                     size_t work_bytes);

/* In-place transpose of the n x n block at `a` with leading dimension ld (elements);
   elements outside the block are never touched. No workspace. With OpenMP, on a team as
   tpose_inplace, the tile pairs dealt out in equal shares of bytes.
   Returns: TPOSE_OK; TPOSE_ERR_ESIZE, _NULL, _LD (ld < n) or _OVERFLOW. Thread safety:
   reentrant. */
TPOSE_API tpose_status tpose_inplace_square(void *a, size_t n, size_t ld, size_t esize);

/* Bytes a plan for rows x cols needs (a 32-byte header plus 16 bytes per cycle); 0 when
   rows * cols overflows. Counts the cycles, O(rows * cols * log) time, no memory. */
TPOSE_API size_t tpose_plan_bytes(size_t rows, size_t cols);

/* Records the cycles of the rows x cols in-place transposition into `plan` (any
   alignment, plan_bytes >= tpose_plan_bytes(rows, cols)).
   Returns: TPOSE_OK; TPOSE_ERR_NULL, _OVERFLOW or _WORKSPACE (plan too small, nothing
   written). */
TPOSE_API tpose_status tpose_plan_init(void *plan, size_t plan_bytes, size_t rows, size_t cols);

/* Transposes the dense matrix at `a` of the plan's shape in place, O(1) extra memory.
   Returns: TPOSE_OK; TPOSE_ERR_NULL, _ESIZE, _OVERFLOW, or TPOSE_ERR_ARG when `plan` was
   not made by tpose_plan_init. Thread safety: the plan is only read; share it freely. */
TPOSE_API tpose_status tpose_plan_apply(const void *plan, void *a, size_t esize);

#ifdef __cplusplus
}
#endif

#endif /* TPOSE_INPLACE_H */

#if (defined(TPOSE_IMPLEMENTATION) || defined(TPOSE_STATIC) ||                              \
     defined(TPOSE_INPLACE_IMPLEMENTATION)) &&                                               \
    !defined(TPOSEI_INPLACE_DONE)
#define TPOSEI_INPLACE_DONE

/* ======================================================================================== */
// >>portability
/* ======================================================================================== */

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 tposei_u128;
#define TPOSEI_HAVE_U128 1
#else
#define TPOSEI_HAVE_U128 0
#endif

/* Stack buffers: one tile for the square path (TPOSE_INPLACE_STACK_BYTES), a quarter of it
   for one carry piece elsewhere. */
#ifndef TPOSE_INPLACE_STACK_BYTES
#define TPOSE_INPLACE_STACK_BYTES 16384
#endif
#if TPOSE_INPLACE_STACK_BYTES < 1024
#error "transpose_inplace.h: TPOSE_INPLACE_STACK_BYTES must be at least 1024"
#endif
#define TPOSEI_IP_TILE_BYTES TPOSE_INPLACE_STACK_BYTES
#define TPOSEI_IP_CARRY_BYTES (TPOSE_INPLACE_STACK_BYTES / 4)

/* Prefetch for reading into all cache levels (PREFETCHT0): the tile pairs and chunks
   fetched ahead are read and then written back in place, so they should stay close. */
#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_IP_PREFETCH(p) __builtin_prefetch((const void *)(p), 0, 3)
#else
#define TPOSEI_IP_PREFETCH(p) TPOSEI_PREFETCH(p)
#endif

/* Prefetch into L2 (PREFETCHT1) for runs of many lines fetched far ahead: an L1 prefetch
   holds one of the few L1 fill buffers until its line arrives, an L2 one does not. */
#if defined(__GNUC__) || defined(__clang__)
#define TPOSEI_IP_PREFETCH_L2(p) __builtin_prefetch((const void *)(p), 0, 2)
#else
#define TPOSEI_IP_PREFETCH_L2(p) TPOSEI_PREFETCH(p)
#endif

/* Runtime-length copy, memmove and zero fill; libc when allowed, else plain loops that
   move 8-byte words (GCC/Clang expand the fixed-size TPOSEI_MEMCPY inline). The word
   passes through an empty asm so the optimiser cannot turn the loop back into a call to
   memcpy (Clang's loop-idiom pass does), which TPOSE_NO_STDLIB promises never happens. */
#if defined(TPOSE_NO_STDLIB) && (defined(__GNUC__) || defined(__clang__))
#define TPOSEI_IP_OPAQUE(w) __asm__("" : "+r"(w))
#else
#define TPOSEI_IP_OPAQUE(w) ((void)0)
#endif

/* Runs the statement `call(n)` with n a constant 1, 2, 4, 8 or 16 where esize is one of
   those, so the force-inlined body behind it is specialised per size, and with the run-time
   size otherwise; then returns from the enclosing function. */
#define TPOSEI_IP_BY_SIZE(esize, call)                                                      \
    switch (esize) {                                                                        \
    case 1: call(1); return;                                                                \
    case 2: call(2); return;                                                                \
    case 4: call(4); return;                                                                \
    case 8: call(8); return;                                                                \
    case 16: call(16); return;                                                              \
    default: call(esize); return;                                                           \
    }

/* Thread `tid` of a team of nt's share [*lo, *hi) of `count` items, cut in units of u
   (tposei_cuts); the whole without OpenMP, where every team is one thread. */
TPOSEI_FORCE_INLINE void tposei_ip_share(size_t count, size_t u, size_t tid, size_t nt, size_t *lo,
                                         size_t *hi)
{
#if TPOSEI_OPENMP
    tposei_cuts(count, u, 0, tid, tid + 1, nt, lo, hi);
#else
    (void)u;
    (void)tid;
    (void)nt;
    *lo = 0;
    *hi = count;
#endif
}

/* Waits for the whole team between dependent passes. Not for a team of one: that may run
   inside the caller's own parallel region, whose other threads never arrive here. */
TPOSEI_FORCE_INLINE void tposei_ip_sync(size_t nt)
{
#if TPOSEI_OPENMP
    if (nt > 1) {
#pragma omp barrier
    }
#else
    (void)nt;
#endif
}

TPOSEI_FORCE_INLINE void tposei_ip_move_word(unsigned char *dst, const unsigned char *src)
{
    uint64_t w;
    TPOSEI_MEMCPY(&w, src, 8);
    TPOSEI_IP_OPAQUE(w);
    TPOSEI_MEMCPY(dst, &w, 8);
}

static void tposei_ip_copy(unsigned char *dst, const unsigned char *src, size_t n)
{
#if !defined(TPOSE_NO_STDLIB)
    memcpy(dst, src, n);
#else
    size_t i = 0;
    for (; i + 8 <= n; i += 8) tposei_ip_move_word(dst + i, src + i);
    tposei_copy_bytes(dst + i, src + i, n - i);
#endif
}

static void tposei_ip_memmove(unsigned char *dst, const unsigned char *src, size_t n)
{
#if !defined(TPOSE_NO_STDLIB)
    memmove(dst, src, n);
#else
    size_t i;
    if (dst <= src) { /* forwards, each word read before it can be overwritten */
        for (i = 0; i + 8 <= n; i += 8) tposei_ip_move_word(dst + i, src + i);
        for (; i < n; i++) dst[i] = ((const volatile unsigned char *)src)[i];
    } else {
        for (i = n; i >= 8; i -= 8) tposei_ip_move_word(dst + i - 8, src + i - 8);
        for (; i > 0; i--) dst[i - 1] = ((const volatile unsigned char *)src)[i - 1];
    }
#endif
}

static void tposei_ip_zero(unsigned char *p, size_t n)
{
#if !defined(TPOSE_NO_STDLIB)
    memset(p, 0, n);
#else
    size_t i;
    for (i = 0; i < n; i++) ((volatile unsigned char *)p)[i] = 0;
#endif
}

/* ======================================================================================== */
// >>kernels-scalar
/* ======================================================================================== */

/* High 64 bits of a 64 x 64-bit product. */
TPOSEI_FORCE_INLINE uint64_t tposei_mulhi64(uint64_t a, uint64_t b)
{
#if TPOSEI_HAVE_U128
    return (uint64_t)(((tposei_u128)a * b) >> 64);
#else
    const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* Division by an invariant d >= 1 without a divide instruction (paper section 4.4, after
   Hacker's Delight ch. 10): inv = floor((2^64 - 1) / d) underestimates 2^64 / d by less
   than 1, so mulhi(x, inv) is floor(x / d) or one less, for every 64-bit x; one compare
   fixes it. The only hardware divide is in tposei_div_make, once per divisor. */
typedef struct tposei_div {
    uint64_t d;
    uint64_t inv;
} tposei_div;

static tposei_div tposei_div_make(uint64_t d)
{
    tposei_div v;
    v.d = d;
    v.inv = UINT64_MAX / d;
    return v;
}

/* floor(x / d), and x mod d in *rem. */
TPOSEI_FORCE_INLINE uint64_t tposei_divmod(const tposei_div *v, uint64_t x, uint64_t *rem)
{
    uint64_t q = tposei_mulhi64(x, v->inv);
    uint64_t r = x - q * v->d;
    if (r >= v->d) {
        q++;
        r -= v->d;
    }
    *rem = r;
    return q;
}

TPOSEI_FORCE_INLINE uint64_t tposei_mod(const tposei_div *v, uint64_t x)
{
    uint64_t r;
    (void)tposei_divmod(v, x, &r);
    return r;
}

static uint64_t tposei_gcd(uint64_t x, uint64_t y)
{
    while (y) {
        const uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* (x * y) mod m for x, y < m, without overflow and without a 128-bit divide (which
   would call libgcc): double and add. Used once per row or table entry, never per element. */
static uint64_t tposei_mulmod(uint64_t x, uint64_t y, uint64_t m)
{
    uint64_t r = 0;
    while (y) {
        if (y & 1) r = r >= m - x ? r - (m - x) : r + x;
        x = x >= m - x ? x - (m - x) : x + x;
        y >>= 1;
    }
    return r;
}

/* The modular multiplicative inverse mmi(x, m) of the paper (section 4.2): x * result
   mod m == 1 for coprime x and m; 0 when m == 1. Extended Euclid on signed values (both
   below 2^63 for any matrix that fits in memory). */
static uint64_t tposei_mmi(uint64_t x, uint64_t m)
{
    int64_t r0 = (int64_t)m, r1 = (int64_t)(x % m), t0 = 0, t1 = 1;
    if (m == 1) return 0;
    while (r1 != 0) {
        const int64_t q = r0 / r1, r2 = r0 - q * r1, t2 = t0 - q * t1;
        r0 = r1;
        r1 = r2;
        t0 = t1;
        t1 = t2;
    }
    return (uint64_t)(t0 < 0 ? t0 + (int64_t)m : t0);
}

/* x - m when x >= m, else x; for x < 2m. Branch-free: the inner loops wrap indices at
   data-dependent, unpredictable points, where a branch would mispredict half the time. */
TPOSEI_FORCE_INLINE uint64_t tposei_wrap(uint64_t x, uint64_t m)
{
    return x - (m & ((uint64_t)0 - (uint64_t)(x >= m)));
}

/* Out-of-place transpose of a rows x cols block through AUTO's kernel (transpose.h). */
static void tposei_ip_oop(unsigned char *dst, size_t dst_stride, const unsigned char *src,
                          size_t src_stride, size_t rows, size_t cols, size_t esize)
{
    const tposei_kit kit = tposei_kit_get(esize);
    tposei_job job;
    job.dst = dst;
    job.src = src;
    job.dst_stride = dst_stride;
    job.src_stride = src_stride;
    job.rows = rows;
    job.cols = cols;
    job.esize = esize;
    kit.run(kit.pick(rows, cols, esize, rows * cols * esize), &job);
}

/* ======================================================================================== */
// >>drivers
/* ======================================================================================== */

/* ---- square: tile pairs ---------------------------------------------------------------- */

/* Tile edge so that one tile fits the 16 KiB stack buffer: 128 bytes, 88 u16, 64 u32,
   40 u64, 32 u128; a multiple of 8 when it can be. */
static size_t tposei_ip_tile_edge(size_t esize)
{
    size_t t = 1;
    while ((t + 1) * (t + 1) * esize <= TPOSEI_IP_TILE_BYTES) t++;
    return t >= 8 ? t - t % 8 : t;
}

/* Copies a rows x row_bytes block between strided places. */
static void tposei_ip_copy_rows(unsigned char *dst, size_t ds, const unsigned char *src, size_t ss,
                                size_t rows, size_t row_bytes)
{
    size_t r;
    for (r = 0; r < rows; r++) tposei_ip_copy(dst + r * ds, src + r * ss, row_bytes);
}

/* Prefetches every line of a rows x row_bytes block. */
static void tposei_ip_prefetch_block(const unsigned char *p, size_t stride, size_t rows,
                                     size_t row_bytes)
{
    size_t r, o;
    for (r = 0; r < rows; r++) {
        for (o = 0; o < row_bytes; o += TPOSEI_CACHE_LINE) TPOSEI_IP_PREFETCH(p + r * stride + o);
        TPOSEI_IP_PREFETCH(p + r * stride + row_bytes - 1);
    }
}

/* Elements too large for the tile buffer: swap (i, j) and (j, i) through it piecewise. */
static void tposei_ip_square_huge(unsigned char *a, size_t n, size_t st, size_t esize)
{
    unsigned char piece[TPOSEI_IP_CARRY_BYTES];
    size_t i, j, off;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            for (off = 0; off < esize; off += sizeof piece) {
                unsigned char *x = a + i * st + j * esize + off, *y = a + j * st + i * esize + off;
                const size_t len = tposei_min(sizeof piece, esize - off);
                tposei_ip_copy(piece, x, len);
                tposei_ip_copy(x, y, len);
                tposei_ip_copy(y, piece, len);
            }
}

/* Tile pairs in super-blocks of TPOSEI_IP_SUPER x TPOSEI_IP_SUPER tiles: within one, the
   pages under the Y tiles are revisited by the next tile row while the TLB still holds them
   (row by row they would be evicted after a whole band). (i, j) is the X tile, j >= i. */
#define TPOSEI_IP_SUPER 8

typedef struct tposei_ip_walk {
    size_t n, t, span; /* span = t * TPOSEI_IP_SUPER */
    size_t i0, j0;     /* super-block origin, j0 >= i0 */
    size_t i, j;       /* tile origin; i == n when done */
} tposei_ip_walk;

/* First tile of super-block (i0, j0): on the diagonal of a diagonal super-block. */
static void tposei_ip_walk_enter(tposei_ip_walk *w)
{
    w->i = w->i0;
    w->j = w->j0;
}

static void tposei_ip_walk_next(tposei_ip_walk *w)
{
    const size_t i_end = tposei_min(w->i0 + w->span, w->n),
                 j_end = tposei_min(w->j0 + w->span, w->n);
    w->j += w->t;
    if (w->j < j_end) return;
    w->i += w->t; /* next tile row of the super-block, from the diagonal or its left edge */
    if (w->i < i_end) {
        w->j = w->i0 == w->j0 ? w->i : w->j0;
        return;
    }
    w->j0 += w->span; /* next super-block along the super-row, then the next super-row */
    if (w->j0 >= w->n) {
        w->i0 += w->span;
        w->j0 = w->i0;
    }
    if (w->i0 >= w->n) {
        w->i = w->n;
        return;
    }
    tposei_ip_walk_enter(w);
}

/* Square tiles of 8- and 16-byte elements swap element by element through registers, in
   tiles TPOSEI_IP_SWAP_BYTES wide; smaller elements do better through the tile kernels and
   the buffer, which do several per register (bench/MEASURED.md, "TPOSEI_IP_SWAP_BYTES"). */
#define TPOSEI_IP_SWAP_BYTES 512

static int tposei_ip_swaps(size_t esize)
{
    return esize == 8 || esize == 16;
}

/* Swaps two elements of a fast size through registers. */
TPOSEI_FORCE_INLINE void tposei_ip_swap(unsigned char *x, unsigned char *y, size_t esize)
{
    unsigned char t[16];
    tposei_move(t, x, esize);
    tposei_move(x, y, esize);
    tposei_move(y, t, esize);
}

/* Exchanges X = rows [r0, r1) x columns [c0, c1) with the transpose of Y, Y[c][r] <-> X[r][c],
   element by element through registers: each element is loaded once and stored once, with
   no buffer pass. `x` and `y` point at the tile origins; on the diagonal (x == y) only
   c > r is swapped. */
TPOSEI_FORCE_INLINE void tposei_ip_swap_block(unsigned char *x, unsigned char *y, size_t st,
                                              size_t r0, size_t r1, size_t c0, size_t c1,
                                              size_t esize)
{
    size_t r, c;
    for (r = r0; r < r1; r++) {
        unsigned char *xr = x + r * st;
        const size_t from = x == y && c0 <= r ? r + 1 : c0;
        for (c = from; c < c1; c++) tposei_ip_swap(xr + c * esize, y + c * st + r * esize, esize);
    }
}

/* The pair (or diagonal tile) in sub-blocks one cache line wide (64 / esize elements): a
   sub-block touches one line in each of its rows on both sides, 2 x 64 / esize pages, which
   the first-level TLB holds; a whole tile row would sweep 2t pages per element row. */
TPOSEI_FORCE_INLINE void tposei_ip_swap_tiles(unsigned char *x, unsigned char *y, size_t st,
                                              size_t ti, size_t tj, size_t esize)
{
    const size_t sb = TPOSEI_CACHE_LINE / esize;
    size_t rb, cb;
    for (rb = 0; rb < ti; rb += sb)
        for (cb = x == y ? rb : 0; cb < tj; cb += sb)
            tposei_ip_swap_block(x, y, st, rb, tposei_min(rb + sb, ti), cb, tposei_min(cb + sb, tj),
                                 esize);
}

static void tposei_ip_swap_any(unsigned char *x, unsigned char *y, size_t st, size_t ti, size_t tj,
                               size_t esize)
{
    if (esize == 8)
        tposei_ip_swap_tiles(x, y, st, ti, tj, 8);
    else
        tposei_ip_swap_tiles(x, y, st, ti, tj, 16);
}

/* The register tile-pair kernel for this element size (tposei_kit: where the CPU has one
   and tpose_kernel_limit allows it); fn == NULL otherwise. */
typedef struct tposei_ip_swapper {
    tposei_swap_fn fn;
    size_t k; /* its tile edge */
} tposei_ip_swapper;

static tposei_ip_swapper tposei_ip_swapper_pick(size_t esize)
{
    const tposei_kit kit = tposei_kit_get(esize);
    tposei_ip_swapper sw;
    sw.fn = kit.swap;
    sw.k = kit.swap_edge;
    return sw;
}

/* A tile pair through the register kernel in k x k blocks, row band by row band; the
   edges (ti or tj not a multiple of k) element by element. On the diagonal (x == y) only
   blocks on or above it, and one edge strip, whose mirror the swap covers. */
static void tposei_ip_swap_simd(unsigned char *x, unsigned char *y, size_t st, size_t ti, size_t tj,
                                size_t esize, const tposei_ip_swapper *sw)
{
    const size_t k = sw->k, tik = ti - ti % k, tjk = tj - tj % k;
    const int diag = x == y;
    size_t rb, cb;
    for (rb = 0; rb < tik; rb += k)
        for (cb = diag ? rb : 0; cb < tjk; cb += k)
            sw->fn(x + rb * st + cb * esize, y + cb * st + rb * esize, st);
    if (esize == 4) {
        if (tjk < tj) tposei_ip_swap_block(x, y, st, 0, ti, tjk, tj, 4);
        if (!diag && tik < ti) tposei_ip_swap_block(x, y, st, tik, ti, 0, tjk, 4);
    } else {
        if (tjk < tj) tposei_ip_swap_block(x, y, st, 0, ti, tjk, tj, 8);
        if (!diag && tik < ti) tposei_ip_swap_block(x, y, st, tik, ti, 0, tjk, 8);
    }
}

/* One step: the pair X = (i, j), Y = (j, i) swapped transposed (the diagonal tile when
   i == j) through the register kernel, element by element for 8 and 16 bytes, or else
   through the buffer: X^T to the buffer, Y^T straight into X's place, the buffer into Y's. */
static void tposei_ip_square_step(unsigned char *a, size_t st, size_t esize, size_t n, size_t t,
                                  size_t i, size_t j, unsigned char *buf,
                                  const tposei_ip_swapper *sw)
{
    const size_t ti = tposei_min(t, n - i), tj = tposei_min(t, n - j);
    unsigned char *x = a + i * st + j * esize; /* ti x tj */
    unsigned char *y = a + j * st + i * esize; /* tj x ti */
    if (sw->fn) {
        tposei_ip_swap_simd(x, y, st, ti, tj, esize, sw);
        return;
    }
    if (tposei_ip_swaps(esize)) {
        tposei_ip_swap_any(x, y, st, ti, tj, esize);
        return;
    }
    tposei_ip_oop(buf, ti * esize, x, st, ti, tj, esize);
    if (i != j) tposei_ip_oop(x, st, y, st, tj, ti, esize);
    tposei_ip_copy_rows(y, st, buf, ti * esize, tj, ti * esize);
}

/* Elements the step at tile (i, j) moves: its tile, and the mirror one off the diagonal. */
static size_t tposei_ip_pair_elems(size_t n, size_t t, size_t i, size_t j)
{
    const size_t ti = tposei_min(t, n - i), tj = tposei_min(t, n - j);
    return i == j ? ti * ti : 2 * ti * tj;
}

/* Square in place, each element read once and written once in memory; the next step's
   tiles are prefetched while this one works in L1. Only the steps whose first element, counted
   along the walk, lies in [lo, hi) (a step moves its pair's elements, n * n in all): a
   thread's contiguous share, balanced in bytes. Huge elements are all the share at 0. */
static void tposei_ip_square(unsigned char *a, size_t n, size_t ld, size_t esize, size_t lo,
                             size_t hi)
{
    unsigned char buf[TPOSEI_IP_TILE_BYTES];
    const tposei_ip_swapper sw = tposei_ip_swapper_pick(esize);
    const size_t t =
        sw.fn || tposei_ip_swaps(esize) ? TPOSEI_IP_SWAP_BYTES / esize : tposei_ip_tile_edge(esize);
    const size_t st = ld * esize;
    tposei_ip_walk next; /* the step after (i, j); a copy of a whole walk is a memcpy call */
    size_t i, j, done = 0; /* elements of the steps before (i, j) */
    if (esize > TPOSEI_IP_TILE_BYTES) {
        if (lo == 0) tposei_ip_square_huge(a, n, st, esize);
        return;
    }
    next.n = n;
    next.t = t;
    next.span = t * TPOSEI_IP_SUPER;
    next.i0 = next.j0 = 0;
    tposei_ip_walk_enter(&next);
    i = next.i;
    j = next.j;
    tposei_ip_walk_next(&next);
    for (; i < n && done < hi; i = next.i, j = next.j, tposei_ip_walk_next(&next)) {
        if (TPOSEI_OPENMP) { /* shares exist only with threads */
            const size_t at = done;
            done += tposei_ip_pair_elems(n, t, i, j);
            if (at < lo) continue;
        }
        if (next.i < n) {
            const size_t ti = tposei_min(t, n - next.i), tj = tposei_min(t, n - next.j);
            tposei_ip_prefetch_block(a + next.i * st + next.j * esize, st, ti, tj * esize);
            if (next.i != next.j)
                tposei_ip_prefetch_block(a + next.j * st + next.i * esize, st, tj, ti * esize);
        }
        tposei_ip_square_step(a, st, esize, n, t, i, j, buf, &sw);
    }
}

/* The square on a team where it gains (tposei_kit's team): each thread a contiguous run of
   the walk's tile pairs holding an equal share of the n * n elements. */
static void tposei_ip_square_team(unsigned char *a, size_t n, size_t ld, size_t esize)
{
#if TPOSEI_OPENMP
    const size_t nt = tposei_kit_get(esize).team(n * n * esize);
    if (nt > 1) {
#pragma omp parallel num_threads((int)nt)
        {
            size_t lo, hi;
            tposei_ip_share(n * n, 1, (size_t)omp_get_thread_num(), (size_t)omp_get_num_threads(),
                            &lo, &hi);
            tposei_ip_square(a, n, ld, esize, lo, hi);
        }
        return;
    }
#endif
    tposei_ip_square(a, n, ld, esize, 0, (size_t)-1);
}

/* ---- chunk permutations by cycle following --------------------------------------------- */

/* A three-axis permutation of equal chunks: destination chunk y = (J*R + r)*A + I
   receives source chunk x = (I*R + r)*B + J, for I < A, r < R, J < B. R = 1 is the plain
   transposition of an A x B grid (reference 003: b = (a % M) * N + a / M, here in gather
   form); R = gcd is the tile-chunk exchange of the gcd path. */
typedef struct tposei_perm {
    uint64_t count; /* A * R * B */
    uint64_t r, b;
    tposei_div div_a, div_r;
} tposei_perm;

/* Fills *p (a struct this size assigned whole is a call to memcpy under Clang -O0). */
static void tposei_perm_make(tposei_perm *p, uint64_t a, uint64_t r, uint64_t b)
{
    p->count = a * r * b;
    p->r = r;
    p->b = b;
    p->div_a = tposei_div_make(a);
    p->div_r = tposei_div_make(r);
}

/* Source of destination chunk y: I = y mod A, r = (y / A) mod R, J = y / (A R). */
TPOSEI_FORCE_INLINE uint64_t tposei_perm_src(const tposei_perm *p, uint64_t y)
{
    uint64_t i, r, j;
    const uint64_t q = tposei_divmod(&p->div_a, y, &i);
    j = tposei_divmod(&p->div_r, q, &r);
    return (i * p->r + r) * p->b + j;
}

/* y starts its cycle when no smaller index lies on it (the leader test). */
static int tposei_perm_leads(const tposei_perm *p, uint64_t y)
{
    uint64_t s = tposei_perm_src(p, y);
    while (s > y) s = tposei_perm_src(p, s);
    return s == y;
}

/* Chunks up to TPOSEI_IP_PREFETCH_MAX bytes are prefetched TPOSEI_IP_AHEAD steps ahead
   along a cycle, non-temporally; larger ones, up to TPOSEI_IP_PREFETCH_BIG, one step ahead
   into L1, where they are about to be read and then overwritten (bench/MEASURED.md,
   "TPOSEI_IP_AHEAD"). */
#define TPOSEI_IP_AHEAD        6
#define TPOSEI_IP_PREFETCH_MAX 1024
#define TPOSEI_IP_PREFETCH_BIG 65536

static void tposei_ip_prefetch_chunk(const unsigned char *p, size_t bytes)
{
    size_t o;
    if (bytes <= TPOSEI_IP_PREFETCH_MAX)
        for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_PREFETCH(p + o);
    else
        for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_IP_PREFETCH(p + o);
}

/* Bytes [off, off + len) of every chunk on the cycle through `start`, in gather form:
   the start's piece is saved, each position is filled from its source, the last one from
   the saved piece. Small chunks TPOSEI_IP_AHEAD steps ahead are prefetched. Marks visited
   chunks in `seen` when given. */
static void tposei_ip_cycle(unsigned char *base, size_t chunk, size_t off, size_t len,
                            const tposei_perm *p, uint64_t start, unsigned char *carry,
                            unsigned char *seen)
{
    uint64_t pos = start, src = tposei_perm_src(p, start), ahead = src;
    const int steps = len <= TPOSEI_IP_PREFETCH_MAX ? TPOSEI_IP_AHEAD
                      : len <= TPOSEI_IP_PREFETCH_BIG ? 1 : 0;
    int k;
    if (steps == 0) ahead = start; /* no prefetching */
    for (k = 0; k < steps && ahead != start; k++) {
        tposei_ip_prefetch_chunk(base + ahead * chunk + off, len);
        ahead = tposei_perm_src(p, ahead);
    }
    tposei_ip_copy(carry, base + start * chunk + off, len);
    while (src != start) {
        if (seen) seen[pos >> 3] |= (unsigned char)(1u << (pos & 7));
        if (ahead != start) {
            tposei_ip_prefetch_chunk(base + ahead * chunk + off, len);
            ahead = tposei_perm_src(p, ahead);
        }
        tposei_ip_copy(base + pos * chunk + off, base + src * chunk + off, len);
        pos = src;
        src = tposei_perm_src(p, pos);
    }
    if (seen) seen[pos >> 3] |= (unsigned char)(1u << (pos & 7));
    tposei_ip_copy(base + pos * chunk + off, carry, len);
}

/* Applies the permutation to the first `span` bytes of the chunks of `chunk` bytes at `base`.
   With `seen` (count bits, zeroed) each cycle is found by a bitmap scan; without, by the
   leader test (O(1) memory). A span larger than carry_bytes travels in pieces, one cycle
   walk per piece. */
static void tposei_ip_permute(unsigned char *base, size_t chunk, size_t span, const tposei_perm *p,
                              unsigned char *carry, size_t carry_bytes, unsigned char *seen)
{
    uint64_t y;
    size_t off;
    for (y = 0; y < p->count; y++) {
        if (seen && (seen[y >> 3] >> (y & 7) & 1)) continue;
        if (tposei_perm_src(p, y) == y) continue;
        if (!seen && !tposei_perm_leads(p, y)) continue;
        for (off = 0; off < span; off += carry_bytes)
            tposei_ip_cycle(base, chunk, off, tposei_min(carry_bytes, span - off), p, y, carry,
                            off == 0 ? seen : NULL);
    }
}

/* This thread's share of a chunk permutation: the same bytes of every chunk, whole cache
   lines of it, so every thread walks all the cycles but moves only its slice. Cycles are
   not dealt out instead: one cycle often holds most of the chunks. Chunks under two lines
   stay whole, with the first thread. */
static void tposei_ip_permute_share(unsigned char *base, size_t chunk, const tposei_perm *p,
                                    unsigned char *carry, size_t carry_bytes, unsigned char *seen,
                                    size_t tid, size_t nt)
{
    size_t lo, hi;
    tposei_ip_share(chunk, TPOSEI_CACHE_LINE, tid, nt, &lo, &hi);
    if (!TPOSEI_OPENMP || lo < hi) /* alone, a thread's share is the whole chunk */
        tposei_ip_permute(base + lo, chunk, hi - lo, p, carry, carry_bytes, seen);
}

/* ---- slots: n x 8 doubles in one pass through an n-element workspace --------------------

   Tall A (rows = 8q, cols = 8, 8-byte elements) is eight regions R_i of q rows, each eight
   slots of q elements long; the transpose's row c is region c, and its slot i is column c
   of R_i: "block (i, c)". The workspace adds eight more slots, so eight slots are always
   free. Region by region, R_i is read once and its eight columns written (AoS -> SoA,
   non-temporal) into free slots: block (i, c) straight into its final slot when region c
   is already done, else into a spare slot until region c frees up, then moved there. The
   blocks moved twice are those with c >= i: 36 of 64 slot copies, against two full
   read-modify-write passes for the blocks-then-chunk-cycles path (bench/MEASURED.md,
   "TPOSEI_SLOT_S"). Spare slots are chosen by a greedy plan:
   longest-waiting blocks into the slots needed latest (the workspace's, then slots whose
   own block arrives later), which leaves every direct target free when its region comes
   (TPOSE_ASSERT; test_inplace checks it and the plan's 36 copies). Wide input runs the
   same plan backwards with every step inverted (SoA -> AoS regions, moves reversed). */
#define TPOSEI_SLOT_S 8
#define TPOSEI_SLOT_IDS (TPOSEI_SLOT_S * TPOSEI_SLOT_S + TPOSEI_SLOT_S)
#define TPOSEI_SLOT_OPS (TPOSEI_SLOT_S + 2 * TPOSEI_SLOT_S * TPOSEI_SLOT_S)
#ifndef TPOSEI_SLOT_MIN_ROWS
#define TPOSEI_SLOT_MIN_ROWS 65536 /* below 4 MiB the chunk path is in cache anyway */
#endif

/* One step: region `a` to the slots `dest` (kind 0), or the block in slot `a` to slot `b`. */
typedef struct tposei_slot_op {
    unsigned char kind, a, b;
    unsigned char dest[TPOSEI_SLOT_S];
} tposei_slot_op;

typedef struct tposei_slot_plan {
    signed char occ[TPOSEI_SLOT_IDS]; /* block i*8 + c in each slot, -1 free, -2 AoS data */
    unsigned char at[TPOSEI_SLOT_S * TPOSEI_SLOT_S]; /* slot of each block */
    tposei_slot_op op[TPOSEI_SLOT_OPS];
    unsigned n;
} tposei_slot_plan;

/* Slot ids: r * 8 + p is slot p of region r, 64 + w slot w of the workspace. Twice the step
   at which a slot must be free: slot (r, p) is block (p, r)'s final place, written at step
   p when region r is done by then, else filled right after step r; workspace slots never. */
static unsigned tposei_slot_need(unsigned slot)
{
    const unsigned r = slot / TPOSEI_SLOT_S, p = slot % TPOSEI_SLOT_S;
    if (slot >= TPOSEI_SLOT_S * TPOSEI_SLOT_S) return 4 * TPOSEI_SLOT_S;
    return r < p ? 2 * p : 2 * r + 1;
}

static void tposei_slot_move(tposei_slot_plan *pl, unsigned from, unsigned to)
{
    const signed char b = pl->occ[from];
    tposei_slot_op *op = &pl->op[pl->n++];
    op->kind = 1;
    op->a = (unsigned char)from;
    op->b = (unsigned char)to;
    pl->occ[to] = b;
    pl->occ[from] = -1;
    pl->at[(unsigned char)b] = (unsigned char)to;
}

/* The free slot outside `avoid` (slots that must stay free now) needed latest. */
static unsigned tposei_slot_spare(const tposei_slot_plan *pl, const unsigned char *avoid)
{
    unsigned s, best = TPOSEI_SLOT_IDS;
    for (s = 0; s < TPOSEI_SLOT_IDS; s++)
        if (pl->occ[s] == -1 && !avoid[s] &&
            (best == TPOSEI_SLOT_IDS || tposei_slot_need(s) > tposei_slot_need(best)))
            best = s;
    return best;
}

/* Region i's step: place its blocks, direct where region c is done, then move every block of
   column i waiting elsewhere into region i, which is now free. */
static void tposei_slot_step(tposei_slot_plan *pl, unsigned i)
{
    enum { S = TPOSEI_SLOT_S };
    unsigned char avoid[TPOSEI_SLOT_IDS];
    tposei_slot_op *op;
    unsigned c, j;
    tposei_ip_zero(avoid, sizeof avoid);
    for (c = 0; c < i; c++) {
        TPOSE_ASSERT(pl->occ[c * S + i] == -1); /* the direct target is free */
        avoid[c * S + i] = 1;
    }
    op = &pl->op[pl->n++];
    op->kind = 0;
    op->a = (unsigned char)i;
    for (c = 0; c < i; c++) op->dest[c] = (unsigned char)(c * S + i);
    for (c = S; c-- > i;) { /* blocks waiting longest take the slots needed latest */
        const unsigned slot = tposei_slot_spare(pl, avoid);
        avoid[slot] = 1;
        op->dest[c] = (unsigned char)slot;
    }
    for (j = 0; j < S; j++) pl->occ[i * S + j] = -1;
    for (c = 0; c < S; c++) {
        pl->occ[op->dest[c]] = (signed char)(i * S + c);
        pl->at[i * S + c] = op->dest[c];
    }
    for (j = 0; j <= i; j++)
        if (pl->at[j * S + i] != i * S + j) tposei_slot_move(pl, pl->at[j * S + i], i * S + j);
}

static void tposei_slot_plan_make(tposei_slot_plan *pl)
{
    unsigned s;
    for (s = 0; s < TPOSEI_SLOT_IDS; s++)
        pl->occ[s] = (signed char)(s < TPOSEI_SLOT_S * TPOSEI_SLOT_S ? -2 : -1);
    pl->n = 0;
    for (s = 0; s < TPOSEI_SLOT_S; s++) tposei_slot_step(pl, s);
}

/* One region between AoS (8 doubles a row) and eight SoA slots, either way. */
static void tposei_slot_region(unsigned char *aos, unsigned char *const *rows, size_t q, int wide)
{
    const tposei_kit kit = tposei_kit_get(8);
    if (kit.rows8)
        kit.rows8(aos, 64, rows, q, wide); /* whole lines non-temporal */
    else
        tposei_rows8_scalar(aos, 64, rows, 0, q, wide);
}

/* One slot to another: streamed past the caches where a streaming kernel is allowed (the
   slots are far larger than the caches and read back only much later). */
static void tposei_slot_copy(unsigned char *dst, const unsigned char *src, size_t bytes)
{
    const tposei_kit kit = tposei_kit_get(8);
    if (kit.stream_row) {
        kit.stream_row(dst, src, bytes);
        kit.fence();
    } else {
        tposei_ip_copy(dst, src, bytes);
    }
}

/* 1 when the shape takes the slot path: 8 columns (or rows) of 8 bytes, a long side that is
   a multiple of 8 and at least TPOSEI_SLOT_MIN_ROWS. */
static int tposei_ip_slots_fit(uint64_t big, uint64_t small, size_t esize)
{
    return esize == 8 && small == TPOSEI_SLOT_S && big % TPOSEI_SLOT_S == 0 &&
           big >= TPOSEI_SLOT_MIN_ROWS;
}

/* Runs the plan on a (8q x 8 when tall, else 8 x 8q) with 8 slots of workspace at w. On a
   team, every step is cut among the threads (a slot copy by lines, a region by groups of 8
   rows, a line of each slot) with a barrier after it: each step needs the one before. */
static void tposei_ip_slots(unsigned char *a, uint64_t big, int tall, unsigned char *w,
                            size_t tid, size_t nt)
{
    enum { S = TPOSEI_SLOT_S };
    const size_t q = (size_t)(big / S), slot = q * 8;
    tposei_slot_plan pl;
    unsigned char *addr[TPOSEI_SLOT_IDS];
    unsigned k, c;
    size_t lo, hi;
    for (k = 0; k < TPOSEI_SLOT_IDS; k++)
        addr[k] = k < S * S ? a + k * slot : w + (k - S * S) * slot;
    tposei_slot_plan_make(&pl);
    for (k = 0; k < pl.n; k++) {
        const tposei_slot_op *op = &pl.op[tall ? k : pl.n - 1 - k];
        if (op->kind == 1) {
            tposei_ip_share(slot, TPOSEI_CACHE_LINE, tid, nt, &lo, &hi);
            if (lo < hi && tall)
                tposei_slot_copy(addr[op->b] + lo, addr[op->a] + lo, hi - lo);
            else if (lo < hi)
                tposei_slot_copy(addr[op->a] + lo, addr[op->b] + lo, hi - lo);
        } else { /* rows [lo, hi) of the region */
            unsigned char *rows[S];
            tposei_ip_share(q, 8, tid, nt, &lo, &hi);
            for (c = 0; c < S; c++) rows[c] = addr[op->dest[c]] + lo * 8;
            if (lo < hi)
                tposei_slot_region(a + (size_t)op->a * S * slot + lo * 64, rows, hi - lo, !tall);
        }
        tposei_ip_sync(nt);
    }
}

/* ---- workspace layout ------------------------------------------------------------------ */

/* Which algorithm a shape takes and the workspace parts it needs (bytes, 0 = absent). */
typedef enum tposei_ip_path {
    TPOSEI_IP_NOTHING, /* empty, one row or one column: memory is already the transpose */
    TPOSEI_IP_SQUARE,
    TPOSEI_IP_SKINNY,
    TPOSEI_IP_SLOTS, /* n x 8 doubles: regions into workspace slots, one pass */
    TPOSEI_IP_GCD,
    TPOSEI_IP_CKG /* Catanzaro-Keller-Garland C2R / R2C */
} tposei_ip_path;

#define TPOSEI_IP_PARTS 4

typedef struct tposei_ip_plan {
    tposei_ip_path path;
    uint64_t big, small; /* max and min of rows, cols */
    uint64_t t;          /* skinny: block rows; gcd: the gcd */
    size_t part[TPOSEI_IP_PARTS];
    unsigned own;   /* bit i: part i is one per thread (a scratch buffer or bitmap) */
    size_t threads; /* the threads the workspace holds parts for */
    size_t total;   /* sum of parts rounded to cache lines, plus alignment slack */
} tposei_ip_plan;

#define TPOSEI_IP_SKINNY_MAX   32
#define TPOSEI_IP_SKINNY_CHUNK 4096 /* page-sized chunks: fastest measured */

/* *out = x * y (+ z), 0 on size_t overflow. */
static int tposei_ip_mul_add(size_t x, size_t y, size_t z, size_t *out)
{
    if (y != 0 && x > ((size_t)-1 - z) / y) return 0;
    *out = x * y + z;
    return 1;
}

/* Skinny block height: the largest divisor t <= hi of `big` whose chunk of t elements is at
   least a cache line, and with `whole` a whole number of lines (no line shared by two
   chunks: bench/MEASURED.md, "tposei_ip_skinny_div"); 0 when there is none. */
static uint64_t tposei_ip_skinny_div(uint64_t big, size_t esize, uint64_t hi, int whole)
{
    const uint64_t lo = (TPOSEI_CACHE_LINE + esize - 1) / esize;
    uint64_t t;
    for (t = hi; t >= lo && t > 0; t--)
        if (big % t == 0 && (!whole || t * esize % TPOSEI_CACHE_LINE == 0)) return t;
    return 0;
}

/* Chunks of up to a page, whole lines where a divisor allows, else any divisor, else
   256-byte chunks and a tail of big mod t rows. */
static uint64_t tposei_ip_skinny_t(uint64_t big, size_t esize)
{
    const uint64_t hi = TPOSEI_IP_SKINNY_CHUNK / esize;
    uint64_t t = tposei_ip_skinny_div(big, esize, hi, 1);
    if (!t) t = tposei_ip_skinny_div(big, esize, hi, 0);
    if (t) return t;
    t = TPOSEI_IP_SKINNY_CHUNK / 16 / esize;
    if (t * esize < TPOSEI_CACHE_LINE) t = (TPOSEI_CACHE_LINE + esize - 1) / esize;
    return t < big ? t : big; /* a short matrix is one block */
}

/* Group width in elements for this element size: TPOSEI_CKG_GROUP_BYTES, at most
   TPOSEI_CKG_GROUP columns (the wrap-around save is width^2 elements), at least one. */
#define TPOSEI_CKG_GROUP 128
#define TPOSEI_CKG_GROUP_BYTES 1024

static size_t tposei_ckg_width(size_t esize)
{
    const size_t w = TPOSEI_CKG_GROUP_BYTES / esize;
    return w < 1 ? 1 : w > TPOSEI_CKG_GROUP ? TPOSEI_CKG_GROUP : w;
}

/* Fills parts for the path; 0 on overflow. Parts: skinny {block, tail, bitmap},
   gcd {carry, bitmap}, ckg {wrap-around rows of a group, table, row, bitmap}; all but the
   tail, the slots and the table are one per thread. */
static int tposei_ip_parts(tposei_ip_plan *pl, size_t esize)
{
    const size_t big = (size_t)pl->big, small = (size_t)pl->small;
    size_t k, w;
    switch (pl->path) {
    case TPOSEI_IP_SKINNY: /* block, tail, bitmap of K x small chunks */
        pl->own = 1u | 4u; /* block and bitmap per thread */
        k = (size_t)(pl->big / pl->t);
        if (!tposei_ip_mul_add((size_t)pl->t * small, esize, 0, &pl->part[0]) ||
            !tposei_ip_mul_add((size_t)(pl->big % pl->t) * small, esize, 0, &pl->part[1]) ||
            !tposei_ip_mul_add(k, small, 7, &w))
            return 0;
        pl->part[2] = w / 8;
        return 1;
    case TPOSEI_IP_SLOTS: /* eight slots of big / 8 elements */
        return tposei_ip_mul_add(big, esize, 0, &pl->part[0]);
    case TPOSEI_IP_GCD: /* carry, bitmap of a x g x b chunks */
        pl->own = 1u | 2u; /* both per thread */
        k = (size_t)(pl->big / pl->t) * (size_t)(pl->small / pl->t);
        if (!tposei_ip_mul_add((size_t)pl->t, esize, 0, &pl->part[0]) ||
            !tposei_ip_mul_add(k, (size_t)pl->t, 7, &w))
            return 0;
        pl->part[1] = w / 8;
        return 1;
    case TPOSEI_IP_CKG:
        pl->own = 1u | 4u | 8u; /* all but the table per thread */
        w = tposei_min(tposei_ckg_width(esize), small); /* group: w x w wrap-around */
        pl->part[3] = (big + 7) / 8;                    /* visited rows */
        return tposei_ip_mul_add(w * w, esize, 0, &pl->part[0]) &&
               tposei_ip_mul_add(big, sizeof(uint64_t), 0, &pl->part[1]) &&
               tposei_ip_mul_add(small, esize, 0, &pl->part[2]);
    default:
        return 1;
    }
}

/* Sizes the workspace for nt threads (every part once without OpenMP); 0 on overflow. */
static int tposei_ip_size(tposei_ip_plan *pl, size_t nt)
{
    size_t i, bytes;
    pl->threads = nt;
    pl->total = 0;
    for (i = 0; i < TPOSEI_IP_PARTS; i++) {
        const size_t rounded = (pl->part[i] + TPOSEI_CACHE_LINE - 1) & ~(size_t)63;
        const size_t copies = TPOSEI_OPENMP && (pl->own >> i & 1) ? nt : 1;
        if (rounded < pl->part[i] || !tposei_ip_mul_add(rounded, copies, 0, &bytes) ||
            pl->total > (size_t)-1 - bytes - 64)
            return 0;
        pl->total += bytes;
    }
    if (pl->total) pl->total += TPOSEI_CACHE_LINE; /* slack to align the first part */
    return 1;
}

/* The path and workspace of a shape. n x 8 doubles take the slots, other skinny shapes the
   skinny path (blocks in cache beat everything when
   one side is short), then the gcd path when gcd chunks span a cache line and their
   bitmap stays below one long row, else C2R / R2C. Returns 0 when sizes overflow. */
static int tposei_ip_choose(tposei_ip_plan *pl, size_t rows, size_t cols, size_t esize)
{
    size_t i, elems;
    pl->path = TPOSEI_IP_NOTHING;
    pl->big = rows > cols ? rows : cols;
    pl->small = rows > cols ? cols : rows;
    pl->t = 1;
    pl->own = 0;
    pl->threads = 1;
    pl->total = 0;
    for (i = 0; i < TPOSEI_IP_PARTS; i++) pl->part[i] = 0;
    if (!tposei_ip_mul_add(rows, cols, 0, &elems) || !tposei_ip_mul_add(elems, esize, 0, &i))
        return 0;
    if (esize == 0 || pl->small <= 1) return 1;
    if (rows == cols) {
        pl->path = TPOSEI_IP_SQUARE;
        return 1;
    }
    pl->t = tposei_gcd(pl->big, pl->small);
    if (tposei_ip_slots_fit(pl->big, pl->small, esize)) {
        pl->path = TPOSEI_IP_SLOTS;
    } else if (pl->small <= TPOSEI_IP_SKINNY_MAX) {
        pl->path = TPOSEI_IP_SKINNY;
        pl->t = tposei_ip_skinny_t(pl->big, esize);
    } else if (pl->t * esize >= TPOSEI_CACHE_LINE && elems / pl->t / 8 <= pl->big * esize) {
        pl->path = TPOSEI_IP_GCD;
    } else {
        pl->path = TPOSEI_IP_CKG;
    }
    return tposei_ip_parts(pl, esize) && tposei_ip_size(pl, 1);
}

/* Splits a workspace into thread tid's parts, each aligned to a cache line: a part that is
   one per thread is `threads` copies side by side. */
static void tposei_ip_carve(const tposei_ip_plan *pl, unsigned char *work, size_t tid,
                            unsigned char *part[TPOSEI_IP_PARTS])
{
    uintptr_t at = ((uintptr_t)work + 63) & ~(uintptr_t)63;
    size_t i;
    for (i = 0; i < TPOSEI_IP_PARTS; i++) {
        const size_t rounded = (pl->part[i] + 63) & ~(size_t)63;
        const size_t copies = TPOSEI_OPENMP && (pl->own >> i & 1) ? pl->threads : 1;
        part[i] = work + (at - (uintptr_t)work) + (copies > 1 ? tid : 0) * rounded;
        at += copies * rounded;
    }
}

/* ---- skinny: blocks in cache, then the chunk grid ------------------------------------- */

/* Transposes each of `count` consecutive dense r x c blocks at `a` in place through `buf`
   (r * c elements), writing the buffer in order (faster than reading the block in order:
   bench/MEASURED.md, "tposei_ip_blocks_body"). One side is at most 32 elements, where
   the square tile kernels would spend most of a block in their edge code; a plain loop
   specialised per element size keeps the block in L1 and needs no per-call setup. */
TPOSEI_FORCE_INLINE void tposei_ip_blocks_body(unsigned char *a, uint64_t count, size_t r, size_t c,
                                               size_t esize, unsigned char *buf)
{
    const size_t blk = r * c * esize;
    uint64_t b;
    size_t i, j;
    for (b = 0; b < count; b++) {
        unsigned char *p = a + b * blk;
        for (j = 0; j < c; j++) /* buffer written in order; the block is in L1 */
            for (i = 0; i < r; i++)
                tposei_move(buf + (j * r + i) * esize, p + (i * c + j) * esize, esize);
        tposei_ip_copy(p, buf, blk);
    }
}

/* r x c blocks of 8-byte elements with a side of 8 go through the kit's 8x8 strips (the
   AVX-512 network); other skinny blocks measured slower through the SIMD kernels and keep
   the loop (bench/MEASURED.md, "tposei_ip_blocks_simd8"). */
static void tposei_ip_blocks(unsigned char *a, uint64_t count, size_t r, size_t c, size_t esize,
                             unsigned char *buf)
{
    const tposei_kit kit = tposei_kit_get(esize);
    if (kit.strip8 && esize == 8 && ((c == 8 && r % 8 == 0) || (r == 8 && c % 8 == 0))) {
        const size_t blk = r * c * esize, line = 8 * esize, tile = 8 * line;
        uint64_t b;
        for (b = 0; b < count; b++) { /* tall: tiles down the block; wide: across it */
            unsigned char *p = a + b * blk;
            if (c == 8)
                kit.strip8(buf, r * esize, p, line, r / 8, line, tile);
            else
                kit.strip8(buf, line, p, c * esize, c / 8, tile, line);
            tposei_ip_copy(p, buf, blk);
        }
        return;
    }
#define TPOSEI_IP_BLOCKS_AT(n) tposei_ip_blocks_body(a, count, r, c, n, buf)
    TPOSEI_IP_BY_SIZE(esize, TPOSEI_IP_BLOCKS_AT)
#undef TPOSEI_IP_BLOCKS_AT
}

/* Tall input (rows = big, cols = small): every t x small block of rows becomes small x t
   in place, so memory is K x small chunks of t elements ([K][small][t]); transposing that
   chunk grid gives [small][K][t], the transpose of the first K*t rows. A tail of
   big mod t rows is set aside first, then rows of the result are spread to make room.
   Thread tid of nt: its share of the blocks and of the chunk permutation's bytes; the
   spreading moves overlap from row to row, so the first thread does them alone. */
static void tposei_ip_skinny_tall(unsigned char *a, uint64_t big, uint64_t small, uint64_t t,
                                  size_t esize, unsigned char *block, unsigned char *tail,
                                  size_t carry_bytes, unsigned char *seen, size_t tid, size_t nt)
{
    const uint64_t k = big / t, rest = big - k * t, kt = k * t;
    const size_t row = (size_t)(small * esize), blk = (size_t)t * row;
    tposei_perm p;
    uint64_t i;
    size_t b0, b1;
    if (rest && tid == 0) tposei_ip_copy(tail, a + kt * row, (size_t)(rest * row));
    tposei_ip_share((size_t)k, 1, tid, nt, &b0, &b1);
    tposei_ip_blocks(a + b0 * blk, b1 - b0, (size_t)t, (size_t)small, esize, block);
    tposei_ip_sync(nt);
    tposei_perm_make(&p, k, 1, small); /* [K][small] -> [small][K] */
    tposei_ip_permute_share(a, (size_t)(t * esize), &p, block, carry_bytes, seen, tid, nt);
    if (!rest) return;
    tposei_ip_sync(nt);
    if (tid != 0) return;
    for (i = small; i-- > 0;)
        tposei_ip_memmove(a + i * big * esize, a + i * kt * esize, (size_t)(kt * esize));
    tposei_ip_oop(a + kt * esize, (size_t)(big * esize), tail, row, (size_t)rest, (size_t)small,
                  esize);
}

/* Wide input (rows = small, cols = big): the exact inverse of the tall steps. */
static void tposei_ip_skinny_wide(unsigned char *a, uint64_t big, uint64_t small, uint64_t t,
                                  size_t esize, unsigned char *block, unsigned char *tail,
                                  size_t carry_bytes, unsigned char *seen, size_t tid, size_t nt)
{
    const uint64_t k = big / t, rest = big - k * t, kt = k * t;
    const size_t row = (size_t)(small * esize), blk = (size_t)t * row;
    tposei_perm p;
    uint64_t i;
    size_t b0, b1;
    if (rest && tid == 0) {
        tposei_ip_oop(tail, row, a + kt * esize, (size_t)(big * esize), (size_t)small, (size_t)rest,
                      esize);
        for (i = 1; i < small; i++)
            tposei_ip_memmove(a + i * kt * esize, a + i * big * esize, (size_t)(kt * esize));
    }
    if (rest) tposei_ip_sync(nt);
    tposei_perm_make(&p, small, 1, k); /* [small][K] -> [K][small] */
    tposei_ip_permute_share(a, (size_t)(t * esize), &p, block, carry_bytes, seen, tid, nt);
    tposei_ip_sync(nt);
    tposei_ip_share((size_t)k, 1, tid, nt, &b0, &b1);
    tposei_ip_blocks(a + b0 * blk, b1 - b0, (size_t)small, (size_t)t, esize, block);
    if (rest && tid == 0) tposei_ip_copy(a + kt * row, tail, (size_t)(rest * row));
}

/* ---- gcd: tiles in place, then chunks of gcd elements --------------------------------- */

/* rows = a*g, cols = b*g. Transposing every g x g tile in place leaves element
   A[I*g + s][J*g + r] at chunk (I, r, J) offset s; the transpose wants it at chunk
   (J, r, I) of the cols x rows layout: the perm with A = a, R = g, B = b. Thread tid of
   nt: its share of the tiles, then of the chunk permutation's bytes. */
static void tposei_ip_gcd(unsigned char *a, uint64_t rows, uint64_t cols, uint64_t g, size_t esize,
                          unsigned char *carry, size_t carry_bytes, unsigned char *seen, size_t tid,
                          size_t nt)
{
    const uint64_t ta = rows / g, tb = cols / g;
    const size_t st = (size_t)(cols * esize);
    tposei_perm p;
    size_t x, x0, x1;
    tposei_ip_share((size_t)(ta * tb), 1, tid, nt, &x0, &x1);
    for (x = x0; x < x1; x++) /* tile (x / tb, x mod tb) */
        tposei_ip_square(a + (x / tb) * g * st + (x % tb) * g * esize, (size_t)g, (size_t)cols,
                         esize, 0, (size_t)-1);
    tposei_ip_sync(nt);
    tposei_perm_make(&p, ta, g, tb);
    tposei_ip_permute_share(a, (size_t)(g * esize), &p, carry, carry_bytes, seen, tid, nt);
}

/* ---- Catanzaro-Keller-Garland: C2R and R2C --------------------------------------------- */

/* The working matrix is always tall: m = max rows of length n = min. C2R transposes a
   tall input (m x n -> n x m); R2C, its inverse on the transposed shape, a wide one
   (paper Theorems 1 and 2). c = gcd(m, n), a = m / c, b = n / c. */
struct tposei_ckg_group;

typedef struct tposei_ckg {
    unsigned char *a, *panel, *row, *seen;
    uint64_t *table; /* q (C2R) or q^-1 (R2C): the row permutation, gather form */
    uint64_t m, n, c, ca, cb;
    uint64_t a_inv; /* mmi(a, b), eq. 31 */
    uint64_t b_inv; /* mmi(b, a), eq. 34 */
    uint64_t m_mod_n;
    tposei_div div_m, div_n, div_c, div_b;
    size_t esize, width; /* panel width in elements: one cache line */
    size_t tid, nt;      /* this thread and its team: each pass is cut among them */
    uint64_t r0, r1;     /* the thread's rows of the table and of the row shuffle */
    /* the fine rotation of a group's output rows [i0, i1), per element size */
    void (*fine)(const struct tposei_ckg_group *g, size_t i0, size_t i1, int down);
} tposei_ckg;

/* Row shuffle when gcd(m, n) = 1: both gathers are strided, row[j] = row[(base + j step)
   mod n] (eq. 31 with c = 1, b = n: d'^-1_i(j) = a^-1 (j + i(n-1)) mod n; eq. 24 with
   c = 1: d'_i(j) = (i + j m) mod n). The row is copied to k->row in order (one streamed
   read), then gathered back along four independent index chains, so the wrap-around
   compare of one chain does not stall the next element; meanwhile `next` (the next row,
   or this one for the last) is prefetched into L2. */
TPOSEI_FORCE_INLINE void tposei_ckg_stride_row(const tposei_ckg *k, unsigned char *r,
                                               const unsigned char *next, uint64_t base,
                                               uint64_t step, size_t esize)
{
    const uint64_t n = k->n, s2 = tposei_wrap(step + step, n), s4 = tposei_wrap(s2 + s2, n);
    uint64_t d0 = base, d1 = tposei_wrap(base + step, n), d2 = tposei_wrap(base + s2, n);
    uint64_t d3 = tposei_wrap(d2 + step, n), j = 0;
    const unsigned char *b = k->row;
    tposei_ip_copy(k->row, r, (size_t)(n * esize));
    for (; j + 4 <= n; j += 4) {                 /* d_t = (base + (j + t) step) mod n */
        TPOSEI_IP_PREFETCH_L2(next + j * esize); /* the next row, for its copy */
        tposei_move(r + j * esize, b + d0 * esize, esize);
        tposei_move(r + (j + 1) * esize, b + d1 * esize, esize);
        tposei_move(r + (j + 2) * esize, b + d2 * esize, esize);
        tposei_move(r + (j + 3) * esize, b + d3 * esize, esize);
        d0 = tposei_wrap(d0 + s4, n);
        d1 = tposei_wrap(d1 + s4, n);
        d2 = tposei_wrap(d2 + s4, n);
        d3 = tposei_wrap(d3 + s4, n);
    }
    for (; j < n; j++, d0 = tposei_wrap(d0 + step, n))
        tposei_move(r + j * esize, b + d0 * esize, esize);
}

/* Row shuffle of C2R, gather form (eq. 31): row i becomes A[i][d'^-1_i(j)] with
   f = j + i(n-1) (+ m when i - (j mod c) + c > m) and
   d'^-1_i(j) = (a^-1 * floor(f / c)) mod b + (f mod c) * b. Walking j upwards, f mod c
   and a^-1 * floor(f / c) mod b are counters; adding m to f adds a to floor(f / c),
   which adds a^-1 * a = 1 (mod b) to the first term. No divide inside the loop. */
TPOSEI_FORCE_INLINE void tposei_ckg_c2r_row(const tposei_ckg *k, uint64_t i, size_t esize)
{
    unsigned char *r = k->a + i * k->n * esize;
    const int64_t wrap_below = (int64_t)(i + k->c) - (int64_t)k->m; /* f gets + m when */
    uint64_t v, u = tposei_divmod(&k->div_c, i * (k->n - 1), &v);   /* j mod c < this */
    uint64_t w = tposei_mulmod(k->a_inv, tposei_mod(&k->div_b, u), k->cb), jm = 0, j;
    uint64_t vb = v * k->cb;
    for (j = 0; j < k->n; j++) {
        const uint64_t d = tposei_wrap(w + (uint64_t)((int64_t)jm < wrap_below), k->cb);
        tposei_move(k->row + j * esize, r + (d + vb) * esize, esize);
        vb += k->cb;
        if (++v == k->c) {
            v = vb = 0;
            w = tposei_wrap(w + k->a_inv, k->cb);
        }
        if (++jm == k->c) jm = 0;
    }
    tposei_ip_copy(r, k->row, (size_t)(k->n * esize));
}

/* Row shuffle of R2C, gather form: row i becomes A[i][d'_i(j)] with
   d'_i(j) = ((i + floor(j / b)) mod m + j m) mod n (eq. 24). (i + floor(j/b)) mod m and
   its residue mod n step by one every b columns; j m mod n steps by m mod n. */
TPOSEI_FORCE_INLINE void tposei_ckg_r2c_row(const tposei_ckg *k, uint64_t i, size_t esize)
{
    unsigned char *r = k->a + i * k->n * esize;
    const uint64_t step = k->m_mod_n;
    uint64_t s = i, sn = tposei_mod(&k->div_n, i), t = 0, jb = 0, j;
    for (j = 0; j < k->n; j++) {
        tposei_move(k->row + j * esize, r + tposei_wrap(sn + t, k->n) * esize, esize);
        t = tposei_wrap(t + step, k->n);
        if (++jb == k->cb) {
            jb = 0;
            if (++s == k->m)
                s = sn = 0;
            else if (++sn == k->n)
                sn = 0;
        }
    }
    tposei_ip_copy(r, k->row, (size_t)(k->n * esize));
}

/* Row i's shuffle: strided when c = 1. C2R base: a^-1 i (n - 1) mod n, step a^-1 (eq. 31);
   R2C base: i mod n, step m mod n (eq. 24). */
TPOSEI_FORCE_INLINE void tposei_ckg_c2r_shuffle(const tposei_ckg *k, uint64_t i, size_t esize)
{
    if (k->c == 1) {
        const uint64_t im = tposei_mod(&k->div_n, i), nm = im ? k->n - im : 0; /* i(n-1) mod n */
        unsigned char *r = k->a + i * k->n * esize;
        tposei_ckg_stride_row(k, r, i + 1 < k->m ? r + k->n * esize : r,
                              tposei_mulmod(k->a_inv, nm, k->n), k->a_inv, esize);
    } else {
        tposei_ckg_c2r_row(k, i, esize);
    }
}

TPOSEI_FORCE_INLINE void tposei_ckg_r2c_shuffle(const tposei_ckg *k, uint64_t i, size_t esize)
{
    unsigned char *r = k->a + i * k->n * esize;
    if (k->c == 1)
        tposei_ckg_stride_row(k, r, i + 1 < k->m ? r + k->n * esize : r, tposei_mod(&k->div_n, i),
                              k->m_mod_n, esize);
    else
        tposei_ckg_r2c_row(k, i, esize);
}

/* Column rotations (paper section 4.6) on groups of up to TPOSEI_CKG_GROUP columns
   (TPOSEI_CKG_GROUP_BYTES wide, so each row visit moves a run of whole cache lines rather
   than one line per TLB miss). A column j of a group starting at j0 rotates by
   amt(j) = c0 + fine(j) with c0 = amt(j0): amt is nondecreasing and grows by less than the
   group width across it (section 4.6: 0 <= f(j + w) - f(j) < w), so fine(j) < w. The fine
   part streams the group once, one output row from the next fine(j) rows held in cache; the
   coarse part moves whole group sub-rows by cycle following, fused with the row
   permutation where there is one (a rotation by c0 followed by the gather q is the gather
   (q(i) + c0) mod m, section 4.1). */
typedef enum tposei_ckg_pass {
    TPOSEI_CKG_PREROTATE, /* C2R step 1: up by floor(j / b), eq. 23 */
    TPOSEI_CKG_ROTATE,    /* C2R step 3: up by j, eq. 32, then the rows by q, eq. 33 */
    TPOSEI_CKG_UNROTATE,  /* R2C step 2: the rows by q^-1 (eq. 34), then down by j, eq. 35 */
    TPOSEI_CKG_POSTROTATE /* R2C step 4: down by floor(j / b), eq. 36 */
} tposei_ckg_pass;

/* Column j's rotation amount in the pass, in [0, n). */
static uint64_t tposei_ckg_amount(const tposei_ckg *k, tposei_ckg_pass pass, uint64_t j)
{
    uint64_t unused;
    if (pass == TPOSEI_CKG_ROTATE || pass == TPOSEI_CKG_UNROTATE) return j;
    return tposei_divmod(&k->div_b, j, &unused); /* floor(j / b) */
}

/* One group: columns j0 .. j0 + w - 1 of the tall working matrix. */
typedef struct tposei_ckg_group {
    unsigned char *col;          /* row 0, column j0 */
    size_t st, w, esize;         /* row stride (bytes), group width, element size */
    size_t z;                    /* columns below z have fine(j) = 0 and stay put */
    uint64_t c0, fmax;           /* coarse amount, largest fine amount */
    size_t fo[TPOSEI_CKG_GROUP]; /* fine(j) * row stride, bytes */
} tposei_ckg_group;

static void tposei_ckg_group_make(const tposei_ckg *k, tposei_ckg_pass pass, uint64_t j0, size_t w,
                                  tposei_ckg_group *g)
{
    size_t jj;
    g->col = k->a + j0 * k->esize;
    g->st = (size_t)(k->n * k->esize);
    g->w = w;
    g->esize = k->esize;
    g->c0 = tposei_ckg_amount(k, pass, j0);
    g->z = w;
    g->fmax = 0;
    for (jj = 0; jj < w; jj++) {
        const uint64_t f = tposei_ckg_amount(k, pass, j0 + jj) - g->c0; /* fine(j) < w */
        if (f && g->z == w) g->z = jj;
        g->fmax = f;
        g->fo[jj] = (size_t)f * g->st;
    }
}

/* Prefetches the w elements of one group sub-row. */
static void tposei_ckg_prefetch_sub(const unsigned char *p, size_t bytes)
{
    size_t o;
    for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_IP_PREFETCH_L2(p + o);
    TPOSEI_IP_PREFETCH_L2(p + bytes - 1);
}

/* The fine rotation visits R x C tiles of (output row, column): the sources of one tile lie
   in R + C rows, so a tile touches about 2R + C pages, within the first-level TLB, where a
   whole output row would touch w pages, one per element (bench/MEASURED.md,
   "TPOSEI_CKG_TILE_R"). A column's rows are still produced in order, which is all its
   rotation needs: the columns are independent. */
#define TPOSEI_CKG_TILE_R 8
#define TPOSEI_CKG_TILE_C 8

/* Output rows [i0, i1) of the group from rows i + fine(j) (up) or i - fine(j) (down), all
   inside the matrix; down walks the rows backwards. Whole tiles go through `tile8` when
   given (8-byte elements, TPOSEI_CKG_TILE_C == 8), the rest element by element. */
TPOSEI_FORCE_INLINE void tposei_ckg_fine_rows(const tposei_ckg_group *g, size_t i0, size_t i1,
                                              int down, size_t esize, tposei_gather8_fn tile8)
{
    const size_t st = g->st, gb = g->w * esize, ahead = (size_t)g->fmax + TPOSEI_CKG_TILE_R;
    size_t ib, jb, jj, r;
    for (ib = 0; ib < i1 - i0; ib += TPOSEI_CKG_TILE_R) {
        const size_t rows = tposei_min(TPOSEI_CKG_TILE_R, i1 - i0 - ib);
        unsigned char *first = g->col + (down ? i1 - 1 - ib : i0 + ib) * st;
        for (r = 0; r < TPOSEI_CKG_TILE_R && ib + ahead + r < i1 - i0; r++) /* next band */
            tposei_ckg_prefetch_sub(
                g->col + (down ? i1 - 1 - ib - ahead - r : i0 + ib + ahead + r) * st, gb);
        for (jb = g->z; jb < g->w; jb += TPOSEI_CKG_TILE_C) {
            const size_t je = tposei_min(jb + TPOSEI_CKG_TILE_C, g->w);
            if (tile8 && je - jb == 8) { /* one gather a row ("tposei_ckg_tile_u64") */
                tile8(first, down ? -(ptrdiff_t)st : (ptrdiff_t)st, rows, g->fo, jb, down);
                continue;
            }
            for (r = 0; r < rows; r++) {
                unsigned char *d = down ? first - r * st : first + r * st;
                if (down)
                    for (jj = jb; jj < je; jj++)
                        tposei_move(d + jj * esize, d - g->fo[jj] + jj * esize, esize);
                else
                    for (jj = jb; jj < je; jj++)
                        tposei_move(d + jj * esize, d + g->fo[jj] + jj * esize, esize);
            }
        }
    }
}

/* Output rows [i0, i1) of the group, whole 8-byte tiles gathered where the kit has them. */
TPOSEI_FORCE_INLINE void tposei_ckg_fine_body(const tposei_ckg_group *g, size_t i0, size_t i1,
                                              int down, size_t esize)
{
    const tposei_gather8_fn gather8 = esize == 8 ? tposei_kit_get(8).gather8 : NULL;
    if (gather8) {
        tposei_ckg_fine_rows(g, i0, i1, down, 8, gather8);
        return;
    }
    tposei_ckg_fine_rows(g, i0, i1, down, esize, NULL);
}

/* Fine rotation upwards: A[i][j] = A[(i + fine(j)) mod m][j]. Each column's rows are produced
   top to bottom, each element from a row at or below it that is still unwritten; the first
   fmax sub-rows, which the last rows wrap around to, are saved in k->panel first. */
static void tposei_ckg_fine_up(const tposei_ckg *k, const tposei_ckg_group *g)
{
    const size_t esize = k->esize, gb = g->w * esize, st = g->st, fm = (size_t)g->fmax;
    const size_t m = (size_t)k->m;
    size_t i, jj;
    tposei_ip_copy_rows(k->panel, gb, g->col, st, fm, gb);
    k->fine(g, 0, m - fm, 0); /* sources i + fine(j) < m */
    for (i = m - fm; i < m; i++) { /* source row s = i + fine(j) wraps to saved row s - m */
        unsigned char *d = g->col + i * st;
        for (jj = g->z; jj < g->w; jj++) {
            const size_t s = i + g->fo[jj] / st;
            const unsigned char *from = s < m ? g->col + s * st : k->panel + (s - m) * gb;
            tposei_move(d + jj * esize, from + jj * esize, esize);
        }
    }
}

/* Fine rotation downwards: A[i][j] = A[(i - fine(j)) mod m][j], bottom to top; the last
   fmax sub-rows are saved first (saved row r holds row m - fmax + r). */
static void tposei_ckg_fine_down(const tposei_ckg *k, const tposei_ckg_group *g)
{
    const size_t esize = k->esize, gb = g->w * esize, st = g->st, fm = (size_t)g->fmax;
    const size_t m = (size_t)k->m;
    size_t i, jj;
    tposei_ip_copy_rows(k->panel, gb, g->col + (m - fm) * st, st, fm, gb);
    k->fine(g, fm, m, 1); /* sources i - fine(j) >= 0 */
    for (i = fm; i-- > 0;) {                  /* i - fine(j) < 0 wraps to row m + i - fine(j) */
        unsigned char *d = g->col + i * st;
        for (jj = g->z; jj < g->w; jj++) {
            const size_t f = g->fo[jj] / st;
            const unsigned char *from =
                i >= f ? g->col + (i - f) * st : k->panel + (fm + i - f) * gb;
            tposei_move(d + jj * esize, from + jj * esize, esize);
        }
    }
}

/* The gather of a group's sub-rows: sub-row i receives sub-row
   src(i) = (T((i + s1) mod m) + s2) mod m, T the row table or the identity. */
typedef struct tposei_ckg_gather {
    const uint64_t *table; /* NULL: identity */
    uint64_t s1, s2, m;
} tposei_ckg_gather;

TPOSEI_FORCE_INLINE uint64_t tposei_ckg_src(const tposei_ckg_gather *x, uint64_t i)
{
    uint64_t t = tposei_wrap(i + x->s1, x->m);
    if (x->table) t = x->table[t];
    return tposei_wrap(t + x->s2, x->m);
}

/* Sub-rows of one group permuted by cycle following, gather form, each moved once: the
   cycle's first sub-row is saved in k->row, and sub-rows TPOSEI_IP_AHEAD steps ahead on the
   cycle are prefetched (each is a different page). k->seen marks visited rows. */
static void tposei_ckg_gather_rows(const tposei_ckg *k, const tposei_ckg_group *g,
                                   const tposei_ckg_gather *x)
{
    const size_t gb = g->w * k->esize, st = g->st;
    uint64_t y, pos, src, ahead;
    int s;
    tposei_ip_zero(k->seen, (size_t)((k->m + 7) / 8));
    for (y = 0; y < k->m; y++) {
        if (k->seen[y >> 3] >> (y & 7) & 1) continue;
        src = tposei_ckg_src(x, y);
        if (src == y) continue;
        ahead = src;
        for (s = 0; s < TPOSEI_IP_AHEAD && ahead != y; s++) {
            tposei_ckg_prefetch_sub(g->col + ahead * st, gb);
            ahead = tposei_ckg_src(x, ahead);
        }
        tposei_ip_copy(k->row, g->col + y * st, gb);
        for (pos = y; src != y; pos = src, src = tposei_ckg_src(x, pos)) {
            k->seen[pos >> 3] |= (unsigned char)(1u << (pos & 7));
            if (ahead != y) {
                tposei_ckg_prefetch_sub(g->col + ahead * st, gb);
                ahead = tposei_ckg_src(x, ahead);
            }
            tposei_ip_copy(g->col + pos * st, g->col + src * st, gb);
        }
        k->seen[pos >> 3] |= (unsigned char)(1u << (pos & 7));
        tposei_ip_copy(g->col + pos * st, k->row, gb);
    }
}

/* One group through one pass: fine and coarse rotation, and the row gather of the
   column shuffle (ROTATE: rows by q after the rotation; UNROTATE: by q^-1 before it). */
static void tposei_ckg_group_pass(const tposei_ckg *k, tposei_ckg_pass pass,
                                  const tposei_ckg_group *g)
{
    tposei_ckg_gather x;
    const int up = pass == TPOSEI_CKG_PREROTATE || pass == TPOSEI_CKG_ROTATE;
    x.m = k->m;
    x.table = pass == TPOSEI_CKG_ROTATE || pass == TPOSEI_CKG_UNROTATE ? k->table : NULL;
    x.s1 = up ? g->c0 : k->m - g->c0; /* up: (i + c0) mod m; down: (i - c0) mod m */
    x.s2 = 0;
    if (pass == TPOSEI_CKG_ROTATE) { /* rotate, then gather q: (q(i) + c0) mod m */
        x.s1 = 0;
        x.s2 = g->c0;
    }
    if (up && g->fmax) tposei_ckg_fine_up(k, g);
    if (x.table || tposei_wrap(x.s1, k->m)) tposei_ckg_gather_rows(k, g, &x);
    if (!up && g->fmax) tposei_ckg_fine_down(k, g);
}

/* This thread's columns of a pass, in groups: the team's shares are cut on group edges,
   or on cache lines where there are fewer groups than threads (any narrower group keeps
   fine(j) below its width). */
static void tposei_ckg_columns(const tposei_ckg *k, tposei_ckg_pass pass)
{
    const size_t n = (size_t)k->n, line = TPOSEI_CACHE_LINE / k->esize;
    const size_t unit = n / k->width >= k->nt ? k->width : line ? line : 1;
    tposei_ckg_group g;
    size_t j0, j1, j;
    tposei_ip_share(n, unit, k->tid, k->nt, &j0, &j1);
    for (j = j0; j < j1; j += k->width) {
        tposei_ckg_group_make(k, pass, j, tposei_min(k->width, j1 - j), &g);
        tposei_ckg_group_pass(k, pass, &g);
    }
}

/* The thread's entries of q(i) = (i n - floor(i / a)) mod m (eq. 33) for C2R; q^-1(i) =
   (ceil(i / c) * b^-1) mod a + ((c - 1) i mod c) * a (eq. 34) for R2C. */
static void tposei_ckg_table(const tposei_ckg *k, int inverse)
{
    const tposei_div div_a = tposei_div_make(k->ca);
    uint64_t i, unused;
    for (i = k->r0; i < k->r1; i++) {
        if (!inverse) {
            const uint64_t fl = tposei_divmod(&div_a, i, &unused);
            k->table[i] = tposei_mod(&k->div_m, i * k->n - fl);
        } else {
            const uint64_t up = tposei_divmod(&k->div_c, k->c - 1 + i, &unused);
            const uint64_t first = tposei_mulmod(tposei_mod(&div_a, up), k->b_inv % k->ca, k->ca);
            k->table[i] = first + tposei_mod(&k->div_c, (k->c - 1) * i) * k->ca;
        }
    }
}

/* The element loops of the algorithm, specialised per element size (the micro-kernels:
   every other step moves whole sub-rows): the row shuffles and the fine rotation. */
#define TPOSEI_CKG_KERNELS(name, n, gn)                                                        \
    static void tposei_ckg_shuffles_##name(const tposei_ckg *k, int c2r)                     \
    {                                                                                        \
        uint64_t i;                                                                          \
        for (i = k->r0; i < k->r1; i++)                                                      \
            if (c2r)                                                                         \
                tposei_ckg_c2r_shuffle(k, i, n);                                             \
            else                                                                             \
                tposei_ckg_r2c_shuffle(k, i, n);                                             \
    }                                                                                        \
    static void tposei_ckg_fine_##name(const tposei_ckg_group *g, size_t i0, size_t i1,     \
                                       int down)                                             \
    {                                                                                        \
        tposei_ckg_fine_body(g, i0, i1, down, gn);                                           \
    }
TPOSEI_CKG_KERNELS(e1, 1, 1)
TPOSEI_CKG_KERNELS(e2, 2, 2)
TPOSEI_CKG_KERNELS(e4, 4, 4)
TPOSEI_CKG_KERNELS(e8, 8, 8)
TPOSEI_CKG_KERNELS(e16, 16, 16)
TPOSEI_CKG_KERNELS(any, k->esize, g->esize)
#undef TPOSEI_CKG_KERNELS

typedef void (*tposei_ckg_shuffles_fn)(const tposei_ckg *k, int c2r);

/* C2R (rows > cols): prerotate, shuffle rows, rotate and gather; R2C the inverse order. Each
   pass needs the whole of the one before, so a team meets between passes; within one, a
   thread takes its share of the rows or of the columns. */
static void tposei_ckg_body(const tposei_ckg *k, int c2r, tposei_ckg_shuffles_fn shuffles)
{
    if (c2r) {
        if (k->c > 1) tposei_ckg_columns(k, TPOSEI_CKG_PREROTATE);
        tposei_ip_sync(k->nt);
        shuffles(k, 1);
        tposei_ip_sync(k->nt);
        tposei_ckg_columns(k, TPOSEI_CKG_ROTATE); /* column shuffle = p_j, then q */
    } else {
        tposei_ckg_columns(k, TPOSEI_CKG_UNROTATE); /* q^-1, then p_j^-1 */
        tposei_ip_sync(k->nt);
        shuffles(k, 0);
        tposei_ip_sync(k->nt);
        if (k->c > 1) tposei_ckg_columns(k, TPOSEI_CKG_POSTROTATE);
    }
}

/* Thread tid of nt: its own scratch parts, its share of the table, then of each pass. */
static void tposei_ip_ckg(unsigned char *a, size_t rows, size_t cols, size_t esize,
                          unsigned char *part[TPOSEI_IP_PARTS], size_t tid, size_t nt)
{
    tposei_ckg k;
    tposei_ckg_shuffles_fn shuffles;
    const int c2r = rows > cols;
    size_t r0, r1;
    k.a = a;
    k.m = c2r ? rows : cols;
    k.n = c2r ? cols : rows;
    k.c = tposei_gcd(k.m, k.n);
    k.ca = k.m / k.c;
    k.cb = k.n / k.c;
    k.a_inv = tposei_mmi(k.ca, k.cb);
    k.b_inv = tposei_mmi(k.cb, k.ca);
    k.div_m = tposei_div_make(k.m);
    k.div_n = tposei_div_make(k.n);
    k.m_mod_n = k.m % k.n;
    k.div_c = tposei_div_make(k.c);
    k.div_b = tposei_div_make(k.cb);
    k.esize = esize;
    k.width = tposei_ckg_width(esize);
    k.tid = tid;
    k.nt = nt;
    k.panel = part[0];
    k.table = (uint64_t *)(void *)part[1]; /* aligned: tposei_ip_carve starts parts on lines */
    k.row = part[2];
    k.seen = part[3];
    switch (esize) {
    case 1: k.fine = tposei_ckg_fine_e1; shuffles = tposei_ckg_shuffles_e1; break;
    case 2: k.fine = tposei_ckg_fine_e2; shuffles = tposei_ckg_shuffles_e2; break;
    case 4: k.fine = tposei_ckg_fine_e4; shuffles = tposei_ckg_shuffles_e4; break;
    case 8: k.fine = tposei_ckg_fine_e8; shuffles = tposei_ckg_shuffles_e8; break;
    case 16: k.fine = tposei_ckg_fine_e16; shuffles = tposei_ckg_shuffles_e16; break;
    default: k.fine = tposei_ckg_fine_any; shuffles = tposei_ckg_shuffles_any; break;
    }
    tposei_ip_share((size_t)k.m, 1, tid, nt, &r0, &r1);
    k.r0 = r0;
    k.r1 = r1;
    tposei_ckg_table(&k, !c2r);
    tposei_ip_sync(nt);
    tposei_ckg_body(&k, c2r, shuffles);
}

/* ---- dispatch -------------------------------------------------------------------------- */

/* With a workspace laid out by `pl`: thread tid's share, on a team of nt. */
static void tposei_ip_with_work(unsigned char *a, size_t rows, size_t cols, size_t esize,
                                const tposei_ip_plan *pl, unsigned char *work, size_t tid,
                                size_t nt)
{
    unsigned char *part[TPOSEI_IP_PARTS];
    const int tall = rows > cols;
    tposei_ip_carve(pl, work, tid, part);
    switch (pl->path) {
    case TPOSEI_IP_SKINNY:
        tposei_ip_zero(part[2], pl->part[2]);
        if (tall)
            tposei_ip_skinny_tall(a, pl->big, pl->small, pl->t, esize, part[0], part[1],
                                  pl->part[0], part[2], tid, nt);
        else
            tposei_ip_skinny_wide(a, pl->big, pl->small, pl->t, esize, part[0], part[1],
                                  pl->part[0], part[2], tid, nt);
        return;
    case TPOSEI_IP_SLOTS:
        tposei_ip_slots(a, pl->big, tall, part[0], tid, nt);
        return;
    case TPOSEI_IP_GCD:
        tposei_ip_zero(part[1], pl->part[1]);
        tposei_ip_gcd(a, rows, cols, pl->t, esize, part[0], pl->part[0], part[1], tid, nt);
        return;
    case TPOSEI_IP_CKG:
        tposei_ip_ckg(a, rows, cols, esize, part, tid, nt);
        return;
    default:
        return;
    }
}

/* The plan on a team of nt threads: one parallel region, every thread through the same
   driver with its share; a team of one runs here, without a region. */
static void tposei_ip_run(unsigned char *a, size_t rows, size_t cols, size_t esize,
                          const tposei_ip_plan *pl, unsigned char *work, size_t nt)
{
#if TPOSEI_OPENMP
    if (nt > 1) {
#pragma omp parallel num_threads((int)nt)
        tposei_ip_with_work(a, rows, cols, esize, pl, work, (size_t)omp_get_thread_num(),
                            (size_t)omp_get_num_threads());
        return;
    }
#endif
    (void)nt;
    tposei_ip_with_work(a, rows, cols, esize, pl, work, 0, 1);
}

/* The threads for a plan (moving its big * small elements): tposei_kit's team, fewer where a
   caller's workspace of work_bytes holds the per-thread parts of fewer; pl is sized for the
   result. A team of one always fits: the caller has checked the one-thread size. */
static size_t tposei_ip_team(tposei_ip_plan *pl, size_t esize, const void *work,
                             size_t work_bytes)
{
#if TPOSEI_OPENMP
    size_t nt = pl->path > TPOSEI_IP_SQUARE
                    ? tposei_kit_get(esize).team((size_t)(pl->big * pl->small) * esize)
                    : 1;
    for (; nt > 1; nt--)
        if (tposei_ip_size(pl, nt) && (work == NULL || pl->total <= work_bytes)) return nt;
    tposei_ip_size(pl, 1);
#else
    (void)pl;
    (void)esize;
    (void)work;
    (void)work_bytes;
#endif
    return 1;
}

/* O(1) memory: cycle following with the leader test. Whole chunks (skinny blocks or gcd
   chunks, a cache line or more) when the shape has them and the blocks fit the stack
   buffer; single elements otherwise. One thread: this is the fallback when the workspace
   cannot be allocated. */
static void tposei_ip_no_work(unsigned char *a, size_t rows, size_t cols, size_t esize,
                              const tposei_ip_plan *pl)
{
    unsigned char carry[TPOSEI_IP_CARRY_BYTES];
    tposei_perm p;
    /* skinny blocks that divide the long side and fit the stack buffer */
    const uint64_t t =
        pl->path != TPOSEI_IP_SKINNY && pl->path != TPOSEI_IP_SLOTS
            ? 0
            : tposei_ip_skinny_div(pl->big, esize, TPOSEI_IP_CARRY_BYTES / (pl->small * esize), 0);
    if (t) { /* t divides the long side: no tail, so `carry` stands for the tail buffer */
        if (rows > cols)
            tposei_ip_skinny_tall(a, pl->big, pl->small, t, esize, carry, carry,
                                  TPOSEI_IP_CARRY_BYTES, NULL, 0, 1);
        else
            tposei_ip_skinny_wide(a, pl->big, pl->small, t, esize, carry, carry,
                                  TPOSEI_IP_CARRY_BYTES, NULL, 0, 1);
        return;
    }
    if (pl->path == TPOSEI_IP_GCD) {
        tposei_ip_gcd(a, rows, cols, pl->t, esize, carry, TPOSEI_IP_CARRY_BYTES, NULL, 0, 1);
        return;
    }
    tposei_perm_make(&p, rows, 1, cols);
    tposei_ip_permute(a, esize, esize, &p, carry, TPOSEI_IP_CARRY_BYTES, NULL);
}

/* ---- plans ------------------------------------------------------------------------------ */

#define TPOSEI_PLAN_MAGIC  0x4E414C5045534F50ull /* "POSEPLAN" */
#define TPOSEI_PLAN_HEADER 32

static uint64_t tposei_plan_get(const unsigned char *plan, size_t slot)
{
    uint64_t v;
    TPOSEI_MEMCPY(&v, plan + slot * 8, 8);
    return v;
}

static void tposei_plan_put(unsigned char *plan, size_t slot, uint64_t v)
{
    TPOSEI_MEMCPY(plan + slot * 8, &v, 8);
}

/* Visits every cycle of length >= 2 of the rows x cols transposition; with `plan`,
   records (leader, length) pairs after the header. Returns the number of cycles. */
static uint64_t tposei_plan_walk(const tposei_perm *p, unsigned char *plan)
{
    uint64_t y, s, len, cycles = 0;
    for (y = 0; y < p->count; y++) {
        s = tposei_perm_src(p, y);
        if (s == y || !tposei_perm_leads(p, y)) continue;
        for (len = 1; s != y; len++) s = tposei_perm_src(p, s);
        if (plan) {
            tposei_plan_put(plan, 4 + 2 * (size_t)cycles, y);
            tposei_plan_put(plan, 5 + 2 * (size_t)cycles, len);
        }
        cycles++;
    }
    return cycles;
}

/* One recorded cycle, gather form, `len` bytes of every element at a time. */
TPOSEI_FORCE_INLINE void tposei_plan_cycle(unsigned char *a, const tposei_perm *p, uint64_t leader,
                                           uint64_t length, size_t esize)
{
    unsigned char carry[64];
    size_t off;
    for (off = 0; off < esize; off += sizeof carry) {
        const size_t n = tposei_min(sizeof carry, esize - off);
        uint64_t pos = leader, step;
        if (n == esize)
            tposei_move(carry, a + pos * esize, esize);
        else
            tposei_ip_copy(carry, a + pos * esize + off, n);
        for (step = 1; step < length; step++) {
            const uint64_t src = tposei_perm_src(p, pos);
            if (n == esize)
                tposei_move(a + pos * esize, a + src * esize, esize);
            else
                tposei_ip_copy(a + pos * esize + off, a + src * esize + off, n);
            pos = src;
        }
        if (n == esize)
            tposei_move(a + pos * esize, carry, esize);
        else
            tposei_ip_copy(a + pos * esize + off, carry, n);
    }
}

TPOSEI_FORCE_INLINE void tposei_plan_run(const unsigned char *plan, unsigned char *a, size_t esize)
{
    const uint64_t cycles = tposei_plan_get(plan, 3);
    tposei_perm p;
    uint64_t c;
    tposei_perm_make(&p, tposei_plan_get(plan, 1), 1, tposei_plan_get(plan, 2));
    for (c = 0; c < cycles; c++)
        tposei_plan_cycle(a, &p, tposei_plan_get(plan, 4 + 2 * (size_t)c),
                          tposei_plan_get(plan, 5 + 2 * (size_t)c), esize);
}

/* One function per element size, so an unoptimised build (which keeps every inlined copy's
   locals apart) holds one copy's frame at a time, not six (32-bit ARM, -O0: 4.7 KiB). */
#define TPOSEI_PLAN_RUN_FN(n)                                                               \
    static void tposei_plan_run_e##n(const unsigned char *plan, unsigned char *a)          \
    {                                                                                       \
        tposei_plan_run(plan, a, n);                                                        \
    }
TPOSEI_PLAN_RUN_FN(1)
TPOSEI_PLAN_RUN_FN(2)
TPOSEI_PLAN_RUN_FN(4)
TPOSEI_PLAN_RUN_FN(8)
TPOSEI_PLAN_RUN_FN(16)
#undef TPOSEI_PLAN_RUN_FN

static void tposei_plan_run_sized(const unsigned char *plan, unsigned char *a, size_t esize)
{
    switch (esize) {
    case 1: tposei_plan_run_e1(plan, a); return;
    case 2: tposei_plan_run_e2(plan, a); return;
    case 4: tposei_plan_run_e4(plan, a); return;
    case 8: tposei_plan_run_e8(plan, a); return;
    case 16: tposei_plan_run_e16(plan, a); return;
    default: tposei_plan_run(plan, a, esize); return;
    }
}

/* ======================================================================================== */
// >>api
/* ======================================================================================== */

/* a + bytes must not wrap the address space. */
static int tposei_ip_fits(const void *a, size_t bytes)
{
    return (uintptr_t)a <= UINTPTR_MAX - bytes;
}

TPOSE_API size_t tpose_inplace_workspace(size_t rows, size_t cols, size_t esize)
{
    tposei_ip_plan pl;
    if (!tposei_ip_choose(&pl, rows, cols, esize)) return (size_t)-1;
    (void)tposei_ip_team(&pl, esize, NULL, 0);
    return pl.total;
}

TPOSE_API tpose_status tpose_inplace(void *a, size_t rows, size_t cols, size_t esize, void *work,
                                     size_t work_bytes)
{
    tposei_ip_plan pl;
    size_t nt;
#if !defined(TPOSE_NO_STDLIB)
    unsigned char *own = NULL;
#endif
    if (esize == 0) return TPOSE_ERR_ESIZE;
    if (rows == 0 || cols == 0) return TPOSE_OK;
    if (a == NULL) return TPOSE_ERR_NULL;
    if (!tposei_ip_choose(&pl, rows, cols, esize) || !tposei_ip_fits(a, rows * cols * esize))
        return TPOSE_ERR_OVERFLOW;
    if (work != NULL && work_bytes < pl.total) return TPOSE_ERR_WORKSPACE;
    if (pl.path == TPOSEI_IP_NOTHING) return TPOSE_OK;
    if (pl.path == TPOSEI_IP_SQUARE) {
        tposei_ip_square_team((unsigned char *)a, rows, rows, esize);
        return TPOSE_OK;
    }
    nt = tposei_ip_team(&pl, esize, work, work_bytes);
#if !defined(TPOSE_NO_STDLIB)
    if (work == NULL) work = own = (unsigned char *)TPOSE_MALLOC(pl.total);
#endif
    if (work != NULL)
        tposei_ip_run((unsigned char *)a, rows, cols, esize, &pl, (unsigned char *)work, nt);
    else
        tposei_ip_no_work((unsigned char *)a, rows, cols, esize, &pl);
#if !defined(TPOSE_NO_STDLIB)
    if (own) TPOSE_FREE(own);
#endif
    return TPOSE_OK;
}

TPOSE_API tpose_status tpose_inplace_square(void *a, size_t n, size_t ld, size_t esize)
{
    size_t bytes;
    if (esize == 0) return TPOSE_ERR_ESIZE;
    if (n == 0) return TPOSE_OK;
    if (a == NULL) return TPOSE_ERR_NULL;
    if (ld < n) return TPOSE_ERR_LD;
    if (!tposei_mul(ld, esize, &bytes) || !tposei_extent(n, n, ld, esize, &bytes) ||
        !tposei_ip_fits(a, bytes))
        return TPOSE_ERR_OVERFLOW;
    /* 1 x 1 is its own transpose; its ld may be anything, and the walks would form row
       pointers from it that a huge ld wraps */
    if (n > 1) tposei_ip_square_team((unsigned char *)a, n, ld, esize);
    return TPOSE_OK;
}

TPOSE_API size_t tpose_plan_bytes(size_t rows, size_t cols)
{
    size_t elems, bytes;
    tposei_perm p;
    if (!tposei_mul(rows, cols, &elems)) return 0;
    if (elems == 0) return TPOSEI_PLAN_HEADER;
    tposei_perm_make(&p, rows, 1, cols);
    if (!tposei_ip_mul_add((size_t)tposei_plan_walk(&p, NULL), 16, TPOSEI_PLAN_HEADER, &bytes))
        return 0;
    return bytes;
}

TPOSE_API tpose_status tpose_plan_init(void *plan, size_t plan_bytes, size_t rows, size_t cols)
{
    size_t elems;
    unsigned char *out = (unsigned char *)plan;
    tposei_perm p;
    if (plan == NULL) return TPOSE_ERR_NULL;
    if (!tposei_mul(rows, cols, &elems)) return TPOSE_ERR_OVERFLOW;
    if (plan_bytes < tpose_plan_bytes(rows, cols)) return TPOSE_ERR_WORKSPACE;
    tposei_plan_put(out, 0, TPOSEI_PLAN_MAGIC);
    tposei_plan_put(out, 1, rows);
    tposei_plan_put(out, 2, cols);
    tposei_plan_put(out, 3, 0);
    if (elems == 0) return TPOSE_OK;
    tposei_perm_make(&p, rows, 1, cols);
    tposei_plan_put(out, 3, tposei_plan_walk(&p, out));
    return TPOSE_OK;
}

TPOSE_API tpose_status tpose_plan_apply(const void *plan, void *a, size_t esize)
{
    const unsigned char *in = (const unsigned char *)plan;
    size_t rows, cols, elems, bytes;
    if (plan == NULL) return TPOSE_ERR_NULL;
    if (tposei_plan_get(in, 0) != TPOSEI_PLAN_MAGIC) return TPOSE_ERR_ARG;
    if (esize == 0) return TPOSE_ERR_ESIZE;
    rows = (size_t)tposei_plan_get(in, 1);
    cols = (size_t)tposei_plan_get(in, 2);
    if (rows == 0 || cols == 0) return TPOSE_OK;
    if (a == NULL) return TPOSE_ERR_NULL;
    if (!tposei_mul(rows, cols, &elems) || !tposei_mul(elems, esize, &bytes) ||
        !tposei_ip_fits(a, bytes))
        return TPOSE_ERR_OVERFLOW;
    tposei_plan_run_sized(in, (unsigned char *)a, esize);
    return TPOSE_OK;
}

#endif /* TPOSE_IMPLEMENTATION */
