/* transpose_tensor.h - N-d tensor permutation (numpy's transpose made contiguous) on the
   matrix kernels of transpose.h, header-only C99.

   Do this:
       #define TPOSE_IMPLEMENTATION
       #include "transpose_tensor.h"
   in exactly ONE C or C++ file of your program (it includes transpose.h and emits both
   implementations there); every other file just includes "transpose_tensor.h". A program
   whose transpose.c already holds transpose.h's implementation adds a file with
       #define TPOSE_TENSOR_IMPLEMENTATION
       #include "transpose_tensor.h"
   instead, which emits only this header's. `#define TPOSE_STATIC` before the include makes
   every function static in that translation unit, as for transpose.h.

   CONFIGURATION: the macros of transpose.h (TPOSE_STATIC, TPOSE_API, TPOSE_NO_SIMD,
   TPOSE_NO_STDLIB), and TPOSE_TENSOR_IMPLEMENTATION (this header's implementation alone).

   API (sizes size_t; row-major, last axis fastest; esize = bytes per element, any >= 1)

   tpose_permute(dst, dst_outer, src, src_outer, rank, dims, perm, esize)
       dst = np.ascontiguousarray(np.transpose(src, perm)): destination axis k is source
       axis perm[k], of extent dims[perm[k]]. src_outer / dst_outer give each axis's
       allocated extent (>= its extent; a sub-tensor of a larger one), NULL for dense.
   tpose_permute_plan_bytes(rank), tpose_permute_plan_init(plan, plan_bytes, dst_outer,
   src_outer, rank, dims, perm, esize), tpose_permute_plan_apply(plan, dst, src)
       The same in two steps: every decision made once into caller memory (no allocation,
       no timing, no access to tensor data), then applied to any number of tensor pairs,
       from any number of threads at once.
   tpose_permute_plan_cost(plan), tpose_permute_plan_describe(plan, buf, buf_bytes)
       The cost model's predicted time of one apply over memcpy's of the same bytes, and a
       one-line account of the plan (snprintf's contract).

   HOW (docs/tensors.md has the measurements)
       Axes of extent 1 go; neighbours that stay adjacent, in order and dense in both
       layouts merge (index fusion); a fastest axis shared by both layouts becomes part of
       the element (runs of contiguous bytes). What is left is one of the cases below, the
       taxonomy of TTLG (Vedurada et al., IPDPS 2018) by what happens to the fastest axis:
         copy    nothing left to permute: one copy of every byte
         runs    the fastest axis kept, but its neighbours padded: contiguous runs copied
         matrix  two axes left, swapped: tpose_matrix itself
         tiles   the fastest axes swapped: the 2-D transposition of the two fastest axes
                 through the matrix kernels (small slices straight through the AVX2
                 tiles), once per index of the other axes, the axis with the smallest
                 stride on either side innermost; the kernel streams when the whole
                 destination outgrows the caches, not one slice.
       Elements wider than 16 bytes (a kept fastest axis) are copied in L1-sized blocks
       instead, each block's destination row streamed as one run.

   SECTIONS (grep for the marker)   >>config >>plan >>fusion >>cost >>apply >>api

   License: MIT, at the end of transpose.h.
*/
#include "transpose.h"

#ifndef TPOSE_TENSOR_H
#define TPOSE_TENSOR_H

/* ======================================================================================== */
// >>config
/* ======================================================================================== */

#include <stddef.h>

#define TPOSE_MAX_RANK 16

