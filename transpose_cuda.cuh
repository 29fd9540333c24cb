/* transpose_cuda.cuh - matrix transposition on NVIDIA GPUs, header-only CUDA C++.

   Purpose
     The GPU companion of transpose.h: out-of-place transposition of rectangular matrices and
     in-place transposition of square ones, in device memory, asynchronously on a CUDA stream.
     The kernels move 32x32 tiles through shared memory (padded to 33 columns, so the
     column-wise reads hit 32 different banks) with coalesced loads and stores; which tile a
     thread block takes is set by an enumeration scheme from the GPU block-enumeration paper
     this library follows (section and equation numbers below are that paper's; the index
     math is in transpose_blockenum.h).

   How to include
     Compile with nvcc (it is an #error otherwise):
         #include "transpose_cuda.cuh"
     in any number of .cu files. Every function here is `static inline` (the kernels are
     static templates), so unlike transpose.h no TPOSE_IMPLEMENTATION is needed and there is
     nothing to link: kernels must live in the translation unit that launches them unless one
     builds with relocatable device code, and static definitions keep several .cu files from
     clashing. The header includes transpose.h for tpose_status only; TPOSE_STATIC and
     TPOSE_IMPLEMENTATION keep their meaning for transpose.h and change nothing here.

   Configuration (define before the include)

   | macro                   | default | meaning                                              |
   |-------------------------|---------|------------------------------------------------------|
   | TPOSE_CUDA_BAND_DEFAULT | 8       | band width, in 32-wide tiles, of V1B and V1BF when   |
   |                         |         | a call passes band = 0 (the w = 8 of the paper's     |
   |                         |         | banded runs, Sect. 7; not tuned here: no GPU)        |

   Schemes (tpose_cuda_scheme)

   | scheme | in place (square)                          | out of place (rectangular)         |
   |--------|--------------------------------------------|------------------------------------|
   | PLAIN  | square grid of all blocks, the ones above  | row-major grid of tiles, one per   |
   |        | the diagonal idle (Sect. 3, Listing 2)     | thread block (Sect. 3, Listing 1)  |
   | V1     | triangular grid: row-wise, eq. (3)         | -                                  |
   | V1R    | triangular grid: row-wise reversed, eq. (4)| -                                  |
   | V1B    | vertical bands of `band` blocks (Sect. 5.1)| -                                  |
   | V1BF   | -                                          | vertical bands of `band` tile      |
   |        |                                            | columns (Sect. 6)                  |
   A "-" is TPOSE_ERR_UNSUPPORTED. The banded schemes keep the pages a wave of thread blocks
   touches few, against the TLB misses that slow large matrices (Sect. 3.1, 7).

   In place, the order-n matrix is cut into 32x32 blocks (Sect. 3.2): with mb = n / 32,
   B_t are the S-(mb) full blocks below the diagonal, each swapped with its mirror through two
   shared tiles; B_d the mb full diagonal blocks, transposed within one tile (the paper gives
   B_d only as many threads as entries below the diagonal; moving the whole block through
   one tile keeps every access coalesced); and when 32 does not divide n, B_e the mb edge
   blocks of the last block row (n mod 32 rows high), swapped with the matching edge of the
   last block column, and B_c the corner block. V1, V1R and V1B
   enumerate B_t by their pairing-function inverse; B_d, B_e and B_c follow in the same flat
   grid, so no thread block idles but the few past the end of the flat grid's last row.

   Element sizes 1, 2, 4, 8 and 16 bytes, moved as one integer (or a 16-byte aligned pair) per
   element, so device pointers must be aligned to the element size (cudaMalloc gives 256).

   API

   tpose_cuda_matrix(dst, dst_ld, src, src_ld, rows, cols, esize, stream)
       dst (cols x rows, leading dimension dst_ld) = transpose of src (rows x cols, leading
       dimension src_ld), in device memory, queued on `stream`; scheme V1BF, band
       TPOSE_CUDA_BAND_DEFAULT. The same argument rules as tpose_matrix in transpose.h.
   tpose_cuda_matrix_with(scheme, band, dst, dst_ld, src, src_ld, rows, cols, esize, stream,
                          cuda_err)
       The same with a chosen scheme (PLAIN or V1BF), band width in tiles (0: the default),
       and the CUDA error of the launch in *cuda_err (cudaSuccess unless the launch failed; the
       pointer may be NULL).
   tpose_cuda_inplace_square(a, n, ld, esize, scheme, stream)
       Transposes the n x n block at `a` (leading dimension ld >= n) in place, queued on
       `stream`; V1B uses band TPOSE_CUDA_BAND_DEFAULT.
   tpose_cuda_inplace_square_with(scheme, band, a, n, ld, esize, stream, cuda_err)
       The same with the band width (in blocks; 0: the default) and the CUDA error.
   tpose_cuda_scheme_name(scheme)
       "plain", "v1", "v1r", "v1b", "v1bf"; "unknown" outside the enum.

   Errors: every argument is checked on the host before anything is queued; on an error
   nothing is launched. Order: TPOSE_ERR_ARG (scheme outside the enum), _ESIZE (0), a matrix
   with no element is TPOSE_OK, _NULL, _LD, _OVERFLOW, _OVERLAP (out of place, compared as
   unified virtual addresses), _UNSUPPORTED (element size not 1, 2, 4, 8, 16, or a scheme of
   the other kind), _ARG (a pointer not aligned to the element size), _UNSUPPORTED (a matrix
   larger than a CUDA grid can cover, or the CUDA runtime refused the launch: no device, no
   kernel image for it...). The CUDA error comes back through cuda_err of the _with calls,
   and the runtime also keeps it for cudaGetLastError(). Faults while the kernel runs are
   reported by CUDA later, as for any asynchronous launch.
   Thread safety: reentrant; no global state. Concurrent calls must not share destination
   (or, in place, matrix) memory.

   Sections (grep for the marker)
       >>config >>kernels-cuda >>drivers >>api

   License: MIT, see LICENSE.
*/
#ifndef TPOSE_TRANSPOSE_CUDA_CUH
#define TPOSE_TRANSPOSE_CUDA_CUH

