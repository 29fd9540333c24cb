/* test_threads.c - the task API and the thread setting. Every share of tpose_matrix_task and
   tpose_permute_plan_apply_task runs alone into two destinations pre-filled with different
   sentinels, so the bytes it writes are known exactly: no byte may be written by two shares,
   none missed, none outside the result, each equal to the one-thread result; then all shares
   at once on pthreads. Built with OpenMP too (TT_OPENMP): the one-thread entry points on
   teams of 2-4 threads, every kernel and element size, against the same results. The
   implementation is included here so the test can lower tune thread_share and make small
   matrices form teams. */
#define TPOSE_IMPLEMENTATION
#include "transpose_tensor.h"
#include "tpose_test.h"

#include <pthread.h>

#define SENT_A 0x00
#define SENT_B 0xFF
#define MAX_TASKS 9

static long case_no; /* cycles the misalignments */

/* What a check runs: a matrix (rows x cols, lds) or a plan, from `src` into a destination of
   `dst_bytes` at `mis` bytes past a 64-byte boundary. */
typedef struct target {
    const unsigned char *src;
    size_t dst_bytes, mis;
    size_t rows, cols, esize, dst_ld, src_ld; /* a matrix */
    const void *plan;                         /* or a plan */
} target;

/* Share `task` of `ntasks`; ntasks 0 is the one-thread call. */
static tpose_status run_share(const target *t, unsigned char *dst, size_t task, size_t ntasks)
{
    if (t->plan) {
        return ntasks ? tpose_permute_plan_apply_task(t->plan, dst, t->src, task, ntasks)
                      : tpose_permute_plan_apply(t->plan, dst, t->src);
    }
    return ntasks ? tpose_matrix_task(dst, t->dst_ld, t->src, t->src_ld, t->rows, t->cols,
                                      t->esize, task, ntasks)
                  : tpose_matrix(dst, t->dst_ld, t->src, t->src_ld, t->rows, t->cols, t->esize);
}

/* A destination buffer: the target's bytes with TT_PAD guard bytes on both sides. */
typedef struct dbuf {
    unsigned char *raw, *dst;
    size_t len; /* guard + destination + guard */
} dbuf;

static void dbuf_make(dbuf *b, const target *t)
{
    b->len = t->dst_bytes + 2 * TT_PAD;
    b->raw = (unsigned char *)tt_alloc(b->len + 128);
    b->dst = b->raw + (64 - (uintptr_t)b->raw % 64) % 64 + t->mis; /* the guard starts here */
}

static void dbuf_fill(dbuf *b, int byte) { memset(b->dst, byte, b->len); }

/* Runs share task/ntasks (or the whole) into b filled with `byte`. */
static void run_into(const target *t, dbuf *b, int byte, size_t task, size_t ntasks)
{
    tpose_status st;
    dbuf_fill(b, byte);
    st = run_share(t, b->dst + TT_PAD, task, ntasks);
    TT_CHECK(st == TPOSE_OK, "share %zu of %zu: %s", task, ntasks, tpose_status_str(st));
}

/* The one-thread result in `want` (sentinel A) and the bytes it writes in `mask`. */
static void one_thread(const target *t, dbuf *want, dbuf *other, unsigned char *mask)
{
    size_t i;
    run_into(t, want, SENT_A, 0, 0);
    run_into(t, other, SENT_B, 0, 0);
    for (i = 0; i < want->len; i++) mask[i] = want->dst[i] != SENT_A || other->dst[i] != SENT_B;
    for (i = 0; i < TT_PAD; i++) {
        TT_CHECK(!mask[i] && !mask[want->len - 1 - i], "the one-thread call wrote a guard byte");
        if (mask[i] || mask[want->len - 1 - i]) break;
    }
}

/* Every share alone: what it writes is one-thread bytes, and the shares together write each
   of them once. */