#ifdef __cplusplus
extern "C" {
#endif

/* dst = the source tensor with its axes permuted: destination axis k is source axis perm[k]
   (numpy's transpose, made contiguous). dims[k] is the extent of source axis k; src_outer[k]
   (dst_outer[k]) the allocated extent of source (destination) axis k, >= its extent, NULL
   for a dense tensor. Rank 0 copies one element; an extent of 0 is a no-op.
   Returns: TPOSE_OK; TPOSE_ERR_ESIZE (esize 0), _ARG (rank > TPOSE_MAX_RANK, perm not a
     permutation), _NULL, _LD (an outer extent below its extent), _OVERFLOW, _OVERLAP.
     Nothing is written on error. Thread safety: reentrant. */
TPOSE_API tpose_status tpose_permute(void *dst, const size_t *dst_outer, const void *src,
                                     const size_t *src_outer, size_t rank, const size_t *dims,
                                     const size_t *perm, size_t esize);

/* Bytes of caller memory a plan of `rank` axes needs (any alignment); 0 above
   TPOSE_MAX_RANK. */
TPOSE_API size_t tpose_permute_plan_bytes(size_t rank);

/* Checks everything tpose_permute would except the two tensor pointers and records the
   fused axes, the case, the kernel and the loop order into `plan`. Returns as
   tpose_permute, and TPOSE_ERR_NULL (plan NULL) or _WORKSPACE (plan_bytes too small);
   nothing is written to the plan on error. */
TPOSE_API tpose_status tpose_permute_plan_init(void *plan, size_t plan_bytes,
                                               const size_t *dst_outer, const size_t *src_outer,
                                               size_t rank, const size_t *dims,
                                               const size_t *perm, size_t esize);

/* Runs a plan on one tensor pair. Returns TPOSE_OK; TPOSE_ERR_ARG (not a plan), _NULL,
   _OVERFLOW (a span past the end of the address space), _OVERLAP. The plan is only read. */
TPOSE_API tpose_status tpose_permute_plan_apply(const void *plan, void *dst, const void *src);

/* Share `task` of `ntasks` of an apply, for threads the caller runs: checks as the apply,
   then writes only that share. Shares are disjoint, together the whole result and balanced
   in bytes; they may run at once, in any order, on any threads. Returns as the apply, plus
   TPOSE_ERR_ARG when ntasks is 0 or task >= ntasks. */
TPOSE_API tpose_status tpose_permute_plan_apply_task(const void *plan, void *dst, const void *src,
                                                     size_t task, size_t ntasks);

/* The predicted time of one apply over that of memcpy of the same bytes (finite, > 0; 1.0 for
   something that is not a plan). */
TPOSE_API double tpose_permute_plan_cost(const void *plan);

/* Writes a one-line account of the plan into buf (at most buf_bytes with its terminating
   zero; buf may be NULL when buf_bytes is 0) and returns the length it needed. */
TPOSE_API int tpose_permute_plan_describe(const void *plan, char *buf, size_t buf_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TPOSE_TENSOR_H */

#if (defined(TPOSE_IMPLEMENTATION) || defined(TPOSE_STATIC) ||                              \
     defined(TPOSE_TENSOR_IMPLEMENTATION)) &&                                                \
    !defined(TPOSEI_TENSOR_DONE)
#define TPOSEI_TENSOR_DONE

/* ======================================================================================== */
// >>plan
/* ======================================================================================== */

#define TPOSEI_TP_MAGIC 0x54707231u /* "Tpr1" */

enum { TPOSEI_TP_EMPTY, TPOSEI_TP_COPY, TPOSEI_TP_RUNS, TPOSEI_TP_MATRIX, TPOSEI_TP_TILES };

/* An axis after fusion: extent and byte strides in the source and in the destination. */
typedef struct tposei_tp_axis {
    size_t n, ss, ds;
} tposei_tp_axis;

/* Everything an apply needs, plain data (a plan may be copied with memcpy). `loop` holds
   the axes the apply iterates over, outermost first: for `tiles` the axes beside the two of
   each slice, for `runs` every axis. */
typedef struct tposei_tp_plan {
    uint32_t magic;
    uint32_t kind;
    tpose_kernel kernel;    /* matrix, tiles: the matrix kernel */
    int stream;             /* wide elements: destination lines non-temporal */
    int direct;             /* tiles: small slices through the kit's tiles, no matrix call
                               (TPOSEI_TP_DIRECT_*) */
    size_t block;           /* wide elements: blocks of block x block; direct: the tile edge */
    int half;               /* direct: through the kit's tiles of half its edge (tile_half) */
    size_t elem;            /* bytes moved as one element (esize times the kept runs) */
    size_t rows, cols;      /* tiles, matrix: one slice, source rows x source cols */
    size_t bands;           /* tiles: the slices cut into this many bands of `rows` rows
                               (their index one of the loops); 0 where not cut */
    size_t src_stride;      /* ... its source rows, bytes apart */
    size_t dst_stride;      /* ... its destination rows */
    size_t loops;           /* axes in loop[] */
    size_t src_span, dst_span; /* bytes from the first to one past the last byte */
    size_t bytes;           /* bytes moved */
    size_t fused;           /* the fused destination extents, for describe */
    size_t fused_n[TPOSE_MAX_RANK];
    double cost;            /* the model's time over memcpy's */
    tposei_tp_axis loop[TPOSE_MAX_RANK];
} tposei_tp_plan;

/* The checked arguments: axes in destination order with byte strides. */
typedef struct tposei_tp_shape {
    size_t rank, esize, bytes, src_span, dst_span;
    int empty;
    tposei_tp_axis ax[TPOSE_MAX_RANK];
} tposei_tp_shape;

/* The byte strides of a row-major tensor with allocated extents `outer` (dims if NULL);
   `span` = bytes from its first to one past its last element. 0 on overflow. */
static int tposei_tp_strides(size_t *stride, size_t *span, const size_t *outer, const size_t *dims,
                             size_t rank, size_t esize)
{
    size_t k = rank, step = esize, last = 0;
    while (k-- > 0) {
        size_t reach;
        stride[k] = step;
        if (!tposei_mul(dims[k] - 1, step, &reach) || last > (size_t)-1 - reach) return 0;
        last += reach;
        if (k > 0 && !tposei_mul(step, outer ? outer[k] : dims[k], &step)) return 0;
    }
    if (last > (size_t)-1 - esize) return 0;
    *span = last + esize;
    return 1;
}

/* Every check of tpose_permute but the pointers, in a fixed order; fills `sh`. */
static tpose_status tposei_tp_check(tposei_tp_shape *sh, const size_t *dst_outer,
                                    const size_t *src_outer, size_t rank, const size_t *dims,
                                    const size_t *perm, size_t esize)
{
    size_t ss[TPOSE_MAX_RANK], ds[TPOSE_MAX_RANK], dd[TPOSE_MAX_RANK], k, seen = 0, bytes = esize;
    if (esize == 0) return TPOSE_ERR_ESIZE;
    if (rank > TPOSE_MAX_RANK) return TPOSE_ERR_ARG;
    if (rank > 0 && (dims == NULL || perm == NULL)) return TPOSE_ERR_NULL;
    for (k = 0; k < rank; k++) {
        if (perm[k] >= rank || (seen >> perm[k] & 1)) return TPOSE_ERR_ARG;
        seen |= (size_t)1 << perm[k];
    }
    sh->rank = rank;
    sh->esize = esize;
    sh->empty = 0;
    for (k = 0; k < rank; k++)
        if (dims[k] == 0) sh->empty = 1;
    if (sh->empty) return TPOSE_OK;
    for (k = 0; k < rank; k++) {
        dd[k] = dims[perm[k]];
        if ((src_outer && src_outer[k] < dims[k]) || (dst_outer && dst_outer[k] < dd[k]))
            return TPOSE_ERR_LD;
        if (!tposei_mul(bytes, dims[k], &bytes)) return TPOSE_ERR_OVERFLOW;
    }
    if (!tposei_tp_strides(ss, &sh->src_span, src_outer, dims, rank, esize) ||
        !tposei_tp_strides(ds, &sh->dst_span, dst_outer, dd, rank, esize))
        return TPOSE_ERR_OVERFLOW;
    sh->bytes = bytes;
    for (k = 0; k < rank; k++) {
        sh->ax[k].n = dd[k];
        sh->ax[k].ss = ss[perm[k]];
        sh->ax[k].ds = ds[k];
    }
    return TPOSE_OK;
}

/* The pointers of one call: not NULL, spans inside the address space, not intersecting. */
static tpose_status tposei_tp_check_ptrs(const void *dst, const void *src, size_t dst_span,
                                         size_t src_span)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (dst == NULL || src == NULL) return TPOSE_ERR_NULL;
    if (s > UINTPTR_MAX - src_span || d > UINTPTR_MAX - dst_span) return TPOSE_ERR_OVERFLOW;
    if (s < d + dst_span && d < s + src_span) return TPOSE_ERR_OVERLAP;
    return TPOSE_OK;
}

/* ======================================================================================== */
// >>fusion
/* ======================================================================================== */

/* Index fusion, in destination order: extents of 1 dropped; a destination axis merged into
   the one before it where both layouts step from one to the other densely; the fastest
   axis folded into the element where it is the fastest of both. Returns the axes left. */
static size_t tposei_tp_fuse(tposei_tp_axis *ax, size_t rank, size_t *elem)
{
    size_t k, r = 0;
    for (k = 0; k < rank; k++) {
        if (ax[k].n == 1) continue;
        if (r > 0 && ax[r - 1].ss == ax[k].ss * ax[k].n && ax[r - 1].ds == ax[k].ds * ax[k].n) {
            ax[r - 1].n *= ax[k].n;
            ax[r - 1].ss = ax[k].ss;
            ax[r - 1].ds = ax[k].ds;
            continue;
        }
        ax[r++] = ax[k];
    }
    if (r > 0 && ax[r - 1].ss == *elem && ax[r - 1].ds == *elem) *elem *= ax[--r].n;
    return r;
}

/* Elements of this many bytes or more, wider than any SIMD kernel's, are moved one by one
   rather than through the matrix kernels (which would take them to the portable walk):
   they are copies of runs, and streaming them needs no tile. */
#define TPOSEI_TP_RUN_MIN 17

/* The block edge for wide elements (TPOSEI_TP_RUN_MIN bytes or more): the most whose block
   fits in 16 KiB (half of the smallest L1 data cache of the x86 hosts), so a block's source
   lines stay in L1 while its destination rows are written. */
static size_t tposei_tp_block(size_t elem)
{
    size_t t = 1;
    while ((t + 1) * (t + 1) * elem <= 16384) t++;
    return t;
}

/* Streamed slices go through the line tiles only with destination rows up to this: 448-byte
   rows (112x32 floats) ran at 0.38-0.50 against 0.48-0.69 through the matrix kernel,
   rows of 64-256 bytes x1.1-2.1 faster (bench/MEASURED.md, "Line tiles for tensor slices"). */
#define TPOSEI_TP_LINES_ROW_MAX 256

/* 1 where a slice's source rows are adjacent: the slice is one block of the source, read as
   one stream. */
static int tposei_tp_adjacent(const tposei_tp_plan *p)
{
    return p->src_stride == p->cols * p->elem;
}

