/* test_blockenum.c - every inverse in transpose_blockenum.h is exact

   For every order up to a few hundred (and every band width up to ORDER_ALL, a selection of
   widths above), each decode function is applied to every k of its range: the result must
   lie in the enumerated region, the pairing function must give k back, and no block may be
   reached twice (so, the count being right, every block is reached once). Random k and
   boundary k (band starts, last numbers) check orders up to 2^21, and up to 2^31 where the
   64-bit formulas still hold. Exit 0 on success, 1 on any failure, printing the first few. */
#include "transpose_blockenum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORDER_V1     400 /* V1, V1R: all orders 2..ORDER_V1 */
#define ORDER_ALL    128 /* V1B: all orders 2..ORDER_ALL, every width 1..m */
#define ORDER_SOME   320 /* V1B: orders up to ORDER_SOME, widths 1..9, near m/2, m-2..m */
#define ORDER_BF     40  /* V1BF: all m, n in 1..ORDER_BF, every width 1..m+1 */
#define RANDOM_DRAWS 200000

static unsigned long failures;

static void fail(const char *what, uint64_t m, uint64_t w, uint64_t k)
{
    if (failures < 10) {
        printf("FAIL %s: m=%llu w=%llu k=%llu\n", what, (unsigned long long)m,
               (unsigned long long)w, (unsigned long long)k);
    }
    ++failures;
}

/* splitmix64: a small reproducible generator for the random draws. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi], hi - lo < 2^64 - 1. */
static uint64_t rng_range(uint64_t lo, uint64_t hi)
{
    return lo + rng_next() % (hi - lo + 1);
}

