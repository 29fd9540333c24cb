/* bench_inplace.c - tpose-bench-inplace: in-place transposition against memcpy of the same
   bytes, timed in the same process (bench_common.h).

   For each shape, in both directions (rows x cols, then the result back), it prints the
   element size, the path taken, the median GB/s counting 2 * rows * cols * esize bytes
   (every byte read once and written once, reference 001 eq. 37), the ratio of memcpy's
   median time for rows * cols * esize bytes to the transpose's (1.0 = memcpy speed), and
   the peak extra memory: the workspace passed in, exactly tpose_inplace_workspace(), which
   the library never exceeds. Passes alternate memcpy, forward, memcpy, backward, over a pool
   of distinct pre-faulted matrices that moves at least -m MiB (default 256) per pass, so
   cache-sized shapes are measured from memory too.

   tpose-bench-inplace                    the issue's shapes
   tpose-bench-inplace -r 3001 -c 7919 -e 8   one shape
   options: -n REPS (default 5)  -m MIB per pass (0 = one matrix)  -H (2 MiB pages)  -h */
#include "bench_common.h"
#include <unistd.h>

#define TPOSE_INPLACE_IMPLEMENTATION /* transpose.h's is linked in (transpose.c) */
#include "transpose_inplace.h"

typedef struct shape {
    size_t rows, cols, esize;
    double target; /* the issue's done-when ratio, 0 = none */
} shape;

typedef struct dir_ctx {
    size_t rows, cols, esize, ws;
    unsigned char *work;
} dir_ctx;

static int inplace_pass(const tb_pool *pool, const dir_ctx *d)
{
    size_t i;
    for (i = 0; i < pool->count; i++)
        if (tpose_inplace(pool->src[i], d->rows, d->cols, d->esize, d->work, d->ws) != TPOSE_OK)
            return 1;
    return 0;
}

static const char *path_name(size_t rows, size_t cols, size_t esize)
{
    static const char *const names[] = {"none", "square", "skinny", "slots", "gcd", "ckg"};
    tposei_ip_plan pl;
    if (!tposei_ip_choose(&pl, rows, cols, esize)) return "?";
    if (pl.path == TPOSEI_IP_CKG) return rows > cols ? "c2r" : "r2c";
    return names[pl.path];
}

static void print_row(const dir_ctx *d, double op_s, double cp_s, size_t count, double target)
{
    const double bytes = (double)(d->rows * d->cols * d->esize) * (double)count;
    char name[48];
    snprintf(name, sizeof name, "%zux%zu", d->rows, d->cols);
    printf("| %s | %zu | %s | %.2f | %.2f | %zu | %.2f |\n", name, d->esize,
           path_name(d->rows, d->cols, d->esize), 2e-9 * bytes / op_s, cp_s / op_s, d->ws, target);
}

static int run_shape(const shape *s, int reps, size_t pool_mib)
{
    const size_t bytes = s->rows * s->cols * s->esize;
    tb_pool pool = tb_pool_make(bytes, bytes, pool_mib * TB_MIB);
    dir_ctx fwd, back;
    double f[TB_MAX_REPS], b[TB_MAX_REPS], c[TB_MAX_REPS];
    int r;
    fwd.rows = back.cols = s->rows;
    fwd.cols = back.rows = s->cols;
    fwd.esize = back.esize = s->esize;
    fwd.ws = tpose_inplace_workspace(s->rows, s->cols, s->esize);
    back.ws = tpose_inplace_workspace(s->cols, s->rows, s->esize);
    fwd.work = tb_alloc(fwd.ws);
    back.work = tb_alloc(back.ws);
    if (inplace_pass(&pool, &fwd) || inplace_pass(&pool, &back)) return 1; /* warm-up */
    for (r = 0; r < reps; r++) {
        double t0 = tb_seconds();
        tb_memcpy_pass(&pool, bytes);
        c[2 * r % TB_MAX_REPS] = tb_seconds() - t0;
        t0 = tb_seconds();
        inplace_pass(&pool, &fwd);
        f[r] = tb_seconds() - t0;
        t0 = tb_seconds();
        tb_memcpy_pass(&pool, bytes);
        c[(2 * r + 1) % TB_MAX_REPS] = tb_seconds() - t0;
        t0 = tb_seconds();
        inplace_pass(&pool, &back);
        b[r] = tb_seconds() - t0;
    }
    {
        const int nc = 2 * reps < TB_MAX_REPS ? 2 * reps : TB_MAX_REPS;
        const double cp = tb_median(c, nc);
        print_row(&fwd, tb_median(f, reps), cp, pool.count, s->target);
        print_row(&back, tb_median(b, reps), cp, pool.count, s->target);
    }
    fflush(stdout);
    free(fwd.work);
    free(back.work);
    tb_pool_free(&pool);
    return 0;
}

static void usage(void)
{
    printf("tpose-bench-inplace [-r ROWS -c COLS -e ESIZE] [-n REPS] [-m MIB] [-H] [-h]\n");
}

int main(int argc, char **argv)
{
    static const shape issue[] = {
        {8256, 8256, 4, 0.7},  {5824, 5824, 8, 0.7}, {3001, 7919, 8, 0.35}, {10000, 3000, 4, 0.35},
        {2000, 3000, 1, 0.35}, {1000000, 3, 4, 0.5}, {1000000, 3, 8, 0.5},  {4000000, 8, 8, 0.5},
    };
    shape one = {0, 0, 4, 0};
    int reps = 5, opt;
    size_t pool_mib = 256, i;
    while ((opt = getopt(argc, argv, "r:c:e:n:m:Hh")) != -1) {
        switch (opt) {
        case 'r':
            one.rows = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'c':
            one.cols = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'e':
            one.esize = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'n':
            reps = atoi(optarg);
            break;
        case 'm':
            pool_mib = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'H':
            tb_huge_pages = 1;
            break;
        default:
            usage();
            return opt == 'h' ? 0 : 2;
        }
    }
    if (reps < 1 || reps > TB_MAX_REPS / 2) reps = 5;
    if (one.rows && !one.cols) one.cols = one.rows;
    printf("in-place transpose, one thread, median of %d passes per direction, each pass "
           ">= %zu MiB\n\n",
           reps, pool_mib);
    printf("| shape | esize | path | GB/s | ratio to memcpy | extra bytes | target |\n");
    printf("|---|---:|---|---:|---:|---:|---:|\n");
    if (one.rows) return run_shape(&one, reps, pool_mib);
    for (i = 0; i < sizeof issue / sizeof *issue; i++)
        if (run_shape(&issue[i], reps, pool_mib)) return 1;
    return 0;
}