#if !defined(__CUDACC__)
#error "transpose_cuda.cuh is CUDA C++: compile it with nvcc (the CPU library is transpose.h)"
#else /* the whole header; nothing more to report without nvcc */

/* ======================================================================================== */
// >>config
/* ======================================================================================== */

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "transpose.h"
#include "transpose_blockenum.h"

#ifndef TPOSE_CUDA_BAND_DEFAULT
#define TPOSE_CUDA_BAND_DEFAULT 8
#endif

#define TPOSEI_CUDA_TILE    32 /* tile edge, elements */
#define TPOSEI_CUDA_ROWS    8  /* thread block: TILE x ROWS threads, TILE / ROWS rows each */
#define TPOSEI_CUDA_THREADS (TPOSEI_CUDA_TILE * TPOSEI_CUDA_ROWS)

/* Which block (or tile) enumeration a call uses; see the table above. */
typedef enum tpose_cuda_scheme {
    TPOSE_CUDA_PLAIN, /* every block of a row-major grid; in place the upper ones idle */
    TPOSE_CUDA_V1,    /* in place: lower triangle row-wise left to right, eq. (3) */
    TPOSE_CUDA_V1R,   /* in place: lower triangle row-wise right to left, eq. (4) */
    TPOSE_CUDA_V1B,   /* in place: lower triangle in vertical bands, Sect. 5.1 */
    TPOSE_CUDA_V1BF,  /* out of place: whole matrix in vertical bands, Sect. 6 */
    TPOSE_CUDA_SCHEME_COUNT
} tpose_cuda_scheme;

/* 16-byte elements: two 64-bit halves, one 128-bit load or store. */
struct __align__(16) tposei_cuda_b16
{
    unsigned long long lo;
    unsigned long long hi;
};

/* ======================================================================================== */
// >>kernels-cuda
/* ======================================================================================== */

/* What one thread block does. SWAP: the h x w block P at (r0, c0) and the w x h block Q at
   (c0, r0) trade places, each transposed. DIAG: the h x h block at (r0, r0) is transposed in
   place. COPY: the h x w source block at (r0, c0) goes transposed to the destination at
   (c0, r0). Rows first: (r0, c0) is row r0, column c0, in elements. */
enum { TPOSEI_CUDA_IDLE, TPOSEI_CUDA_SWAP, TPOSEI_CUDA_DIAG, TPOSEI_CUDA_COPY };

struct tposei_cuda_job {
    uint64_t r0;
    uint64_t c0;
    uint32_t h;
    uint32_t w;
    int kind;
};

/* In-place launch parameters (Sect. 3.2): the order-n matrix as mb full blocks per side and
   a remainder of rem = n mod 32 rows and columns. */
