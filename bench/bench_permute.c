/* bench_permute.c - tpose-bench-permute: tensor permutations against memcpy of the same
   bytes, timed in the same process (bench_common.h), with the cost model's prediction.

   Cases: the 57 of HPTT's benchmark (bench/ttc-bench.txt, row-major numpy form, about 200 MB
   at 4-byte elements), then NCHW <-> NHWC [32, 64, 56, 56] and the attention heads
   [8, 512, 16, 64] -> [8, 16, 512, 64]. For each case and element size it prints the median
   GB/s (bytes read once and written once), the ratio of memcpy's median time to the
   permutation's (1.0 = memcpy speed), the model's predicted ratio (1 / plan cost), the
   plan's init time, how much a per-call plan (tpose_permute) costs over applying a saved
   one, and with -v the plan's description. Passes alternate memcpy and the permutation over
   pools of distinct tensors moving at least -m MiB (default 256), so every case streams
   from memory; -w measures warm (one pair, each timed pass after an untimed one).

   tpose-bench-permute                        every case at 4, 2 and 1-byte elements
   tpose-bench-permute -e 4 -c 7              case 7 (1-based, in the order printed) only
   options: -f FILE (cases; default the file beside this source)  -e ESIZE (repeatable)
            -c CASE  -n REPS (default 5)  -m MIB  -l KERNEL (tpose_kernel_limit: AUTO as on a CPU
            whose best is KERNEL, e.g. avx2-stream)  -w  -v  -H (2 MiB pages)  -h */
#include "bench_common.h"
#include <unistd.h>

#include "transpose_tensor.h" /* implemented in the core (transpose_tensor.c) */

#include "bench_cases.h"

typedef struct perm_ctx {
    const tcase *c;
    size_t esize;
    const void *plan;
    int per_call; /* tpose_permute instead of the saved plan */
} perm_ctx;

static int permute_pass(const tb_pool *pool, void *vctx)
{
    const perm_ctx *x = (const perm_ctx *)vctx;
    size_t i;
    for (i = 0; i < pool->count; i++) {
        const tpose_status st =
            x->per_call ? tpose_permute(pool->dst[i], NULL, pool->src[i], NULL, x->c->rank,
                                        x->c->dims, x->c->perm, x->esize)
                        : tpose_permute_plan_apply(x->plan, pool->dst[i], pool->src[i]);
        if (st != TPOSE_OK) return 1;
    }
    return 0;
}

static void put_list(char *buf, size_t cap, const size_t *v, size_t n)
{
    size_t k, len = 0;
    buf[0] = 0;
    for (k = 0; k < n && len < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, k ? " %zu" : "%zu", v[k]);
}

/* Median seconds of one plan init (many in a row: they take microseconds). */
static double init_seconds(const tcase *c, size_t esize, void *plan, size_t plan_bytes)
{
    double t[9];
    int r, i;
    for (r = 0; r < 9; r++) {
        const double t0 = tb_seconds();
        for (i = 0; i < 100; i++)
            tpose_permute_plan_init(plan, plan_bytes, NULL, NULL, c->rank, c->dims, c->perm,
                                    esize);
        t[r] = (tb_seconds() - t0) / 100;
    }
    return tb_median(t, 9);
}

/* Medians of `reps` rounds of memcpy, the saved plan's apply and tpose_permute, in turn. */
static int measure(const tb_pool *pool, size_t bytes, perm_ctx *x, int reps, double *cp_s,
                   double *op_s, double *call_s)
{
    double cp[TB_MAX_REPS], op[TB_MAX_REPS], call[TB_MAX_REPS];
    int r;
    if (reps > TB_MAX_REPS) reps = TB_MAX_REPS;
    for (r = 0; r < reps; r++) {
        double t0;
        if (tb_warm) tb_memcpy_pass(pool, bytes);
        t0 = tb_seconds();
        tb_memcpy_pass(pool, bytes);
        cp[r] = tb_seconds() - t0;
        x->per_call = 0;
        if (tb_warm && permute_pass(pool, x) != 0) return 1;
        t0 = tb_seconds();
        if (permute_pass(pool, x) != 0) return 1;
        op[r] = tb_seconds() - t0;
        x->per_call = 1;
        if (tb_warm && permute_pass(pool, x) != 0) return 1;
        t0 = tb_seconds();
        if (permute_pass(pool, x) != 0) return 1;
        call[r] = tb_seconds() - t0;
    }
    *cp_s = tb_median(cp, reps);
    *op_s = tb_median(op, reps);
    *call_s = tb_median(call, reps);
    return 0;
}

/* What the summary needs of each case: the measured and the predicted ratio. */
typedef struct tally {
    double ratio[TB_MAX_CASES], model[TB_MAX_CASES];
    size_t n;
} tally;