/* Slices (or bands) through the plain tiles of this many bytes or more ask for the next
   one's lines tile by tile as they move (tposei_tp_tiles), smaller ones all at once before
   they start (tposei_tp_ahead). All at once, a 16 KiB slice asks for some 800 lines, more
   than the core keeps in flight, and waits; tile by tile ran 4.5-33 KiB slices x1.2-2.0
   faster, and 0.75-3.5 KiB ones x0.7-0.95 slower, where the next slice then comes too soon
   after its lines are asked for. Slices through the line tiles ask for the next one's
   source lines tile by tile whatever their size (2-byte 2-3 KiB ones x1.3-1.7, 4-byte ones
   x1.0-1.1; MEASURED.md, "Asking for the next slice tile by tile"). */
#define TPOSEI_TP_SPREAD_FROM 4096

/* 1 for the kernels that store whole destination lines non-temporally. */
static int tposei_tp_streams(tpose_kernel k)
{
    return k == TPOSE_KERNEL_AVX2_STREAM || k == TPOSE_KERNEL_AVX512_STREAM;
}

/* 1 where a small slice goes through the plain tiles (tposei_tp_direct): its destination is
   not streamed, or its rows are not whole lines. */
static int tposei_tp_plain(const tposei_tp_plan *p)
{
    return !tposei_tp_streams(p->kernel) || p->rows * p->elem % TPOSEI_CACHE_LINE != 0;
}

/* Slices smaller than these go through the kit's tiles directly (tposei_tp_tiles). With the
   next slice's lines asked for tile by tile, the tiles beat the matrix kernel up to them:
   the plain tiles ran 1-byte 352x48, 48x352, 96x608, 608x96 and 48x784 slices (17-58 KiB, a
   dense destination or not) x1.4-2.7 faster, 2-byte 48x352 ones x1.5; the line tiles five
   of seven 2-byte 96x96 and 96x608 ones (18 and 114 KiB) x1.4-2.0, the other two x0.83-0.91,
   and 4-byte 48x352 ones (66 KiB) x1.3 (bench/MEASURED.md, "Asking for the next slice tile
   by tile"). */
#define TPOSEI_TP_DIRECT_BELOW 65536        /* through the plain tiles */
#define TPOSEI_TP_DIRECT_LINES_BELOW 131072 /* through the line tiles */

/* The size under which a slice goes through the kit's tiles directly. */
static size_t tposei_tp_direct_below(const tposei_tp_plan *p)
{
    return tposei_tp_plain(p) ? TPOSEI_TP_DIRECT_BELOW : TPOSEI_TP_DIRECT_LINES_BELOW;
}

/* How small slices go without a matrix call: not (through the matrix kernel), through the
   kit's 32-byte tiles with plain stores, or through its line tiles streaming whole lines. */
enum { TPOSEI_TP_DIRECT_NONE, TPOSEI_TP_DIRECT_TILES, TPOSEI_TP_DIRECT_LINES };

/* 1 for slices of a tensor (not a matrix) with at most TPOSEI_TP_FEW_ROWS rows whose
   destination rows are apart: they go through the tiles directly whatever their size. The
   matrix kernel joins such short rows into whole lines only for a dense destination (its
   narrow path); here its rows would be partial lines megabytes apart, which the tiles'
   bands and loop order do better. Dense ones over the size limits (NCHW -> NHWC with 48
   channels and 56x56 pixels) lost x0.4-0.9 through the tiles and stay (bench/MEASURED.md,
   "Few-row tensor slices"). */
#define TPOSEI_TP_FEW_ROWS 63
static int tposei_tp_few_rows(const tposei_tp_plan *p)
{
    return p->kind == TPOSEI_TP_TILES && p->rows <= TPOSEI_TP_FEW_ROWS &&
           p->dst_stride != p->rows * p->elem;
}

/* How a slice goes (TPOSEI_TP_DIRECT_*): small ones whose sides hold a tile directly, through
   the plain tiles where the destination is not streamed or its rows are not whole lines (a
   streaming kernel then buffers them: 4-byte 48x48 slices, 192-byte rows, stream at 1.00 of
   memcpy against 0.47 through the plain tiles; 1-byte 48x48 ones, 48-byte rows, 0.19 against
   0.34), through the line tiles where the rows are whole line tiles a whole number of lines
   apart (each slice then checks that it starts on one), fenced once a walk rather than once
   a slice. */
static int tposei_tp_direct(const tposei_tp_plan *p, const tposei_kit *kit)
{
    if (p->elem >= TPOSEI_TP_RUN_MIN ||
        (p->rows * p->cols * p->elem >= tposei_tp_direct_below(p) && !tposei_tp_few_rows(p)))
        return TPOSEI_TP_DIRECT_NONE;
    if (!tposei_tp_plain(p))
        return kit->line_nt && p->rows % kit->line_edge == 0 && p->cols >= kit->line_edge &&
                       p->dst_stride % TPOSEI_CACHE_LINE == 0 &&
                       p->rows * p->elem <= TPOSEI_TP_LINES_ROW_MAX
                   ? TPOSEI_TP_DIRECT_LINES
                   : TPOSEI_TP_DIRECT_NONE;
    return kit->tile && p->rows >= kit->tile_edge && p->cols >= kit->tile_edge
               ? TPOSEI_TP_DIRECT_TILES
               : TPOSEI_TP_DIRECT_NONE;
}

/* 1 where a slice through the kit's tiles would cover more than 1.5 times its bytes (the
   last row and column of tiles overlapping the one before) and the kit has tiles of half
   the edge holding 8 rows or more: those then take it. 1-byte 48x48 slices ran x1.2-1.7
   faster through 16x16 tiles than through 32x32 ones, 2-byte 24x24 x1.4 through 8x8; 4x4
   floats and 2x2 doubles lost (x0.8-0.9): a call per 64 bytes, bands of 4 rows
   (bench/MEASURED.md, "Half tiles"). */
static int tposei_tp_half(const tposei_tp_plan *p, const tposei_kit *kit)
{
    const size_t t = kit->tile_edge;
    if (p->direct != TPOSEI_TP_DIRECT_TILES || !kit->tile_half || t < 16) return 0;
    return 2 * ((p->rows + t - 1) / t) * ((p->cols + t - 1) / t) * t * t >
           3 * p->rows * p->cols;
}

/* The edge of the plain tiles a direct slice goes through: the kit's, or half of it. */
static size_t tposei_tp_tile_edge(const tposei_tp_plan *p, const tposei_kit *kit)
{
    return p->half ? kit->tile_edge / 2 : kit->tile_edge;
}

/* The axis whose stride on one side (`dst`: the destination's) is the element, or rank. */
static size_t tposei_tp_unit(const tposei_tp_axis *ax, size_t rank, size_t elem, int dst)
{
    size_t k;
    for (k = 0; k < rank; k++)
        if ((dst ? ax[k].ds : ax[k].ss) == elem) return k;
    return rank;
}

/* The loop order: innermost the axes that step least on one side (the smaller of their two
   strides), so consecutive slices continue the rows, pages and lines of the one before on at
   least that side; the sum of the strides put the far-apart axes innermost instead and made
   full reversals 2x slower (bench/MEASURED.md). Insertion sort: rank <= 16.
   With `src_run` (not 0), ties go to the axis that steps less in the source, and the axis
   that continues the source's rows (stepping src_run bytes there) goes innermost: where the
   slices store whole destination lines non-temporally, scattered destination lines cost
   nothing while reads from scattered pages wait on memory (4-byte 32x32 slices 0.55 of
   memcpy with the destination's rows continued, 0.75-0.80 with the source's; 96x608 ones
   0.52 -> 0.78). Where the lines are partial, the other way round is faster (2-byte 48x48
   slices x0.7 with the source's). */