struct tposei_cuda_sq {
    void *a;
    size_t ld;     /* elements */
    uint64_t mb;   /* full blocks per side, n / 32 */
    uint64_t nt;   /* B_t blocks, S-(mb) */
    uint64_t work; /* blocks with work: nt + mb (+ mb + 1 when rem != 0) */
    uint64_t band; /* V1B band width in blocks, 1..max(mb, 1) */
    uint32_t rem;  /* n mod 32: height of B_e, order of B_c */
    int scheme;
};

/* Out-of-place launch parameters: src is rows x cols, tiles_x x tiles_y tiles of 32x32. */
struct tposei_cuda_oop {
    void *dst;
    const void *src;
    size_t dst_ld; /* elements */
    size_t src_ld; /* elements */
    size_t rows;
    size_t cols;
    uint64_t tiles_x;
    uint64_t tiles_y;
    uint64_t band; /* V1BF band width in tile columns, 1..tiles_x */
    uint64_t work; /* tiles_x * tiles_y */
    int banded;    /* V1BF (1) or row-major (0) */
};

TPOSEI_HD static inline tposei_cuda_job tposei_cuda_job_make(int kind, uint64_t r0, uint64_t c0,
                                                             uint32_t h, uint32_t w)
{
    tposei_cuda_job j;
    j.kind = kind;
    j.r0 = r0;
    j.c0 = c0;
    j.h = h;
    j.w = w;
    return j;
}

/* Block (bx, by) of the plain in-place grid (Sect. 3, Listing 2): blocks above the diagonal
   idle; the last block row and column are rem wide when 32 does not divide n. */
TPOSEI_HD static inline tposei_cuda_job tposei_cuda_job_plain(const tposei_cuda_sq *p, uint64_t bx,
                                                              uint64_t by)
{
    const uint32_t t = TPOSEI_CUDA_TILE;
    uint32_t h = (by == p->mb) ? p->rem : t;
    uint32_t w = (bx == p->mb) ? p->rem : t;
    if (bx > by) {
        return tposei_cuda_job_make(TPOSEI_CUDA_IDLE, 0, 0, 0, 0);
    }
    if (bx == by) {
        return tposei_cuda_job_make(TPOSEI_CUDA_DIAG, by * t, by * t, h, h);
    }
    return tposei_cuda_job_make(TPOSEI_CUDA_SWAP, by * t, bx * t, h, w);
}

/* Below-diagonal block number k of order mb by the scheme's pairing-function inverse. */
TPOSEI_HD static inline tposei_xy tposei_cuda_decode_bt(const tposei_cuda_sq *p, uint64_t k)
{
    if (p->scheme == TPOSE_CUDA_V1R) {
        return tposei_v1r_unpair(k); /* eq. (4) inverted */
    }
    if (p->scheme == TPOSE_CUDA_V1B) {
        return tposei_v1b_unpair(p->mb, p->band, k); /* Sect. 5.1 */
    }
    return tposei_v1_unpair(k); /* eqs. (5), (8) */
}

/* Flat block number k of an enumerated in-place grid (k_r = c_i + g_w c_j, Sect. 3.2): first
   the B_t by the scheme, then B_d along the diagonal, then B_e left to right and B_c. */
TPOSEI_HD static inline tposei_cuda_job tposei_cuda_job_enum(const tposei_cuda_sq *p, uint64_t k)
{
    const uint32_t t = TPOSEI_CUDA_TILE;
    const uint64_t edge = p->mb * t; /* first row and column of the partial blocks */
    if (k < p->nt) {
        tposei_xy b = tposei_cuda_decode_bt(p, k);
        return tposei_cuda_job_make(TPOSEI_CUDA_SWAP, b.y * t, b.x * t, t, t);
    }
    k -= p->nt;
    if (k < p->mb) {
        return tposei_cuda_job_make(TPOSEI_CUDA_DIAG, k * t, k * t, t, t);
    }
    k -= p->mb;
    if (p->rem != 0 && k < p->mb) {
        return tposei_cuda_job_make(TPOSEI_CUDA_SWAP, edge, k * t, p->rem, t);
    }
    if (p->rem != 0 && k == p->mb) {
        return tposei_cuda_job_make(TPOSEI_CUDA_DIAG, edge, edge, p->rem, p->rem);
    }
    return tposei_cuda_job_make(TPOSEI_CUDA_IDLE, 0, 0, 0, 0);
}

/* Flat tile number k of the out-of-place grid: V1BF's inverse (Sect. 6), or row-major. The
   tile's source block starts at (r0, c0) and is h x w, clipped to the matrix. */