static void shares_alone(const target *t, const dbuf *want, const unsigned char *mask,
                         size_t ntasks, const char *what)
{
    dbuf a, b;
    unsigned char *count = (unsigned char *)tt_alloc(want->len);
    size_t task, i, bad = 0;
    dbuf_make(&a, t);
    dbuf_make(&b, t);
    memset(count, 0, want->len);
    for (task = 0; task < ntasks; task++) {
        run_into(t, &a, SENT_A, task, ntasks);
        run_into(t, &b, SENT_B, task, ntasks);
        for (i = 0; i < want->len; i++) {
            if (a.dst[i] == SENT_A && b.dst[i] == SENT_B) continue;
            count[i]++;
            if (a.dst[i] != want->dst[i] || b.dst[i] != want->dst[i]) bad++;
        }
    }
    TT_CHECK(bad == 0, "%s, %zu tasks: %zu bytes differ from the one-thread result", what, ntasks,
             bad);
    for (i = 0; i < want->len; i++)
        if (count[i] != mask[i]) break;
    TT_CHECK(i == want->len, "%s, %zu tasks: byte %zu (of %zu, %d guard) written %d times, "
             "one thread %d",
             what, ntasks, i, want->len, TT_PAD, i < want->len ? count[i] : 0,
             i < want->len ? mask[i] : 0);
    free(count);
    free(a.raw);
    free(b.raw);
}

/* All shares at once, one pthread each. */
typedef struct share_job {
    const target *t;
    unsigned char *dst;
    size_t task, ntasks;
    tpose_status st;
} share_job;

static void *share_thread(void *arg)
{
    share_job *j = (share_job *)arg;
    j->st = run_share(j->t, j->dst, j->task, j->ntasks);
    return NULL;
}

static void shares_together(const target *t, const dbuf *want, size_t ntasks, const char *what)
{
    pthread_t th[MAX_TASKS];
    share_job jobs[MAX_TASKS];
    int started[MAX_TASKS];
    dbuf a;
    size_t task;
    dbuf_make(&a, t);
    dbuf_fill(&a, SENT_A);
    for (task = 0; task < ntasks; task++) {
        jobs[task].t = t;
        jobs[task].dst = a.dst + TT_PAD;
        jobs[task].task = task;
        jobs[task].ntasks = ntasks;
        started[task] = pthread_create(&th[task], NULL, share_thread, &jobs[task]) == 0;
        if (!started[task]) share_thread(&jobs[task]);
    }
    for (task = 0; task < ntasks; task++) {
        if (started[task]) pthread_join(th[task], NULL);
        TT_CHECK(jobs[task].st == TPOSE_OK, "%s: concurrent share %zu of %zu: %s", what, task,
                 ntasks, tpose_status_str(jobs[task].st));
    }
    TT_CHECK(memcmp(a.dst, want->dst, want->len) == 0,
             "%s, %zu tasks at once: first difference at byte %zu", what, ntasks,
             tt_first_diff(a.dst, want->dst, want->len));
    free(a.raw);
}

/* The checks of one target for each count in ntasks[0..n). */
static void check_target(const target *t, const size_t *ntasks, size_t n, const char *what)
{
    dbuf want, other;
    unsigned char *mask;
    size_t i;
    dbuf_make(&want, t);
    dbuf_make(&other, t);
    mask = (unsigned char *)tt_alloc(want.len);
    one_thread(t, &want, &other, mask);
    for (i = 0; i < n; i++) {
        shares_alone(t, &want, mask, ntasks[i], what);
        if (ntasks[i] > 1) shares_together(t, &want, ntasks[i], what);
    }
    free(mask);
    free(want.raw);
    free(other.raw);
}

/* ---- matrices ---------------------------------------------------------------------------- */

/* A rows x cols matrix with lds `extra` past the width, random bytes, misaligned by the case
   counter; `tasks` counts to check. The one-thread result is checked against the reference. */
