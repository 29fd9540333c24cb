/* transpose_blockenum.h - block enumeration schemes for the CUDA transposition kernels

   Purpose
     Index math of the block-enumeration schemes: pairing functions that number the blocks
     below the main diagonal of a square block matrix (V1, V1R, the banded V1B) or all the
     blocks of a rectangular one (the banded V1BF), and their exact inverses. A GPU kernel
     turns its flat block number k into block coordinates with an inverse; the pairing
     functions are here so that tests can prove every inverse exact.

     Source of every formula: the GPU block-enumeration transposition paper this library
     follows for its CUDA kernels (see docs/cuda.md); "Sect." and "eq." numbers below are
     that paper's.

   How to include
     Plain C99 (and C++), no libc call, no configuration macro. Every function is
     `static inline` (and `__host__ __device__` under nvcc, through TPOSEI_HD), so the header
     needs no TPOSE_IMPLEMENTATION and may be included by any number of translation units,
     host or device. Everything here is internal (`tposei_`); it is installed because
     transpose_cuda.cuh includes it.

   Conventions
     x is a column and y a row, both counted from 0, as in the paper. All arithmetic is exact
     in uint64_t: square roots are integer square roots followed by a correction step that
     re-checks the defining inequality, never a rounded floating-point sqrt. The triangular
     schemes are exact for orders m <= 2^31 (then (2m-1)^2 and 8k+1 fit in 64 bits); the
     rectangular scheme for m*n < 2^64.

   Functions
     tposei_isqrt64        floor(sqrt(v)) for any uint64_t v (_newton, and _fp under nvcc)
     tposei_tri_incl/excl  S+(t) = (t^2+t)/2 and S-(t) = (t^2-t)/2 (Sect. 5)
     tposei_v1_pair/unpair     V1, row-wise left to right (eq. 3; inverse eqs. 5, 8)
     tposei_v1r_pair/unpair    V1R, row-wise right to left (eq. 4)
     tposei_v1b_*              V1B, vertical bands of width w (Sect. 5.1, Props. 2 and 3)
     tposei_v1bf_*             V1BF, rectangular bands of width w (Sect. 6)

   License: MIT, see LICENSE.
*/
#ifndef TPOSE_TRANSPOSE_BLOCKENUM_H
#define TPOSE_TRANSPOSE_BLOCKENUM_H

#include <stdint.h>

// >>config
/* TPOSEI_HD marks a function for host and device under nvcc. TPOSEI_CUDA_DEVICE is 1 in the
   device pass of nvcc, where the square root takes its estimate from the FP64 unit. */
#if defined(__CUDACC__)
#define TPOSEI_HD __host__ __device__
#include <math.h>
#else
#define TPOSEI_HD
#endif
#if defined(__CUDA_ARCH__)
#define TPOSEI_CUDA_DEVICE 1
#else
#define TPOSEI_CUDA_DEVICE 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Block coordinates: column x, row y. */
typedef struct tposei_xy {
    uint64_t x;
    uint64_t y;
} tposei_xy;

// >>api

/* floor(sqrt(v)), integer only. Newton's iteration r <- (r + v/r)/2 started at
   2^ceil(bits(v)/2) >= sqrt(v) decreases strictly until it reaches floor(sqrt(v)) (the integer
   Newton iteration, as in Crandall and Pomerance, "Prime Numbers", Sect. 9.2): exact for every
   v, about six 64-bit divisions. */
TPOSEI_HD static inline uint64_t tposei_isqrt64_newton(uint64_t v)
{
    uint64_t r, next;
    unsigned bits = 0;
    if (v < 2) {
        return v;
    }
    for (r = v; r != 0; r >>= 1) {
        ++bits;
    }
    r = (uint64_t)1 << ((bits + 1) / 2);
    for (;;) {
        next = (r + v / r) / 2;
        if (next >= r) {
            return r;
        }
        r = next;
    }
}

#if defined(__CUDACC__)
/* floor(sqrt(v)) from a double-precision estimate plus a correction step. (double)v and the
   correctly rounded sqrt put the estimate within one of floor(sqrt(v)) (for v near r^2 the
   root can round up to r), so the integer loops below, which re-check r^2 <= v < (r+1)^2,
   make it exact. The result is below 2^32, so the squares never overflow. Used on the device,
   where 64-bit division is a long software sequence; the host tests compare it with
   tposei_isqrt64_newton. */
TPOSEI_HD static inline uint64_t tposei_isqrt64_fp(uint64_t v)
{
    const uint64_t top = 0xffffffffu;
    uint64_t r = (uint64_t)sqrt((double)v);
    if (r > top) {
        r = top;
    }
    while (r * r > v) {
        --r;
    }
    while (r < top && (r + 1) * (r + 1) <= v) {
        ++r;
    }
    return r;
}
#endif