static size_t tposei_tp_key(const tposei_tp_axis *a) { return a->ss < a->ds ? a->ss : a->ds; }
static int tposei_tp_outer(const tposei_tp_axis *a, const tposei_tp_axis *b, size_t src_run)
{
    const size_t ka = tposei_tp_key(a), kb = tposei_tp_key(b);
    return ka > kb || (ka == kb && src_run && a->ss > b->ss);
}
static void tposei_tp_order(tposei_tp_axis *ax, size_t n, size_t src_run)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        const tposei_tp_axis a = ax[i];
        for (j = i; j > 0 && tposei_tp_outer(&a, &ax[j - 1], src_run); j--) ax[j] = ax[j - 1];
        ax[j] = a;
    }
    for (i = 0; i < n && ax[i].ss != src_run; i++) {}
    for (; i + 1 < n; i++) { /* that axis to the end, the others in order */
        const tposei_tp_axis a = ax[i];
        ax[i] = ax[i + 1];
        ax[i + 1] = a;
    }
}

/* ======================================================================================== */
// >>cost
/* ======================================================================================== */

/* The model, in units of memcpy's time for the same bytes, fitted on the TTC cases at 1, 2
   and 4-byte elements (bench/MEASURED.md, "The tensor cost model"). A slice through the
   matrix kernel costs
     kernel(elem) + call / slice bytes + waste * (lines / needed - 1)
   : the kernel's time per byte on large slices, a matrix call's fixed cost, and the cache
   lines its short rows touch beyond those its bytes fill, on both sides (a row of b bytes
   touches b / 64 lines rounded up, and half a line more on average where b is not whole
   lines). A slice through the plain tiles directly has no call to pay for but plain
   stores and 32-byte tiles: `direct` per byte whatever its size (0.75-57 KiB fitted);
   neither its streams nor its part lines showed in the times once the next slice's lines
   were asked for. Through the line tiles, `lines` per byte whatever the slice's size
   (2-114 KiB fitted): asking for the next slice's source lines as they go hides the lines
   their short rows waste. Wide elements are copies, dearer where they are not whole lines:
   by half a line per element, the source side's part line on average (the destination's
   rows are gathered whole). */
#define TPOSEI_TP_CALL 4000.0 /* bytes of memcpy: one matrix call's fixed cost */
#define TPOSEI_TP_WASTE 2.5   /* weight of the lines touched beyond those needed */
#define TPOSEI_TP_DIRECT 1.4  /* per byte, a slice through the plain tiles directly */
#define TPOSEI_TP_LINES 0.9   /* ... through the line tiles */

/* Lines a row of `bytes` touches, in halves of a line (an unaligned row half a line more). */
static size_t tposei_tp_halves(size_t bytes)
{
    return (bytes + 63) / 64 * 2 + (bytes % 64 != 0);
}

/* The matrix kernels' time per byte over memcpy's on large slices, by element size. */
static double tposei_tp_kernel_cost(size_t elem)
{
    switch (elem) {
    case 1:
    case 2: return 1.2;
    case 4:
    case 8:
    case 16: return 1.0;
    default: return 1.6; /* the portable kernels */
    }
}

static double tposei_tp_cost(const tposei_tp_plan *p)
{
    const size_t e = p->elem;
    double slice, waste;
    if (p->kind == TPOSEI_TP_COPY || p->kind == TPOSEI_TP_EMPTY) return 1.0;
    if (e >= TPOSEI_TP_RUN_MIN) return (p->stream ? 0.9 : 1.2) + (e % 64 ? 32.0 / (double)e : 0.0);
    if (p->kind == TPOSEI_TP_RUNS) return 1.0 + 24.0 / (double)e; /* short runs */
    if (p->direct == TPOSEI_TP_DIRECT_TILES) return TPOSEI_TP_DIRECT;
    if (p->direct == TPOSEI_TP_DIRECT_LINES) return TPOSEI_TP_LINES;
    slice = (double)p->rows * (double)p->cols * (double)e;
    waste = ((double)p->rows * (double)tposei_tp_halves(p->cols * e) +
             (double)p->cols * (double)tposei_tp_halves(p->rows * e)) * 64.0 / 4.0 / slice -
            1.0;
    return tposei_tp_kernel_cost(e) + TPOSEI_TP_CALL / slice + TPOSEI_TP_WASTE * waste;
}

/* ======================================================================================== */
// >>apply
/* ======================================================================================== */

/* n bytes, libc's memcpy where allowed. */
static void tposei_tp_copy(unsigned char *dst, const unsigned char *src, size_t n)
{
#if !defined(TPOSE_NO_STDLIB)
    memcpy(dst, src, n);
#else
    tposei_move(dst, src, n);
#endif
}

typedef void (*tposei_tp_stream_fn)(unsigned char *dst, const unsigned char *src, size_t bytes);

/* n runs along the innermost axis: `elem` bytes each, strides ss and ds; through `stream`
   (whole destination lines non-temporal) where the plan streams, as fixed-size moves where
   they are short. */
static void tposei_tp_runs(unsigned char *dst, const unsigned char *src, const tposei_tp_axis *a,
                           size_t n, size_t elem, tposei_tp_stream_fn stream)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (stream)
            stream(dst + i * a->ds, src + i * a->ss, elem);
        else if (elem <= 16)
            tposei_move(dst + i * a->ds, src + i * a->ss, elem);
        else
            tposei_tp_copy(dst + i * a->ds, src + i * a->ss, elem);
    }
}

/* The bytes of a block's destination row that tposei_tp_moves gathers before streaming it:
   a block of t x t elements fits 16 KiB, so t * elem <= 8 KiB whenever t >= 2. */
#define TPOSEI_TP_ROW_BUF 8192

/* One slice of wide elements: blocks of `block` x `block` elements, each block's
   destination rows in turn, so both sides move runs of about a KiB (not one element's bytes
   at a far stride on either). Streamed, a row of elements that are not whole lines is
   gathered first and stored as one run: element by element, every seam between two of them
   would be a partial line stored plainly, read from memory before it is written. */
static void tposei_tp_moves(const tposei_job *j, size_t t, tposei_tp_stream_fn stream)
{
    unsigned char buf[TPOSEI_TP_ROW_BUF];
    const size_t e = j->esize, ss = j->src_stride, ds = j->dst_stride;
    const int gather = stream && t > 1 && e % TPOSEI_CACHE_LINE != 0;
    size_t r0, c0, r, c;
    for (r0 = 0; r0 < j->rows; r0 += t) {
        const size_t r1 = tposei_min(r0 + t, j->rows);
        for (c0 = 0; c0 < j->cols; c0 += t) {
            const size_t c1 = tposei_min(c0 + t, j->cols);
            for (c = c0; c < c1; c++) {
                unsigned char *d = j->dst + c * ds + r0 * e;
                const unsigned char *s0 = j->src + r0 * ss + c * e;
                if (gather) {
                    for (r = 0; r < r1 - r0; r++) tposei_tp_copy(buf + r * e, s0 + r * ss, e);
                    stream(d, buf, (r1 - r0) * e);
                } else if (stream) {
                    for (r = 0; r < r1 - r0; r++) stream(d + r * e, s0 + r * ss, e);
                } else {
                    for (r = 0; r < r1 - r0; r++) tposei_tp_copy(d + r * e, s0 + r * ss, e);
                }
            }
        }
    }
}