static void matrix_case(size_t rows, size_t cols, size_t esize, size_t extra, const size_t *tasks,
                        size_t ntasks)
{
    const size_t mis = (size_t)(case_no++ % 64);
    const size_t src_ld = cols + extra, dst_ld = rows + extra;
    const size_t src_bytes = ((rows - 1) * src_ld + cols) * esize;
    unsigned char *sraw = (unsigned char *)tt_alloc(src_bytes + 128);
    unsigned char *ref;
    char what[96];
    target t;
    dbuf d;
    t.src = sraw + (64 - (uintptr_t)sraw % 64) % 64 + (63 - mis);
    tt_fill_random(sraw, src_bytes + 128);
    t.dst_bytes = ((cols - 1) * dst_ld + rows) * esize;
    t.mis = mis;
    t.rows = rows;
    t.cols = cols;
    t.esize = esize;
    t.dst_ld = dst_ld;
    t.src_ld = src_ld;
    t.plan = NULL;
    /* the one-thread call against the reference first: the shares are held to it */
    dbuf_make(&d, &t);
    ref = (unsigned char *)tt_alloc(d.len);
    memset(ref, SENT_A, d.len);
    tt_reference(ref + TT_PAD, dst_ld, t.src, src_ld, rows, cols, esize);
    run_into(&t, &d, SENT_A, 0, 0);
    TT_CHECK(memcmp(ref, d.dst, d.len) == 0, "%zux%zu esize %zu: tpose_matrix differs at %zu",
             rows, cols, esize, tt_first_diff(ref, d.dst, d.len));
    sprintf(what, "%zux%zu esize %zu ld +%zu mis %zu", rows, cols, esize, extra, mis);
    check_target(&t, tasks, ntasks, what);
    free(ref);
    free(d.raw);
    free(sraw);
}

/* Shapes crossing every tile and vector edge at every element size, each split 1..9 ways. */
static void small_matrices(void)
{
    static const size_t sides[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129};
    static const size_t esizes[] = {1, 2, 3, 4, 8, 12, 16, 24};
    const size_t ns = sizeof sides / sizeof *sides;
    size_t e, i, n;
    for (e = 0; e < sizeof esizes / sizeof *esizes; e++)
        for (i = 0; i < 12; i++)
            for (n = 1; n <= MAX_TASKS; n++) {
                const size_t rows = sides[tt_rand_below(ns)], cols = sides[tt_rand_below(ns)];
                matrix_case(rows, cols, esizes[e], tt_rand_below(3) ? 0 : tt_rand_below(9), &n,
                            1);
            }
}

/* Large enough for the streaming kernels (several MiB), skinny both ways, rows on and off
   cache lines. */
static void large_matrices(void)
{
    static const struct {
        size_t rows, cols, esize, extra;
    } t[] = {
        {1100, 1100, 4, 0}, {2100, 2100, 1, 0}, {1500, 1700, 2, 3}, {70000, 8, 8, 0},
        {8, 70000, 8, 0},   {600000, 3, 4, 0},  {5, 300000, 4, 0},  {1000, 700, 8, 1},
        {300, 1100, 16, 0},
    };
    static const size_t tasks[] = {2, 3, 7};
    size_t i;
    for (i = 0; i < sizeof t / sizeof *t; i++)
        matrix_case(t[i].rows, t[i].cols, t[i].esize, t[i].extra, tasks, 3);
}

/* ---- tensors ----------------------------------------------------------------------------- */

/* A plan of a tensor (outer extents 0: dense), checked split `tasks` ways. */
static void tensor_case(size_t rank, size_t esize, const size_t *dims, const size_t *perm,
                        const size_t *so, const size_t *dout, const size_t *tasks, size_t ntasks)
{
    const size_t *src_outer = so[0] ? so : NULL, *dst_outer = dout[0] ? dout : NULL;
    size_t src_elems = 1, dst_elems = 1, k;
    unsigned char *sraw, *plan = (unsigned char *)tt_alloc(tpose_permute_plan_bytes(rank));
    char what[160];
    tpose_status st;
    target t;
    for (k = 0; k < rank; k++) {
        src_elems *= src_outer ? src_outer[k] : dims[k];
        dst_elems *= dst_outer ? dst_outer[k] : dims[perm[k]];
    }
    st = tpose_permute_plan_init(plan, tpose_permute_plan_bytes(rank), dst_outer, src_outer, rank,
                                 dims, perm, esize);
    TT_CHECK(st == TPOSE_OK, "plan: %s", tpose_status_str(st));
    sraw = (unsigned char *)tt_alloc(src_elems * esize + 64);
    t.src = sraw + (size_t)(case_no % 64);
    tt_fill_random(sraw, src_elems * esize + 64);
    t.dst_bytes = dst_elems * esize;
    t.mis = (size_t)(case_no++ * 7 % 64);
    t.plan = plan;
    t.rows = t.cols = t.esize = t.dst_ld = t.src_ld = 0;
    tpose_permute_plan_describe(plan, what, sizeof what);
    check_target(&t, tasks, ntasks, what);
    free(sraw);
    free(plan);
}

