/* test_inplace_teams.c - tpose_inplace and tpose_inplace_square on OpenMP teams of 2, 3 and 4
   threads against the byte-by-byte reference: squares (tile and super-block edges, ld > n,
   elements larger than the tile buffer), skinny shapes with and without a tail of rows, the
   n x 8 slots, the gcd path, C2R and R2C with gcd 1 and > 1, each with work == NULL and with
   a caller workspace of exactly tpose_inplace_workspace bytes (misaligned, guarded), then with
   a workspace that holds one thread's parts only, and with an allocator that fails. Small
   shapes form teams because the test lowers tune thread_share (the implementation is
   included for that); shapes of several MB form them at the library's own threshold. Calls
   from inside the caller's parallel region must run alone. Without OpenMP every case runs on
   one thread and must pass the same. */
#include <stdlib.h>

static size_t tt_alloc_peak;
static int tt_alloc_fail;

static void *tt_counting_malloc(size_t bytes)
{
    if (bytes > tt_alloc_peak) tt_alloc_peak = bytes;
    return tt_alloc_fail ? NULL : malloc(bytes);
}

#define TPOSE_MALLOC(bytes)  tt_counting_malloc(bytes)
#define TPOSE_FREE(ptr)      free(ptr)
#define TPOSEI_SLOT_MIN_ROWS 64 /* n x 8 doubles take the slot path from 64 rows */
#define TPOSE_IMPLEMENTATION
#include "transpose_inplace.h"
#include "tpose_test.h"

enum work_mode { WORK_EXACT, WORK_NULL, WORK_ONE_THREAD, WORK_MALLOC_FAILS, WORK_MODES };
static const char *const mode_names[] = {"exact work", "work NULL", "one thread's work",
                                         "malloc fails"};

/* Cases per path (tposei_ip_path; C2R counted under CKG, R2C one past the last path) and
   how many of them ran on a team. */
#define N_PATHS 7
static const char *const path_names[N_PATHS] = {"nothing", "square", "skinny", "slots",
                                                "gcd",     "c2r",    "r2c"};
static long path_cases[N_PATHS], path_teams[N_PATHS];

static size_t threads_now = 1; /* the tpose_set_threads setting in force */

static int guards_intact(const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != TT_GUARD) return 0;
    return 1;
}

/* The team the library forms for `bytes` (one without OpenMP). */
static size_t team_for(size_t bytes, size_t esize)
{
    return tposei_kit_get(esize).team(bytes);
}

static int path_of(size_t rows, size_t cols, size_t esize, size_t *one_thread_work)
{
    tposei_ip_plan pl;
    if (!tposei_ip_choose(&pl, rows, cols, esize)) return 0;
    *one_thread_work = pl.total;
    return pl.path == TPOSEI_IP_CKG && rows < cols ? N_PATHS - 1 : (int)pl.path;
}

/* One tpose_inplace of a random rows x cols matrix, checked byte for byte, with guard bytes
   around the matrix and the workspace. */
