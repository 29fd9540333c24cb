/* bench.c - tpose-bench: out-of-place transposition speed per kernel, against memcpy of the
   same bytes timed in the same process.

   For each shape and element size it prints, per supported kernel (and AUTO), the median
   GB/s (bytes = 2 * rows * cols * esize: every byte read once and written once), the median
   time-stamp-counter ticks per element, and the ratio of memcpy's median time to the
   kernel's (1.0 = memcpy speed). Out-of-cache shapes cycle through enough distinct matrix
   pairs that each measurement moves at least 1 GiB (-m); buffers are pre-faulted.

   tpose-bench                         default sweep: esize 1, 2, 4, 8 from cache-resident
                                       to >= 256 MiB
   tpose-bench -r 8256 -c 8256 -e 1    one shape (-c defaults to -r)
   options: -e ESIZE[,ESIZE...]  -k KERNEL[,KERNEL...] (names as tpose_kernel_name, auto, or
            peers: the other libraries built in with the Meson option `peers`; or one of
            them: openblas, libxsmm, fftw)
            -n REPS (default 5; 101 with -w)  -m MIB moved per measurement (default 1024;
            0 = one pair, cache-resident)  -w (warm data: one pair, every timed pass after an
            untimed one of the same routine, memcpy too; a last column says which cache the
            pair fits in)  -l KERNEL (tpose_kernel_limit: AUTO as on a CPU whose best is
            KERNEL, e.g. avx2-stream on an AVX-512 host)  -H (matrices on 2 MiB transparent
            huge pages)  -S (one source shared by the pool: the stores alone from memory;
            bench_common.h)
            -L SRC_LD  -D DST_LD (leading dimensions in elements, default dense: the cost of
            a stride class; memcpy still copies rows * cols * esize bytes, and the other
            libraries run only on dense matrices)  -C (CSV on stdout instead of the
            markdown table, the preamble on stderr; bench/plot.py draws it)  -h
   The default markdown output is parsed by bench/interleave.py, targets.sh and rects.sh:
   its format does not change (-w adds its column last). */
#include "bench_common.h"
#include <unistd.h>

#include "transpose.h" /* the implementation is linked in (transpose.c) */

/* -C: one CSV line per measurement (CSV_HEADER) instead of a markdown row, so results can be
   collected and plotted without parsing the table. */
static int csv_output = 0;

#define CSV_HEADER "shape,rows,cols,esize,kernel,gbps,ticks_per_elem,ratio_to_memcpy"

/* -w: the smallest cache the shape's source and destination fit in together ("L2"), or
   "memory"; the column after the ratio. */
static const char *warm_fit = "";

/* One result row, markdown or CSV. name: a kernel or peer library; picked: AUTO's kernel
   (markdown "auto (picked)", CSV "auto:picked") or NULL; failure: NULL, or why there is no
   measurement ("failed", "wrong": CSV leaves the numbers empty and says why on stderr). */
static void print_row(size_t rows, size_t cols, size_t esize, const char *name,
                      const char *picked, double gbps, double ticks, double ratio,
                      const char *failure)
{
    char label[64];
    const char *sep = tb_warm ? (csv_output ? "," : " ") : "";
    const char *fit = tb_warm ? warm_fit : "";
    const char *end = tb_warm && !csv_output ? " |" : "";
    if (picked)
        snprintf(label, sizeof label, csv_output ? "%s:%s" : "%s (%s)", name, picked);
    else
        snprintf(label, sizeof label, "%s", name);
    if (csv_output && failure) {
        printf("%zux%zu,%zu,%zu,%zu,%s,,,%s%s\n", rows, cols, rows, cols, esize, label, sep, fit);
        fprintf(stderr, "tpose-bench: %s %s on %zux%zu, esize %zu\n", label, failure, rows,
                cols, esize);
    } else if (csv_output) {
        printf("%zux%zu,%zu,%zu,%zu,%s,%.3f,%.4f,%.4f%s%s\n", rows, cols, rows, cols, esize,
               label, gbps, ticks, ratio, sep, fit);
    } else if (failure) {
        printf("| %zux%zu | %zu | %s | %s | | |%s%s%s\n", rows, cols, esize, label, failure, sep,
               fit, end);
    } else {
        printf("| %zux%zu | %zu | %s | %.2f | %.3f | %.2f |%s%s%s\n", rows, cols, esize, label,
               gbps, ticks, ratio, sep, fit, end);
    }
    fflush(stdout);
}

#include "bench_peers.h"

#define MAX_LIST 16

typedef struct options {
    size_t rows, cols;
    size_t esizes[MAX_LIST];
    int n_esizes;
    int kernels[TPOSE_KERNEL_COUNT]; /* 1 = selected */
    int any_kernel_selected;
    unsigned peers; /* PEER_* bits of -k (all of them run when no -k is given) */
    int reps;
    size_t pool_mib;
    int pool_set;
    size_t src_ld, dst_ld; /* 0: dense */
} options;