/* Every case of the plans: a copy, runs (one loop and several), a matrix, slices through the
   tiles directly and through the matrix kernels, wide elements; few slices (cut into pieces)
   and many; padded outer extents; several MiB (streamed). */
static void tensors(void)
{
    static const struct {
        size_t rank, esize, dims[4], perm[4], so[4], dout[4];
    } t[] = {
        {1, 4, {5000}, {0}, {0}, {0}},
        {2, 1, {1000, 3}, {0, 1}, {1000, 5}, {0}},
        {3, 4, {64, 100, 30}, {1, 0, 2}, {0}, {100, 64, 31}},
        {2, 4, {300, 200}, {1, 0}, {0}, {0}},
        {3, 4, {5, 48, 48}, {0, 2, 1}, {0}, {0}},
        {3, 1, {3, 200, 300}, {0, 2, 1}, {0}, {0}},
        {4, 2, {7, 33, 3, 65}, {1, 3, 2, 0}, {0}, {0}},
        {3, 1, {30, 40, 67}, {1, 0, 2}, {0}, {0}},
        {3, 4, {6, 130, 230}, {0, 2, 1}, {6, 131, 240}, {7, 233, 133}},
        {4, 4, {8, 64, 56, 56}, {0, 2, 3, 1}, {0}, {0}},
        {4, 4, {2, 512, 16, 64}, {0, 2, 1, 3}, {0}, {0}},
        {3, 2, {1024, 3, 2048}, {2, 1, 0}, {0}, {0}},
        {3, 1, {1000, 2000, 3}, {0, 1, 2}, {0}, {0}},
    };
    static const size_t tasks[] = {1, 2, 3, 4, 5, 8, 9};
    size_t i;
    for (i = 0; i < sizeof t / sizeof *t; i++)
        tensor_case(t[i].rank, t[i].esize, t[i].dims, t[i].perm, t[i].so, t[i].dout, tasks,
                    t[i].dims[0] * t[i].esize > 4000 || i >= 9 ? 3 : 7);
}

/* ---- arguments and the setting ---------------------------------------------------------- */