static int run_case(size_t index, const tcase *c, size_t esize, int reps, size_t pool_mib,
                    int verbose, tally *t)
{
    unsigned char plan[4096];
    char dims[128], perm[64], text[512];
    size_t bytes = esize, k;
    perm_ctx x;
    tb_pool pool;
    double init_s, cp_s, op_s, call_s;
    for (k = 0; k < c->rank; k++) bytes *= c->dims[k];
    if (tpose_permute_plan_bytes(c->rank) > sizeof plan ||
        tpose_permute_plan_init(plan, sizeof plan, NULL, NULL, c->rank, c->dims, c->perm,
                                esize) != TPOSE_OK) {
        fprintf(stderr, "case %zu: plan init failed\n", index);
        return 1;
    }
    init_s = init_seconds(c, esize, plan, sizeof plan);
    pool = tb_pool_make(bytes, bytes, tb_warm ? 0 : pool_mib * TB_MIB);
    x.c = c;
    x.esize = esize;
    x.plan = plan;
    x.per_call = 0;
    if (permute_pass(&pool, &x) != 0 || measure(&pool, bytes, &x, reps, &cp_s, &op_s, &call_s)) {
        fprintf(stderr, "case %zu: permute failed\n", index);
        tb_pool_free(&pool);
        return 1;
    }
    put_list(dims, sizeof dims, c->dims, c->rank);
    put_list(perm, sizeof perm, c->perm, c->rank);
    printf("| %zu | %s | %s | %s | %zu | %.2f | %.2f | %.2f | %.1f | %+.1f%% |\n", index, c->tag,
           dims, perm, esize, 2e-9 * (double)(bytes * pool.count) / op_s, cp_s / op_s,
           1.0 / tpose_permute_plan_cost(plan), init_s * 1e6, 100.0 * (call_s / op_s - 1.0));
    if (strcmp(c->tag, "ttc") == 0) {
        t->ratio[t->n] = cp_s / op_s;
        t->model[t->n++] = 1.0 / tpose_permute_plan_cost(plan);
    }
    if (verbose) {
        tpose_permute_plan_describe(plan, text, sizeof text);
        printf("|   | %s |\n", text);
    }
    fflush(stdout);
    tb_pool_free(&pool);
    return 0;
}

/* One line per element size over the TTC cases: the lowest and the median ratio, and how
   many predictions are within 30% of the measurement. */
static void summary(size_t esize, tally *t)
{
    double lowest = 1e30, sorted[TB_MAX_CASES];
    size_t i, close = 0;
    if (t->n == 0) return;
    for (i = 0; i < t->n; i++) {
        const double err = t->model[i] / t->ratio[i] - 1.0;
        close += err <= 0.3 && err >= -0.3;
        if (t->ratio[i] < lowest) lowest = t->ratio[i];
        sorted[i] = t->ratio[i];
    }
    printf("esize %zu: %zu cases, ratio lowest %.2f median %.2f; model within 30%%: %zu of "
           "%zu (%.0f%%)\n",
           esize, t->n, lowest, tb_median(sorted, (int)t->n), close, t->n,
           100.0 * (double)close / (double)t->n);
}

static void usage(void)
{
    fputs("usage: tpose-bench-permute [-f FILE] [-e ESIZE]... [-c CASE] [-n REPS] [-m MIB] "
          "[-l KERNEL] [-w] [-v] [-H]\n",
          stderr);
}

int main(int argc, char **argv)
{
    static tcase cases[TB_MAX_CASES];
    static tally tallies[8];
    const char *file = TB_CASES_FILE;
    size_t esizes[8], n_esizes = 0, n, i, only = 0, pool_mib = 256, e;
    int reps = 5, verbose = 0, opt, failed = 0;
    while ((opt = getopt(argc, argv, "f:e:c:n:m:l:wvHh")) != -1) {
        switch (opt) {
        case 'f': file = optarg; break;
        case 'e':
            if (n_esizes < 8) esizes[n_esizes++] = strtoul(optarg, NULL, 10);
            break;
        case 'c': only = strtoul(optarg, NULL, 10); break;
        case 'n': reps = atoi(optarg); break;
        case 'm': pool_mib = strtoul(optarg, NULL, 10); break;
        case 'l':
            if (tb_kernel_by_name(optarg) < 0) {
                fprintf(stderr, "tpose-bench-permute: unknown kernel '%s'\n", optarg);
                return 2;
            }
            tpose_kernel_limit((tpose_kernel)tb_kernel_by_name(optarg));
            break;
        case 'w': tb_warm = 1; break;
        case 'v': verbose = 1; break;
        case 'H': tb_huge_pages = 1; break;
        default: usage(); return opt == 'h' ? 0 : 2;
        }
    }
    if (n_esizes == 0) {
        esizes[0] = 4;
        esizes[1] = 2;
        esizes[2] = 1;
        n_esizes = 3;
    }
    if (reps < 1) reps = 1;
    n = add_extras(cases, read_cases(file, cases, TB_MAX_CASES - 3));
    printf("%s data, %d passes, medians; ratio = memcpy time / permute time; model = 1 / "
           "tpose_permute_plan_cost; per call = tpose_permute over a saved plan's apply\n\n",
           tb_warm ? "warm" : "cold", reps);
    printf("| # | case | dims | perm | esize | GB/s | ratio | model | init us | per call |\n");
    printf("|---:|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (e = 0; e < n_esizes; e++) {
        tallies[e].n = 0;
        for (i = 0; i < n; i++)
            if (only == 0 || only == i + 1)
                failed |= run_case(i + 1, &cases[i], esizes[e], reps, pool_mib, verbose,
                                   &tallies[e]);
    }
    printf("\n");
    for (e = 0; e < n_esizes; e++) summary(esizes[e], &tallies[e]);
    return failed;
}