static void check_shape(size_t rows, size_t cols, size_t esize, enum work_mode mode)
{
    const size_t bytes = rows * cols * esize, need = tpose_inplace_workspace(rows, cols, esize);
    const size_t mis = (rows + 3 * cols) % 61;
    size_t one = 0, give = need, at;
    const int path = path_of(rows, cols, esize, &one);
    unsigned char *buf = (unsigned char *)tt_alloc(bytes + 2 * TT_PAD);
    unsigned char *want = (unsigned char *)tt_alloc(bytes), *m = buf + TT_PAD;
    unsigned char *wbuf = NULL, *w = NULL;
    tpose_status st;
    if (mode == WORK_ONE_THREAD) give = one;
    if (mode == WORK_EXACT || mode == WORK_ONE_THREAD) {
        wbuf = (unsigned char *)tt_alloc(mis + give + TT_PAD);
        memset(wbuf, TT_GUARD, mis + give + TT_PAD);
        w = wbuf + mis;
    }
    memset(buf, TT_GUARD, bytes + 2 * TT_PAD);
    tt_fill_random(m, bytes);
    tt_reference(want, rows, m, cols, rows, cols, esize);
    TT_CHECK(need >= one, "%zux%zu esize %zu: workspace %zu below one thread's %zu", rows, cols,
             esize, need, one);
    tt_alloc_peak = 0;
    tt_alloc_fail = mode == WORK_MALLOC_FAILS;
    st = tpose_inplace(m, rows, cols, esize, w, give);
    tt_alloc_fail = 0;
    at = st == TPOSE_OK ? tt_first_diff(want, m, bytes) : 0;
    TT_CHECK(st == TPOSE_OK && at == (size_t)-1,
             "%zux%zu esize %zu, %zu threads, %s, path %s: status %d, byte %zu differs", rows, cols,
             esize, threads_now, mode_names[mode], path_names[path], (int)st, at);
    TT_CHECK(guards_intact(buf, TT_PAD) && guards_intact(m + bytes, TT_PAD),
             "%zux%zu esize %zu, %zu threads, %s: wrote outside the matrix", rows, cols, esize,
             threads_now, mode_names[mode]);
    if (w)
        TT_CHECK(guards_intact(wbuf, mis) && guards_intact(w + give, TT_PAD),
                 "%zux%zu esize %zu, %zu threads, %s: wrote outside %zu workspace bytes", rows,
                 cols, esize, threads_now, mode_names[mode], give);
    TT_CHECK(tt_alloc_peak <= need, "%zux%zu esize %zu: allocated %zu > workspace %zu", rows, cols,
             esize, tt_alloc_peak, need);
    if (mode == WORK_EXACT && one) { /* a byte short of one thread's parts is an error */
        TT_CHECK(tpose_inplace(m, rows, cols, esize, w, one - 1) == TPOSE_ERR_WORKSPACE &&
                     tt_first_diff(want, m, bytes) == (size_t)-1,
                 "%zux%zu esize %zu: %zu workspace bytes accepted", rows, cols, esize, one - 1);
    }
    if (mode == WORK_EXACT) {
        path_cases[path]++;
        path_teams[path] += team_for(bytes, esize) > 1;
    }
    free(wbuf);
    free(want);
    free(buf);
}

static void check_all_modes(size_t rows, size_t cols, size_t esize)
{
    int mode;
    for (mode = 0; mode < WORK_MODES; mode++) check_shape(rows, cols, esize, (enum work_mode)mode);
}

/* The n x n block at ld > n: every element outside it untouched. */
static void check_square(size_t n, size_t ld, size_t esize)
{
    const size_t bytes = ((n - 1) * ld + n) * esize;
    unsigned char *buf = (unsigned char *)tt_alloc(bytes + 2 * TT_PAD);
    unsigned char *want = (unsigned char *)tt_alloc(bytes), *m = buf + TT_PAD;
    size_t at;
    tpose_status s;
    memset(buf, TT_GUARD, bytes + 2 * TT_PAD);
    tt_fill_random(m, bytes);
    memcpy(want, m, bytes); /* the gaps between the block's rows stay as they are */
    tt_reference(want, ld, m, ld, n, n, esize);
    s = tpose_inplace_square(m, n, ld, esize);
    at = tt_first_diff(want, m, bytes);
    TT_CHECK(s == TPOSE_OK && at == (size_t)-1,
             "square %zu ld %zu esize %zu, %zu threads: status %d, byte %zu differs", n, ld, esize,
             threads_now, (int)s, at);
    TT_CHECK(guards_intact(buf, TT_PAD) && guards_intact(m + bytes, TT_PAD),
             "square %zu ld %zu esize %zu: wrote outside the block", n, ld, esize);
    if (ld == n) {
        path_cases[TPOSEI_IP_SQUARE]++;
        path_teams[TPOSEI_IP_SQUARE] += team_for(n * n * esize, esize) > 1;
    }
    free(want);
    free(buf);
}

static const size_t esizes[] = {1, 2, 4, 8, 16, 3, 12};
#define N_ESIZES (sizeof esizes / sizeof *esizes)

/* Small shapes, on teams only because thread_share is lowered: every tile and super-block
   edge of the square walk (tiles of 512 bytes or 16 KiB, 8 x 8 tiles a super-block), and
   one shape or two per rectangular path. */
static void small_shapes(void)
{
    static const size_t squares[] = {2, 7, 31, 64, 65, 127, 129, 257, 300, 520};
    static const size_t rects[][2] = {
        {257, 300}, {300, 257}, /* gcd 1: C2R / R2C with strided row shuffles */
        {360, 300}, {300, 360}, /* gcd 60: C2R / R2C for small elements, else the gcd path */
        {1000, 40}, {40, 1000}, /* one column group, cut on cache lines */
        {640, 384}, {384, 640}, /* gcd 128 */
        {4099, 5},  {5, 4099},  /* skinny with a tail of rows */
        {4096, 6},  {6, 4096},  /* skinny, blocks dividing the long side */
        {2000, 32}, {32, 2000}, /* skinny at its widest */
        {800, 8},   {8, 800}};  /* n x 8: slots for 8-byte elements */
    size_t i, e;
    for (e = 0; e < N_ESIZES; e++) {
        for (i = 0; i < sizeof squares / sizeof *squares; i++) {
            check_square(squares[i], squares[i], esizes[e]);
            check_square(squares[i], squares[i] + 3, esizes[e]);
        }
        for (i = 0; i < sizeof rects / sizeof *rects; i++)
            check_all_modes(rects[i][0], rects[i][1], esizes[e]);
    }
    check_square(9, 11, 20000); /* elements beyond the tile buffer */
}