static void bad_arguments(void)
{
    unsigned char src[64], dst[64], plan_buf[4096], garbage[4096];
    const size_t dims[2] = {4, 4}, perm[2] = {1, 0};
    size_t i;
    memset(dst, SENT_A, sizeof dst);
    for (i = 0; i < sizeof src; i++) src[i] = (unsigned char)i;
    TT_CHECK(tpose_matrix_task(dst, 4, src, 4, 4, 4, 4, 0, 0) == TPOSE_ERR_ARG, "ntasks 0");
    TT_CHECK(tpose_matrix_task(dst, 4, src, 4, 4, 4, 4, 3, 3) == TPOSE_ERR_ARG, "task 3 of 3");
    TT_CHECK(tpose_matrix_task(dst, 4, src, 4, 0, 4, 4, 5, 2) == TPOSE_ERR_ARG, "empty, task 5");
    TT_CHECK(tpose_matrix_task(dst, 3, src, 4, 4, 4, 4, 0, 2) == TPOSE_ERR_LD, "ld");
    TT_CHECK(tpose_matrix_task(NULL, 4, src, 4, 4, 4, 4, 0, 2) == TPOSE_ERR_NULL, "NULL");
    TT_CHECK(tpose_matrix_task(dst, 4, src, 4, 4, 4, 0, 0, 2) == TPOSE_ERR_ESIZE, "esize");
    TT_CHECK(tpose_matrix_task(src + 8, 4, src, 4, 4, 4, 1, 1, 2) == TPOSE_ERR_OVERLAP,
             "overlap");
    TT_CHECK(tpose_matrix_task(NULL, 4, NULL, 4, 0, 4, 4, 1, 2) == TPOSE_OK, "empty");
    TT_CHECK(tpose_permute_plan_init(plan_buf, sizeof plan_buf, NULL, NULL, 2, dims, perm, 4) ==
                 TPOSE_OK,
             "plan");
    TT_CHECK(tpose_permute_plan_apply_task(plan_buf, dst, src, 0, 0) == TPOSE_ERR_ARG, "ntasks 0");
    TT_CHECK(tpose_permute_plan_apply_task(plan_buf, dst, src, 2, 2) == TPOSE_ERR_ARG, "task 2");
    TT_CHECK(tpose_permute_plan_apply_task(NULL, dst, src, 0, 2) == TPOSE_ERR_NULL, "no plan");
    TT_CHECK(tpose_permute_plan_apply_task(plan_buf, NULL, src, 0, 2) == TPOSE_ERR_NULL, "NULL");
    TT_CHECK(tpose_permute_plan_apply_task(plan_buf, src + 4, src, 0, 2) == TPOSE_ERR_OVERLAP,
             "overlap");
    memset(garbage, 0x5A, sizeof garbage); /* a plan's bytes, but not a plan */
    TT_CHECK(tpose_permute_plan_apply_task(garbage, dst, src, 0, 2) == TPOSE_ERR_ARG,
             "not a plan");
    for (i = 0; i < sizeof dst; i++)
        if (dst[i] != SENT_A) break;
    TT_CHECK(i == sizeof dst, "a rejected call wrote byte %zu", i);
    for (i = 0; i < sizeof src; i++)
        if (src[i] != (unsigned char)i) break;
    TT_CHECK(i == sizeof src, "a rejected call wrote source byte %zu", i);
}

static void thread_setting(void)
{
    TT_CHECK(tpose_get_threads() == 1, "default %zu", tpose_get_threads());
    TT_CHECK(tpose_set_threads(1) == TPOSE_OK, "one thread");
#if TPOSEI_OPENMP
    TT_CHECK(tpose_set_threads(3) == TPOSE_OK && tpose_get_threads() == 3, "three threads");
    TT_CHECK(tpose_set_threads(0) == TPOSE_OK &&
                 tpose_get_threads() == (size_t)omp_get_max_threads(),
             "all threads: %zu", tpose_get_threads());
#else
    TT_CHECK(tpose_set_threads(2) == TPOSE_ERR_UNSUPPORTED && tpose_get_threads() == 1,
             "two threads without OpenMP");
    TT_CHECK(tpose_set_threads(0) == TPOSE_OK && tpose_get_threads() == 1, "all without OpenMP");
#endif
    tpose_set_threads(1);
}

#if TPOSEI_OPENMP
/* ---- OpenMP teams ----------------------------------------------------------------------- */

/* Every kernel at every element size it runs, on teams of 2-4 threads (every matrix forms
   one: tune thread_share is lowered to a byte), against the reference. */