/* Where the next slice lies from this one, for the tiles to ask for its lines as they go:
   the source's, and the destination's where `dst_too` (not for the line tiles, whose
   non-temporal stores read no line first). */
typedef struct tposei_tp_step {
    ptrdiff_t src, dst;
    int dst_too;
} tposei_tp_step;

/* Asks for the lines of one tile into L2: t rows of the source, and of the destination where
   `dst_too`, each row's first and last byte (a row of a tile is a line or less, and may
   straddle two). */
TPOSEI_FORCE_INLINE void tposei_tp_fetch_tile(const unsigned char *dst, size_t ds,
                                              const unsigned char *src, size_t ss, size_t t,
                                              size_t e, int dst_too)
{
    size_t i;
    for (i = 0; i < t; i++) {
        TPOSEI_PREFETCH_L2(src + i * ss);
        TPOSEI_PREFETCH_L2(src + i * ss + t * e - 1);
        if (!dst_too) continue;
        TPOSEI_PREFETCH_L2(dst + i * ds);
        TPOSEI_PREFETCH_L2(dst + i * ds + t * e - 1);
    }
}

/* A small slice through the kit's tiles directly: whole tiles, the last row and column of
   them overlapping the one before (writing the same bytes again), one call per tile and
   none of a matrix call's setup, which costs more than a slice of a KiB (MEASURED.md).
   With `next`, each tile first asks for the same tile of the next slice. */
static void tposei_tp_tiles(const tposei_job *j, tposei_tile_fn tile, size_t t,
                            const tposei_tp_step *next)
{
    const size_t e = j->esize, ss = j->src_stride, ds = j->dst_stride;
    size_t r = 0, c;
    for (;;) {
        for (c = 0;;) {
            unsigned char *d = j->dst + c * ds + r * e;
            const unsigned char *s = j->src + r * ss + c * e;
            if (next)
                tposei_tp_fetch_tile(d + next->dst, ds, s + next->src, ss, t, e, next->dst_too);
            tile(d, ds, s, ss);
            if (c + t >= j->cols) break;
            c = c + 2 * t <= j->cols ? c + t : j->cols - t;
        }
        if (r + t >= j->rows) return;
        r = r + 2 * t <= j->rows ? r + t : j->rows - t;
    }
}

/* What a walk calls at each index of its loops. */
typedef struct tposei_tp_leaf {
    const tposei_tp_plan *p;
    tposei_run_fn run; /* slices through the matrix kernels (narrow elements) */
    tposei_tp_stream_fn stream;
    tposei_tile_fn tile; /* direct: the kit's tile, tile_edge on a side */
    size_t tile_edge;
    int lines; /* the tile is a line tile: destination rows must start on lines */
} tposei_tp_leaf;

/* The job of the plan's slice at dst and src (filled field by field: a struct copy may be
   a call to memcpy). */
static void tposei_tp_slice(tposei_job *job, const tposei_tp_plan *p, unsigned char *dst,
                            const unsigned char *src)
{
    job->dst = dst;
    job->src = src;
    job->dst_stride = p->dst_stride;
    job->src_stride = p->src_stride;
    job->rows = p->rows;
    job->cols = p->cols;
    job->esize = p->elem;
}

/* Pieces [lo, hi) of `den` of the slice (or runs) at dst and src; 0 to 1 of 1 is all of it.
   A slice is cut as tpose_matrix_task cuts a matrix; a piece too small for the direct tiles
   goes through the matrix kernel. `next` (or NULL) goes to the direct tiles. */
static void tposei_tp_leaf_at(const tposei_tp_leaf *l, unsigned char *dst, const unsigned char *src,
                              size_t lo, size_t hi, size_t den, const tposei_tp_step *next)
{
    const tposei_tp_plan *p = l->p;
    tposei_job job, sub;
    const tposei_job *j = &job;
    if (p->kind == TPOSEI_TP_RUNS) {
        const tposei_tp_axis *a = &p->loop[p->loops - 1];
        size_t i0, i1;
        tposei_cuts(a->n, 1, 0, lo, hi, den, &i0, &i1);
        tposei_tp_runs(dst + i0 * a->ds, src + i0 * a->ss, a, i1 - i0, p->elem, l->stream);
        return;
    }
    tposei_tp_slice(&job, p, dst, src);
    if (den > 1) {
        if (!tposei_job_piece(&sub, &job, lo, hi, den)) return;
        j = &sub;
    }
    if (l->tile && j->rows >= l->tile_edge && j->cols >= l->tile_edge &&
        (!l->lines || ((uintptr_t)j->dst % TPOSEI_CACHE_LINE == 0 && j->rows % l->tile_edge == 0)))
        tposei_tp_tiles(j, l->tile, l->tile_edge, next);
    else if (l->run)
        l->run(p->kernel, j);
    else
        tposei_tp_moves(j, p->block, l->stream);
}

/* Slices (indices of the plan's loops) the leaf runs: for runs all axes but the innermost,
   else all. */
static size_t tposei_tp_depth(const tposei_tp_plan *p)
{
    return p->loops - (p->kind == TPOSEI_TP_RUNS);
}

/* The tile a walk gives a plan's direct slices: the kit's line tile, tile or half tile, the
   one the plan was made with, where the kit (which tpose_kernel_limit may have changed since)
   still has it at the plan's edge; else NULL, and the slices take the matrix kernel. */
static tposei_tile_fn tposei_tp_tile_of(const tposei_tp_plan *p, const tposei_kit *kit)
{
    if (p->direct == TPOSEI_TP_DIRECT_LINES)
        return kit->line_edge == p->block ? kit->line_nt : NULL;
    if (p->direct != TPOSEI_TP_DIRECT_TILES) return NULL;
    if (p->half) return kit->tile_edge == 2 * p->block ? kit->tile_half : NULL;
    return kit->tile_edge == p->block ? kit->tile : NULL;
}

/* Steps dst and src to the plan's next slice, in odometer order (the last axis fastest);
   left[k] counts the steps left along loop k. */
static void tposei_tp_next(const tposei_tp_plan *p, size_t *left, unsigned char **dst,
                           const unsigned char **src)
{
    size_t k;
    for (k = tposei_tp_depth(p); k-- > 0;) {
        const tposei_tp_axis *a = &p->loop[k];
        *dst += a->ds;
        *src += a->ss;
        if (--left[k] > 0) return;
        left[k] = a->n;
        *dst -= a->n * a->ds;
        *src -= a->n * a->ss;
    }
}

/* Asks for every line of `rows` rows of `bytes` bytes into L2. Forced inline: GCC takes a
   function of nothing but prefetches for one without effects and drops its calls. */
TPOSEI_FORCE_INLINE void tposei_tp_fetch(const unsigned char *at, size_t stride, size_t rows,
                                         size_t bytes)
{
    size_t r, o;
    for (r = 0; r < rows; r++) {
        const unsigned char *row = at + r * stride;
        for (o = 0; o < bytes; o += TPOSEI_CACHE_LINE) TPOSEI_PREFETCH_L2(row + o);
        TPOSEI_PREFETCH_L2(row + bytes - 1);
    }
}

/* Asks for the lines of the slice the plain tiles move next, both sides, while they move
   this one. Their rows are a line or less, read and written in up to 112 places at once: more
   streams than the hardware prefetcher follows, so without this every line's miss waits in
   turn (MEASURED.md, "Prefetching the next slice"). */