TPOSEI_HD static inline tposei_cuda_job tposei_cuda_job_oop(const tposei_cuda_oop *p, uint64_t k)
{
    const uint32_t t = TPOSEI_CUDA_TILE;
    tposei_xy b;
    uint64_t r0, c0;
    if (k >= p->work) {
        return tposei_cuda_job_make(TPOSEI_CUDA_IDLE, 0, 0, 0, 0);
    }
    if (p->banded) {
        b = tposei_v1bf_unpair(p->tiles_x, p->tiles_y, p->band, k);
    } else {
        b.x = k % p->tiles_x;
        b.y = k / p->tiles_x;
    }
    r0 = b.y * t;
    c0 = b.x * t;
    return tposei_cuda_job_make(TPOSEI_CUDA_COPY, r0, c0,
                                (uint32_t)(p->rows - r0 < t ? p->rows - r0 : t),
                                (uint32_t)(p->cols - c0 < t ? p->cols - c0 : t));
}

/* Flat thread-block number over a grid of up to three dimensions (x fastest). */
static __device__ __forceinline__ uint64_t tposei_cuda_block_id(void)
{
    return blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
}

/* Swap P (h x w at p) and Q (w x h at q), both transposed, through two shared tiles.
   Each thread moves column threadIdx.x of every ROWS-th row; loads and stores run along
   rows (coalesced), the transposition happens in the padded tiles. */
template <typename T, bool Full>
static __device__ __forceinline__ void tposei_cuda_swap(T *p, T *q, size_t ld, uint32_t h,
                                                        uint32_t w, T (*tp)[TPOSEI_CUDA_TILE + 1],
                                                        T (*tq)[TPOSEI_CUDA_TILE + 1])
{
    const uint32_t x = threadIdx.x;
    const uint32_t hh = Full ? TPOSEI_CUDA_TILE : h;
    const uint32_t ww = Full ? TPOSEI_CUDA_TILE : w;
    uint32_t y;
    for (y = threadIdx.y; y < TPOSEI_CUDA_TILE; y += TPOSEI_CUDA_ROWS) {
        if (y < hh && x < ww) tp[y][x] = p[y * ld + x];
        if (y < ww && x < hh) tq[y][x] = q[y * ld + x];
    }
    __syncthreads();
    for (y = threadIdx.y; y < TPOSEI_CUDA_TILE; y += TPOSEI_CUDA_ROWS) {
        if (y < hh && x < ww) p[y * ld + x] = tq[x][y]; /* P'(y, x) = Q(x, y) */
        if (y < ww && x < hh) q[y * ld + x] = tp[x][y]; /* Q'(y, x) = P(x, y) */
    }
}

/* Transpose the h x h block at d in place through one shared tile (B_d, B_c). */
template <typename T>
static __device__ __forceinline__ void tposei_cuda_diag(T *d, size_t ld, uint32_t h,
                                                        T (*tp)[TPOSEI_CUDA_TILE + 1])
{
    const uint32_t x = threadIdx.x;
    uint32_t y;
    for (y = threadIdx.y; y < h; y += TPOSEI_CUDA_ROWS) {
        if (x < h) tp[y][x] = d[y * ld + x];
    }
    __syncthreads();
    for (y = threadIdx.y; y < h; y += TPOSEI_CUDA_ROWS) {
        if (x < h) d[y * ld + x] = tp[x][y];
    }
}

/* Copy the h x w source block at s transposed to the w x h destination block at d. */
template <typename T, bool Full>
static __device__ __forceinline__ void tposei_cuda_copy(T *d, size_t d_ld, const T *s, size_t s_ld,
                                                        uint32_t h, uint32_t w,
                                                        T (*tp)[TPOSEI_CUDA_TILE + 1])
{
    const uint32_t x = threadIdx.x;
    const uint32_t hh = Full ? TPOSEI_CUDA_TILE : h;
    const uint32_t ww = Full ? TPOSEI_CUDA_TILE : w;
    uint32_t y;
    for (y = threadIdx.y; y < TPOSEI_CUDA_TILE; y += TPOSEI_CUDA_ROWS) {
        if (y < hh && x < ww) tp[y][x] = s[y * s_ld + x];
    }
    __syncthreads();
    for (y = threadIdx.y; y < TPOSEI_CUDA_TILE; y += TPOSEI_CUDA_ROWS) {
        if (y < ww && x < hh) d[y * d_ld + x] = tp[x][y]; /* D(y, x) = S(x, y) */
    }
}