static void team_kernels(void)
{
    static const size_t sides[] = {1, 5, 16, 33, 64, 100, 257};
    static const size_t esizes[] = {1, 2, 3, 4, 8, 16};
    const size_t ns = sizeof sides / sizeof *sides;
    size_t n, e, i;
    int k;
    for (n = 2; n <= 4; n++) {
        tpose_set_threads(n);
        for (k = 0; k < TPOSE_KERNEL_COUNT; k++)
            for (e = 0; e < sizeof esizes / sizeof *esizes; e++) {
                if (!tpose_kernel_supported((tpose_kernel)k, esizes[e])) continue;
                for (i = 0; i < 6; i++) {
                    const size_t rows = sides[tt_rand_below(ns)], cols = sides[tt_rand_below(ns)];
                    const size_t ld = rows + (i % 2) * 3, bytes = cols * ld * esizes[e];
                    unsigned char *src = (unsigned char *)tt_alloc(rows * cols * esizes[e]);
                    unsigned char *got = (unsigned char *)tt_alloc(bytes);
                    unsigned char *want = (unsigned char *)tt_alloc(bytes);
                    tpose_status st;
                    tt_fill_random(src, rows * cols * esizes[e]);
                    memset(got, SENT_A, bytes);
                    memset(want, SENT_A, bytes);
                    tt_reference(want, ld, src, cols, rows, cols, esizes[e]);
                    st = tpose_matrix_with((tpose_kernel)k, got, ld, src, cols, rows, cols,
                                           esizes[e]);
                    TT_CHECK(st == TPOSE_OK && memcmp(got, want, bytes) == 0,
                             "%s, %zu threads, %zux%zu esize %zu: %s, first difference %zu",
                             tpose_kernel_name((tpose_kernel)k), n, rows, cols, esizes[e],
                             tpose_status_str(st), tt_first_diff(got, want, bytes));
                    free(src);
                    free(got);
                    free(want);
                }
            }
    }
    tpose_set_threads(1);
}

/* tpose_permute on teams against one thread, for the cases of tensors(). */
static void team_tensors(void)
{
    static const struct {
        size_t rank, esize, dims[4], perm[4];
    } t[] = {
        {1, 4, {5000}, {0}},          {2, 4, {300, 200}, {1, 0}},
        {3, 4, {5, 48, 48}, {0, 2, 1}}, {3, 1, {3, 200, 300}, {0, 2, 1}},
        {4, 2, {7, 33, 3, 65}, {1, 3, 2, 0}}, {3, 1, {30, 40, 67}, {1, 0, 2}},
        {3, 4, {64, 100, 30}, {1, 0, 2}},
    };
    size_t i, n;
    for (i = 0; i < sizeof t / sizeof *t; i++) {
        size_t elems = 1, k;
        unsigned char *src, *one, *team;
        for (k = 0; k < t[i].rank; k++) elems *= t[i].dims[k];
        src = (unsigned char *)tt_alloc(elems * t[i].esize);
        one = (unsigned char *)tt_alloc(elems * t[i].esize);
        team = (unsigned char *)tt_alloc(elems * t[i].esize);
        tt_fill_random(src, elems * t[i].esize);
        tpose_set_threads(1);
        tpose_permute(one, NULL, src, NULL, t[i].rank, t[i].dims, t[i].perm, t[i].esize);
        for (n = 2; n <= 4; n++) {
            tpose_set_threads(n);
            memset(team, SENT_A, elems * t[i].esize);
            TT_CHECK(tpose_permute(team, NULL, src, NULL, t[i].rank, t[i].dims, t[i].perm,
                                   t[i].esize) == TPOSE_OK &&
                         memcmp(one, team, elems * t[i].esize) == 0,
                     "tensor case %zu on %zu threads", i, n);
        }
        free(src);
        free(one);
        free(team);
    }
    tpose_set_threads(1);
}

/* Called inside a parallel region, the library runs on the calling thread alone. */
static void inside_a_region(void)
{
    int nested = 0;
    tpose_set_threads(4);
#pragma omp parallel num_threads(2) reduction(+ : nested)
    nested += tposei_team((size_t)1 << 40) != 1;
    TT_CHECK(nested == 0, "a team formed inside a parallel region");
    tpose_set_threads(1);
}
#endif

int main(void)
{
    thread_setting();
    bad_arguments();
    small_matrices();
    large_matrices();
    tensors();
#if TPOSEI_OPENMP
    tposei_context_get(); /* filled; now one byte per thread forms a team for any matrix */
    tposei_context_store.tune.thread_share = 1;
    team_kernels();
    team_tensors();
    inside_a_region();
#endif
    return tt_finish("test_threads");
}
