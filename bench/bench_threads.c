/* bench_threads.c - tpose-bench-threads: transposes split over T threads against a T-thread
   memcpy of the same bytes (each thread copies its share) and against one thread.

   Cases: the threads issue's large matrices (16448^2 bytes, 8256^2 floats, 5824^2 doubles,
   3001x7919 and 10000x3000 floats), the TTC cases at 4-byte elements (bench/ttc-bench.txt
   and the ML shapes) and, in an OpenMP build, the in-place transposes of the same matrices
   (3001x7919 in doubles there, the threads issue's in-place rectangle).
   Out-of-place work is split with the task API on the benchmark's own threads (pthreads,
   one share each); with OpenMP the matrices are also timed through tpose_matrix itself
   after tpose_set_threads(T). Every round times memcpy and the operation on one thread,
   then both on T threads, over pools of distinct pre-faulted pairs moving at least -m MiB;
   medians of -n rounds. Columns: GB/s on 1 and T threads (bytes read once and written
   once), each one's ratio to the memcpy on as many threads, one thread against the T-thread
   memcpy, the speed-up, and (OpenMP) tpose_matrix's ratio on T threads.

   tpose-bench-threads                      every case on 2 threads
   options: -t T (threads, 2..64)  -s matrix|ttc|inplace (one set; repeatable)  -c CASE
            (1-based within a set)  -n REPS (default 5)  -m MIB (default 256)  -f FILE  -h */
#include "bench_common.h"

#include <pthread.h>

#include "bench_cases.h"
#define TPOSE_INPLACE_IMPLEMENTATION /* transpose.h's and the tensors' are in the core */
#include "transpose_inplace.h"

#define TB_MAX_THREADS 64

/* Whether the library's own entry points can use threads in this build. */
#if defined(_OPENMP) && !defined(TPOSE_NO_OPENMP)
#define TPOSE_OPENMP_BUILD 1
#else
#define TPOSE_OPENMP_BUILD 0
#endif

/* ---- a team of threads that runs one function per call, each with its share ------------- */

typedef void (*team_fn)(void *arg, size_t task, size_t ntasks);

static struct {
    pthread_barrier_t go, done;
    pthread_t th[TB_MAX_THREADS];
    size_t size; /* threads, the caller included */
    team_fn fn;
    void *arg;
    int quit;
} team;

static void *team_worker(void *p)
{
    const size_t id = (size_t)(uintptr_t)p;
    for (;;) {
        pthread_barrier_wait(&team.go);
        if (team.quit) return NULL;
        team.fn(team.arg, id, team.size);
        pthread_barrier_wait(&team.done);
    }
}

static void team_start(size_t n)
{
    size_t i;
    team.size = n;
    team.quit = 0;
    pthread_barrier_init(&team.go, NULL, (unsigned)n);
    pthread_barrier_init(&team.done, NULL, (unsigned)n);
    for (i = 1; i < n; i++)
        if (pthread_create(&team.th[i], NULL, team_worker, (void *)(uintptr_t)i) != 0) exit(2);
}

static void team_stop(void)
{
    size_t i;
    team.quit = 1;
    pthread_barrier_wait(&team.go);
    for (i = 1; i < team.size; i++) pthread_join(team.th[i], NULL);
}

/* fn on `n` threads (1, or the whole team): returns when every share is done. */
static void team_run(size_t n, team_fn fn, void *arg)
{
    if (n == 1) {
        fn(arg, 0, 1);
        return;
    }
    team.fn = fn;
    team.arg = arg;
    pthread_barrier_wait(&team.go);
    fn(arg, 0, n);
    pthread_barrier_wait(&team.done);
}

/* ---- the operations ----------------------------------------------------------------------- */

typedef struct op_ctx {
    const tb_pool *pool;
    size_t rows, cols, esize, copy_bytes;
    const void *plan;     /* a tensor case */
    int omp;              /* tpose_matrix on tpose_set_threads threads, from the caller */
    int inplace, flipped; /* an in-place case, and its current orientation */
    unsigned char *work;
    size_t work_bytes;
    int failed;
} op_ctx;

/* Each thread copies its share (whole lines) of every pair. */
static void memcpy_share(void *arg, size_t task, size_t ntasks)
{
    const op_ctx *x = (const op_ctx *)arg;
    const size_t lines = (x->copy_bytes + 63) / 64;
    const size_t a = lines * task / ntasks * 64, b = lines * (task + 1) / ntasks * 64;
    const size_t end = b < x->copy_bytes ? b : x->copy_bytes;
    size_t i;
    for (i = 0; a < end && i < x->pool->count; i++)
        memcpy(x->pool->dst[i] + a, x->pool->src[i] + a, end - a);
}