/* The slow, obviously right square root: largest r with r*r <= v, by bisection. */
static uint64_t isqrt_slow(uint64_t v)
{
    uint64_t lo = 0, hi = 0xffffffffu;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (mid * mid <= v) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

static void check_isqrt_value(uint64_t v)
{
    if (tposei_isqrt64(v) != isqrt_slow(v) || tposei_isqrt64_newton(v) != isqrt_slow(v)) {
        fail("isqrt64", v, 0, 0);
    }
}

static void test_isqrt(void)
{
    uint64_t v, r;
    int i;
    for (v = 0; v < 70000; ++v) {
        check_isqrt_value(v);
    }
    for (i = 0; i < RANDOM_DRAWS; ++i) {
        r = rng_range(2, 0xffffffffu);
        check_isqrt_value(r * r);
        check_isqrt_value(r * r - 1);
        check_isqrt_value(r * r + 1 + rng_range(0, 2 * r - 1));
        check_isqrt_value(rng_next() >> (rng_next() % 64));
    }
    check_isqrt_value(UINT64_MAX);
    check_isqrt_value(UINT64_MAX - 1);
    check_isqrt_value((uint64_t)0xffffffffu * 0xffffffffu);
}

/* Marks (x, y) visited in an order-m square map; fails on a second visit. */
static void visit(unsigned char *seen, uint64_t m, tposei_xy p, const char *what, uint64_t k)
{
    if (seen[p.y * m + p.x]) {
        fail(what, m, 0, k);
    }
    seen[p.y * m + p.x] = 1;
}

/* V1 and V1R over every k of an order-m triangle. */
static void test_v1_order(uint64_t m, unsigned char *seen)
{
    uint64_t k, count = tposei_tri_excl(m);
    tposei_xy p;
    memset(seen, 0, m * m);
    for (k = 0; k < count; ++k) {
        p = tposei_v1_unpair(k);
        if (!(p.x < p.y && p.y < m) || tposei_v1_pair(p.x, p.y) != k) {
            fail("v1 inverse", m, 0, k);
            continue;
        }
        visit(seen, m, p, "v1 twice", k);
    }
    memset(seen, 0, m * m);
    for (k = 0; k < count; ++k) {
        p = tposei_v1r_unpair(k);
        if (!(p.x < p.y && p.y < m) || tposei_v1r_pair(p.x, p.y) != k) {
            fail("v1r inverse", m, 0, k);
            continue;
        }
        visit(seen, m, p, "v1r twice", k);
    }
}

/* V1B over every k of an order-m triangle for band width w; also checks that the numbers of
   one band are consecutive (k's band is its column's band) and that band starts match. */
static void test_v1b_order(uint64_t m, uint64_t w, unsigned char *seen)
{
    uint64_t k, count = tposei_tri_excl(m);
    uint64_t bands = tposei_v1b_bands(m, w);
    tposei_xy p;
    memset(seen, 0, m * m);
    for (k = 0; k < count; ++k) {
        p = tposei_v1b_unpair(m, w, k);
        if (!(p.x < p.y && p.y < m) || tposei_v1b_pair(m, w, p.x, p.y) != k) {
            fail("v1b inverse", m, w, k);
            continue;
        }
        if (tposei_v1b_band(m, w, k) != p.x / w || p.x / w >= bands) {
            fail("v1b band", m, w, k);
        }
        visit(seen, m, p, "v1b twice", k);
    }
    if (w >= m - 1) {
        for (k = 0; k < count; ++k) { /* one band: V1 itself (Sect. 5.1) */
            if (tposei_v1b_pair(m, w, tposei_v1_unpair(k).x, tposei_v1_unpair(k).y) != k) {
                fail("v1b is not v1 for w >= m-1", m, w, k);
            }
        }
    }
}

/* V1BF over every k of an m wide, n high matrix for band width w. */
static void test_v1bf_shape(uint64_t m, uint64_t n, uint64_t w, unsigned char *seen)
{
    uint64_t k, count = m * n;
    tposei_xy p;
    memset(seen, 0, m * n);
    for (k = 0; k < count; ++k) {
        p = tposei_v1bf_unpair(m, n, w, k);
        if (!(p.x < m && p.y < n) || tposei_v1bf_pair(m, n, w, p.x, p.y) != k) {
            fail("v1bf inverse", m * 1000 + n, w, k);
            continue;
        }
        if (seen[p.y * m + p.x]) {
            fail("v1bf twice", m * 1000 + n, w, k);
        }
        seen[p.y * m + p.x] = 1;
    }
}

static void test_all_small(void)
{
    unsigned char *seen = (unsigned char *)malloc(ORDER_V1 * ORDER_V1);
    uint64_t m, n, w;
    if (seen == NULL) {
        fail("malloc", 0, 0, 0);
        return;
    }
    for (m = 2; m <= ORDER_V1; ++m) {
        test_v1_order(m, seen);
    }
    for (m = 2; m <= ORDER_ALL; ++m) {
        for (w = 1; w <= m; ++w) {
            test_v1b_order(m, w, seen);
        }
    }
    for (m = ORDER_ALL + 1; m <= ORDER_SOME; m += 7) {
        static const uint64_t fixed[] = {1, 2, 3, 4, 5, 8, 9};
        size_t i;
        for (i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) {
            test_v1b_order(m, fixed[i], seen);
        }
        for (w = m / 2 - 1; w <= m / 2 + 1; ++w) {
            test_v1b_order(m, w, seen);
        }
        for (w = m - 2; w <= m; ++w) {
            test_v1b_order(m, w, seen);
        }
    }
    for (m = 1; m <= ORDER_BF; ++m) {
        for (n = 1; n <= ORDER_BF; ++n) {
            for (w = 1; w <= m + 1; ++w) {
                test_v1bf_shape(m, n, w, seen);
            }
        }
    }
    free(seen);
}

/* One k of each triangular scheme for order m, width w: inverse exact and in range. */
static void check_triangle_k(uint64_t m, uint64_t w, uint64_t k)
{
    tposei_xy p = tposei_v1_unpair(k);
    if (!(p.x < p.y && p.y < m) || tposei_v1_pair(p.x, p.y) != k) {
        fail("v1 random", m, 0, k);
    }
    p = tposei_v1r_unpair(k);
    if (!(p.x < p.y && p.y < m) || tposei_v1r_pair(p.x, p.y) != k) {
        fail("v1r random", m, 0, k);
    }
    p = tposei_v1b_unpair(m, w, k);
    if (!(p.x < p.y && p.y < m) || tposei_v1b_pair(m, w, p.x, p.y) != k ||
        tposei_v1b_band(m, w, k) != p.x / w) {
        fail("v1b random", m, w, k);
    }
}

static void check_rect_k(uint64_t m, uint64_t n, uint64_t w, uint64_t k)
{
    tposei_xy p = tposei_v1bf_unpair(m, n, w, k);
    if (!(p.x < m && p.y < n) || tposei_v1bf_pair(m, n, w, p.x, p.y) != k) {
        fail("v1bf random", m, w, k);
    }
}

/* Large orders: random k, the ends of the range and both sides of every band boundary that
   a random draw lands near. */
static void test_random_large(uint64_t max_order)
{
    int i;
    for (i = 0; i < RANDOM_DRAWS; ++i) {
        uint64_t m = rng_range(2, max_order);
        uint64_t w = rng_range(1, (i % 4 == 0) ? m : (m < 64 ? m : 64));
        uint64_t count = tposei_tri_excl(m);
        uint64_t band = rng_range(0, tposei_v1b_bands(m, w) - 1);
        uint64_t start = tposei_v1b_start(m, w, band);
        uint64_t n = rng_range(1, max_order);
        check_triangle_k(m, w, rng_range(0, count - 1));
        check_triangle_k(m, w, 0);
        check_triangle_k(m, w, count - 1);
        check_triangle_k(m, w, start);
        if (start > 0) {
            check_triangle_k(m, w, start - 1);
        }
        check_rect_k(m, n, w, rng_range(0, m * n - 1));
        check_rect_k(m, n, w, m * n - 1);
        check_rect_k(m, n, w, band * w * n);
    }
}

int main(void)
{
    test_isqrt();
    test_all_small();
    test_random_large((uint64_t)1 << 21);
    test_random_large((uint64_t)1 << 31);
    if (failures != 0) {
        printf("test_blockenum: %lu failures\n", failures);
        return 1;
    }
    printf("test_blockenum: ok\n");
    return 0;
}