/* Carry out one in-place job; every thread of the block calls it with the same job. */
template <typename T>
static __device__ __forceinline__ void
tposei_cuda_run_sq(const tposei_cuda_sq &p, const tposei_cuda_job &j, T (*tp)[TPOSEI_CUDA_TILE + 1],
                   T (*tq)[TPOSEI_CUDA_TILE + 1])
{
    T *a = (T *)p.a;
    if (j.kind == TPOSEI_CUDA_DIAG) {
        tposei_cuda_diag<T>(a + j.r0 * p.ld + j.c0, p.ld, j.h, tp);
    } else if (j.kind == TPOSEI_CUDA_SWAP) {
        T *pp = a + j.r0 * p.ld + j.c0;
        T *qq = a + j.c0 * p.ld + j.r0;
        if (j.h == TPOSEI_CUDA_TILE && j.w == TPOSEI_CUDA_TILE) {
            tposei_cuda_swap<T, true>(pp, qq, p.ld, j.h, j.w, tp, tq);
        } else {
            tposei_cuda_swap<T, false>(pp, qq, p.ld, j.h, j.w, tp, tq);
        }
    }
}

/* In place, plain square grid (Sect. 3, Listing 2): thread block (x, y) takes block (x, y). */
template <typename T>
static __global__ void __launch_bounds__(TPOSEI_CUDA_THREADS)
    tposei_cuda_sq_plain_kernel(tposei_cuda_sq p)
{
    __shared__ T tp[TPOSEI_CUDA_TILE][TPOSEI_CUDA_TILE + 1];
    __shared__ T tq[TPOSEI_CUDA_TILE][TPOSEI_CUDA_TILE + 1];
    tposei_cuda_job j = tposei_cuda_job_plain(&p, blockIdx.x, blockIdx.y);
    tposei_cuda_run_sq<T>(p, j, tp, tq);
}

/* In place, enumerated grid (Sect. 3.2, Listing 5): one thread decodes the flat block
   number, the block shares the job through shared memory. */
template <typename T>
static __global__ void __launch_bounds__(TPOSEI_CUDA_THREADS)
    tposei_cuda_sq_enum_kernel(tposei_cuda_sq p)
{
    __shared__ T tp[TPOSEI_CUDA_TILE][TPOSEI_CUDA_TILE + 1];
    __shared__ T tq[TPOSEI_CUDA_TILE][TPOSEI_CUDA_TILE + 1];
    __shared__ tposei_cuda_job j;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        j = tposei_cuda_job_enum(&p, tposei_cuda_block_id());
    }
    __syncthreads();
    tposei_cuda_run_sq<T>(p, j, tp, tq);
}

/* Out of place (Sect. 3, Listing 1; Sect. 6 when banded): one tile per thread block. */
template <typename T>
static __global__ void __launch_bounds__(TPOSEI_CUDA_THREADS)
    tposei_cuda_oop_kernel(tposei_cuda_oop p)
{
    __shared__ T tp[TPOSEI_CUDA_TILE][TPOSEI_CUDA_TILE + 1];
    __shared__ tposei_cuda_job j;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        j = tposei_cuda_job_oop(&p, tposei_cuda_block_id());
    }
    __syncthreads();
    if (j.kind == TPOSEI_CUDA_IDLE) {
        return;
    }
    T *d = (T *)p.dst + j.c0 * p.dst_ld + j.r0;
    const T *s = (const T *)p.src + j.r0 * p.src_ld + j.c0;
    if (j.h == TPOSEI_CUDA_TILE && j.w == TPOSEI_CUDA_TILE) {
        tposei_cuda_copy<T, true>(d, p.dst_ld, s, p.src_ld, j.h, j.w, tp);
    } else {
        tposei_cuda_copy<T, false>(d, p.dst_ld, s, p.src_ld, j.h, j.w, tp);
    }
}

/* ======================================================================================== */
// >>drivers
/* ======================================================================================== */

/* *out = a * b, or 0 when the product does not fit in size_t. */
static inline int tposei_cuda_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > (size_t)-1 / b) return 0;
    *out = a * b;
    return 1;
}

/* Bytes from the first to one past the last element: ((rows - 1) ld + cols) esize, and the
   address range from p must not wrap. 0 on overflow; rows, cols >= 1. */
static inline int tposei_cuda_extent(const void *p, size_t rows, size_t cols, size_t ld,
                                     size_t esize, size_t *bytes)
{
    size_t elems, unused;
    if (!tposei_cuda_mul(rows, cols, &unused) || !tposei_cuda_mul(unused, esize, &unused)) {
        return 0;
    }
    if (!tposei_cuda_mul(ld, esize, &unused)) return 0;
    if (!tposei_cuda_mul(rows - 1, ld, &elems) || elems > (size_t)-1 - cols) return 0;
    if (!tposei_cuda_mul(elems + cols, esize, bytes)) return 0;
    return (uintptr_t)p <= UINTPTR_MAX - *bytes;
}