typedef struct pass_ctx {
    tpose_kernel kernel;
    size_t rows, cols, esize;
    size_t src_ld, dst_ld;
} pass_ctx;

static int transpose_pass(const tb_pool *pool, void *arg)
{
    const pass_ctx *c = (const pass_ctx *)arg;
    size_t i;
    for (i = 0; i < pool->count; i++)
        if (tpose_matrix_with(c->kernel, pool->dst[i], c->dst_ld, pool->src[i], c->src_ld,
                              c->rows, c->cols, c->esize) != TPOSE_OK)
            return 1;
    return 0;
}

static void print_header(void)
{
    if (csv_output) {
        printf("%s%s\n", CSV_HEADER, tb_warm ? ",data_in" : "");
        return;
    }
    printf("| shape | esize | kernel | GB/s | ticks/elem | ratio to memcpy |%s\n",
           tb_warm ? " data in |" : "");
    printf("|---|---:|---|---:|---:|---:|%s\n", tb_warm ? "---|" : "");
}

static void run_kernel(const tb_pool *pool, pass_ctx *ctx, int reps)
{
    const size_t bytes = ctx->rows * ctx->cols * ctx->esize;
    const double elems = (double)ctx->rows * (double)ctx->cols * (double)pool->count;
    const char *picked =
        ctx->kernel == TPOSE_KERNEL_AUTO
            ? tpose_kernel_name(tpose_kernel_auto(ctx->rows, ctx->cols, ctx->esize))
            : NULL;
    tb_result res;
    if (tb_measure(pool, bytes, transpose_pass, ctx, reps, &res) != 0) {
        print_row(ctx->rows, ctx->cols, ctx->esize, tpose_kernel_name(ctx->kernel), picked, 0,
                  0, 0, "failed");
        return;
    }
    print_row(ctx->rows, ctx->cols, ctx->esize, tpose_kernel_name(ctx->kernel), picked,
              2.0 * (double)bytes * (double)pool->count / res.op_seconds * 1e-9,
              res.op_ticks / elems, res.memcpy_seconds / res.op_seconds, NULL);
}

/* The smallest data cache holding `bytes` (sysconf's sizes where the C library has them). */
static const char *cache_fit(size_t bytes)
{
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) &&                    \
    defined(_SC_LEVEL3_CACHE_SIZE)
    static const int levels[] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE,
                                 _SC_LEVEL3_CACHE_SIZE};
    static const char *const names[] = {"L1", "L2", "L3"};
    int i;
    for (i = 0; i < 3; i++) {
        const long size = sysconf(levels[i]);
        if (size > 0 && bytes <= (size_t)size) return names[i];
    }
    return "memory";
#else
    (void)bytes;
    return "?";
#endif
}

/* Every selected kernel on one shape. Cache-resident shapes (a pair under 2 MiB) use one
   pair unless -m says otherwise. */
static void run_shape(const options *o, size_t rows, size_t cols, size_t esize)
{
    const size_t bytes = rows * cols * esize;
    const size_t src_ld = o->src_ld ? o->src_ld : cols, dst_ld = o->dst_ld ? o->dst_ld : rows;
    const int dense = src_ld == cols && dst_ld == rows;
    const size_t min_bytes =
        o->pool_set ? o->pool_mib * TB_MIB : (2 * bytes < 2 * TB_MIB ? 0 : 1024 * TB_MIB);
    tb_pool pool = tb_pool_make(rows * src_ld * esize, cols * dst_ld * esize, min_bytes);
    pass_ctx ctx;
    int k;
    ctx.rows = rows;
    ctx.cols = cols;
    ctx.esize = esize;
    ctx.src_ld = src_ld;
    ctx.dst_ld = dst_ld;
    warm_fit = cache_fit(pool.src_bytes + pool.dst_bytes);
    /* Two untimed passes first: the first kernel measured otherwise pays for the pool's
       pages settling (measured: +30% on the first row at N = 2112, 1-byte). */
    tb_memcpy_pass(&pool, bytes);
    tb_memcpy_pass(&pool, bytes);
    for (k = 0; k < (int)TPOSE_KERNEL_COUNT; k++) {
        if (o->any_kernel_selected && !o->kernels[k]) continue;
        if (!tpose_kernel_supported((tpose_kernel)k, esize)) continue;
        ctx.kernel = (tpose_kernel)k;
        run_kernel(&pool, &ctx, o->reps);
    }
    if (dense && (!o->any_kernel_selected || o->peers))
        peers_run_all(&pool, rows, cols, esize, o->reps, o->peers ? o->peers : PEER_ALL);
    tb_pool_free(&pool);
}

/* Cache-resident (256 KiB), the article's N = 2112 square, a 1-16 MiB rectangle, and a
   >= 256 MiB square (N + 64 so rows do not alias in the caches). */
