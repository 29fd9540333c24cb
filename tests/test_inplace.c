/* test_inplace.c - the in-place API against the byte-by-byte reference: every shape up to
   41 x 41 and chosen larger ones (gcd 1 and > 1, primes, powers of two, skinny n x 2, 3, 8
   and their transposes) for element sizes 1, 2, 3, 4, 8, 12 and 16, each with a caller
   workspace (misaligned, guarded), with work == NULL, and with an allocator that fails;
   a counting allocator proves no request exceeds tpose_inplace_workspace(); round trips;
   every error leaves the matrix untouched; square blocks with ld > n; plans reused. */
#include <stdlib.h>

static size_t tt_alloc_peak, tt_alloc_live, tt_alloc_calls;
static int tt_alloc_fail;

static void *tt_counting_malloc(size_t bytes)
{
    void *p;
    tt_alloc_calls++;
    if (bytes > tt_alloc_peak) tt_alloc_peak = bytes;
    if (tt_alloc_fail) return NULL;
    p = malloc(bytes);
    if (p) tt_alloc_live++;
    return p;
}

static void tt_counting_free(void *p)
{
    if (p) tt_alloc_live--;
    free(p);
}

#define TPOSE_MALLOC(bytes) tt_counting_malloc(bytes)
#define TPOSE_FREE(ptr)     tt_counting_free(ptr)
/* n x 8 doubles take the slot path from 64 rows here (65536 in the library), so that small
   shapes cross every edge of it. */
#define TPOSEI_SLOT_MIN_ROWS 64
#include <assert.h>
#define TPOSE_ASSERT(x) assert(x) /* the library's internal preconditions, checked */
#define TPOSE_INPLACE_IMPLEMENTATION /* transpose.h's implementation is linked in */
#include "transpose_inplace.h"
#include "tpose_test.h"

static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16};
#define N_ESIZES (sizeof esizes / sizeof *esizes)

enum work_mode { WORK_CALLER, WORK_NULL, WORK_MALLOC_FAILS, WORK_MODES };
static const char *const mode_names[] = {"caller work", "work NULL", "malloc fails"};

static long path_hits[6];

/* Guarded arenas grown on demand. */
static unsigned char *mat_buf, *want_buf, *orig_buf, *work_buf;
static size_t mat_cap, want_cap, orig_cap, work_cap;

static unsigned char *grow(unsigned char *p, size_t *cap, size_t need)
{
    if (need <= *cap) return p;
    free(p);
    *cap = need * 2;
    return (unsigned char *)tt_alloc(*cap);
}

static int guards_intact(const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != TT_GUARD) return 0;
    return 1;
}

/* One in-place transpose of a random rows x cols matrix, checked byte for byte against
   the reference, with guard bytes before and after the matrix and after the workspace. */
static void check_shape(size_t rows, size_t cols, size_t esize, enum work_mode mode)
{
    const size_t bytes = rows * cols * esize, need = tpose_inplace_workspace(rows, cols, esize);
    const size_t work_off = (rows + cols) % 61; /* misaligned workspace */
    unsigned char *m, *w = NULL;
    tposei_ip_plan pl;
    tpose_status st;
    size_t at;
    mat_buf = grow(mat_buf, &mat_cap, bytes + 2 * TT_PAD);
    want_buf = grow(want_buf, &want_cap, bytes + 1);
    m = mat_buf + TT_PAD;
    memset(mat_buf, TT_GUARD, bytes + 2 * TT_PAD);
    tt_fill_random(m, bytes);
    tt_reference(want_buf, rows, m, cols, rows, cols, esize);
    if (tposei_ip_choose(&pl, rows, cols, esize)) path_hits[pl.path]++;
    if (mode == WORK_CALLER) {
        work_buf = grow(work_buf, &work_cap, need + work_off + TT_PAD);
        w = work_buf + work_off;
        memset(work_buf, TT_GUARD, need + work_off + TT_PAD);
    }
    tt_alloc_fail = mode == WORK_MALLOC_FAILS;
    tt_alloc_peak = 0;
    st = tpose_inplace(m, rows, cols, esize, w, need);
    tt_alloc_fail = 0;
    TT_CHECK(st == TPOSE_OK, "%zux%zu esize %zu %s: status %d", rows, cols, esize, mode_names[mode],
             (int)st);
    at = tt_first_diff(want_buf, m, bytes);
    TT_CHECK(at == (size_t)-1, "%zux%zu esize %zu %s (path %d): byte %zu differs", rows, cols,
             esize, mode_names[mode], (int)pl.path, at);
    TT_CHECK(guards_intact(mat_buf, TT_PAD) && guards_intact(m + bytes, TT_PAD),
             "%zux%zu esize %zu %s: wrote outside the matrix", rows, cols, esize, mode_names[mode]);
    if (mode == WORK_CALLER)
        TT_CHECK(guards_intact(work_buf, work_off) && guards_intact(w + need, TT_PAD),
                 "%zux%zu esize %zu: wrote outside the %zu workspace bytes", rows, cols, esize,
                 need);
    TT_CHECK(tt_alloc_peak <= need, "%zux%zu esize %zu: allocated %zu > workspace %zu", rows, cols,
             esize, tt_alloc_peak, need);
    TT_CHECK(tt_alloc_live == 0, "%zux%zu esize %zu: %zu allocations not freed", rows, cols, esize,
             tt_alloc_live);
}