TPOSEI_FORCE_INLINE void tposei_tp_ahead(const tposei_tp_plan *p, const unsigned char *dst,
                                         const unsigned char *src)
{
    tposei_tp_fetch(src, p->src_stride, p->rows, p->cols * p->elem);
    tposei_tp_fetch(dst, p->dst_stride, p->cols, p->rows * p->elem);
}

/* Pieces [from, to) of the plan, each slice taken as `per` pieces, in odometer order (the
   last axis fastest). */
static void tposei_tp_walk(const tposei_tp_plan *p, unsigned char *dst, const unsigned char *src,
                           size_t from, size_t to, size_t per)
{
    const size_t depth = tposei_tp_depth(p);
    const tposei_kit kit = tposei_kit_get(p->elem);
    size_t left[TPOSE_MAX_RANK], k, slice = from / per, rest = slice;
    tposei_tp_leaf leaf;
    tposei_tp_step step;
    int ahead, spread;
    leaf.p = p;
    leaf.stream = p->stream ? kit.stream_row : NULL;
    leaf.run = p->elem < TPOSEI_TP_RUN_MIN ? kit.run : NULL;
    leaf.tile = tposei_tp_tile_of(p, &kit);
    leaf.lines = p->direct == TPOSEI_TP_DIRECT_LINES && leaf.tile;
    leaf.tile_edge = p->block;
    spread = per == 1 && leaf.tile &&
             (leaf.lines || p->rows * p->cols * p->elem >= TPOSEI_TP_SPREAD_FROM);
    ahead = per == 1 && leaf.tile && !leaf.lines && !spread;
    step.dst_too = !leaf.lines;
    for (k = depth; k-- > 0;) { /* the first slice's index: steps left along each loop */
        const tposei_tp_axis *a = &p->loop[k];
        const size_t i = rest % a->n;
        rest /= a->n;
        left[k] = a->n - i;
        dst += i * a->ds;
        src += i * a->ss;
    }
    for (;; slice++) {
        const size_t at = slice * per;
        unsigned char *const here_dst = dst;
        const unsigned char *const here_src = src;
        const int last = at + per >= to;
        if (!last) tposei_tp_next(p, left, &dst, &src);
        if (!last && ahead) tposei_tp_ahead(p, dst, src);
        step.src = src - here_src;
        step.dst = dst - here_dst;
        tposei_tp_leaf_at(&leaf, here_dst, here_src, from - at, tposei_min(to - at, per), per,
                          !last && spread ? &step : NULL);
        if (last) break;
        from = at + per;
    }
    if (leaf.stream || leaf.lines) kit.fence();
}

/* The pieces [*from, *to) of share `task` of `ntasks` of a plan whose slices are each taken
   as *per pieces. Slices are dealt out whole where there are many, or as many as ntasks
   divides; else each is cut into ntasks / gcd(slices, ntasks) pieces, so every share gets
   the same bytes. */
static void tposei_tp_range(const tposei_tp_plan *p, size_t task, size_t ntasks, size_t *from,
                            size_t *to, size_t *per)
{
    size_t slices = 1, g, k;
    for (k = 0; k < tposei_tp_depth(p); k++) slices *= p->loop[k].n;
    *per = 1;
    if (slices / 32 < ntasks && slices % ntasks != 0 && ntasks <= 65536) {
        for (g = slices, k = ntasks; k != 0;) { /* gcd(slices, ntasks) */
            const size_t r = g % k;
            g = k;
            k = r;
        }
        *per = ntasks / g;
    }
    tposei_cuts(slices * *per, 1, 0, task, task + 1, ntasks, from, to);
}

/* Share `task` of `ntasks` of a plan (a copy is cut on destination lines). */
static void tposei_tp_share(const tposei_tp_plan *p, unsigned char *dst, const unsigned char *src,
                            size_t task, size_t ntasks)
{
    size_t from, to, per;
    if (p->kind == TPOSEI_TP_EMPTY) return;
    if (p->kind == TPOSEI_TP_COPY) {
        const size_t off = (size_t)(0u - (uintptr_t)dst) % TPOSEI_CACHE_LINE;
        tposei_cuts(p->elem, TPOSEI_CACHE_LINE, off, task, task + 1, ntasks, &from, &to);
        tposei_tp_copy(dst + from, src + from, to - from);
        return;
    }
    tposei_tp_range(p, task, ntasks, &from, &to, &per);
    if (from < to) tposei_tp_walk(p, dst, src, from, to, per);
}

/* The whole plan, on a team of threads where that gains. */
static void tposei_tp_run(const tposei_tp_plan *p, void *dst, const void *src)
{
#if TPOSEI_OPENMP
    const size_t n = p->kind == TPOSEI_TP_EMPTY ? 1 : tposei_kit_get(p->elem).team(p->bytes);
    if (n > 1) {
#pragma omp parallel num_threads((int)n)
        tposei_tp_share(p, (unsigned char *)dst, (const unsigned char *)src,
                        (size_t)omp_get_thread_num(), (size_t)omp_get_num_threads());
        return;
    }
#endif
    tposei_tp_share(p, (unsigned char *)dst, (const unsigned char *)src, 0, 1);
}

/* 1 where the destination outgrows the caches: AUTO would stream a matrix of these bytes. */
static int tposei_tp_big(const tposei_tp_plan *p, const tposei_kit *kit)
{
    return tposei_tp_streams(kit->pick(64, 64, 4, p->bytes));
}

/* The most source rows a slice of a big tensor reads at once with the loop that continues
   them innermost: the hardware prefetcher follows 16-32 streams and loses 48 (a gathering
   copy from 48 places runs at 0.41-0.49 of memcpy, from 16 at 0.92-1.5; bench/MEASURED.md,
   "Bands of line tiles"). */
#define TPOSEI_TP_ROWS_AT_ONCE 32

/* The most bytes of destination lines the plain tiles may leave part-written while the
   loop that continues the source rows runs innermost (each slice writes a piece of a line in
   each of its destination rows; the loop outside completes them): past this they leave L2
   first, and the destination's side goes innermost instead (1-byte 96x608 slices in bands
   x2.2, 96x96 x1.45; open sets of 20-180 KiB lost x0.8-0.95 that way; bench/MEASURED.md,
   "Prefetching the next slice"). A quarter of a 1 MiB L2, and no more than the whole L2 of
   any x86-64 core since 2008: the kit does not carry the cache sizes. */
#define TPOSEI_TP_OPEN_MAX (256 * 1024)

/* Those bytes for a plan whose slices' source rows are apart (n loops so far). */
static size_t tposei_tp_open(const tposei_tp_plan *p, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (p->loop[k].ss == p->cols * p->elem)
            return p->cols * p->loop[k].n * tposei_tp_halves(p->rows * p->elem) * 32;
    return 0;
}

/* tposei_tp_order's src_run where the slices stream whole destination lines, or where the
   tensor is big and they go through the plain tiles as one block (adjacent rows: one
   stream) or reading at most TPOSEI_TP_ROWS_AT_ONCE rows at a time without leaving more
   than TPOSEI_TP_OPEN_MAX of lines open: the bytes from one slice's source to where the next
   one continues it, a row's where the rows are apart, the whole slice's where they are not.
   Else 0. */