static void op_share(void *arg, size_t task, size_t ntasks)
{
    op_ctx *x = (op_ctx *)arg;
    size_t i;
    for (i = 0; i < x->pool->count; i++) {
        unsigned char *d = x->pool->dst[i];
        const unsigned char *s = x->pool->src[i];
        tpose_status st;
        if (x->inplace)
            st = x->flipped ? tpose_inplace(x->pool->src[i], x->cols, x->rows, x->esize,
                                            x->work, x->work_bytes)
                            : tpose_inplace(x->pool->src[i], x->rows, x->cols, x->esize,
                                            x->work, x->work_bytes);
        else if (x->plan)
            st = tpose_permute_plan_apply_task(x->plan, d, s, task, ntasks);
        else if (x->omp)
            st = tpose_matrix(d, x->rows, s, x->cols, x->rows, x->cols, x->esize);
        else
            st = tpose_matrix_task(d, x->rows, s, x->cols, x->rows, x->cols, x->esize, task,
                                   ntasks);
        if (st != TPOSE_OK) x->failed = 1;
    }
    if (x->inplace) x->flipped = !x->flipped;
}

/* Seconds of one pass of `fn` on n threads (through the library's own threads for the
   in-place and OpenMP passes: tpose_set_threads(n) and one caller). */
static double timed(op_ctx *x, size_t n, team_fn fn, int library_threads)
{
    double t0;
    if (library_threads) tpose_set_threads(n);
    t0 = tb_seconds();
    team_run(library_threads ? 1 : n, fn, x);
    t0 = tb_seconds() - t0;
    if (library_threads) tpose_set_threads(1);
    return t0;
}

typedef struct medians {
    double copy1, copyt, op1, opt, omp;
} medians;

/* Rounds of memcpy and the operation on one thread, then both on t threads (and tpose_matrix
   through OpenMP); medians. */
static void measure(op_ctx *x, size_t t, int reps, medians *m)
{
    double c1[TB_MAX_REPS], ct[TB_MAX_REPS], o1[TB_MAX_REPS], ot[TB_MAX_REPS], om[TB_MAX_REPS];
    const int lib = x->inplace;
    int r;
    timed(x, 1, op_share, lib); /* pre-fault and warm up */
    timed(x, 1, memcpy_share, 0);
    for (r = 0; r < reps; r++) {
        c1[r] = timed(x, 1, memcpy_share, 0);
        o1[r] = timed(x, 1, op_share, lib);
        ct[r] = timed(x, t, memcpy_share, 0);
        ot[r] = timed(x, t, op_share, lib);
        om[r] = 0;
        if (TPOSE_OPENMP_BUILD && !lib && !x->plan) {
            x->omp = 1;
            om[r] = timed(x, t, op_share, 1);
            x->omp = 0;
        }
    }
    m->copy1 = tb_median(c1, reps);
    m->copyt = tb_median(ct, reps);
    m->op1 = tb_median(o1, reps);
    m->opt = tb_median(ot, reps);
    m->omp = tb_median(om, reps);
}

/* ---- the cases ---------------------------------------------------------------------------- */

typedef struct matrix_case {
    size_t rows, cols, esize;
} matrix_case;

static const matrix_case matrices[] = {
    {16448, 16448, 1}, {8256, 8256, 4}, {5824, 5824, 8}, {3001, 7919, 4}, {10000, 3000, 4},
};

/* In place, the threads issue's rectangles are 3001x7919 doubles and 10000x3000 floats. */
static const matrix_case in_place[] = {
    {16448, 16448, 1}, {8256, 8256, 4}, {5824, 5824, 8}, {3001, 7919, 8}, {10000, 3000, 4},
};