static void check_all_modes(size_t rows, size_t cols, size_t esize)
{
    int mode;
    for (mode = 0; mode < WORK_MODES; mode++) check_shape(rows, cols, esize, (enum work_mode)mode);
}

static void exhaustive_small(void)
{
    size_t r, c, e;
    for (e = 0; e < N_ESIZES; e++)
        for (r = 1; r <= 41; r++)
            for (c = 1; c <= 41; c++) check_all_modes(r, c, esizes[e]);
}

/* Larger shapes that reach every path: gcd 1 and > 1, primes, powers of two, skinny. */
static void chosen_shapes(void)
{
    static const size_t shapes[][2] = {
        {64, 96},   {96, 160},  {128, 192}, {257, 131}, {127, 509}, {256, 128}, {512, 64},
        {200, 300}, {300, 200}, {1000, 3},  {3, 1000},  {999, 2},   {2, 999},   {1024, 8},
        {8, 1024},  {1001, 8},  {8, 1001},  {4000, 3},  {3, 4001},  {333, 33},  {33, 333},
        {97, 89},   {60, 84},   {84, 60},   {45, 105},  {768, 40},  {40, 768},  {130, 65},
        {65, 130},  {1000, 31}, {31, 1000}, {250, 32},  {32, 250},  {170, 34},  {34, 170},
        {600, 900}, {900, 600}, /* gcd chunks of 300 x 16 bytes: larger than the carry */
        {4099, 5},  {5, 4099}}; /* prime long side: skinny with a tail of rows */
    size_t s, e;
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (e = 0; e < N_ESIZES; e++) check_all_modes(shapes[s][0], shapes[s][1], esizes[e]);
}

/* Elements wider than a cache line: each one a chunk of its own (the gcd path with g = 1),
   5000 bytes larger than the carry buffer, so they travel in pieces. */
static void wide_elements(void)
{
    static const size_t shapes[][2] = {{37, 41}, {41, 37}, {30, 30}, {100, 3},
                                       {3, 100}, {64, 96}, {96, 64}, {35, 33}};
    static const size_t wide[] = {72, 130, 5000};
    size_t s, e;
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (e = 0; e < sizeof wide / sizeof *wide; e++)
            check_all_modes(shapes[s][0], shapes[s][1], wide[e]);
}

/* Random shapes up to a few hundred on each side, every element size. */
static void random_shapes(void)
{
    int k;
    for (k = 0; k < 150; k++) {
        const size_t rows = 1 + tt_rand_below(k < 100 ? 400 : 5000);
        const size_t cols = 1 + tt_rand_below(k < 100 ? 400 : 40);
        const size_t esize = esizes[tt_rand_below(N_ESIZES)];
        if (k & 1)
            check_all_modes(rows, cols, esize);
        else
            check_all_modes(cols, rows, esize);
    }
}

/* Transposing twice gives back the original bytes; odd element sizes too. */
static void round_trips(void)
{
    static const size_t shapes[][3] = {{37, 91, 5},  {300, 7, 24}, {128, 96, 4}, {77, 1, 8},
                                       {1000, 3, 2}, {41, 40, 1},  {66, 99, 20}, {3, 5000, 8}};
    size_t s;
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        const size_t r = shapes[s][0], c = shapes[s][1], e = shapes[s][2], bytes = r * c * e;
        unsigned char *m = (unsigned char *)tt_alloc(bytes), *o = (unsigned char *)tt_alloc(bytes);
        tt_fill_random(m, bytes);
        memcpy(o, m, bytes);
        TT_CHECK(tpose_inplace(m, r, c, e, NULL, 0) == TPOSE_OK, "round trip there");
        TT_CHECK(tpose_inplace(m, c, r, e, NULL, 0) == TPOSE_OK, "round trip back");
        TT_CHECK(memcmp(m, o, bytes) == 0, "%zux%zu esize %zu: round trip differs", r, c, e);
        free(m);
        free(o);
    }
}