static size_t tposei_tp_src_run(const tposei_tp_plan *p, const tposei_kit *kit, size_t n)
{
    const size_t row = p->cols * p->elem;
    const int adjacent = tposei_tp_adjacent(p);
    const int lines = !tposei_tp_plain(p);
    const int tiles = p->direct == TPOSEI_TP_DIRECT_TILES && tposei_tp_big(p, kit) &&
                      (adjacent || (p->rows <= TPOSEI_TP_ROWS_AT_ONCE &&
                                    tposei_tp_open(p, n) <= TPOSEI_TP_OPEN_MAX));
    if (!lines && !tiles) return 0;
    return adjacent ? p->rows * row : row;
}

/* Tall slices of 1- and 2-byte elements with at most this many columns, which the matrix
   kernel would take down its narrow path (it reads a chunk's rows, all of them, at once:
   352x48 slices ran at 0.18-0.23 of memcpy), go in bands too. */
#define TPOSEI_TP_NARROW_COLS 63

/* The rows of a band of this plan's slices, or 0 for none: a tile's (the line tile's where
   the slices go through it or a narrow slice's rows hold whole ones, else the plain tile's)
   where a slice of a big tensor, its source rows apart, is taller than that and a multiple
   of it. A plan that fused to a matrix keeps the matrix kernel's own walk. */
static size_t tposei_tp_band(const tposei_tp_plan *p, const tposei_kit *kit)
{
    size_t edge;
    if (p->kind != TPOSEI_TP_TILES || tposei_tp_adjacent(p) || !tposei_tp_big(p, kit))
        return 0;
    if (p->direct == TPOSEI_TP_DIRECT_NONE) {
        if (p->elem > 2 || p->cols > TPOSEI_TP_NARROW_COLS || p->rows <= TPOSEI_TP_ROWS_AT_ONCE)
            return 0;
        edge = kit->line_nt && p->rows % kit->line_edge == 0 ? kit->line_edge
               : kit->tile                                   ? kit->tile_edge
                                                             : 0;
    } else {
        edge = p->direct == TPOSEI_TP_DIRECT_LINES ? kit->line_edge : tposei_tp_tile_edge(p, kit);
    }
    return edge && p->rows > edge && p->rows % edge == 0 ? edge : 0;
}

/* Slices cut into bands (tposei_tp_band), the bands a loop of their own (n loops before,
   returns those after): with the loop that continues the source rows inside it, a band
   reads 16-32 rows at a time where a slice read 48-352 (4-byte 48x48 slices x1.4-1.9,
   2-byte x1.5-1.8, 2-byte 352x48 x1.4-3). A band of a narrow slice is small enough for the
   tiles: its kernel and path are chosen again. */
static size_t tposei_tp_bands(tposei_tp_plan *p, const tposei_kit *kit, size_t n)
{
    const size_t edge = tposei_tp_band(p, kit), rows = p->rows;
    const tpose_kernel kernel = p->kernel;
    if (edge == 0) return n;
    p->rows = edge;
    if (p->direct == TPOSEI_TP_DIRECT_NONE) {
        p->kernel = kit->pick(p->rows, p->cols, p->elem, p->bytes);
        p->direct = tposei_tp_direct(p, kit);
        p->half = tposei_tp_half(p, kit);
        if (p->direct == TPOSEI_TP_DIRECT_NONE) { /* the tiles cannot take such a band */
            p->rows = rows;
            p->kernel = kernel;
            return n;
        }
    }
    p->bands = rows / edge;
    p->loop[n].n = p->bands;
    p->loop[n].ss = edge * p->src_stride;
    p->loop[n].ds = edge * p->elem;
    return n + 1;
}

/* The case of `r` fused axes, its kernel and loop order (the kit is fetched here, in an
   initialisation: assigned to a declared struct, Clang -O0 calls memcpy, which
   TPOSE_NO_STDLIB forbids). */
static void tposei_tp_choose(tposei_tp_plan *p, const tposei_tp_axis *ax, size_t r)
{
    const tposei_kit kit = tposei_kit_get(p->elem);
    const size_t a = tposei_tp_unit(ax, r, p->elem, 1); /* destination's fastest: rows */
    const size_t b = tposei_tp_unit(ax, r, p->elem, 0); /* source's fastest: columns */
    size_t k, n = 0;
    if (r == 0) {
        p->kind = TPOSEI_TP_COPY;
    } else if (a < r && b < r) {
        p->kind = r == 2 ? TPOSEI_TP_MATRIX : TPOSEI_TP_TILES;
        p->rows = ax[a].n;
        p->cols = ax[b].n;
        p->src_stride = ax[a].ss;
        p->dst_stride = ax[b].ds;
        p->kernel = kit.pick(p->rows, p->cols, p->elem, p->bytes);
        p->direct = tposei_tp_direct(p, &kit);
        p->half = tposei_tp_half(p, &kit);
        for (k = 0; k < r; k++)
            if (k != a && k != b) p->loop[n++] = ax[k];
        n = tposei_tp_bands(p, &kit, n);
        tposei_tp_order(p->loop, n, tposei_tp_src_run(p, &kit, n));
    } else {
        p->kind = TPOSEI_TP_RUNS; /* in destination order: every line written once, in turn */
        for (k = 0; k < r; k++) p->loop[n++] = ax[k];
    }
    /* wide elements stream where AUTO would stream a matrix of these bytes */
    p->stream = p->elem >= TPOSEI_TP_RUN_MIN && kit.stream_row && tposei_tp_big(p, &kit);
    p->block = p->direct == TPOSEI_TP_DIRECT_TILES   ? tposei_tp_tile_edge(p, &kit)
               : p->direct == TPOSEI_TP_DIRECT_LINES ? kit.line_edge
                                                     : tposei_tp_block(p->elem);
    p->loops = n;
}

/* The plan of a checked shape: fusion, the case, the kernel, the loop order, the cost. */
static void tposei_tp_make(tposei_tp_plan *p, tposei_tp_shape *sh)
{
    size_t r, k;
    p->magic = TPOSEI_TP_MAGIC;
    p->kind = TPOSEI_TP_EMPTY;
    p->kernel = TPOSE_KERNEL_AUTO;
    p->stream = 0;
    p->direct = 0;
    p->half = 0;
    p->block = 1;
    p->bands = 0;
    p->elem = sh->esize;
    p->rows = p->cols = p->src_stride = p->dst_stride = p->loops = p->fused = 0;
    p->src_span = p->dst_span = p->bytes = 0;
    p->cost = 1.0;
    if (sh->empty) return;
    p->bytes = sh->bytes;
    p->src_span = sh->src_span;
    p->dst_span = sh->dst_span;
    r = tposei_tp_fuse(sh->ax, sh->rank, &p->elem);
    p->fused = r;
    for (k = 0; k < r; k++) p->fused_n[k] = sh->ax[k].n;
    tposei_tp_choose(p, sh->ax, r);
    p->cost = tposei_tp_cost(p);
}

/* A plan's bytes as the struct, whatever the caller's alignment; NULL if not a plan. */
static const tposei_tp_plan *tposei_tp_load(tposei_tp_plan *p, const void *plan)
{
    if (plan == NULL) return NULL;
    tposei_tp_copy((unsigned char *)p, (const unsigned char *)plan, sizeof *p);
    return p->magic == TPOSEI_TP_MAGIC && p->kind <= TPOSEI_TP_TILES ? p : NULL;
}

/* ======================================================================================== */
// >>api
/* ======================================================================================== */

TPOSE_API size_t tpose_permute_plan_bytes(size_t rank)
{
    return rank <= TPOSE_MAX_RANK ? sizeof(tposei_tp_plan) : 0;
}

