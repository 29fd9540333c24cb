/* share_sim.c - tpose-share-sim: how the task API would split the threads benchmark's cases
   over 2-64 threads, computed from the shares themselves (nothing is moved): bytes per share
   and the largest imbalance, the largest share over the mean. The matrices one by one, the
   TTC cases at 4-byte elements summed up per thread count (median and worst imbalance).

   tpose-share-sim [-f FILE] */
#define TPOSE_IMPLEMENTATION /* the shares' internals: tposei_job_piece, tposei_tp_range,
                                tposei_tp_slice */
#include "bench_cases.h"

static const size_t counts[] = {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
#define NCOUNTS (sizeof counts / sizeof *counts)

/* A destination address on a page boundary, where a user's large buffer starts. */
static unsigned char *const page = (unsigned char *)(uintptr_t)4096;

static size_t matrix_share(size_t rows, size_t cols, size_t esize, size_t task, size_t ntasks)
{
    tposei_job job, sub;
    job.dst = page;
    job.src = page;
    job.dst_stride = rows * esize;
    job.src_stride = cols * esize;
    job.rows = rows;
    job.cols = cols;
    job.esize = esize;
    return tposei_job_piece(&sub, &job, task, task + 1, ntasks) ? sub.rows * sub.cols * esize : 0;
}

/* Bytes of pieces [lo, hi) of `per` of one slice of plan p. */
static size_t slice_bytes(const tposei_tp_plan *p, size_t lo, size_t hi, size_t per)
{
    tposei_job job, sub;
    if (p->kind == TPOSEI_TP_RUNS) {
        size_t a, b;
        tposei_cuts(p->loop[p->loops - 1].n, 1, 0, lo, hi, per, &a, &b);
        return (b - a) * p->elem;
    }
    if (per == 1) return p->rows * p->cols * p->elem;
    tposei_tp_slice(&job, p, page, page);
    return tposei_job_piece(&sub, &job, lo, hi, per) ? sub.rows * sub.cols * p->elem : 0;
}

static size_t plan_share(const tposei_tp_plan *p, size_t task, size_t ntasks)
{
    size_t from, to, per, bytes = 0;
    if (p->kind == TPOSEI_TP_COPY) {
        tposei_cuts(p->elem, TPOSEI_CACHE_LINE, 0, task, task + 1, ntasks, &from, &to);
        return to - from;
    }
    tposei_tp_range(p, task, ntasks, &from, &to, &per);
    while (from < to) {
        const size_t at = from / per * per, end = at + per < to ? at + per : to;
        bytes += slice_bytes(p, from - at, end - at, per);
        from = end;
    }
    return bytes;
}

/* Largest share over the mean, and the smallest and largest share. */
typedef struct split {
    double imbalance;
    size_t least, most;
} split;

static split split_of(const void *plan, size_t rows, size_t cols, size_t esize, size_t ntasks)
{
    split s;
    size_t task, total = 0;
    s.least = (size_t)-1;
    s.most = 0;
    for (task = 0; task < ntasks; task++) {
        const size_t b = plan ? plan_share((const tposei_tp_plan *)plan, task, ntasks)
                              : matrix_share(rows, cols, esize, task, ntasks);
        total += b;
        if (b < s.least) s.least = b;
        if (b > s.most) s.most = b;
    }
    s.imbalance = (double)s.most * (double)ntasks / (double)total - 1.0;
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    static const size_t mats[][3] = {{16448, 16448, 1}, {8256, 8256, 4}, {5824, 5824, 8},
                                     {3001, 7919, 4},   {10000, 3000, 4}};
    static tcase cases[TB_MAX_CASES];
    static tposei_tp_plan plans[TB_MAX_CASES];
    const char *file = argc > 2 && !strcmp(argv[1], "-f") ? argv[2] : TB_CASES_FILE;
    const size_t n = add_extras(cases, read_cases(file, cases, TB_MAX_CASES - 3));
    double imb[TB_MAX_CASES];
    size_t i, j;
    printf("| matrix | esize | threads | smallest share (MiB) | largest (MiB) | imbalance |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < sizeof mats / sizeof *mats; i++)
        for (j = 0; j < NCOUNTS; j++) {
            const split s = split_of(NULL, mats[i][0], mats[i][1], mats[i][2], counts[j]);
            printf("| %zux%zu | %zu | %zu | %.2f | %.2f | %.1f%% |\n", mats[i][0], mats[i][1],
                   mats[i][2], counts[j], (double)s.least / 1048576.0,
                   (double)s.most / 1048576.0, 100.0 * s.imbalance);
        }
    for (i = 0; i < n; i++)
        tpose_permute_plan_init(&plans[i], sizeof plans[i], NULL, NULL, cases[i].rank,
                                cases[i].dims, cases[i].perm, 4);
    printf("\n| TTC cases (%zu, 4-byte) | threads | median imbalance | worst | worst case |\n",
           n);
    printf("|---|---:|---:|---:|---|\n");
    for (j = 0; j < NCOUNTS; j++) {
        double worst = -1;
        size_t at = 0;
        for (i = 0; i < n; i++) {
            imb[i] = split_of(&plans[i], 0, 0, 0, counts[j]).imbalance;
            if (imb[i] > worst) {
                worst = imb[i];
                at = i;
            }
        }
        qsort(imb, n, sizeof *imb, cmp_double);
        printf("| | %zu | %.1f%% | %.1f%% | %s %zu |\n", counts[j], 100.0 * imb[n / 2],
               100.0 * worst, cases[at].tag, at + 1);
    }
    return 0;
}