/* A call that must fail with `want` and leave every byte of the arena as it was. */
static unsigned char arena[4096], snapshot[4096];

static void expect_inplace(tpose_status want, void *a, size_t rows, size_t cols, size_t esize,
                           void *work, size_t work_bytes, const char *what)
{
    tpose_status got;
    memcpy(snapshot, arena, sizeof arena);
    tt_alloc_calls = 0;
    got = tpose_inplace(a, rows, cols, esize, work, work_bytes);
    TT_CHECK(got == want, "%s: got %d (%s), want %d", what, (int)got, tpose_status_str(got),
             (int)want);
    TT_CHECK(memcmp(snapshot, arena, sizeof arena) == 0, "%s: memory changed", what);
    TT_CHECK(want == TPOSE_OK || tt_alloc_calls == 0, "%s: allocated before failing", what);
}

static void errors_leave_matrix_untouched(void)
{
    const size_t huge = (size_t)-1;
    unsigned char *a = arena, *w = arena + 2048;
    size_t need;
    tt_fill_random(arena, sizeof arena);
    need = tpose_inplace_workspace(30, 50, 1);
    TT_CHECK(need > 0 && need <= 2048, "workspace of 30x50 bytes: %zu", need);
    expect_inplace(TPOSE_ERR_ESIZE, a, 30, 50, 0, w, need, "esize 0");
    expect_inplace(TPOSE_ERR_NULL, NULL, 30, 50, 1, w, need, "NULL matrix");
    expect_inplace(TPOSE_ERR_WORKSPACE, a, 30, 50, 1, w, need - 1, "workspace one byte short");
    expect_inplace(TPOSE_ERR_WORKSPACE, a, 30, 50, 1, w, 0, "workspace of 0 bytes");
    expect_inplace(TPOSE_ERR_OVERFLOW, a, huge, 3, 1, NULL, 0, "rows * cols overflows");
    expect_inplace(TPOSE_ERR_OVERFLOW, a, huge / 4, 1, 8, NULL, 0, "one column, bytes overflow");
    expect_inplace(TPOSE_ERR_OVERFLOW, a, huge / 2, 2, 2, NULL, 0, "elements * esize overflows");
    expect_inplace(TPOSE_ERR_OVERFLOW, a, 4, 4, huge / 16 - 1, NULL, 0,
                   "runs past the address space");
    expect_inplace(TPOSE_OK, NULL, 0, 50, 1, NULL, 0, "0 rows, NULL");
    expect_inplace(TPOSE_OK, a, 30, 0, 4, NULL, 0, "0 cols");
    TT_CHECK(tpose_inplace_workspace(huge, huge, 1) == huge, "overflowing workspace is SIZE_MAX");
    TT_CHECK(tpose_inplace_workspace(64, 64, 4) == 0, "square needs no workspace");
    TT_CHECK(tpose_inplace_workspace(1, 1000, 4) == 0, "one row needs no workspace");
    TT_CHECK(tpose_inplace_workspace(5, 7, 0) == 0, "esize 0 needs none");

    memcpy(snapshot, arena, sizeof arena);
    TT_CHECK(tpose_inplace_square(a, 10, 9, 1) == TPOSE_ERR_LD, "square ld < n");
    TT_CHECK(tpose_inplace_square(NULL, 10, 10, 1) == TPOSE_ERR_NULL, "square NULL");
    TT_CHECK(tpose_inplace_square(a, 10, 10, 0) == TPOSE_ERR_ESIZE, "square esize 0");
    TT_CHECK(tpose_inplace_square(a, 3, huge / 2, 4) == TPOSE_ERR_OVERFLOW, "square ld overflows");
    TT_CHECK(tpose_inplace_square(NULL, 0, 0, 4) == TPOSE_OK, "square empty");
    /* 1 x 1 with any ld is valid and unchanged; no walk may form a pointer from that ld */
    TT_CHECK(tpose_inplace_square(a, 1, huge / 3, 3) == TPOSE_OK, "square 1 x 1, huge ld");
    TT_CHECK(memcmp(snapshot, arena, sizeof arena) == 0, "square errors changed memory");
}

/* n x n blocks inside a wider ld: the block is transposed, the columns beyond it kept. */
/* The slot path (n x 8 doubles, both ways): every long side from 64 to 384 rows, long sides
   that end inside the SIMD driver's page-run group, after a pair, after a chunk and in its
   scalar tail, and the same with the SIMD kernels limited away (the portable region loop).
   The plan itself must move each block to its final slot (checked by the result) with
   s(s+1)/2 = 36 slot copies for 8 regions, none spent on moving a block out of the way. */