static void default_sweep(const options *o, size_t esize)
{
    size_t hot = 16;
    size_t big;
    while ((hot * 2) * (hot * 2) * esize <= 256 * 1024) hot *= 2;
    big = esize == 1 ? 16448 : esize == 2 ? 11648 : esize == 4 ? 8256 : 5824;
    run_shape(o, hot, hot, esize);
    run_shape(o, 2112, 2112, esize);
    run_shape(o, 1000, 3000, esize);
    run_shape(o, big, big, esize);
}

static int parse_kernels(options *o, char *list)
{
    char *name = strtok(list, ",");
    for (; name; name = strtok(NULL, ",")) {
        const int k = tb_kernel_by_name(name);
        if (k < 0 && !peer_bits(name)) {
            fprintf(stderr, "tpose-bench: unknown kernel '%s'\n", name);
            return 1;
        }
        if (k >= 0) o->kernels[k] = 1;
        o->peers |= peer_bits(name);
        o->any_kernel_selected = 1;
    }
    return 0;
}

static int parse_esizes(options *o, char *list)
{
    char *tok = strtok(list, ",");
    for (; tok && o->n_esizes < MAX_LIST; tok = strtok(NULL, ",")) {
        const long v = strtol(tok, NULL, 10);
        if (v <= 0) return 1;
        o->esizes[o->n_esizes++] = (size_t)v;
    }
    return 0;
}

static int parse_options(options *o, int argc, char **argv)
{
    int c, reps_set = 0;
    memset(o, 0, sizeof *o);
    o->reps = 5;
    while ((c = getopt(argc, argv, "r:c:e:k:n:m:l:L:D:wHSCh")) != -1) {
        switch (c) {
        case 'r': o->rows = (size_t)strtoull(optarg, NULL, 10); break;
        case 'c': o->cols = (size_t)strtoull(optarg, NULL, 10); break;
        case 'e':
            if (parse_esizes(o, optarg)) return 1;
            break;
        case 'k':
            if (parse_kernels(o, optarg)) return 1;
            break;
        case 'n':
            o->reps = atoi(optarg) > 0 ? atoi(optarg) : 1;
            reps_set = 1;
            break;
        case 'w': tb_warm = 1; break;
        case 'l':
            if (tb_kernel_by_name(optarg) < 0) {
                fprintf(stderr, "tpose-bench: unknown kernel '%s' for -l\n", optarg);
                return 1;
            }
            tpose_kernel_limit((tpose_kernel)tb_kernel_by_name(optarg));
            break;
        case 'H': tb_huge_pages = 1; break;
        case 'S': tb_shared_source = 1; break;
        case 'C': csv_output = 1; break;
        case 'L': o->src_ld = (size_t)strtoull(optarg, NULL, 10); break;
        case 'D': o->dst_ld = (size_t)strtoull(optarg, NULL, 10); break;
        case 'm':
            o->pool_mib = (size_t)strtoull(optarg, NULL, 10);
            o->pool_set = 1;
            break;
        default: return 1;
        }
    }
    if (tb_warm) { /* one pair, whatever -m says */
        o->pool_mib = 0;
        o->pool_set = 1;
        if (!reps_set) o->reps = TB_MAX_REPS;
    }
    if (o->cols == 0) o->cols = o->rows;
    if ((o->src_ld || o->dst_ld) && o->rows == 0) return 1; /* strides need one shape */
    if ((o->src_ld && o->src_ld < o->cols) || (o->dst_ld && o->dst_ld < o->rows)) return 1;
    if (o->n_esizes == 0) {
        static const size_t defaults[] = {1, 2, 4, 8};
        for (c = 0; c < 4; c++) o->esizes[o->n_esizes++] = defaults[c];
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    FILE *pre;
    int e;
    if (parse_options(&o, argc, argv)) {
        fprintf(stderr, "usage: tpose-bench [-r ROWS] [-c COLS] [-e ESIZE,..] [-k KERNEL,..] "
                        "[-n REPS] [-m MIB] [-w] [-l KERNEL] [-L SRC_LD] [-D DST_LD] [-H] "
                        "[-S] [-C]\n");
        return 2;
    }
    pre = csv_output ? stderr : stdout; /* under -C stdout holds the CSV alone */
    fprintf(pre,
            "tpose-bench: one thread, median of %d passes; ratio = memcpy time / kernel time; "
            "%s pages%s%s",
            o.reps, tb_huge_pages ? "2 MiB" : "4 KiB",
            tb_shared_source ? "; one source shared by every pair (-S)" : "",
            tb_warm ? "; warm: one pair, each timed pass after an untimed one (-w)" : "");
    if (o.src_ld || o.dst_ld)
        fprintf(pre, "; leading dimensions: source %zu, destination %zu elements",
                o.src_ld ? o.src_ld : o.cols, o.dst_ld ? o.dst_ld : o.rows);
    fprintf(pre, csv_output ? "\n" : "\n\n");
    print_header();
    for (e = 0; e < o.n_esizes; e++) {
        if (o.rows)
            run_shape(&o, o.rows, o.cols, o.esizes[e]);
        else
            default_sweep(&o, o.esizes[e]);
    }
    return 0;
}
