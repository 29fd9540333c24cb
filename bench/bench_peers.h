/* bench_peers.h - other libraries' out-of-place transposes, timed by tpose-bench in the same
   process and on the same matrix pool as the tpose kernels (Meson option `peers`). Each peer
   is compiled in only when Meson found it (TB_PEER_OPENBLAS, TB_PEER_LIBXSMM, TB_PEER_FFTW),
   and its output is checked byte for byte against tpose_matrix on the first pair. */
#ifndef TB_BENCH_PEERS_H
#define TB_BENCH_PEERS_H

#ifdef TB_PEER_OPENBLAS
#include <cblas.h>
#endif
#ifdef TB_PEER_LIBXSMM
#include <libxsmm.h>
#endif
#ifdef TB_PEER_FFTW
#include <fftw3.h>
#endif

typedef struct peer_ctx {
    size_t rows, cols, esize;
    void *plan; /* FFTW: the guru plan of this shape */
} peer_ctx;

typedef int (*peer_fn)(const peer_ctx *c, unsigned char *dst, const unsigned char *src);

#ifdef TB_PEER_OPENBLAS
/* omatcopy, row-major, transposed, alpha 1: dst (cols x rows, ld rows) = src^T. */
static int peer_openblas(const peer_ctx *c, unsigned char *dst, const unsigned char *src)
{
    if (c->esize == 4)
        cblas_somatcopy(CblasRowMajor, CblasTrans, (blasint)c->rows, (blasint)c->cols, 1.0f,
                        (const float *)src, (blasint)c->cols, (float *)dst, (blasint)c->rows);
    else
        cblas_domatcopy(CblasRowMajor, CblasTrans, (blasint)c->rows, (blasint)c->cols, 1.0,
                        (const double *)src, (blasint)c->cols, (double *)dst, (blasint)c->rows);
    return 0;
}
#endif

#ifdef TB_PEER_LIBXSMM
/* libxsmm is column-major: our row-major rows x cols source is its cols x rows matrix. */
static int peer_libxsmm(const peer_ctx *c, unsigned char *dst, const unsigned char *src)
{
    libxsmm_otrans(dst, src, (unsigned int)c->esize, (libxsmm_blasint)c->cols,
                   (libxsmm_blasint)c->rows, (libxsmm_blasint)c->cols, (libxsmm_blasint)c->rows);
    return 0;
}
#endif

#ifdef TB_PEER_FFTW
/* A rank-0 guru r2r plan with two loop dimensions is FFTW's transposition (FFTW manual,
   "Guru Interface"); planned once per shape, executed on each pair (new-array execute). */
static void *peer_fftw_plan(size_t rows, size_t cols, size_t esize, unsigned char *dst,
                            unsigned char *src)
{
    if (esize == 8) {
        fftw_iodim d[2];
        d[0].n = (int)rows, d[0].is = (int)cols, d[0].os = 1;
        d[1].n = (int)cols, d[1].is = 1, d[1].os = (int)rows;
        return fftw_plan_guru_r2r(0, NULL, 2, d, (double *)src, (double *)dst, NULL,
                                  FFTW_ESTIMATE);
    } else {
        fftwf_iodim d[2];
        d[0].n = (int)rows, d[0].is = (int)cols, d[0].os = 1;
        d[1].n = (int)cols, d[1].is = 1, d[1].os = (int)rows;
        return fftwf_plan_guru_r2r(0, NULL, 2, d, (float *)src, (float *)dst, NULL,
                                   FFTW_ESTIMATE);
    }
}

static int peer_fftw(const peer_ctx *c, unsigned char *dst, const unsigned char *src)
{
    if (c->plan == NULL) return 1;
    if (c->esize == 8)
        fftw_execute_r2r((fftw_plan)c->plan, (double *)src, (double *)dst);
    else
        fftwf_execute_r2r((fftwf_plan)c->plan, (float *)src, (float *)dst);
    return 0;
}
#endif