static void slots(void)
{
    static const size_t longs[] = {8 * (2048 + 8), 8 * (2048 + 16 + 8 + 3), 8 * 4096};
    tposei_slot_plan pl;
    unsigned k, moves = 0;
    size_t n, l;
    tposei_slot_plan_make(&pl);
    for (k = 0; k < pl.n; k++) moves += pl.op[k].kind == 1;
    TT_CHECK(moves == 36, "slot plan: %u block copies, 36 expected", moves);
    for (n = 64; n <= 384; n += 8) {
        check_all_modes(n, 8, 8);
        check_all_modes(8, n, 8);
    }
    for (l = 0; l < sizeof longs / sizeof *longs; l++) {
        check_all_modes(longs[l], 8, 8);
        check_all_modes(8, longs[l], 8);
    }
    tpose_kernel_limit(TPOSE_KERNEL_SWAR);
    check_all_modes(longs[1], 8, 8);
    check_all_modes(8, longs[1], 8);
    tpose_kernel_limit(TPOSE_KERNEL_AUTO);
}

static void check_square(size_t n, size_t ld, size_t es);

/* Sizes crossing every tile edge, then sizes spanning several super-blocks of tiles. */
static void square_with_ld(void)
{
    static const size_t big[] = {300, 515, 600, 1030, 1300};
    size_t n, extra, e, k;
    for (e = 0; e < N_ESIZES; e++)
        for (n = 1; n <= 140; n += (n < 70 ? 1 : 23))
            for (extra = 0; extra <= 5; extra += 5) check_square(n, n + extra, esizes[e]);
    for (k = 0; k < sizeof big / sizeof *big; k++)
        for (e = 0; e < N_ESIZES; e++) check_square(big[k], big[k] + 3 * (k & 1), esizes[e]);
}

/* The square path with the register tile-pair kernels where this CPU has them (AVX2), then
   limited to the portable kernels: the element swaps (8, 16 bytes) and the buffer. */
static void square_every_kernel(void)
{
    square_with_ld();
    tpose_kernel_limit(TPOSE_KERNEL_SWAR);
    TT_CHECK(tposei_ip_swapper_pick(4).fn == NULL, "the kernel limit must stop register pairs");
    square_with_ld();
    tpose_kernel_limit(TPOSE_KERNEL_AUTO);
}

static void check_square(size_t n, size_t ld, size_t es)
{
    const size_t bytes = n * ld * es;
    size_t r;
    mat_buf = grow(mat_buf, &mat_cap, bytes);
    orig_buf = grow(orig_buf, &orig_cap, bytes);
    want_buf = grow(want_buf, &want_cap, bytes);
    tt_fill_random(mat_buf, bytes);
    memcpy(orig_buf, mat_buf, bytes);
    memcpy(want_buf, mat_buf, bytes); /* the columns beyond n stay as they are */
    tt_reference(want_buf, ld, orig_buf, ld, n, n, es);
    TT_CHECK(tpose_inplace_square(mat_buf, n, ld, es) == TPOSE_OK, "square status");
    for (r = 0; r < n; r++)
        TT_CHECK(memcmp(mat_buf + r * ld * es, want_buf + r * ld * es, ld * es) == 0,
                 "square n %zu ld %zu esize %zu: row %zu", n, ld, es, r);
}

/* A plan made once transposes many matrices; the transposed shape's plan brings them
   back. Bad plans and short buffers are refused without writing. */