static void print_header(size_t t)
{
    printf("| case | esize | GB/s x1 | GB/s x%zu | x1 / memcpy x1 | x%zu / memcpy x%zu | "
           "x1 / memcpy x%zu | speed-up | tpose_matrix x%zu (OpenMP) / memcpy x%zu |\n",
           t, t, t, t, t, t);
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void print_row(const char *name, size_t esize, size_t bytes, const medians *m, int omp)
{
    const double moved = 2.0 * (double)bytes / 1e9;
    char omp_col[32] = "-";
    if (omp) snprintf(omp_col, sizeof omp_col, "%.2f", m->copyt / m->omp);
    printf("| %s | %zu | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %s |\n", name, esize,
           moved / m->op1, moved / m->opt, m->copy1 / m->op1, m->copyt / m->opt,
           m->copyt / m->op1, m->op1 / m->opt, omp_col);
    fflush(stdout);
}

/* One case: a pool of pairs of `bytes` each, the context's operation measured. */
static void run(op_ctx *x, const char *name, size_t bytes, size_t t, int reps, size_t mib)
{
    tb_pool pool = tb_pool_make(bytes, bytes, mib * TB_MIB);
    medians m;
    x->pool = &pool;
    x->copy_bytes = bytes;
    x->failed = 0;
    measure(x, t, reps, &m);
    if (x->failed)
        printf("| %s | %zu | failed |\n", name, x->esize);
    else
        print_row(name, x->esize, bytes, &m, TPOSE_OPENMP_BUILD && !x->plan && !x->inplace);
    tb_pool_free(&pool);
}

static void matrix_cases(size_t t, int reps, size_t mib, size_t only, int inplace)
{
    const matrix_case *list = inplace ? in_place : matrices;
    const size_t n = inplace ? sizeof in_place / sizeof *in_place
                             : sizeof matrices / sizeof *matrices;
    size_t i;
    for (i = 0; i < n; i++) {
        const matrix_case *c = &list[i];
        op_ctx x;
        char name[64];
        if (only && only != i + 1) continue;
        memset(&x, 0, sizeof x);
        x.rows = c->rows;
        x.cols = c->cols;
        x.esize = c->esize;
        x.inplace = inplace;
        if (inplace) { /* room for either orientation on t threads */
            tpose_set_threads(t);
            x.work_bytes = tpose_inplace_workspace(c->rows, c->cols, c->esize);
            if (tpose_inplace_workspace(c->cols, c->rows, c->esize) > x.work_bytes)
                x.work_bytes = tpose_inplace_workspace(c->cols, c->rows, c->esize);
            tpose_set_threads(1);
            x.work = x.work_bytes ? tb_alloc(x.work_bytes) : NULL;
        }
        snprintf(name, sizeof name, "%s%zux%zu", inplace ? "in-place " : "", c->rows, c->cols);
        run(&x, name, c->rows * c->cols * c->esize, t, reps, inplace ? 0 : mib);
        free(x.work);
    }
}

static void ttc_cases(const char *file, size_t t, int reps, size_t mib, size_t only)
{
    static tcase cases[TB_MAX_CASES];
    const size_t n = add_extras(cases, read_cases(file, cases, TB_MAX_CASES - 3));
    unsigned char plan[4096];
    size_t i, k;
    for (i = 0; i < n; i++) {
        const tcase *c = &cases[i];
        size_t bytes = 4;
        op_ctx x;
        char name[32];
        if (only && only != i + 1) continue;
        for (k = 0; k < c->rank; k++) bytes *= c->dims[k];
        if (tpose_permute_plan_init(plan, sizeof plan, NULL, NULL, c->rank, c->dims, c->perm,
                                    4) != TPOSE_OK)
            continue;
        memset(&x, 0, sizeof x);
        x.esize = 4;
        x.plan = plan;
        snprintf(name, sizeof name, "%s %zu", c->tag, i + 1);
        run(&x, name, bytes, t, reps, mib);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: tpose-bench-threads [-t T] [-s matrix|ttc|inplace]... [-c CASE] "
                    "[-n REPS] [-m MIB] [-f FILE]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    size_t t = 2, only = 0, mib = 256;
    int reps = 5, sets = 0, i; /* sets: bit 1 matrix, 2 ttc, 4 inplace */
    const char *file = TB_CASES_FILE;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v || a[0] != '-' || a[2]) usage();
        i++;
        switch (a[1]) {
        case 't': t = strtoul(v, NULL, 10); break;
        case 'c': only = strtoul(v, NULL, 10); break;
        case 'n': reps = atoi(v); break;
        case 'm': mib = strtoul(v, NULL, 10); break;
        case 'f': file = v; break;
        case 's':
            sets |= !strcmp(v, "matrix") ? 1 : !strcmp(v, "ttc") ? 2 : !strcmp(v, "inplace") ? 4 : 0;
            break;
        default: usage();
        }
    }
    if (t < 2 || t > TB_MAX_THREADS || reps < 1) usage();
    if (reps > TB_MAX_REPS) reps = TB_MAX_REPS;
    if (!sets) sets = TPOSE_OPENMP_BUILD ? 7 : 3;
    team_start(t);
    printf("tpose-bench-threads: %zu threads, %d rounds, pools of >= %zu MiB, %s build\n\n", t,
           reps, mib, TPOSE_OPENMP_BUILD ? "OpenMP" : "no-OpenMP");
    print_header(t);
    if (sets & 1) matrix_cases(t, reps, mib, only, 0);
    if (sets & 2) ttc_cases(file, t, reps, mib, only);
    if (sets & 4) {
        if (TPOSE_OPENMP_BUILD)
            matrix_cases(t, reps, mib, only, 1);
        else
            fprintf(stderr, "in-place cases need an OpenMP build (meson option openmp)\n");
    }
    team_stop();
    return 0;
}