/* 1 for the element sizes the kernels are built for. */
static inline int tposei_cuda_esize_ok(size_t esize)
{
    return esize == 1 || esize == 2 || esize == 4 || esize == 8 || esize == 16;
}

/* A grid whose flat block numbers (x fastest) cover 0..work-1 (at least one block): x up to
   2^20 blocks, y and z up to 65535. 0 when work needs more. */
static inline int tposei_cuda_flat_grid(uint64_t work, dim3 *grid)
{
    const uint64_t gx_max = (uint64_t)1 << 20, g_max = 65535;
    uint64_t gx = work == 0 ? 1 : work < gx_max ? work : gx_max;
    uint64_t rest = work == 0 ? 1 : (work + gx - 1) / gx;
    uint64_t gy = rest < g_max ? rest : g_max;
    uint64_t gz = (rest + gy - 1) / gy;
    if (gz > g_max) return 0;
    *grid = dim3((unsigned)gx, (unsigned)gy, (unsigned)gz);
    return 1;
}

/* Launch `kernel` with its one parameter block. cudaLaunchKernel returns the launch's own
   error, where a <<<>>> launch would leave it to cudaGetLastError() to tell it from an
   earlier call's. */
template <typename K, typename P>
static inline cudaError_t tposei_cuda_launch(K *kernel, dim3 grid, P *params, cudaStream_t stream)
{
    void *args[1];
    dim3 block(TPOSEI_CUDA_TILE, TPOSEI_CUDA_ROWS, 1);
    args[0] = (void *)params;
    return cudaLaunchKernel((const void *)kernel, grid, block, args, 0, stream);
}

/* Queue the in-place kernel of element type T for p on stream. */
template <typename T>
static inline cudaError_t tposei_cuda_sq_run(tposei_cuda_sq *p, uint64_t nb, cudaStream_t stream)
{
    dim3 grid;
    if (p->scheme == TPOSE_CUDA_PLAIN) {
        grid = dim3((unsigned)nb, (unsigned)nb, 1);
        return tposei_cuda_launch(tposei_cuda_sq_plain_kernel<T>, grid, p, stream);
    }
    tposei_cuda_flat_grid(p->work, &grid);
    return tposei_cuda_launch(tposei_cuda_sq_enum_kernel<T>, grid, p, stream);
}

/* Queue the out-of-place kernel of element type T for p on stream. */
template <typename T>
static inline cudaError_t tposei_cuda_oop_run(tposei_cuda_oop *p, cudaStream_t stream)
{
    dim3 grid;
    tposei_cuda_flat_grid(p->work, &grid);
    return tposei_cuda_launch(tposei_cuda_oop_kernel<T>, grid, p, stream);
}

/* Pick the element type. esize was checked. */
static inline cudaError_t tposei_cuda_sq_dispatch(tposei_cuda_sq *p, uint64_t nb, size_t esize,
                                                  cudaStream_t stream)
{
    switch (esize) {
    case 1:
        return tposei_cuda_sq_run<uint8_t>(p, nb, stream);
    case 2:
        return tposei_cuda_sq_run<uint16_t>(p, nb, stream);
    case 4:
        return tposei_cuda_sq_run<uint32_t>(p, nb, stream);
    case 8:
        return tposei_cuda_sq_run<unsigned long long>(p, nb, stream);
    default:
        return tposei_cuda_sq_run<tposei_cuda_b16>(p, nb, stream);
    }
}

static inline cudaError_t tposei_cuda_oop_dispatch(tposei_cuda_oop *p, size_t esize,
                                                   cudaStream_t stream)
{
    switch (esize) {
    case 1:
        return tposei_cuda_oop_run<uint8_t>(p, stream);
    case 2:
        return tposei_cuda_oop_run<uint16_t>(p, stream);
    case 4:
        return tposei_cuda_oop_run<uint32_t>(p, stream);
    case 8:
        return tposei_cuda_oop_run<unsigned long long>(p, stream);
    default:
        return tposei_cuda_oop_run<tposei_cuda_b16>(p, stream);
    }
}

/* The launch parameters of an order-n in-place transposition (Sect. 3.2). 0 when the grid
   cannot cover it. */