static void plans(void)
{
    static const size_t shapes[][2] = {{256, 2}, {7, 2}, {2, 7}, {13, 17}, {64, 48},
                                       {1, 9},   {9, 9}, {5, 0}, {100, 3}};
    size_t s, e, k;
    for (s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        const size_t r = shapes[s][0], c = shapes[s][1];
        const size_t pb = tpose_plan_bytes(r, c), qb = tpose_plan_bytes(c, r);
        unsigned char *plan = (unsigned char *)tt_alloc(pb + 1) + 1; /* misaligned */
        unsigned char *back = (unsigned char *)tt_alloc(qb);
        TT_CHECK(pb >= 32, "plan bytes %zu", pb);
        TT_CHECK(tpose_plan_init(plan, pb - 1, r, c) == TPOSE_ERR_WORKSPACE, "short plan");
        TT_CHECK(tpose_plan_init(plan, pb, r, c) == TPOSE_OK, "plan %zux%zu", r, c);
        TT_CHECK(tpose_plan_init(back, qb, c, r) == TPOSE_OK, "plan back %zux%zu", c, r);
        for (e = 0; e < N_ESIZES; e++)
            for (k = 0; k < 3; k++) {
                const size_t bytes = r * c * esizes[e];
                unsigned char *m = (unsigned char *)tt_alloc(bytes),
                              *o = (unsigned char *)tt_alloc(bytes),
                              *w = (unsigned char *)tt_alloc(bytes);
                tt_fill_random(m, bytes);
                memcpy(o, m, bytes);
                tt_reference(w, r, o, c, r, c, esizes[e]);
                TT_CHECK(tpose_plan_apply(plan, m, esizes[e]) == TPOSE_OK, "apply");
                TT_CHECK(memcmp(m, w, bytes) == 0, "plan %zux%zu esize %zu, use %zu", r, c,
                         esizes[e], k);
                TT_CHECK(tpose_plan_apply(back, m, esizes[e]) == TPOSE_OK, "apply back");
                TT_CHECK(memcmp(m, o, bytes) == 0, "plan back %zux%zu esize %zu", c, r, esizes[e]);
                free(m);
                free(o);
                free(w);
            }
        free(plan - 1);
        free(back);
    }
    memset(arena, 0, 64);
    TT_CHECK(tpose_plan_apply(arena, arena + 64, 1) == TPOSE_ERR_ARG, "plan never initialised");
    TT_CHECK(tpose_plan_apply(NULL, arena, 1) == TPOSE_ERR_NULL, "NULL plan");
    TT_CHECK(tpose_plan_init(NULL, 100, 2, 2) == TPOSE_ERR_NULL, "init NULL plan");
    TT_CHECK(tpose_plan_init(arena, 4096, (size_t)-1, 3) == TPOSE_ERR_OVERFLOW, "init overflow");
    TT_CHECK(tpose_plan_bytes((size_t)-1, 3) == 0, "plan bytes overflow");
    TT_CHECK(tpose_plan_init(arena, 4096, 4, 3) == TPOSE_OK, "init 4x3");
    TT_CHECK(tpose_plan_apply(arena, arena + 256, 0) == TPOSE_ERR_ESIZE, "apply esize 0");
    TT_CHECK(tpose_plan_apply(arena, NULL, 4) == TPOSE_ERR_NULL, "apply NULL matrix");
}

/* The strength-reduced division is exact across the 64-bit range. */
static void division(void)
{
    static const uint64_t divisors[] = {1,
                                        2,
                                        3,
                                        7,
                                        10,
                                        641,
                                        65535,
                                        65537,
                                        4294967295u,
                                        4294967297ull,
                                        0x8000000000000000ull,
                                        UINT64_MAX};
    size_t d;
    int k;
    for (d = 0; d < sizeof divisors / sizeof *divisors; d++) {
        const tposei_div v = tposei_div_make(divisors[d]);
        for (k = 0; k < 2000; k++) {
            const uint64_t x = k < 8    ? UINT64_MAX - (uint64_t)k
                               : k < 16 ? (uint64_t)k
                                        : tt_rand() >> (k % 64);
            uint64_t r, q = tposei_divmod(&v, x, &r);
            TT_CHECK(q == x / divisors[d] && r == x % divisors[d], "%llu / %llu",
                     (unsigned long long)x, (unsigned long long)divisors[d]);
        }
    }
}

int main(void)
{
#ifdef TT_OPENMP_TEAMS /* the OpenMP build: every large case on a team */
    tpose_set_threads(0);
#endif
    division();
    exhaustive_small();
    chosen_shapes();
    random_shapes();
    wide_elements();
    round_trips();
    errors_leave_matrix_untouched();
    square_every_kernel();
    plans();
    slots();
    TT_CHECK(path_hits[TPOSEI_IP_SQUARE] && path_hits[TPOSEI_IP_SKINNY] &&
                 path_hits[TPOSEI_IP_SLOTS] && path_hits[TPOSEI_IP_GCD] && path_hits[TPOSEI_IP_CKG],
             "a path was never exercised: square %ld skinny %ld slots %ld gcd %ld ckg %ld",
             path_hits[TPOSEI_IP_SQUARE], path_hits[TPOSEI_IP_SKINNY], path_hits[TPOSEI_IP_SLOTS],
             path_hits[TPOSEI_IP_GCD], path_hits[TPOSEI_IP_CKG]);
    free(mat_buf);
    free(want_buf);
    free(orig_buf);
    free(work_buf);
    return tt_finish("test_inplace");
}