/* Shapes of 1-6 MB: teams at the library's own thread_share (a quarter of L2). */
static void large_shapes(void)
{
    static const size_t rects[][3] = {
        {1201, 1000, 4}, {1000, 1201, 4}, /* C2R / R2C, gcd 1 */
        {1200, 1010, 2}, {1010, 1200, 2}, /* gcd 10: C2R / R2C with c > 1 */
        {1280, 1024, 4}, {1024, 1280, 4}, /* gcd path */
        {200003, 5, 4},  {5, 200003, 4},  /* skinny, prime long side: a tail */
        {131072, 7, 2},  {7, 131072, 2},  /* skinny without a tail */
        {65536, 8, 8},   {8, 65536, 8},   /* slots */
        {700, 600, 12},  {600, 700, 12}}; /* other element sizes: gcd 100 */
    size_t i;
    for (i = 0; i < sizeof rects / sizeof *rects; i++) {
        check_shape(rects[i][0], rects[i][1], rects[i][2], WORK_EXACT);
        check_shape(rects[i][0], rects[i][1], rects[i][2], WORK_NULL);
    }
    check_shape(1201, 1000, 4, WORK_ONE_THREAD);
    check_shape(200003, 5, 4, WORK_ONE_THREAD);
    check_square(1024, 1024, 4);
    check_square(1500, 1501, 2);
    check_square(700, 700, 8);
    check_square(600, 600, 3);
}

#if TPOSEI_OPENMP
/* Called inside the caller's parallel region, every call runs alone: a team of its own
   would nest, and a barrier of the library's would bind to the caller's region. */
static void inside_a_region(void)
{
    int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        const size_t t = (size_t)omp_get_thread_num(), rows = 1201 + t, cols = 1000, e = 4;
        const size_t bytes = rows * cols * e;
        unsigned char *m = (unsigned char *)tt_alloc(bytes),
                      *want = (unsigned char *)tt_alloc(bytes);
        size_t k;
        for (k = 0; k < bytes; k++) m[k] = (unsigned char)(k * 7 + t);
        tt_reference(want, rows, m, cols, rows, cols, e);
        bad += tpose_inplace(m, rows, cols, e, NULL, 0) != TPOSE_OK ||
               tt_first_diff(want, m, bytes) != (size_t)-1;
        memcpy(want, m, bytes); /* then its first 1000 x 1000 block, ld rows */
        tt_reference(want, rows, m, rows, cols, cols, e);
        bad += tpose_inplace_square(m, cols, rows, e) != TPOSE_OK ||
               tt_first_diff(want, m, bytes) != (size_t)-1;
        bad += team_for((size_t)1 << 40, e) != 1;
        free(want);
        free(m);
    }
    TT_CHECK(bad == 0, "%d calls inside a parallel region failed", bad);
}
#endif

/* Every path met, and on a team where the library has threads. */
static void check_coverage(void)
{
    int p;
    for (p = 1; p < N_PATHS; p++) {
        TT_CHECK(path_cases[p] > 0, "%zu threads: no case took the %s path", threads_now,
                 path_names[p]);
        TT_CHECK(!TPOSEI_OPENMP || path_teams[p] > 0, "%zu threads: no %s case on a team",
                 threads_now, path_names[p]);
        path_cases[p] = path_teams[p] = 0;
    }
}

int main(void)
{
    const size_t share = tposei_tune_get()->thread_share;
    size_t n;
    for (n = 2; n <= 4; n++) {
        const tpose_status st = tpose_set_threads(n);
        TT_CHECK(st == (TPOSEI_OPENMP ? TPOSE_OK : TPOSE_ERR_UNSUPPORTED),
                 "tpose_set_threads(%zu): %d", n, (int)st);
        threads_now = tpose_get_threads();
        tposei_context_store.tune.thread_share = 1024; /* small shapes form teams */
        small_shapes();
        tposei_context_store.tune.thread_share = share;
        large_shapes();
        check_coverage();
    }
#if TPOSEI_OPENMP
    tpose_set_threads(4);
    inside_a_region();
#endif
    return tt_finish("test_inplace_teams");
}