static inline int tposei_cuda_sq_plan(tposei_cuda_sq *p, void *a, size_t n, size_t ld,
                                      tpose_cuda_scheme scheme, size_t band)
{
    uint64_t nb;
    dim3 unused;
    p->a = a;
    p->ld = ld;
    p->mb = n / TPOSEI_CUDA_TILE;
    p->rem = (uint32_t)(n % TPOSEI_CUDA_TILE);
    p->nt = tposei_tri_excl(p->mb);
    p->work = p->nt + p->mb + (p->rem != 0 ? p->mb + 1 : 0);
    p->band = band == 0 ? TPOSE_CUDA_BAND_DEFAULT : band;
    if (p->band > p->mb) p->band = p->mb > 0 ? p->mb : 1;
    p->scheme = (int)scheme;
    nb = p->mb + (p->rem != 0);
    if (scheme == TPOSE_CUDA_PLAIN) return nb <= 65535;
    return tposei_cuda_flat_grid(p->work, &unused);
}

/* The launch parameters of an out-of-place transposition. 0 when the grid cannot cover it. */
static inline int tposei_cuda_oop_plan(tposei_cuda_oop *p, void *dst, size_t dst_ld,
                                       const void *src, size_t src_ld, size_t rows, size_t cols,
                                       tpose_cuda_scheme scheme, size_t band)
{
    dim3 unused;
    p->dst = dst;
    p->src = src;
    p->dst_ld = dst_ld;
    p->src_ld = src_ld;
    p->rows = rows;
    p->cols = cols;
    p->tiles_x = (cols + TPOSEI_CUDA_TILE - 1) / TPOSEI_CUDA_TILE;
    p->tiles_y = (rows + TPOSEI_CUDA_TILE - 1) / TPOSEI_CUDA_TILE;
    p->band = band == 0 ? TPOSE_CUDA_BAND_DEFAULT : band;
    if (p->band > p->tiles_x) p->band = p->tiles_x;
    p->banded = scheme == TPOSE_CUDA_V1BF;
    if (p->tiles_y > UINT64_MAX / p->tiles_x) return 0;
    p->work = p->tiles_x * p->tiles_y;
    return tposei_cuda_flat_grid(p->work, &unused);
}

static inline tpose_status tposei_cuda_status(cudaError_t err, cudaError_t *cuda_err)
{
    if (cuda_err != NULL) *cuda_err = err;
    return err == cudaSuccess ? TPOSE_OK : TPOSE_ERR_UNSUPPORTED;
}

/* ======================================================================================== */
// >>api
/* ======================================================================================== */

/* A short static name of a scheme ("plain", "v1", "v1r", "v1b", "v1bf"), "unknown" outside
   the enum. Thread safety: pure. */
static inline const char *tpose_cuda_scheme_name(tpose_cuda_scheme scheme)
{
    static const char *const names[TPOSE_CUDA_SCHEME_COUNT] = {"plain", "v1", "v1r", "v1b", "v1bf"};
    if ((unsigned)scheme >= (unsigned)TPOSE_CUDA_SCHEME_COUNT) return "unknown";
    return names[scheme];
}

/* Out-of-place transpose in device memory: dst (cols x rows, leading dimension dst_ld) =
   transpose of src (rows x cols, leading dimension src_ld), queued on `stream`.
   Parameters: scheme, TPOSE_CUDA_PLAIN or TPOSE_CUDA_V1BF; band, V1BF band width in 32-wide
     tile columns (0: TPOSE_CUDA_BAND_DEFAULT; clipped to the matrix); dst_ld >= rows and
     src_ld >= cols, in elements; esize, bytes per element: 1, 2, 4, 8 or 16, pointers
     aligned to it; cuda_err, NULL or where the launch's cudaError_t goes.
   Returns: TPOSE_OK once queued; the errors of the header comment, before anything is
     queued. Bytes of dst outside the cols x rows block are never written.
   Thread safety: reentrant. */