#if defined(TB_PEER_OPENBLAS) || defined(TB_PEER_LIBXSMM) || defined(TB_PEER_FFTW)
typedef struct peer_pass {
    peer_fn fn;
    peer_ctx ctx;
} peer_pass;

static int peer_pass_run(const tb_pool *pool, void *arg)
{
    const peer_pass *p = (const peer_pass *)arg;
    size_t i;
    for (i = 0; i < pool->count; i++)
        if (p->fn(&p->ctx, pool->dst[i], pool->src[i]) != 0) return 1;
    return 0;
}

/* Times one peer on the pool and prints a row like run_kernel's (print_row, bench.c:
   markdown or CSV); "wrong" when its output on the first pair differs from tpose_matrix's. */
static void peer_run(const tb_pool *pool, const char *name, peer_fn fn, peer_ctx ctx, int reps)
{
    const size_t bytes = ctx.rows * ctx.cols * ctx.esize;
    const double elems = (double)ctx.rows * (double)ctx.cols * (double)pool->count;
    unsigned char *want = tb_alloc(bytes);
    peer_pass pass;
    tb_result res;
    int wrong;
    pass.fn = fn;
    pass.ctx = ctx;
    tpose_matrix(want, ctx.rows, pool->src[0], ctx.cols, ctx.rows, ctx.cols, ctx.esize);
    wrong = fn(&ctx, pool->dst[0], pool->src[0]) != 0 || memcmp(want, pool->dst[0], bytes);
    free(want);
    if (wrong || tb_measure(pool, bytes, peer_pass_run, &pass, reps, &res) != 0) {
        print_row(ctx.rows, ctx.cols, ctx.esize, name, NULL, 0, 0, 0,
                  wrong ? "wrong" : "failed");
        return;
    }
    print_row(ctx.rows, ctx.cols, ctx.esize, name, NULL,
              2.0 * (double)bytes * (double)pool->count / res.op_seconds * 1e-9,
              res.op_ticks / elems, res.memcpy_seconds / res.op_seconds, NULL);
}

#endif

/* -k names of the peers: one each, or all of them. */
enum { PEER_OPENBLAS = 1, PEER_LIBXSMM = 2, PEER_FFTW = 4, PEER_ALL = 7 };
static unsigned peer_bits(const char *name)
{
    return strcmp(name, "peers") == 0      ? PEER_ALL
           : strcmp(name, "openblas") == 0 ? PEER_OPENBLAS
           : strcmp(name, "libxsmm") == 0  ? PEER_LIBXSMM
           : strcmp(name, "fftw") == 0     ? PEER_FFTW
                                           : 0;
}

/* The peers of `which` (PEER_* bits) found at build time that handle this element size. */
static void peers_run_all(const tb_pool *pool, size_t rows, size_t cols, size_t esize, int reps,
                          unsigned which)
{
    peer_ctx ctx;
    ctx.rows = rows;
    ctx.cols = cols;
    ctx.esize = esize;
    ctx.plan = NULL;
#ifdef TB_PEER_OPENBLAS
    openblas_set_num_threads(1);
    if ((which & PEER_OPENBLAS) && (esize == 4 || esize == 8))
        peer_run(pool, "openblas omatcopy", peer_openblas, ctx, reps);
#endif
#ifdef TB_PEER_LIBXSMM
    if ((which & PEER_LIBXSMM) && (esize == 1 || esize == 2 || esize == 4 || esize == 8))
        peer_run(pool, "libxsmm otrans", peer_libxsmm, ctx, reps);
#endif
#ifdef TB_PEER_FFTW
    if ((which & PEER_FFTW) && (esize == 4 || esize == 8)) {
        ctx.plan = peer_fftw_plan(rows, cols, esize, pool->dst[0], pool->src[0]);
        peer_run(pool, "fftw guru", peer_fftw, ctx, reps);
        if (ctx.plan && esize == 8) fftw_destroy_plan((fftw_plan)ctx.plan);
        if (ctx.plan && esize == 4) fftwf_destroy_plan((fftwf_plan)ctx.plan);
    }
#endif
    (void)pool;
    (void)ctx;
    (void)reps;
    (void)which;
}

#endif