/* floor(sqrt(v)): the FP64 estimate with correction on the device, Newton on the host. */
TPOSEI_HD static inline uint64_t tposei_isqrt64(uint64_t v)
{
#if TPOSEI_CUDA_DEVICE
    return tposei_isqrt64_fp(v);
#else
    return tposei_isqrt64_newton(v);
#endif
}

/* S+(t) = (t^2 + t)/2: entries on and below the diagonal of an order-t matrix (Sect. 5). */
TPOSEI_HD static inline uint64_t tposei_tri_incl(uint64_t t)
{
    return (t % 2 == 0) ? (t / 2) * (t + 1) : t * ((t + 1) / 2);
}

/* S-(t) = (t^2 - t)/2: entries strictly below the diagonal of an order-t matrix (Sect. 5). */
TPOSEI_HD static inline uint64_t tposei_tri_excl(uint64_t t)
{
    return (t == 0) ? 0 : tposei_tri_incl(t - 1);
}

/* Row y of the strictly lower triangle holding number k when row y starts at S-(y), as in
   V1 and V1R (both number row y with S-(y) .. S+(y)-1). Eq. (8): y = floor((sqrt(8k+1)+1)/2),
   taken as (isqrt(8k+1)+1)/2, which is equal because floor(a/2) = floor(floor(a)/2). The
   correction step re-checks eq. (7), S-(y) <= k < S-(y) + y. Needs k < 2^61. */
TPOSEI_HD static inline uint64_t tposei_tri_row(uint64_t k)
{
    uint64_t y = (tposei_isqrt64(8 * k + 1) + 1) / 2;
    while (tposei_tri_excl(y) > k) {
        --y;
    }
    while (tposei_tri_excl(y + 1) <= k) {
        ++y;
    }
    return y;
}

/* V1 pairing function, eq. (3): Pi_LR(x, y) = (y^2 - y)/2 + x for x < y. */
TPOSEI_HD static inline uint64_t tposei_v1_pair(uint64_t x, uint64_t y)
{
    return tposei_tri_excl(y) + x;
}

/* V1 inverse: y from eq. (8), x from eq. (5), x = k - (y^2 - y)/2. */
TPOSEI_HD static inline tposei_xy tposei_v1_unpair(uint64_t k)
{
    tposei_xy p;
    p.y = tposei_tri_row(k);
    p.x = k - tposei_tri_excl(p.y);
    return p;
}

/* V1R pairing function, eq. (4): Pi_RL(x, y) = (y^2 + y)/2 - x - 1 for x < y. */
TPOSEI_HD static inline uint64_t tposei_v1r_pair(uint64_t x, uint64_t y)
{
    return tposei_tri_incl(y) - x - 1;
}

/* V1R inverse: rows hold the same numbers as in V1, so y is eq. (8); solving eq. (4) for x
   gives x = (y^2 + y)/2 - 1 - k (Sect. 4.4). */
TPOSEI_HD static inline tposei_xy tposei_v1r_unpair(uint64_t k)
{
    tposei_xy p;
    p.y = tposei_tri_row(k);
    p.x = tposei_tri_incl(p.y) - 1 - k;
    return p;
}

/* V1B (Sect. 5.1): the strictly lower triangle of an order-m matrix (m >= 2) cut into vertical
   bands of w >= 1 columns, numbered left to right; within a band, its triangle (S+(w) entries)
   row by row, then its rectangle, w entries a row. Columns 0..m-2 hold entries, so there are
   beta = ceil((m-1)/w) bands and the last one is r = (m-1) - (beta-1)w wide (Sect. 5, items 3
   and 4). A w >= m-1 gives one band: V1 itself (end of Sect. 5.1). */
TPOSEI_HD static inline uint64_t tposei_v1b_bands(uint64_t m, uint64_t w)
{
    return (m - 1 + w - 1) / w;
}

/* Width of band i: w, or r for the last band (Sect. 5, item 3). */
TPOSEI_HD static inline uint64_t tposei_v1b_width(uint64_t m, uint64_t w, uint64_t i)
{
    uint64_t left = (m - 1) - i * w;
    return (left < w) ? left : w;
}

/* b_i, the smallest number in band i, Proposition 2: b_i = i w m - S+(i w). Every band before
   the last is full, so the formula holds for all i < beta. */
TPOSEI_HD static inline uint64_t tposei_v1b_start(uint64_t m, uint64_t w, uint64_t i)
{
    return i * w * m - tposei_tri_incl(i * w);
}

/* I_b(k), the band holding k (k < S-(m)), Proposition 3: i = floor(i_1) with
   i_1 = ((2m - 1) - sqrt((2m - 1)^2 - 8k)) / (2w), eq. (17). The estimate takes the integer
   square root, which is at most the real one, so it can exceed floor(i_1) by one; the
   correction step enforces eq. (14), b_i <= k < b_(i+1), in both directions so the result
   does not rest on that argument. The short last band needs no special case: k < S-(m)
   keeps i_1 below (m - 1)/w, hence floor(i_1) <= beta - 1. */