static inline tpose_status tpose_cuda_matrix_with(tpose_cuda_scheme scheme, size_t band, void *dst,
                                                  size_t dst_ld, const void *src, size_t src_ld,
                                                  size_t rows, size_t cols, size_t esize,
                                                  cudaStream_t stream, cudaError_t *cuda_err)
{
    size_t src_bytes, dst_bytes;
    uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
    tposei_cuda_oop p;
    if (cuda_err != NULL) *cuda_err = cudaSuccess;
    if ((unsigned)scheme >= (unsigned)TPOSE_CUDA_SCHEME_COUNT) return TPOSE_ERR_ARG;
    if (esize == 0) return TPOSE_ERR_ESIZE;
    if (rows == 0 || cols == 0) return TPOSE_OK;
    if (dst == NULL || src == NULL) return TPOSE_ERR_NULL;
    if (src_ld < cols || dst_ld < rows) return TPOSE_ERR_LD;
    if (!tposei_cuda_extent(src, rows, cols, src_ld, esize, &src_bytes) ||
        !tposei_cuda_extent(dst, cols, rows, dst_ld, esize, &dst_bytes))
        return TPOSE_ERR_OVERFLOW;
    if (s < d + dst_bytes && d < s + src_bytes) return TPOSE_ERR_OVERLAP;
    if (!tposei_cuda_esize_ok(esize)) return TPOSE_ERR_UNSUPPORTED;
    if (scheme != TPOSE_CUDA_PLAIN && scheme != TPOSE_CUDA_V1BF) return TPOSE_ERR_UNSUPPORTED;
    if (s % esize != 0 || d % esize != 0) return TPOSE_ERR_ARG;
    if (!tposei_cuda_oop_plan(&p, dst, dst_ld, src, src_ld, rows, cols, scheme, band)) {
        return TPOSE_ERR_UNSUPPORTED;
    }
    return tposei_cuda_status(tposei_cuda_oop_dispatch(&p, esize, stream), cuda_err);
}

/* tpose_cuda_matrix_with(TPOSE_CUDA_V1BF, 0, ..., stream, NULL): the banded scheme, which
   the paper measured above the plain tiled kernel across its size maps (Sect. 7, Figs. 12
   and 13); this library has not measured it yet. */
static inline tpose_status tpose_cuda_matrix(void *dst, size_t dst_ld, const void *src,
                                             size_t src_ld, size_t rows, size_t cols, size_t esize,
                                             cudaStream_t stream)
{
    return tpose_cuda_matrix_with(TPOSE_CUDA_V1BF, 0, dst, dst_ld, src, src_ld, rows, cols, esize,
                                  stream, NULL);
}

/* In-place transpose of the n x n block at `a` (leading dimension ld >= n, in elements) in
   device memory, queued on `stream`.
   Parameters: scheme, TPOSE_CUDA_PLAIN, _V1, _V1R or _V1B; band, V1B band width in 32x32
     blocks (0: TPOSE_CUDA_BAND_DEFAULT; clipped to the matrix); esize 1, 2, 4, 8 or 16, `a`
     aligned to it; cuda_err, NULL or where the launch's cudaError_t goes.
   Returns: TPOSE_OK once queued; the errors of the header comment, before anything is
     queued. Bytes outside the n x n block are never written.
   Thread safety: reentrant. */
static inline tpose_status tpose_cuda_inplace_square_with(tpose_cuda_scheme scheme, size_t band,
                                                          void *a, size_t n, size_t ld,
                                                          size_t esize, cudaStream_t stream,
                                                          cudaError_t *cuda_err)
{
    size_t bytes;
    tposei_cuda_sq p;
    if (cuda_err != NULL) *cuda_err = cudaSuccess;
    if ((unsigned)scheme >= (unsigned)TPOSE_CUDA_SCHEME_COUNT) return TPOSE_ERR_ARG;
    if (esize == 0) return TPOSE_ERR_ESIZE;
    if (n == 0) return TPOSE_OK;
    if (a == NULL) return TPOSE_ERR_NULL;
    if (ld < n) return TPOSE_ERR_LD;
    if (!tposei_cuda_extent(a, n, n, ld, esize, &bytes)) return TPOSE_ERR_OVERFLOW;
    if (!tposei_cuda_esize_ok(esize)) return TPOSE_ERR_UNSUPPORTED;
    if (scheme == TPOSE_CUDA_V1BF) return TPOSE_ERR_UNSUPPORTED;
    if ((uintptr_t)a % esize != 0) return TPOSE_ERR_ARG;
    if (!tposei_cuda_sq_plan(&p, a, n, ld, scheme, band)) return TPOSE_ERR_UNSUPPORTED;
    return tposei_cuda_status(tposei_cuda_sq_dispatch(&p, p.mb + (p.rem != 0), esize, stream),
                              cuda_err);
}

/* tpose_cuda_inplace_square_with(scheme, 0, a, n, ld, esize, stream, NULL). */
static inline tpose_status tpose_cuda_inplace_square(void *a, size_t n, size_t ld, size_t esize,
                                                     tpose_cuda_scheme scheme, cudaStream_t stream)
{
    return tpose_cuda_inplace_square_with(scheme, 0, a, n, ld, esize, stream, NULL);
}

#endif /* __CUDACC__ */
#endif /* TPOSE_TRANSPOSE_CUDA_CUH */