TPOSE_API tpose_status tpose_permute_plan_init(void *plan, size_t plan_bytes,
                                               const size_t *dst_outer, const size_t *src_outer,
                                               size_t rank, const size_t *dims,
                                               const size_t *perm, size_t esize)
{
    tposei_tp_shape sh;
    tposei_tp_plan p;
    const tpose_status st = tposei_tp_check(&sh, dst_outer, src_outer, rank, dims, perm, esize);
    if (st != TPOSE_OK) return st;
    if (plan == NULL) return TPOSE_ERR_NULL;
    if (plan_bytes < sizeof p) return TPOSE_ERR_WORKSPACE;
    tposei_tp_make(&p, &sh);
    tposei_tp_copy((unsigned char *)plan, (const unsigned char *)&p, sizeof p);
    return TPOSE_OK;
}

/* The checks of an apply: TPOSE_OK with *p loaded when there is something to do. */
static tpose_status tposei_tp_ready(tposei_tp_plan *p, const void *plan, void *dst,
                                    const void *src)
{
    if (plan == NULL) return TPOSE_ERR_NULL;
    if (!tposei_tp_load(p, plan)) return TPOSE_ERR_ARG;
    if (p->kind == TPOSEI_TP_EMPTY) return TPOSE_OK;
    return tposei_tp_check_ptrs(dst, src, p->dst_span, p->src_span);
}

TPOSE_API tpose_status tpose_permute_plan_apply(const void *plan, void *dst, const void *src)
{
    tposei_tp_plan p;
    const tpose_status st = tposei_tp_ready(&p, plan, dst, src);
    if (st == TPOSE_OK) tposei_tp_run(&p, dst, src);
    return st;
}

TPOSE_API tpose_status tpose_permute_plan_apply_task(const void *plan, void *dst, const void *src,
                                                     size_t task, size_t ntasks)
{
    tposei_tp_plan p;
    tpose_status st;
    if (task >= ntasks) return TPOSE_ERR_ARG;
    st = tposei_tp_ready(&p, plan, dst, src);
    if (st == TPOSE_OK)
        tposei_tp_share(&p, (unsigned char *)dst, (const unsigned char *)src, task, ntasks);
    return st;
}

TPOSE_API tpose_status tpose_permute(void *dst, const size_t *dst_outer, const void *src,
                                     const size_t *src_outer, size_t rank, const size_t *dims,
                                     const size_t *perm, size_t esize)
{
    tposei_tp_shape sh;
    tposei_tp_plan p;
    tpose_status st = tposei_tp_check(&sh, dst_outer, src_outer, rank, dims, perm, esize);
    if (st != TPOSE_OK || sh.empty) return st;
    st = tposei_tp_check_ptrs(dst, src, sh.dst_span, sh.src_span);
    if (st != TPOSE_OK) return st;
    tposei_tp_make(&p, &sh);
    tposei_tp_run(&p, dst, src);
    return TPOSE_OK;
}

TPOSE_API double tpose_permute_plan_cost(const void *plan)
{
    tposei_tp_plan p;
    return tposei_tp_load(&p, plan) ? p.cost : 1.0;
}

/* ---- describe: a tiny snprintf for the few things it prints ---------------------------- */

typedef struct tposei_tp_out {
    char *buf;
    size_t cap, len;
} tposei_tp_out;

static void tposei_tp_puts(tposei_tp_out *o, const char *s)
{
    for (; *s; s++, o->len++)
        if (o->len + 1 < o->cap) o->buf[o->len] = *s;
}

static void tposei_tp_putu(tposei_tp_out *o, size_t v)
{
    char digits[24];
    size_t i = sizeof digits - 1;
    digits[i] = 0;
    do digits[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    tposei_tp_puts(o, digits + i);
}

/* extents joined by `x` */
static void tposei_tp_putdims(tposei_tp_out *o, const size_t *n, size_t count)
{
    size_t k;
    tposei_tp_puts(o, "[");
    for (k = 0; k < count; k++) {
        if (k) tposei_tp_puts(o, "x");
        tposei_tp_putu(o, n[k]);
    }
    tposei_tp_puts(o, "]");
}

TPOSE_API int tpose_permute_plan_describe(const void *plan, char *buf, size_t buf_bytes)
{
    static const char *const kinds[] = {"empty", "copy", "runs (the fastest axis kept)",
                                        "matrix (two axes swapped)",
                                        "tiles (fastest axes swapped)"};
    tposei_tp_plan p;
    tposei_tp_out o;
    size_t k, n[TPOSE_MAX_RANK];
    o.buf = buf;
    o.cap = buf ? buf_bytes : 0;
    o.len = 0;
    if (!tposei_tp_load(&p, plan)) {
        tposei_tp_puts(&o, "not a plan");
    } else {
        tposei_tp_puts(&o, "fused ");
        tposei_tp_putdims(&o, p.fused_n, p.fused);
        tposei_tp_puts(&o, " of ");
        tposei_tp_putu(&o, p.elem);
        tposei_tp_puts(&o, "-byte elements; ");
        tposei_tp_puts(&o, kinds[p.kind]);
        if (p.stream) tposei_tp_puts(&o, ", streamed");
        if (p.kind == TPOSEI_TP_MATRIX || p.kind == TPOSEI_TP_TILES) {
            tposei_tp_puts(&o, "; ");
            tposei_tp_putu(&o, p.bands ? p.rows * p.bands : p.rows);
            tposei_tp_puts(&o, "x");
            tposei_tp_putu(&o, p.cols);
            if (p.bands) {
                tposei_tp_puts(&o, " slices in ");
                tposei_tp_putu(&o, p.bands);
                tposei_tp_puts(&o, " bands of ");
                tposei_tp_putu(&o, p.rows);
                tposei_tp_puts(&o, " rows,");
            }
            if (p.elem >= TPOSEI_TP_RUN_MIN) {
                tposei_tp_puts(&o, " slices, moves in blocks of ");
                tposei_tp_putu(&o, p.block);
                tposei_tp_puts(&o, "x");
                tposei_tp_putu(&o, p.block);
            } else if (p.direct) {
                tposei_tp_puts(&o, p.bands ? " by " : " slices by ");
                tposei_tp_putu(&o, p.block);
                tposei_tp_puts(&o, "x");
                tposei_tp_putu(&o, p.block);
                tposei_tp_puts(&o, p.direct == TPOSEI_TP_DIRECT_LINES ? " line tiles, direct"
                                   : p.half                           ? " sse2 tiles, direct"
                                                                       : " avx2 tiles, direct");
            } else {
                tposei_tp_puts(&o, " slices by ");
                tposei_tp_puts(&o, tpose_kernel_name(p.kernel));
            }
        }
        if (p.loops) {
            for (k = 0; k < p.loops; k++) n[k] = p.loop[k].n;
            tposei_tp_puts(&o, "; loops ");
            tposei_tp_putdims(&o, n, p.loops);
            tposei_tp_puts(&o, " outermost first");
        }
        tposei_tp_puts(&o, "; cost ");
        tposei_tp_putu(&o, (size_t)p.cost);
        tposei_tp_puts(&o, ".");
        tposei_tp_putu(&o, (size_t)(p.cost * 100) % 100 / 10);
        tposei_tp_putu(&o, (size_t)(p.cost * 100) % 10);
        tposei_tp_puts(&o, "x memcpy");
    }
    if (o.cap) o.buf[o.len < o.cap ? o.len : o.cap - 1] = 0;
    return (int)o.len;
}

#endif /* TPOSE_TENSOR_IMPLEMENTATION */