TPOSEI_HD static inline uint64_t tposei_v1b_band(uint64_t m, uint64_t w, uint64_t k)
{
    uint64_t bands = tposei_v1b_bands(m, w);
    uint64_t twom = 2 * m - 1;
    uint64_t i = (twom - tposei_isqrt64(twom * twom - 8 * k)) / (2 * w);
    while (i > 0 && tposei_v1b_start(m, w, i) > k) {
        --i;
    }
    while (i + 1 < bands && tposei_v1b_start(m, w, i + 1) <= k) {
        ++i;
    }
    return i;
}

/* V1B pairing function for x < y < m: band i = floor(x / w); k_2 = k - b_i is the number
   within the band; the triangle numbers rows like V1 (eq. 3 on the band-relative
   coordinates), the rectangle follows after S+(w) (Sect. 5.1, Fig. 7). */
TPOSEI_HD static inline uint64_t tposei_v1b_pair(uint64_t m, uint64_t w, uint64_t x, uint64_t y)
{
    uint64_t i = x / w;
    uint64_t width = tposei_v1b_width(m, w, i);
    uint64_t xr = x - i * w;
    uint64_t yr = y - i * w;
    uint64_t k2;
    if (yr <= width) {
        k2 = tposei_v1_pair(xr, yr);
    } else {
        k2 = tposei_tri_incl(width) + (yr - width - 1) * width + xr;
    }
    return tposei_v1b_start(m, w, i) + k2;
}

/* V1B inverse (Sect. 5.1): k_2 = k - b_i; if k_2 < S+(w) the triangle gives
   y = y_1 = V1's eq. (8) on k_2, shifted by i w, and x = k_2 - S-(y_1 - i w) + i w;
   otherwise k_3 = k_2 - S+(w) lies in the rectangle: y = y_2 = i w + w + 1 + floor(k_3 / w),
   x = k_3 mod w + i w. The short last band has only its triangle. */
TPOSEI_HD static inline tposei_xy tposei_v1b_unpair(uint64_t m, uint64_t w, uint64_t k)
{
    uint64_t i = tposei_v1b_band(m, w, k);
    uint64_t width = tposei_v1b_width(m, w, i);
    uint64_t k2 = k - tposei_v1b_start(m, w, i);
    tposei_xy p;
    if (k2 < tposei_tri_incl(width)) {
        p = tposei_v1_unpair(k2);
    } else {
        uint64_t k3 = k2 - tposei_tri_incl(width);
        p.x = k3 % width;
        p.y = width + 1 + k3 / width;
    }
    p.x += i * w;
    p.y += i * w;
    return p;
}

/* V1BF (Sect. 6): all entries of a matrix m wide and n high (m, n >= 1) in vertical bands of
   w >= 1 columns, numbered left to right, each band row by row. There are
   beta = ceil(m / w) bands; the last is r = m - (beta-1)w wide (r = w when w divides m). */
TPOSEI_HD static inline uint64_t tposei_v1bf_bands(uint64_t m, uint64_t w)
{
    return (m + w - 1) / w;
}

/* Width of band i of V1BF: w, or r for the last band (Sect. 6, item 2). */
TPOSEI_HD static inline uint64_t tposei_v1bf_width(uint64_t m, uint64_t w, uint64_t i)
{
    uint64_t left = m - i * w;
    return (left < w) ? left : w;
}

/* I_BF(k): every band before the last holds w n entries, so b_i = i w n and
   i = floor(k / (w n)) (Sect. 6, item 7). */
TPOSEI_HD static inline uint64_t tposei_v1bf_band(uint64_t n, uint64_t w, uint64_t k)
{
    return k / (w * n);
}

/* V1BF pairing function: k = b_i + y w_i + (x - i w), w_i the band's width (Sect. 6, Fig. 8). */
TPOSEI_HD static inline uint64_t tposei_v1bf_pair(uint64_t m, uint64_t n, uint64_t w, uint64_t x,
                                                  uint64_t y)
{
    uint64_t i = x / w;
    return i * w * n + y * tposei_v1bf_width(m, w, i) + (x - i * w);
}

/* V1BF inverse (Sect. 6): x = (k - i w n) mod w_i + i w and y = floor((k - i w n) / w_i), with
   w_i = w, or r for the last band when w does not divide m. */
TPOSEI_HD static inline tposei_xy tposei_v1bf_unpair(uint64_t m, uint64_t n, uint64_t w, uint64_t k)
{
    uint64_t i = tposei_v1bf_band(n, w, k);
    uint64_t width = tposei_v1bf_width(m, w, i);
    uint64_t kb = k - i * w * n;
    tposei_xy p;
    p.x = kb % width + i * w;
    p.y = kb / width;
    return p;
}

#ifdef __cplusplus
}
#endif

#endif /* TPOSE_TRANSPOSE_BLOCKENUM_H */
